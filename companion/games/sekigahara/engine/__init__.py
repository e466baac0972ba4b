"""The Sekigahara game engine: a whole game, week 1 to the end (see ``docs/engine.md``).

Commands in (:mod:`.commands`), events out (:mod:`.events`), rejections citing the rule;
questions about what is legal in :mod:`.queries`; what each screen may show in :mod:`.views`.
Start with :func:`.game.new_game`.
"""
