"""The interactive flows (wiring, tag registration) and `companion` commands, on the simulator."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fb_helpers import WAIT_S

from companion.cli import main
from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.flows import build_wiring, check_report, register_tags
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.wiring import WiringMap
from firmware_bridge.zones import REGISTRATION, zone_names

REPO = Path(__file__).resolve().parents[2]


def test_building_the_wiring_map_by_putting_a_block_on_each_location(
    table: SimulatedTable, tmp_path: Path
) -> None:
    zones = ["gifu", "kiso", "edo", "casualties"]
    by_name = {name: zone for zone, name in zone_names().items()}
    out = tmp_path / "wiring.yaml"
    deadline = time.monotonic() + 20

    def say(message: str) -> None:  # the "user" does what the prompt says
        if message.startswith("put one tagged block on "):
            table.put("I01", by_name[message.removeprefix("put one tagged block on ")])
        elif "lift the block" in message:
            table.lift("I01")

    with Bridge(table.ports, wiring=WiringMap(), registry=TagRegistry()) as bridge:
        bridge.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        wiring = build_wiring(bridge, zones, out, say, lambda: time.monotonic() > deadline)
    expected = {zone: key for key, zone in table.wiring.table().items() if zone in zones}
    assert {zone: key for key, zone in wiring.table().items()} == expected
    assert WiringMap.load(out) == wiring


def test_registering_tags_by_saying_what_each_block_is(
    table: SimulatedTable, tmp_path: Path
) -> None:
    blocks = {"E0040150AAAA0001": "ishida leader", "E0040150AAAA0002": "I07",
              "E0040150AAAA0003": "mori 3"}
    queue = list(blocks)
    out = tmp_path / "tags.yaml"
    deadline = time.monotonic() + 20
    asked: list[str] = []

    def say(message: str) -> None:
        if message.startswith(("put one block on", "lift it")):
            for uid in blocks:
                table.lift(uid)
            if queue:
                table.put(queue.pop(0), REGISTRATION)

    def ask(prompt: str) -> str:
        uid = prompt.split()[1].rstrip(":")
        asked.append(uid)
        return blocks[uid]

    def done() -> bool:
        return (not queue and len(asked) == len(blocks)) or time.monotonic() > deadline

    with Bridge(table.ports, wiring=table.wiring, registry=TagRegistry()) as bridge:
        bridge.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        result = register_tags(bridge, TagRegistry(), out, say, ask, done)
    assert result.registered == 3
    saved = TagRegistry.load(out)
    assert saved.tags["E0040150AAAA0002"] == "I07"
    assert saved.tags["E0040150AAAA0001"] == "I01"
    assert len(saved.tags) == 3


def test_hardware_check_against_the_simulator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "check", "--simulate", "--seconds", "1.5", "--self-test"]) == 0
    out = capsys.readouterr().out
    assert "hub hub-1" in out and "firmware sim-1.0" in out and "protocol 1.3" in out
    assert "A10 Gifu" in out and "reads/s" in out  # the build guide's default wiring
    assert out.strip().endswith("all good")


def test_hardware_check_flags_a_dead_antenna(
    table: SimulatedTable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wiring, tags = table.write_config(tmp_path)
    table.execute("fault osaka NO_READER")
    ports = [arg for port in table.ports for arg in ("--port", port)]
    code = main(["hardware", "check", *ports, "--wiring", str(wiring), "--tags", str(tags),
                 "--seconds", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "Osaka" in out and "FAULT NO_READER" in out and "problem(s) found" in out


def test_a_malformed_wiring_file_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "wiring.yaml"
    bad.write_text("hubs:\n  hub-1:\n    A00: nowhere\n")
    code = main(["hardware", "check", "--port", "/dev/null-nothing", "--wiring", str(bad),
                 "--seconds", "0"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.strip() == (f"companion hardware check: error: {bad}: hubs: hub-1.A00: "
                           "unknown zone 'nowhere'")


def test_no_hub_is_a_clear_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hardware", "check", "--port", str(tmp_path / "missing"), "--seconds", "0.3",
                 "--wiring", str(tmp_path / "none.yaml"), "--tags", str(tmp_path / "none.yaml")])
    assert code == 1
    assert "no hub answered" in capsys.readouterr().out


def test_simulate_replays_a_script_and_prints_its_ports(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text("# a short game\n0 put I01 gifu\n0.2 show\n0.3 move gifu kiso\n0.4 show\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--hubs", "2", "--antennas", "32",
         "--dir", str(tmp_path / "sim"), "--script", str(script), "--exit-after-script"],
        capture_output=True, text=True, timeout=30, cwd=REPO,
    )
    assert result.returncode == 0, result.stderr
    assert "hub-1: /dev/pts/" in result.stdout
    assert "gifu: I01" in result.stdout and "kiso: I01" in result.stdout
    assert (tmp_path / "sim" / "wiring.yaml").exists()


def test_simulate_script_errors_name_the_line(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text("0 put I01 gifu\n0 teleport I01\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--dir", str(tmp_path / "sim"),
         "--script", str(script), "--exit-after-script"],
        capture_output=True, text=True, timeout=30, cwd=REPO,
    )
    assert result.returncode == 1
    assert f"{script}:2: unknown command 'teleport'" in result.stderr
    assert "Traceback" not in result.stderr


def test_hardware_check_prints_the_read_times_and_full_reads_the_hubs_report(
    table: SimulatedTable, bridge: Bridge
) -> None:
    """Protocol 1.3 hubs say each read's time and whether it was full (docs/protocol.md 4.2):
    the check prints them per antenna and per hub, in plain words."""
    hub = table.hubs["hub-1"]
    before = check_report(bridge, None)[0]
    assert any(line.startswith("  read times: none reported yet") for line in before)
    for ms, full in ((40, True), (50, False), (60, False), (310, True)):
        for part in p.snapshot_frames(3, [], read_ms=ms, full=full):
            hub.send(part)
    bridge.wait_for(lambda b: (a3 := b.hubs()["hub-1"].antennas.get(3)) is not None
                    and 310 in a3.read_ms, WAIT_S)
    lines, _ = check_report(bridge, None)  # the untimed simulator's reads are full, untimed
    a03 = next(line for line in lines if line.startswith("  A03 "))
    # the reads/s (and a "DEAD" note when none fell in the rate's window under load) are
    # another test's subject: this one is the read times and the share of full reads
    assert re.search(r"reads/s, 55 ms a read \(worst 310\), \d+% full(  <-- DEAD: .*)?$",
                     a03), a03
    summary = next(line for line in lines if line.startswith("  read times: median"))
    assert summary.startswith("  read times: median 55 ms, worst 310 ms over the last 4 reads; ")
    assert summary.endswith("reads full (a quick read asks only for new tags)")
    hub2 = [line for line in lines if line.startswith("  read times:")][1]
    assert hub2.startswith("  read times: none reported yet")
