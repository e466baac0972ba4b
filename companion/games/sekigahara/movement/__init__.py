"""Movement geometry for Sekigahara (4.1, 4.2, 7.3, 7.4 as it affects movement).

Pure functions on plain data: the engine passes the board, the stack's move and a
:class:`MoveSituation`; nothing here keeps game state. See ``docs/movement.md``.
"""

from companion.games.sekigahara.movement.distance import (
    BASE_MOVEMENT,
    MAX_MOVEMENT,
    OVERRUN_RATIO,
    can_overrun,
    leadership_at,
    movement_allowance,
    size_penalty,
)
from companion.games.sekigahara.movement.model import (
    EMPTY_SITUATION,
    BlockMove,
    MoveAnalysis,
    MoveExplanation,
    MoveSituation,
    Overrun,
    Route,
    Segment,
    StackMove,
)
from companion.games.sekigahara.movement.queries import explain_move, legal_destinations
from companion.games.sekigahara.movement.validate import validate_stack_move

__all__ = [
    "BASE_MOVEMENT",
    "EMPTY_SITUATION",
    "MAX_MOVEMENT",
    "OVERRUN_RATIO",
    "BlockMove",
    "MoveAnalysis",
    "MoveExplanation",
    "MoveSituation",
    "Overrun",
    "Route",
    "Segment",
    "StackMove",
    "can_overrun",
    "explain_move",
    "leadership_at",
    "legal_destinations",
    "movement_allowance",
    "size_penalty",
    "validate_stack_move",
]
