"""The Kensei battle: a referee's assistant and bookkeeper for a whole battle (B1.3, B3).

The players assert everything spatial and give every die; :class:`~.rules.KenseiRules` keeps
the order of play, the markers, the command deck, honour and the score."""
