"""The table's readers in the engine's words: :class:`TableRules` wraps a live game for the bridge.

The bridge (``firmware_bridge``) sees blocks on zones; this module says, from the engine's state
and queries alone, where every block should be and whether a change it saw is legal now. It
is the game's :class:`companion.core.table.SessionRules` (the engine never imports the bridge):
:meth:`TableRules.commands_for` turns a legal change into commands
(:class:`~companion.core.table.Ready`), a :class:`Question` for the players, or a
:class:`~companion.core.table.Hold` (part of an action seen, the rest to come).

Zones, as the bridge names them (:mod:`companion.games.sekigahara.zones`): board location ids,
``mori_box``, ``<side>_recruitment``, the casualty tray ``casualties`` (eliminated blocks, 7.4,
8.7.2), and ``<side>_deployment`` for the blocks deployed in the battle being fought (8.2.3). A
block in a bag (5.2.2, 6.2) has no antenna: its zone is ``<side>_bag``, which no reader watches,
so the bridge never reports it missing; when it is seen on a zone, that is a draw, legal only
when the engine awaits that draw.

What the screen asks the players to do is expected, never a discrepancy
(:mod:`~companion.games.sekigahara.engine.table_steps`): a set-up block waits in the game box
(``box``, unwatched) until it stands on its symbol (5.2.1), a deployed block on its tray after
the battle (8.2.1), an overrun block on the map until it reaches the casualty tray (7.4);
:meth:`TableRules.table_steps` says each step to the players.

Legality is never re-implemented here: each change is turned into the candidate commands that
could explain it and each is tried on the engine's own handler (a dry run: states are
copy-on-write, nothing is kept). Messages are the engine's public rejection messages or ours,
with counts and location names only (3.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from companion.core.events import Event
from companion.core.rules import RuleViolation
from companion.core.table import Hold, ProposedMove, Ready
from companion.games.sekigahara import combat
from companion.games.sekigahara.components import CardKind, SetupSymbol, Side
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine.castles import blocks_at
from companion.games.sekigahara.engine.data import BOARD, FACES, OSAKA, side_of
from companion.games.sekigahara.engine.feed import feed_line
from companion.games.sekigahara.engine.game import SekigaharaGame, SekigaharaRules
from companion.games.sekigahara.engine.movement_phase import (
    public_leadership,
    verdict_with_leadership,
)
from companion.games.sekigahara.engine.queries import (
    explain_stack_move,
    legal_destinations,
    movable_stacks,
    next_draw,
)
from companion.games.sekigahara.engine.state import (
    ASIDE,
    BAG,
    DEAD,
    MORI_BOX,
    RECRUITMENT,
    Phase,
    Stage,
    State,
)
from companion.games.sekigahara.engine.table_steps import TableSteps
from companion.games.sekigahara.movement import Route
from companion.games.sekigahara.zones import (
    CASUALTIES,
    GAME_BOX,
    MORI_ZONE,
    bag_zone,
    clan_name,
    count_words,
    deployment_zone,
    recruitment_zone,
    side_name,
    side_zone,
    zone_name,
)

__all__ = [
    "Hold", "Option", "Outcome", "Question", "QuestionKind", "Ready", "TableMove", "TableRules",
    "TableSteps", "dry_run", "merge_casualties",
]


class TableMove(Protocol):
    """A change the readers saw (:class:`companion.core.table.ProposedMove` fits)."""

    @property
    def origin(self) -> str: ...

    @property
    def destination(self) -> str: ...

    @property
    def block_ids(self) -> tuple[str, ...]: ...


class QuestionKind(StrEnum):
    ROUTE = "route"
    """Which route did the stack take (7.3: the route decides roads, Resources, force marches)?"""
    CARD = "card"
    """Which card was played for this deployment (8.2.2, 8.4)?"""
    MUSTER_OPTION = "muster_option"
    """Option A (the daimyo's mon) or B (any friendly recruitment location) (7.2)?"""
    LOSSES = "losses"
    """Which of the allowed loss choices (disks included, 8.9.4) was made?"""


@dataclass(frozen=True)
class Option:
    """One answer: a label players read (no hidden identity) and the commands it means."""

    label: str
    commands: tuple[cm.Command, ...]


@dataclass(frozen=True)
class Question:
    """The table is ambiguous; the players choose one :class:`Option` on the touchscreen."""

    kind: QuestionKind
    side: Side
    text: str
    options: tuple[Option, ...]
    origin: str
    destination: str
    block_ids: tuple[str, ...]

    def answer(self, choice: int) -> tuple[cm.Command, ...]:
        """The commands of option ``choice`` (0-based); ValueError for a choice not offered."""
        if not 0 <= choice < len(self.options):
            raise ValueError(f"choose an option from 0 to {len(self.options) - 1}, not {choice}")
        return self.options[choice].commands


Outcome = Ready | Question | Hold


def merge_casualties(moves: Sequence[ProposedMove]) -> list[ProposedMove]:
    """Losses reach the casualty tray from the battle site and the deployment trays (8.7.2):
    judge them as one choice, from the first origin."""
    lost = [m for m in moves if m.destination == CASUALTIES]
    rest = [m for m in moves if m.destination != CASUALTIES]
    if len(lost) > 1:
        blocks = tuple(sorted(b for m in lost for b in m.block_ids))
        rest.append(ProposedMove(lost[0].origin, CASUALTIES, blocks))
    else:
        rest += lost
    return rest

_RULES = SekigaharaRules()


def dry_run(state: State, command: cm.Command) -> RuleViolation | None:
    """The engine's verdict on ``command`` now, keeping nothing; the message is public."""
    try:
        _RULES.handle(state, command)
    except RuleViolation as exc:
        return RuleViolation(exc.rule, exc.message)
    return None


_count = count_words


def _engine_zone(zone: str) -> str:
    """The engine's off-map zone for a box on the table (the Mōri box, a Recruitment Box)."""
    if zone == MORI_ZONE:
        return MORI_BOX
    if side_zone(zone, "recruitment") is not None:
        return RECRUITMENT
    return zone


def _route_label(route: Route, *, leader: bool = False) -> str:
    """The route's places and what it costs: a leader's Leadership (declared, 7.3.4), a force
    march card (7.3.3), or both. ``leader``: the leader's +1 instead of the card."""
    names = [BOARD.locations[loc].name for loc in route.path]
    text = "direct" if len(names) == 1 else "via " + ", ".join(names[:-1])
    led = leader or route.needs_leader  # never offered as a function of a hidden leader (C12)
    march = route.needs_force_march and not leader
    if led and march:  # short enough for one button on the smallest screen
        return text + " (a leader declared, a force march card)"
    if led:
        return text + " (a leader's Leadership: the leader is declared)"
    return text + (" (force march: discard one card)" if march else "")


@dataclass
class TableRules:
    """A live game as the bridge's ``SessionRules``; re-reads ``game.state`` on every call."""

    game: SekigaharaGame
    steps: TableSteps = field(init=False)
    """What the players are asked to do on the table, and what the readers saw of it."""

    def __post_init__(self) -> None:
        self.steps = TableSteps(self.game)

    @property
    def state(self) -> State:
        return self.game.state

    # ---------------------------------------------------------------- what the players do next

    def setup_to_stand(self) -> dict[tuple[str, Side, SetupSymbol], int]:
        """See :meth:`TableSteps.setup_to_stand` (5.2.1)."""
        return self.steps.setup_to_stand()

    def setup_places(self) -> dict[str, str]:
        """See :meth:`TableSteps.setup_places` (5.2.1): never for the shared screen."""
        return self.steps.setup_places()

    def returning(self) -> dict[str, str]:
        """See :meth:`TableSteps.returning` (8.2.1)."""
        return self.steps.returning()

    def eliminated(self) -> dict[str, str]:
        """See :meth:`TableSteps.eliminated` (7.4)."""
        return self.steps.eliminated()

    def table_steps(self) -> list[str]:
        """What the players must do on the table before anything else, in plain words."""
        return self.steps.said()

    # ---------------------------------------------------------------- MoveRules

    def expected_positions(self) -> Mapping[str, str]:
        """Every block's zone as the bridge names it (see the module docstring)."""
        state = self.state
        found: dict[str, str] = {}
        back = self.returning()
        for block in state.pos:
            zone = self.zone_of(block, back)
            if zone is not None:
                found[block] = zone
        return found

    def zone_of(self, block: str, back: Mapping[str, str] | None = None) -> str | None:
        """Where ``block`` should be on the table; None before setup places it (5.2.1).
        ``back``: :meth:`returning`, when the caller has it already."""
        state = self.state
        where, side = state.pos[block], side_of(block)
        if where == ASIDE:
            return None
        if FACES[block].setup is not None and block not in self.steps.stood and (
                self.steps.in_the_box_now()):
            return GAME_BOX  # 5.2.1: until it is seen where the map prints its symbol
        if where == BAG:
            return bag_zone(side)
        if where == RECRUITMENT:
            return recruitment_zone(side)
        if where == MORI_BOX:
            return MORI_ZONE
        if where == DEAD:
            return self.steps.eliminated().get(block, CASUALTIES)  # 7.4: until taken off
        p = state.pending
        if p is not None and p.combat is not None and p.location == where:
            if any(block in lost.units for lost in p.combat.losses_taken):
                return CASUALTIES  # 8.7.2: chosen, off the map at the end of the combat
            if p.combat.is_deployed(block):
                return deployment_zone(side)  # 8.2.3: revealed on the tray
        if block in (self.returning() if back is None else back):
            return deployment_zone(side)  # 8.2.1: until the players put it back
        return where

    def explain_move(
        self, origin: str, destination: str, block_ids: Sequence[str]
    ) -> RuleViolation | None:
        """None if the change is legal now (or a legal action's first part), else why not."""
        verdict = self._judge(origin, destination, tuple(sorted(block_ids)))
        return verdict if isinstance(verdict, RuleViolation) else None

    # ---------------------------------------------------------------- commands

    def commands_for(self, move: TableMove) -> Outcome:
        """The commands a legal change means, a question, or a hold; ValueError if illegal."""
        verdict = self._judge(move.origin, move.destination, tuple(sorted(move.block_ids)))
        if isinstance(verdict, RuleViolation):
            raise ValueError(str(verdict))
        return verdict

    def destinations(self, origin: str, block_ids: Sequence[str]) -> list[str]:
        """Where these blocks may move from ``origin`` now (7.3), for the LEDs: the board is
        public, so not where only a hidden leader's Leadership would take them (C12); such a
        move is still accepted when made, and declares the leader."""
        blocks = tuple(sorted(block_ids))
        state = self.state
        if not blocks or state.active is None or origin not in BOARD.locations:
            return []
        if not set(blocks) <= set(movable_stacks(state, state.active).get(origin, [])):
            return []
        return sorted(legal_destinations(state, state.active, origin, blocks, leader=False))

    def battle_site(self) -> str | None:
        """The location of the combat in progress (8.1), if any."""
        p = self.state.pending
        return p.location if p is not None else None

    # ---------------------------------------------------------------- the table session

    def flashing(self) -> list[str]:
        """The battle site flashes while a combat is pending (8.1)."""
        site = self.battle_site()
        return [] if site is None else [site]

    def group(self, moves: Sequence[ProposedMove]) -> list[ProposedMove]:
        """Losses reach the casualty tray from the battle site and the deployment trays (8.7.2):
        judge them as one choice, from the first origin."""
        return merge_casualties(moves)

    def observe(self, seen: Mapping[str, str]) -> None:
        """Every block is different (its tag is its identity): nothing to re-bind. What the
        readers see tells which steps on the table are done (:meth:`TableSteps.observe`)."""
        self.steps.observe(seen)

    def describe(self, event: Event) -> str:
        """The event's line in the shared feed."""
        return feed_line(event)

    # ---------------------------------------------------------------- judging

    def _judge(self, origin: str, dest: str, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        if not blocks or any(b not in FACES for b in blocks):
            return RuleViolation("3.2", "only the game's blocks can move")
        if origin == GAME_BOX:  # a set-up block not where the map prints its symbol
            return RuleViolation(
                "5.2.1", "a block with a set-up symbol stands where the map prints that symbol")
        tray = side_zone(origin, "deployment")
        back = self.returning()
        if tray is not None and blocks and all(b in back for b in blocks) and len(
                {back[b] for b in blocks}) == 1:
            origin = back[blocks[0]]  # 8.2.1: it stands on the battle site again
            if dest == origin:
                return Ready(())
        bag_side = side_zone(origin, "bag")
        if bag_side is not None:
            return self._draw(bag_side, dest, blocks)
        box_side = side_zone(origin, "recruitment")
        if box_side is not None and dest in BOARD.locations:
            return self._muster(box_side, dest, blocks)
        if origin == MORI_ZONE and dest in BOARD.locations:
            return self._mori(dest, blocks)
        if dest == CASUALTIES and blocks and all(
                self.eliminated().get(b) == origin for b in blocks):
            return Ready(())  # 7.4: the players did what the screen asked
        if dest == CASUALTIES:
            return self._losses(origin, blocks)
        tray_side = side_zone(dest, "deployment")
        if tray_side is not None:
            return self._deploy(origin, tray_side, blocks)
        if origin in BOARD.locations and dest in BOARD.locations:
            p = self.state.pending
            if p is not None and p.stage is Stage.RETREAT and p.location == origin:
                return self._retreat(origin, dest, blocks)
            return self._stack_move(origin, dest, blocks)
        if origin == CASUALTIES:  # eliminated by an Overrun (7.4) or in combat (8.7.2)
            rule = "7.4" if self.state.phase is Phase.MOVEMENT else "8.7.2"
            return RuleViolation(rule, "eliminated blocks go to the casualty tray")
        return RuleViolation(
            "6.4" if self.state.phase is Phase.MOVEMENT else "8.2.3",
            f"no action takes blocks from {zone_name(origin)} to {zone_name(dest)} now",
        )

    def _draw(self, side: Side, dest: str, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        """5.2.2, 5.2.3, 6.2: blocks drawn from a bag for the zone the engine named."""
        state = self.state
        if self.setup_to_stand():  # 5.2.2: "after placing the designated blocks"
            return RuleViolation("5.2.2", "first stand the blocks with a set-up symbol (5.2.1)")
        due = next_draw(state) if state.phase is Phase.SETUP else next_draw(state, side)
        zone = _engine_zone(dest)
        if due is not None and due[0] is side and due[1] == zone and len(blocks) < due[2] and all(
            side_of(b) is side and state.pos[b] == BAG for b in blocks
        ):
            return Hold(f"{_count(due[2] - len(blocks))} more to draw for {zone_name(dest)}")
        command = cm.DrawBlocks(side=side, zone=zone, blocks=blocks)
        return dry_run(state, command) or Ready((command,))

    def _muster(self, side: Side, dest: str, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        """7.2: option A or B. A single block is option B's to place, and wherever B may place
        it (a friendly recruitment location) some daimyo of the side has its mon, so option A
        could fit a block of that daimyo: the side is always asked which. Asking only when this
        block's clan matched would tell the opponent its clan (3.1). Choosing A when the block
        does not fit is refused when answered, and the question stays open."""
        muster = {o: cm.Muster(side=side, location=dest, blocks=blocks, option=o) for o in "AB"}
        if len(blocks) > 1:  # several blocks: only option A, and they are shown
            return dry_run(self.state, muster["A"]) or Ready((muster["A"],))
        refused = dry_run(self.state, muster["B"])
        if refused is not None:  # B's reasons never depend on the block's face
            return refused
        return Question(
            QuestionKind.MUSTER_OPTION, side, "Muster option A or B?",
            tuple(Option(_MUSTER_LABEL[o], (muster[o],)) for o in "AB"),
            recruitment_zone(side), dest, blocks,
        )

    def _mori(self, dest: str, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        """9.3: Mōri blocks to Osaka, the leader last, one card each."""
        if dest != OSAKA:
            return RuleViolation("9.3", f"Mōri blocks come on at {zone_name(OSAKA)} only")
        ordered = tuple(sorted(blocks, key=lambda b: (FACES[b].leader, b)))
        command = cm.BringMori(blocks=ordered)
        return dry_run(self.state, command) or Ready((command,))

    def _stack_move(
        self, origin: str, dest: str, blocks: tuple[str, ...]
    ) -> Outcome | RuleViolation:
        """7.3: legal if some route fits; several routes: the moving side picks one."""
        state = self.state
        side = side_of(blocks[0])
        naive = cm.MoveStack(side=side, origin=origin, paths={b: (dest,) for b in blocks})
        movable = movable_stacks(state, side).get(origin, [])
        if any(side_of(b) is not side for b in blocks) or not set(blocks) <= set(movable):
            verdict = dry_run(state, naive)  # the engine's own reason: phase, 7.3.1, 8.9.6...
            return verdict or RuleViolation("7.3.1", "these blocks cannot move now")
        explanation = explain_stack_move(state, side, origin, dest, blocks, any_leader=True)
        options: list[Option] = []
        refused: RuleViolation | None = None
        for route in explanation.routes:
            marches = (blocks,) if route.needs_force_march else ()
            command = cm.MoveStack(side=side, origin=origin, force_marches=marches,
                                   paths={b: route.path for b in blocks})
            # 7.3.3, 7.3.4, C12: what a leader's +1 opens is offered whoever stands there,
            # judged as if a leader did, and refused when answered if none does
            verdict = (verdict_with_leadership(state, command) if route.needs_leader
                       else dry_run(state, command))
            if verdict is None:
                options.append(Option(_route_label(route), (command,)))
                if marches and not route.needs_leader and not public_leadership(
                        state, origin, side):
                    # the leader's +1 instead of the card
                    led = command.model_copy(update={"force_marches": ()})
                    options.append(Option(_route_label(route, leader=True), (led,)))
            refused = refused or verdict
        first: dict[str, Option] = {}  # one button per label: the players could not tell
        for option in options:  # two routes with the same words apart
            first.setdefault(option.label, option)
        options = list(first.values())
        declares = any(r.needs_leader for r in explanation.routes)
        if len(options) == 1 and not declares:  # a leader's +1 is claimed, never assumed
            return Ready(options[0].commands)
        if options:
            return Question(
                QuestionKind.ROUTE, side,
                f"Which route did the stack take from {zone_name(origin)} to "
                f"{zone_name(dest)}?", tuple(options), origin, dest, blocks,
            )
        if explanation.violation is not None:
            return RuleViolation(explanation.violation.rule, explanation.violation.text)
        return refused or dry_run(state, naive) or RuleViolation("7.3", "no route fits")

    def _deploy(self, origin: str, side: Side, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        """8.2.3, 8.2.4, 8.4.2: blocks set on the deploying side's tray; the card is asked."""
        state = self.state
        p = state.pending
        if p is None or p.combat is None:
            return RuleViolation(
                "8.2.3", "no battle is being fought: deployed blocks stand on the map again")
        if origin != p.location:
            return RuleViolation(
                "8.2.3", f"blocks deploy from the battle at {zone_name(p.location)}")
        wanted = set(blocks)
        options: list[Option] = []
        for action in combat.legal_actions(p.combat):
            if not isinstance(action, combat.Deploy) or action.side is not side:
                continue
            if set(action.blocks) != wanted:
                continue
            card = None if action.card is None else cm.CardPlay(
                clan=action.card.clan, kind=action.card.kind)
            label = "no card (a leader, 8.2.4)" if card is None else (
                f"a {clan_name(card.clan)} {card.kind.value} card" if card.clan
                else f"a {card.kind.value} card")
            command = cm.Deploy(side=side, card=card, blocks=action.blocks)
            if dry_run(state, command) is None:
                options.append(Option(label, (command,)))
        if len(options) == 1:
            return Ready(options[0].commands)
        if options:
            return Question(QuestionKind.CARD, side, "Which card was played?", tuple(options),
                            origin, deployment_zone(side), blocks)
        guess = cm.Deploy(side=side, blocks=blocks,
                          card=cm.CardPlay(clan=FACES[blocks[0]].clan, kind=CardKind.PLAIN))
        return dry_run(state, guess) or RuleViolation(
            "8.2.3", f"{_count(len(blocks))} cannot be deployed together now")

    def _losses(self, origin: str, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        """8.7.2: the losing side's chosen blocks go to the casualty tray."""
        state = self.state
        p = state.pending
        losing = None if p is None or p.combat is None else combat.awaiting_losses(p.combat)
        if p is None or p.combat is None or losing is None:
            return RuleViolation("8.7.2", "no losses are being taken now")
        mine = tuple(b for b in blocks if side_of(b) is losing)
        others = [b for b in blocks if side_of(b) is not losing]
        ended = p.combat.ended
        if others and not (ended and ended.losses_due.of(losing.opponent)
                           and p.combat.lost_by(losing.opponent) is None):
            return RuleViolation("8.7.2", f"{side_name(losing.opponent)} loses no blocks here")
        if not mine:
            return Hold(f"{side_name(losing)} chooses its losses first")
        choice = combat.loss_choice(p.combat)
        assert choice is not None and choice.side is losing
        if any(u not in FACES for u in (*choice.forced, *choice.pool)):
            # a siege with a disk: at most two blocks and the disk inside, so few selections
            exact = [a for a in choice if {u for u in a.losses if u in FACES} == set(mine)]
        else:
            exact = [combat.Lose(side=losing, losses=mine)] if choice.allows(mine) else []
        if len(exact) == 1:
            return Ready((cm.TakeLosses(side=losing, losses=exact[0].losses),))
        if exact:
            options = tuple(
                Option(", ".join(f"the {u.capitalize()} disk" for u in a.losses
                                 if u not in FACES) or "no disk",
                       (cm.TakeLosses(side=losing, losses=a.losses),))
                for a in exact
            )
            return Question(QuestionKind.LOSSES, losing, "Which disks are lost as well?",
                            options, origin, CASUALTIES, blocks)
        if choice.extends(mine):
            due = ended.losses_due.of(losing) if ended else 0
            return Hold(f"{side_name(losing)} loses {_count(due, 'unit')}; more to come")
        command = cm.TakeLosses(side=losing, losses=mine)
        return dry_run(state, command) or RuleViolation(
            "8.7.2", "these are not losses the rules allow")

    def _retreat(self, origin: str, dest: str, blocks: tuple[str, ...]) -> Outcome | RuleViolation:
        """8.8: the loser's remaining blocks to one adjacent location together."""
        state = self.state
        p = state.pending
        assert p is not None and p.retreating is not None
        side = p.retreating
        remaining = set(blocks_at(state, origin, side))
        command = cm.Retreat(side=side, destination=dest)
        if any(side_of(b) is not side for b in blocks) or not set(blocks) <= remaining:
            return RuleViolation("8.8.1", "only the loser of the battle retreats")
        verdict = dry_run(state, command)
        if verdict is not None:
            return verdict
        if set(blocks) < remaining:
            return Hold(f"{_count(len(remaining) - len(blocks))} more to retreat together")
        return Ready((command,))


_MUSTER_LABEL = {
    "A": "option A: blocks of one daimyo to a location with that daimyo's mon",
    "B": "option B: one block to any friendly recruitment location",
}
