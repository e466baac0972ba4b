"""The table app's composition: the game, the readers (real hubs or the simulator), the bridge and
the table session, and what the screens may see of them.

:class:`TableControl` is the only part of the app that touches the game's state. Screens receive
a :class:`Snapshot`: the engine's :class:`~companion.core.views.PublicView` plus the table
session's public lines (rulings feed, questions, discrepancies), the locations to light, and a
:class:`Prompt` built from the engine's public queries (who is awaited and for what). The referee
screen alone receives a :class:`~companion.core.views.RefereeView`, behind the PIN.
"""

from __future__ import annotations

import logging
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.core.game import Accepted, Rejection
from companion.core.store import CorrectionRecorder
from companion.core.views import PublicView, RefereeView
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.control import castle_owner
from companion.games.sekigahara.engine.data import BOARD, CARDS, side_of
from companion.games.sekigahara.engine.feed import card_words
from companion.games.sekigahara.engine.game import SekigaharaGame, SekigaharaRules, new_game
from companion.games.sekigahara.engine.queries import (
    awaiting,
    declarable,
    must_declare,
    retreat_options,
)
from companion.games.sekigahara.engine.state import BAG, RECRUITMENT, Phase, Stage
from companion.games.sekigahara.engine.table import Question, recruitment_zone, zone_label
from companion.games.sekigahara.engine.views import (
    PublicState,
    RefereeState,
    public_view,
    referee_view,
)
from firmware_bridge.bridge import Bridge
from firmware_bridge.discovery import hub_ports
from firmware_bridge.discrepancy import Discrepancy
from firmware_bridge.registry import TagRegistry
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import LogLine, OpenQuestion, TableSession
from firmware_bridge.wiring import WiringMap

log = logging.getLogger(__name__)

SETUP_DRAWS = (sum(len(loc.setup.random) for loc in BOARD.locations.values())
               + sum(len(box.setup.random) for box in BOARD.boxes.values()))
"""Bag draws of the set-up (5.2.2, 5.2.3): one per side per location or box printed with a
random set-up marker."""


@dataclass(frozen=True)
class QuestionShown:
    """An open question as the shared screen shows it (labels carry no hidden identity)."""

    id: int
    side: Side
    text: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class DiscrepancyShown:
    index: int
    kind: str
    text: str
    fix: str
    zones: tuple[str, ...]
    rule: str | None


@dataclass(frozen=True)
class SetupProgress:
    """The guided set-up (5.2): the step now, how many are done of how many."""

    step: str
    zone: str | None
    done: int
    total: int


@dataclass(frozen=True)
class Prompt:
    """What the engine waits for, from its public queries only."""

    waiting: dict[Side, str]
    declarable: tuple[str, ...] = ()
    must_declare: tuple[str, ...] = ()
    declare_inside: tuple[str, ...] = ()
    """Declarable locations where the declaring side owns the castle and may stay inside
    (8.9.2)."""
    setup: SetupProgress | None = None
    level: str | None = None
    """The movement bought this phase (7.1), once bought."""
    moves_left: int = 0
    retreat_to: tuple[str, ...] = ()
    """Where the loser of the battle may retreat (8.8)."""


@dataclass(frozen=True)
class Snapshot:
    """Everything the shared screen may show at one moment."""

    view: PublicView[PublicState]
    prompt: Prompt
    feed: tuple[LogLine, ...]
    questions: tuple[QuestionShown, ...]
    discrepancies: tuple[DiscrepancyShown, ...]
    lit: frozenset[str]
    in_hand: int
    """Blocks lifted off the table right now (counted, never named)."""
    settling: int
    """Blocks just set down, ruled once they rest (the settle rule)."""
    readers: str
    """One line on the readers: the simulator or the hubs found."""
    unsaved: str | None = None
    """Set while the store refuses to save: nothing was applied, the app retries."""


@dataclass
class Readers:
    """The hubs to read: the built-in simulator or serial ports."""

    simulated: SimulatedTable | None
    ports: list[str]
    wiring: WiringMap
    registry: TagRegistry

    def describe(self) -> str:
        if self.simulated is not None:
            return f"simulated readers ({len(self.ports)} virtual hubs)"
        return f"{len(self.ports)} reader hub(s): {', '.join(self.ports)}"


def open_readers(hubs: Sequence[str], config: Path, workdir: Path, rate_hz: int = 10,
                 seed: int | None = 0) -> Readers:
    """``["auto"]``: real hubs if any is plugged in, else the simulator; ``["sim"]``: the
    simulator; otherwise the serial ports given. Real hubs need the wiring map and tag registry
    made by ``companion hardware wiring`` and ``register-tags`` (in ``config``)."""
    choice = list(hubs) or ["auto"]
    ports: list[str] = []
    if choice == ["auto"]:
        ports = [p.device for p in hub_ports()]
    elif choice != ["sim"]:
        ports = choice
    if not ports:
        table = SimulatedTable.create(workdir / "hubs", hubs=5, rate_hz=rate_hz, seed=seed)
        table.start()
        return Readers(table, table.ports, table.wiring, table.registry)
    for port in ports:
        if not Path(port).exists():
            raise ValueError(f"no serial port {port}")
    wiring_file, tags_file = config / "wiring.yaml", config / "tags.yaml"
    for path, how in ((wiring_file, "hardware wiring"), (tags_file, "hardware register-tags")):
        if not path.exists():
            raise ValueError(f"{path} is missing: run `companion {how}` first")
    return Readers(None, ports, WiringMap.load(wiring_file), TagRegistry.load(tags_file))


@dataclass
class TableControl:
    """The running table: see the module docstring. ``start()`` then ``stop()``."""

    readers: Readers
    game: SekigaharaGame = field(default_factory=new_game)
    debounce_missing_s: float = 10.0
    settle_s: float = 1.0
    """How long set-down blocks rest before they are ruled as moved (the settle rule)."""
    on_change: Callable[[], None] | None = None
    bridge: Bridge = field(init=False)
    session: TableSession = field(init=False)
    _lit: frozenset[str] = field(default=frozenset(), init=False)
    _held: tuple[str, tuple[str, ...]] | None = field(default=None, init=False)
    _retrying: bool = field(default=False, init=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, init=False)

    def start(self) -> TableControl:
        r = self.readers
        self.bridge = Bridge(r.ports, wiring=r.wiring, registry=r.registry,
                             missing_after_s=self.debounce_missing_s, settle_s=self.settle_s)
        self.bridge.start()
        self.session = TableSession(self.bridge, self.game)
        self.bridge.subscribe(lambda _event: self._changed())
        self.session.start()
        return self

    def follow(self, game: SekigaharaGame, records: CorrectionRecorder | None = None) -> None:
        """Follow ``game`` (a new one or one resumed from the store); the old session stops,
        the readers keep running. ``records`` stores corrections with who and why."""
        with self._lock:
            self.session.stop()
            self.game = game
            self.session = TableSession(self.bridge, self.game, records)
            self.session.start()

    def retry_unsaved(self) -> None:
        """While the store refuses to save (8: never silently), try again every second."""
        if self.session.unsaved is None or self._retrying:
            return
        self._retrying = True

        def retry() -> None:
            self._retrying = False
            self.session.refresh()
            if self.on_change is not None:
                self.on_change()
            self.retry_unsaved()

        timer = threading.Timer(1.0, retry)
        timer.daemon = True
        timer.start()

    def stop(self) -> None:
        self.session.stop()
        self.bridge.stop()
        if self.readers.simulated is not None:
            self.readers.simulated.stop()

    def _changed(self) -> None:
        """From a reader thread: light the legal destinations of a lifted stack (7.3)."""
        held = self.bridge.holding()
        origins = set(held.values())
        key = None
        if held and len(origins) == 1:
            key = (next(iter(origins)), tuple(sorted(held)))
        self.retry_unsaved()
        if key != self._held:
            self._held = key
            if key is None:
                self._lit = frozenset()
                self.session.clear_destinations()
            else:
                self._lit = frozenset(self.session.show_destinations(key[0], key[1]))
        if self.on_change is not None:
            self.on_change()

    # ------------------------------------------------------------------ what screens see

    def snapshot(self) -> Snapshot:
        with self._lock:
            state = self.game.state
            view = public_view(state)
            questions = tuple(self._question(q) for q in self.session.questions)
            found = tuple(
                DiscrepancyShown(i, d.kind, d.text, d.fix, d.zones, d.rule)
                for i, d in enumerate(self.session.discrepancies)
            )
            return Snapshot(
                view=view, prompt=self._prompt(), feed=tuple(self.session.log),
                questions=questions, discrepancies=found, lit=self._lit,
                in_hand=len(self.bridge.holding()), settling=len(self.bridge.settling()),
                readers=self.readers.describe(), unsaved=self.session.unsaved,
            )

    def referee(self) -> RefereeView[RefereeState]:
        """Everything: only for the referee screen, behind the PIN."""
        return referee_view(self.game.state)

    @property
    def events(self) -> tuple[ev.Event, ...]:
        return self.game.events

    @staticmethod
    def _question(q: OpenQuestion) -> QuestionShown:
        question = q.question
        assert isinstance(question, Question)  # Sekigahara's session rules ask these
        return QuestionShown(q.id, question.side, question.text,
                             tuple(o.label for o in question.options))

    def _prompt(self) -> Prompt:
        state = self.game.state
        waiting = awaiting(state)
        if state.phase is Phase.SETUP:
            return Prompt(waiting, setup=self._setup())
        if state.phase is Phase.COMBAT and state.pending is None and state.active is not None:
            options = tuple(declarable(state))
            inside = tuple(loc for loc in options if castle_owner(state, loc) is state.active)
            return Prompt(waiting, declarable=options, must_declare=tuple(must_declare(state)),
                          declare_inside=inside)
        if state.phase is Phase.MOVEMENT:
            return Prompt(waiting, level=state.level.value if state.level else None,
                          moves_left=state.moves_left)
        p = state.pending
        if p is not None and p.stage is Stage.RETREAT:
            return Prompt(waiting, retreat_to=tuple(retreat_options(state)[0]))
        return Prompt(waiting)

    def _setup(self) -> SetupProgress:
        """5.2: set-up-symbol blocks first (5.2.1), then the bag draws in order (5.2.2, 5.2.3)."""
        state = self.game.state
        due = list(state.draws_due)
        total = SETUP_DRAWS + 1  # the set-up-symbol step, then each draw
        done = SETUP_DRAWS - len(due)
        missing = [d for d in self.session.discrepancies if d.kind == "missing"]
        if missing:
            return SetupProgress(
                "Stand the blocks with set-up symbols where the map shows their symbol (5.2.1): "
                + "; ".join(d.text for d in missing), missing[0].zones[0] if missing[0].zones
                else None, done, total)
        if not due:
            return SetupProgress("Set-up is complete", None, total, total)
        side, zone, n = due[0]
        table_zone = recruitment_zone(side) if zone == RECRUITMENT else zone
        where = f"the {zone_label(table_zone)}" if zone == RECRUITMENT else zone_label(zone)
        rule = "5.2.3" if zone == RECRUITMENT else "5.2.2"
        return SetupProgress(
            f"Draw {n} {side.value.capitalize()} block{'s' * (n != 1)} from the bag and stand "
            f"{'them' if n != 1 else 'it'} on {where} ({rule})", table_zone, done + 1, total)

    # ------------------------------------------------------------------ touches

    def submit(self, command: cm.Command) -> Accepted[ev.Event] | Rejection:
        """A command tapped on the shared screen, bound to the side its button names (C18)."""
        side = getattr(command, "side", None)
        with self._lock:
            return self.session.submit(command, side.value if side is not None else None)

    def answer(self, question_id: int, choice: int) -> Accepted[ev.Event] | Rejection:
        with self._lock:
            return self.session.answer(question_id, choice)

    def _discrepancy(self, index: int) -> Discrepancy:
        found = self.session.discrepancies
        if not 0 <= index < len(found):
            raise ValueError("that discrepancy has already been resolved")
        return found[index]

    def accept_table(self, index: int) -> None:
        """"Accept what is on the table": logged."""
        with self._lock:
            self.session.accept_table(self._discrepancy(index), "accepted on the touchscreen")

    def put_back(self, index: int) -> None:
        """"Put it back": the engine is right; logged."""
        with self._lock:
            self.session.trust_engine(self._discrepancy(index), "put back, on the touchscreen")

    def bag_blocks(self, side: Side) -> list[str]:
        """The blocks the rules have in ``side``'s bag (for the virtual table's set-up)."""
        return sorted(b for b, z in self.game.state.pos.items() if z == BAG and side_of(b) is side)

    def start_game(self) -> Accepted[ev.Event] | Rejection:
        return self.submit(cm.StartGame())


def bid_cards(side: Side) -> list[tuple[str, str]]:
    """One card id per distinct face of ``side``'s deck, with the label players read (6.3),
    highest bid first."""
    seen: dict[tuple[str, str, int], str] = {}
    for card_id, card in sorted(CARDS.items()):
        if card.side is side:
            seen.setdefault((card.clan.value if card.clan else "", card.kind.value, card.bid),
                            card_id)
    ordered = sorted(seen.items(), key=lambda item: (-item[0][2], item[0][0]))
    return [(card_id, card_words(card_id)) for _face, card_id in ordered]


def default_workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="companion-"))


def weekly_history(events: Sequence[ev.Event]) -> list[tuple[int, PublicState]]:
    """The public view at the end of each week (and at the end of the game), by replaying the
    log: for the end screen's plots."""
    rules = SekigaharaRules()
    state = rules.initial_state()
    found: list[tuple[int, PublicState]] = []
    for event in events:
        before = state
        state = rules.apply(state, event)
        if state.week != before.week and before.phase is not Phase.NOT_STARTED:
            found.append((before.week, public_view(before).payload))
    if state.phase is Phase.GAME_OVER:
        found.append((state.week, public_view(state).payload))
    return found
