"""Positions for engine tests, built from events (events are the public replay API)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.core.game import Accepted, Rejection
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import CardKind, Clan, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import FACES, side_of
from companion.games.sekigahara.engine.game import SekigaharaGame, new_game
from companion.games.sekigahara.engine.setup import start_game
from companion.games.sekigahara.engine.state import BAG, MORI_BOX, Level, Phase, State

ISH, TOK = Side.ISHIDA, Side.TOKUGAWA


def pick(side: Side, n: int = 1, *, clan: Clan | None = None, leader: bool | None = None,
         mon: int | None = None, exclude: Iterable[str] = ()) -> list[str]:
    """``n`` block ids of ``side`` (not protagonists unless asked), in id order."""
    skip = set(exclude)
    found = [
        b for b, f in sorted(FACES.items())
        if f.side is side and b not in skip and (clan is None or f.clan is clan)
        and (leader is None or f.leader is leader) and (mon is None or f.mon == mon)
        and (leader is True or not f.is_protagonist)
        and not (f.clan is Clan.MORI and f.setup is not None)
    ]
    assert len(found) >= n, (side, clan, leader, n)
    return found[:n]


def position(
    placements: Mapping[str, Iterable[str]],
    *,
    phase: Phase = Phase.MOVEMENT,
    active: Side = TOK,
    first: Side | None = None,
    week: int = 1,
    turn: str = "A",
    level: Level | None = None,
    hands: int = 5,
    extra: Iterable[ev.Event] = (),
) -> SekigaharaGame:
    """A game where only the listed blocks are on the map (or in the named zones); every other
    block is in its bag, the Mori blocks stay in the Mori box; disks at their castles."""
    events: list[ev.Event] = list(start_game(State(), cm.StartGame()))
    state = new_game(events).state
    placed = {b for blocks in placements.values() for b in blocks}
    back = [b for b, z in state.pos.items() if z != MORI_BOX and z != BAG and b not in placed]
    for side in Side:
        mine = tuple(b for b in back if side_of(b) is side)
        if mine:
            events.append(ev.BlocksPlaced(side=side, zone=BAG, blocks=mine, random=False))
    for zone, blocks in placements.items():
        for side in Side:
            mine = tuple(b for b in blocks if side_of(b) is side)
            if mine:
                events.append(ev.BlocksPlaced(side=side, zone=zone, blocks=mine, random=False))
    for side in Side:
        if hands > 5:
            events.append(ev.CardsDrawn(side=side, count=hands - 5, rule="test"))
        elif hands < 5:
            events.append(ev.CardsDiscarded(side=side, count=5 - hands, rule="test"))
    events.append(ev.FirstPlayerChosen(side=active, first=first or active))
    events.append(ev.PhaseBegan(phase=phase, week=week, turn=turn, active=active))
    events += list(extra)
    game = new_game(events)
    if level is not None and phase is Phase.MOVEMENT:
        ok(game, cm.BuyMovement(side=active, level=level))
    return game


def ok(game: SekigaharaGame, command: cm.Command) -> tuple[ev.Event, ...]:
    result = game.submit(command)
    assert isinstance(result, Accepted), f"{command} rejected: {result}"
    return result.events


def rejected(game: SekigaharaGame, command: cm.Command, rule: str) -> Rejection:
    before = game.events
    result = game.submit(command)
    assert isinstance(result, Rejection), f"{command} was accepted"
    assert result.rule == rule, f"rule {result.rule} ({result.message}), expected {rule}"
    assert game.events == before
    return result


def of_type(events: Iterable[ev.Event], kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if isinstance(e, kind)]


def card(block: str, kind: CardKind = CardKind.PLAIN) -> cm.CardPlay:
    face = FACES[block]
    clan = face.clan
    if face.is_wildcard:
        clan = Clan.UKITA if face.side is Side.ISHIDA else Clan.TOKUGAWA
    return cm.CardPlay(clan=clan, kind=kind)


def deploy(game: SekigaharaGame, side: Side, *blocks: str, cardless: bool = False) -> None:
    for block in blocks:
        ok(game, cm.Deploy(side=side, card=None if cardless else card(block), blocks=(block,)))


def finish_and_lose(game: SekigaharaGame, prefer: Iterable[str] = ()) -> None:
    """Both sides finish; losses are taken preferring the ``prefer`` blocks."""
    wanted = set(prefer)
    while game.state.pending is not None and game.state.pending.combat is not None:
        actions = combat.legal_actions(game.state.pending.combat)
        loses = [a for a in actions if isinstance(a, combat.Lose)]
        if loses:
            best = max(loses, key=lambda a: len(wanted & set(a.losses)))
            ok(game, cm.TakeLosses(side=best.side, losses=best.losses))
            continue
        finish = next(a for a in actions if isinstance(a, combat.Finish))
        ok(game, cm.Finish(side=finish.side))
