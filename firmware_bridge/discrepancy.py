"""Reconciling what the readers see with what the rules expect.

No game is imported here: the game being served offers the
:class:`~companion.core.table.MoveRules` interface (:mod:`companion.core.table`), and its
:class:`~companion.core.table.GameTable` names the places and the pieces' sides.
:func:`reconcile` compares the tracked placements with the rules' expected positions. A
difference the rules allow (``explain_move`` returns None) is a :class:`ProposedMove` for the
engine to adopt; any other difference is a :class:`Discrepancy`
with a specific fix and the zones whose LEDs should blink. Nothing is silently accepted or
dropped; players override with an explicit, logged correction (:mod:`firmware_bridge.corrections`).

Player-facing text (``text``, ``fix``) never names a piece: it says "a gold block", "two black
blocks" (a side's colour and the game's word for a piece), never a clan or a strength.
``block_ids`` is for the engine and the log only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.core.table import GameTable, MoveRules, ProposedMove
from firmware_bridge.observation import BoardView
from firmware_bridge.protocol import LedMode
from firmware_bridge.registry import TagRegistry
from firmware_bridge.tracking import Tracker
from firmware_bridge.zones import active_table, is_unwatched, zone_name

__all__ = ["Discrepancy", "MoveRules", "ProposedMove", "Reconciliation", "count_blocks",
           "count_pieces", "reconcile"]


@dataclass(frozen=True)
class Discrepancy:
    """Something on the table the rules do not explain, and how to fix it."""

    kind: str
    """illegal_move, missing, unexpected, unknown_tag, ambiguous, unobserved or unmapped."""
    text: str
    fix: str
    zones: tuple[str, ...] = ()
    rule: str | None = None
    block_ids: tuple[str, ...] = field(default=(), repr=False)

    @property
    def key(self) -> str:
        """Stable identity, used to dismiss it with a correction while it stays the same."""
        return f"{self.kind}:{','.join(sorted(self.block_ids))}:{','.join(self.zones)}"

    def public(self) -> str:
        return f"{self.text} - {self.fix}"


@dataclass(frozen=True)
class Reconciliation:
    legal_moves: tuple[ProposedMove, ...]
    discrepancies: tuple[Discrepancy, ...]

    @property
    def clean(self) -> bool:
        return not self.legal_moves and not self.discrepancies

    def led_modes(self) -> dict[str, LedMode]:
        """Zone -> LED mode: blink every zone a discrepancy concerns."""
        return {z: LedMode.BLINK for d in self.discrepancies for z in d.zones}


_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count_blocks(sides: Iterable[str], table: GameTable | None = None) -> str:
    """Side ids -> ``"two gold blocks and a black block"`` (each side's colour, in the table's
    order of sides, and its word for a piece)."""
    table = table or active_table()
    counts = Counter(str(s) for s in sides)
    phrases = []
    for side, colour in table.sides.items():
        n = counts.get(side, 0)
        if n:
            number = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
            phrases.append(f"{number} {colour} {table.piece_word}{'s' if n > 1 else ''}")
    return " and ".join(phrases) or f"no {table.piece_word}s"


def count_pieces(piece_ids: Iterable[str], table: GameTable | None = None) -> str:
    """``count_blocks`` of these pieces' sides."""
    table = table or active_table()
    side_of = {p.id: p.side for p in table.pieces()}
    return count_blocks((side_of[p] for p in piece_ids), table)


def _it(n: int) -> str:
    return "it" if n == 1 else "them"


def reconcile(
    rules: MoveRules,
    tracker: Tracker,
    view: BoardView,
    registry: TagRegistry,
    dismissed: Iterable[str] = (),
    table: GameTable | None = None,
) -> Reconciliation:
    """Compare the table with the rules; see the module docstring."""
    table = table or active_table()
    side_of = {p.id: p.side for p in table.pieces()}
    expected = rules.expected_positions()
    moved: dict[tuple[str, str], list[str]] = {}
    missing: dict[str, list[str]] = {}
    found: list[Discrepancy] = []
    for block, zone in expected.items():
        seen = tracker.placements.get(block)
        if seen == zone or block in tracker.ambiguous or block in tracker.in_hand:
            continue
        if seen is not None:
            moved.setdefault((zone, seen), []).append(block)
        elif zone not in view.unobserved and not is_unwatched(zone, table):  # e.g. a bag
            missing.setdefault(zone, []).append(block)
    legal: list[ProposedMove] = []
    for (origin, destination), ids in sorted(moved.items()):
        verdict = rules.explain_move(origin, destination, tuple(sorted(ids)))
        if verdict is None:
            legal.append(ProposedMove(origin, destination, tuple(sorted(ids))))
            continue
        what = count_blocks((side_of[b] for b in ids), table)
        found.append(Discrepancy(
            "illegal_move",
            f"{what} moved from {zone_name(origin, table)} to {zone_name(destination, table)}: "
            f"{verdict.message} (rule {verdict.rule})",
            f"put {_it(len(ids))} back {'in' if is_unwatched(origin, table) else 'on'} "
            f"{zone_name(origin, table)}",
            (origin, destination), verdict.rule, tuple(sorted(ids)),
        ))
    for zone, ids in sorted(missing.items()):
        what = count_blocks((side_of[b] for b in ids), table)
        found.append(Discrepancy(
            "missing", f"{what} missing from {zone_name(zone, table)}",
            f"put {_it(len(ids))} back on {zone_name(zone, table)}", (zone,), None,
            tuple(sorted(ids)),
        ))
    found.extend(_unexpected(tracker, expected, side_of, table))
    found.extend(_reader_trouble(view, registry, side_of, table))
    hidden = set(dismissed)
    return Reconciliation(tuple(legal), tuple(d for d in found if d.key not in hidden))


def _unexpected(
    tracker: Tracker, expected: Mapping[str, str], side_of: Mapping[str, str], table: GameTable
) -> list[Discrepancy]:
    extra: dict[str, list[str]] = {}
    for block, zone in tracker.placements.items():
        if block not in expected:
            extra.setdefault(zone, []).append(block)
    return [
        Discrepancy(
            "unexpected",
            f"{count_blocks((side_of[b] for b in ids), table)} on {zone_name(zone, table)} "
            "not in play",
            f"take {_it(len(ids))} off {zone_name(zone, table)}", (zone,), None, tuple(sorted(ids)),
        )
        for zone, ids in sorted(extra.items())
    ]


def _reader_trouble(
    view: BoardView, registry: TagRegistry, side_of: Mapping[str, str], table: GameTable
) -> list[Discrepancy]:
    found: list[Discrepancy] = []
    unknown: Counter[str] = Counter(z for u, z in view.where.items() if u not in registry.tags)
    for zone, n in sorted(unknown.items()):
        tags = "an unregistered tag" if n == 1 else f"{n} unregistered tags"
        found.append(Discrepancy(
            "unknown_tag", f"{tags} on {zone_name(zone, table)}",
            f"take {_it(n)} off {zone_name(zone, table)}, or register {_it(n)} "
            "(companion hardware register-tags)", (zone,),
        ))
    for uid, zones in sorted(view.ambiguous.items()):
        block = registry.tags.get(uid)
        what = count_blocks([side_of[block]], table) if block else "an unregistered tag"
        names = " and ".join(zone_name(z, table) for z in zones)
        found.append(Discrepancy(
            "ambiguous", f"{what} sits between {names}",
            "set it squarely on one of them", zones, None, (block,) if block else (),
        ))
    for zone in sorted(view.unobserved):
        found.append(Discrepancy(
            "unobserved", f"the reader under {zone_name(zone, table)} is not reporting",
            "check its hub's cable (companion hardware check); the last known blocks there "
            "are kept", (zone,),
        ))
    for key, uids in sorted(view.unmapped.items()):
        found.append(Discrepancy(
            "unmapped", f"antenna {key} sees {len(uids)} tag{'' if len(uids) == 1 else 's'} "
            "but is not in the wiring map",
            "add it to the wiring map (companion hardware wiring)",
        ))
    return found
