"""What the dashboard's tests share: a real headless Chromium (Debian's, driven by its
chromedriver through Selenium), a table that answers record requests as the contract says, and
contract-shaped messages (docs/tournament.md, "Topics")."""

from __future__ import annotations

import json
import queue
import shutil
import tempfile
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from mqtt_helpers import Client

from tournament import topics
from tournament.broker import Broker

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


def need_browser() -> None:
    """Skip, saying what is missing, when there is no Chromium, chromedriver or Selenium."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not Path(program).exists():
            pytest.skip(f"{program} is missing: `sudo apt install chromium chromium-driver` "
                        "(python3 dev.py test installs them when run as root)")
    pytest.importorskip("selenium", reason="selenium is not installed: pip install -e '.[dev]'")


def chromium(width: int = 1280, height: int = 800) -> Any:
    """A fresh headless Chromium (its own profile directory, removed on ``quit``)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="dashboard-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    quit_driver = driver.quit

    def quit_and_clean() -> None:
        quit_driver()
        shutil.rmtree(profile, ignore_errors=True)

    driver.quit = quit_and_clean
    return driver


class Seq:
    """A table's sequence numbers: one counter for all its topics."""

    def __init__(self, start: int = 1) -> None:
        self.next = start

    def __call__(self) -> int:
        self.next += 1
        return self.next - 1


def shaped(table: str, seq: int, **fields: Any) -> str:
    """A message as a table sends it: ``v``, ``table``, ``seq``, ``sent`` and its fields."""
    return json.dumps({"v": 1, "table": table, "seq": seq,
                       "sent": datetime.now(UTC).isoformat(), **fields})


class RecordingTable:
    """A table's account answering every record request with ``export`` (as ``companion game
    export`` writes it), on the asking referee's reply topic."""

    def __init__(self, broker: Broker, event: str, table: str, export: str,
                 seq: Seq | None = None) -> None:
        self.event, self.table, self.export = event, table, export
        self.seq = seq or Seq(1000)
        self.client = Client(broker, table)
        self.client.subscribe(topics.table_topic(event, table, "record/request"))
        self.requests: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._answer, daemon=True)
        self._thread.start()

    def _answer(self) -> None:
        while not self._stop.is_set():
            try:
                got = self.client.messages.get(timeout=0.2)
            except queue.Empty:
                continue
            request = json.loads(got.payload)
            self.requests.append(request)
            reply = topics.record_reply_topic(self.event, request["referee"],
                                              request["request_id"])
            self.client.publish(reply, shaped(self.table, self.seq(),
                                              request_id=request["request_id"], game_id=1,
                                              export=self.export))

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.client.close()
