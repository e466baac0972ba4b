"""The referee tools for every game: ``companion referee verify|replay|explain`` and
``companion game list|export|import`` (docs/referee.md).

A stored game's header names its game; that game's descriptor names its records
(:class:`~companion.core.records.GameRecords`), which rebuild and check it through its own
rules. Each game may add its own calculators to ``companion referee`` (the descriptor's
``referee``: Sekigahara's ``battle``, ``move``, ``retreat``).

Exit status: 0 when all is well; 1 when ``verify`` finds a game that does not hold (or
``replay``/``explain`` meet one before the asked entry); 2 for a file or database that cannot
be read, or a game that is not installed. Problems are one line on standard error, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.commands import first_wins
from companion.core.descriptor import DescriptorError, descriptor, descriptors
from companion.core.explain import NoEntry, explain_text
from companion.core.exports import Export, export_text, import_export, open_log, read_export
from companion.core.paths import add_db_argument, default_db_path
from companion.core.records import GameRecords, LogRefused
from companion.core.seals import (
    BadSeal,
    Seal,
    check_seals,
    last_seal,
    parse_seal,
    read_seals,
    seals,
)
from companion.core.store import GameLog, Store, StoreError

if TYPE_CHECKING:
    from companion.core.commands import SubParsers

EXIT_OK, EXIT_REFUSED, EXIT_ERROR = 0, 1, 2
Handler = Callable[[argparse.Namespace], int]


class CannotCheck(Exception):
    """The stored game's game is not installed or keeps no records here, or the request does
    not fit the game (a view it does not have)."""


def records_of(log: GameLog) -> GameRecords:
    """The records of the game ``log`` is a game of (its header's ``game``)."""
    name = str(log.header.get("game", log.summary.game))
    try:
        game = descriptor(name)
    except KeyError as exc:
        raise CannotCheck(f"this is a game of {name!r}, which is not installed "
                           f"({str(exc.args[0]).split('; ')[-1]})") from None
    try:
        return game.load_records()
    except DescriptorError as exc:
        raise CannotCheck(f"{game.title} games cannot be checked here: {exc}") from None


def _guarded(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except (StoreError, CannotCheck) as exc:
            print(f"companion: {getattr(exc, 'message', exc)}", file=sys.stderr)
            return EXIT_ERROR
        except NoEntry as exc:
            print(f"companion: {exc.reason}", file=sys.stderr)
            return EXIT_ERROR
        except LogRefused as exc:
            print(f"companion: refused at {exc}", file=sys.stderr)
            return EXIT_REFUSED
    return run


# ---------------------------------------------------------------------- companion game


def _list(args: argparse.Namespace) -> int:
    """Every game; a damaged one is a line on standard error (exit 2), the others listed."""
    try:
        with Store.open(args.db, readonly=True) as store:
            games = store.list_games()
    except StoreError as exc:
        if exc.reason != "missing":
            raise
        games = []
    damaged = EXIT_ERROR if any(g.problem is not None for g in games) else EXIT_OK
    if args.json:
        print(json.dumps([g.__dict__ for g in games]))
        return damaged
    if not games:
        print(f"no games in {args.db or default_db_path()}")
    for g in games:
        if g.problem is not None:
            print(f"companion: {g.problem}", file=sys.stderr)
            continue
        state = f"finished {g.finished}: {g.result}" if g.finished else "unfinished"
        print(f"{g.id:>4}  {g.game}  started {g.created}  {g.entries} entries  "
              f"last {g.updated or '-'}  {state}")
    return damaged


def _export(args: argparse.Namespace) -> int:
    with Store.open(args.db, readonly=True) as store:
        log = store.load(args.id)
    text = export_text(log)
    if args.output is None or str(args.output) == "-":
        sys.stdout.write(text)
    else:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise StoreError(f"cannot write {args.output}: {exc.strerror}") from None
        print(f"game {args.id}: {len(log.entries)} entries written to {args.output}")
    return EXIT_OK


def _import(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"cannot read {args.file}: {getattr(exc, 'strerror', exc)}") from None
    given = given_seals(args)
    export = read_export(text, str(args.file))
    records = records_of(export.log)

    said: list[str] = []

    def check(e: Export) -> None:
        records.check(e.log, count=e.count, head=e.head)
        said.append(verify_seals(e.log, given))

    with Store.open(args.db) as store:
        game_id = import_export(store, export, check)
    matched = "".join(said)
    print(f"imported {args.file} as game {game_id} ({export.count} entries, verified"
          f"{matched})")
    return EXIT_OK


def _seal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seal", action="append", metavar="LABEL_OR_ENTRY=CODE",
                        help="a seal noted at the table (\"week 2=K7Q2-M9XD\", "
                        "\"game=...\", \"57=...\"); repeatable")
    parser.add_argument("--seals", action="append", metavar="FILE",
                        help="seals one a line, LABEL=CODE, # comments; repeatable")


def register_game(subparsers: SubParsers) -> None:
    """Add ``companion game list|export|import``."""
    parser = subparsers.add_parser("game", help="list, export and import stored games")
    inner = parser.add_subparsers(dest="game_command", metavar="ACTION", required=True)
    listing = inner.add_parser("list", help="every game in the database, newest first")
    listing.add_argument("--json", action="store_true", help="one JSON array")
    add_db_argument(listing)
    listing.set_defaults(handler=_guarded(_list))
    export = inner.add_parser("export", help="a game as a portable JSON-lines file")
    export.add_argument("id", type=int, metavar="ID")
    export.add_argument("-o", "--output", type=Path, default=None, metavar="FILE",
                        help="where to write (default: standard output)")
    add_db_argument(export)
    export.set_defaults(handler=_guarded(_export))
    imported = inner.add_parser("import", help="verify an export file and store it")
    imported.add_argument("file", type=Path, metavar="FILE")
    _seal_arguments(imported)
    add_db_argument(imported)
    imported.set_defaults(handler=_guarded(_import))


# ---------------------------------------------------------------------- companion referee


MAX_SEALS_FILE = 64_000
"""The most bytes ``verify --seals FILE`` reads (a real file: a few hundred)."""


def given_seals(args: argparse.Namespace) -> list[Seal]:
    """``verify``'s ``--seal LABEL_OR_ENTRY=CODE`` and ``--seals FILE`` (one a line, ``#``
    comments), read bounded; CannotCheck naming the one that cannot be read."""
    try:
        given = [parse_seal(text) for text in args.seal or ()]
        for name in args.seals or ():
            given += read_seals(_read_bounded(Path(name), MAX_SEALS_FILE), str(name))
    except BadSeal as exc:
        raise CannotCheck(f"cannot read the seals: {exc}") from None
    return given


def _read_bounded(path: Path, cap: int) -> str:
    try:
        with path.open("rb") as f:
            raw = f.read(cap + 1)
    except OSError as exc:
        raise CannotCheck(f"cannot read {path}: {exc.strerror}") from None
    if len(raw) > cap:
        raise CannotCheck(f"{path} is longer than {cap:,} bytes: not a list of seals")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CannotCheck(f"{path} is not UTF-8 text: not a list of seals") from None


def verify_seals(log: GameLog, given: list[Seal]) -> str:
    """What ``verify`` says of ``given`` seals for a record whose chain and rules hold:
    "" when none were given, the seals matched otherwise; LogRefused at the first entry known
    to differ, naming the seal (the tournament's seals are checked through this too)."""
    if not given:
        return ""
    broken = check_seals(log, given)
    if broken is not None:
        raise LogRefused(broken.entry, f"the record does not match the seals: {broken}")
    return f"; {len(given)} seal{'s' if len(given) != 1 else ''} matched"


def _verify(args: argparse.Namespace) -> int:
    given = given_seals(args)
    log, count, head = open_log(args.source, args.db)
    records = records_of(log)
    rebuilt = records.check(log, count=count, head=head)
    matched = verify_seals(log, given)
    corrections = sum(1 for e in log.entries if e.kind == "correction")
    undone = (f", entries {', '.join(map(str, rebuilt.undone))} undone" if rebuilt.undone
              else "")
    last = last_seal(log, records.seal_points)
    sealed = f", {str(last)[0].lower()}{str(last)[1:]}" if last is not None else ""
    print(f"verified: {len(log.entries)} entries ({rebuilt.commands} commands re-adjudicated, "
          f"{corrections} corrections{undone}), hash chain intact{matched}, head "
          f"{log.head[:16]}{sealed}; {records.standing(log, rebuilt)}")
    return EXIT_OK


def _print(payload: dict[str, Any], text: str, as_json: bool) -> None:
    try:
        print(json.dumps(payload, indent=2) if as_json else text, flush=True)
    except BrokenPipeError:  # the reader stopped early (``| head``): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _replay(args: argparse.Namespace) -> int:
    log, count, head = open_log(args.source, args.db)
    records = records_of(log)
    if args.view not in records.views:
        raise CannotCheck(f"--view is one of {', '.join(records.views)} for this game")
    records.check(log, count=count, head=head)
    shown = records.view_at(log, args.at, args.view)
    sealed = [s for s in seals(log, records.seal_points) if s.entry <= args.at]
    text = "" if args.json else records.view_text(shown)
    if sealed:  # public: the players saw it on the screen and noted it
        shown["seal"] = {"entry": sealed[-1].entry, "label": sealed[-1].label,
                         "code": sealed[-1].code}
        text += f"\n{sealed[-1]} (entry {sealed[-1].entry})" if text else ""
    _print(shown, text, args.json)
    return EXIT_OK


def _explain(args: argparse.Namespace) -> int:
    log, _, _ = open_log(args.source, args.db)
    out = records_of(log).explain_entry(log, args.entry)
    _print(out, explain_text(out) if not args.json else "", args.json)
    return EXIT_OK if out.get("verdict") != "refused" else EXIT_REFUSED


def register_referee(subparsers: SubParsers) -> None:
    """Add ``companion referee`` with verify, replay and explain, and each installed game's
    own calculators (its descriptor's ``referee``)."""
    parser = subparsers.add_parser(
        "referee", help="check stored games; each game's calculators (docs/referee.md)")
    inner = parser.add_subparsers(dest="referee_command", metavar="WHAT", required=True)
    verify = inner.add_parser("verify", help="check a game's hash chain and re-adjudicate it")
    verify.add_argument("source", metavar="FILE|ID")
    _seal_arguments(verify)
    add_db_argument(verify)
    verify.set_defaults(handler=_guarded(_verify))
    replay = inner.add_parser("replay", help="the game as it stood after entry N")
    replay.add_argument("source", metavar="FILE|ID")
    replay.add_argument("--at", type=int, required=True, metavar="N")
    replay.add_argument("--view", default="referee",
                        help="public, referee (the default), or a side's or player's as the "
                        "game names them (ishida; red)")
    replay.add_argument("--json", action="store_true", help="JSON instead of text")
    add_db_argument(replay)
    replay.set_defaults(handler=_guarded(_replay))
    why = inner.add_parser("explain", help="why entry N was ruled as it was")
    why.add_argument("source", metavar="FILE|ID")
    why.add_argument("entry", type=int, metavar="N")
    why.add_argument("--json", action="store_true", help="JSON instead of text")
    add_db_argument(why)
    why.set_defaults(handler=_guarded(_explain))
    owners = dict.fromkeys(("verify", "replay", "explain"), "companion referee")
    for game in descriptors().values():
        if game.referee is None:
            continue
        try:
            add = game.load("referee")
        except DescriptorError as exc:  # one game's calculators must not break the others
            print(f"companion: {exc}", file=sys.stderr)
            continue
        add(first_wins(inner, f"{game.title}'s referee", owners))
