"""What tournament play needs of Sekigahara (the descriptor's ``tournament``): its rules to
follow a stored game entry by entry, each entry's lines in the shared feed's words (built from
:func:`~companion.games.sekigahara.engine.views.public_event`, so never a concealed block or a
hidden card), the game at a glance for the referees, and seeded self-play for simulated tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from companion.core.game import GameRules, Recorder
from companion.core.records import NotUndoable, Undoable
from companion.games.sekigahara import records
from companion.games.sekigahara.components import Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.feed import citation, feed_line
from companion.games.sekigahara.engine.game import COMMANDS, SekigaharaRules
from companion.games.sekigahara.engine.state import Phase, State
from companion.games.sekigahara.engine.victory import points_now
from companion.games.sekigahara.engine.views import public_view
from companion.games.sekigahara.zones import side_name


class SekigaharaFeed:
    game = records.GAME
    commands: TypeAdapter[Any] = COMMANDS

    def rules(self) -> GameRules[Any, Any, Any]:
        return SekigaharaRules()

    def undo(self, command: Any, events: Any) -> Undoable | NotUndoable:
        return records.undo_policy(command, events)

    def lines(self, before: State, events: Sequence[ev.Event]) -> list[tuple[str, str | None]]:
        """Each event's line in the shared feed, with the rule it ends with."""
        return [(line, citation(line)) for line in map(feed_line, events)]

    def glance(self, state: State) -> dict[str, Any]:
        """``stage``, ``score`` and ``waiting_for`` in plain words; the score is the victory
        points were the game to end now (2.2: castles x 2 + Resource Locations), the final
        score once it has."""
        now = points_now(state)
        score = ", ".join(f"{side_name(s)} {state.score.get(s, now[s])} VP" for s in Side)
        if state.phase is Phase.GAME_OVER:
            return {"stage": "Game over", "score": score, "waiting_for": None,
                    "board": self.board(state),
                    "winner": state.winner.value if state.winner is not None else None}
        if state.phase in (Phase.NOT_STARTED, Phase.SETUP):
            stage = "Set-up"
        else:
            phase = records.PHASES.get(state.phase.value, state.phase.value)
            stage = f"Week {state.week}, turn {state.turn}: {phase}"
        active = state.active
        if active is not None:
            stage += f", {side_name(active)} to move"
        return {"stage": stage, "score": score,
                "waiting_for": active.value if active is not None else None,
                "board": self.board(state)}

    def board(self, state: State) -> dict[str, Any]:
        """The board as the shared screen shows it: the public view (blocks counted by side,
        never a concealed face), which the dashboard reads in ``referee replay``'s words."""
        return public_view(state).payload.model_dump(mode="json")

    def result(self, state: State) -> str | None:
        """The result a finished game is stored with (as the app stores it), or None."""
        if state.phase is not Phase.GAME_OVER or state.winner is None:
            return None
        return f"{state.winner.value} wins ({state.victory})"

    def header(self) -> dict[str, Any]:
        return records.new_header()

    def selfplay(self, seed: int, recorder: Recorder) -> State:
        """A seeded random legal game, every accepted command through ``recorder``."""
        from companion.games.sekigahara.engine.simulator import play_game

        report = play_game(seed, check=False, recorder=recorder)
        if report.error is not None or report.game is None:
            raise RuntimeError(f"self-play seed {seed}: {report.error}")
        return report.game.state


FEED = SekigaharaFeed()
