"""The battle on the touchscreen, from the lists to the score (issue 20, items 4 and 5).

:func:`open_battle` is what the home screen's "New battle" calls. :class:`BattleFlow` shows one
:class:`~ui.kensei.battle_page.Page` at a time: the page the battle is at (from the public view
of :class:`~ui.kensei.control.KenseiControl`), or a step the players opened over it (a dice pad,
a choice of troop, an order's situation, a private step). The pages themselves live in
:mod:`ui.kensei.pregame` (lists and pre-game, B1.3), :mod:`ui.kensei.turn` (the turn, B3) and
:mod:`ui.kensei.score` (the end, B15).

A private step (B17) is three pages: the cover ("Kuge vanguard looks, Buke vanguard looks
away"), the secret itself (named ``kensei-private``: the only page that shows a hand, a card
value in hand or a mission), and "Hide".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.core.store import StoreError
from companion.games.kensei import records
from companion.games.kensei.battle.commands import Side
from companion.games.kensei.battle.state import other
from ui.kensei import battle_words as bw
from ui.kensei.battle_page import Button, Line, Page, PageScreen
from ui.kensei.control import KenseiControl, Snapshot, sentence
from ui.shell import theme as th
from ui.shell.sealing import SCORE_SHEET, SealWatch

if TYPE_CHECKING:
    from ui.kensei.app import KenseiApp
    from ui.kensei.virtual_table import VirtualTable


Build = Callable[[], Page]


@dataclass
class Pad:
    """Dice as rolled, one at a time, or "Roll for me"."""

    title: str
    rule: str
    count: int
    done: Callable[[list[int]], object]
    lines: list[Line] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    private: bool = False


class BattleFlow:
    """See the module docstring."""

    def __init__(self, app: KenseiApp | None, control: KenseiControl,
                 lists_dir: Path | None = None) -> None:
        self.kensei = app
        self.control = control
        self.lists_dir = lists_dir
        self.overlay: Build | None = None
        self.screen = PageScreen(self.page)
        self.notice: list[Line] = []
        self.on_over: Callable[[], None] | None = None
        """Called once the battle is scored (the store marks it finished)."""
        self.on_begin: Callable[[], None] | None = None
        """Called once the battle begins (the reader table's tags are given out)."""
        self.virtual: VirtualTable | None = None
        """The virtual table, when the battle is played at the simulated reader table."""
        from ui.kensei.pregame import Pregame
        from ui.kensei.score import Score
        from ui.kensei.turn import Turn

        self.pregame = Pregame(self)
        self.turn = Turn(self)
        self.score = Score(self)

    # ------------------------------------------------------------------ pages

    @property
    def snap(self) -> Snapshot:
        return self.control.snapshot()

    def name(self, side: str) -> str:
        return self.control.names.get(side, "")

    def page(self) -> Page:
        if self.overlay is not None:
            page = self.overlay()
        else:
            phase = self.control.state.phase
            if phase == "setup":
                page = self.pregame.lists_page()
            elif phase in ("scenario", "strategy", "side", "scenery", "secondary",
                           "deployment"):
                page = self.pregame.page(phase)
            elif phase in ("maintenance", "initiative", "activation"):
                page = self.turn.page(phase)
            else:
                page = self.score.page(phase)
        page.show_rule = self.show_rule
        return page

    def open(self, build: Build | None) -> None:
        self.overlay = build
        self.redraw()

    def back(self) -> None:
        self.open(None)

    def redraw(self) -> None:
        if self.kensei is not None:
            self.kensei.app.invalidate()

    def show(self) -> None:
        if self.kensei is not None:
            self.kensei.app.show(self.screen)

    def feed_lines(self, count: int = 3) -> list[Line]:
        """The latest rulings, newest last; a refusal in the warning colour; first what the
        reader table shows that the rulings do not."""
        lines = [Line(f"At the table: {sentence(text)}", "B7", th.WARN)
                 for text in self.control.table_lines()]
        for f in self.control.feed[-count:]:
            colour = th.WARN if f.kind == "refused" else th.DIM
            text = f"Refused: {f.text} ({f.rule})" if f.kind == "refused" and f.rule \
                else f.text
            lines.append(Line(text, f.rule, colour))
        return lines

    def submit(self, command: Any) -> bool:
        """True when the engine took it; a refusal stays in the feed, in words, with its rule
        (and a store that cannot save says so: nothing was applied)."""
        try:
            taken = self.control.submit(command) is None
        except StoreError as exc:
            if self.kensei is not None:
                self.kensei.app.say(f"Not saved: {exc.message}")
            return False
        if taken and self.control.state.phase == "over" and self.on_over is not None:
            self.on_over()
        if taken and getattr(command, "type", "") == "begin" and self.on_begin is not None:
            self.on_begin()
        return taken

    def common_bar(self, *extra: Button) -> list[Button]:
        bar = [*extra, Button("Troops", partial(self.open, self.turn.roster_page)),
               Button("Look at a hand", partial(self.open, self.choose_hand))]
        if not any(b.label == "Concede" for b in bar):
            bar.append(Button("Concede", partial(self.open, self.score.concede_page)))
        return bar

    # ------------------------------------------------------------------ rules

    def show_rule(self, line: Line) -> None:
        previous = self.overlay

        def build() -> Page:
            rule = line.rule or ""
            summary = bw.rule_summary(rule)
            return Page("kensei-rule", f"The rule: {rule}", [
                Line(line.text, bold=True), *([Line(summary, colour=th.GOLD)] if summary else []),
                Line("Section numbers are docs/kensei.md's; headings in capitals are the "
                     "Spanish rulebook's.", colour=th.DIM)],
                bar=[Button("Back", partial(self.open, previous), th.ACCEPT)])

        self.open(build)

    # ------------------------------------------------------------------ dice

    def pad(self, pad: Pad) -> None:
        self.open(partial(self._pad_page, pad))

    def _pad_page(self, pad: Pad) -> Page:
        got = "  ".join(str(v) for v in pad.values) or "none yet"
        lines = [*pad.lines, Line(f"{'Die' if pad.count == 1 else 'Dice'} as rolled: {got}",
                                  bold=True),
                 Line(f"Rule: {pad.rule}", pad.rule, th.DIM)]
        buttons = [Button(str(v), partial(self._pad_add, pad, v), big=True)
                   for v in range(1, 7)]
        bar = [Button("Back", self.back),
               Button("Take back the last", partial(self._pad_undo, pad) if pad.values
                      else None),
               Button("Roll for me", partial(self._pad_roll, pad), th.ACCEPT)]
        return Page("kensei-private" if pad.private else "kensei-dice", pad.title, lines,
                    buttons, bar, columns=6 if not self._portrait() else 3, tall=3.0)

    def _portrait(self) -> bool:
        return self.kensei is not None and self.kensei.app.theme.portrait

    def _pad_add(self, pad: Pad, value: int) -> None:
        pad.values.append(value)
        if len(pad.values) >= pad.count:
            self.overlay = None
            pad.done(list(pad.values))
        self.redraw()

    def _pad_undo(self, pad: Pad) -> None:
        pad.values.pop()

    def _pad_roll(self, pad: Pad) -> None:
        if pad.private:
            values = [self.control.rng_secret.randint(1, 6)
                      for _ in range(pad.count - len(pad.values))]
        else:
            values = self.control.roll(pad.count - len(pad.values))
        for v in values:
            self._pad_add(pad, v)

    def both_roll(self, title: str, rule: str,
                  done: Callable[[dict[Side, int]], object]) -> None:
        """Each player's 1D6, one after the other on the pad."""
        def second(a: list[int]) -> None:
            self.pad(Pad(f"{title}: {self.name('b')}", rule, 1,
                         lambda b: done({"a": a[0], "b": b[0]}),
                         [Line(f"{self.name('a')} rolled {a[0]}.", colour=th.DIM)]))

        self.pad(Pad(f"{title}: {self.name('a')}", rule, 1, second))

    # ------------------------------------------------------------------ private steps

    def private(self, side: Side, show: Build, why: str) -> None:
        """The cover, then ``show`` (a ``kensei-private`` page that ends with "Hide")."""
        def cover() -> Page:
            return Page("kensei-cover", f"{self.name(side)} looks, {self.name(other(side))} "
                        "looks away", [Line(why), Line(
                            "Hand the screen to that player; the other turns away until "
                            "\"Hide\" is tapped.", colour=th.DIM)],
                        [Button(f"{self.name(side)}: show me", partial(self.open, show),
                                th.ACCEPT)], [Button("Back", self.back)], columns=1)

        self.open(cover)

    def hidden_page(self, title: str, lines: list[Line], buttons: list[Button] | None = None,
                    hide: Callable[[], None] | None = None, hide_label: str = "Hide"
                    ) -> Page:
        return Page("kensei-private", title, lines, buttons or [],
                    [Button(hide_label, hide or self.back, th.ACCEPT)], columns=2)

    def choose_hand(self) -> Page:
        buttons = [Button(f"{self.name(s)}'s hand", partial(
            self.private, s, partial(self.turn.hand_page, s),
            "Only this player may see the command cards in hand.")) for s in ("a", "b")]
        return Page("kensei-battle", "Look at a hand", [Line(
            "Command cards in hand are secret: the player looks on a private step (B9.1).",
            "B9.1 USANDO LA BARAJA DE MANDO")], buttons, [Button("Back", self.back)],
            columns=1)


def _attach(app: KenseiApp, flow: BattleFlow) -> None:
    # the shell's app holds no game's screens by type: the demo and tests find it by name
    app.battle = flow  # type: ignore[attr-defined]
    app.play = flow.screen
    watch = SealWatch(records.seal_points)

    def seal() -> str | None:
        found = watch.latest(app.saved.store, app.game_id, len(flow.control.events))
        return None if found is None else f"{found}. {SCORE_SHEET}."

    app.battle_seal = seal  # type: ignore[attr-defined]  # as app.battle above
    flow.on_over = partial(_finished, app, flow)
    flow.show()


def _finished(app: KenseiApp, flow: BattleFlow) -> None:
    """The battle is scored: mark it finished in the store (B15)."""
    store = app.saved.store
    if store is not None and app.game_id is not None:
        try:
            records.finish_if_over(store, app.game_id, flow.control.game)
        except StoreError as exc:
            app.app.say(f"Not saved: {exc.message}")


def _reader_table(app: KenseiApp, flow: BattleFlow) -> None:
    """At the reader table (``--hubs sim``: :mod:`ui.kensei.battle_table`, opened by the app):
    the table session follows this battle; a troop lifted off its reserve tray deploys, one
    laid on the command pad activates, the casualty trays are counted against the rulings."""
    table = getattr(app, "table", None)
    if table is None:
        return
    link = table.link
    link.on_change = app.app.wake
    flow.control.attach(link)
    virtual = table.virtual
    flow.virtual = virtual

    def laid_out() -> None:
        session = link.session
        session.tell(lambda rules: rules.assign_in_order())
        virtual.lay_out(session.rules)

    flow.on_begin = laid_out
    if flow.control.state.phase != "setup":  # a battle resumed: its tags where they belong
        laid_out()


def open_battle(app: KenseiApp) -> None:
    """"New battle" on the home screen: a battle recorded in the store (when it can be
    opened; said when not), the lists first."""
    control = KenseiControl(seed=app.seed)
    store = app.saved.open()
    if store is not None:
        try:
            app.game_id, game = records.start(store, control.rules)
            control.follow(game)
        except StoreError as exc:
            app.saved.problem = exc.message
            app.game_id = None
    else:
        app.game_id = None
    flow = BattleFlow(app, control)
    _reader_table(app, flow)
    _attach(app, flow)
    if app.game_id is None:
        app.app.say(f"Not saving this battle: {app.saved.problem or 'no store'}")


def resume_battle(app: KenseiApp, game_id: int) -> None:
    """A saved battle, re-adjudicated entry by entry, where it stopped."""
    store = app.saved.open()
    if store is None:
        app.app.say(f"Saved battles cannot be opened: {app.saved.problem}")
        return
    control = KenseiControl(seed=app.seed + game_id)
    try:
        app.game_id, game = records.resume(store, game_id, control.rules)
    except (StoreError, records.LogRefused) as exc:
        app.app.say(f"This battle cannot be resumed: {getattr(exc, 'message', exc)}")
        return
    control.follow(game)
    flow = BattleFlow(app, control)
    _reader_table(app, flow)
    _attach(app, flow)
