"""Kill a recording game with SIGKILL at random moments and check that nothing acknowledged is lost.

    .venv/bin/python benchmarks/crash_recovery.py --trials N [--seed S]

Each trial starts a child process that opens the game database, resumes the unfinished game
(or starts one) and plays on with seeded random players, printing ``ack E`` after every
``Game.submit`` that returned (E: events in the game so far, all committed). The parent kills
the child with SIGKILL either at a random moment (half of the trials) or just as the child
announces the start of its k-th commit (the other half: mid-commit), then measures recovery
(open the store, re-adjudicate the log: ``records.resume``) and checks that

* every acknowledged event is in the rebuilt game (``lost_events`` counts the shortfall),
* the database opens and the log re-adjudicates (``corrupt_databases`` counts failures),
* the rebuilt state equals a plain replay of the stored events.

"Mid-commit" is as close as a separate process can aim: the child prints ``commit`` just
before ``Game.submit`` opens its transaction, and the parent kills on reading it; the line
above the last counts the trials whose kill landed after a commit started and before its
``ack`` (inside the transaction, or between its end and the acknowledgement).

Trials chain on one database per game (the next child resumes what the last one left), so
resume after a kill is exercised too; a finished game starts a new database. The last line is
``trials=N acknowledged_events=A lost_events=L corrupt_databases=C recovery_p99_ms=R``
(recovery: median printed above it; p99 over all trials).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child(db: Path, seed: int) -> int:
    """Resume or start the game in ``db``; play until killed or the game ends."""
    from companion.core.game import Accepted
    from companion.core.store import CommandRecorder, Store
    from companion.games.sekigahara import records
    from companion.games.sekigahara.engine.players import RandomPlayer, Table
    from companion.games.sekigahara.engine.state import Phase

    class Announcing(CommandRecorder):
        def record(self, command: Any, events: Any) -> None:
            print("commit", flush=True)
            super().record(command, events)

    store = Store.open(db)
    unfinished = store.unfinished()
    if unfinished:
        game_id, game = records.resume(store, unfinished[0].id)
    else:
        game_id, game = records.start(store)
    game.recorder = Announcing(store, game_id)
    rng = random.Random(seed)
    table = Table.shuffled(random.Random(int(db.stem.split("-")[-1])))
    for event in game.events:
        table.observe(event)
    player = RandomPlayer(rng, table)
    print(f"ready {len(game.events)}", flush=True)
    rejected = 0
    while game.state.phase is not Phase.GAME_OVER and rejected < 200:
        result = game.submit(player.command(game.state))
        if isinstance(result, Accepted):
            for event in result.events:
                table.observe(event)
            print(f"ack {len(game.events)}", flush=True)
        else:
            rejected += 1
    records.finish_if_over(store, game_id, game)
    print("done", flush=True)
    return 0


def trial(db: Path, seed: int, rng: random.Random) -> dict[str, Any]:
    from companion.core.game import replay
    from companion.core.store import Store, StoreError
    from companion.games.sekigahara import records
    from companion.games.sekigahara.engine.game import SekigaharaRules

    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", str(db), "--seed", str(seed)],
        stdout=subprocess.PIPE, text=True, bufsize=1,
    )
    assert proc.stdout is not None
    acked = at_ready = 0
    done = in_commit = False
    mid_commit = rng.random() < 0.5
    kill_at_commit = rng.randint(1, 120)
    ready = threading.Event()

    def read() -> None:
        nonlocal acked, at_ready, done, in_commit
        commits = 0
        assert proc.stdout is not None
        for line in proc.stdout:
            word, *rest = line.split()
            if word == "ready":
                acked = at_ready = int(rest[0])
                ready.set()
            elif word == "ack":
                acked = int(rest[0])
                in_commit = False
            elif word == "done":
                done = True
            elif word == "commit":
                in_commit = True
                commits += 1
                if mid_commit and commits == kill_at_commit:
                    proc.send_signal(signal.SIGKILL)
        ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    ready.wait(30)
    if not mid_commit:
        time.sleep(rng.uniform(0.0, 1.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    proc.wait(60)
    reader.join(10)

    started = time.perf_counter()
    corrupt = lost = 0
    try:
        with Store.open(db) as store:
            games = store.list_games()
            game_id = games[0].id
            _, game = records.resume(store, game_id)
            recovery_ms = (time.perf_counter() - started) * 1000
            events = len(game.events)
            if replay(SekigaharaRules(), game.events) != game.state:
                corrupt = 1
            finished = store.list_games()[0].finished is not None or done
    except (StoreError, records.LogRefused) as exc:
        print(f"trial on {db.name}: {exc}", file=sys.stderr)
        return {"acked": acked - at_ready, "lost": acked, "corrupt": 1, "recovery_ms": 0.0,
                "finished": True}
    lost = max(0, acked - events)
    return {"acked": acked - at_ready, "lost": lost, "corrupt": corrupt, "recovery_ms": recovery_ms,
            "finished": finished, "in_commit": in_commit and not done}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        return child(args.child, args.seed)
    rng = random.Random(args.seed)
    acked = lost = corrupt = in_commit = 0
    recoveries: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        game_number = 0
        db = Path(scratch) / f"games-{game_number}.sqlite"
        for n in range(args.trials):
            result = trial(db, args.seed * 100_003 + n, rng)
            # each acknowledged event is counted once, by the trial that saw it acknowledged
            acked += result["acked"]
            lost += result["lost"]
            corrupt += result["corrupt"]
            in_commit += int(result.get("in_commit", False))
            recoveries.append(result["recovery_ms"])
            if (n + 1) % 100 == 0 and n + 1 < args.trials:
                print(f"progress: trials={n + 1} acknowledged_events={acked} lost_events={lost} "
                      f"corrupt_databases={corrupt}", flush=True)
            if result["finished"]:
                game_number += 1
                db = Path(scratch) / f"games-{game_number}.sqlite"
    recoveries.sort()
    p99 = recoveries[min(len(recoveries) - 1, int(len(recoveries) * 0.99))]
    print(f"recovery (open + re-adjudicate) median {statistics.median(recoveries):.1f} ms, "
          f"games {game_number + 1}, cpu cores {os.cpu_count()}; killed between a commit's "
          f"start and its acknowledgement: {in_commit} trials")
    print(f"trials={args.trials} acknowledged_events={acked} lost_events={lost} "
          f"corrupt_databases={corrupt} recovery_p99_ms={p99:.1f}")
    return 0 if lost == 0 and corrupt == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
