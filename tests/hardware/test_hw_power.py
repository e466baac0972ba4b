"""The hub's two watchdogs (sekihub/power.py): a hung reader brought back through the readers'
shared RST line, rate-limited; and a module rail that fails, during which nothing is driven
into the modules and ``FAULT HUB POWER`` goes once a second.

Every antenna is the real PN5180 driver over an emulated chip (hw_fakes.FakePN5180): a chip
``stuck`` keeps BUSY high until RST, and one without power asserts on any SPI or NSS.
"""

from __future__ import annotations

from hw_fakes import FakeClock, FakeLeds, FakeModuleLines, FakePN5180, FakePort, FakeRail
from sekihub.hub import Antenna, Hub
from sekihub.pn5180 import PN5180
from sekihub.power import RESET_GAP_MS

from firmware_bridge import protocol as p


class Rig:
    def __init__(self, n: int = 4, shared_reset: bool = True, rail: float = 5.0) -> None:
        self.clock = FakeClock()
        self.port = FakePort()
        self.leds = FakeLeds(n)
        self.chips = [FakePN5180(self.clock) for _ in range(n)]
        self.modules = FakeModuleLines(self.chips, self.clock)
        self.rail = FakeRail(self.chips)
        self.rail.set(rail)
        antennas = [Antenna(PN5180(c, c, self.clock, name=f"PN5180#{i}"))
                    for i, c in enumerate(self.chips)]
        self.hub = Hub("hub-1", antennas, self.port, self.clock, self.leds, rate_hz=10,
                       modules=self.modules if shared_reset else None, rail=self.rail)

    def run_ms(self, ms: int) -> list[p.Message]:
        end = self.clock.us + ms * 1000
        while self.clock.us < end:
            self.hub.step()
            self.clock.advance_ms(5)
        return [p.decode_line(line).message for line in self.port.take_lines()]


def hub_faults(messages: list[p.Message], code: str) -> list[p.Fault]:
    return [m for m in messages if isinstance(m, p.Fault) and m.antenna is None
            and m.code == code]


def test_a_hung_reader_is_reset_through_rst_and_scanning_goes_on() -> None:
    rig = Rig()
    rig.chips[1].tags = {0xE004015000000011}
    rig.chips[2].tags = {0xE004015000000022}
    rig.run_ms(300)
    rig.chips[1].stuck = True  # BUSY high for good: only RST frees it
    out = rig.run_ms(300)
    assert any(isinstance(m, p.Fault) and m.antenna == 1 and m.code == "NO_READER" for m in out)
    (reset,) = hub_faults(out, "RESET")
    assert "A01" in reset.detail
    assert rig.modules.log == ["reset"] and all(c.resets == 1 for c in rig.chips)
    snaps = [m for m in out if isinstance(m, p.Snapshot)]
    after = out.index(reset)
    assert {m.antenna for m in out[after:] if isinstance(m, p.Snapshot)} == {0, 1, 2, 3}
    assert [m.uids for m in snaps if m.antenna == 1][-1] == ("E004015000000011",)
    assert [m.uids for m in snaps if m.antenna == 2][-1] == ("E004015000000022",)


def test_a_reader_dead_for_good_is_reset_ever_more_rarely() -> None:
    rig = Rig()
    rig.run_ms(300)
    rig.chips[3].dead = True  # RST does not help
    out = rig.run_ms(65_000)
    resets = hub_faults(out, "RESET")
    # at once, then 10 s later, then 20 s after that (the gap doubles while it stays dead)
    assert len(resets) == 3 and len(rig.modules.log) == 3
    assert RESET_GAP_MS == 10_000
    assert {m.antenna for m in out[-40:] if isinstance(m, p.Snapshot)} == {0, 1, 2}


def test_a_reader_that_never_answered_is_not_a_reason_to_reset_the_others() -> None:
    rig = Rig()
    rig.chips[2].absent = True  # not fitted
    out = rig.run_ms(3000)
    assert any(isinstance(m, p.Fault) and m.antenna == 2 for m in out)
    assert hub_faults(out, "RESET") == [] and rig.modules.log == []


def test_without_a_shared_reset_line_a_hung_reader_is_only_reported() -> None:
    rig = Rig(shared_reset=False)
    rig.run_ms(300)
    rig.chips[1].stuck = True
    out = rig.run_ms(3000)
    assert hub_faults(out, "RESET") == []
    assert sum(isinstance(m, p.Fault) and m.antenna == 1 for m in out) >= 2


def test_while_the_module_rail_is_down_nothing_reaches_the_modules() -> None:
    rig = Rig()
    rig.chips[0].tags = {0xE004015000000001}
    rig.run_ms(300)
    rig.port.inbox += p.encode(p.SetLed(0, p.LedMode.BLINK), 1)
    rig.run_ms(100)
    shows = rig.leds.shows
    rig.rail.set(3.4)  # the supply sags: the chips lose power (any SPI to them asserts)
    rig.port.inbox += p.encode(p.SelfTest(), 2)
    out = rig.run_ms(3000)
    power = hub_faults(out, "POWER")
    assert power[0].detail == "module rail at 3.4 V: check the 12 V supply"
    assert 3 <= len(power) <= 4  # once a second
    assert not any(isinstance(m, p.Snapshot) for m in out)
    tests = [m for m in out if isinstance(m, p.TestResult)]
    assert len(tests) == 4 and not any(t.passed for t in tests)
    assert rig.modules.held and rig.leds.shows == shows  # no LED data either
    assert sum(c.unpowered for c in rig.chips) == 0
    assert not any(isinstance(m, p.Fault) and m.antenna is not None for m in out)
    rig.rail.set(4.4)  # powered again, but below the hysteresis: still held
    assert not any(isinstance(m, p.Snapshot) for m in rig.run_ms(200))
    assert rig.modules.held
    rig.rail.set(5.0)
    out = rig.run_ms(500)
    assert rig.modules.log[-2:] == ["release", "reset"] and not rig.modules.held
    assert rig.leds.shows > shows
    snaps = {m.antenna: m.uids for m in out if isinstance(m, p.Snapshot)}
    assert snaps[0] == ("E004015000000001",) and set(snaps) == {0, 1, 2, 3}
    assert hub_faults(out, "POWER") == []


def test_a_hub_that_starts_without_its_module_rail_waits_for_it() -> None:
    rig = Rig(rail=0.2)
    out = rig.run_ms(1500)
    assert isinstance(out[0], p.Hello) and hub_faults(out, "POWER")
    assert all(c.resets == 0 and c.unpowered == 0 for c in rig.chips)
    assert not any(isinstance(m, p.Fault) and m.antenna is not None for m in out)
    rig.rail.set(5.0)
    out = rig.run_ms(500)
    assert {m.antenna for m in out if isinstance(m, p.Snapshot)} == {0, 1, 2, 3}


def test_a_hub_without_rail_sense_never_reports_power() -> None:
    rig = Rig()
    rig.hub.rail = type("NoSense", (), {"volts": lambda self: None})()
    assert hub_faults(rig.run_ms(1500), "POWER") == []
