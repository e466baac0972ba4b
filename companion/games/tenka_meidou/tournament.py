"""What tournament play needs of Tenka Meidou (the descriptor's ``tournament``): its rules to
follow a stored game entry by entry, each entry's lines in plain words for everyone at the
event (a Daimyo card chosen stays face down: section 9), the game at a glance for the
referees, and seeded self-play for simulated tables."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from companion.core.game import Game, GameRules, Recorder, Rejection
from companion.core.records import NotUndoable, Undoable
from companion.games.tenka_meidou import events as tev
from companion.games.tenka_meidou import records
from companion.games.tenka_meidou.explain_words import Words, event_rulings, who
from companion.games.tenka_meidou.players import RandomPlayer
from companion.games.tenka_meidou.rules import TenkaRules
from companion.games.tenka_meidou.simulator import MAX_COMMANDS
from companion.games.tenka_meidou.state import Phase, State
from companion.games.tenka_meidou.views import public_view


class TenkaFeed:
    game = records.GAME
    commands: TypeAdapter[Any] = records.COMMANDS

    def __init__(self) -> None:
        self._words: Words | None = None

    def rules(self) -> GameRules[Any, Any, Any]:
        return TenkaRules()

    def undo(self, command: Any, events: Any) -> Undoable | NotUndoable:
        return records.undo_policy(command, events)

    def _words_of(self) -> Words:
        if self._words is None:
            self._words = Words(TenkaRules())
        return self._words

    def lines(self, before: State, events: Sequence[tev.TenkaEvent]
              ) -> list[tuple[str, str | None]]:
        """Each event in plain words with its section; a Daimyo card chosen is said to be
        chosen, never named (9)."""
        found: list[tuple[str, str | None]] = []
        for event in events:
            if isinstance(event, tev.DaimyoChosen):
                found.append((f"{who(event.colour)} has chosen a Daimyo card, face down (9)",
                              "9"))
                continue
            for ruling in event_rulings(self._words_of(), before, event):
                rule = ruling.get("rule")
                text = str(ruling.get("text", ""))
                found.append((f"{text} ({rule})" if rule else text,
                              str(rule) if rule else None))
        return found

    def glance(self, state: State) -> dict[str, Any]:
        """``stage``, ``score`` (swords taken; the War's scores once fought, 6) and
        ``waiting_for``."""
        if state.phase is Phase.OVER and state.war is not None:
            scores = ", ".join(f"{who(c)} {n}" for c, n in state.war.scores.items())
            return {"stage": "The War is fought", "score": scores, "waiting_for": None,
                    "board": self.board(state), "winner": state.war.winner.value}
        swords = ", ".join(f"{who(c)} sword {n}" for c, n in state.swords.items())
        score = f"Swords taken: {swords}" if swords else "No sword taken yet"
        if state.phase is Phase.SETUP:
            return {"stage": "Set-up", "score": score, "waiting_for": None,
                    "board": self.board(state)}
        current = state.current
        stage = "Choosing Daimyo cards" if state.phase is Phase.DAIMYO else "Deployment"
        if current is not None:
            stage += f", {who(current)} to play"
        return {"stage": stage, "score": score,
                "waiting_for": current.value if current is not None else None,
                "board": self.board(state)}

    def board(self, state: State) -> dict[str, Any]:
        """The board as everyone at the table sees it: the public view (pawns by colour and
        zone, never a face-down Daimyo card), read by the dashboard in ``referee replay``'s
        words."""
        return public_view(state).payload.model_dump(mode="json")

    def result(self, state: State) -> str | None:
        """The result a finished game is stored with (as the app stores it), or None."""
        war = state.war
        if state.phase is not Phase.OVER or war is None:
            return None
        scores = ", ".join(f"{c.value} {n}" for c, n in war.scores.items())
        return f"{war.winner.value} wins ({scores})"

    def header(self) -> dict[str, Any]:
        return {"rules_version": records.rules_version()}

    def selfplay(self, seed: int, recorder: Recorder) -> State:
        """A seeded random legal game, every accepted command through ``recorder``."""
        rules = TenkaRules()
        player = RandomPlayer(random.Random(seed), rules.board, rules.components)
        game: Game[State, Any, Any] = Game(rules, recorder=recorder)
        for _ in range(MAX_COMMANDS):
            if game.state.phase is Phase.OVER:
                return game.state
            result = game.submit(player.command(game.state))
            if isinstance(result, Rejection):
                raise RuntimeError(f"self-play seed {seed}: a command was refused: {result}")
        raise RuntimeError(f"self-play seed {seed}: the game did not finish")


FEED = TenkaFeed()
