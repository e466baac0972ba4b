"""``companion run --headless --demo``: a seeded random legal game played through the whole stack.

Two seeded random players (the engine's :class:`~companion.games.sekigahara.engine.players.
RandomPlayer`, holding the physical cards of a seeded :class:`~companion.games.sekigahara.engine.
players.Table`) choose what to do; the demo then does it as people at the table would: blocks are
moved on the virtual table (read by the simulated hubs over real pseudo-terminals, then the
bridge and the table session turn what they see into commands), and everything else is a
simulated touch on the screen (a bid, a level of movement, a combat declared, a Loyalty
Challenge, the answer to a question). Nothing is submitted to the engine directly.
"""

from __future__ import annotations

import random
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from companion.games.sekigahara.components import Side
from companion.games.sekigahara.facade import (
    BOARD,
    CARDS,
    CASUALTIES,
    FACES,
    GAME_BOX,
    RECRUITMENT,
    Level,
    Option,
    Phase,
    RandomPlayer,
    State,
    Table,
    cm,
    deployment_zone,
    ev,
    is_bag,
    recruitment_zone,
    side_of,
)
from firmware_bridge.tablelink import default_workdir
from ui.sekigahara.app import Options, TableApp
from ui.sekigahara.control import bid_cards
from ui.sekigahara.parts import side_name
from ui.shell.app import FrameRecorder

STEP_TIMEOUT_S = 20.0
HAND_S = 2.0
"""The longest the demo's hand holds blocks waiting for the readers to see them lifted."""
DEMO_SETTLE_S = 0.25
"""The demo's hands never pause on the way, so a short settle keeps it quick."""
MOVE_LABELS = {Level.MINIMAL: "Minimal", Level.LIMITED: "Limited", Level.TOTAL: "Total"}


class DemoError(RuntimeError):
    """The table did not follow what the players did."""


class Demo:
    """Plays a seeded game on a :class:`TableApp` built on the simulator."""

    def __init__(self, table_app: TableApp, seed: int) -> None:
        if table_app.virtual is None:
            raise DemoError("the demo needs the simulated readers")
        self.table_app = table_app
        self.app = table_app.app
        self.control = table_app.control
        self.virtual = table_app.virtual
        self.rng = random.Random(seed)
        self.cards = Table.shuffled(self.rng)
        self.player = RandomPlayer(self.rng, self.cards)
        self.seen = 0
        self.steps = 0
        self.started = False
        self.answered: list[str] = []
        """The questions answered by a tap, with the option tapped."""

    # ------------------------------------------------------------------ running

    @property
    def state(self) -> State:
        return self.control.game.state

    def wait(self, done: Callable[[], bool], what: str, timeout: float = STEP_TIMEOUT_S) -> None:
        """Keep the app running (redraws, recording) until ``done()``."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise DemoError(f"timed out waiting for {what}: {self._situation()}")
            if not self.control.rest_over():  # the hand is away: no rest to sleep through
                self.app.pump(15)
        self.app.pump()

    def _situation(self) -> str:
        snap = self.control.snapshot()
        said = [f"{q.text} {list(q.options)}" for q in snap.questions]
        said += [f"{d.text} - {d.fix}" for d in snap.discrepancies]
        said += [line.text for line in snap.feed[-3:]]
        if snap.in_hand:
            said.append(f"{snap.in_hand} block(s) in hand")
        return "; ".join(said) or "nothing happened"

    def tap(self, label: str) -> None:
        """A finger taps the button labelled ``label``; it must be on the screen."""
        self.app.pump()
        if self.app.find(label) is None:
            self.app.draw()
        if not self.app.tap(label):
            shown = ", ".join(t.label for t in self.app.targets if t.action is not None)
            raise DemoError(f"no button {label!r} on the {self.app.painter.screen} screen "
                            f"(shown: {shown})")
        if getattr(self.app.screen, "name", "") == "confirm-step":  # cannot be undone: meant
            self.app.draw()
            self.app.tap("Go ahead")

    def start(self) -> None:
        """Tap "New game" (from the start screen) and stand the set-up-symbol blocks on the map
        (5.2.1)."""
        self.app.draw()
        if self.app.find("New game") is None:
            self.tap("Back to the start" if self.app.find("Back to the start") else "Menu")
        self.tap("New game")
        if getattr(self.app.screen, "name", "") == "confirm-new-game":  # the other stays saved
            self.tap("Start a new game")
        self.started = True
        self._observe()
        self._set_out()

    def play(self, weeks: int, until: Callable[[], bool] | None = None) -> None:
        """Play to the end of week ``weeks`` or of the game, or until ``until()`` holds."""
        if not self.started:
            self.start()
        while self.state.phase is not Phase.GAME_OVER and self.state.week <= weeks:
            if until is not None and until():
                return
            self.step()

    def _set_out(self) -> None:
        """5.2.1: the players stand each block with a set-up symbol where the map shows it."""
        rules = self.control.rules
        for block, zone in sorted(rules.setup_places().items()):
            if self.virtual.where(block) != zone:
                self.virtual.place(block, zone)
        self.wait(lambda: not rules.setup_to_stand() and self._settled(),
                  "the set-up-symbol blocks to be read")

    def _observe(self) -> None:
        """Follow the engine's events with the physical cards (hands, piles)."""
        events = self.control.events
        for event in events[self.seen:]:
            self.cards.observe(self._with_card_ids(event))
        self.seen = len(events)

    def _with_card_ids(self, event: ev.Event) -> ev.Event:
        """The screen enters cards by face, not by copy: name the copy the player holds."""
        if isinstance(event, ev.BidPlaced):
            self._hold(event.side, event.card)
        if isinstance(event, ev.CombatActed) and event.action.get("type") == "challenge":
            loyalty = [c for c, card in CARDS.items()
                       if card.side is event.side and card.kind.value == "loyalty"]
            if not any(c in self.cards.hand[event.side] for c in loyalty):
                spare = [c for c in loyalty if c not in self.cards.table[event.side]]
                self._hold(event.side, spare[0], any_card=True)
        if isinstance(event, ev.CombatActed) and event.action.get("type") == "deploy":
            card = event.action.get("card")
            if card and not card.get("card_id"):
                held = next(c for c in self.cards.hand[event.side]
                            if CARDS[c].kind.value == card["kind"]
                            and _clan_value(c) == card["clan"])
                action = {**event.action, "card": {**card, "card_id": held}}
                return event.model_copy(update={"action": action})
        return event

    def _hold(self, side: Side, card_id: str, any_card: bool = False) -> None:
        """Make ``card_id`` the copy in hand (swapping it with one of the same face, or any
        card when a person tapped a card the seeded hand does not hold)."""
        hand = self.cards.hand[side]
        if card_id in hand:
            return
        face = (CARDS[card_id].clan, CARDS[card_id].kind, CARDS[card_id].bid)
        same = next((c for c in hand if (CARDS[c].clan, CARDS[c].kind, CARDS[c].bid) == face),
                    hand[0] if any_card and hand else None)
        if same is None:
            raise DemoError(f"{side.value} holds no card like {card_id}")
        hand[hand.index(same)] = card_id
        for pile in (self.cards.draw, self.cards.discard, self.cards.table):
            if card_id in pile[side]:
                pile[side][pile[side].index(card_id)] = same

    # ------------------------------------------------------------------ one step

    def step(self) -> None:
        self.steps += 1
        before = len(self.control.events)
        command = self._physical(self.player.command(self.state))
        self._perform(command)
        self.wait(lambda: len(self.control.events) > before or self._asked(),
                  f"the table to follow {command.type}")
        for _ in range(8):
            if not self._answer(command):
                break
            self.wait(lambda: len(self.control.events) > before or self._asked(),
                      f"the answer to {command.type}")
        self.wait(lambda: len(self.control.events) > before, f"the ruling on {command.type}")
        for _ in range(3):  # the screen may ask for the blocks a moment after the ruling
            self._tidy()
            self.wait(self._settled, "the table to settle")
            rules = self.control.rules
            if not (rules.returning() or rules.eliminated()):
                break
        self._observe()

    def _tidy(self) -> None:
        """Do what the rulings say to the blocks: an overrun or lost block to the casualty tray
        (7.4, 8.7.2); deployed blocks back on the map after the battle, as the screen says
        (8.2.1)."""
        rules = self.control.rules
        expected = rules.expected_positions()
        moves: dict[str, list[str]] = {}
        due = {**expected, **rules.returning(), **dict.fromkeys(rules.eliminated(), CASUALTIES)}
        for block, zone in sorted(due.items()):
            if zone != GAME_BOX and not is_bag(zone) and self.virtual.where(block) != zone:
                moves.setdefault(zone, []).append(block)
        for zone, blocks in moves.items():
            self._place(tuple(blocks), zone)

    def _settled(self) -> bool:
        snap = self.control.snapshot()
        return (not snap.questions and not snap.discrepancies and snap.in_hand == 0
                and snap.settling == 0)

    def _asked(self) -> bool:
        return bool(self.control.snapshot().questions)

    def _physical(self, command: cm.Command) -> cm.Command:
        """What the table can show of a command: a stack moves to one place together (no
        drop-offs on the way); retreating blocks all leave (8.8)."""
        if isinstance(command, cm.MoveStack):
            longest = max(command.paths.values(), key=len)
            marches = (tuple(command.paths),) if command.force_marches else ()
            return command.model_copy(update={"paths": dict.fromkeys(command.paths, longest),
                                              "force_marches": marches})
        if isinstance(command, cm.Retreat) and command.into_castle:
            return command.model_copy(update={"into_castle": ()})
        return command

    def _perform(self, c: cm.Command) -> None:
        match c:
            case cm.DrawBlocks():
                zone = recruitment_zone(c.side) if c.zone == RECRUITMENT else c.zone
                self._place(c.blocks, zone)
            case cm.Bid():
                label = dict(bid_cards(c.side))
                face = next(lbl for card, lbl in label.items() if _same_face(card, c.card))
                self.tap(face)
            case cm.ChooseFirst():
                self.tap(f"{side_name(c.first)} moves first")
            case cm.BuyMovement():
                if c.level is Level.NONE:
                    self.tap("No movement (replace cards)")
                    self.tap(f"Replace {c.replace} card")
                else:
                    self.tap(MOVE_LABELS[c.level])
            case cm.EndPhase():
                self.tap("End movement" if self.state.phase is Phase.MOVEMENT
                         else "End combat phase")
            case cm.Muster():
                self._place(c.blocks, c.location)
            case cm.BringMori():
                self._place(c.blocks, "osaka")
            case cm.MoveStack():
                destination = next(iter(c.paths.values()))[-1]
                self._place(tuple(c.paths), destination)
            case cm.DeclareCombat():
                name = BOARD.locations[c.location].name
                self.tap(f"Stay inside at {name}" if c.inside else f"Attack at {name}")
            case cm.ChooseInside():
                self.tap("Stay inside the castle" if c.inside else "Fight outside")
            case cm.Deploy():
                self._place(c.blocks, deployment_zone(c.side))
            case cm.Challenge():
                self.tap(f"{side_name(c.side)} plays a Loyalty Challenge")
                self.tap(f"{side_name(c.side.opponent)} refutes it" if c.refuted
                         else "Not refuted")
            case cm.Finish():
                self.tap(f"{side_name(c.side)} has finished")
            case cm.TakeLosses():
                self._place(tuple(u for u in c.losses if u in FACES), CASUALTIES)
            case cm.Retreat():
                assert c.destination is not None
                p = self.state.pending
                assert p is not None
                here = [b for b, z in self.state.pos.items()
                        if z == p.location and side_of(b) is c.side]
                self._place(tuple(here), c.destination)
            case _:
                raise DemoError(f"the demo cannot play {c.type} at the table")

    def _place(self, blocks: tuple[str, ...], zone: str) -> None:
        """Pick the blocks up together, then set them down together, as a hand moves a stack:
        the readers see them in the hand before they are set down (a hand is never faster
        than the antennas: a block seen in two places at once reads as a move either way)."""
        table = self.control.readers.simulated
        assert table is not None
        lifted = sum(1 for block in blocks if self.virtual.read_where(block))
        for block in blocks:
            table.lift(block)
        if lifted:
            deadline = time.monotonic() + HAND_S
            while self.control.snapshot().in_hand < lifted and time.monotonic() < deadline:
                self.app.pump(15)
        for block in blocks:
            self.virtual.place(block, zone)
        self.app.pump()

    def _answer(self, c: cm.Command) -> bool:
        """Tap the option of the open question that says what the player did."""
        snap = self.control.snapshot()
        if not snap.questions:
            return False
        q = snap.questions[0]
        options = self.control.session.questions[0].question.options  # the same question
        choice = next((i for i, o in enumerate(options)
                       if isinstance(o, Option) and _means(c, o.commands)), 0)
        wanted = q.options[choice]
        for _ in range(len(q.options)):  # a long list of answers comes a page at a time
            self.app.draw()
            if any(t.label == wanted for t in self.app.targets):
                break
            more = next((t.label for t in self.app.targets
                         if t.label.startswith("More answers")), None)
            if more is None:
                break
            self.tap(more)
        self.tap(wanted)
        self.answered.append(f"{q.text} {wanted}")
        return True


def _clan_value(card_id: str) -> str | None:
    clan = CARDS[card_id].clan
    return clan.value if clan is not None else None


def _same_face(a: str, b: str) -> bool:
    x, y = CARDS[a], CARDS[b]
    return (x.clan, x.kind, x.bid) == (y.clan, y.kind, y.bid)


def _means(c: cm.Command, option: tuple[cm.Command, ...]) -> bool:
    """Whether an answer's commands are what the player did (the route taken, the muster
    option, the card played, the disks lost)."""
    first = option[0] if option else None
    if isinstance(c, cm.MoveStack) and isinstance(first, cm.MoveStack):
        return first.paths == c.paths
    if isinstance(c, cm.Muster) and isinstance(first, cm.Muster):
        return first.option == c.option
    if isinstance(c, cm.Deploy) and isinstance(first, cm.Deploy):
        return _face(first.card) == _face(c.card)
    if isinstance(c, cm.TakeLosses) and isinstance(first, cm.TakeLosses):
        return set(first.losses) == set(c.losses)
    return False


def _face(card: cm.CardPlay | None) -> tuple[object, object] | None:
    return None if card is None else (card.clan, card.kind)


def run_demo(options: Options, weeks: int, seed: int, record: Path | None,
             pictures: bool = True) -> int:
    """Play ``weeks`` weeks (or to the end) with the seed; 0 if it ran without error."""
    options.hubs = ["sim"]
    options.rate_hz = max(options.rate_hz, 50)
    options.virtual_table = False
    options.settle_s = min(options.settle_s, DEMO_SETTLE_S)
    scratch = None
    if options.db is None:  # a demo game is not one of the user's games
        scratch = default_workdir("companion-demo-")  # removed at exit whatever happens
        options.db = scratch / "games.sqlite"
    table_app = TableApp(options)
    if record is not None:
        table_app.app.recorder = FrameRecorder(record, pictures)
    try:
        demo = Demo(table_app, seed)
        demo.play(weeks)
        state = demo.state
        print(f"demo: seed {seed}, week {state.week}, phase {state.phase.value}, "
              f"{len(demo.control.events)} events, {demo.steps} actions"
              + (f", {state.winner.value} wins" if state.winner else ""))
        return 0
    except DemoError as exc:
        print(f"companion run --demo: error: {exc}", file=sys.stderr)
        return 1
    finally:
        table_app.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


