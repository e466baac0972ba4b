"""The referee calculator beyond battles: one move (7.3, 7.4, 4.2) or one retreat (8.8) judged
on a position given as JSON, by the game engine's own handlers.

``companion referee move FILE`` and ``companion referee retreat FILE`` (docs/referee-calculator.md)
read a position (where each block stands, the castles, the roads already used) and the proposed
move or retreat; the answer says whether it is legal, the rule, and what it sets off. The
position becomes an engine :class:`State`: each block given is matched to a block of the game
with that face (3.2), every other block is in its bag, and the command runs through the same
handler a live game uses, so the ruling is the engine's.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Attack, Clan, Disk, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.apply import MANY, apply_event, entry_key
from companion.games.sekigahara.engine.castles import normalise
from companion.games.sekigahara.engine.data import BOARD, FACES
from companion.games.sekigahara.engine.movement_phase import move_stack
from companion.games.sekigahara.engine.queries import explain_stack_move
from companion.games.sekigahara.engine.retreat import retreat, retreat_options
from companion.games.sekigahara.engine.state import (
    BAG,
    Level,
    PendingCombat,
    Phase,
    Stage,
    State,
)
from companion.games.sekigahara.engine.views import public_event


class BoardError(Exception):
    """Input the calculator rejects before judging (a format or component error)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message, self.rule = message, rule


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BlockAt(_Strict):
    """A block on the map: its side, where it stands, and as much of its face as matters."""

    side: Side
    at: str
    clan: Clan | None = None
    mon: Annotated[StrictInt, Field(ge=1, le=4)] | None = None
    attack: Attack | None = None
    leader: StrictBool | None = None
    inside: StrictBool = False


class Position(_Strict):
    """Who is where in the active side's phase (docs/referee-calculator.md, "Positions")."""

    active: Side
    blocks: dict[str, BlockAt]
    hand: dict[Side, Annotated[StrictInt, Field(ge=0, le=55)]] = {}
    disks: dict[Disk, str | None] = {}
    castles: dict[str, Side] = {}
    resources: dict[str, Side | None] = {}


class MoveSpec(_Strict):
    origin: str
    paths: dict[str, list[str]]
    force_marches: list[list[str]] = []


class MoveInput(Position):
    level: Level = Level.TOTAL
    moved: list[str] = []
    used_roads: list[tuple[str, str]] = []
    move: MoveSpec


class BattleSpec(_Strict):
    location: str
    attacker: Side
    loser: Side
    entered_from: dict[Side, list[str]] = {}


class RetreatSpec(_Strict):
    destination: str | None = None
    into_castle: list[str] = []


class RetreatInput(Position):
    battle: BattleSpec
    retreat: RetreatSpec


def judge_move(data: Any) -> dict[str, Any]:
    """A proposed stack move on a position: legal or not, the rule, the routes, what it does."""
    given = _validate(MoveInput, data)
    state, ids = _state(given, Phase.MOVEMENT)
    state.level = given.level
    state.moves_left = {Level.NONE: 0, Level.MINIMAL: 1, Level.LIMITED: 3, Level.TOTAL: MANY}[
        given.level]
    state.moved = {_engine(ids, b) for b in given.moved}
    for a, b in given.used_roads:
        if BOARD.road_between(_location(a), _location(b)) is None:
            raise BoardError(f"no road joins {a} and {b}", rule="4.1")
        state.used_segments.add((min(a, b), max(a, b)))
    spec = given.move
    command = cm.MoveStack(
        side=given.active, origin=spec.origin,
        paths={_engine(ids, b): tuple(p) for b, p in spec.paths.items()},
        force_marches=tuple(tuple(_engine(ids, b) for b in g) for g in spec.force_marches),
    )
    back = {e: u for u, e in ids.items()}
    answer: dict[str, Any] = {"routes": _routes(state, command, back)}
    try:
        events = move_stack(state, command)
    except RuleViolation as exc:
        return {"legal": False, **_refusal(exc, back), **answer}
    moved = next(e for e in events if isinstance(e, ev.StackMoved))
    return {
        "legal": True,
        "rule": "7.3.4" if moved.leadership else "7.3",
        "leadership": moved.leadership,
        "force_march_cards": moved.force_marches,
        "overruns": [{"location": e.location, "side": e.side.value,
                      "blocks": [back.get(b, b) for b in e.blocks]}
                     for e in events if isinstance(e, ev.Overrun)],
        "resources": [e.location for e in events if isinstance(e, ev.ResourceControlled)],
        "log": _log(events),
        **answer,
    }


def judge_retreat(data: Any) -> dict[str, Any]:
    """A proposed retreat after a battle: legal or not, the options, and what it sets off."""
    given = _validate(RetreatInput, data)
    state, ids = _state(given, Phase.COMBAT)
    battle = given.battle
    _location(battle.location)
    natural = BOARD.locations[battle.location].castle
    owner = given.castles.get(battle.location, natural) if natural is not None else None
    state.pending = PendingCombat(battle.location, battle.attacker, owner, Stage.RETREAT,
                                  retreating=battle.loser)
    for side, places in battle.entered_from.items():
        state.entered_from[entry_key(side, battle.location)] = {_location(p) for p in places}
    destinations, castle = retreat_options(state)
    options = {"destinations": destinations, "castle_harbours": castle}
    command = cm.Retreat(side=battle.loser, destination=given.retreat.destination,
                         into_castle=tuple(_engine(ids, b) for b in given.retreat.into_castle))
    back = {e: u for u, e in ids.items()}
    try:
        events = retreat(state, command)
    except RuleViolation as exc:
        return {"legal": False, **_refusal(exc, back), **options}
    opened = [e.location for e in events if isinstance(e, ev.CombatDeclared)]
    return {
        "legal": True,
        "rule": "8.8.1",
        **options,
        "overruns": [{"location": e.location, "side": e.side.value,
                      "blocks": [back.get(b, b) for b in e.blocks]}
                     for e in events if isinstance(e, ev.Overrun)],
        "combat_opens": opened[0] if opened else None,
        "log": _log(events),
    }


# ------------------------------------------------------------------------------ the position


def _validate(model: type[MoveInput] | type[RetreatInput], data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        message = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
        raise BoardError(f"{where}: {message}" if where else message) from None


def _location(loc: str) -> str:
    if loc not in BOARD.locations:
        raise BoardError(f"{loc!r} is not a location on the map", rule="4.1")
    return loc


def _engine(ids: dict[str, str], block: str) -> str:
    if block not in ids:
        raise BoardError(f"there is no block {block!r} in the position")
    return ids[block]


def _state(given: Position, phase: Phase) -> tuple[State, dict[str, str]]:
    """The engine state of the position and the engine id of each given block."""
    state = apply_event(State(), ev.GameStarted())
    for b in list(state.pos):
        state.place(b, BAG)
    ids: dict[str, str] = {}
    for block_id, block in given.blocks.items():
        _location(block.at)
        engine_id = _match(block_id, block, set(ids.values()))
        ids[block_id] = engine_id
        state.place(engine_id, block.at)
        if block.inside:
            state.inside.add(engine_id)
    for disk, where in given.disks.items():
        state.disks[disk] = None if where is None else _location(where)
    normalise(state, BOARD.locations)  # a castle belongs to the side alone there (8.9.1)
    for loc, side in given.castles.items():
        if BOARD.locations[_location(loc)].castle is None:
            raise BoardError(f"{loc} has no castle", rule="4.3")
        state.castle_owner[loc] = side
    for loc, holder in given.resources.items():
        if not BOARD.locations[_location(loc)].resource:
            raise BoardError(f"{loc} is not a Resource Location", rule="4.2")
        state.resource_control[loc] = holder
    state.phase, state.active, state.first = phase, given.active, given.active
    state.hand = {side: given.hand.get(side, 2) for side in Side}
    return state, ids


def _match(block_id: str, block: BlockAt, taken: set[str]) -> str:
    """A block of the game with the face given (3.2); a leader only if said or if the face is
    only ever a leader (the Ishida block, 1-mon blocks without attack in the manifest)."""
    fits = [
        b for b, f in sorted(FACES.items())
        if b not in taken and f.side is block.side
        and (block.clan is None or f.clan is block.clan)
        and (block.mon is None or f.mon == block.mon)
        and (f.attack is block.attack or not (block.attack or block.clan or block.mon))
        and (block.leader is None or f.leader is block.leader)
    ]
    if block.clan is not None and block.clan.side is not block.side:
        raise BoardError(f"block {block_id}: the {block.clan.value} clan is {block.clan.side}")
    plain = [b for b in fits if not FACES[b].leader]
    if block.leader is None and plain:
        fits = plain
    if not fits:
        raise BoardError(f"block {block_id}: no block of the game fits this face, or every one "
                         "is already given", rule="3.2")
    return fits[0]


# ------------------------------------------------------------------------------ answers


def _refusal(exc: RuleViolation, back: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"rule": exc.rule, "message": exc.message}
    private = exc.private if isinstance(exc, HiddenViolation) else None
    if private:
        out["detail"] = _user_ids(private, back)
    return out


def _user_ids(text: str, back: dict[str, str]) -> str:
    return re.sub(r"\b[IT]\d\d\b", lambda m: back.get(m.group(0), "a block"), text)


def _routes(state: State, command: cm.MoveStack, back: dict[str, str]) -> list[dict[str, Any]]:
    """For each group that ends together, the legal routes there (or why none is)."""
    ends: dict[str, list[str]] = {}
    for block, path in command.paths.items():
        if path:
            ends.setdefault(path[-1], []).append(block)
    found = []
    for dest, blocks in ends.items():
        if dest not in BOARD.locations or command.origin not in BOARD.locations:
            continue
        exp = explain_stack_move(state, command.side, command.origin, dest, tuple(blocks))
        found.append({
            "destination": dest,
            "blocks": [back.get(b, b) for b in blocks],
            "routes": [{"path": list(r.path), "force_march": r.needs_force_march,
                        "leader": r.needs_leader, "overruns": list(r.overruns),
                        "resources": list(r.resources)} for r in exp.routes],
            "reason": exp.reason,
        })
    return found


def _log(events: list[ev.Event]) -> list[str]:
    return [public_event(e) for e in events]
