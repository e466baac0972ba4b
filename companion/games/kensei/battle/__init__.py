"""The Kensei battle: a referee's assistant and bookkeeper for a whole battle (B1.3, B3).

The players assert everything spatial and give every die; :class:`~.rules.KenseiRules` keeps
the order of play, the markers, the command deck, honour and the score.

What the other parts use:

- ``rules.KenseiRules(lists=None)``: ``initial_state()``, ``handle(state, command, by)``,
  ``judge(state, command, by)``, ``apply(state, event)``; run it in
  ``companion.core.game.Game``. ``by`` is the submitting side ("a"/"b"), None for the table.
- ``commands.KenseiCommand`` (discriminated on ``type``), ``events.KenseiEvent`` (the engine's
  events and the deck's), ``state.State`` (frozen; ``phase``, ``troops``, ``activation``...).
- ``views.public_view(state)``, ``side_view(state, side)``, ``referee_view(state)``,
  ``public_event(event)``: plain dicts; nothing secret in the public ones (B17).
- ``simulator.play_battle(seed, rules=None)``, ``simulator.settle(rules, state, command,
  roll)`` (a melee or shot with the dice the calculator asks for), ``simulator.events_of``;
  ``selfplay.run(games, seed)``; ``examples.kuge()``, ``buke()``, ``kuroi_te()``.
"""
