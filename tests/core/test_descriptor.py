"""One game descriptor, registered once (issue 16): every shipped descriptor's lazy parts load,
loading the descriptors imports no game, and a new game needs only its own package plus one
entry point line to reach the game choice, ``companion --help``, the bridge's tables and its
own commands. A name registered twice is one warning, never a parser that cannot be built."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.core.descriptor import (
    DescriptorError,
    GameDescriptor,
    descriptor,
    descriptors,
    load_target,
)
from companion.core.table import game_table, table_names
from ui.cli import game_runner, installed_games

LAZY = ("table", "ui", "records", "referee")


def test_the_shipped_games_are_registered() -> None:
    games = descriptors()
    assert {"sekigahara", "tenka-meidou"} <= set(games)
    assert list(games) == sorted(games)
    assert descriptor("tenka_meidou") is games["tenka-meidou"]
    assert games["tenka-meidou"].title == "Tenka Meidou"
    with pytest.raises(KeyError, match=r"no game 'kriegspiel'; games: .*sekigahara"):
        descriptor("kriegspiel")


@pytest.mark.parametrize("name", ["sekigahara", "tenka-meidou"])
def test_every_lazy_part_of_a_shipped_game_loads(name: str) -> None:
    game = descriptor(name)
    for part in LAZY:
        if getattr(game, part) is not None:
            assert game.load(part) is not None, part
    for command in game.commands:
        assert callable(game.load(f"command {command}"))
    records = game.load_records()
    assert records.game == name and "public" in records.views and "referee" in records.views
    assert game.load_table() is game_table(name)
    assert game.hardware is not None
    some = next(f.name for f in resources.files(game.hardware).iterdir() if f.is_file())
    assert game.read_hardware_file(some) == game.hardware_file(some).read_text("utf-8") != ""
    with pytest.raises(FileNotFoundError, match=f"{game.title} has no hardware file"):
        game.hardware_file("absent.yaml")


def test_a_part_that_cannot_load_says_which_game_and_part() -> None:
    game = GameDescriptor("kensei", "Kensei", "2 players", commands={"kensei": "nowhere:run"},
                          table="companion.core.table:NOTHING", ui="no colon")
    with pytest.raises(DescriptorError, match="Kensei's command kensei cannot be loaded"):
        game.load("command kensei")
    with pytest.raises(DescriptorError, match=r"Kensei's table: companion\.core\.table has no"):
        game.load_table()
    with pytest.raises(DescriptorError, match="'no colon' is not 'module:attribute'"):
        game.load("ui")
    with pytest.raises(DescriptorError, match="Kensei has no records"):
        game.load_records()
    with pytest.raises(FileNotFoundError, match="Kensei has no hardware data"):
        game.hardware_file("antennas.yaml")
    assert load_target("companion.core.table:PlaceKind.BOX", "a place").value == "box"


def test_reading_the_descriptors_imports_no_game() -> None:
    """The game choice, --help and the bridge's --game choices read every descriptor: only
    the games' light ``__init__`` may load, no engine, screen or bridge."""
    code = ("import sys; from companion.core.descriptor import descriptors; descriptors(); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith("
            "('companion.games', 'ui', 'firmware_bridge', 'pygame', 'pydantic')))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert {"companion.games.sekigahara", "companion.games.tenka_meidou"} <= set(loaded)
    deeper = [m for m in loaded if m.count(".") > 2 or not m.startswith("companion.games")]
    assert not deeper


# ---------------------------------------------------------------------- a new game


TOY = {
    "__init__.py": """
        from companion.core.descriptor import GameDescriptor

        GAME = GameDescriptor(
            name="zz-toy", title="Toy Castles", line="1 player · a test of the registry",
            commands={"toy": "toygame.cli:register", "selfplay": "toygame.cli:register_selfplay"},
            table="toygame.table:TABLE", ui="toygame.screens:UI")
        """,
    "cli.py": """
        def register(subparsers):
            parser = subparsers.add_parser("toy", help="the toy game's own command")
            parser.set_defaults(handler=lambda args: 42)
            subparsers.add_parser("run", help="a name another package already has")

        def register_selfplay(subparsers):
            subparsers.add_parser("selfplay", help="the toy's selfplay")

        """,
    "screens.py": """
        class ToyUI:
            key = "zz-toy"

            def run(self, args, change_game=False):
                return 0

        UI = ToyUI()
        """,
    "table.py": "TABLE = object()\n",
}
KENSEI = {
    "__init__.py": """
        from companion.core.descriptor import GameDescriptor

        GAME = GameDescriptor(name="zz-kensei", title="Kensei", line="2 players · duels",
                              commands={"zz-kensei": "kenseitoy:register"})

        def register(subparsers):
            subparsers.add_parser("zz-kensei").set_defaults(handler=lambda args: 7)
        """,
}


def install(root: Path, package: str, files: dict[str, str], entry: str) -> None:
    """A game package and its one registration line, as an installed distribution."""
    (root / package).mkdir(parents=True)
    for name, text in files.items():
        (root / package / name).write_text(textwrap.dedent(text))
    info = root / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[companion.games]\n{entry}\n")


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    install(tmp_path, "toygame", TOY, "zz-toy = toygame:GAME")
    install(tmp_path, "kenseitoy", KENSEI, "zz-kensei = kenseitoy:GAME")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_new_game_needs_only_its_package_and_one_registration_line(
        toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = descriptors()
    assert {"sekigahara", "tenka-meidou", "zz-toy", "zz-kensei"} <= set(games)
    # the game choice, and the screens it starts
    choice = {g.key: g for g in installed_games()}
    assert choice["zz-toy"].title == "Toy Castles"
    assert "zz-kensei" not in choice  # no screens, no table: not offered on the table
    assert "kensei" in choice  # the shipped Kensei: its calculators' screens, no reader table
    assert game_runner("zz-toy")(None, False) == 0  # type: ignore[arg-type]
    # the bridge
    assert "zz-toy" in table_names() and "zz-kensei" not in table_names()
    assert game_table("zz_toy") is sys.modules["toygame.table"].TABLE  # type: ignore[attr-defined]
    # companion --help, and the commands themselves
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    assert "toy, " in listed and "zz-kensei" in listed and "tenka" in listed
    assert main(["toy"]) == 42 and main(["zz-kensei"]) == 7
    # companion run --game offers it
    assert main(["run", "--game", "zz-toy", "--headless", "--db", str(toy / "g.sqlite")]) == 0


def test_a_command_registered_twice_is_one_warning_and_the_first_wins(
        toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()  # the toy's selfplay and its "run" clash with the shipped ones
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "companion: command 'selfplay' is registered twice (companion.games.sekigahara."
        "selfplay:register and toygame.cli:register_selfplay): the first is used",
        "companion: command 'run' of toygame.cli:register is already registered by "
        "ui.cli:register: ui.cli:register's is used"]
    args = parser.parse_args(["selfplay", "--games", "2"])  # Sekigahara's, with its options
    assert args.games == 2
    assert parser.parse_args(["run", "--headless"]).headless


def test_every_installed_command_builds_into_one_parser(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """hardware and simulate share one register; the parser of every command is built once."""
    parser = build_parser()
    assert capsys.readouterr().err == ""
    assert parser.parse_args(["hardware", "check", "--simulate"]).hardware_command == "check"
    assert parser.parse_args(["referee", "battle", "x.json"]).referee_command == "battle"


def test_a_registration_that_cannot_load_is_skipped_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    broken = {"__init__.py": "GAME = 'not a descriptor'\n"}
    install(tmp_path, "brokengame", broken, "zz-broken = brokengame:GAME\n"
            "zz-missing = nowhere_at_all:GAME")
    monkeypatch.syspath_prepend(str(tmp_path))
    games = descriptors()
    descriptors()  # read again: said once
    assert "zz-broken" not in games and "zz-missing" not in games
    assert {"sekigahara", "tenka-meidou"} <= set(games)
    assert capsys.readouterr().err.splitlines() == [
        "companion: game 'zz-broken' (brokengame:GAME) is not a GameDescriptor: skipped",
        "companion: game 'zz-missing' cannot be loaded: No module named 'nowhere_at_all': "
        "skipped"]
