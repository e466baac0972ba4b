"""The referee PIN: scrypt hash only, persisted, growing delay after wrong tries."""

from __future__ import annotations

import json
import stat
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
