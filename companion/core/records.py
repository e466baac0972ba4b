"""Stored games, re-adjudicated: the game-neutral half of every game's ``records`` module.

A stored game (:mod:`companion.core.store`) holds every accepted command with its events.
Nothing trusts the recorded events: :func:`readjudicate` runs every stored command through the
game's rules again from the start and requires the very events that were recorded, so a log
with a teleported piece, a flipped winner or a damaged line is refused naming its entry (and
never raises a raw ``AssertionError``/``KeyError``). :func:`check` verifies the hash chain
first. A game supplies its rules and the type adapter that reads its commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from companion.core.chain import ChainBreak, check_chain, entry_hash
from companion.core.game import GameRules, judge_of
from companion.core.rules import RuleViolation
from companion.core.store import Entry, GameLog

S = TypeVar("S")


class LogRefused(Exception):
    """A stored game that does not hold: ``entry`` is the first entry at fault (0: the
    header), ``reason`` says why (referee-level: it may name pieces), ``rule`` the rule that
    refused a command, if any."""

    def __init__(self, entry: int, reason: str, rule: str | None = None) -> None:
        super().__init__(f"entry {entry}: {reason}" if entry else reason)
        self.entry = entry
        self.reason = reason
        self.rule = rule

    def public(self) -> str:
        """For the shared screen: the entry and the rule, no hidden detail."""
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"the saved game does not hold at entry {self.entry}{rule}"


@dataclass
class Rebuilt(Generic[S]):
    """A game rebuilt by re-adjudication: its state, events and commands replayed."""

    state: S
    events: list[Any] = field(default_factory=list)
    commands: int = 0


def readjudicate(rules: GameRules[S, Any, Any], commands: TypeAdapter[Any],
                 entries: Iterable[Entry], *, upto: int | None = None) -> Rebuilt[S]:
    """Run every stored command (entries 1..``upto``) through ``rules`` from the start and
    require the recorded events; raise :class:`LogRefused` at the first entry that differs.
    Corrections are skipped (they never change the game)."""
    rebuilt = Rebuilt(rules.initial_state())
    for entry in entries:
        if upto is not None and entry.seq > upto:
            break
        if entry.kind == "correction":
            continue
        if entry.kind != "command":
            raise LogRefused(entry.seq, f"unknown kind of entry {entry.kind!r}")
        step(rules, commands, rebuilt, entry)
    return rebuilt


def step(rules: GameRules[S, Any, Any], commands: TypeAdapter[Any], rebuilt: Rebuilt[S],
         entry: Entry) -> list[Any]:
    """Re-adjudicate one command entry onto ``rebuilt``; return the events it produced."""
    n = entry.seq
    raw = entry.data.get("command") if isinstance(entry.data, dict) else None
    recorded = entry.data.get("events") if isinstance(entry.data, dict) else None
    if not isinstance(raw, dict) or not isinstance(recorded, list):
        raise LogRefused(n, "the entry holds no command and events")
    try:
        command = commands.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise LogRefused(n, f"not a valid command: {where}: {first['msg']}") from None
    try:
        produced, after = judge_of(rules)(rebuilt.state, command, None)
    except RuleViolation as exc:
        raise LogRefused(n, f"the rules refuse this {command.type}: {exc}", exc.rule) from None
    except Exception as exc:  # a state no legal game reaches; never a raw traceback
        raise LogRefused(n, f"the rules cannot judge this {command.type} "
                            f"({type(exc).__name__}: {exc})") from None
    given = [event.model_dump(mode="json") for event in produced]
    if given != recorded:
        raise LogRefused(n, _difference(command.type, recorded, given))
    rebuilt.state = after
    rebuilt.events.extend(produced)
    rebuilt.commands += 1
    return produced


def _difference(what: str, recorded: list[Any], given: list[dict[str, Any]]) -> str:
    for k, (r, g) in enumerate(zip(recorded, given, strict=False), start=1):
        if r != g:
            keys = sorted(set(r) | set(g)) if isinstance(r, dict) else []
            fields = [key for key in keys if r.get(key) != g.get(key)]
            detail = ", ".join(f"{key} recorded {r.get(key)!r}, rules give {g.get(key)!r}"
                               for key in fields[:3])
            return f"this {what} was ruled differently: event {k} ({g.get('type')}): {detail}"
    if len(recorded) > len(given):
        extra = recorded[len(given)]
        kind = extra.get("type") if isinstance(extra, dict) else extra
        return (f"this {what} was ruled differently: {len(recorded)} events recorded, the rules "
                f"give {len(given)} (an extra {kind!r})")
    return (f"this {what} was ruled differently: {len(recorded)} events recorded, the rules "
            f"give {len(given)} (missing {given[len(recorded)].get('type')!r})")


def check(log: GameLog, game: str, title: str, rules: GameRules[S, Any, Any],
          commands: TypeAdapter[Any], *, count: int | None = None,
          head: str | None = None) -> Rebuilt[S]:
    """The hash chain, then that the log is a game of ``game`` (``title`` is its name for
    players), then re-adjudication; LogRefused at the first entry at fault."""
    header_hash = entry_hash("", log.header)
    if header_hash != log.header_hash:
        raise LogRefused(0, "the game's header was edited: its hash does not match")
    broken: ChainBreak | None = check_chain(header_hash, log.entries, count=count, head=head)
    if broken is not None:
        raise LogRefused(broken.entry, broken.reason)
    if log.header.get("game") != game:
        raise LogRefused(0, f"not a game of {title} ({log.header.get('game')!r})")
    return readjudicate(rules, commands, log.entries)
