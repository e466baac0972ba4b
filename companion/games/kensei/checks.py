"""What an input must satisfy before any arithmetic: dice that a D6 can show (DADOS Y
TIRADAS) and orders the rulebook allows (errors 2 and 3 of docs/kensei.md)."""

from __future__ import annotations

from pydantic import BaseModel

from companion.games.kensei.errors import KenseiError
from companion.games.kensei.inputs import MeleeInput, MeleeSide, ShootInput


def check_dice(where: str, dice: BaseModel) -> None:
    """Every die a natural 1 to 6 (DADOS Y TIRADAS)."""
    for roll, values in dice:
        for i, die in enumerate(values):
            if not 1 <= die <= 6:
                raise KenseiError(f"{where}.{roll}.{i}: a die shows 1 to 6", "DADOS Y TIRADAS")


def _foe(s: str) -> str:
    return "b" if s == "a" else "a"


def _orders(s: str, me: MeleeSide, foe: MeleeSide) -> list[tuple[bool, str, str]]:
    """(broken, heading, message) for each order rule, in the order they are checked."""
    return [
        (me.used and me.order != "fight_reaction", "USO DE LAS ÓRDENES",
         f"{s}.order: a Used troop only reacts with Combatir"),
        (me.potenciar and me.order == "fight_reaction", "POTENCIAR",
         f"{s}.potenciar: Potenciar goes with an action order, not a reaction (reading 9)"),
        (me.order == "charge" and me.out_of_coherence, "CARGAR",
         f"{s}.order: a unit out of coherence cannot charge"),
        (me.parapeted and (me.mounted or me.skirmishers), "PARAPETAR",
         f"{s}.parapeted: mounted troops and skirmishers cannot be parapeted"),
        (me.weapon in (6, 7), "ARMAS DE COMBATE CUERPO A CUERPO",
         f"{s}.weapon: types 6 and 7 are garbled in the rulebook; the calculator does not "
         "rule on them: give the type the players agree the weapon fights as"),
        (me.attacks == "flank" and (foe.solo or foe.skirmishers), "FRENTE, FLANCO Y RETAGUARDIA",
         f"{s}.attacks: single models and skirmishers have no flank (reading 11)"),
        (me.attacks == "rear" and foe.skirmishers, "FRENTE, FLANCO Y RETAGUARDIA",
         f"{s}.attacks: skirmishers have no rear to attack (reading 11)"),
        (me.ranks is not None and sum(me.ranks) != me.models + (me.leader is not None),
         "FORMACIÓN CERRADA",
         f"{s}.ranks: the ranks must hold every model, the leader included"),
        (me.models_in_melee > me.models, "FORMACIÓN CERRADA",
         f"{s}.models_in_melee: more models in melee than in the unit"),
    ]


def check_melee(inp: MeleeInput) -> None:
    for s in ("a", "b"):
        check_dice(f"{s}.dice", getattr(inp, s).dice)
    rows = {s: _orders(s, getattr(inp, s), getattr(inp, _foe(s))) for s in ("a", "b")}
    for i in range(len(rows["a"])):
        for s in ("a", "b"):
            broken, rule, message = rows[s][i]
            if broken:
                raise KenseiError(message, rule)


def check_shoot(inp: ShootInput, out_of_range: bool) -> None:
    check_dice("dice", inp.dice)
    sh = inp.shooter
    if sh.in_melee or sh.charged:
        raise KenseiError("shooter: a troop in melee or charged does not shoot", "DISPARAR")
    if sh.unloaded:
        raise KenseiError("shooter: an unloaded weapon must be reloaded first", "DISPARAR")
    if inp.target.in_melee_with_friend:
        raise KenseiError("target: no shooting at a troop in melee with a friend", "DISPARAR")
    if inp.target.parapeted and inp.target.mounted:
        raise KenseiError("target.parapeted: mounted troops cannot be parapeted", "PARAPETAR")
    if out_of_range and (inp.dice.shoot or inp.dice.wound or inp.dice.honour):
        raise KenseiError("dice: out of range, the shot is spent with no roll",
                          "DISTANCIA DE DISPARO")
