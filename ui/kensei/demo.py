"""``companion run --game kensei --headless --demo``: a seeded 200-pe battle played on the screens.

Two seeded players (this module's Random) choose as people at the table would and do it by
tapping the screens: the two bundled example lists, the strategy and scenery dice ("Roll for
me"), each secret mission on its private step, deployment in alternation, then turn after
turn: hands dealt on private steps, the initiative, now and then a command duel with bids laid
on private steps, activation pairs, order rolls, an order each (shoot, charge or move, with the
situation asserted) and the combat it starts through the calculators' forms, to the score.
Nothing is submitted to the engine directly.

``swap``: each player's secrets are the other's (mission dice and the virtual deck's shuffles
change places) while every public choice stays the same: the swapped-world test compares the
two runs' public frames. Duels reveal the bids, so a swapped-world run plays without them
(``duels=False``).
"""

from __future__ import annotations

import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from companion.core.records import LogRefused
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.battle.state import SIDES
from companion.games.kensei.records import check
from companion.games.kensei.table import FIELD, hand_place, place_id, troop_tag
from ui.kensei.app import KenseiApp
from ui.kensei.battle import BattleFlow
from ui.kensei.battle_words import ORDERS
from ui.kensei.form_screen import FormScreen
from ui.kensei.forms import get
from ui.shell.app import FrameRecorder
from ui.tableapp import TableOptions

MAX_TAPS = 4000
STEP_TIMEOUT_S = 20.0
DEMO_SETTLE_S = 0.1
"""The demo's hands never pause on the way, so a short settle keeps it quick."""
DEMO_RATE_HZ = 50
COMBAT_ODDS = 0.6
DUEL_ODDS = 0.3


class DemoError(RuntimeError):
    """The screens did not follow what the players did."""


class KenseiDemo:
    def __init__(self, kensei: KenseiApp, seed: int, swap: bool = False,
                 duels: bool = True) -> None:
        self.kensei = kensei
        self.app = kensei.app
        self.rng = random.Random(seed)
        secret = random.Random(seed + 7919)
        self.missions = {"a": secret.randint(1, 6), "b": secret.randint(1, 6)}
        self.swap = swap
        if swap:
            self.missions = {"a": self.missions["b"], "b": self.missions["a"]}
        self.duels = duels
        self.taps = 0
        self.ordered: set[Side] = set()
        self.refusal = ""
        self.refusals: list[tuple[int, str]] = []
        """Each calculator refusal the demo met, with the number of the fight it came in."""
        self.fights = 0
        self.looked = False
        self.at_table = 0
        self.at_pad = 0
        self.at_card_pad = 0
        """Troops deployed at the reader table (lifted off the virtual reserve tray)."""

    @property
    def flow(self) -> BattleFlow:
        flow = getattr(self.kensei, "battle", None)
        if not isinstance(flow, BattleFlow):
            raise DemoError("no battle on the screen")
        return flow

    def labels(self) -> list[str]:
        self.app.draw()
        return [t.label for t in self.app.targets if t.action is not None]

    def tap(self, label: str) -> None:
        self.taps += 1
        if self.taps > MAX_TAPS:
            raise DemoError("the battle did not finish")
        self.app.pump()
        self.app.draw()
        if not self.app.tap(label):
            raise DemoError(f"no button {label!r} on the {self.app.painter.screen} screen "
                            f"(shown: {', '.join(self.labels())})")
        self.app.draw()

    def has(self, label: str) -> bool:
        return any(x.startswith(label) for x in self.labels())

    def names(self) -> dict[str, str]:
        return self.flow.control.names

    # ------------------------------------------------------------------ the battle

    def run(self, until: Callable[[], bool] | None = None) -> None:
        """From the home screen to the score (or until ``until()`` holds)."""
        self.begin()
        self.play(until)

    def play(self, until: Callable[[], bool] | None = None) -> None:
        while self.flow.control.state.phase != "over" and not (until and until()):
            self.step()

    def begin(self) -> None:
        self.app.draw()
        self.tap("New battle")
        if self.swap:
            control = self.flow.control
            control.dealers = {"a": control.dealers["b"], "b": control.dealers["a"]}
        self.tap("First player's list")
        self.tap("Kuge vanguard")
        self.tap("Second player's list")
        self.tap("Buke vanguard")
        self.tap("Begin the battle")

    def step(self) -> None:
        phase = self.flow.control.state.phase
        n = self.names()
        if phase == "scenario":
            self.tap("Roll the scenario die")
            self.tap("Roll for me")
        elif phase == "strategy":
            self.tap("Enter the strategy dice")
            self.tap("Roll for me")
            self.tap("Roll for me")
        elif phase == "side":
            self.tap(self.rng.choice([x for x in self.labels()
                                      if x.endswith(" attacks") or x.endswith(" defends")]))
        elif phase == "scenery":
            self.tap("Roll the scenery die")
            self.tap("Roll for me")
        elif phase == "secondary":
            side = next(s for s in ("a", "b")
                        if s not in self.flow.control.snapshot().view["secondary"]
                        or not self.flow.control.snapshot().view["secondary"][s])
            self.tap(f"{n[side]}: roll the secret mission")
            self.tap(f"{n[side]}: show me")
            self.tap(str(self.missions[side]))
            self.tap("Hide")
        elif phase == "deployment":
            label = self.rng.choice([x for x in self.labels() if x.startswith("Deploy ")])
            if self.flow.virtual is None:
                self.tap(label)
            else:
                self.deploy_at_table(label.removeprefix("Deploy "))
        elif phase == "maintenance":
            self.maintenance()
        elif phase == "initiative":
            if self.flow.control.state.turn == 1 and not self.looked:
                self.look_around()
            self.tap("Enter the initiative dice")
            self.tap("Roll for me")
            self.tap("Roll for me")
        elif phase == "activation":
            self.activation()
        elif phase == "scoring":
            self.tap("Score the battle")

    def look_around(self) -> None:
        """What players do between rolls: the roster of each army, a rule behind a ruling,
        their own hand."""
        self.looked = True
        n = self.names()
        self.tap("Troops")
        self.tap(f"{n['b']}'s troops")
        self.tap("Back")
        rule = next(x for x in self.labels() if x.startswith("The rule: "))
        self.tap(rule)
        self.tap("Back")
        self.tap("Look at a hand")
        self.tap(f"{n['a']}'s hand")
        self.tap(f"{n['a']}: show me")
        self.tap("Hide")

    def deploy_at_table(self, name: str) -> None:
        """B1.3 step 5 at the reader table: the troop's unit card, its models and the leader
        inside it lifted off the reserve tray onto the field; the readers see them go and the
        table session deploys it."""
        control = self.flow.control
        virtual = self.flow.virtual
        link = control.link
        assert virtual is not None and link is not None
        side = control.deployer()
        assert side is not None
        tid = next(t for t, n in control.deployable(side) if n == name)
        rules = link.session.rules
        models: dict[str, tuple[str, ...]] = getattr(rules, "models", {})
        troops = [tid, *(t.id for t in control.state.troops.values() if t.inside == tid)]
        before = len(control.events)
        for troop in troops:
            for tag in (troop_tag(troop), *models.get(troop, ())):
                virtual.move(tag, FIELD)
        self.at_table += 1
        self.wait(lambda: any(e.type == "troop_deployed" and getattr(e, "troop", None) == tid
                              for e in control.events[before:]),
                  f"the readers to see {name} leave the reserve tray")

    def activate_at_table(self, side: Side, tid: str) -> None:
        """B3.3 at the reader table: the troop's unit card laid on its player's command pad
        (the table session activates it), then taken back to the field."""
        control = self.flow.control
        virtual = self.flow.virtual
        assert virtual is not None
        before = len(control.events)
        pad = place_id("command", side)
        self.at_pad += 1
        virtual.move(troop_tag(tid), pad)
        self.wait(lambda: any(e.type == "troop_activated" and getattr(e, "troop", None) == tid
                              for e in control.events[before:]),
                  "the command pad to activate the troop")
        virtual.move(troop_tag(tid), FIELD)
        self.wait(lambda: virtual.where(troop_tag(tid)) == FIELD, "the card to be lifted")

    def bid_at_table(self, name: str) -> None:
        """B9.1 at the reader table: the player lays a tagged card face down on the card pad
        and bids it; the card goes back to the hand's place once the duel has it."""
        control = self.flow.control
        virtual = self.flow.virtual
        assert virtual is not None
        side = next(s for s in SIDES if self.names()[s] == name)
        card = control.private(side)["hand"]["hand"][0]["card"]
        virtual.move(card, place_id("cards", side))
        self.wait(lambda: control.pad_cards(side) == [card], "the card pad to read the bid")
        self.at_card_pad += 1
        self.tap("Bid the cards on the card pad")
        virtual.move(card, hand_place(side))  # the readers let it go while play goes on

    def casualties_at_table(self) -> None:
        """B7 at the reader table: the models a ruling removed go to their casualty tray (a
        leader killed, his base), until the table session counts what the rulings say."""
        control = self.flow.control
        virtual = self.flow.virtual
        link = control.link
        if virtual is None or link is None:
            return
        state = control.state
        models: dict[str, tuple[str, ...]] = getattr(link.session.rules, "models", {})
        for troop in state.troops.values():
            tray = place_id("casualties", troop.side)
            tags = models.get(troop.id) or (troop_tag(troop.id),)
            removed = troop.models_start if troop.removed else troop.models_start - troop.models
            on_tray = [t for t in tags if virtual.where(t) == tray]
            for tag in [t for t in tags if virtual.where(t) != tray][:removed - len(on_tray)]:
                virtual.move(tag, tray)
        self.wait(lambda: not control.table_lines(), "the casualty trays to match the rulings")

    def wait(self, done: Callable[[], bool], what: str) -> None:
        """Keep the app running (redraws, recording) until ``done()``."""
        link = self.flow.control.link
        deadline = time.monotonic() + STEP_TIMEOUT_S
        while not done():
            if time.monotonic() > deadline:
                raise DemoError(f"timed out waiting for {what}")
            if link is None or not link.rest_over():
                self.app.pump(15)
        self.app.pump()
        self.app.draw()

    def maintenance(self) -> None:
        n = self.names()
        for side in ("a", "b"):
            if self.has(f"Deal {n[side]}'s command cards"):
                self.tap(f"Deal {n[side]}'s command cards")
                self.tap(f"{n[side]}: show me")
                self.tap("Hide")
                return
        honour = [x for x in self.labels() if x.startswith("Honour roll: ")]
        if honour:
            self.tap(honour[0])
            self.tap("Enter the honour die")
            self.tap("Roll for me")
            return
        raise DemoError("maintenance is stuck")

    def activation(self) -> None:
        n = self.names()
        labels = self.labels()
        if any(x.startswith("Command duel: ") for x in labels) and self.duels \
                and self.rng.random() < DUEL_ODDS:
            self.duel(next(x for x in labels if x.startswith("Command duel: ")))
            return
        for side in SIDES:
            if f"{n[side]}: activate a troop" in labels and self.flow.virtual is not None \
                    and self.flow.control.state.turn == 1:
                eligible = self.flow.control.snapshot().eligible(side)
                self.activate_at_table(side, self.rng.choice(eligible)["id"])
                return
            if f"{n[side]}: activate a troop" in labels:
                self.tap(f"{n[side]}: activate a troop")
                self.tap(self.rng.choice([x for x in self.labels()
                                          if x not in ("Back",) and not x.startswith("The ")
                                          ]))
                return
        rolls = [x for x in labels if x.startswith("Order roll: ")]
        if rolls:
            self.tap(rolls[0])
            self.tap("Roll for me")
            return
        for side in SIDES:
            label = next((x for x in labels
                          if x.startswith(f"Give an order: {n[side]}'s ")), None)
            if label is not None and side not in self.ordered:
                self.ordered.add(side)
                self.order(side, label)
                return
        if "End of activation" in labels:
            self.ordered = set()
            self.tap("End of activation")
            return
        if "End the turn" in labels:
            self.tap("End the turn")
            return
        raise DemoError(f"the activation is stuck: {', '.join(labels)}")

    def duel(self, label: str) -> None:
        self.tap(label)
        for _ in range(2):
            shown = next(x for x in self.labels() if x.endswith(": show me"))
            self.tap(shown)
            cards = [x for x in self.labels() if x.startswith("Card ") and ": worth " in x]
            if self.flow.virtual is not None and cards and self.flow.control.state.turn == 1:
                self.bid_at_table(shown.removesuffix(": show me"))
            else:
                if cards:
                    self.tap(cards[0])
                self.tap("Lay the bid face down")
            if not any(x.endswith(": show me") for x in self.labels()):
                break

    def order(self, side: Side, label: str) -> None:
        """One order for the active troop: a shot if it can, else a charge or a move."""
        self.tap(label)
        state = self.flow.control.state
        act = state.activation
        assert act is not None
        troop = state.troops[act.troops[side]]
        profile = state.army(side).profiles[troop.profile]
        combat = self.rng.random() < COMBAT_ODDS and not act.combat_order.get(side)
        if combat and profile.ranged is not None and not troop.unloaded:
            kind = "shoot"
        elif combat and profile.weapon is not None:
            kind = "charge"
        else:
            kind = "move"
        self.tap(ORDERS[kind])
        if kind != "move":
            targets = [x for x in self.labels() if x.startswith("Against ")]
            self.tap(self.rng.choice(targets))
            if kind == "charge":
                self.tap("Base in contact with the target")
        self.tap(f"Give the order: {ORDERS[kind]}")
        screen = self.app.painter.screen
        if screen in ("kensei-melee", "kensei-shoot"):
            self.combat()
        elif screen == "kensei-turn" and self.has("Back"):
            self.tap("Back")  # refused: the refusal was shown in words
            self.tap("Back")

    def combat(self) -> None:
        """The calculator's form, prefilled from the troops: the dice rolled for each side,
        then "Rule it"; honour dice when the ruling asks for them."""
        screen = self.kensei.app.screen
        if not isinstance(screen, FormScreen):
            raise DemoError("no calculator form")
        form = screen.form
        self.refusal = ""
        self.fights += 1
        for attempt in range(4):
            for i, page in enumerate(form.pages):
                if "dice as rolled" not in page.title:
                    continue
                screen.turn(i)
                for f in page.fields:
                    if f.kind != "list" or f.roll not in ("combat", "wound", "shoot", "honour"):
                        continue
                    have = len(get(form.data, f.path) or [])
                    need = form.needs(f)
                    if f.roll == "honour":
                        if attempt == 0 or have or not self.asked_honour(f.path):
                            continue
                    elif need is None or need == have:
                        continue
                    button = next((x for x in self.labels()
                                   if x.startswith(f"{f.label}:")), None)
                    if button is None:
                        continue
                    self.tap(button)
                    self.tap("Roll for me")
                    self.tap("Done")
            self.tap("Rule it")
            screen_name = self.app.painter.screen
            if screen_name == "kensei-ruling":
                self.tap("Done")
                self.casualties_at_table()
                return
            if screen_name == "kensei-refusal":
                words = " ".join(t for s_, t in self.app.drawn)
                again, self.refusal = words == self.refusal, words
                self.refusals.append((self.fights, words))
                if again or not self.answer(words):
                    if self.has("Back to the form"):
                        self.tap("Back to the form")
                    break
                continue
            return
        self.tap("Back")  # a refusal the demo cannot answer: the fight is let go

    def answer(self, words: str) -> bool:
        """A refusal answered as a player would, once: "Change it" leads to the field it
        names, which gets the die, the ranks or the choice the refusal asks for. False when
        the demo has no answer (the refusal stays on the screen)."""
        change = next((x for x in self.labels() if x.startswith("Change it: ")), None)
        if change is None:
            return False
        self.tap(change)
        screen = self.app.painter.screen
        labels = self.labels()
        bases = re.search(r"of the (\d+) bases?", words)
        if screen == "kensei-pick":  # the weapon types the calculator rules on (reading)
            self.tap(self.rng.choice([x for x in labels if x != "Back to the form"
                                      and not x.startswith(("Type 6", "Type 7"))]))
            return True
        if screen != "kensei-pad":
            return False
        if "Clear" in labels:
            self.tap("Clear")
        if "Roll for me" in labels:
            self.tap("Roll for me")
        elif bases is not None:
            left = int(bases.group(1))
            for rank in ([left] if left < 6 else [left - left // 2, left // 2]):
                self.tap(str(rank))
        else:
            self.tap("Done")
            return False
        self.tap("Done")
        return True

    def asked_honour(self, path: tuple[str, ...]) -> bool:
        """The last refusal asked for this side's honour die."""
        words = self.refusal
        return "give its die" in words and (
            path[0] not in ("a", "b") or self.names()[path[0]] in words)


def run_demo(options: TableOptions, seed: int, record: Path | None, pictures: bool = True,
             swap: bool = False, duels: bool = True, reader_table: bool = True) -> int:
    """0 when the screens followed the battle to the score and its record verified.
    ``reader_table``: deploy at the simulated reader table (the virtual table's trays)."""
    options.seed = seed
    if reader_table:
        options.hubs = ["sim"]
    options.rate_hz = DEMO_RATE_HZ
    options.settle_s = DEMO_SETTLE_S
    options.virtual_table = False
    scratch: Path | None = None
    if options.db is None:  # a demo is not a game to keep
        scratch = Path(tempfile.mkdtemp(prefix="kensei-demo-"))
        options.db = scratch / "games.sqlite"
    kensei = KenseiApp(options)
    if record is not None:
        kensei.app.recorder = FrameRecorder(record, pictures)
    try:
        demo = KenseiDemo(kensei, seed, swap=swap, duels=duels)
        demo.run()
        store = kensei.saved.store
        if store is None or kensei.game_id is None:
            raise DemoError("the battle was not saved")
        check(store.load(kensei.game_id))  # LogRefused if the record does not hold
        state = demo.flow.control.state
        n = demo.names()
        winner = n[state.winner] if state.winner else "nobody: a draw"
        print(f"demo: seed {seed}, {n['a']} {state.vp.get('a', 0)}, {n['b']} "
              f"{state.vp.get('b', 0)} after {state.turn} turns "
              f"({len(demo.flow.control.events)} events, record verified; "
              f"{demo.at_table} troops deployed from the reserve trays, {demo.at_pad} activated "
              f"on the command pads, {demo.at_card_pad} bids read on the card pads); "
              f"winner {winner}")
        return 0
    except (DemoError, LogRefused) as exc:
        print(f"companion run --demo: error: {exc}", file=sys.stderr)
        return 1
    finally:
        kensei.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
