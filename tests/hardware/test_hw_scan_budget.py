"""The scan-time arithmetic quoted in hardware/README.md, checked against hand calculation."""

from __future__ import annotations

import pytest
import scan_budget as sb


def test_iso15693_timing_constants() -> None:
    assert pytest.approx(75.52, abs=0.01) == sb.SYMBOL_2BITS  # 1024/fc: 2 bits -> 26.48 kbit/s
    assert pytest.approx(26.48, abs=0.01) == 2 / sb.SYMBOL_2BITS * 1000  # kbit/s
    assert pytest.approx(37.76, abs=0.01) == sb.VICC_BIT
    assert pytest.approx(151.04, abs=0.02) == sb.VICC_SOF
    assert pytest.approx(320.9, abs=0.1) == sb.T1
    assert pytest.approx(323.3 + 151.04, abs=0.1) == sb.T3


def test_frame_air_times_by_hand() -> None:
    # request: SOF 75.52 + 5 bytes = 20 symbols of 75.52 + EOF 37.76
    assert sb.request_us(0) == pytest.approx(75.52 + 20 * 75.52 + 37.76, abs=0.1)
    # a 4-bit mask adds one byte = 4 symbols
    assert sb.request_us(4) - sb.request_us(0) == pytest.approx(4 * 75.52, abs=0.1)
    # response: SOF + 96 bits of 37.76 + EOF
    assert sb.response_us() == pytest.approx(151.04 + 96 * 37.76 + 151.04, abs=0.5)


def test_empty_antenna_is_a_probe_only() -> None:
    air_ms, _, rounds, answered = sb.antenna_time(0, 120.0, trials=5)
    assert rounds == 0 and answered == 0
    assert air_ms == pytest.approx((1000 + sb.request_us(0) + sb.T3) / 1000, abs=0.01)


def test_one_tag_costs_two_probes_and_a_stay_quiet() -> None:
    air_ms, hub_ms, rounds, answered = sb.antenna_time(1, 120.0, trials=5)
    quiet = sb.VCD_SOF + 12 * 4 * sb.SYMBOL_2BITS + sb.VCD_EOF
    expected = (1000 + sb.request_us(0) + sb.T1 + sb.response_us() + sb.T2  # power-up, probe
                + quiet  # STAY QUIET to the tag heard
                + sb.request_us(0) + sb.T3) / 1000  # the last probe: nobody answers
    assert (rounds, answered) == (0, 1)
    assert air_ms == pytest.approx(expected, abs=0.01)
    assert hub_ms > air_ms


def test_a_dozen_tags_need_several_rounds_and_stay_under_a_third_of_a_second() -> None:
    air_ms, hub_ms, rounds, _ = sb.antenna_time(12, 120.0, trials=50)
    assert 2 < rounds < 8
    assert 100 < air_ms < 200 and hub_ms < 320


def test_field_model_falls_with_height() -> None:
    assert sb.loop_field(1.0, 50, 0) == pytest.approx(1.0 / 0.05)  # NI / (2a) at the centre
    assert sb.max_height_mm(1.0, 50, 0.15) > sb.max_height_mm(1.0, 38, 0.15)


def test_report_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert sb.main([]) == 0
    out = capsys.readouterr().out
    assert "board sweep" in out and "INVENTORY request" in out


def test_readme_quotes_the_tool() -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "hardware" / "README.md").read_text()
    rows = re.findall(r"^\| (\d+) \| ([\d.]+) \| ([\d.]+) ms \| ([\d.]+) ms \|$", readme, re.M)
    assert len(rows) >= 6
    for n, rounds, air, hub in rows:
        t_air, t_hub, t_rounds, _ = sb.antenna_time(int(n), 120.0)
        assert float(rounds) == pytest.approx(t_rounds, abs=0.06), n
        assert float(air) == pytest.approx(t_air, abs=0.6), n
        assert float(hub) == pytest.approx(t_hub, abs=0.6), n
