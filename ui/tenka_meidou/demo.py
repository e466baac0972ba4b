"""``companion run --game tenka-meidou --headless --demo``: a seeded game played on the screens.

The engine's seeded :class:`~companion.games.tenka_meidou.players.RandomPlayer` chooses each
move; the demo then does it as people at the table would: taps on the screen (the set-up, the
Daimyo choice, the dice as rolled, the die kept apart, a card) and pawns moved on the virtual
table, read by the simulated hubs over real pseudo-terminals, then the bridge and the table
session: a deployment is played when the readers see its pawns in the zone the dice name, a card
when "Done" is tapped after its pawns moved. Nothing is submitted to the engine directly. In the
War the hands move the white pawns from the reinforcement supply (or, once it runs out, from
zones already resolved) to where the table session says, zone by zone (5.II.3). It plays to the
final score, and fails if the table session is left holding or with a discrepancy.
"""

from __future__ import annotations

import random
import shutil
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from companion.games.tenka_meidou.events import (
    ChooseDaimyo,
    Deploy,
    PlayDaimyo,
    PlayTactic,
    TenkaCommand,
)
from companion.games.tenka_meidou.players import RandomPlayer, random_start
from companion.games.tenka_meidou.state import RESERVE, PawnMove, Phase, State
from companion.games.tenka_meidou.table import SUPPLY
from firmware_bridge.tablelink import default_workdir
from ui.shell.app import FrameRecorder
from ui.tenka_meidou.app import TenkaApp, TenkaOptions
from ui.tenka_meidou.virtual_table import WHITE
from ui.tenka_meidou.words import card_name, colour_name

MAX_STEPS = 400
STEP_TIMEOUT_S = 20.0
DEMO_SETTLE_S = 0.1
"""The demo's hands never pause on the way, so a short settle keeps it quick."""
DEMO_RATE_HZ = 50


class DemoError(RuntimeError):
    """The screens did not follow what the players did."""


class TenkaDemo:
    """Plays a seeded game on a :class:`TenkaApp` built on the simulator."""

    def __init__(self, table_app: TenkaApp, seed: int) -> None:
        if table_app.virtual is None:
            raise DemoError("the demo needs the simulated readers")
        self.table_app = table_app
        self.app = table_app.app
        self.control = table_app.control
        self.virtual = table_app.virtual
        self.rng = random.Random(seed)
        rules = self.control.rules
        self.player = RandomPlayer(self.rng, rules.board, rules.components)
        self.steps = 0

    @property
    def state(self) -> State:
        return self.control.game.state

    def wait(self, done: Callable[[], bool], what: str, timeout: float = STEP_TIMEOUT_S) -> None:
        """Keep the app running (redraws, recording) until ``done()``."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                snap = self.control.snapshot()
                said = [*snap.problems, *snap.table, *(line.text for line in snap.feed[-2:])]
                raise DemoError(f"timed out waiting for {what}: {'; '.join(said) or 'nothing'}")
            if not self.control.link.rest_over():  # the hand is away: no rest to sleep through
                self.app.pump(15)
        self.app.pump()

    def read(self) -> bool:
        """The readers (through the bridge) see every pawn where the virtual table has it, and
        the table session has been told every move they ruled (a tap on Done reads it)."""
        bridge = self.control.link.bridge
        return (not bridge.holding() and not bridge.settling() and not bridge.telling()
                and bridge.placements() == self.virtual.on_table())

    def settled(self) -> None:
        """Wait until the readers have seen what the hands did."""
        self.wait(self.read, "the readers to see the table")

    def tap(self, label: str) -> None:
        self.app.pump()
        self.app.draw()
        if not self.app.tap(label):
            shown = ", ".join(t.label for t in self.app.targets if t.action is not None)
            where = getattr(self.app.screen, "name", "?")
            raise DemoError(f"no button {label!r} on the {where} screen (shown: {shown})")

    def start(self, players: int | None = None, advanced: bool | None = None) -> None:
        """Tap "New game", the colours in seating order, the advanced game if wanted, Start."""
        start = random_start(self.rng, self.control.rules.board, self.control.rules.components)
        colours = start.players
        if players is not None:
            colours = tuple(self.rng.sample(list(self.control.rules.components.colours),
                                            players))
        self.app.draw()
        self.tap("New game")
        if getattr(self.app.screen, "name", "") == "confirm-new-game":  # the other stays saved
            self.tap("Start a new game")
        for colour in colours:
            self.tap(colour_name(colour))
        if start.advanced if advanced is None else advanced:
            self.tap("Advanced game with Daimyo: off")
        self.tap("Start the game")
        self.settled()

    def play(self, until_phase: Phase = Phase.OVER) -> None:
        while self.state.phase is not until_phase:
            self.step()

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise DemoError("the game did not finish")
        before = len(self.control.events)
        command = self.player.command(self.state)
        self.perform(command)
        if len(self.control.events) == before:
            last = self.control.feed[-1].text if self.control.feed else "nothing"
            raise DemoError(f"the screen did not take {command.type}: {last}")

    def perform(self, c: TenkaCommand) -> None:
        if isinstance(c, ChooseDaimyo):
            self.tap(f"{colour_name(c.colour)}: show me the Daimyo cards")
            self.tap(card_name(c.card))
        elif isinstance(c, Deploy):
            self.roll(c.rolls)
            if c.daimyo:
                self.tap("Daimyo goes too: no")
            self.tap(f"Keep {c.single} apart")
            before = len(self.control.events)
            self.place(c)
            self.wait(lambda: len(self.control.events) > before
                      and self.table_app.play.mode != "place",
                      "the readers to see the pawns the dice name")
            self.settled()  # as a player looks up before the next turn: the readers agree
        elif isinstance(c, PlayTactic):
            self.tap("Play a tactic card")
            self.tap(card_name(c.card))
            self.virtual.carry_out(c.moves)
            self.settled()
            self.tap("Done")
        elif isinstance(c, PlayDaimyo):
            self.tap("Play my Daimyo card")
            self.virtual.carry_out(c.moves)
            self.settled()
            self.tap("Done")
        else:
            raise DemoError(f"the demo cannot play {c.type}")

    def roll(self, rolls: tuple[tuple[int, int, int], ...]) -> None:
        self.tap("Roll the dice")
        for i, roll in enumerate(rolls):
            if i:
                self.tap("Re-roll all three")
            for die in roll:
                self.tap(str(die))

    def place(self, c: Deploy, soldiers: int | None = None) -> None:
        """Put the pawns the plan names on the table (``soldiers``: a wrong count instead)."""
        plan = self.table_app.play.turn.plan
        if plan is None:
            raise DemoError("no plan after the dice")
        moves = []
        count = plan.soldiers if soldiers is None else soldiers
        if count:
            moves.append(PawnMove(colour=c.colour, origin=RESERVE, destination=plan.zone,
                                  count=count))
        if plan.daimyo:
            moves.append(PawnMove(colour=c.colour, pawn="daimyo", origin=RESERVE,
                                  destination=plan.zone))
        self.virtual.carry_out(tuple(moves))

    def reinforce(self) -> None:
        """The War at the table (5.II.3): for each zone the session is resolving, move its
        winner's white pawns to the zones it names (those the readers do not see there yet),
        from the supply, or from zones already resolved once the supply runs out, until the
        session says the War is over."""
        rules = self.control.session
        self.settled()
        steps = rules.war_steps()
        if steps is None:
            raise DemoError("the War has not been fought")
        self.wait(lambda: rules.war_at is not None, "the table session to follow the War")
        while (at := rules.war_at) is not None and at < len(steps):
            step = steps[at]
            resolved = [s.zone for s in steps[:at + 1]]
            progress = rules.war_progress() or {}
            for zone, count in step.sends.items():
                for _ in range(count - progress.get(zone, (0, count))[0]):
                    pawn = next((p for place in (SUPPLY, *resolved)
                                 if (p := self.virtual.take(WHITE, place)) is not None), None)
                    if pawn is None:
                        raise DemoError(f"no white pawn left to send to {zone} (5.II.3)")
                    self.virtual.move(pawn, zone)
                self.settled()
            self.wait(partial(self._resolved, at),
                      f"the table session to see the reinforcements of {step.zone}")

    def _resolved(self, at: int) -> bool:
        """The table session has gone past the ``at``-th zone of the War."""
        return self.control.session.war_at != at

    def check_table(self) -> None:
        """DemoError unless the table session has followed everything: nothing held, no
        discrepancy, every reinforcement of the War placed."""
        self.settled()
        snap = self.control.snapshot()
        if snap.table:
            raise DemoError(f"the table session is left with discrepancies: {snap.table[0]}")
        if snap.war is not None and not snap.war.startswith("The War is over on the table"):
            raise DemoError(f"the table session is left holding: {snap.war}")

    def finish(self) -> None:
        """Place the War's reinforcements on the table, look at zones of the War, then the
        final score (DemoError if the table is not complete)."""
        war = self.state.war
        assert war is not None
        self.reinforce()
        for zone in war.zones[:3]:
            self.tap(f"{zone.value} ")
            self.tap("Back")
        self.check_table()  # "Final score" opens once the table is complete
        self.tap("Final score")


def run_demo(options: TenkaOptions, seed: int, record: Path | None,
             pictures: bool = True) -> int:
    options.virtual_table = False
    options.seed = seed
    options.hubs = ["sim"]
    options.rate_hz = DEMO_RATE_HZ
    options.settle_s = DEMO_SETTLE_S
    scratch: Path | None = None
    if options.db is None:  # a demo is not a game to keep
        scratch = default_workdir("companion-demo-")  # removed at exit whatever happens
        options.db = scratch / "games.sqlite"
    table_app = TenkaApp(options)
    if record is not None:
        table_app.app.recorder = FrameRecorder(record, pictures)
    try:
        demo = TenkaDemo(table_app, seed)
        demo.start()
        demo.play()
        demo.finish()
        demo.check_table()
        war = demo.state.war
        assert war is not None
        scores = ", ".join(f"{c.value} {n}" for c, n in war.scores.items())
        print(f"demo: seed {seed}, {len(demo.state.players)} players, "
              f"{'advanced' if demo.state.advanced else 'basic'} game, "
              f"{len(demo.control.events)} events, {demo.steps} turns; {scores}; "
              f"{war.winner.value} wins")
        return 0
    except DemoError as exc:
        print(f"companion run --demo: error: {exc}", file=sys.stderr)
        return 1
    finally:
        table_app.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)

