"""Tenka Meidou's rules: set-up (section 3, 9), deployment turns (5.I), cards (7, 10), swords.

:class:`TenkaRules` is what the core's :class:`~companion.core.game.Game` runs: ``handle`` checks
a command and returns its events or raises :class:`RuleViolation` citing the section; ``apply``
folds an event into the state. When the last pawn is placed the War phase is fought (5.II, 6)
and recorded as one event.
"""

from __future__ import annotations

from collections import Counter

from companion.core.game import HiddenViolation
from companion.core.rules import RuleViolation
from companion.games.tenka_meidou import daimyo_cards, tactics
from companion.games.tenka_meidou.components import (
    Board,
    Colour,
    Components,
    check_fit,
    default_board,
    default_components,
)
from companion.games.tenka_meidou.events import (
    ChooseDaimyo,
    DaimyoChosen,
    DaimyoPlayed,
    Deploy,
    GameStarted,
    PlayDaimyo,
    PlayTactic,
    SoldiersDeployed,
    StartGame,
    SwordTaken,
    TacticPlayed,
    TenkaCommand,
    TenkaEvent,
    WarFought,
)
from companion.games.tenka_meidou.moves import check_available, check_places, moved, normalise
from companion.games.tenka_meidou.state import PawnMove, Phase, State
from companion.games.tenka_meidou.war import fight_war

FACE_DOWN_REFUSAL = "this Daimyo card cannot be played now"
"""All the table hears when a face-down Daimyo card is refused (section 9): the reason would
name the card, so it is for its owner alone."""


class TenkaRules:
    """The rules for one board and set of components (the bundled ones by default)."""

    def __init__(self, board: Board | None = None, components: Components | None = None):
        self.board = board or default_board()
        self.components = components or default_components()
        check_fit(self.board, self.components)

    def initial_state(self) -> State:
        return State()

    # ------------------------------------------------------------------ commands
    def handle(self, state: State, command: TenkaCommand,
               by: str | None = None) -> list[TenkaEvent]:
        """``by``: the colour whose device submitted ``command``; a command in another
        player's name is refused with one message (section 5: each plays on their own turn).
        None when the caller is trusted (replays, the table's readers, tests)."""
        colour = getattr(command, "colour", None)
        if by is not None and colour is not None and str(colour) != by:
            raise RuleViolation("5", f"{by} cannot act for {colour}")
        if isinstance(command, StartGame):
            return [self.start(state, command)]
        if isinstance(command, ChooseDaimyo):
            return [self.choose_daimyo(state, command)]
        if isinstance(command, Deploy):
            first: TenkaEvent = self.deploy(state, command)
        elif isinstance(command, PlayTactic):
            first = self.play_tactic(state, command)
        else:
            first = self.play_daimyo(state, command)
        return self._after_turn(state, first)

    def start(self, state: State, command: StartGame) -> GameStarted:
        """Section 3 (and 9 for the advanced game)."""
        if state.phase is not Phase.SETUP:
            raise RuleViolation("3", "the game has already been set up")
        players = command.players
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
            raise RuleViolation("1", "2 to 4 players, each with a different colour")
        if unknown := set(players) - set(self.components.colours):
            raise RuleViolation("3.5", f"no pawns of colour {sorted(unknown)[0]}")
        if set(command.castles) != set(self.board.zone_ids):
            missing = sorted(set(self.board.zone_ids) ^ set(command.castles))
            raise RuleViolation("3.2", f"one large castle token on every zone; check {missing[0]}")
        if Counter(command.castles.values()) != Counter(self.components.large_castle_tokens):
            raise RuleViolation("3.2", "the large castle tokens are 2 to 12, one of each")
        table = self.components.table(len(players))
        offer = command.tactic_offer
        if len(offer) != table.tactic_offer or len(set(offer)) != len(offer):
            raise RuleViolation("3.3", f"the tactic offer is {table.tactic_offer} different "
                                f"cards with {len(players)} players")
        daimyo = command.daimyo_offer
        if command.advanced:
            if len(daimyo) != table.daimyo_offer or len(set(daimyo)) != len(daimyo):
                raise RuleViolation("9", f"the Daimyo offer is {table.daimyo_offer} different "
                                    f"cards with {len(players)} players")
        elif daimyo:
            raise RuleViolation("9", "Daimyo cards are for the advanced game only")
        return GameStarted(
            players=players, advanced=command.advanced, castles=command.castles,
            tactic_offer=offer, daimyo_offer=daimyo,
            soldiers_per_colour=self.components.soldiers_per_colour(command.advanced),
        )

    def choose_daimyo(self, state: State, command: ChooseDaimyo) -> DaimyoChosen:
        """Section 9: from the first player's right, counter-clockwise, one card each; a card
        not in the offer is refused without naming it (the choice is made face down)."""
        chooser = state.daimyo_chooser()
        if chooser is None:
            raise RuleViolation("9", "Daimyo cards are chosen only during the advanced set-up")
        if command.colour != chooser:
            raise RuleViolation("9", f"it is {chooser}'s choice of Daimyo")
        if command.card not in state.daimyo_offer:  # the card tried stays the chooser's secret
            raise HiddenViolation("9", "that Daimyo card is not in the offer",
                                  f"{command.card.value} is not in the Daimyo offer")
        return DaimyoChosen(colour=command.colour, card=command.card)

    def _check_turn(self, state: State, colour: Colour) -> None:
        if state.phase is not Phase.DEPLOYMENT:
            raise RuleViolation("5.I", "not in the Deployment phase")
        if colour != state.current:
            raise RuleViolation("5.I", f"it is {state.current}'s turn")

    def deploy(self, state: State, command: Deploy) -> SoldiersDeployed:
        """Section 5.I.1: roll three dice (all three may be re-rolled once), the pair's sum
        names the zone, the single die the number of soldiers (all of them, or what is left)."""
        colour = command.colour
        self._check_turn(state, colour)
        if not 1 <= len(command.rolls) <= 2:
            raise RuleViolation("5.I.1", "one roll of three dice, or two if all were re-rolled")
        if any(not 1 <= d <= 6 for roll in command.rolls for d in roll):
            raise RuleViolation("5.I.1", "a die shows 1 to 6")
        final = list(command.rolls[-1])
        if command.single not in final:
            raise RuleViolation("5.I.1", f"the single die {command.single} is not among the "
                                f"dice rolled {tuple(final)}")
        final.remove(command.single)
        pair = (final[0], final[1])
        zone = next(z for z, v in state.castles.items() if v == sum(pair))
        wanted = self.components.die_to_soldiers[command.single]
        placed = min(wanted, state.pawns_left(colour))
        if command.daimyo and not state.daimyo_in_reserve(colour):
            raise RuleViolation("9", f"{colour} has no Daimyo pawn to deploy")
        soldiers = placed - int(command.daimyo)
        left = state.reserve.get(colour, 0)
        if soldiers > left:
            raise RuleViolation("5.I.1", (
                f"{colour} must place {_pawns(placed)} and has {_soldiers(left)} left: the "
                "Daimyo must go too (clarification TM2)"))
        return SoldiersDeployed(colour=colour, rolls=command.rolls, pair=pair,
                                single=command.single, zone=zone, soldiers=soldiers,
                                daimyo=command.daimyo)

    def _check_card(self, state: State, colour: Colour) -> None:
        self._check_turn(state, colour)
        if state.locked:
            finished = ", ".join(state.swords)
            raise RuleViolation("5.I.2", f"no more cards: {finished} has placed every pawn")

    def _moves(self, moves: tuple[PawnMove, ...], rule: str) -> tuple[PawnMove, ...]:
        moves = normalise(moves)
        check_places(moves, self.board, rule)
        return moves

    def play_tactic(self, state: State, command: PlayTactic) -> TacticPlayed:
        """Sections 5.I.2 and 7: once per player per game, a card from the offer, in full."""
        colour = command.colour
        self._check_card(state, colour)
        if colour in state.tactic_used:
            raise RuleViolation("5.I.2", f"{colour} has already used a tactic card this game")
        if command.card not in state.tactic_offer:
            raise RuleViolation("5.I.2", f"{command.card.value} is not in the offer")
        moves = self._moves(command.moves, "7")
        tactics.CHECKS[command.card](state, colour, moves, self.board)
        check_available(state, moves, "7")
        return TacticPlayed(colour=colour, card=command.card, moves=moves)

    def play_daimyo(self, state: State, command: PlayDaimyo) -> DaimyoPlayed:
        """Sections 9 and 10: one's own Daimyo card, once per game, in full, from the zone of
        one's Daimyo pawn (clarification TM5).

        The card is face down until it is accepted, so what every card shares is checked first
        and said in full (a turn, the Daimyo pawn still in the reserve, pawns that are not
        there); a refusal by the card's own text is a :class:`HiddenViolation` whose public
        message is the same for every card, the reason private to its owner."""
        colour = command.colour
        self._check_card(state, colour)
        card = state.daimyo.get(colour)
        if card is None:
            raise RuleViolation("9", f"{colour} has no Daimyo card")
        if colour in state.daimyo_used:
            raise RuleViolation("9", f"{colour} has already used the Daimyo card")
        if colour not in state.daimyo_at:
            raise RuleViolation("10", f"{FACE_DOWN_REFUSAL}: {colour}'s Daimyo pawn is still in "
                                "the reserve, and a Daimyo card works from its zone "
                                "(clarification TM5)")
        moves = self._moves(command.moves, "10")
        check_available(state, moves, "10")
        try:
            daimyo_cards.CHECKS[card](state, colour, moves, self.board)
        except RuleViolation as exc:
            raise HiddenViolation(exc.rule, FACE_DOWN_REFUSAL, exc.message) from exc
        return DaimyoPlayed(colour=colour, card=card, moves=moves)

    def _after_turn(self, state: State, event: TenkaEvent) -> list[TenkaEvent]:
        """A sword for a player who has placed every pawn (5.I, 9); the War once all have."""
        events = [event]
        after = self.apply(state, event)
        colour = after.last_actor
        if colour is not None and colour not in after.swords and after.pawns_left(colour) == 0:
            left = sorted(set(self.components.table(len(after.players)).swords)
                          - set(after.swords.values()))
            sword = SwordTaken(colour=colour, sword=left[-1])
            events.append(sword)
            after = self.apply(after, sword)
        if all(c in after.swords for c in after.players):
            result = fight_war(players=after.players, swords=after.swords,
                               castles=after.castles, soldiers=after.soldiers,
                               daimyo_at=after.daimyo_at, board=self.board,
                               components=self.components)
            events.append(WarFought(result=result))
        return events

    # ------------------------------------------------------------------ events
    def apply(self, state: State, event: TenkaEvent) -> State:
        if isinstance(event, GameStarted):
            n = event.soldiers_per_colour
            return State(
                phase=Phase.DAIMYO if event.advanced else Phase.DEPLOYMENT,
                players=event.players, advanced=event.advanced, castles=event.castles,
                tactic_offer=event.tactic_offer, daimyo_offer=event.daimyo_offer,
                soldiers={z: {} for z in event.castles}, reserve={c: n for c in event.players},
            )
        if isinstance(event, DaimyoChosen):
            chosen = {**state.daimyo, event.colour: event.card}
            offer = tuple(c for c in state.daimyo_offer if c != event.card)
            done = len(chosen) == len(state.players)
            return state.model_copy(update={
                "daimyo": chosen, "daimyo_offer": () if done else offer,
                "phase": Phase.DEPLOYMENT if done else Phase.DAIMYO})
        if isinstance(event, SoldiersDeployed):
            placed: list[PawnMove] = []
            if event.soldiers:
                placed.append(PawnMove(colour=event.colour, origin="reserve",
                                       destination=event.zone, count=event.soldiers))
            after = moved(state, placed)
            daimyo_at = dict(after.daimyo_at)
            if event.daimyo:
                daimyo_at[event.colour] = event.zone
            return after.model_copy(update={"daimyo_at": daimyo_at,
                                            "last_actor": event.colour})
        if isinstance(event, TacticPlayed):
            after = moved(state, event.moves)
            return after.model_copy(update={
                "tactic_used": {**state.tactic_used, event.colour: event.card},
                "tactic_offer": tuple(c for c in state.tactic_offer if c != event.card),
                "last_actor": event.colour})
        if isinstance(event, DaimyoPlayed):
            after = moved(state, event.moves)
            return after.model_copy(update={
                "daimyo_used": (*state.daimyo_used, event.colour), "last_actor": event.colour})
        if isinstance(event, SwordTaken):
            return state.model_copy(update={"swords": {**state.swords, event.colour: event.sword}})
        return state.model_copy(update={"war": event.result, "phase": Phase.OVER})


def _pawns(n: int) -> str:
    return f"{n} pawn{'s' if n != 1 else ''}"


def _soldiers(n: int) -> str:
    return f"{n} soldier{'s' if n != 1 else ''}"
