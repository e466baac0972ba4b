"""Cut the power under a recording game, thousands of times: nothing acknowledged is lost.

    .venv/bin/python benchmarks/power_cut.py --trials N [--control-trials M] [--seed S]

kill -9 cannot show durability: the killed process's writes are already in the kernel's page
cache, which outlives it (the crash-recovery benchmark loses nothing even with syncing off).
Here the file layer itself forgets: ``benchmarks/powercut/lazyvfs.c``, built with gcc at run
time and loaded with ctypes, becomes SQLite's default VFS in a forked child and keeps every
write that was not yet synced in memory; at the N-th write, truncate or sync (N drawn at random)
the power fails: each unsynced 512-byte sector reaches the disk or not (probability p, drawn
per trial), with its content as of any of its writes (torn pages, stale versions); a file
created or deleted since its directory was last synced may come back or vanish; and the child
ends at once.

Each trial, in a child forked from this warm process:

* **worker**: the real store, as the app uses it after a power cut (``Store.open``, then
  ``records.resume``: the unfinished game re-adjudicated; or ``records.start``), records a
  Sekigahara game played by seeded random players through ``Game.submit``, and reports every
  entry acknowledged (``Game.submit`` returned: the store's commit returned) with its hash,
  every game created and every finish, until the power fails;
* **verifier**: opens the database normally (``Store.open``), runs ``PRAGMA integrity_check``,
  checks the hash chain of every game the worker touched and counts the acknowledged entries,
  games and finishes that are not there (``lost_acknowledged``); a database that does not open
  or check, or whose game the next worker cannot resume, is ``corrupt`` (the run then moves to
  a new database).

Neither child closes the database (the verifier leaves it as it found it: no checkpoint on
close), so the WAL carries over from trial to trial, grows past SQLite's 1,000-page automatic
checkpoint, and some cuts land mid-checkpoint; every ``--rotate`` trials the database is checked
whole (every game's chain and re-adjudication, every acknowledged entry) and a new one begins.
The control runs the same trials with ``Store.open(durable=False)`` (``synchronous=OFF``): it
must lose entries, or the layer did not forget anything. Output (last two lines)::

    trials=N lost_acknowledged=0 corrupt=0
    control: trials=M lost_acknowledged=L corrupt=C

Exit status 0 when the store lost nothing and the control lost something, 1 otherwise, 3 when
this machine cannot build the layer (no gcc, or no sqlite3.h: Debian's libsqlite3-dev).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.core.chain import check_chain  # noqa: E402
from companion.core.game import Accepted  # noqa: E402
from companion.core.store import CommandRecorder, Store, StoreError  # noqa: E402
from companion.games.sekigahara import records  # noqa: E402
from companion.games.sekigahara.engine.players import RandomPlayer, Table  # noqa: E402
from companion.games.sekigahara.engine.state import Phase  # noqa: E402

LAYER = Path(__file__).resolve().parent / "powercut" / "lazyvfs.c"
CUT_EXIT = 86
"""The worker's exit status when the power failed (lazyvfs.c)."""
UNAVAILABLE_EXIT = 3
MAX_COMMANDS = 600
"""A worker whose cut has not come after this many commands cuts the power itself."""


class Unavailable(Exception):
    """This machine cannot build or load the layer; the message says what to install."""


def build(scratch: Path) -> ctypes.CDLL:
    """Compile lazyvfs.c into ``scratch`` and load it (not yet installed as the VFS)."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise Unavailable("no C compiler (gcc) to build the power-cut file layer "
                          "(Debian: apt-get install gcc)")
    probe = subprocess.run([gcc, "-E", "-x", "c", "-"], input="#include <sqlite3.h>\n",
                           capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        raise Unavailable("no SQLite header (sqlite3.h) to build the power-cut file layer "
                          "(Debian: apt-get install libsqlite3-dev)")
    built = scratch / "lazyvfs.so"
    subprocess.run([gcc, "-O2", "-shared", "-fPIC", "-o", str(built), str(LAYER)],
                   check=True, capture_output=True)
    lib = ctypes.CDLL(str(built))
    lib.lazyvfs_install.argtypes = [ctypes.c_char_p, ctypes.c_ulonglong, ctypes.c_double,
                                    ctypes.c_ulonglong, ctypes.c_int, ctypes.c_int]
    lib.lazyvfs_install.restype = ctypes.c_int
    lib.lazyvfs_ops.restype = ctypes.c_ulonglong
    lib.lazyvfs_opened.restype = ctypes.c_ulonglong
    lib.lazyvfs_cut.restype = None
    return lib


def sqlite_library() -> str:
    """The loaded object holding the sqlite3 module's SQLite: Debian's libsqlite3 (the module
    links it dynamically), or the module itself when SQLite is built into it."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split(maxsplit=5)[-1].strip()
                if Path(path).name.startswith("libsqlite3"):
                    return path
    except OSError:
        raise Unavailable("no /proc/self/maps to find the sqlite3 module's SQLite") from None
    import _sqlite3

    return str(_sqlite3.__file__)


@dataclass
class Ledger:
    """What the store acknowledged in one database: per game, entry number -> hash; the games
    created and the games whose finish was acknowledged."""

    entries: dict[int, dict[int, str]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Plan:
    """One trial: the power fails at the ``cut``-th write, truncate or sync (to the database
    file only, when ``checkpoint``: to land in a checkpoint); each pending sector reaches the
    disk with probability ``keep``."""

    cut: int
    keep: float
    seed: int
    checkpoint: bool


def _say(out: int, text: str) -> None:
    data = (text + "\n").encode()
    while data:
        data = data[os.write(out, data):]


# ------------------------------------------------------------------------------ the worker


def work(lib: ctypes.CDLL, library: str, db: Path, durable: bool, plan: Plan,
         out: int) -> NoReturn:
    """Record a game on the forgetting layer until the power fails (never returns)."""
    code = 2
    try:
        code = _work(lib, library, db, durable, plan, out)
    except BaseException as exc:  # the child must never go back into the parent's loop
        _say(out, f"error {type(exc).__name__}: {exc}")
    os._exit(code)


def _work(lib: ctypes.CDLL, library: str, db: Path, durable: bool, plan: Plan,
          out: int) -> int:
    if lib.lazyvfs_install(library.encode(), plan.cut, plan.keep, plan.seed, out,
                           plan.checkpoint) != 0:
        _say(out, f"error the power-cut layer found no SQLite in {library}")
        return 2
    store = Store.open(db, durable=durable)
    if lib.lazyvfs_opened() == 0:
        _say(out, "error the sqlite3 module does not use the SQLite the layer was installed in")
        return 2
    unfinished = store.unfinished()
    if unfinished:
        try:
            game_id, game = records.resume(store, unfinished[0].id)
        except records.LogRefused as exc:
            _say(out, f"refused {unfinished[0].id} {exc}")
            return 4
        _say(out, f"resumed {game_id}")
    else:
        game_id, game = records.start(store)
        _say(out, f"game {game_id}")
    rng = random.Random(plan.seed)

    def seat(game_id: int, events: Any) -> RandomPlayer:
        table = Table.shuffled(random.Random(game_id))
        for event in events:
            table.observe(event)
        return RandomPlayer(rng, table)

    player = seat(game_id, game.events)
    rejected = 0
    for _ in range(MAX_COMMANDS):
        if game.state.phase is Phase.GAME_OVER or rejected > 200:
            if records.finish_if_over(store, game_id, game):
                _say(out, f"finished {game_id}")
            game_id, game = records.start(store)
            _say(out, f"game {game_id}")
            player, rejected = seat(game_id, ()), 0
        result = game.submit(player.command(game.state))
        if not isinstance(result, Accepted):
            rejected += 1
            continue
        for event in result.events:
            player.table.observe(event)
        assert isinstance(game.recorder, CommandRecorder) and game.recorder.last is not None
        entry = game.recorder.last
        _say(out, f"ack {game_id} {entry.seq} {entry.hash}")
    lib.lazyvfs_cut()
    return 2


# ------------------------------------------------------------------------------ the verifier


def verify(db: Path, ledger: Ledger, touched: set[int], whole: bool, out: int) -> NoReturn:
    """Open the database as the app does after a power cut and count what is missing; the
    verdict goes to ``out`` as JSON. Never returns, and never closes the database (closing
    would checkpoint it and delete the WAL that the next trial should inherit)."""
    try:
        verdict = _verify(db, ledger, touched, whole)
    except BaseException as exc:
        verdict = {"error": f"{type(exc).__name__}: {exc}"}
    _say(out, json.dumps(verdict))
    os._exit(0)


def _verify(db: Path, ledger: Ledger, touched: set[int], whole: bool) -> dict[str, Any]:
    try:
        store = Store.open(db)
    except StoreError as exc:
        return {"corrupt": f"the store does not open: {exc.message}"}
    raw = sqlite3.connect(db)
    check = raw.execute("PRAGMA integrity_check").fetchall()
    if check != [("ok",)]:
        return {"corrupt": f"integrity_check: {check[:3]}"}
    games = {g.id: g for g in store.list_games()}
    lost = 0
    stored: dict[int, dict[int, str]] = {}
    for game_id in sorted(set(games) & (set(games) if whole else touched)):
        log = store.load(game_id)
        broken = check_chain(log.header_hash, log.entries)
        if broken is not None:
            return {"corrupt": f"game {game_id}: {broken}"}
        if whole:
            try:
                records.check(log)
            except records.LogRefused as exc:
                return {"corrupt": f"game {game_id} does not re-adjudicate: {exc}"}
        stored[game_id] = {e.seq: e.hash for e in log.entries}
    short: dict[str, dict[str, str]] = {}
    for game_id, acked in ledger.entries.items():
        if game_id not in games:
            lost += 1 + len(acked)
            continue
        if game_id not in stored and acked:
            top = max(acked)
            row = raw.execute("SELECT hash FROM entries WHERE game_id = ? AND seq = ?",
                              (game_id, top)).fetchone()
            if row is not None and row[0] == acked[top]:
                continue  # the chain links it to every earlier entry
            stored[game_id] = dict(raw.execute(
                "SELECT seq, hash FROM entries WHERE game_id = ?", (game_id,)).fetchall())
        have = stored.get(game_id, {})
        missing = sum(1 for seq, digest in acked.items() if have.get(seq) != digest)
        if missing:
            lost += missing
            short[str(game_id)] = {str(seq): digest for seq, digest in have.items()}
    lost += sum(1 for g in ledger.finished if g in games and games[g].finished is None)
    return {"lost": lost, "games": sorted(games), "stored": short,
            "finished": sorted(g for g, s in games.items() if s.finished is not None)}


# ------------------------------------------------------------------------------ the parent


def _fork(child: Any, *args: Any) -> Iterator[str]:
    """Run ``child(*args, out)`` in a forked process; yield its lines; end with its status."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            child(*args, write)
        finally:
            os._exit(2)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        lines = pipe.read().decode().splitlines()
    _, status = os.waitpid(pid, 0)
    yield from lines
    yield f"status {os.waitstatus_to_exitcode(status)}"


@dataclass
class Tally:
    trials: int = 0
    acknowledged: int = 0
    lost: int = 0
    corrupt: int = 0
    databases: int = 1
    mid_commit: int = 0
    mid_checkpoint: int = 0
    unsynced_files: int = 0
    corruptions: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    """Per trial: the worker's and the verifier's wall time."""


def draw(rng: random.Random, budget: int, *, fresh: bool) -> Plan:
    """A trial's cut: anywhere in the first ``budget`` writes, truncates and syncs; on a new
    database in its first 16 or 48 (creation: journal, WAL, tables; the first game); a quarter
    of the others in the first 80 writes and syncs of the database file itself (in a
    checkpoint, since between checkpoints only the WAL is written). Each pending sector reaches
    the disk with probability 0, 1 or anything between."""
    keep = rng.choice((0.0, 1.0, rng.random(), rng.random()))
    checkpoint = not fresh and rng.random() < 0.25
    cut = rng.randint(1, rng.choice((16, 48)) if fresh else 80 if checkpoint else budget)
    return Plan(cut=cut, keep=keep, seed=rng.getrandbits(62), checkpoint=checkpoint)


def run(lib: ctypes.CDLL, library: str, scratch: Path, *, durable: bool, trials: int,
        rng: random.Random, budget: int, rotate: int, quiet: bool, name: str) -> Tally:
    """One chain of trials on databases in ``scratch``, one after the other."""
    tally = Tally()
    db = scratch / "games-0.sqlite"
    ledger = Ledger()
    for n in range(trials):
        plan = draw(rng, budget, fresh=not db.exists())
        touched: set[int] = set()
        status = 0
        began = time.perf_counter()
        for line in _fork(work, lib, library, db, durable, plan):
            word, _, rest = line.partition(" ")
            if word == "ack":
                game, seq, digest = rest.split()
                ledger.entries.setdefault(int(game), {})[int(seq)] = digest
                tally.acknowledged += 1
            elif word in ("game", "resumed"):
                touched.add(int(rest))
                if word == "game":
                    ledger.entries[int(rest)] = {}
                    ledger.finished.discard(int(rest))
                    tally.acknowledged += 1
            elif word == "finished":
                ledger.finished.add(int(rest))
                tally.acknowledged += 1
            elif word == "pending":
                ops, created, path = rest.split(maxsplit=2)
                tally.mid_commit += path.endswith("-wal") and int(ops) > 0
                tally.mid_checkpoint += path.endswith(".sqlite") and int(ops) > 0
                tally.unsynced_files += int(created)
            elif word == "deleted":
                tally.unsynced_files += 1
            elif word == "refused":
                tally.corrupt += 1
                tally.corruptions.append(f"{name} trial {n}: resume refused game {rest}")
            elif word == "error":
                raise RuntimeError(f"{name} trial {n}: the worker failed: {rest}")
            elif word == "status":
                status = int(rest)
        if status not in (CUT_EXIT, 4):
            raise RuntimeError(f"{name} trial {n}: the worker ended with status {status}")
        whole = (n + 1) % rotate == 0 or n + 1 == trials
        verdict = json.loads(next(_fork(verify, db, ledger, touched, whole)))
        tally.seconds.append(time.perf_counter() - began)
        if "error" in verdict:
            raise RuntimeError(f"{name} trial {n}: the verifier failed: {verdict['error']}")
        tally.trials += 1
        if "corrupt" in verdict:
            tally.corrupt += 1
            first = str(verdict["corrupt"]).splitlines()[0]
            tally.corruptions.append(f"{name} trial {n}: {first[:200]}")
        else:
            tally.lost += verdict["lost"]
            if verdict["lost"]:
                tally.losses.append(f"{name} trial {n}: {verdict['lost']} acknowledged lost "
                                     f"(cut at {plan.cut}, keep {plan.keep:.2f})")
            # what was lost is counted once: the ledger now holds what is there
            for gone in [g for g in ledger.entries if g not in verdict["games"]]:
                del ledger.entries[gone]
            for number, have in verdict["stored"].items():
                ledger.entries[int(number)] = {int(s): h for s, h in have.items()}
            ledger.finished &= set(verdict["finished"])
        if ("corrupt" in verdict or whole) and n + 1 < trials:
            db = scratch / f"games-{tally.databases}.sqlite"
            tally.databases += 1
            ledger = Ledger()
        if not quiet and (n + 1) % 100 == 0 and n + 1 < trials:
            print(f"progress ({name}): trials={n + 1} acknowledged={tally.acknowledged} "
                  f"lost_acknowledged={tally.lost} corrupt={tally.corrupt}", flush=True)
    return tally


def chains(lib: ctypes.CDLL, library: str, scratch: Path, *, durable: bool, trials: int,
           seed: int, jobs: int, **options: Any) -> Tally:
    """``trials`` split over ``jobs`` chains run side by side (forked), each on its own
    databases; their tallies summed."""
    name = "durable" if durable else "control"
    shares = [trials // jobs + (i < trials % jobs) for i in range(jobs)]
    pipes: list[tuple[int, int]] = []
    for i, share in enumerate(s for s in shares if s):
        where = scratch / f"{name}-{i}"
        where.mkdir()
        rng = random.Random(seed * 1_000_003 + 2 * i + durable)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                tally = run(lib, library, where, durable=durable, trials=share, rng=rng,
                            name=f"{name} {i}", **options)
                _say(write, json.dumps(asdict(tally)))
            except BaseException as exc:
                _say(write, json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
            os._exit(0)
        os.close(write)
        pipes.append((pid, read))
    total = Tally(databases=0)
    for pid, read in pipes:
        with os.fdopen(read, "rb") as pipe:
            found = json.loads(pipe.read() or b'{"error": "the chain died"}')
        os.waitpid(pid, 0)
        if "error" in found:
            raise RuntimeError(found["error"])
        for key, value in found.items():
            setattr(total, key, getattr(total, key) + value)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--control-trials", type=int, default=None,
                        help="trials of the control (synchronous=OFF); default: trials / 10, "
                             "at least 20")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=800,
                        help="the cut falls on a write, truncate or sync drawn from 1..BUDGET")
    parser.add_argument("--rotate", type=int, default=25,
                        help="check the database whole and start a new one every ROTATE trials")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="chains of trials run side by side (default: one per core)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    control_trials = (args.control_trials if args.control_trials is not None
                      else max(20, args.trials // 10))
    started = time.perf_counter()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(prefix="power-cut-",
                                     dir=shm if shm.is_dir() else None) as where:
        scratch = Path(where)
        try:
            lib = build(scratch)
            library = sqlite_library()
        except Unavailable as exc:
            print(f"power_cut: cannot run here: {exc}", file=sys.stderr)
            return UNAVAILABLE_EXIT
        gc.freeze()  # the forked children then share the parent's objects instead of copying them
        options = {"seed": args.seed, "jobs": max(1, args.jobs), "budget": args.budget,
                   "rotate": args.rotate, "quiet": args.quiet}
        durable = chains(lib, library, scratch, durable=True, trials=args.trials, **options)
        control = chains(lib, library, scratch, durable=False, trials=control_trials,
                         **options)
    elapsed = time.perf_counter() - started
    for tally in (durable, control):
        for reason in tally.corruptions[:10] + tally.losses[:3]:
            print(reason, file=sys.stderr)
    trial_ms = 1000 * statistics.median(durable.seconds)
    print(f"store: acknowledged={durable.acknowledged} databases={durable.databases}; cuts "
          f"with unsynced WAL writes={durable.mid_commit}, with unsynced database writes "
          f"(mid-checkpoint)={durable.mid_checkpoint}, with a file created or deleted since its "
          f"directory's last sync={durable.unsynced_files}; a trial {trial_ms:.0f} ms (median), "
          f"{elapsed:.0f} s in all, {max(1, args.jobs)} chains side by side, "
          f"cpu cores {os.cpu_count()}")
    print(f"trials={durable.trials} lost_acknowledged={durable.lost} corrupt={durable.corrupt}")
    print(f"control: trials={control.trials} acknowledged={control.acknowledged} "
          f"lost_acknowledged={control.lost} corrupt={control.corrupt} (synchronous=OFF)")
    ok = durable.lost == 0 and durable.corrupt == 0 and control.lost + control.corrupt > 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
