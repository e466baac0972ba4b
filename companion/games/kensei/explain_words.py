"""The plain words of a Kensei battle's commands and events, each with its rule: the digest's
section (B1..B19) and the Spanish heading it is printed under ("B3.3 TIRADA DE ÓRDENES"), and
the arithmetic: an order roll's INI terms, a melee or a shot itemised from the calculator
ruling the event carries (pools with their headings, hits, wounds, casualties, loser, honour),
every victory point of the score (B15).

Two audiences. The referee (``companion referee explain``) sees everything: a card's value, a
secondary mission, the troop a Kuroi-te player keeps hidden. The shared screen and the
tournament feed (``public=True``) never do (B17): a draw, a face-down discard, a duel bid, a
re-roll offering, a commander activation, a secondary-mission die and a hidden troop are said
without naming a card, its value, the mission or the troop (the deck's own
:func:`~.battle.deck.public_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from companion.games.kensei.armylist import CLAN_NAME, COMMANDER_NAME
from companion.games.kensei.battle import deck
from companion.games.kensei.battle import events as kev
from companion.games.kensei.battle.commands import Army, Side
from companion.games.kensei.battle.state import State
from companion.games.kensei.battle.troops import honour_target
from companion.games.kensei.rules import rules

Ruling = dict[str, Any]
"""``{"rule": "B3.3 TIRADA DE ÓRDENES", "text": ...}``."""

SECTIONS: dict[str, str] = {
    "B1.1": "What is needed", "B1.3": "Pre-game sequence", "B2.1": "Dice",
    "B2.6": "Units and formation", "B2.7": "Leaders and the general", "B3": "Turn structure",
    "B3.1": "Maintenance", "B3.2": "Initiative", "B3.3": "Activation", "B4": "Orders",
    "B5": "Melee combat", "B5.1": "Combat roll", "B5.2": "Wound roll", "B6": "Shooting",
    "B7": "Combat resolution", "B8": "Weapons and armour", "B9.1": "Command deck",
    "B9.3": "Traits", "B9.4": "Honour duels", "B12": "Clans: special actions",
    "B14": "Army building", "B15": "Scenarios and victory", "B17": "Hidden information",
    "B19": "Ambiguities, contradictions and gaps",
}
"""The digest's sections these words cite (shared/reference/kensei/digest.md)."""

SETUP = "B1.3 PREPARACIÓN DE LA BATALLA"
STRATEGY = "B1.3 TIRADA DE ESTRATEGIA"
SCENERY = "B1.3 LA MESA DE JUEGO Y ESCENOGRAFÍA"
DEPLOY = "B1.3 DESPLIEGUE"
SCENARIOS = "B15 TABLA DE ESCENARIOS"
SECONDARY = "B15 ESCENARIOS"
CLANS = "B12 ACCIONES DE CLAN"
MAINTENANCE = "B3.1 FASE DE MANTENIMIENTO"
INITIATIVE = "B3.2 FASE DE INICIATIVA"
ACTIVATION = "B3.3 ACTIVACIÓN DE UNIDADES"
ORDER_ROLL = "B3.3 TIRADA DE ÓRDENES"
USED = "B3.3 MARCAR UNIDADES USADAS"
TURN_END = "B3.3 FIN DEL TURNO"
COMMANDER = "B3.3 ACTIVACIÓN DE COMANDANTE"
MARKERS = "B1.1 MARCADORES"
OFFERING = "B9.1 OFRENDA A LOS DIOSES"
HONOUR_DUEL = "B9.4 DUELOS DE HONOR"
UNDEAD = "B9.3 TRATOS"
RESOLUTION = "B7 RESOLUCIÓN DEL COMBATE"
HONOUR = "B7 TIRADA DE HONOR"
CASUALTIES = "B7 RETIRADA DE BAJAS"
VICTORY = "B15 REGLAS GENERALES DE LOS ESCENARIOS"
COMBAT = "Tirada de combate"
SHOOTING = "Tirada de Disparo"
MELEE_TABLES = ("melee_pool", "melee_hit", "melee_wound")
SHOOT_TABLES = ("shoot_pool", "shoot_hit", "shoot_wound")

SCENARIO_NAMES = {1: "Encuentro y aniquilación", 2: "Lucha de fronteras",
                  3: "Romped el frente", 4: "Vías de suministros", 5: "Control estratégico",
                  6: "Defensa de la aldea"}
MISSIONS = {
    1: ("Caza de cabezas", "+1 per enemy leader killed; +1 more if the enemy general is killed"),
    2: ("Espías en la retaguardia", "+1 per friendly leader in the enemy deployment zone"),
    3: ("Infiltración de élite", "+1 per friendly leader or unit of 3 or more models in the "
        "enemy deployment zone; +1 if no enemy leader or unit of 3 or more is in your zone"),
    4: ("Limpiad el terreno", "+1 if the enemy has no model in your half"),
    5: ("Control de bajas", "+1 per friendly unit of 6 or more models still on the table"),
    6: ("Expulsad al enemigo", "+1 per enemy unit completely destroyed or in retreat at the "
        "end"),
}
"""B15: each scenario's secondary mission, which a player's secret 1D6 names. SECRET until the
end: shown only on a private step, and on the score."""

SECONDARY_NAMES = {die: name for die, (name, _) in MISSIONS.items()}
LEVELS = COMMANDER_NAME

ORDERS: dict[str, tuple[str, str, str]] = {
    "move": ("B4 MOVER", "move", "move"), "run": ("B4 CORRER", "run", "run"),
    "regroup": ("B4 REAGRUPAR", "regroup", "regroup: the leader joins {}"),
    "fight": ("B4 COMBATIR", "fight", "fight {}"),
    "charge": ("B4 CARGAR", "charge", "charge {}"),
    "disengage": ("B4 DESTRABAR", "disengage", "disengage from {}"),
    "challenge": ("B4 RETAR A DUELO", "challenge to an honour duel",
                  "challenge {} to an honour duel"),
    "shoot": ("B4 DISPARAR", "shoot", "shoot at {}"),
    "empower": ("B4 POTENCIAR", "empower", "empower the attack on {}"),
    "reload": ("B4 RECARGA", "reload", "reload"),
    "take_cover": ("B4 PARAPETAR", "take cover", "take cover"),
    "interact": ("B4 INTERACTUAR", "interact", "interact"),
    "flee": ("B4 HUIR", "flee", "flee from {}"),
    "fight_reaction": ("B4 COMBATIR", "fight as a reaction", "fight {} as a reaction"),
    "opportunity_charge": ("B4 CARGA DE OPORTUNIDAD", "charge at an opportunity",
                           "charge {} at an opportunity"),
    "stand_and_shoot": ("B4 AGUANTAR Y DISPARAR", "stand and shoot", "stand and shoot at {}"),
    "leave_unit": ("B2.7 LÍDER DE UNIDAD", "leave the unit", "leave the unit"),
}
"""Each order's rule and its words, without a target and with one."""

SITUATION = {
    "in_melee": "in melee", "stunned": "stunned", "out_of_coherence": "out of coherence",
    "out_of_formation": "out of formation", "difficult_terrain": "starting in difficult terrain",
    "charged": "the target of a charge", "in_zoc_of_enemy": "in an enemy's zone of control",
    "enemy_crossed_zoc": "an enemy crossed its zone of control",
    "in_contact": "in base contact with the target",
    "target_in_melee_with_friend": "the target is in melee with a friend",
    "disengaged_from_target": "the target disengaged from it this turn",
    "obstacle_blocks": "an obstacle blocks the way",
}
MARKER_NAMES = {"used": "Used", "stunned": "Stunned", "retreat": "Retreat",
                "dishonoured": "Dishonoured", "parapeted": "Parapeted", "unloaded": "Unloaded",
                "ran": "Ran", "immobilised": "Immobilised", "poisoned": "Poisoned",
                "cursed": "Cursed"}
INI_ITEMS = {"base_ini": "INI", "leader_ini": "the leader's INI, leading the unit",
             "dishonoured": "Dishonoured", "general_dead": "the general is dead",
             "banner": "the Hata-Jurushi"}
HO_ITEMS = {"base_ho": "HO", "dishonoured": "Dishonoured", "general_dead": "the general is dead",
            "last_model": "the last model of a unit", "in_melee": "in melee"}
OUTCOMES = {"passed": "passes", "hold": "fails and holds: one more wound",
            "stay": "fails; the samurai stay: one more wound",
            "fall_back": "fails and falls back", "retreat": "fails and retreats",
            "extra_wound": "fails: one more wound"}
SCORE_LINES = {
    "more_points": "more army points on the table", "destroyed": "enemy troops destroyed",
    "half_lost": "enemy units that lost half their models", "head_hunt": "Caza de cabezas",
    "casualty_control": "Control de bajas", "drive_out": "Expulsad al enemigo",
    "strips": "strips controlled", "clear_strips": "strips clear of enemy units",
    "deep_unit": "a unit deep in an enemy strip", "enemy_flags": "enemy flags held",
    "more_flags": "more enemy flags than the opponent", "own_kept": "own flags kept",
    "wagons_destroyed": "wagons destroyed", "wagons_out": "wagons out at the far side",
    "wagons_intact": "wagons intact", "small_elements": "small elements controlled",
    "centre": "the centre controlled", "near_all": "a unit near every element",
    "no_fire": "no objective house burning", "unburnt": "objective houses unburnt",
    "burning": "objective houses burning", "village": "more points in the village",
}
NUMBERS = {1: "one", 2: "two", 3: "three"}


def _r(rule: str, text: str) -> Ruling:
    return {"rule": rule, "text": text}


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def listed(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def signed(n: int) -> str:
    return f"+ {n}" if n >= 0 else f"− {-n}"


class Words:
    """Names as the table says them: each army by its list's name, each troop by its
    profile's name (with its list position when the army has two of that profile)."""

    def __init__(self, armies: Mapping[Any, Army]) -> None:
        self.armies: dict[str, Army] = {str(s): a for s, a in armies.items()}

    @classmethod
    def of(cls, state: State) -> Words:
        return cls(state.armies)

    def side(self, side: str | None) -> str:
        army = self.armies.get(str(side))
        if army is None:
            return "the first army" if side == "a" else "the second army"
        return army.list.name

    def names(self) -> dict[str, str]:
        return {s: self.side(s) for s in ("a", "b")}

    def troop(self, troop: str | None) -> str:
        """``"a3"`` -> "Onna-bushi"; "Yari Ashigaru (2)" when the list has two of them."""
        if not troop:
            return "no troop"
        side, n = troop[:1], troop[1:]
        army = self.armies.get(side)
        if army is None or not n.isdigit() or not 1 <= int(n) <= len(army.list.entries):
            return "an unknown troop"
        entry = army.list.entries[int(n) - 1]
        profile = army.profiles.get(entry.profile)
        name = profile.name if profile is not None else entry.profile.replace("-", " ")
        same = [e for e in army.list.entries if e.profile == entry.profile]
        return name if len(same) == 1 else f"{name} ({n})"

    def owned(self, troop: str | None) -> str:
        """"Kuge vanguard's Onna-bushi"."""
        return f"{self.side((troop or '')[:1])}'s {self.troop(troop)}"


# --- commands --------------------------------------------------------------------------------

def command_words(words: Words, command: Mapping[str, Any]) -> str:
    """What a command asked, in the referee's plain words (it may name a card's value)."""
    kind = str(command.get("type"))
    who = words.side(command.get("side"))
    dice = command.get("dice")
    if kind == "begin":
        scenario = command.get("scenario")
        return ("Begin the battle" + (f", scenario {scenario}" if scenario else
                                      ", the scenario to be rolled"))
    if kind in ("strategy_roll", "initiative_roll") and isinstance(dice, Mapping):
        rolled = "; ".join(f"{words.side(s)} 1D6 {d}" for s, d in sorted(dice.items()))
        return f"{kind.split('_')[0].capitalize()} roll: {rolled}"
    if kind in ("scenario_roll", "scenery_roll"):
        return f"{kind.split('_')[0].capitalize()} roll: 1D6 {command.get('die')}"
    if kind == "secondary_mission":
        return f"{who} rolls the secret secondary-mission die: {command.get('die')}"
    if kind == "choose_side":
        return f"{who} chooses its table side and plays the {command.get('role')}"
    if kind in ("deploy", "hold_back", "activate"):
        verb = {"deploy": "deploys", "hold_back": "holds back", "activate": "activates"}[kind]
        return f"{who} {verb} {words.troop(str(command.get('troop')))}"
    if kind == "draw_cards":
        return f"{who} draws {_values(command.get('cards'))}"
    if kind == "command_duel":
        return f"{who} bids {_values(command.get('cards'))} in a command duel"
    if kind == "offering":
        return (f"{who} offers {_values([command.get('card')])} to "
                f"{'re-roll' if command.get('kind') == 'reroll' else 'add to'} a die")
    if kind == "order_roll":
        return f"{who} rolls for orders: 1D6 {command.get('die')}"
    if kind == "order":
        target = command.get("target")
        said = _order_words(str(command.get("order")),
                            words.owned(str(target)) if target else None)
        return f"{words.owned(str(command.get('troop')))}: {said}"
    if kind == "retreat_honour" and isinstance(dice, list):
        return (f"Honour roll of {words.owned(str(command.get('troop')))}, in retreat: "
                f"{' then '.join(map(str, dice))}")
    if kind in ("melee", "shoot"):
        return _combat_words(words, kind, command.get("input"))
    if kind == "marker":
        marker = MARKER_NAMES.get(str(command.get("marker")), "a")
        placed = "placed on" if command.get("on") else "cleared from"
        return (f"{_upper(_a(marker))} marker {placed} "
                f"{words.owned(str(command.get('troop')))} by hand")
    if kind == "score":
        return "The scenario's score, from what the table shows"
    if kind in ("concede", "commander_activation"):
        return f"{who} {'concedes' if kind == 'concede' else 'calls a commander activation'}"
    return kind.replace("_", " ").capitalize()


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _a(word: str) -> str:
    """"a Used", "an Immobilised"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _combat_words(words: Words, kind: str, data: Any) -> str:
    """"The melee of X and Y, dice as given", from the calculator input's ``troop`` keys."""
    data = data if isinstance(data, Mapping) else {}
    keys = ("a", "b") if kind == "melee" else ("shooter", "target")
    troops = [str(part["troop"]) for key in keys
              if isinstance(part := data.get(key), Mapping) and part.get("troop")]
    if kind == "melee":
        who = f" of {listed([words.owned(t) for t in troops])}" if troops else ""
        return f"The melee{who}, with the dice and the positions the players give"
    aimed = (f" of {words.owned(troops[0])} at {words.owned(troops[1])}"
             if len(troops) == 2 else "")
    return f"The shot{aimed}, with the dice and the positions the players give"


def _values(cards: Any) -> str:
    """Command cards by their worth, for the referee ("3 command cards worth 0, 1 and 3")."""
    if not isinstance(cards, list | tuple) or not cards:
        return "no command card"
    try:
        worth = listed([str(deck.card_value(str(c))) for c in cards])
    except ValueError:
        return plural(len(cards), "unknown command card")
    return f"{plural(len(cards), 'command card')} worth {worth}"


# --- events ----------------------------------------------------------------------------------

def event_rulings(words: Words, before: State, event: BaseModel, *, public: bool = False
                  ) -> list[Ruling]:
    """One event in plain words with its rule and arithmetic (``before``: the battle just
    before it). ``public``: words for everyone at the table, naming nothing hidden (B17)."""
    if isinstance(event, deck.CardsDrawn | deck.HandDiscarded | deck.DeckReshuffled
                  | deck.DuelBid | deck.DuelRevealed | deck.OfferingMade
                  | deck.CommanderActivated | deck.DeckPairReset):
        return [_deck(words, event, public)]
    match event:
        case kev.BattleBegun():
            return _begun(event)
        case kev.ScenarioRolled(die=die, scenario=n):
            return [_r(SCENARIOS, f"1D6 {die}: scenario {n}, {SCENARIO_NAMES.get(n, n)}")]
        case kev.StrategyRolled():
            return [_strategy(words, event)]
        case kev.SideChosen(side=side, role=role):
            return [_r(STRATEGY, f"{words.side(side)} chooses its table side and plays the "
                                 f"{role}; it places scenery first and deploys first")]
        case kev.SceneryRolled():
            return [_scenery(words, event)]
        case kev.SecondaryRolled(side=side, die=die):
            if public:
                return [_r(SECONDARY, f"{words.side(side)} rolls the secondary-mission die in "
                                      "secret: the mission stays hidden until the end")]
            return [_r(SECONDARY, f"{words.side(side)} rolls 1D6 {die} in secret: the "
                                  f"secondary mission of scenario {die}, "
                                  f"{SECONDARY_NAMES.get(die, die)}, hidden until the end")]
        case kev.TroopDeployed(side=side, troop=troop, troops=troops):
            inside = [words.troop(t) for t in troops if t != troop]
            with_ = f", with {listed(inside)} inside" if inside else ""
            return [_r(DEPLOY, f"{words.side(side)} deploys {words.troop(troop)}{with_}")]
        case kev.TroopHeldBack(side=side, troop=troop, hidden=hidden):
            if hidden:
                what = "a troop" if public else words.troop(troop)
                return [_r(CLANS, f"{words.side(side)} keeps {what} hidden (Desde las "
                                  "profundidades): from turn 2 it may appear when active "
                                  "troops are named")]
            return [_r(CLANS, f"{words.side(side)} keeps {words.troop(troop)} off the table "
                              "(Prácticas clandestinas): it enters from any table edge at the "
                              "start of turn 2")]
        case kev.TurnBegun(turn=turn):
            return [_r(MAINTENANCE, f"Turn {turn} begins with maintenance: the rout check, "
                                    "command cards, troops in retreat, then the markers")]
        case kev.RetreatRolled():
            return [_retreat(words, before, event)]
        case kev.MarkersCleared():
            return [_r(MAINTENANCE, "The Used and Stunned markers are removed from both "
                                    "armies")]
        case kev.InitiativeRolled(dice=dice, holder=holder):
            rolled = ", ".join(f"{words.side(s)} 1D6 {d}" for s, d in sorted(dice.items()))
            then = (f"{words.side(holder)} holds the initiative and decides who activates "
                    "first in each pair" if holder else "a tie: both roll again")
            return [_r(INITIATIVE, f"{rolled}: {then}")]
        case kev.TroopActivated(side=side, troop=troop):
            return [_r(ACTIVATION, f"{words.side(side)} activates {words.troop(troop)}, a "
                                   "troop without a Used marker")]
        case kev.OrderRolled():
            return [_order_roll(words, event)]
        case kev.OrderGiven():
            return [_order(words, before, event)]
        case kev.MeleeFought():
            return _melee(words, before, event)
        case kev.ShotFired():
            return _shot(words, before, event)
        case kev.MarkerSet(troop=troop, marker=marker, on=on):
            placed = "placed on" if on else "removed from"
            name = _upper(_a(MARKER_NAMES.get(marker, marker)))
            return [_r(MARKERS, f"{name} marker is {placed} {words.owned(troop)} by hand")]
        case kev.ActivationEnded(used=used):
            named = listed([words.owned(t) for t in used]) or "no troop"
            return [_r(USED, f"The activation ends: {named} "
                             f"{'is' if len(used) == 1 else 'are'} now Used")]
        case kev.ExtraActivation(side=side, commander=commander):
            if commander:
                return [_r(COMMANDER, f"{words.side(side)} activates one more troop alone")]
            return [_r(TURN_END, f"The other army has no troop left to activate: "
                                 f"{words.side(side)} may activate one more troop alone")]
        case kev.TurnEnded(turn=turn):
            return [_r(TURN_END, f"Turn {turn} ends")]
        case kev.ArmyRouted(side=side, lost=lost, starting=starting):
            return [_r(MAINTENANCE, f"{words.side(side)} has lost {lost} of its {starting} "
                                    f"starting points ({_percent(lost, starting)}), at least "
                                    "75 %: the army is in total retreat and the battle ends")]
        case kev.BattleScored():
            return _scored(words, event)
        case kev.BattleEnded(reason=reason, turn=turn, side=side):
            why = {"turns": f"turn {turn}, the last, is over",
                   "rout": f"{words.side(side)} is routed",
                   "concede": f"{words.side(side)} concedes"}[reason]
            return [_r(VICTORY, f"The battle ends: {why}; the scenario is scored")]
        case kev.Conceded(side=side):
            return [_r(VICTORY, f"{words.side(side)} concedes the battle and loses it")]
        case kev.RollChanged():
            return [_roll_changed(words, before, event)]
        case kev.DuelAnswered():
            return [_duel_answered(words, event)]
        case kev.Regenerated():
            return [_regenerated(words, event)]
        case kev.ReserveEntered(side=side, troop=troop, troops=troops, edge=edge):
            inside = [words.troop(t) for t in troops if t != troop]
            with_ = f", with {listed(inside)}" if inside else ""
            return [_r(CLANS, f"{words.side(side)}'s {words.troop(troop)}{with_} enters from "
                              f"{EDGES[edge]}, its rear touching the edge (Prácticas "
                              "clandestinas)")]
        case kev.TroopEmerged(side=side, troop=troop):
            return [_r(CLANS, f"{words.side(side)}'s hidden {words.troop(troop)} rises from "
                              "the ground (Desde las profundidades): it takes no orders this "
                              "turn and is Used at once")]
    return [_r(VICTORY, str(getattr(event, "type", "an event")).replace("_", " "))]


EDGES = {"own": "its own table edge", "enemy": "the enemy's table edge",
         "left": "the left table edge", "right": "the right table edge"}
ROLL_NAMES = {"order_roll": "order roll", "initiative_roll": "initiative roll",
              "retreat_honour": "honour roll", "strategy_roll": "strategy roll"}


def _roll_name(words: Words, roll: str) -> str:
    """``order_roll:a`` -> "Ana's order roll"; ``retreat_honour:b2`` -> "the honour roll of
    Ben's Yari Ashigaru"."""
    kind, _, whose = roll.partition(":")
    name = ROLL_NAMES.get(kind, kind.replace("_", " "))
    if whose in ("a", "b"):
        return f"{words.side(whose)}'s {name}"
    if whose:
        return f"the {name} of {words.owned(whose)}"
    return f"the {name}"


def _roll_changed(words: Words, before: State, e: kev.RollChanged) -> Ruling:
    """An offering on a roll the engine adjudicates: the die changed and the roll's result as
    it now stands (a re-roll card's value is never said: it is discarded face down)."""
    roll = _roll_name(words, e.roll)
    if e.kind == "reroll":
        how = f"re-rolls one die of {roll}: {e.before} becomes {e.after}"
    else:
        how = (f"adds the card shown to one die of {roll}: {e.before} + {e.after - e.before} "
               f"= {e.after}")
    outcome = event_rulings(words, before, e.outcome)
    now = f"; now {outcome[0]['text']}" if outcome else ""
    return _r(OFFERING, f"{words.side(e.side)} makes an offering and {how}{now}")


def _duel_answered(words: Words, e: kev.DuelAnswered) -> Ruling:
    challenged, challenger = words.troop(e.challenged), words.troop(e.challenger)
    if e.accept:
        return _r(HONOUR_DUEL, f"{words.side(e.side)}'s {challenged} accepts the duel: both "
                               f"leaders leave their units and fight alone, {challenger} "
                               "against " f"{challenged}, before the units' combat")
    shamed = listed([words.owned(t) for t in e.dishonoured]) or challenged
    return _r(HONOUR_DUEL, f"{words.side(e.side)}'s {challenged} declines the duel: {shamed} "
                           f"{'is' if len(e.dishonoured) <= 1 else 'are'} Dishonoured (−1 HO "
                           "and −1 INI for the rest of the battle), Used, and lose their "
                           "orders; the challenger may declare no other combat order")


def _regenerated(words: Words, e: kev.Regenerated) -> Ruling:
    who = words.owned(e.troop)
    if not e.returned:
        return _r(UNDEAD, f"Regeneration of {who}: 1D6 {e.die}, not a 6: nothing returns")
    if e.leader is not None:
        return _r(UNDEAD, f"Regeneration of {who}: 1D6 {e.die}: its leader "
                          f"{words.troop(e.leader)} returns with one wound left")
    return _r(UNDEAD, f"Regeneration of {who}: 1D6 {e.die}: one casualty of the last turn "
                      "returns; the wound markers stay")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part // whole} %" if whole else "all"


def _deck(words: Words, event: BaseModel, public: bool) -> Ruling:
    # event_rulings sent only the deck's events here, which are core Events
    said = deck.public_words(event, words.names())  # type: ignore[arg-type]
    text, _, rule = said.rpartition(" (")
    text, rule = (text, rule.rstrip(")")) if text else (said, deck.USING)
    if not public:
        cards: Any = getattr(event, "cards", None)
        if isinstance(event, deck.OfferingMade) and event.kind == "reroll":
            cards = [event.card]
        if isinstance(event, deck.CardsDrawn | deck.HandDiscarded | deck.DeckReshuffled
                      | deck.DuelBid | deck.OfferingMade | deck.CommanderActivated) and cards:
            text += f" (referee: {_values(cards)})"
    return _r(rule, text)


def _begun(e: kev.BattleBegun) -> list[Ruling]:
    out = []
    for _, army in sorted(e.armies.items()):
        lst = army.list
        out.append(_r(SETUP, f"{lst.name}: {CLAN_NAME.get(lst.clan, lst.clan)}, a "
                             f"{LEVELS.get(lst.commander_level, lst.commander_level)} in "
                             f"command, {plural(len(lst.entries), 'troop')} for a "
                             f"{lst.size}-point battle"))
    first = next(iter(e.armies.values()), None)
    size = f"{first.list.size} points a side" if first else "no armies"
    then = (f"scenario {e.scenario}, {SCENARIO_NAMES.get(e.scenario, e.scenario)}"
            if e.scenario else "the scenario is rolled next (1D6)")
    out.append(_r(SCENARIOS, f"The battle: {size}; {then}"))
    return out


def _level_bonus(words: Words, e: kev.StrategyRolled, side: Side) -> str:
    army = words.armies.get(side)
    level = LEVELS.get(army.list.commander_level, "") if army else ""
    die, total = e.dice[side], e.totals[side]
    return f"1D6 {die} + {total - die} ({level}) = {total}"


def _strategy(words: Words, e: kev.StrategyRolled) -> Ruling:
    rolled = "; ".join(f"{words.side(s)} {_level_bonus(words, e, s)}" for s in sorted(e.dice))
    then = (f"{words.side(e.winner)} wins the strategy roll" if e.winner
            else "a tie: both roll again")
    return _r(STRATEGY, f"{rolled}: {then}")


def _scenery(words: Words, e: kev.SceneryRolled) -> Ruling:
    extra = [f"{words.side(s)} {n}" for s, n in sorted(e.extra.items()) if n]
    more = f"; extra pieces by commander level: {', '.join(extra)}" if extra else ""
    total = e.generic + sum(e.extra.values())
    return _r(SCENERY, f"1D6 {e.die} + 1 = {plural(e.generic, 'generic piece')}{more}: "
                       f"{total} in all, placed in turn at least 20 cm apart")


def _retreat(words: Words, before: State, e: kev.RetreatRolled) -> Ruling:
    dice = " then, re-rolled by the general, ".join(map(str, e.dice))
    if e.passed:
        then = "passes: the Retreat marker is removed"
    else:
        gone = listed([words.troop(t) for t in e.removed]) or words.troop(e.troop)
        then = (f"fails: {gone} {'is' if len(e.removed) <= 1 else 'are'} removed, counted as "
                "casualties caused by the enemy")
    return _r(MAINTENANCE, f"{words.owned(e.troop)} carries a Retreat marker: honour roll "
                           f"{dice} against {_honour_terms(before, e)}or less; it {then}")


def _honour_terms(before: State, e: kev.RetreatRolled) -> str:
    """"3 (HO) − 1 (in melee) = 2 " as the engine reckons the target, or "2 " when the
    battle before the roll does not give it (TIRADA DE HONOR)."""
    troop = before.troops.get(e.troop)
    if troop is not None:
        for in_melee in (False, True):
            try:
                total, items = honour_target(before, troop, in_melee)
            except (KeyError, ValueError):
                break
            if total == e.target:
                terms = [f"{v if k == 0 else signed(v)} ({HO_ITEMS.get(i, i.replace('_', ' '))})"
                         for k, (i, v, _) in enumerate(items)]
                return f"{' '.join(terms)} = {e.target} "
    return f"{e.target} "


def _order_roll(words: Words, e: kev.OrderRolled) -> Ruling:
    terms = [f"{signed(i.value)} ({INI_ITEMS.get(i.id, i.id.replace('_', ' '))})"
             for i in e.items]
    if e.fumble:
        then = "a natural 1, a fumble: one order"
    else:
        band = 1 if e.total <= 3 else 2
        then = {1: "one order", 2: "two orders"}[band] + (" and ki" if e.ki else "")
        if band != e.orders:
            then += ", but a troop in retreat takes one order and no ki"
    return _r(ORDER_ROLL, f"{words.owned(e.troop)}: 1D6 {e.die} {' '.join(terms)} = "
                          f"{e.total}: {then}")


def _order(words: Words, before: State, e: kev.OrderGiven) -> Ruling:
    rule = ORDERS[e.order][0] if e.order in ORDERS else "B4"
    said = _order_words(e.order, words.owned(e.target) if e.target else None)
    cost = plural(e.cost, "order")
    kind = ", its action combat order of this activation" if e.combat else ""
    asserted = [w for k, w in SITUATION.items() if getattr(e.situation, k, False)]
    told = f"; the players assert: {listed(asserted)}" if asserted else ""
    marks = []
    if e.markers:
        marks.append("marked " + listed([MARKER_NAMES[m] for m in e.markers]))
    troop = before.troops.get(e.troop)
    carried = [m for m in e.cleared if troop is None or getattr(troop, m, False)]
    if carried:
        marks.append("no longer " + listed([MARKER_NAMES[m] for m in carried]))
    marked = f"; {'; '.join(marks)}" if marks else ""
    return _r(rule, f"{words.owned(e.troop)}: {said}, {cost} spent{kind}{told}{marked}")


def _order_words(order: str, target: str | None) -> str:
    """"charge Ben's Buke's Yumi Samurai", "move"."""
    _, alone, aimed = ORDERS.get(order, ("", order.replace("_", " "), "{}"))
    return aimed.format(target) if target and "{}" in aimed else alone


# --- melee and shooting ----------------------------------------------------------------------

def _pool(items: list[dict[str, Any]], table: str, seen: set[str], *, dice: bool = True
          ) -> str:
    """"2 (the troop's melee attack) + 3 (each model in melee) ..." from the calculator's
    items, each printed heading named once (``seen``: the headings already named)."""
    data = getattr(rules(), table)
    named = seen
    parts = []
    for k, item in enumerate(items):
        n = int(item.get("dice", item.get("mod", 0)))
        row = data.rows.get(item.get("id"))
        says = row.says if row is not None else str(item.get("id", "")).replace("_", " ")
        heading = str(item.get("rule") or "")
        if dice:
            head = f", {heading}" if heading and heading not in named else ""
            parts.append(f"{n if k == 0 else signed(n)} ({says}{head})")
        else:
            head = f" under {heading}" if heading and heading not in named else ""
            parts.append(f"{says} {'+' if n >= 0 else '−'}{abs(n)}{head}")
        named.add(heading)
    return (" " if dice else "; ").join(parts)


def _target(target: int, items: list[dict[str, Any]], table: str, seen: set[str]) -> str:
    mods = f" ({_pool(items, table, seen, dice=False)})" if items else ""
    if target >= 7:
        return f"only a 6 succeeds{mods}"
    return f"{max(target, 2)}+{mods}"


def _rolls(side: str, out: Mapping[str, Any], tables: tuple[str, str, str], roll: str,
           heading: str) -> str:
    """One side's dice: its pool, its hits and its wounds (``heading``: the ruling's own)."""
    pool_table, hit_table, wound_table = tables
    seen = {heading}
    pool = int(out.get("pool", 0))
    items = _pool(list(out.get("pool_items", [])), pool_table, seen)
    size = (f"{'−' if pool < 0 else ''}{abs(pool)}: a pool of 0 or less rolls one die, which "
            "succeeds on a 6 only" if out.get("zero_pool") else plural(pool, "die", "dice"))
    target = _target(int(out.get("hit_target", 4)), list(out.get("hit_items", [])), hit_table,
                     seen)
    text = (f"{side}: {items} = {size}; {roll} at {target}: "
            f"{plural(int(out.get('hits', 0)), 'hit')} "
            f"({plural(int(out.get('fumbles', 0)), 'fumble')}, "
            f"{plural(int(out.get('criticals', 0)), 'critical')})")
    if out.get("hits"):
        wound = _target(int(out.get("wound_target", 4)), list(out.get("wound_items", [])),
                        wound_table, seen)
        text += f"; wounds at {wound}: {plural(int(out.get('wounds', 0)), 'wound')}"
        if out.get("stunned_caused"):
            text += f", {plural(int(out['stunned_caused']), 'Stunned die', 'Stunned dice')}"
    return text


def _taken(words: Words, troop: str, taken: Mapping[str, Any], unit: bool) -> str:
    """What a troop suffered: casualties, wound markers, the leader's wounds."""
    name = words.owned(troop)
    on = " on the unit" if unit else ""
    parts = [plural(int(taken.get("unit_wounds", 0)), "wound") + on]
    if taken.get("to_leader"):
        parts.append(f"{plural(int(taken['to_leader']), 'critical')} on the leader")
    if taken.get("protected"):
        parts.append(f"{taken['protected']} taken by the unit protecting the leader")
    if taken.get("stunned_converted"):
        parts.append(f"{plural(int(taken['stunned_converted']), 'pair')} of Stunned markers "
                     "turned into wounds")
    if taken.get("lost_wounds"):
        parts.append(f"{plural(int(taken['lost_wounds']), 'wound')} lost beyond the models "
                     "in sight")
    dead = plural(int(taken.get("casualties", 0)), "casualty", "casualties")
    said = (f"{name}: {listed(parts)}: {dead}, "
            f"{plural(int(taken.get('wound_markers_after', 0)), 'wound marker')} left")
    if "stunned_after" in taken:
        said += f", {plural(int(taken.get('stunned_after', 0)), 'Stunned marker')}"
    if taken.get("leader_killed"):
        said += "; the leader is killed"
    elif taken.get("leader_wounds_after"):
        said += f"; the leader carries {plural(int(taken['leader_wounds_after']), 'wound')}"
    if taken.get("wiped_out"):
        said += "; the troop is wiped out"
    return said


def _honour(words: Words, troop: str, honour: Mapping[str, Any]) -> str:
    terms = []
    for k, item in enumerate(honour.get("ho_items", [])):
        n = int(item.get("mod", 0))
        what = HO_ITEMS.get(str(item.get("id")), str(item.get("id")).replace("_", " "))
        terms.append(f"{n if k == 0 else signed(n)} ({what})")
    dice = " then, re-rolled, ".join(map(str, honour.get("dice", [])))
    outcome = OUTCOMES.get(str(honour.get("outcome")), "fails")
    move = f", {honour['move']} cm" if honour.get("move") else ""
    marks = [MARKER_NAMES.get(m, m) for m in honour.get("markers", [])]
    marked = f"; marked {listed(marks)}" if marks else ""
    extra = honour.get("extra_casualties")
    more = f"; {plural(int(extra), 'more casualty', 'more casualties')}" if extra else ""
    return (f"{words.owned(troop)} takes an honour roll: {dice} against "
            f"{' '.join(terms)} = {honour.get('target')} or less: it {outcome}{move}{marked}"
            f"{more}")


def _unit(before: State, troop: str) -> bool:
    """A troop of several models (its wounds fall on the unit, its leader's apart)."""
    found = before.troops.get(troop)
    return found is None or found.models_start > 1


def _melee(words: Words, before: State, e: kev.MeleeFought) -> list[Ruling]:
    r = e.ruling
    out = []
    for side in ("a", "b"):
        if side in r and side in e.troops:
            out.append(_r(f"B5.1 {COMBAT}",
                          _rolls(words.owned(e.troops[side]), r[side], MELEE_TABLES,
                                 "combat dice", COMBAT)))
    for side in ("a", "b"):
        if side in r and side in e.troops and r[side].get("taken"):
            out.append(_r(CASUALTIES, _taken(words, e.troops[side], r[side]["taken"],
                                             _unit(before, e.troops[side]))))
    loser, winner = r.get("loser"), r.get("winner")
    if loser in e.troops and winner in e.troops:
        said = (f"{words.owned(e.troops[loser])} loses the melee to "
                f"{words.owned(e.troops[winner])}")
    else:
        said = "Equal losses: nobody loses the melee and nobody takes an honour roll"
    initiative = r.get("combat_initiative")
    if initiative in e.troops:
        said += f"; {words.side(initiative)} has the combat initiative"
    out.append(_r(RESOLUTION, said))
    for side in ("a", "b"):
        honour = r.get(side, {}).get("honour") if isinstance(r.get(side), dict) else None
        if honour and side in e.troops:
            out.append(_r(HONOUR, _honour(words, e.troops[side], honour)))
    out += _dead_generals(words, e.general_killed)
    return out


def _shot(words: Words, before: State, e: kev.ShotFired) -> list[Ruling]:
    r = e.ruling
    if r.get("out_of_range"):
        return [_r("B6 DISTANCIA DE DISPARO", f"{words.owned(e.target)} is out of range at "
                                              f"{r.get('band')} distance: no roll is made")]
    out = [_r(f"B6 {SHOOTING}",
              f"At {r.get('band')} range, " + _rolls(words.owned(e.shooter), r, SHOOT_TABLES,
                                                     "shooting dice", SHOOTING))]
    if r.get("taken"):
        out.append(_r(CASUALTIES, _taken(words, e.target, r["taken"], _unit(before, e.target))))
    if r.get("honour"):
        why = ("it lost half its models or more" if r.get("honour_trigger") == "half_models"
               else "a single model wounded")
        out.append(_r(HONOUR, f"{why.capitalize()}: " + _honour(words, e.target, r["honour"])))
    if r.get("unloaded_after"):
        out.append(_r("B4 DISPARAR", f"{words.owned(e.shooter)}'s gunpowder weapon is now "
                                     "Unloaded"))
    return out + _dead_generals(words, e.general_killed)


def _dead_generals(words: Words, sides: Sequence[str]) -> list[Ruling]:
    return [_r("B2.7 GENERAL DEL EJÉRCITO", f"{words.side(s)}'s general is dead: −1 to its "
                                              "order and honour rolls for the rest of the "
                                              "battle") for s in sides]


def _score_term(line: kev.ScoreLine) -> str:
    """What one line of the score counts, in words ("3 enemy troops destroyed, 2 each")."""
    if line.id == "more_points":
        return f"more army points on the table: {line.detail}" if line.detail else \
            SCORE_LINES["more_points"]
    if line.id == "destroyed":
        return f"{plural(line.vp // 2, 'enemy troop')} destroyed, 2 each"
    if line.id == "half_lost":
        their = "its" if line.vp == 1 else "their"
        return f"{plural(line.vp, 'enemy unit')} that lost half {their} models or more, 1 each"
    if line.id.startswith("secondary_"):
        n = int(line.id.removeprefix("secondary_") or 0)
        return f"the secondary mission, {SECONDARY_NAMES.get(n, n)}"
    if line.id in ("head_hunt", "casualty_control", "drive_out"):
        return f"the secondary mission, {SCORE_LINES[line.id]}"
    return SCORE_LINES.get(line.id, line.id.replace("_", " "))


def _scored(words: Words, e: kev.BattleScored) -> list[Ruling]:
    name = SCENARIO_NAMES.get(e.scenario, str(e.scenario))
    out = []
    for side in ("a", "b"):
        terms = []
        for line in e.lines.get(side, ()):
            terms.append(f"{line.vp} ({_score_term(line)})")
        total = e.vp.get(side, 0)
        sum_ = (f"{' + '.join(terms)} = {plural(total, 'victory point')}" if terms
                else "no victory points")
        out.append(_r(f"B15 {name.upper()}", f"{words.side(side)}: {sum_}"))
    if e.winner is not None:
        out.append(_r(VICTORY, f"{words.side(e.winner)} wins the battle"))
    else:
        out.append(_r(VICTORY, "A draw: equal victory points"))
    return out
