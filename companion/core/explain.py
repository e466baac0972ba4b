"""Why a stored entry was ruled as it was, and the game after entry N: the game-neutral half of
the referee's ``explain`` and ``replay`` (docs/referee.md).

:func:`explain_entry` re-adjudicates entries 1..N-1, then judges entry N again, and reports the
rules that govern its command and the rulings the game draws from its events (each game says
its own: Sekigahara adds the combat arithmetic). :func:`view_at` rebuilds the game after entry
N and shows it in one of the game's views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import TypeAdapter

from companion.core.game import GameRules
from companion.core.records import UNDO, LogRefused, UndoPolicy, readjudicate, step
from companion.core.store import Entry, GameLog

S = TypeVar("S")
Ruling = dict[str, Any]
"""``{"rule": "8.7" or None, "text": ...}``."""


def view_at(log: GameLog, at: int, view: str, rules: GameRules[S, Any, Any],
            commands: TypeAdapter[Any], undo: UndoPolicy | None,
            show: Callable[[S, str], dict[str, Any]]) -> dict[str, Any]:
    """The game after entry ``at`` (0: before the first), as ``show`` gives the asked view."""
    if at < 0 or at > len(log.entries):
        raise LogRefused(at, f"there is no entry {at}: the game has {len(log.entries)} entries")
    state = readjudicate(rules, commands, log.entries, upto=at, undo=undo).state
    return {"entry": at, "view": view, "state": show(state, view)}


def explain_entry(log: GameLog, n: int, rules: GameRules[S, Any, Any],
                  commands: TypeAdapter[Any], undo: UndoPolicy | None,
                  command_rules: Mapping[str, str],
                  rulings: Callable[[S, list[Any]], list[Ruling]]) -> dict[str, Any]:
    """Why entry ``n`` was ruled as it was: its command, the rules that judge it
    (``command_rules`` by command type), the verdict and ``rulings(state_before, events)``."""
    entry = next((e for e in log.entries if e.seq == n), None)
    if entry is None:
        raise LogRefused(n, f"there is no entry {n}: the game has {len(log.entries)} entries")
    out: dict[str, Any] = {"entry": n, "kind": entry.kind, "at": entry.at}
    if entry.kind == "correction":
        return out | correction(entry)
    rebuilt = readjudicate(rules, commands, log.entries, upto=n - 1, undo=undo)
    command = entry.data.get("command", {})
    out["command"] = command
    out["rules"] = command_rules.get(str(command.get("type")), "")
    before = rebuilt.state
    try:
        produced = step(rules, commands, rebuilt, entry)
    except LogRefused as refused:
        out["verdict"] = "refused"
        out["reason"] = refused.reason
        out["rulings"] = [{"rule": refused.rule, "text": refused.reason}]
        return out
    out["verdict"] = "ruled as recorded"
    out["events"] = [e.model_dump(mode="json") for e in produced]
    out["rulings"] = rulings(before, produced)
    undone = next((e.seq for e in log.entries if e.kind == "correction"
                   and e.data.get("action") == UNDO
                   and (e.data.get("detail") or {}).get("entry") == n), None)
    if undone is not None:
        out["undone_by"] = undone
        out["rulings"].append({"rule": None, "text": f"undone by entry {undone}: the game "
                               "goes on without this command"})
    return out


def correction(entry: Entry) -> dict[str, Any]:
    """What a correction entry did (an undo takes back a command; others change only what
    the table session believes)."""
    data = entry.data
    text = ("a correction by the players or the referee: it changes what the table "
            "session believes, not the game")
    if data.get("action") == UNDO:
        target = (data.get("detail") or {}).get("entry")
        text = (f"an undo: entry {target} is taken back (the last command standing, one "
                "the rules let the players undo); the game is rebuilt without it and "
                "every later command is judged on that game")
    return {"action": data.get("action"), "by": data.get("by"), "note": data.get("note"),
            "detail": data.get("detail"), "rulings": [{"rule": None, "text": text}]}


def cited(event: Any) -> str | None:
    """The rule an event names itself (its ``rule`` or ``reason``), if any."""
    for name in ("rule", "reason"):
        value = getattr(event, name, None)
        if isinstance(value, str):
            return value
    return None


def describe(event: Any) -> str:
    """An event in one line: its type and fields."""
    fields = event.model_dump(mode="json", exclude={"type"})
    return f"{event.type}: " + ", ".join(f"{k}={v}" for k, v in fields.items())


def explain_text(out: Mapping[str, Any]) -> str:
    """A readable page of :func:`explain_entry`'s result."""
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
