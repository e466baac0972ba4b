"""A real Mosquitto on a loopback port for the tournament tests (installed by ``dev.py test``
when it runs as root on Debian; the tests skip and say so where it is missing)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tournament.broker import Broker, BrokerError, free_port, mosquitto_binary, prepare


def _need_mosquitto() -> None:
    try:
        mosquitto_binary()
    except BrokerError as exc:
        pytest.skip(str(exc))


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """An event's broker with 4 tables and the referee ``referee-ana``."""
    _need_mosquitto()
    with prepare(tmp_path / "broker", event="test-cup", tables=4, referees=["ana"],
                 port=free_port()) as running:
        yield running
