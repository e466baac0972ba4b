"""The record commands: ``companion game list|export|import`` and ``companion referee
verify|replay|explain`` (registered by :mod:`.referee`). See docs/referee.md.

Exit status: 0 when all is well; 1 when ``verify`` finds a game that does not hold (or
``replay``/``explain`` meet one before the asked entry); 2 for a file or database that cannot
be read, or an unknown game. Problems are one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.core.paths import add_db_argument
from companion.core.store import Store, StoreError
from companion.games.sekigahara import explain, records

EXIT_OK, EXIT_REFUSED, EXIT_ERROR = 0, 1, 2
Handler = Callable[[argparse.Namespace], int]


def _guarded(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except StoreError as exc:
            print(f"companion: {exc.message}", file=sys.stderr)
            return EXIT_ERROR
        except records.LogRefused as exc:
            print(f"companion: refused at {exc}", file=sys.stderr)
            return EXIT_REFUSED
    return run


# ---------------------------------------------------------------------- companion game


def _list(args: argparse.Namespace) -> int:
    with Store.open(args.db) as store:
        games = store.list_games()
    if args.json:
        print(json.dumps([g.__dict__ for g in games]))
        return EXIT_OK
    if not games:
        print(f"no games in {store.path}")
    for g in games:
        state = f"finished {g.finished}: {g.result}" if g.finished else "unfinished"
        print(f"{g.id:>4}  {g.game}  started {g.created}  {g.entries} entries  "
              f"last {g.updated or '-'}  {state}")
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    with Store.open(args.db) as store:
        log = store.load(args.id)
    text = records.export_text(log)
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
    export = records.read_export(text, str(args.file))
    with Store.open(args.db) as store:
        game_id = records.import_export(store, export)
    print(f"imported {args.file} as game {game_id} ({export.count} entries, verified)")
    return EXIT_OK


def register_game(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    add_db_argument(imported)
    imported.set_defaults(handler=_guarded(_import))


# ---------------------------------------------------------------------- companion referee


def _verify(args: argparse.Namespace) -> int:
    log, count, head = records.open_log(args.source, args.db)
    rebuilt = records.check(log, count=count, head=head)
    corrections = sum(1 for e in log.entries if e.kind == "correction")
    state = rebuilt.state
    where = (f"{state.winner.value} won ({state.victory})" if state.winner is not None
             else f"week {state.week} turn {state.turn}, {state.phase.value}")
    manifest = ("" if log.header.get("manifest_hash") == records.manifest_hash()
                else "; note: made with a different block manifest")
    undone = (f", entries {', '.join(map(str, rebuilt.undone))} undone" if rebuilt.undone
              else "")
    print(f"verified: {len(log.entries)} entries ({rebuilt.commands} commands re-adjudicated, "
          f"{corrections} corrections{undone}), hash chain intact, head {log.head[:16]}; "
          f"{where}{manifest}")
    return EXIT_OK


def _print(payload: dict[str, Any], text: str, as_json: bool) -> None:
    print(json.dumps(payload, indent=2) if as_json else text)


def _replay(args: argparse.Namespace) -> int:
    log, count, head = records.open_log(args.source, args.db)
    records.check(log, count=count, head=head)
    shown = explain.view_at(log, args.at, args.view)
    _print(shown, explain.view_text(shown) if not args.json else "", args.json)
    return EXIT_OK


def _explain(args: argparse.Namespace) -> int:
    log, _, _ = records.open_log(args.source, args.db)
    out = explain.explain_entry(log, args.entry)
    _print(out, explain.explain_text(out) if not args.json else "", args.json)
    return EXIT_OK if out.get("verdict") != "refused" else EXIT_REFUSED


def register_referee_records(
    inner: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    """Add verify, replay and explain to ``companion referee``."""
    verify = inner.add_parser("verify", help="check a game's hash chain and re-adjudicate it")
    verify.add_argument("source", metavar="FILE|ID")
    add_db_argument(verify)
    verify.set_defaults(handler=_guarded(_verify))
    replay = inner.add_parser("replay", help="the game as it stood after entry N")
    replay.add_argument("source", metavar="FILE|ID")
    replay.add_argument("--at", type=int, required=True, metavar="N")
    replay.add_argument("--view", choices=explain.VIEWS, default="referee")
    replay.add_argument("--json", action="store_true", help="JSON instead of text")
    add_db_argument(replay)
    replay.set_defaults(handler=_guarded(_replay))
    why = inner.add_parser("explain", help="why entry N was ruled as it was")
    why.add_argument("source", metavar="FILE|ID")
    why.add_argument("entry", type=int, metavar="N")
    why.add_argument("--json", action="store_true", help="JSON instead of text")
    add_db_argument(why)
    why.set_defaults(handler=_guarded(_explain))
