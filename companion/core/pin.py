"""The referee PIN: set on first use, stored only as a salted scrypt hash, slowed after misses.

The referee's views and commands on the touchscreen show every hidden block, so they sit behind
a PIN of 4 to 8 digits. Only ``hashlib.scrypt(pin, salt)`` is kept, with its random salt and
cost parameters, in a small JSON file (mode 0600 in a 0700 directory, replaced atomically).
After each wrong try the next try must wait longer (1 s, 2 s, 4 s ... capped at 5 minutes); a
try made during the wait is refused without being checked, so guessing all 10,000 four-digit
PINs takes days.

The lockout holds on an odd disk and without a clock:

* every try is counted as wrong in the file *before* it is checked (and the count reset when it
  was right), so a try is refused, with a message saying why, while the file cannot be written
  (a full or read-only SD card): no try goes unrecorded, and restarting the app does not reset
  the count;
* the wrong tries are also kept in memory, and the wait is measured on a monotonic clock (a Pi
  has no real-time clock: its wall clock jumps when NTP sets it). After a restart the wait for
  the recorded count starts again in full (``last_failure`` in the file is the wall-clock time,
  for people only).

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

import contextlib
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
MAX_FILE_BYTES = 4096
"""The PIN file is about 300 bytes; a longer one is damaged (never read whole)."""
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
    """The referee PIN stored at ``path``. ``clock`` is a monotonic clock in seconds (tests
    pass a fake)."""

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        self._clock = clock
        self._failures = 0
        """Consecutive wrong tries, as known in memory (at least as many as the file says)."""
        self._since = 0.0
        """When the wait for ``_failures`` started, on ``clock``."""

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
        self._failures = 0

    def wait_seconds(self) -> float:
        """Seconds before the next try will be checked (0.0 when a try may be made now). Never
        raises: a file that cannot be read leaves the wait known in memory."""
        try:
            record = self._load()
        except PinError:
            record = None
        if record is not None:
            self._recall(int(record["failures"]))
        if self._failures <= 0:
            return 0.0
        return max(0.0, self._since + delay_after(self._failures) - self._clock())

    def check(self, pin: str) -> bool:
        """Whether ``pin`` is the referee PIN.

        A try during the delay returns False without being checked or counted. Otherwise the
        try is first recorded as wrong; PinError, unchecked, if that cannot be written. A wrong
        try lengthens the delay; a right one resets it. PinError if no PIN is set.
        """
        record = self._load()
        if record is None:
            raise PinError("no referee PIN is set yet")
        if self.wait_seconds() > 0:
            return False
        counted = self._failures + 1
        record["failures"], record["last_failure"] = counted, time.time()
        try:
            self._save(record)
        except PinError as exc:
            raise PinError(f"no PIN can be tried while wrong tries cannot be recorded: {exc}"
                           ) from None
        try:
            candidate = _validate(pin)
        except PinError:
            candidate = None
        ok = candidate is not None and hmac.compare_digest(
            _hash(candidate, bytes.fromhex(record["salt"]), int(record["n"]), int(record["r"]),
                  int(record["p"])),
            bytes.fromhex(record["hash"]),
        )
        if not ok:
            self._failures, self._since = counted, self._clock()
            return False
        self._failures = 0
        record["failures"], record["last_failure"] = 0, 0.0
        with contextlib.suppress(PinError):  # right all the same: the file's count only
            self._save(record)               # makes the next wait longer
        return True

    def _recall(self, recorded: int) -> None:
        """Take the file's count of wrong tries when it knows more than memory (the app was
        restarted): the wait for it starts now, the time it was recorded being unknown."""
        if recorded > self._failures:
            self._failures, self._since = recorded, self._clock()

    def _load(self) -> dict[str, Any] | None:
        try:
            with self.path.open("rb") as file:
                raw = file.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise PinError(
                f"cannot read the referee PIN file {self.path}: {exc.strerror}"
            ) from None
        try:
            if len(raw) > MAX_FILE_BYTES:
                raise ValueError("too long")
            record = json.loads(raw.decode("utf-8"))
            if not isinstance(record, dict) or record.get("format") != FORMAT:
                raise ValueError("unknown format")
            for key in ("salt", "hash"):
                bytes.fromhex(record[key])
            for key in ("n", "r", "p", "failures"):
                int(record[key])
            float(record["last_failure"])
        except (ValueError, KeyError, TypeError, RecursionError):
            raise PinError(
                f"the referee PIN file {self.path} is damaged; delete it to set a new PIN"
            ) from None
        return record

    def _save(self, record: dict[str, Any]) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(record, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            raise PinError(f"cannot save the referee PIN to {self.path}: {exc.strerror}") from None
