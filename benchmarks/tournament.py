#!/usr/bin/env python3
"""Tournament scale: N simulated tables through one Mosquitto and one referees' dashboard.

    python benchmarks/tournament.py --tables 64

**The tables.** Each table plays a seeded self-play game (Sekigahara, and every fourth table
Tenka Meidou) into its own database at table speed, one entry every ``--pace`` seconds, and
publishes it through the real table publisher (``tournament.simtable.play_and_publish``): a
status and a feed message per entry, QoS 1, each with the table's ``seq`` and ``sent``. All the
tables run as threads of this process (64 Raspberry Pis in a real hall). Where the table side is
not installed, ``--tables-from shaped`` publishes contract-shaped messages (docs/tournament.md,
"Topics") from paho clients instead, at the same pace: say which in the figures.

**The pace.** ``--pace 4`` (one entry every 4 s a table, so 64 tables make 16 entries and 32
messages a second) is already several times a real hall: a Sekigahara table records an entry
every 10 to 30 s of play (a move, a bid, a combat card), and a 188-entry game lasts about 3
hours. ``--pace 1`` is the stress run (128 messages a second).

**The dashboard** runs as its own process (``companion tournament dashboard``), with one
headless Chromium showing its page. **Broker restart**: at half time Mosquitto is stopped and
started again (its persistence file kept); the tables play on and resend what it did not
acknowledge. At the end every table stops, and ``lost`` counts the sequence numbers a table
gave that the dashboard never received (after dropping resends by ``seq``).

Figures (measured here on this machine's clock: tables, broker, dashboard and browser share it):

- ``event_to_dashboard_ms p50/p99``: a table's ``sent`` to the dashboard's server having the
  message: in play (every message but the restart's), and the restart's apart (sent while
  the broker was down or in the :data:`SETTLE_S` after: they wait for the broker, then for
  the table's reconnection, 1 to 2 s);
- ``event_to_browser_ms p50/p99``: a feed message's ``sent`` to the page having painted it
  (the frame after the change, ``requestAnimationFrame``), the whole run;
- ``first_paint_ms``: a fresh page load with every table known, Chromium's first contentful
  paint and the frame showing all the tables (Navigation/Paint timing).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament import topics  # noqa: E402
from tournament.broker import Broker, free_port, prepare  # noqa: E402

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


SETTLE_S = 5.0
"""After the broker is back, how long the restart's figures last: the tables and the dashboard
reconnect 1 to 2 s after it, and resend what it did not acknowledge."""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def figures(name: str, values_s: list[float]) -> str:
    ms = [v * 1000 for v in values_s]
    return (f"{name}_p50_ms={percentile(ms, 50):.1f} {name}_p99_ms={percentile(ms, 99):.1f} "
            f"{name}_max_ms={max(ms, default=float('nan')):.1f} n={len(ms)}")


# ---------------------------------------------------------------------- the tables


class ShapedTable:
    """A table as the contract shapes it, without the game: a status and a feed message per
    entry, QoS 1, from a paho client that queues while the broker is away."""

    def __init__(self, broker: Broker, event: str, table: str) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.event, self.table, self.seq, self.acked = event, table, 0, 0
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{table}",
                                  protocol=mqtt.MQTTv311, clean_session=False)
        self.client.username_pw_set(table, broker.accounts.passwords[table])
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.max_queued_messages_set(0)
        self.client.on_publish = lambda *_: self._ack()
        self.client.connect(broker.host, broker.port)
        self.client.loop_start()

    def _ack(self) -> None:
        self.acked += 1

    def send(self, leaf: str, retain: bool, **fields: Any) -> None:
        self.seq += 1
        body = {"v": 1, "table": self.table, "seq": self.seq,
                "sent": datetime.now(UTC).isoformat(), **fields}
        self.client.publish(topics.table_topic(self.event, self.table, leaf), json.dumps(body),
                            qos=1, retain=retain)

    def play(self, pace_s: float, stop: threading.Event) -> dict[str, Any]:
        entry = 0
        number = int(self.table.split("-")[1])
        while not stop.wait(pace_s):
            entry += 1
            self.send("events", False, game_id=1, entry=entry, lines=[
                {"text": f"Tokugawa moves 3 blocks from Edo to Hakone ({entry})", "rule": "7.3"}])
            self.send("status", True, game="sekigahara", title="Sekigahara", game_id=1,
                      players={"ishida": f"Player {2 * number - 1}",
                               "tokugawa": f"Player {2 * number}"},
                      stage=f"Week {1 + entry // 30}, Movement Phase, Tokugawa to move",
                      score="Ishida 4, Tokugawa 5", discrepancies=0, waiting_for="tokugawa",
                      last_ruling=None, last_seal=None, finished=False, result=None,
                      alert=False)
        deadline = time.monotonic() + 30
        while self.acked < self.seq and time.monotonic() < deadline:
            time.sleep(0.05)  # the broker's acknowledgements: real I/O
        self.client.disconnect()
        self.client.loop_stop()
        return {"last_seq": self.seq, "pending": self.seq - self.acked}


def simulated(broker: Broker, event: str, table: str, number: int, pace_s: float,
              stop: threading.Event, where: Path) -> Callable[[], dict[str, Any]]:
    from tournament.simtable import play_and_publish

    game = "tenka-meidou" if number % 4 == 0 else "sekigahara"

    def run() -> dict[str, Any]:
        db = where / f"{table}.sqlite"
        done = play_and_publish(broker.url(table), db, game, number, pace_s, stop)
        return {"last_seq": done.last_seq, "pending": done.pending,
                "acked": acked_seqs(db), "errors": done.errors}

    return run


def acked_seqs(db: Path) -> list[int]:
    """The sequence numbers the broker acknowledged, from the table's outbox (a status that a
    newer one replaced before it was sent is never sent: its ``seq`` is not counted)."""
    import sqlite3

    from tournament.outbox import ACKED

    with sqlite3.connect(db) as connection:
        return [int(seq) for (seq,) in connection.execute(
            "SELECT seq FROM tournament_outbox WHERE state = ?", (ACKED,))]


# ---------------------------------------------------------------------- the browser


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="bench-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}", "--window-size=1280,800"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def wait_until(check: Callable[[], bool], bound_s: float) -> bool:
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)  # polling a browser and a server: real time
    return False


def first_paint(driver: Any, url: str, tables: int) -> dict[str, float]:
    driver.get(url)
    wait_until(lambda: bool(driver.execute_script("return window.dashboardPainted")), 30)
    got: dict[str, float] = driver.execute_script("""
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const nav = performance.getEntriesByType('navigation')[0];
        return {fcp: paint ? paint.startTime : -1, all: window.dashboardPainted,
                cards: document.querySelectorAll('.card').length,
                loaded: nav ? nav.loadEventEnd : -1};""")
    return got


# ---------------------------------------------------------------------- the run


def metrics(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/metrics", timeout=30) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--pace", type=float, default=4.0, help="seconds per entry a table")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the tables play")
    parser.add_argument("--restart-down", type=float, default=3.0,
                        help="seconds the broker stays down at half time")
    parser.add_argument("--tables-from", choices=("simtable", "shaped"), default=None,
                        help="the real table side (default when installed) or shaped messages")
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    source = args.tables_from
    if source is None:
        try:
            import tournament.simtable  # noqa: F401
            source = "simtable"
        except ImportError:
            source = "shaped"

    work = Path(tempfile.mkdtemp(prefix="bench-tournament-"))
    event = "bench-cup"
    broker = prepare(work / "broker", event=event, tables=args.tables, referees=["bench"],
                     port=free_port())
    broker.start()
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    dashboard = subprocess.Popen(
        [sys.executable, "-m", "companion", "tournament", "dashboard", "--broker",
         broker.url(topics.PLAYERS), "--port", str(port)], env=env, cwd=ROOT,
        stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    driver = None
    try:
        if not wait_until(lambda: _answers(port), 20):
            raise SystemExit("the dashboard did not start")
        if not args.no_browser:
            driver = browser()
            driver.get(url)
        stop = threading.Event()
        results: dict[str, dict[str, Any]] = {}
        runs: list[threading.Thread] = []
        for number in range(1, args.tables + 1):
            table = topics.table_name(number)
            if source == "simtable":
                play = simulated(broker, event, table, number, args.pace, stop, work)
            else:
                shaped = ShapedTable(broker, event, table)
                play = functools.partial(shaped.play, args.pace, stop)

            def run(name: str = table, go: Callable[[], dict[str, Any]] = play) -> None:
                try:
                    results[name] = go()
                except Exception as exc:  # one table's failure is a figure, not a crash
                    results[name] = {"error": f"{type(exc).__name__}: {exc}"}

            runs.append(threading.Thread(target=run, daemon=True))
            runs[-1].start()
            time.sleep(args.pace / args.tables)  # the tables' entries spread over the pace
        started = time.monotonic()
        time.sleep(args.seconds / 2)
        broker.stop()
        down_at = time.time()
        time.sleep(args.restart_down)
        broker.start()
        up_at = time.time()
        time.sleep(max(0.0, args.seconds - (time.monotonic() - started)))
        stop.set()
        for thread in runs:
            thread.join(60)
        wait_until(lambda: _caught_up(port, results), 30)
        seen = metrics(port)
        browser_ms: list[list[float]] = (
            driver.execute_script("return window.dashboardLatencies") if driver else [])
        painted = first_paint(driver, url, args.tables) if driver else None
    finally:
        if driver is not None:
            driver.quit()
        dashboard.terminate()
        dashboard.wait(10)
        broker.stop()
    timed = seen["latencies"]  # [sent, seconds to the dashboard]
    settled = up_at + SETTLE_S

    def calm(sent: float) -> bool:
        return not down_at <= sent <= settled

    steady = [lat for sent, lat in timed if calm(sent)]
    backlog = [lat for sent, lat in timed if not calm(sent)]
    lost, published, pending = 0, 0, 0
    for table, done in sorted(results.items()):
        if "error" in done:
            print(f"{table}: {done['error']}")
            continue
        got = set(seen["seqs"].get(table, []))
        sent = done.get("acked") or range(1, done["last_seq"] + 1)
        lost += sum(1 for seq in sent if seq not in got)
        published += len(sent)
        pending += done["pending"]
        for error in done.get("errors") or ():
            print(f"{table}: {error}")
    cores = os.cpu_count()
    print(f"measured here ({cores} cores), command: python benchmarks/tournament.py --tables "
          f"{args.tables} --pace {args.pace:g} --seconds {args.seconds:g}"
          + (" --tables-from shaped" if source == "shaped" else ""))
    print(f"tables={args.tables} source={source} pace_s={args.pace:g} "
          f"({args.tables / args.pace:.0f} entries/s in the hall) published_acked={published} "
          f"received_distinct={sum(len(v) for v in seen['seqs'].values())} "
          f"duplicates_dropped={seen['duplicates']}")
    print(figures("event_to_dashboard", steady) + "  (play: every message but the restart's)")
    print(figures("event_to_dashboard", backlog) + f"  (the restart's: sent while the broker "
          f"was down or in the {SETTLE_S:g} s after, the tables reconnecting)")
    if browser_ms:
        print(figures("event_to_browser", [ms / 1000 for sent, ms in browser_ms
                                           if calm(sent / 1000)])
              + "  (play: feed lines painted, but the restart's)")
    print(f"broker_restart: down {up_at - down_at:.1f} s at half time; lost={lost} "
          f"(published seqs the dashboard never received) pending_at_stop={pending}")
    if painted:
        print(f"first_paint with {painted['cards']} tables: first_contentful_paint_ms="
              f"{painted['fcp']:.0f} all_tables_painted_ms={painted['all']:.0f} "
              f"load_event_ms={painted['loaded']:.0f}")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if lost == 0 else 1


def _answers(port: int) -> bool:
    try:
        metrics(port)
    except OSError:
        return False
    return True


def _caught_up(port: int, results: dict[str, dict[str, Any]]) -> bool:
    seqs = metrics(port)["seqs"]
    return all(set(r.get("acked") or range(1, r.get("last_seq", 0) + 1)) <= set(seqs.get(t, []))
               for t, r in results.items())


if __name__ == "__main__":
    sys.exit(main())
