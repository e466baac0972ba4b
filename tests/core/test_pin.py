"""The referee PIN: scrypt hash only, persisted, growing delay after wrong tries."""

from __future__ import annotations

import inspect
import itertools
import json
import stat
import time
from pathlib import Path

import pytest

from companion.core.pin import PinError, RefereePin, delay_after


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_set_and_check_store_only_a_salted_hash(tmp_path: Path) -> None:
    path = tmp_path / "pin.json"
    pin = RefereePin(path)
    assert not pin.is_set()
    pin.set("4821")
    assert pin.is_set()
    text = path.read_text()
    assert "4821" not in text
    record = json.loads(text)
    assert record["kdf"] == "scrypt" and len(bytes.fromhex(record["salt"])) == 16
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert pin.check("4821")
    other = RefereePin(tmp_path / "other.json")
    other.set("4821")
    assert json.loads((tmp_path / "other.json").read_text())["hash"] != record["hash"]


@pytest.mark.parametrize("bad", ["123", "123456789", "12a4", "", " 1234", "١٢٣٤"])
def test_pin_must_be_4_to_8_ascii_digits(tmp_path: Path, bad: str) -> None:
    with pytest.raises(PinError):
        RefereePin(tmp_path / "pin.json").set(bad)
    assert not (tmp_path / "pin.json").exists()


def test_wrong_tries_grow_the_delay_and_tries_during_it_are_not_checked(tmp_path: Path) -> None:
    clock = Clock()
    pin = RefereePin(tmp_path / "pin.json", clock)
    pin.set("000042")
    assert pin.wait_seconds() == 0.0
    assert not pin.check("1111")
    assert pin.wait_seconds() == 1.0
    # The right PIN during the delay is refused without being checked or counted.
    assert not pin.check("000042")
    assert pin.wait_seconds() == 1.0
    clock.now += 1.0
    assert not pin.check("2222")
    assert pin.wait_seconds() == 2.0
    clock.now += 2.0
    assert not pin.check("3333")
    assert pin.wait_seconds() == 4.0
    # The delay survives a restart of the app.
    assert RefereePin(tmp_path / "pin.json", clock).wait_seconds() == 4.0
    clock.now += 4.0
    assert pin.check("000042")
    assert pin.wait_seconds() == 0.0
    assert not pin.check("1111")
    assert pin.wait_seconds() == 1.0


def test_delay_is_capped() -> None:
    assert [delay_after(k) for k in range(5)] == [0.0, 1.0, 2.0, 4.0, 8.0]
    assert delay_after(10_000) == 300.0


def test_check_without_a_pin_and_damaged_file_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / "pin.json"
    with pytest.raises(PinError, match="no referee PIN"):
        RefereePin(path).check("1234")
    path.write_text("{not json")
    with pytest.raises(PinError, match="damaged"):
        RefereePin(path).is_set()


def test_non_digit_try_counts_as_wrong(tmp_path: Path) -> None:
    clock = Clock()
    pin = RefereePin(tmp_path / "pin.json", clock)
    pin.set("1234")
    assert not pin.check("abcd")
    assert pin.wait_seconds() == 1.0


def test_the_wait_is_measured_on_the_monotonic_clock_not_the_wall_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi has no real-time clock: NTP sets its wall clock minutes after boot, by years. The
    wall clock jumping a year ahead between two tries must not end the wait."""
    assert inspect.signature(RefereePin).parameters["clock"].default is time.monotonic
    pin = RefereePin(tmp_path / "pin.json")  # the default clock
    pin.set("2468")
    wall = itertools.count(1_000.0, 365 * 86_400.0)  # a year later at every look
    monkeypatch.setattr("time.time", lambda: next(wall))
    assert not pin.check("1357")
    assert 0.5 < pin.wait_seconds() <= 1.0
    assert not pin.check("2468")  # refused unchecked: the wait is not over


def test_a_restart_with_the_clock_anywhere_waits_the_whole_delay_again(tmp_path: Path) -> None:
    """After a restart the time of the last wrong try is unknown (the boot-time clock starts
    again, the wall clock may be years off): the wait for the recorded count starts anew, never
    ends at once (the clock set ahead) nor lasts days (the clock set back)."""
    clock = Clock()
    path = tmp_path / "pin.json"
    pin = RefereePin(path, clock)
    pin.set("2468")
    for wrong in ("1111", "2222", "3333"):
        clock.now += pin.wait_seconds()
        assert not pin.check(wrong)
    for after_boot in (3.0, clock.now + 10 * 365 * 86_400.0):
        restarted = Clock()
        restarted.now = after_boot
        again = RefereePin(path, restarted)
        assert again.wait_seconds() == 4.0
        assert not again.check("2468")  # during the wait: refused unchecked
        restarted.now += 4.0
        assert again.wait_seconds() == 0.0
    assert again.check("2468")
    assert RefereePin(path, Clock()).wait_seconds() == 0.0


def test_no_try_is_checked_while_wrong_tries_cannot_be_recorded(tmp_path: Path) -> None:
    """A full or read-only SD card: the file cannot be replaced (here its temporary file is a
    directory, which stops root too). Every try is refused unchecked, the right PIN too, so the
    lockout cannot be escaped by restarting; once the file can be written, tries count again."""
    clock = Clock()
    path = tmp_path / "pin.json"
    pin = RefereePin(path, clock)
    pin.set("2468")
    stored = path.read_bytes()
    (tmp_path / "pin.json.tmp").mkdir()
    for guess in [f"{n:04d}" for n in range(30)] + ["2468"]:
        with pytest.raises(PinError, match="no PIN can be tried while wrong tries cannot be "
                                           "recorded: cannot save the referee PIN"):
            pin.check(guess)
        assert pin.wait_seconds() == 0.0
    assert path.read_bytes() == stored
    (tmp_path / "pin.json.tmp").rmdir()
    assert not pin.check("1111")
    assert pin.wait_seconds() == 1.0
    assert json.loads(path.read_text())["failures"] == 1


def test_wrong_tries_are_kept_in_memory_too(tmp_path: Path) -> None:
    """The file put back as it was before the wrong tries (or damaged) does not end the wait
    this app knows of; the wait is never an error on the PIN pad's every frame."""
    clock = Clock()
    path = tmp_path / "pin.json"
    pin = RefereePin(path, clock)
    pin.set("2468")
    before = path.read_bytes()
    for wrong in ("1111", "2222", "3333"):
        clock.now += pin.wait_seconds()
        assert not pin.check(wrong)
    path.write_bytes(before)
    assert pin.wait_seconds() == 4.0
    assert not pin.check("2468")
    path.write_text("[" * 3000)
    assert pin.wait_seconds() == 4.0
    with pytest.raises(PinError, match="damaged"):
        pin.check("2468")
    path.write_bytes(b"{" + b" " * 100_000)
    with pytest.raises(PinError, match="damaged"):
        pin.is_set()
