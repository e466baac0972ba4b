"""The Sekigahara game engine: a whole game, week 1 to the end (see ``docs/engine.md``).

Commands in (:mod:`.commands`), events out (:mod:`.events`), rejections citing the rule;
which commands each step of the turn accepts in :mod:`.phases`; questions about what is legal
in :mod:`.queries`; what each screen may show in :mod:`.views`; what the reader table asks of a
live game in :mod:`.session_rules`. Start with :func:`.game.new_game`. Screens import the game
through :mod:`companion.games.sekigahara.facade` only.
"""
