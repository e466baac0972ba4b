"""``companion tournament ...``: the broker for an event (and, beside it, the referees'
dashboard). Errors are one line on stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tournament.broker import BrokerError, prepare

Handler = Callable[[argparse.Namespace], int]


def _broker(args: argparse.Namespace) -> int:
    port = args.port if args.port is not None else 8883 if args.tls else 1883
    broker = prepare(Path(args.dir), event=args.event, tables=args.tables,
                     referees=args.referee or ["head"], port=port, bind=args.bind,
                     tls=args.tls, hosts=args.host or ())
    if args.write_only:
        print(f"Mosquitto's configuration, accounts and access list are in {args.dir}; every "
              f"account's tournament URL is in {Path(args.dir) / 'credentials.txt'}.")
        return 0
    broker.start()
    print(f"Mosquitto for {args.event!r} listens on {args.bind}:{port}"
          f"{' (TLS)' if args.tls else ''}, {len(broker.accounts.tables)} tables.")
    if args.tls:
        print(f"Copy {Path(args.dir) / 'ca.crt'} to every table and referee (their URLs name "
              "it with ?ca=); ca.key stays here.")
    print(f"Every account's tournament URL is in {Path(args.dir) / 'credentials.txt'} "
          f"(keep it private: give each table its own line).")
    print("Stop it with Ctrl-C.", flush=True)
    try:
        while broker.process is not None and broker.process.poll() is None:
            time.sleep(0.5)  # Ctrl-C or SIGTERM (companion's handler) ends the wait
    finally:
        code = broker.process.returncode if broker.process is not None else 0
        broker.stop()
    if code:
        print(f"companion tournament: Mosquitto stopped (exit status {code}); its log is "
              f"{Path(args.dir) / 'mosquitto.log'}", file=sys.stderr)
        return 1
    return 0


def _dashboard(args: argparse.Namespace) -> int:
    from tournament.dashboard import serve  # the web server only when asked for

    try:
        serve(args.broker, port=args.port, bind=args.bind, idle_s=args.session_minutes * 60)
    except ValueError as exc:
        raise BrokerError(str(exc)) from None
    return 0


def _guarded(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except KeyboardInterrupt:
            return 130
        except (BrokerError, OSError) as exc:
            print(f"companion tournament: {exc}", file=sys.stderr)
            return 1
    return run


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament", help="an event's broker and the referees' dashboard",
        description="Tournament play: tables publish their public game to an MQTT broker, "
                    "referees watch every table (docs/tournament.md).")
    commands = parser.add_subparsers(dest="tournament_command", metavar="COMMAND")
    broker = commands.add_parser(
        "broker", help="start a local Mosquitto configured for a small event",
        description="Write a Mosquitto configuration (one account per table, per referee and "
                    "one for the players' devices; an access list; messages kept on disk) into "
                    "DIR and run Mosquitto with it until Ctrl-C.")
    broker.add_argument("--dir", required=True, help="where its configuration, accounts and "
                        "stored messages live (created 0700)")
    broker.add_argument("--event", default="event", help="the event's name in every topic "
                        "(lower-case letters, digits, dashes; default: event)")
    broker.add_argument("--tables", type=int, default=16, help="how many tables (default 16)")
    broker.add_argument("--referee", action="append", metavar="NAME",
                        help="a referee's account, repeatable (default: head)")
    broker.add_argument("--port", type=int, default=None,
                        help="default 1883 (8883 with --tls)")
    broker.add_argument("--tls", action="store_true",
                        help="TLS only: make a small CA and the broker's certificate in DIR "
                             "(URLs become mqtts://...?ca=DIR/ca.crt)")
    broker.add_argument("--host", action="append", metavar="NAME",
                        help="with --tls: a name or address tables reach the broker by, "
                             "repeatable (this machine's name and addresses are always in)")
    broker.add_argument("--bind", default="0.0.0.0",
                        help="the address to listen on (default: every interface)")
    broker.add_argument("--write-only", action="store_true",
                        help="write the files (for an existing broker) without starting one")
    broker.set_defaults(handler=_guarded(_broker))
    dashboard = commands.add_parser(
        "dashboard", help="the referees' live web page",
        description="Watch every table's public game live in a web page; a referee logs in on "
                    "the page to fetch, verify, replay and explain a table's full record.")
    dashboard.add_argument("--broker", required=True, metavar="URL",
                           help="the players' tournament URL (mqtt://players:PASSWORD@HOST:"
                           "PORT/EVENT, from credentials.txt)")
    dashboard.add_argument("--port", type=int, default=8080, help="default 8080")
    dashboard.add_argument("--bind", default="127.0.0.1", help="the address to serve on "
                           "(default 127.0.0.1: this machine only; 0.0.0.0 for the hall)")
    dashboard.add_argument("--session-minutes", type=float, default=15.0,
                           help="a referee's session ends after this long unused (default 15)")
    dashboard.set_defaults(handler=_guarded(_dashboard))
