"""The War calculator: the War phase (section 5.II) and final score (section 6) from the table
at the end of deployment, given as JSON (docs/tenka-meidou.md, "War calculator").

Malformed or impossible input gives ``{"error": {"rule": ..., "message": ...}}`` (exit status 2),
like the Sekigahara referee calculator; never a traceback.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from companion.core.calculator import CalculatorError
from companion.core.inputs import InputError, Limits, parse_json, read_text, short
from companion.games.tenka_meidou.components import Board, Colour, Components
from companion.games.tenka_meidou.war import WarResult, fight_war

EXIT_OK = 0
EXIT_ERROR = 2
LIMITS = Limits(size=64_000, depth=8)
"""The largest table read (a full four-player table is under 2 kB) and its deepest nesting
(the format goes three deep: soldiers by zone and colour)."""


class WarInputError(CalculatorError):
    """Input the calculator rejects; ``rule`` is None for a format error."""


class WarInput(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    players: tuple[Colour, ...]
    swords: dict[Colour, int]
    castles: dict[str, int]
    soldiers: dict[str, dict[Colour, int]]
    daimyo: dict[Colour, str] = {}


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(short(p) for p in err["loc"])
    message = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
    return f"{where}: {message}" if where else message


def check(war: WarInput, board: Board, components: Components) -> None:
    """What a table at the end of deployment must satisfy (sections 1, 3, 9)."""
    players = war.players
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        raise WarInputError("players: 2 to 4 different colours", "1")
    if set(war.swords) != set(players):
        raise WarInputError("swords: give one sword for each player, and only for them", "5.I")
    in_play = components.table(len(players)).swords
    if sorted(war.swords.values()) != sorted(in_play):
        raise WarInputError(
            f"swords: with {len(players)} players the swords are {sorted(in_play)}, "
            "one each", "3.4")
    zones = set(board.zone_ids)
    if set(war.castles) != zones:
        odd = sorted(zones ^ set(war.castles))[0]
        what = "unknown zone" if odd in war.castles else "no castle value for"
        raise WarInputError(f"castles: {what} {odd!r}; give every zone its castle", "3.2")
    if Counter(war.castles.values()) != Counter(components.large_castle_tokens):
        raise WarInputError("castles: the large castle values are 2 to 12, one each", "3.2")
    for zone, per in war.soldiers.items():
        if zone not in zones:
            raise WarInputError(f"soldiers: unknown zone {zone!r}")
        for colour, n in per.items():
            if colour not in players:
                raise WarInputError(f"soldiers.{zone}: {colour} is not playing")
            if n < 0:
                raise WarInputError(f"soldiers.{zone}.{colour}: a count cannot be negative")
    for colour, zone in war.daimyo.items():
        if colour not in players:
            raise WarInputError(f"daimyo: {colour} is not playing")
        if zone not in zones:
            raise WarInputError(f"daimyo.{colour}: unknown zone {zone!r}")
    most = components.soldiers_per_colour(advanced=bool(war.daimyo))
    for colour in players:
        total = sum(per.get(colour, 0) for per in war.soldiers.values())
        if total > most:
            game = "advanced " if war.daimyo else ""
            raise WarInputError(f"soldiers: {colour} has {total} soldier pawns on the board; "
                                f"each colour has {most} in the {game}game", "2" if not
                                war.daimyo else "9")


def render(result: WarResult) -> dict[str, Any]:
    return {
        "zones": [
            {"zone": z.zone, "value": z.value,
             "winner": z.winner.value if z.winner else None,
             "second": z.second.value if z.second else None,
             "small_value": z.small_value, "reinforcements": dict(z.reinforcements)}
            for z in result.zones
        ],
        "scores": {c.value: n for c, n in result.scores.items()},
        "winner": result.winner.value,
        "rulings": [r.model_dump() for r in result.rulings],
    }


def adjudicate(data: Any, board: Board, components: Components) -> dict[str, Any]:
    try:
        war = WarInput.model_validate(data)
    except ValidationError as exc:
        raise WarInputError(_first_error(exc)) from None
    check(war, board, components)
    return render(fight_war(players=war.players, swords=war.swords, castles=war.castles,
                            soldiers=war.soldiers, daimyo_at=war.daimyo, board=board,
                            components=components))


def parse(text: str) -> Any:
    """JSON text to data; WarInputError for anything too large, too deep, or not JSON."""
    try:
        return parse_json(text, limits=LIMITS)
    except InputError as exc:
        raise WarInputError(exc.message) from None


def read(source: str) -> str:
    """The text of FILE (``-``: standard input), read no further than the limit."""
    try:
        return read_text(source, LIMITS)
    except InputError as exc:
        raise WarInputError(exc.message) from None


def adjudicate_text(text: str, board: Board, components: Components) -> tuple[int, dict[str, Any]]:
    """Parse and adjudicate JSON text: the exit status and the object to print."""
    try:
        return EXIT_OK, adjudicate(parse(text), board, components)
    except WarInputError as exc:
        return EXIT_ERROR, exc.as_json()
