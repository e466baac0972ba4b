"""What tournament play needs of Kensei (the descriptor's ``tournament``): its rules to follow a
stored battle entry by entry, each entry's lines in the public words of :mod:`.explain_words`
(a draw, a face-down discard, a duel bid, a re-roll offering, a secondary mission or a hidden
troop are said, never named: B17), the battle at a glance for the referees, and seeded
self-play for simulated tables (the engine's simulator)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from companion.core.game import Game, GameRules, Recorder, Rejection
from companion.core.records import NotUndoable, Undoable
from companion.games.kensei import records
from companion.games.kensei.battle import simulator
from companion.games.kensei.battle.commands import Melee, Order, Shoot
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import SIDES, State
from companion.games.kensei.battle.turn import points_on_table, starting_points
from companion.games.kensei.battle.views import due, public_view
from companion.games.kensei.explain import PHASES
from companion.games.kensei.explain_words import Words, event_rulings


class KenseiFeed:
    game = records.GAME
    commands: TypeAdapter[Any] = records.COMMANDS

    def rules(self) -> GameRules[Any, Any, Any]:
        return KenseiRules()

    def undo(self, command: Any, events: Any) -> Undoable | NotUndoable:
        return records.undo_policy(command, events)

    def lines(self, before: State, events: Sequence[Any]) -> list[tuple[str, str | None]]:
        """Each event in public words with its rule ("... (B3.3 TIRADA DE ÓRDENES)")."""
        rules = KenseiRules()
        found: list[tuple[str, str | None]] = []
        state = before
        for event in events:
            for ruling in event_rulings(Words.of(state), state, event, public=True):
                rule = ruling.get("rule")
                text = str(ruling.get("text", ""))
                found.append((f"{text} ({rule})" if rule else text,
                              str(rule) if rule else None))
            state = rules.apply(state, event)
        return found

    def glance(self, state: State) -> dict[str, Any]:
        """``stage`` (the phase and turn, whose troop is active), ``score`` (the victory points
        once scored, else the points each army has lost), ``waiting_for`` (a side or None),
        ``board`` (the public view) and, once over, ``winner``."""
        stage = PHASES.get(state.phase, state.phase)
        if state.turn and state.phase not in ("scoring", "over"):
            stage = f"Turn {state.turn}: {stage}"
        out: dict[str, Any] = {"stage": stage, "score": self.score(state),
                               "waiting_for": self.waiting_for(state), "board": self.board(state)}
        if state.phase == "over":
            out["winner"] = state.winner
        return out

    def score(self, state: State) -> str:
        """The victory points once scored (B15); before, the points each army has lost as
        the rout check counts them (B3.1: 75 % ends the battle)."""
        words = Words.of(state)
        if state.phase == "over":
            return ", ".join(f"{words.side(s)} {state.vp.get(s, 0)} VP" for s in ("a", "b"))
        if not state.armies:
            return "No battle yet"
        lost = []
        for side in SIDES:
            start = starting_points(state, side)
            gone = start - points_on_table(state, side)
            lost.append(f"{words.side(side)} has lost {gone} of {start} points")
        return "; ".join(lost)

    def waiting_for(self, state: State) -> str | None:
        """The side the battle waits on, when one alone gives the next command (the engine's
        :func:`~.battle.views.due`): the strategy winner choosing a side, the next to deploy,
        the side still to name its troop or roll for orders, the holder answering a duel."""
        if state.phase in ("over", "setup"):
            return None
        sides = [s for s in due(state).get("sides", []) if s in ("a", "b")]
        return sides[0] if len(sides) == 1 else None

    def board(self, state: State) -> dict[str, Any]:
        """The battle as everyone at the table sees it: the public view (never a hand, a card
        drawn or a hidden troop)."""
        return public_view(state)

    def result(self, state: State) -> str | None:
        """The result a finished battle is stored with (as the app stores it), or None."""
        return records.result(state)

    def header(self) -> dict[str, Any]:
        return {"rules_version": records.rules_version()}

    def selfplay(self, seed: int, recorder: Recorder) -> State:
        """A seeded random legal battle (the engine's simulator), every accepted command
        through ``recorder``."""
        game: Game[State, Any, Any] = Game(KenseiRules(), recorder=recorder)
        return play(game, seed).state


class SelfPlay:
    """The simulator's seeded commanders (``simulator.play_battle``: the same random choices,
    the same dice), playing on any :class:`Game`: a battle may be stopped, stored, resumed
    from the store and played on by the same commanders, command for command as the
    simulator's. A combat the random players cannot settle is skipped and a refused random
    order retried, as the simulator does."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rules = KenseiRules()
        self.rng = random.Random(seed)
        self.players = simulator.RandomCommanders(self.rng)

    def play(self, game: Game[State, Any, Any], commands: int | None = None
             ) -> Game[State, Any, Any]:
        """To the end, or until ``commands`` more were accepted."""
        accepted = 0
        for _ in range(simulator.MAX_COMMANDS):
            if game.state.phase == "over" or (commands is not None and accepted >= commands):
                return game
            command = self.players.command(game.state)
            if isinstance(command, Melee | Shoot):
                ready = simulator.settle(self.rules, game.state, command,
                                         lambda: simulator.d6(self.rng))
                if isinstance(ready, Rejection):
                    continue
                command = ready
            result = game.submit(command)
            if isinstance(result, Rejection):
                if isinstance(command, Order):
                    self.players.queue.clear()
                    continue
                raise RuntimeError(f"self-play seed {self.seed}: a command was refused: "
                                   f"{result}")
            accepted += 1
        raise RuntimeError(f"self-play seed {self.seed}: the battle did not finish")


def play(game: Game[State, Any, Any], seed: int, commands: int | None = None
         ) -> Game[State, Any, Any]:
    """The seeded battle of :class:`SelfPlay` on ``game``."""
    return SelfPlay(seed).play(game, commands)


FEED = KenseiFeed()
