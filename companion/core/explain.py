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
Said = Callable[[S, Mapping[str, Any]], str]
"""A game's command in plain words, read on the game as it stood before it (the referee's
words: hidden identities may be named)."""

UPHELD = "upheld"
"""The verdict on a command the rules judge again exactly as it was recorded."""


class NoEntry(LogRefused):
    """The asked entry is not in the game (a wrong N, not a game that does not hold)."""


def entry_of(log: GameLog, n: int) -> Entry:
    """Entry ``n`` as the store numbers it (``seq``: 1 is the first entry after the header),
    the one numbering every referee tool uses; NoEntry if there is none."""
    entry = next((e for e in log.entries if e.seq == n), None)
    if entry is None:
        last = log.entries[-1].seq if log.entries else 0
        has = f"'s entries are numbered 1 to {last}" if last else " has no entry yet"
        raise NoEntry(n, f"there is no entry {n}: the game{has}")
    return entry


def what_of(entry: Entry, undo: UndoPolicy | None) -> str:
    """What an entry was, in the public words the Undo button uses ("Ishida's bid"): never a
    card or block, so every view may show it."""
    data = entry.data if isinstance(entry.data, dict) else {}
    if entry.kind == "correction":
        return f"a correction ({str(data.get('action', '')).replace('_', ' ')})"
    command, events = data.get("command"), data.get("events")
    if not isinstance(command, dict) or "type" not in command:
        return "an entry with no command"
    if undo is not None and isinstance(events, list):
        try:
            said = undo(command, events).what
        except Exception:  # an entry the rules will refuse may not read in words
            said = ""
        if said:
            return said
    return str(command.get("type", "a command")).replace("_", " ")


def view_name(view: str) -> str:
    """A view as ``replay`` names it: "public view", "referee view", "Tokugawa's view"."""
    return f"{view} view" if view in ("public", "referee") else f"{view.capitalize()}'s view"


def view_at(log: GameLog, at: int, view: str, rules: GameRules[S, Any, Any],
            commands: TypeAdapter[Any], undo: UndoPolicy | None,
            show: Callable[[S, str], dict[str, Any]]) -> dict[str, Any]:
    """The game after entry ``at`` (0: before the first), as ``show`` gives the asked view;
    ``what`` names entry ``at`` as :func:`explain_entry` does."""
    what = "the start, before the first entry" if at == 0 else what_of(entry_of(log, at), undo)
    state = readjudicate(rules, commands, log.entries, upto=at, undo=undo).state
    return {"entry": at, "what": what, "entries": len(log.entries), "view": view,
            "state": show(state, view)}


def explain_entry(log: GameLog, n: int, rules: GameRules[S, Any, Any],
                  commands: TypeAdapter[Any], undo: UndoPolicy | None,
                  command_rules: Mapping[str, str],
                  rulings: Callable[[S, list[Any]], list[Ruling]],
                  said: Said[S] | None = None) -> dict[str, Any]:
    """Why entry ``n`` was ruled as it was: what it was (``what``, as ``replay --at n`` names
    it), its command in words (``said``), the rules that judge it (``command_rules`` by command
    type), the verdict and ``rulings(state_before, events)``."""
    entry = entry_of(log, n)
    out: dict[str, Any] = {"entry": n, "kind": entry.kind, "at": entry.at,
                           "what": what_of(entry, undo)}
    if entry.kind == "correction":
        return out | correction(entry)
    rebuilt = readjudicate(rules, commands, log.entries, upto=n - 1, undo=undo)
    stored = entry.data.get("command") if isinstance(entry.data, dict) else None
    command = stored if isinstance(stored, dict) else {}
    out["command"] = command
    out["rules"] = command_rules.get(str(command.get("type")), "")
    before = rebuilt.state
    out["said"] = (str(command["type"]).replace("_", " ") if "type" in command
                   else "an entry with no command")
    try:
        commands.validate_python(command)
        if said is not None:
            out["said"] = said(before, command)
    except Exception:  # a command the rules will refuse below may not read in words
        pass
    try:
        produced = step(rules, commands, rebuilt, entry)
    except LogRefused as refused:
        out["verdict"] = "refused"
        out["reason"] = refused.reason
        out["rulings"] = [{"rule": refused.rule, "text": refused.reason}]
        return out
    out["verdict"] = UPHELD
    out["events"] = [e.model_dump(mode="json") for e in produced]
    out["rulings"] = rulings(before, produced)
    undone = next((e.seq for e in log.entries if _undoes(e) == n), None)
    if undone is not None:
        out["undone_by"] = undone
        out["rulings"].append({"rule": None, "text": f"undone by entry {undone}: the game "
                               "goes on without this command"})
    return out


def _undoes(entry: Entry) -> Any:
    """The entry an undo correction names, None for any other entry."""
    data = entry.data if isinstance(entry.data, dict) else {}
    detail = data.get("detail")
    if entry.kind != "correction" or data.get("action") != UNDO or not isinstance(detail, dict):
        return None
    return detail.get("entry")


def correction(entry: Entry) -> dict[str, Any]:
    """What a correction entry did (an undo takes back a command; others change only what
    the table session believes)."""
    data = entry.data if isinstance(entry.data, dict) else {}
    text = ("a correction by the players or the referee: it changes what the table "
            "session believes, not the game")
    if data.get("action") == UNDO:
        target = _undoes(entry)
        text = (f"an undo: entry {target} is taken back (the last command standing, one "
                "the rules let the players undo); the game is rebuilt without it and "
                "every later command is judged on that game")
    return {"action": data.get("action"), "by": data.get("by"), "note": data.get("note"),
            "detail": data.get("detail"), "rulings": [{"rule": None, "text": text}]}


def _plain(value: Any) -> str:
    """A correction's detail in words: ``key value`` pairs, lists joined."""
    if isinstance(value, Mapping):
        return "; ".join(f"{str(k).replace('_', ' ')} {_plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "none"
    return str(value)


def explain_text(out: Mapping[str, Any]) -> str:
    """A readable page of :func:`explain_entry`'s result."""
    lines = [f"entry {out['entry']}: {out['what']} ({out['kind']}, {out['at']})"]
    if out["kind"] == "correction":
        lines.append(f"{str(out['action']).replace('_', ' ')} by {out['by']}: {out['note']}")
        if out.get("detail"):
            lines.append(f"detail: {_plain(out['detail'])}")
        lines += [f"  {ruling['text']}" for ruling in out.get("rulings", [])]
        return "\n".join(lines)
    lines.append(out["said"])
    verdict = ("upheld: the rules give back exactly the recorded events"
               if out["verdict"] == UPHELD else f"refused: {out.get('reason', '')}")
    under = f"judged under rules {out['rules']}" if out["rules"] else "judged"
    lines.append(f"{under}: {verdict}")
    for ruling in out["rulings"]:
        rule = f"[{ruling['rule']}] " if ruling["rule"] else ""
        lines.append(f"  {rule}{ruling['text']}")
    return "\n".join(lines)
