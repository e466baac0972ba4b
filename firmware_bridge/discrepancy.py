"""Reconciling what the readers see with what the rules expect.

The game engine is not imported here: it offers the :class:`MoveRules` interface, which the
engine satisfies structurally. :func:`reconcile` compares the tracked placements with the
engine's expected positions. A difference the rules allow (``explain_move`` returns None) is a
:class:`ProposedMove` for the engine to adopt; any other difference is a :class:`Discrepancy`
with a specific fix and the zones whose LEDs should blink. Nothing is silently accepted or
dropped; players override with an explicit, logged correction (:mod:`firmware_bridge.corrections`).

Player-facing text (``text``, ``fix``) never names a block: it says "a gold block", "two black
blocks", never a clan or a strength. ``block_ids`` is for the engine and the log only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import BlockSet, Side, default_blocks
from firmware_bridge.observation import BoardView
from firmware_bridge.protocol import LedMode
from firmware_bridge.registry import TagRegistry
from firmware_bridge.tracking import Tracker
from firmware_bridge.zones import is_bag, side_colour, zone_name


@runtime_checkable
class MoveRules(Protocol):
    """What the bridge needs from the game engine (which it must not import).

    ``expected_positions`` maps every block id in play to the zone the rules say it is on:
    a board location id, a box id (``mori_box``, ``ishida_recruitment``...) or an off-map zone
    of :mod:`firmware_bridge.zones`. ``explain_move`` returns None if moving ``block_ids`` from
    ``origin`` to ``destination`` is legal now, else a RuleViolation citing the rule; its message
    is shown to players and so must not reveal a hidden block's identity.
    """

    def expected_positions(self) -> Mapping[str, str]: ...

    def explain_move(
        self, origin: str, destination: str, block_ids: Sequence[str]
    ) -> RuleViolation | None: ...


@dataclass(frozen=True)
class ProposedMove:
    """A difference the rules allow: the engine may apply it."""

    origin: str
    destination: str
    block_ids: tuple[str, ...]


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


def count_blocks(sides: Iterable[Side]) -> str:
    """``[ISHIDA, ISHIDA, TOKUGAWA]`` -> ``"two gold blocks and a black block"``."""
    counts = Counter(sides)
    phrases = []
    for side in (Side.ISHIDA, Side.TOKUGAWA):
        n = counts.get(side, 0)
        if n:
            number = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
            phrases.append(f"{number} {side_colour(side)} block{'s' if n > 1 else ''}")
    return " and ".join(phrases) or "no blocks"


def _it(n: int) -> str:
    return "it" if n == 1 else "them"


def reconcile(
    rules: MoveRules,
    tracker: Tracker,
    view: BoardView,
    registry: TagRegistry,
    dismissed: Iterable[str] = (),
    blocks: BlockSet | None = None,
) -> Reconciliation:
    """Compare the table with the rules; see the module docstring."""
    side_of = {b.id: b.side for b in (blocks or default_blocks()).blocks}
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
        elif zone not in view.unobserved and not is_bag(zone):  # no antenna in a bag
            missing.setdefault(zone, []).append(block)
    legal: list[ProposedMove] = []
    for (origin, destination), ids in sorted(moved.items()):
        verdict = rules.explain_move(origin, destination, tuple(sorted(ids)))
        if verdict is None:
            legal.append(ProposedMove(origin, destination, tuple(sorted(ids))))
            continue
        what = count_blocks(side_of[b] for b in ids)
        found.append(Discrepancy(
            "illegal_move",
            f"{what} moved from {zone_name(origin)} to {zone_name(destination)}: "
            f"{verdict.message} (rule {verdict.rule})",
            f"put {_it(len(ids))} back {'in' if is_bag(origin) else 'on'} {zone_name(origin)}",
            (origin, destination), verdict.rule, tuple(sorted(ids)),
        ))
    for zone, ids in sorted(missing.items()):
        what = count_blocks(side_of[b] for b in ids)
        found.append(Discrepancy(
            "missing", f"{what} missing from {zone_name(zone)}",
            f"put {_it(len(ids))} back on {zone_name(zone)}", (zone,), None, tuple(sorted(ids)),
        ))
    found.extend(_unexpected(tracker, expected, side_of))
    found.extend(_reader_trouble(view, registry, side_of))
    hidden = set(dismissed)
    return Reconciliation(tuple(legal), tuple(d for d in found if d.key not in hidden))


def _unexpected(
    tracker: Tracker, expected: Mapping[str, str], side_of: Mapping[str, Side]
) -> list[Discrepancy]:
    extra: dict[str, list[str]] = {}
    for block, zone in tracker.placements.items():
        if block not in expected:
            extra.setdefault(zone, []).append(block)
    return [
        Discrepancy(
            "unexpected",
            f"{count_blocks(side_of[b] for b in ids)} on {zone_name(zone)} not in play",
            f"take {_it(len(ids))} off {zone_name(zone)}", (zone,), None, tuple(sorted(ids)),
        )
        for zone, ids in sorted(extra.items())
    ]


def _reader_trouble(
    view: BoardView, registry: TagRegistry, side_of: Mapping[str, Side]
) -> list[Discrepancy]:
    found: list[Discrepancy] = []
    unknown: Counter[str] = Counter(z for u, z in view.where.items() if u not in registry.tags)
    for zone, n in sorted(unknown.items()):
        tags = "an unregistered tag" if n == 1 else f"{n} unregistered tags"
        found.append(Discrepancy(
            "unknown_tag", f"{tags} on {zone_name(zone)}",
            f"take {_it(n)} off {zone_name(zone)}, or register {_it(n)} "
            "(companion hardware register-tags)", (zone,),
        ))
    for uid, zones in sorted(view.ambiguous.items()):
        block = registry.tags.get(uid)
        what = count_blocks([side_of[block]]) if block else "an unregistered tag"
        names = " and ".join(zone_name(z) for z in zones)
        found.append(Discrepancy(
            "ambiguous", f"{what} sits between {names}",
            "set it squarely on one of them", zones, None, (block,) if block else (),
        ))
    for zone in sorted(view.unobserved):
        found.append(Discrepancy(
            "unobserved", f"the reader under {zone_name(zone)} is not reporting",
            "check its hub's cable (companion hardware check); the last known blocks there "
            "are kept", (zone,),
        ))
    for key, uids in sorted(view.unmapped.items()):
        found.append(Discrepancy(
            "unmapped", f"antenna {key} sees {len(uids)} tag(s) but is not in the wiring map",
            "add it to the wiring map (companion hardware wiring)",
        ))
    return found
