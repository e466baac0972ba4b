"""`companion hardware ...` and `companion simulate` as a new user meets them: what a check
reports, what watch prints, the --simulate variants driven by a simulator script, and two
simulators side by side."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fb_helpers import WAIT_S

from companion.cli import main
from firmware_bridge.bridge import Bridge
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simrun import claim_dir, parse_script
from firmware_bridge.simtable import SimulatedTable, shipped_wiring
from firmware_bridge.wiring import WiringMap

REPO = Path(__file__).resolve().parents[2]


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.txt"
    path.write_text(text)
    return path


def _shipped(tmp_path: Path) -> Path:
    """The game's default wiring (package data) saved as a user's wiring file."""
    path = tmp_path / "wiring.yaml"
    wiring = shipped_wiring()
    assert wiring is not None
    wiring.save(path)
    return path


def test_the_simulator_is_wired_like_the_build_guide(tmp_path: Path) -> None:
    table = SimulatedTable.create(tmp_path)
    assert table.wiring == shipped_wiring()
    assert table.antenna("gifu") == (table.hubs["hub-1"], 10)


def test_a_tray_of_four_modules_is_read_as_one_zone(tmp_path: Path) -> None:
    """The default wiring spans the casualty tray over four antennas and a Recruitment Box
    over two: blocks laid side by side land on different modules, the bridge sees one zone."""
    blocks = [f"I{n:02d}" for n in range(1, 9)]
    with SimulatedTable.create(tmp_path / "sim", rate_hz=20, seed=5) as table:
        assert len(table.antennas("casualties")) == 4
        assert len(table.antennas("ishida_recruitment")) == 2
        for block in blocks[:6]:
            table.put(block, "casualties")
        for block in blocks[6:]:
            table.put(block, "ishida_recruitment")
        assert [len(hub.tags(a)) for hub, a in table.antennas("casualties")] == [2, 2, 1, 1]
        assert [len(hub.tags(a)) for hub, a in table.antennas("ishida_recruitment")] == [1, 1]
        assert table.blocks_on("casualties") == blocks[:6]
        assert dict(table.occupied())["ishida_recruitment"] == blocks[6:]
        with Bridge(table.ports, wiring=table.wiring, registry=table.registry) as bridge:
            want = {b: "casualties" for b in blocks[:6]} | {
                b: "ishida_recruitment" for b in blocks[6:]}
            bridge.wait_for(lambda b: all(b.placements().get(k) == v for k, v in want.items()),
                            WAIT_S)


def test_check_without_a_wiring_map_fails_and_says_where_it_looked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "wiring.yaml"
    code = main(["hardware", "check", "--simulate", "--wiring", str(missing), "--seconds", "0.5"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith(f"no wiring map at {missing}: build one with companion hardware wiring")
    assert "60 zones have no antenna in the wiring map" in out


def test_check_with_an_incomplete_wiring_map_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    partial = tmp_path / "wiring.yaml"
    WiringMap(hubs={"hub-1": {"A00": "miyazu"}, "hub-9": {"A00": "edo"}}).save(partial)
    code = main(["hardware", "check", "--simulate", "--wiring", str(partial), "--seconds", "0.5"])
    out = capsys.readouterr().out
    assert code == 1
    assert "58 zones have no antenna in the wiring map" in out
    assert "hub hub-9 is in the wiring map but did not answer" in out
    assert "A00 Miyazu" in out and "A01 (not in the wiring map)" in out


def test_check_fails_when_a_hub_is_unplugged_or_a_reader_faults_during_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(tmp_path, "0.3 fault osaka NO_READER\n0.9 fault osaka none\n"
                               "0.9 unplug hub-3\n")
    code = main(["hardware", "check", "--simulate", "--sim-script", str(script),
                 "--seconds", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert "A05 Osaka" in out and "faulted during the check (NO_READER), reads again now" in out
    assert "hub hub-3 on " in out and "LOST" in out
    hub_1 = next(line for line in out.splitlines() if line.startswith("hub hub-1 on "))
    assert ": connected, firmware" in hub_1


def test_a_port_that_does_not_exist_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = tmp_path / "ttyACM7"
    code = main(["hardware", "check", "--port", str(port), "--seconds", "0.3",
                 "--wiring", str(_shipped(tmp_path)), "--tags", str(tmp_path / "t.yaml")])
    out = capsys.readouterr().out
    assert code == 1
    assert f"cannot open {port}: no such port" in out and "no hub answered" in out


def test_sim_script_needs_simulate_and_a_bad_script_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(tmp_path, "0 put I01 gifu\nsoon lift I01\n")
    assert main(["hardware", "watch", "--sim-script", str(script)]) == 1
    assert capsys.readouterr().err.strip().endswith("add --simulate")
    assert main(["hardware", "watch", "--simulate", "--sim-script", str(script)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"companion hardware watch: error: {script}:2: 'soon' is not a number of seconds"
    with pytest.raises(ValueError, match="unknown command 'teleport'"):
        parse_script(_script(tmp_path, "0 teleport I01\n"))


def test_watch_judges_blocks_from_the_bag_cites_the_rule_and_prints_only_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(tmp_path, """
0 put I03 miyazu
0 put T01 edo
2.0 put I01 ishida_recruitment
2.0 put T02 ishida_recruitment
3.0 move edo osaka
4.5 move osaka edo
4.5 lift T02
""")
    code = main(["hardware", "watch", "--simulate", "--sim-script", str(script),
                 "--seconds", "6.5"])
    out = capsys.readouterr().out
    assert code == 0
    assert "watching 96 blocks in play (2 on the table, the rest in the bags)" in out
    # the box spans two antennas: the two blocks may land on different modules and show in one
    # line or two, as the two antennas' snapshots come in
    placed = " ".join(line for line in out.splitlines()
                      if line.endswith("placed on Ishida Recruitment Box"))
    assert "a gold block" in placed and "a black block" in placed
    shown = [line for line in out.splitlines() if line.startswith("  ! ")]
    bag = [line for line in shown if "(rule 6.2)" in line]
    road = [line for line in shown if "(rule 7.3.1)" in line]
    assert len(bag) == 1 and bag[0].startswith("  ! a black block moved from Tokugawa's bag")
    assert bag[0].endswith("put it back in Tokugawa's bag")
    assert len(road) == 1 and "from Edo to Osaka: Osaka is not one road away from Edo" in road[0]
    assert sum("resolved" in line for line in out.splitlines()) == 2
    assert "gold block" not in "".join(bag + road)


def test_watch_warns_when_no_hub_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["hardware", "watch", "--port", str(tmp_path / "none"), "--seconds", "0.5",
                 "--wiring", str(_shipped(tmp_path)), "--tags", str(tmp_path / "t.yaml")])
    assert code == 0
    assert "warning: no hub answers" in capsys.readouterr().out


def test_wiring_with_simulate_is_driven_by_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "wiring.yaml"
    script = _script(tmp_path, "1.5 put I01 gifu\n2.5 lift I01\n3.5 put I01 kiso\n4.5 lift I01\n")
    code = main(["hardware", "wiring", "--simulate", "--sim-script", str(script),
                 "--zones", "gifu,kiso", "--wiring", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "Gifu is hub-1/A10" in printed and "Kiso is hub-2/A08" in printed
    assert WiringMap.load(out).hubs == {"hub-1": {"A10": "gifu"}, "hub-2": {"A08": "kiso"}}


def test_register_tags_with_simulate_is_driven_by_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "tags.yaml"
    script = _script(tmp_path, "1.5 put E0040150AAAA0001 registration\n"
                               "3 lift E0040150AAAA0001\n4 put E0040150AAAA0002 registration\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("I07\n"))  # then end of input
    code = main(["hardware", "register-tags", "--simulate", "--sim-script", str(script),
                 "--tags", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "registered I07" in printed and "stopped; the registry so far is saved" in printed
    assert TagRegistry.load(out).tags == {"E0040150AAAA0001": "I07"}


def test_cross_talk_between_antennas_of_two_hubs(table: SimulatedTable, bridge: Bridge) -> None:
    hub_of = {zone: key.hub for key, zone in table.wiring.table().items()}
    source = next(z for z, h in hub_of.items() if h == "hub-1")
    neighbour = next(z for z, h in hub_of.items() if h == "hub-2")
    table.put("I03", source)
    bridge.wait_for(lambda b: b.placements().get("I03") == source, WAIT_S)
    time.sleep(0.3)
    table.execute(f"crosstalk {source} {neighbour}")
    heard = bridge.wait_for(lambda b: b.view().crosstalk.get("E004015000000003"), WAIT_S)
    assert heard == (neighbour,)
    assert bridge.placements()["I03"] == source
    table.execute("nocrosstalk")
    bridge.wait_for(lambda b: "E004015000000003" not in b.view().crosstalk, WAIT_S)


def test_a_directory_serves_one_simulator_at_a_time(tmp_path: Path) -> None:
    with (claim_dir(tmp_path / "sim"), pytest.raises(ValueError, match="in use by another"),
          claim_dir(tmp_path / "sim")):
        pass
    with claim_dir(tmp_path / "sim"):  # free again once the first let go
        pass


def test_a_second_simulate_does_not_break_the_first(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "companion", "simulate", "--no-prompt"]
    first = subprocess.Popen([*command, "--dir", str(tmp_path / "a")], cwd=REPO, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    try:
        assert first.stdout is not None
        lines: list[str] = []
        while not lines or lines[-1] != "ready":
            lines.append(first.stdout.readline().strip())
            assert first.poll() is None, first.stderr.read() if first.stderr else ""
        link = tmp_path / "a" / "hub-1"
        target = link.resolve()
        same = subprocess.run([*command, "--dir", str(tmp_path / "a")], cwd=REPO,
                              capture_output=True, text=True, timeout=30)
        assert same.returncode == 1
        assert "in use by another companion simulate" in same.stderr
        script = _script(tmp_path, "0 show\n")
        other = subprocess.run([*command, "--script", str(script), "--exit-after-script"],
                               cwd=REPO, capture_output=True, text=True, timeout=30)
        assert other.returncode == 0, other.stderr
        assert str(tmp_path / "a") not in other.stdout
        assert link.resolve() == target and target.exists()
    finally:
        first.terminate()
        first.wait(timeout=10)
