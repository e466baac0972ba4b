"""Kensei (Zenit Miniatures), a miniatures skirmish game of feudal Japan: the referee's
calculators for melee, shooting and the command duel (docs/kensei.md).

The players assert every table premise and give every die as rolled; the calculators do the
rulebook's arithmetic, itemising each modifier with the heading it is printed under.
"""
