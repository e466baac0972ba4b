"""`companion hardware bench` against the simulator, whose read chances come from a model
(firmware_bridge/readmodel.py), so these test the bench's counting, statistics and verdict, not
a reader."""

from __future__ import annotations

import math
import threading

import pytest
from fb_helpers import WAIT_S

from companion.cli import main
from firmware_bridge import protocol as p
from firmware_bridge.airtime import read_ms
from firmware_bridge.bench import (
    MAX_MISS,
    BenchStep,
    SoakResult,
    _Counter,
    block_verdict,
    fit_instr_us,
    miss_bounds,
    parse_heights,
    run_bench,
    run_soak,
    verdict,
)
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
    steps = run_bench(bridge, key, [1, 3, 14], list(Posture), 10.0, build, said.append,
                      reads=60)
    assert built == [(p, h) for p in Posture for h in (1, 3, 14)]
    assert [(s.posture, s.height, len(s.rates)) for s in steps] == [
        (p, h, h) for p in Posture for h in (1, 3, 14)]
    assert all(s.reads == 60 for s in steps)  # it waits for the reads, not for the clock
    low = {(s.posture, s.height): s for s in steps}
    assert low[Posture.UPRIGHT, 3].passed and low[Posture.FACE_UP, 3].passed
    top = low[Posture.FACE_UP, 14]
    assert top.failed and top.rates[0] == 1.0 and top.rates[-1] < 0.05
    assert top.verdicts[0] == "ok" and top.verdicts[-1] == "LOW"
    lines, ok = verdict(steps)
    assert not ok
    assert lines[1].startswith("face-up: FAIL from 14 high")
    assert lines[-1].startswith("this antenna reads a full stack: FAIL")
    assert said[0].startswith("upright   1 high,  60 reads:") and " 100  ok" in said[0]


def test_the_miss_rate_bounds_are_clopper_pearsons() -> None:
    # no miss in n reads: the upper bound solves (1 - q)^n = 5 %
    for n in (30, 59, 100):
        assert miss_bounds(0, n)[1] == pytest.approx(1 - 0.05 ** (1 / n), abs=1e-9)
    assert miss_bounds(0, 59)[1] < MAX_MISS < miss_bounds(0, 58)[1]  # 59 clean reads are enough
    assert miss_bounds(1, 100)[1] == pytest.approx(0.0466, abs=5e-4)  # one miss in 100: ok
    assert miss_bounds(2, 100)[1] > MAX_MISS  # two: not sure
    lower, upper = miss_bounds(10, 100)
    # the lower bound solves P(X >= 10) = 5 %
    assert sum(math.comb(100, i) * lower ** i * (1 - lower) ** (100 - i)
               for i in range(10)) == pytest.approx(0.95, abs=1e-6)
    assert lower > MAX_MISS and upper > 0.1
    assert miss_bounds(0, 0) == (0.0, 1.0)
    assert [block_verdict(m, 100) for m in (0, 1, 2, 9, 10)] == [
        "ok", "ok", "unsure", "unsure", "LOW"]


def test_the_verdict_passes_only_when_every_posture_is_sure_of_the_full_stack() -> None:
    good = BenchStep(Posture.UPRIGHT, 12, 100, (0,) * 11 + (1,))
    low = BenchStep(Posture.FACE_UP, 12, 100, (0,) * 11 + (12,))
    unsure = BenchStep(Posture.FACE_UP, 12, 30, (0,) * 12)  # 30 clean reads: bound 9.5 %
    assert verdict([good])[1] and not verdict([good, low])[1]
    lines, ok = verdict([good, unsure])
    assert not ok and lines[1].startswith("face-up: NOT SURE at 12 high")
    assert "--reads 100" in lines[1] and lines[-1].endswith("NOT SURE (read more)")
    assert verdict([good, low, unsure])[0][-1].endswith("before buying more)")
    assert not verdict([BenchStep(Posture.UPRIGHT, 4, 0, (0,) * 4)])[1]  # no reads at all
    assert not verdict([])[1]


def test_the_line_says_the_read_time_and_what_the_neighbour_heard() -> None:
    step = BenchStep(Posture.UPRIGHT, 2, 100, (0, 0), (40, 44, 90), 100, 7)
    assert step.line() == ("upright   2 high, 100 reads: % read bottom->top 100 100  ok; "
                           "read time median 44 ms, worst 90 ms; the neighbour heard this "
                           "stack in 7 of its 100 reads")


def test_the_time_per_spi_instruction_is_fitted_to_the_read_time_model() -> None:
    steps = [BenchStep(Posture.UPRIGHT, h, 100, (0,) * h,
                       tuple(round(read_ms(h, 250.0)) + d for d in (-3, 0, 40)))
             for h in (1, 4, 8, 12)]
    assert fit_instr_us(steps) == pytest.approx(250, abs=3)
    assert fit_instr_us([BenchStep(Posture.UPRIGHT, 3, 100, (0, 0, 0))]) is None


def test_quick_reads_are_not_counted_and_read_times_are(
    table: SimulatedTable, bridge: Bridge
) -> None:
    """A quick read does not ask the known tags again: a tag it leaves out is not a miss, and
    the bench must not count it (protocol 1.3, docs/protocol.md 4.2)."""
    key = AntennaKey("hub-1", 2)
    hub = table.hubs["hub-1"]
    counter = _Counter(bridge, key, None, wanted=4)
    stop = bridge.listen_snapshots(counter)
    ghost = "E004FFFF00000001"

    def inject() -> None:
        while not counter.counting:
            counter.enough.wait(0.01)
        for _ in range(3):
            for part in p.snapshot_frames(2, [ghost], read_ms=12, full=False):
                hub.send(part)
        for _ in range(4):
            for part in p.snapshot_frames(2, [], read_ms=777, full=True):
                hub.send(part)

    sender = threading.Thread(target=inject)
    sender.start()
    try:
        tally = counter.measure(WAIT_S)
    finally:
        sender.join()
        stop()
    assert tally.quick == 3 and ghost not in tally.tags
    assert tally.reads >= 4 and 777 in tally.read_ms and 12 not in tally.read_ms


def test_the_spi_soak_counts_identity_reads_and_their_errors(
    table: SimulatedTable, bridge: Bridge
) -> None:
    said: list[str] = []
    clean = run_soak(bridge, AntennaKey("hub-1", 0), 20, 0, said.append)
    assert clean == SoakResult(20, 0, 0) and said == []
    assert clean.lines(AntennaKey("hub-1", 0))[-1] == "the SPI wiring is clean: PASS"
    table.execute("fault osaka NO_READER")
    osaka = next(k for k, z in table.wiring.table().items() if z == "osaka")
    broken = run_soak(bridge, osaka, 5, 0, said.append)
    assert broken.errors == 5 and len(said) == 5 and "FAIL" in said[0]
    lines = broken.lines(osaka)
    assert "5 identity reads, 5 errors" in lines[0] and lines[-1].startswith(
        "the SPI wiring is clean: FAIL")


def test_heights_are_a_rising_range_or_list() -> None:
    assert parse_heights("1-4") == [1, 2, 3, 4]
    assert parse_heights("1,4, 8-9") == [1, 4, 8, 9]
    for bad in ("5-2", "0-3", "a", "4,2", "41"):
        with pytest.raises(ValueError, match="heights"):
            parse_heights(bad)


def test_bench_command_with_the_simulator(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hardware", "bench", "--simulate", "--rate", "50", "--heights", "1,2",
                 "--posture", "upright", "--reads", "60", "--soak", "10"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "bench on hub-1/A00" in out and "upright   2 high,  60 reads" in out
    assert "this antenna reads a full stack: PASS" in out
    assert "SPI soak on hub-1/A00: 10 identity reads, 0 errors" in out
    assert "the SPI wiring is clean: PASS" in out
    assert "a model, not a measurement" in out
    code = main(["hardware", "bench", "--simulate", "--rate", "50", "--heights", "14",
                 "--posture", "face-up", "--reads", "60", "--soak", "0", "--neighbour", "1"])
    out = capsys.readouterr().out
    assert code == 1 and "this antenna reads a full stack: FAIL" in out
    assert "hub-1/A01 beside it" in out and "SPI soak" not in out


def test_bench_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "bench", "--simulate", "--heights", "9-3"]) == 1
    assert capsys.readouterr().err.startswith("companion hardware bench: error: heights '9-3'")
    assert main(["hardware", "bench", "--simulate", "--antenna", "99", "--seconds", "1"]) == 1
    assert "no antenna 99 on hub 'hub-1'" in capsys.readouterr().err
    assert main(["hardware", "bench", "--simulate", "--neighbour", "0", "--seconds", "1"]) == 1
    assert "no neighbour antenna 0 on hub 'hub-1'" in capsys.readouterr().err
    assert main(["hardware", "bench", "--simulate", "--reads", "0"]) == 1
    assert "--reads must be 1..10000" in capsys.readouterr().err
