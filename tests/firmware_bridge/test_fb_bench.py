"""`companion hardware bench` against the simulator, whose read chances come from a model
(firmware_bridge/readmodel.py), so these test the bench's counting and verdict, not a reader."""

from __future__ import annotations

import pytest

from companion.cli import main
from firmware_bridge.bench import PASS_RATE, BenchStep, parse_heights, run_bench, verdict
from firmware_bridge.bridge import Bridge
from firmware_bridge.readmodel import Posture, ReadModel
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.wiring import AntennaKey


def test_the_model_reads_low_tags_and_loses_high_and_face_up_ones() -> None:
    model = ReadModel()
    assert model.read_chance(0, Posture.UPRIGHT) > 0.999
    assert model.read_chance(13, Posture.UPRIGHT) < 0.5
    for height in range(14):
        assert model.read_chance(height, Posture.FACE_UP) < model.read_chance(
            height, Posture.UPRIGHT)
    assert ReadModel(antenna_mm=90, ni=1.0).read_chance(10, Posture.UPRIGHT) > 0.99


def test_the_bench_measures_each_block_bottom_first(
    table: SimulatedTable, bridge: Bridge
) -> None:
    key = AntennaKey("hub-1", 3)
    zone = table.wiring.table()[key]
    blocks = ["I01", "I02", "I03", "T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08",
              "T09", "T10", "T11"]
    built: list[tuple[Posture, int]] = []

    def build(posture: Posture, height: int) -> None:
        built.append((posture, height))
        for block in blocks:
            table.lift(block)
        table.stack(zone, posture, blocks[:height])

    said: list[str] = []
    steps = run_bench(bridge, key, [1, 3, 14], list(Posture), 0.6, build, said.append)
    assert built == [(p, h) for p in Posture for h in (1, 3, 14)]
    assert [(s.posture, s.height, len(s.rates)) for s in steps] == [
        (p, h, h) for p in Posture for h in (1, 3, 14)]
    assert all(s.scans >= 15 for s in steps)  # 50 scans/s for 0.6 s
    low = {(s.posture, s.height): s for s in steps}
    assert low[Posture.UPRIGHT, 3].passed and low[Posture.FACE_UP, 3].passed
    top = low[Posture.FACE_UP, 14]
    assert not top.passed and top.rates[0] == 1.0 and top.rates[-1] < 0.05
    lines, ok = verdict(steps)
    assert not ok
    assert lines[1].startswith("face-up: FAIL from 14 high")
    assert lines[-1].startswith("this antenna reads a full stack: FAIL")
    assert said[0].startswith("upright   1 high,") and said[0].endswith("100  ok")


def test_the_verdict_passes_only_when_every_posture_reads_the_full_stack() -> None:
    good = BenchStep(Posture.UPRIGHT, 12, 30, (1.0,) * 12)
    edge = BenchStep(Posture.FACE_UP, 12, 30, (1.0,) * 11 + (PASS_RATE - 0.01,))
    assert verdict([good])[1] and not verdict([good, edge])[1]
    assert not verdict([BenchStep(Posture.UPRIGHT, 4, 0, (0.0,) * 4)])[1]  # no scans at all
    assert not verdict([])[1]


def test_heights_are_a_rising_range_or_list() -> None:
    assert parse_heights("1-4") == [1, 2, 3, 4]
    assert parse_heights("1,4, 8-9") == [1, 4, 8, 9]
    for bad in ("5-2", "0-3", "a", "4,2", "41"):
        with pytest.raises(ValueError, match="heights"):
            parse_heights(bad)


def test_bench_command_with_the_simulator(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hardware", "bench", "--simulate", "--rate", "50", "--heights", "1,2",
                 "--posture", "upright", "--seconds", "0.6"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "bench on hub-1/A00" in out and "upright   2 high" in out
    assert "this antenna reads a full stack: PASS" in out
    assert "a model, not a measurement" in out
    code = main(["hardware", "bench", "--simulate", "--rate", "50", "--heights", "14",
                 "--posture", "face-up", "--seconds", "0.6"])
    out = capsys.readouterr().out
    assert code == 1 and "this antenna reads a full stack: FAIL" in out


def test_bench_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "bench", "--simulate", "--heights", "9-3"]) == 1
    assert capsys.readouterr().err.startswith("companion hardware bench: error: heights '9-3'")
    assert main(["hardware", "bench", "--simulate", "--antenna", "99", "--seconds", "1"]) == 1
    assert "no antenna 99 on hub 'hub-1'" in capsys.readouterr().err
