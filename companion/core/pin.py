"""The referee PIN: set on first use, stored only as a salted scrypt hash, slowed after misses.

The referee's views and commands on the touchscreen show every hidden block, so they sit behind
a PIN of 4 to 8 digits. Only ``hashlib.scrypt(pin, salt)`` is kept, with its random salt and
cost parameters, in a small JSON file (mode 0600, replaced atomically). After each wrong try
the next try must wait longer (1 s, 2 s, 4 s ... capped at 5 minutes); a try made during the
wait is refused without being checked, so guessing all 10,000 four-digit PINs takes days.
The count of wrong tries and the time of the last one are persisted, so restarting the app
does not reset the delay.

Usage (the touchscreen's referee screen)::

    pin = RefereePin(default_pin_path())
    if not pin.is_set():
        pin.set(entered)                 # PinError if not 4-8 digits
    elif pin.wait_seconds() > 0:
        show(f"wait {pin.wait_seconds():.0f} s")
    elif pin.check(entered):
        open_referee_view()
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = 1
MIN_DIGITS = 4
MAX_DIGITS = 8
MAX_DELAY_SECONDS = 300.0
# scrypt cost: 16 MiB of memory, about 0.1 s on a Raspberry Pi 4 (estimated from n*r).
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1


class PinError(ValueError):
    """A PIN that cannot be set or checked; the message is fit for the screen."""


def delay_after(failures: int) -> float:
    """Seconds to wait after ``failures`` consecutive wrong tries: 0, 1, 2, 4, ... <= 300."""
    if failures <= 0:
        return 0.0
    return min(MAX_DELAY_SECONDS, 2.0 ** min(failures - 1, 30))


def _validate(pin: str) -> str:
    if not (pin.isascii() and pin.isdigit()):
        raise PinError("the referee PIN must be digits only")
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        raise PinError(f"the referee PIN must have {MIN_DIGITS} to {MAX_DIGITS} digits")
    return pin


def _hash(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode("ascii"), salt=salt, n=n, r=r, p=p, dklen=32,
                          maxmem=256 * 1024 * 1024)


class RefereePin:
    """The referee PIN stored at ``path``. ``clock`` is wall-clock seconds (tests pass a fake)."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock

    def is_set(self) -> bool:
        """Whether a PIN has been set (the file exists and is readable)."""
        return self._load() is not None

    def set(self, pin: str) -> None:
        """Set (or replace) the PIN. The caller checks the old PIN first when replacing one."""
        _validate(pin)
        salt = secrets.token_bytes(16)
        record = {
            "format": FORMAT, "kdf": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P,
            "salt": salt.hex(), "hash": _hash(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P).hex(),
            "failures": 0, "last_failure": 0.0,
        }
        self._save(record)

    def wait_seconds(self) -> float:
        """Seconds before the next try will be checked (0.0 when a try may be made now)."""
        record = self._load()
        if record is None:
            return 0.0
        due = float(record["last_failure"]) + delay_after(int(record["failures"]))
        return max(0.0, due - self._clock())

    def check(self, pin: str) -> bool:
        """Whether ``pin`` is the referee PIN.

        A try during the delay returns False without being checked or counted. A wrong try
        lengthens the delay; a right one resets it. Raises PinError if no PIN is set.
        """
        record = self._load()
        if record is None:
            raise PinError("no referee PIN is set yet")
        if self.wait_seconds() > 0:
            return False
        try:
            candidate = _validate(pin)
        except PinError:
            candidate = None
        ok = candidate is not None and hmac.compare_digest(
            _hash(candidate, bytes.fromhex(record["salt"]), int(record["n"]), int(record["r"]),
                  int(record["p"])),
            bytes.fromhex(record["hash"]),
        )
        if ok:
            if record["failures"]:
                record["failures"], record["last_failure"] = 0, 0.0
                self._save(record)
            return True
        record["failures"] = int(record["failures"]) + 1
        record["last_failure"] = self._clock()
        self._save(record)
        return False

    def _load(self) -> dict[str, Any] | None:
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise PinError(
                f"cannot read the referee PIN file {self.path}: {exc.strerror}"
            ) from None
        try:
            record = json.loads(text)
            if not isinstance(record, dict) or record.get("format") != FORMAT:
                raise ValueError("unknown format")
            for key in ("salt", "hash"):
                bytes.fromhex(record[key])
            for key in ("n", "r", "p", "failures"):
                int(record[key])
            float(record["last_failure"])
        except (ValueError, KeyError, TypeError):
            raise PinError(
                f"the referee PIN file {self.path} is damaged; delete it to set a new PIN"
            ) from None
        return record

    def _save(self, record: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(record, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            raise PinError(f"cannot save the referee PIN to {self.path}: {exc.strerror}") from None
