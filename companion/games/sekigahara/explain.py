"""Why a stored entry was ruled as it was, and how the game stood after it (for the referee).

:func:`explain_entry` re-adjudicates entries 1..N-1, then judges entry N again and reports the
rules that govern its command, each event with the rule it cites, and for combat actions the
combat rules' own rulings with their arithmetic (Impact = mon + same clan + attack, 8.3-8.4;
losses 8.7; replenishment 8.10). :func:`view_at` is the game after entry N in one of the
four views (public, one side's, the referee's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.records import UNDO
from companion.core.store import GameLog
from companion.games.sekigahara.combat import combat_result
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.game import SekigaharaRules
from companion.games.sekigahara.engine.queries import explain_stack_move
from companion.games.sekigahara.engine.state import State
from companion.games.sekigahara.engine.views import public_view, referee_view, side_view
from companion.games.sekigahara.movement.distance import allowance_breakdown, movement_allowance
from companion.games.sekigahara.records import LogRefused, readjudicate, step

VIEWS = ("public", "tokugawa", "ishida", "referee")

COMMAND_RULES: dict[str, str] = {
    "start_game": "5.1, 5.2.1",
    "draw_blocks": "5.2.2, 5.2.3, 6.2",
    "bid": "6.3, C11",
    "choose_first": "6.3",
    "buy_movement": "7.1",
    "muster": "7.1, 7.2",
    "bring_mori": "9.3",
    "move_stack": "7.3, 7.4, 8.9.6, 4.2",
    "end_phase": "6.4, 8.1",
    "declare_combat": "8.1, 8.9.2",
    "choose_inside": "8.9.2",
    "deploy": "8.2-8.4, 8.6",
    "challenge": "8.6",
    "finish": "8.5, 8.9.4",
    "take_losses": "8.7",
    "retreat": "8.8.1-8.8.5",
}
"""The rules that judge each command (docs/engine.md, Commands)."""


def view_at(log: GameLog, at: int, view: str) -> dict[str, Any]:
    """The game after entry ``at`` (0: before the first), as the JSON of the asked view."""
    if at < 0 or at > len(log.entries):
        raise LogRefused(at, f"there is no entry {at}: the game has {len(log.entries)} entries")
    state = readjudicate(log.entries, upto=at).state
    return {"entry": at, "view": view, "state": _view(state, view)}


def _view(state: State, view: str) -> dict[str, Any]:
    if view == "public":
        return public_view(state).payload.model_dump(mode="json")
    if view == "referee":
        return referee_view(state).payload.model_dump(mode="json")
    return side_view(state, Side(view)).payload.model_dump(mode="json")


def view_text(shown: dict[str, Any]) -> str:
    """A readable page of :func:`view_at`'s result."""
    state = shown["state"]
    public = state.get("public", state)
    lines = [
        f"after entry {shown['entry']} ({shown['view']} view): week {public['week']}, "
        f"turn {public['turn']}, phase {public['phase']}, first {public['first']}, "
        f"active {public['active']}",
    ]
    if public.get("winner") is not None:
        lines.append(f"winner: {public['winner']} score {public.get('score')}")
    lines.append("cards in hand: " + _pairs(public["hand"]) + "; draw piles: "
                 + _pairs(public["draw_pile"]))
    lines.append("locations (ishida/tokugawa blocks):")
    for name, stack in sorted(public["locations"].items()):
        if stack["ishida"] or stack["tokugawa"]:
            lines.append(f"  {name}: {stack['ishida']}/{stack['tokugawa']}")
    blocks: dict[str, str] = state.get("positions") or state.get("blocks") or {}
    if blocks:
        lines.append("blocks:")
        by_zone: dict[str, list[str]] = {}
        for block, zone in sorted(blocks.items()):
            by_zone.setdefault(zone, []).append(block)
        lines += [f"  {zone}: {' '.join(ids)}" for zone, ids in sorted(by_zone.items())]
    if public.get("battle"):
        battle = public["battle"]
        lines.append(f"battle at {battle['location']}: {battle['stage']}, impact "
                     f"{_pairs(battle['impact'])}")
    return "\n".join(lines)


def _pairs(values: Mapping[Any, Any]) -> str:
    return ", ".join(f"{getattr(k, 'value', k)} {v}" for k, v in sorted(values.items()))


def explain_entry(log: GameLog, n: int) -> dict[str, Any]:
    """Why entry ``n`` was ruled as it was (see the module docstring)."""
    entry = next((e for e in log.entries if e.seq == n), None)
    if entry is None:
        raise LogRefused(n, f"there is no entry {n}: the game has {len(log.entries)} entries")
    out: dict[str, Any] = {"entry": n, "kind": entry.kind, "at": entry.at}
    if entry.kind == "correction":
        data = entry.data
        text = ("a correction by the players or the referee: it changes what the table "
                "session believes, not the game")
        if data.get("action") == UNDO:
            target = (data.get("detail") or {}).get("entry")
            text = (f"an undo: entry {target} is taken back (the last command standing, one "
                    "the rules let the players undo); the game is rebuilt without it and "
                    "every later command is judged on that game")
        out.update(action=data.get("action"), by=data.get("by"), note=data.get("note"),
                   detail=data.get("detail"), rulings=[{"rule": None, "text": text}])
        return out
    rebuilt = readjudicate(log.entries, upto=n - 1)
    command = entry.data.get("command", {})
    out["command"] = command
    out["rules"] = COMMAND_RULES.get(str(command.get("type")), "")
    before = rebuilt.state
    try:
        produced = step(SekigaharaRules(), rebuilt, entry)
    except LogRefused as refused:
        out["verdict"] = "refused"
        out["reason"] = refused.reason
        out["rulings"] = [{"rule": refused.rule, "text": refused.reason}]
        return out
    out["verdict"] = "ruled as recorded"
    out["events"] = [e.model_dump(mode="json") for e in produced]
    out["rulings"] = _rulings(before, produced)
    undone = next((e.seq for e in log.entries if e.kind == "correction"
                   and e.data.get("action") == UNDO
                   and (e.data.get("detail") or {}).get("entry") == n), None)
    if undone is not None:
        out["undone_by"] = undone
        out["rulings"].append({"rule": None, "text": f"undone by entry {undone}: the game "
                               "goes on without this command"})
    return out


def _rulings(before: State, produced: list[ev.Event]) -> list[dict[str, Any]]:
    rules = SekigaharaRules()
    state = before
    rulings: list[dict[str, Any]] = []
    for event in produced:
        combat_before = state.pending.combat if state.pending is not None else None
        if isinstance(event, ev.CombatEnded) and combat_before is not None:
            result = combat_result(combat_before)
            rulings.append({"rule": "8.7", "text": (
                f"{event.location}: impact {_pairs(result.impact)}, {result.winner} wins; "
                f"losses due {_pairs(result.losses)}; cards drawn {_pairs(result.cards_drawn)}")})
        state = rules.apply(state, event)
        combat_after = state.pending.combat if state.pending is not None else None
        if isinstance(event, ev.CombatActed) and combat_after is not None:
            seen = len(combat_before.log) if combat_before is not None else 0
            rulings += [{"rule": c.rule, "text": c.text()} for c in combat_after.log[seen:]]
        elif not isinstance(event, ev.CombatActed | ev.CombatEnded):
            rulings.append({"rule": _cited(event), "text": _describe(event)})
            if isinstance(event, ev.StackMoved):
                rulings += _movement(before, event)
    return rulings


def _movement(before: State, moved: ev.StackMoved) -> list[dict[str, Any]]:
    """7.3: for each destination, the route taken against the group's allowance, as the
    movement rules reckon it (``queries.explain_stack_move`` on the state before the move)."""
    by_path: dict[tuple[str, ...], list[str]] = {}
    for block, path in moved.paths.items():
        by_path.setdefault(tuple(path), []).append(block)
    out = []
    for path, blocks in sorted(by_path.items()):
        found = explain_stack_move(before, moved.side, moved.origin, path[-1], tuple(blocks))
        route = next((r for r in found.routes if r.path == path), None)
        if route is None:
            continue
        march = route.needs_force_march
        parts = {"leadership": moved.leadership, "highway": route.all_highway,
                 "force_march": march}
        allowance = movement_allowance(len(blocks), **parts)
        out.append({"rule": "7.3.3" if march else "7.3", "text": (
            f"{len(blocks)} block(s) {moved.origin} -> {' -> '.join(path)}: "
            f"{route.allowance_used} location(s) moved, allowance {allowance} "
            f"({allowance_breakdown(len(blocks), **parts)})")})
    return out


def _cited(event: ev.Event) -> str | None:
    for name in ("rule", "reason"):
        value = getattr(event, name, None)
        if isinstance(value, str):
            return value
    return None


def _describe(event: ev.Event) -> str:
    fields = event.model_dump(mode="json", exclude={"type"})
    return f"{event.type}: " + ", ".join(f"{k}={v}" for k, v in fields.items())


def explain_text(out: dict[str, Any]) -> str:
    lines = [f"entry {out['entry']} ({out['kind']}, {out['at']})"]
    if out["kind"] == "correction":
        lines.append(f"{out['action']} by {out['by']}: {out['note']}")
        if out.get("detail"):
            lines.append(f"detail: {out['detail']}")
        lines += [f"  {ruling['text']}" for ruling in out.get("rulings", [])]
        return "\n".join(lines)
    lines.append(f"command: {out['command']}")
    lines.append(f"judged under rules {out['rules']}: {out['verdict']}")
    for ruling in out["rulings"]:
        rule = f"[{ruling['rule']}] " if ruling["rule"] else ""
        lines.append(f"  {rule}{ruling['text']}")
    return "\n".join(lines)

