"""Waiting on a condition variable until a check passes or a deadline runs out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(changed: threading.Condition, check: Callable[[], T | None], timeout: float,
               what: str) -> T:
    """Return ``check()``'s first truthy result, re-checked whenever ``changed`` is notified
    (and at least every 0.1 s); raise TimeoutError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with changed:
        while True:
            found = check()
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{what}: condition not met within {timeout} s")
            changed.wait(min(left, 0.1))
