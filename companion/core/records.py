"""Stored games, re-adjudicated: the game-neutral half of every game's ``records`` module.

A stored game (:mod:`companion.core.store`) holds every accepted command with its events.
Nothing trusts the recorded events: :func:`readjudicate` runs every stored command through the
game's rules again from the start and requires the very events that were recorded, so a log
with a teleported piece, a flipped winner or a damaged line is refused naming its entry (and
never raises a raw ``AssertionError``/``KeyError``). :func:`check` verifies the hash chain
first. A game supplies its rules and the type adapter that reads its commands.

**Undo.** A mis-tap is undone by a correction, never by editing the record: an ``undo``
correction (:data:`UNDO`, ``detail: {"entry": N}``) names the command entry it takes back, which
must be the last command standing (nothing else was played after it) and one the game allows to
be undone (its :data:`UndoPolicy`, judged on the stored command and events alone). Re-adjudication
re-judges the undone command as it stood, then rebuilds the game without it, so every later
command is judged on the game as it was after the undo. What each game allows is in
docs/referee.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Generic, Protocol, TypeVar

from pydantic import TypeAdapter, ValidationError

from companion.core.chain import ChainBreak, check_chain, entry_hash
from companion.core.game import GameRules, judge_of
from companion.core.inputs import short
from companion.core.rules import RuleViolation
from companion.core.seals import SealPoints
from companion.core.store import CommandRecorder, Entry, GameLog

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


UNDO = "undo"
"""The correction that takes back the last command standing (see the module docstring)."""


@dataclass(frozen=True)
class Undoable:
    """A command the players may take back: ``what`` names it for the shared screen ("Ishida's
    bid": never a hidden identity), ``side`` is who played it."""

    what: str
    side: str | None


@dataclass(frozen=True)
class NotUndoable:
    """Why a command stands: the reason, for the shared screen; ``what`` names the command as
    :class:`Undoable` does."""

    reason: str
    what: str = ""

    def __str__(self) -> str:
        return f"{self.what or 'This'} cannot be undone: {self.reason}"


UndoPolicy = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]]], Undoable | NotUndoable]
"""A game's rule for undo: the stored command and its events -> undoable or why not."""


@dataclass
class Rebuilt(Generic[S]):
    """A game rebuilt by re-adjudication: its state, events and commands replayed (``commands``
    counts the undone ones too: each was re-judged), and the entries undone."""

    state: S
    events: list[Any] = field(default_factory=list)
    commands: int = 0
    undone: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Standing(Generic[S]):
    """A command entry standing in the rebuilt game, with the game as it was before it."""

    entry: Entry
    before: S
    events_before: int


def readjudicate(rules: GameRules[S, Any, Any], commands: TypeAdapter[Any],
                 entries: Iterable[Entry], *, upto: int | None = None,
                 undo: UndoPolicy | None = None) -> Rebuilt[S]:
    """Run every stored command (entries 1..``upto``) through ``rules`` from the start and
    require the recorded events; raise :class:`LogRefused` at the first entry that differs.
    Corrections never change the game, except an undo (:data:`UNDO`), which is checked against
    ``undo`` (the game's policy; without one, no undo holds)."""
    rebuilt = Rebuilt(rules.initial_state())
    standing: list[_Standing[S]] = []
    for entry in entries:
        if upto is not None and entry.seq > upto:
            break
        if entry.kind == "correction":
            if isinstance(entry.data, dict) and entry.data.get("action") == UNDO:
                _take_back(rebuilt, standing, entry, undo)
            continue
        if entry.kind != "command":
            raise LogRefused(entry.seq, f"unknown kind of entry {entry.kind!r}")
        mark = _Standing(entry, rebuilt.state, len(rebuilt.events))
        step(rules, commands, rebuilt, entry)
        standing.append(mark)
    return rebuilt


def _take_back(rebuilt: Rebuilt[S], standing: list[_Standing[S]], entry: Entry,
               undo: UndoPolicy | None) -> None:
    """An undo correction: the game as it was before the last command standing."""
    detail = entry.data.get("detail")
    target = detail.get("entry") if isinstance(detail, dict) else None
    if not isinstance(target, int):
        raise LogRefused(entry.seq, "this undo names no entry")
    if not standing or standing[-1].entry.seq != target:
        last = f"entry {standing[-1].entry.seq}" if standing else "no command"
        raise LogRefused(entry.seq, f"this undo names entry {target}, but the last command "
                                    f"standing is {last}: only the last one can be undone")
    last_entry = standing[-1].entry
    if undo is None:
        raise LogRefused(entry.seq, "this game allows no undo")
    verdict = undo(last_entry.data["command"], last_entry.data["events"])
    if isinstance(verdict, NotUndoable):
        raise LogRefused(entry.seq, f"entry {target} cannot be undone: {verdict.reason}")
    mark = standing.pop()
    rebuilt.state = mark.before
    del rebuilt.events[mark.events_before:]
    rebuilt.undone.append(target)


def undo_entry(entry: Entry | None, undo: UndoPolicy) -> Undoable | NotUndoable | None:
    """What the game's policy says of undoing ``entry`` (the last command standing), or None
    when there is nothing to undo."""
    if entry is None or entry.kind != "command":
        return None
    return undo(entry.data["command"], entry.data["events"])


class UndoRefused(Exception):
    """Nothing was undone; the message says why, fit for the shared screen."""


def take_back(recorder: CommandRecorder, events: Sequence[Any], undo: UndoPolicy
              ) -> tuple[Undoable, list[Any]]:
    """Undo the last command the ``recorder`` stored: the undo correction is stored first (a
    StoreError leaves the game as it was), then the events the game keeps are returned (the
    game's ``events`` without the undone command's). UndoRefused says why not."""
    entry = recorder.last
    verdict = undo_entry(entry, undo)
    if entry is None or verdict is None:
        raise UndoRefused("There is nothing to undo")
    if isinstance(verdict, NotUndoable):
        raise UndoRefused(str(verdict))
    recorded = entry.data["events"]
    kept, tail = list(events[:len(events) - len(recorded)]), events[len(events) - len(recorded):]
    if [e.model_dump(mode="json") for e in tail] != recorded:
        raise UndoRefused("Nothing was undone: the game on the screen differs from its record "
                          "(the referee can verify it)")
    recorder.store.append_correction(recorder.game_id, UNDO, by=verdict.side or "players",
                                     note=f"Undo: {verdict.what}", detail={"entry": entry.seq})
    recorder.last = last_standing(recorder.store.load(recorder.game_id).entries)
    return verdict, kept


def _undone(entries: Sequence[Entry]) -> set[object]:
    """The entries the undo corrections name (read from a record not yet verified: any shape)."""
    named: set[object] = set()
    for e in entries:
        detail = e.data.get("detail")
        if e.kind == "correction" and e.data.get("action") == UNDO and isinstance(detail, dict):
            target = detail.get("entry")
            if isinstance(target, int):
                named.add(target)
    return named


def standing_events(entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """The recorded events of the commands not undone, in order (for a summary: only
    re-adjudication vouches for them)."""
    undone = _undone(entries)
    return [event for e in entries if e.kind == "command" and e.seq not in undone
            and isinstance(e.data.get("events"), list)
            for event in e.data["events"] if isinstance(event, dict)]


def last_standing(entries: Sequence[Entry]) -> Entry | None:
    """The last command entry not undone (what an undo may take back next)."""
    undone = _undone(entries)
    return next((e for e in reversed(entries) if e.kind == "command" and e.seq not in undone),
                None)


def rules_version() -> str:
    """The companion's version: the rules that adjudicated a game (every game's header)."""
    try:
        return version("sekigahara-companion")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


def _invalid(exc: ValidationError) -> str:
    """Why a stored command is not one of the game's, in one short line: pydantic lists every
    tag a union expects, which for a game of 30 commands is longer than a screen."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    context = first.get("ctx") or {}
    if first["type"] == "union_tag_invalid":
        return f"the game has no command of type {short(repr(context.get('tag')))}"
    if first["type"] == "union_tag_not_found":
        return "it names no command type"
    return f"{where}: {short(first['msg'], 120)}" if where else short(first["msg"], 120)


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
        raise LogRefused(n, f"not a valid command: {_invalid(exc)}") from None
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
          head: str | None = None, undo: UndoPolicy | None = None,
          result: Callable[[S], str | None] | None = None) -> Rebuilt[S]:
    """The hash chain, then that the log is a game of ``game`` (``title`` is its name for
    players), then re-adjudication, then (given the game's ``result``) that the stored end
    agrees with the record (:func:`check_end`); LogRefused at the first entry at fault."""
    header_hash = entry_hash("", log.header)
    if header_hash != log.header_hash:
        raise LogRefused(0, "the game's header was edited: its hash does not match")
    broken: ChainBreak | None = check_chain(header_hash, log.entries, count=count, head=head)
    if broken is not None:
        raise LogRefused(broken.entry, broken.reason)
    if log.header.get("game") != game:
        raise LogRefused(0, f"not a game of {title} ({log.header.get('game')!r})")
    rebuilt = readjudicate(rules, commands, log.entries, undo=undo)
    if result is not None:
        check_end(log, result(rebuilt.state))
    return rebuilt


def check_end(log: GameLog, derived: str | None) -> None:
    """The stored ``result`` and ``finished`` are not trusted: they must be what the chained
    entries give. ``derived`` is the result the rules give the re-adjudicated game (None: not
    over); ``finished`` must be the recorded time of the command that ended it (the last one
    standing). A game over but not yet marked finished holds (the table stopped before it
    could mark it). LogRefused naming the ending entry."""
    finished, stored = log.summary.finished, log.summary.result
    end = last_standing(log.entries)
    last = log.entries[-1].seq if log.entries else 0
    if finished is None:
        if stored:
            raise LogRefused(last, f"the stored result says {stored!r}, but the game is not "
                                   "marked finished")
        return
    if derived is None or end is None:
        raise LogRefused(last, f"the game is marked finished ({stored!r}), but its record "
                               "does not end it: the rules say it is still being played")
    if stored != derived:
        raise LogRefused(end.seq, f"the stored result says {stored!r}; the record gives "
                                  f"{derived!r}")
    if finished != end.at:
        raise LogRefused(end.seq, f"the stored end time {finished} is not the time of entry "
                                  f"{end.seq}, which ended the game ({end.at})")


class Checker(Protocol):
    """A game's :func:`check`: its name, rules and commands already bound."""

    def __call__(self, log: GameLog, *, count: int | None = None,
                 head: str | None = None) -> Rebuilt[Any]: ...


@dataclass(frozen=True)
class GameRecords:
    """What the referee tools (``companion referee verify|replay|explain``, ``companion game
    import``) need of a game to check its stored games through its own rules: a game's
    descriptor names one as ``records`` (:mod:`companion.core.descriptor`). A stored game's
    header says its game, whose records are used."""

    game: str
    """The store's name of the game ("tenka-meidou")."""
    views: Sequence[str]
    """The views ``replay --view`` may show ("public", "referee", each side's)."""
    check: Checker
    """The hash chain, then re-adjudication (:func:`check`); LogRefused if it fails."""
    standing: Callable[[GameLog, Rebuilt[Any]], str]
    """How the verified game stands, for ``verify``'s line ("Tokugawa won (...)")."""
    view_at: Callable[[GameLog, int, str], dict[str, Any]]
    """The game after entry ``at`` in ``view``, as JSON (LogRefused before it)."""
    view_text: Callable[[dict[str, Any]], str]
    """A readable page of :attr:`view_at`'s result."""
    explain_entry: Callable[[GameLog, int], dict[str, Any]]
    """Why entry ``n`` was ruled as it was (:func:`companion.core.explain.explain_entry`);
    ``verdict`` is "refused" when the rules refuse it now."""
    seal_points: SealPoints = field(default=lambda _entries: [])
    """The game's checkpoints in a record, where a seal is shown (:mod:`companion.core.seals`):
    none unless the game says."""
