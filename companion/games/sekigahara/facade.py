"""Everything Sekigahara's screens use of the game, in one place: ``ui/sekigahara`` imports this
module (and :mod:`~companion.games.sekigahara.components` for the printed components), never the
engine's modules, so the engine's inside can change without touching a screen
(``tests/ui/test_ui_engine_facade.py`` holds that line).

What is here: the game (:func:`new_game`, its commands ``cm`` and events ``ev``), the printed
data as the engine looks it up, the questions a screen asks (:mod:`.engine.queries`), what each
screen may show (:mod:`.engine.views`), the rulings feed's words, the session rules the reader
table follows, the zones' ids and names, the stored records and the rulebook.
"""

from __future__ import annotations

from companion.games.sekigahara import records
from companion.games.sekigahara.engine import commands as cm
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.cards import copy_in_hand
from companion.games.sekigahara.engine.castles import castle_owner
from companion.games.sekigahara.engine.data import BOARD, CARDS, FACES, side_of
from companion.games.sekigahara.engine.feed import (
    card_words,
    citation,
    face_words,
    place,
    plain_words,
)
from companion.games.sekigahara.engine.flow import answering_side
from companion.games.sekigahara.engine.game import EVENTS, SekigaharaGame, SekigaharaRules, new_game
from companion.games.sekigahara.engine.players import RandomPlayer, Table
from companion.games.sekigahara.engine.queries import (
    awaiting,
    declarable,
    must_declare,
    retreat_options,
)
from companion.games.sekigahara.engine.session_rules import Option, Question, TableRules
from companion.games.sekigahara.engine.state import BAG, RECRUITMENT, Level, Phase, Stage, State
from companion.games.sekigahara.engine.victory import victory_points
from companion.games.sekigahara.engine.views import (
    Battle,
    DeploymentShown,
    Face,
    PublicState,
    RefereeState,
    Stack,
    public_view,
    referee_view,
)
from companion.games.sekigahara.rulebook import default_rules
from companion.games.sekigahara.zones import (
    CASUALTIES,
    GAME_BOX,
    MORI_ZONE,
    bag_zone,
    card_pad_zone,
    clan_name,
    count_words,
    deployment_zone,
    is_bag,
    recruitment_zone,
    side_colour,
    side_name,
    side_zone,
    where_words,
    zone_name,
    zone_names,
)

__all__ = [
    "BAG",
    "BOARD",
    "CARDS",
    "CASUALTIES",
    "EVENTS",
    "FACES",
    "GAME_BOX",
    "MORI_ZONE",
    "RECRUITMENT",
    "Battle",
    "DeploymentShown",
    "Face",
    "Level",
    "Option",
    "Phase",
    "PublicState",
    "Question",
    "RandomPlayer",
    "RefereeState",
    "SekigaharaGame",
    "SekigaharaRules",
    "Stack",
    "Stage",
    "State",
    "Table",
    "TableRules",
    "answering_side",
    "awaiting",
    "bag_zone",
    "card_pad_zone",
    "card_words",
    "castle_owner",
    "citation",
    "clan_name",
    "cm",
    "copy_in_hand",
    "count_words",
    "declarable",
    "default_rules",
    "deployment_zone",
    "ev",
    "face_words",
    "is_bag",
    "must_declare",
    "new_game",
    "place",
    "plain_words",
    "public_view",
    "records",
    "recruitment_zone",
    "referee_view",
    "retreat_options",
    "side_colour",
    "side_name",
    "side_of",
    "side_zone",
    "victory_points",
    "where_words",
    "zone_name",
    "zone_names",
]
