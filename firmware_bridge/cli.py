"""``companion simulate`` and ``companion hardware ...``: the plugin's subcommands.

Errors become one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TextIO

from companion.core.paths import config_dir
from companion.core.table import DEFAULT_GAME, table_names
from firmware_bridge import protocol as p
from firmware_bridge.bench import (
    DEFAULT_READS,
    fit_instr_us,
    parse_heights,
    reader_faults,
    run_bench,
    run_soak,
    verdict,
)
from firmware_bridge.bridge import Bridge
from firmware_bridge.crosstalk import as_json, crosstalk_matrix, format_matrix
from firmware_bridge.discovery import DEFAULT_USB_IDS, parse_usb_id, usb_devices_without_port
from firmware_bridge.flows import build_wiring, check_report, register_tags
from firmware_bridge.readmodel import Posture
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simrun import ScriptPlayer, claim_dir, run_script
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.watch import Watcher
from firmware_bridge.wiring import AntennaKey, WiringMap
from firmware_bridge.zones import use_table, zone_names

Handler = Callable[[argparse.Namespace], int]


def _guarded(name: str, handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        _configure_logging(getattr(args, "verbose", False), getattr(args, "log", None))
        try:
            use_table(getattr(args, "game", DEFAULT_GAME))
            return handler(args)
        except KeyboardInterrupt:
            return 130
        except Exception as exc:  # one clear line, never a traceback
            logging.getLogger(__name__).debug("%s failed", name, exc_info=True)
            message = str(exc) or type(exc).__name__
            print(f"companion {name}: error: {message}", file=sys.stderr)
            return 1
    return run


def _configure_logging(verbose: bool, log_file: Path | None) -> None:
    """Errors (everything with -v) on stderr; everything, rejected frames included, in --log."""
    formatter = logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s")
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in [h for h in root.handlers if h.get_name() == "companion-cli"]:
        root.removeHandler(handler)  # a second run in one process (tests) replaces them
        handler.close()
    console = logging.StreamHandler()
    console.set_name("companion-cli")
    console.setLevel(logging.INFO if verbose else logging.ERROR)
    console.setFormatter(formatter)
    root.addHandler(console)
    if log_file is not None:
        file_handler = logging.FileHandler(log_file, encoding="utf-8")
        file_handler.setFormatter(formatter)
        file_handler.set_name("companion-cli")
        root.addHandler(file_handler)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``simulate`` and ``hardware`` to the ``companion`` command."""
    sim = subparsers.add_parser("simulate", help="run virtual reader hubs on pseudo-terminals")
    sim.add_argument("--hubs", type=int, default=5, help="number of hubs (default 5)")
    sim.add_argument("--antennas", type=int, default=16, help="antennas per hub (default 16)")
    sim.add_argument("--rate", type=int, default=10, help="scans per second (default 10)")
    sim.add_argument("--time-model", action="store_true",
                     help="read one antenna at a time, each read as long as the computed "
                     "air-time model says, in the host's scan slots (protocol 5.1, 5.2)")
    sim.add_argument("--instr-us", type=float, default=250.0, metavar="US",
                     help="with --time-model: the hub's cost per SPI instruction (default 250)")
    sim.add_argument("--dir", type=Path, help="where the stable port names, wiring.yaml and "
                     "tags.yaml go (default: a new temporary directory, removed at exit)")
    sim.add_argument("--script", type=Path, help="replay a file of 'SECONDS COMMAND' lines")
    sim.add_argument("--exit-after-script", action="store_true")
    sim.add_argument("--populate", action="store_true", help="start with every location full")
    sim.add_argument("--seed", type=int, help="seed for the simulated noise")
    sim.add_argument("--frame-log", type=Path, help="log every SNAP written (for benchmarks)")
    sim.add_argument("--no-prompt", action="store_true", help="read commands without a prompt")
    sim.add_argument("-v", "--verbose", action="store_true")
    _game_option(sim)
    sim.set_defaults(handler=_guarded("simulate", cmd_simulate))

    hw = subparsers.add_parser("hardware", help="reader hubs: check, wiring, tag registration")
    hw.set_defaults(handler=lambda args: _usage(hw))
    actions = hw.add_subparsers(dest="hardware_command", metavar="ACTION")
    check = actions.add_parser("check", help="list hubs and antennas, flag dead ones")
    _bridge_options(check)
    check.add_argument("--seconds", type=float, default=3.0, help="how long to listen")
    check.add_argument("--self-test", action="store_true", help="also run each hub's self-test")
    check.set_defaults(handler=_guarded("hardware check", cmd_check))
    talk = actions.add_parser("crosstalk", help="the matrix of zones x neighbours, collisions")
    _bridge_options(talk)
    talk.add_argument("--seconds", type=float, default=5.0, help="how long to listen")
    talk.add_argument("--all", action="store_true", help="every zone, not only colliding ones")
    talk.add_argument("--json", action="store_true", help="print the matrix as JSON")
    talk.set_defaults(handler=_guarded("hardware crosstalk", cmd_crosstalk))
    wiring = actions.add_parser("wiring", help="build the wiring map, one location at a time")
    _bridge_options(wiring)
    wiring.add_argument("--zones", help="comma-separated zone ids (default: every unwired zone)")
    wiring.set_defaults(handler=_guarded("hardware wiring", cmd_wiring))
    tags = actions.add_parser("register-tags", help="register each block's tag")
    _bridge_options(tags)
    tags.set_defaults(handler=_guarded("hardware register-tags", cmd_register))
    bench = actions.add_parser("bench", help="Stage 1: does one antenna read a full stack?")
    _bridge_options(bench)
    bench.add_argument("--hub", help="the hub's id (default: the first that answers)")
    bench.add_argument("--antenna", type=int, default=0, help="antenna number (default 0)")
    bench.add_argument("--heights", default="1-12", help="stack heights, e.g. 1-12 or 1,4,8,12")
    bench.add_argument("--posture", choices=["upright", "face-up", "both"], default="both")
    bench.add_argument("--reads", type=int, default=DEFAULT_READS,
                       help=f"full reads per height (default {DEFAULT_READS}: enough to say "
                       "'missed in at most 5 %%' with 95 %% confidence)")
    bench.add_argument("--seconds", type=float, default=120.0,
                       help="longest wait for those reads, per height (default 120)")
    bench.add_argument("--neighbour", type=int, default=None,
                       help="a neighbouring antenna on the same hub: count how often it hears "
                       "the stack (Stage 1b)")
    bench.add_argument("--soak", type=int, default=200,
                       help="SPI soak test: identity reads after the bench (default 200, 0: none)")
    bench.set_defaults(handler=_guarded("hardware bench", cmd_bench))
    watch = actions.add_parser("watch", help="print moves and discrepancies as they happen")
    _bridge_options(watch)
    watch.add_argument("--seconds", type=float, default=0.0, help="stop after this long")
    watch.set_defaults(handler=_guarded("hardware watch", cmd_watch))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _game_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=table_names(), default=DEFAULT_GAME,
                        type=lambda name: name.replace("_", "-"),
                        help=f"the game on the table (default {DEFAULT_GAME})")


def _bridge_options(parser: argparse.ArgumentParser) -> None:
    _game_option(parser)
    parser.add_argument("--port", action="append", help="a hub's serial port (repeatable); "
                        "default: find hubs by USB id")
    parser.add_argument("--usb-id", action="append", default=[], help="extra VID:PID (hex)")
    parser.add_argument("--wiring", type=Path, help="wiring map (default: config dir)")
    parser.add_argument("--tags", type=Path, help="tag registry (default: config dir)")
    parser.add_argument("--rate", type=int, help=f"set the hubs' scan rate, 1..{p.MAX_RATE_HZ}")
    parser.add_argument("--simulate", action="store_true",
                        help="use a simulated table instead of hardware")
    parser.add_argument("--sim-script", type=Path, metavar="FILE",
                        help="with --simulate: replay a file of 'SECONDS COMMAND' lines "
                        "(companion simulate's console commands) while the command runs; "
                        "the table then starts empty")
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr")
    parser.add_argument("--log", type=Path, help="append the full log (every rejected frame, "
                        "gap, reconnection) to this file")


# --------------------------------------------------------------------------- simulate


def cmd_simulate(args: argparse.Namespace) -> int:
    if not 1 <= args.rate <= p.MAX_RATE_HZ:
        raise ValueError(f"--rate must be 1..{p.MAX_RATE_HZ}")
    if not 1 <= args.instr_us <= 10_000:
        raise ValueError("--instr-us must be 1..10000 (microseconds per SPI instruction)")
    with contextlib.ExitStack() as stack:
        if args.dir is None:  # each run its own: a second simulator never takes the first's links
            directory = Path(stack.enter_context(
                tempfile.TemporaryDirectory(prefix="sekigahara-sim-")))
        else:
            directory = stack.enter_context(claim_dir(args.dir))
        if args.frame_log:
            frame_log: TextIO | None = stack.enter_context(
                args.frame_log.open("w", buffering=1 << 16))
        else:
            frame_log = None
        return _simulate(args, directory, frame_log)
    return 0  # unreachable: mypy cannot see that ExitStack does not swallow


def _simulate(args: argparse.Namespace, directory: Path, frame_log: TextIO | None) -> int:
    lock = threading.Lock()

    def log_frame(hub: str, seq: int, message: p.Message, at: float) -> None:
        if frame_log is not None and isinstance(message, p.Snapshot):
            with lock:
                frame_log.write(f"{at:.6f} {hub} {seq} {message.antenna} "
                                f"{','.join(message.uids) or '-'}\n")

    table = SimulatedTable.create(directory, args.hubs, args.antennas, args.rate, args.seed,
                                  on_frame=log_frame if frame_log else None,
                                  time_model=args.time_model, instr_us=args.instr_us)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    with table:
        wiring, tags = table.write_config(directory)
        for name, hub in table.hubs.items():
            print(f"{name}: {hub.path} (stable name {hub.link})")
        print(f"wiring map: {wiring}\ntag registry: {tags}")
        ports = " ".join(f"--port {port}" for port in table.ports)
        print(f"connect with: companion hardware check {ports} --wiring {wiring} "
              f"--tags {tags}")
        if args.populate:
            table.populate()
        print("ready", flush=True)
        if args.script:
            run_script(table, args.script, print)
            if args.exit_after_script:
                return 0
        _console(table, sys.stdin, prompt=not args.no_prompt and sys.stdin.isatty())
    return 0


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _console(table: SimulatedTable, stream: TextIO, prompt: bool) -> None:
    if prompt:
        print(f"{len(table.hubs)} hubs running; type help for commands, quit to stop")
    while True:
        if prompt:
            print("sim> ", end="", flush=True)
        line = stream.readline()
        if not line:  # end of input: keep the hubs running until interrupted
            while True:
                time.sleep(3600)
        if line.strip() in ("quit", "exit"):
            return
        try:
            output = table.execute(line)
        except ValueError as exc:
            output = f"error: {exc}"
        if output:
            print(output, flush=True)


# --------------------------------------------------------------------------- hardware


@dataclass
class Session:
    """What a ``hardware`` command runs against."""

    bridge: Bridge
    wiring_path: Path
    tags_path: Path
    wiring_found: bool
    table: SimulatedTable | None = None


@contextlib.contextmanager
def _bridge(args: argparse.Namespace, populate: bool = True, sim_wiring: bool = True,
            sim_tags: bool = True) -> Iterator[Session]:
    """The bridge the arguments describe. With --simulate, a simulated table behind it
    (``populate``: every block dealt out; ``sim_wiring``/``sim_tags``: start from the table's
    own wiring map and registry, else from empty ones), driven by --sim-script if given."""
    usb_ids = (*DEFAULT_USB_IDS, *(parse_usb_id(u) for u in args.usb_id))
    if args.sim_script is not None and not args.simulate:
        raise ValueError("--sim-script drives the simulated table: add --simulate")
    with contextlib.ExitStack() as stack:
        table: SimulatedTable | None = None
        if args.simulate:
            directory = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            table = stack.enter_context(SimulatedTable.create(directory, seed=1))
            if populate and args.sim_script is None:  # a script sets its own table up
                table.populate()
            default_wiring, default_tags = table.write_config(directory)
            if not sim_wiring:
                default_wiring.unlink()
            if not sim_tags:
                default_tags.unlink()
            ports: list[str] | None = table.ports
        else:
            default_wiring, default_tags = config_dir() / "wiring.yaml", config_dir() / "tags.yaml"
            ports = args.port
        wiring_path = args.wiring or default_wiring
        tags_path = args.tags or default_tags
        wiring = WiringMap.load(wiring_path) if wiring_path.exists() else WiringMap()
        registry = TagRegistry.load(tags_path) if tags_path.exists() else TagRegistry()
        if args.rate is not None and not p.MIN_RATE_HZ <= args.rate <= p.MAX_RATE_HZ:
            raise ValueError(f"--rate must be {p.MIN_RATE_HZ}..{p.MAX_RATE_HZ}")
        player = None
        if table is not None and args.sim_script is not None:
            player = ScriptPlayer(table, args.sim_script, _say)  # checked before anything runs
        bridge = stack.enter_context(Bridge(ports, wiring=wiring, registry=registry,
                                            usb_ids=usb_ids, rate_hz=args.rate))
        if player is not None:
            stack.enter_context(player)
        yield Session(bridge, wiring_path, tags_path, wiring_path.exists(), table)


def _say(line: str) -> None:
    print(line, flush=True)


def _wait_for_hubs(bridge: Bridge, seconds: float) -> None:
    """Until every port the bridge was given has answered or failed (any hub at all when it
    discovers its ports), or ``seconds`` pass: "the first hub" must not depend on which pty
    happened to say HELLO first."""
    def answered(b: Bridge) -> bool:
        hubs = b.hubs()
        if not hubs or b.ports is None:
            return bool(hubs)
        return len(hubs) + len(b.open_failures()) + len(b.refused_ports()) >= len(b.ports)

    with contextlib.suppress(TimeoutError):
        bridge.wait_for(answered, seconds)


def cmd_check(args: argparse.Namespace) -> int:
    with _bridge(args) as session:
        bridge = session.bridge
        started = time.monotonic()
        _wait_for_hubs(bridge, args.seconds + 2)
        time.sleep(max(0.0, args.seconds - (time.monotonic() - started)))
        results = bridge.self_test() if args.self_test else None
        lines, problems = check_report(bridge, results, since=started)
    if not session.wiring_found:
        lines.insert(0, f"no wiring map at {session.wiring_path}: build one with companion "
                     "hardware wiring")
        problems += 1
    if not args.simulate and not args.port:
        usb_ids = (*DEFAULT_USB_IDS, *(parse_usb_id(u) for u in args.usb_id))
        for device in usb_devices_without_port(usb_ids):
            lines.append(f"USB device {device} looks like a hub but has no serial port "
                         "(is MicroPython running? is the cdc_acm driver loaded?)")
            problems += 1
    for line in lines:
        print(line)
    print("all good" if problems == 0 else f"{problems} problem(s) found")
    return 0 if problems == 0 else 1


def cmd_crosstalk(args: argparse.Namespace) -> int:
    """Listen ``--seconds``, then print the cross-talk matrix (firmware_bridge.crosstalk)."""
    with _bridge(args) as session:
        _wait_for_hubs(session.bridge, args.seconds + 2)
        with contextlib.suppress(TimeoutError):  # the neighbours come with the schedule
            session.bridge.wait_for(lambda b: b.schedule() is not None, 5.0)
        time.sleep(args.seconds)
        rows = crosstalk_matrix(session.bridge)
    if args.json:
        print(json.dumps(as_json(rows, args.seconds), indent=1))
    else:
        for line in format_matrix(rows, args.seconds, only_colliding=not args.all):
            print(line)
    return 1 if any(row.collisions for row in rows) else 0


def _stopper() -> Callable[[], bool]:
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    return stop.is_set


def cmd_wiring(args: argparse.Namespace) -> int:
    with _bridge(args, populate=False, sim_wiring=False) as session:
        bridge, wiring_path = session.bridge, session.wiring_path
        _wait_for_hubs(bridge, 5)
        zones = args.zones.split(",") if args.zones else bridge.wiring.unmapped_zones()
        unknown = [z for z in zones if z not in zone_names()]
        if unknown:
            raise ValueError(f"unknown zone(s): {', '.join(unknown)}")
        print(f"wiring {len(zones)} zones into {wiring_path}; keep every other block off")
        try:
            build_wiring(bridge, zones, wiring_path, print, _stopper(), start=bridge.wiring)
        except KeyboardInterrupt:
            print(f"\nstopped; what was wired so far is saved in {wiring_path}")
    return 0


def cmd_register(args: argparse.Namespace) -> int:
    with _bridge(args, populate=False, sim_tags=False) as session:
        bridge, tags_path = session.bridge, session.tags_path
        _wait_for_hubs(bridge, 5)
        try:
            result = register_tags(bridge, bridge.registry, tags_path, print, input, _stopper())
            print(f"registered {result.registered} tags into {tags_path}")
        except (KeyboardInterrupt, EOFError):
            print(f"\nstopped; the registry so far is saved in {tags_path}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    heights = parse_heights(args.heights)
    postures = list(Posture) if args.posture == "both" else [Posture(args.posture)]
    if not 0 < args.seconds <= 600:
        raise ValueError("--seconds must be more than 0 and at most 600")
    if not 1 <= args.reads <= 10000 or not 0 <= args.soak <= 100000:
        raise ValueError("--reads must be 1..10000 and --soak 0..100000")
    with _bridge(args, populate=False) as session:
        bridge = session.bridge
        _wait_for_hubs(bridge, 5)
        hubs = bridge.hubs()
        if not hubs:
            raise ValueError("no hub answered (check the cable, or name the port with --port)")
        hub = args.hub or sorted(hubs)[0]
        if hub not in hubs or not 0 <= args.antenna < hubs[hub].hello.antennas:
            raise ValueError(f"no antenna {args.antenna} on hub {hub!r}; hubs: "
                             + ", ".join(f"{h.hub_id} ({h.hello.antennas} antennas)"
                                         for h in hubs.values()))
        key = AntennaKey(hub, args.antenna)
        neighbour = None
        if args.neighbour is not None:
            if args.neighbour == args.antenna or not (
                    0 <= args.neighbour < hubs[hub].hello.antennas):
                raise ValueError(f"no neighbour antenna {args.neighbour} on hub {hub!r}")
            neighbour = AntennaKey(hub, args.neighbour)
        build = _sim_builder(session.table, key) if session.table else _ask_builder(key)
        print(f"bench on {key}: {len(heights)} heights x {len(postures)} postures, "
              f"{args.reads} full reads each (at most {args.seconds:g} s); keep other tagged "
              "blocks away from the antenna" + (f", {neighbour} beside it" if neighbour else ""))
        faults = reader_faults(bridge, key)
        steps = run_bench(bridge, key, heights, postures, args.seconds, build, _say,
                          reads=args.reads, neighbour=neighbour)
        lines, ok = verdict(steps)
        instr_us = fit_instr_us(steps)
        lines.append("read times: none reported (firmware before protocol 1.3, or it did not take "
                     "FOCUS)" if instr_us is None
                     else f"the read times fit about {instr_us:.0f} us per SPI instruction "
                     "(firmware_bridge/airtime.py's model; this guide's figures assume 120)")
        if args.soak:
            print(f"SPI soak: {args.soak} self-tests, each an identity read over SPI")
            soak = run_soak(bridge, key, args.soak, faults, _say)
            lines += soak.lines(key)
            ok = ok and soak.errors == 0 and soak.faults == 0
    for line in lines:
        print(line)
    if session.table is not None:
        print("(simulated: read chances from firmware_bridge/readmodel.py, a model, "
              "not a measurement)")
    return 0 if ok else 1


def _ask_builder(key: AntennaKey) -> Callable[[Posture, int], None]:
    def build(posture: Posture, height: int) -> None:
        how = "standing upright" if posture is Posture.UPRIGHT else "lying face up"
        input(f"make the stack on {key} {height} block(s) high, {how} (add one block on top "
              "of the last stack), then press Enter ")
    return build


def _sim_builder(table: SimulatedTable, key: AntennaKey) -> Callable[[Posture, int], None]:
    zone = table.wiring.table()[key]
    blocks = [b for b in table.registry.tags.values()]

    def build(posture: Posture, height: int) -> None:
        for block in blocks[:40]:
            table.lift(block)
        table.stack(zone, posture, blocks[:height])
        print(f"(simulator: {height} block(s) {posture.value} on {zone})", flush=True)
    return build


def cmd_watch(args: argparse.Namespace) -> int:
    with _bridge(args) as session:
        _wait_for_hubs(session.bridge, min(5.0, args.seconds or 5.0))
        time.sleep(1.0)
        watcher = Watcher(session.bridge, _say)
        watcher.start()
        watcher.run(args.seconds, _stopper())
    return 0
