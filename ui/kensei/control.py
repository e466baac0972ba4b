"""The one part of the Kensei app that holds the battle.

:class:`KenseiControl` runs the core's :class:`~companion.core.game.Game` with
:class:`~companion.games.kensei.battle.rules.KenseiRules`. Every die is given as rolled or
rolled here on request ("Roll for me", the app's seeded Random: the engine never rolls), and the
virtual command deck deals from a seeded Random of its own per side (``deck.deal``). Screens get
a :class:`Snapshot`: the public view (:func:`~companion.games.kensei.battle.views.public_view`:
no hand, no face-down card, no secondary mission before the end) and the rulings feed, never
the state. What one player alone may see comes from :meth:`KenseiControl.private`, which only
a private step calls.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.events import Command, Event
from companion.core.game import Accepted, Game, Rejection
from companion.core.store import CommandRecorder
from companion.games.kensei.armylist import ArmyList
from companion.games.kensei.battle import deck
from companion.games.kensei.battle.commands import Army, Begin, Side
from companion.games.kensei.battle.rules import KenseiRules
from companion.games.kensei.battle.state import State
from companion.games.kensei.battle.troops import leader_of, name, profile
from companion.games.kensei.battle.views import public_view, side_view
from companion.games.kensei.explain_words import Words, event_rulings
from companion.games.kensei.profiles import Profile
from firmware_bridge.tablelink import TableLink
from ui.kensei import battle_words as bw
from ui.kensei import words as w

KenseiGame = Game[State, Any, Any]


@dataclass(frozen=True)
class FeedLine:
    """One line of the rulings feed: ``kind`` ruling or refused; ``rule`` what it cites."""

    kind: str
    text: str
    rule: str | None = None


@dataclass(frozen=True)
class Snapshot:
    view: dict[str, Any]
    """The public view: what the whole table may see."""
    feed: tuple[FeedLine, ...]
    names: dict[str, str]
    """Each side's army name ("Kuge vanguard"); never "a"."""

    @property
    def phase(self) -> str:
        return str(self.view["phase"])

    def troops(self, side: str | None = None) -> list[dict[str, Any]]:
        return [t for t in self.view["troops"] if side is None or t["side"] == side]

    def troop(self, tid: str) -> dict[str, Any]:
        return next(t for t in self.view["troops"] if t["id"] == tid)

    def eligible(self, side: str) -> list[dict[str, Any]]:
        """Troops ``side`` may name for an activation (B3.3 step 1): on the table (or leaving
        the reserve tray from turn 2), alive, not Used, not inside a unit (the engine's
        :func:`~companion.games.kensei.battle.troops.eligible`, in the public view)."""
        return [t for t in self.troops(side) if t["eligible"]]


def army_of(lst: ArmyList, profiles: Mapping[str, Profile]) -> Army:
    """The list and every profile it names, so the record stands on its own."""
    return Army(list=lst, profiles={e.profile: profiles[e.profile] for e in lst.entries
                                    if e.profile in profiles})


class KenseiControl:
    """See the module docstring."""

    def __init__(self, seed: int = 0, rules: KenseiRules | None = None) -> None:
        self.rules = rules or KenseiRules()
        self.rng = random.Random(seed)
        self.dealers: dict[Side, random.Random] = {"a": random.Random(seed * 2 + 1),
                                                   "b": random.Random(seed * 2 + 2)}
        """The virtual deck's shuffles, one per side (a record holds the cards dealt)."""
        self.rng_secret = random.Random(seed * 7 + 3)
        """"Roll for me" on a private step (a secret die never shares the public dice)."""
        self._game: KenseiGame = Game(self.rules)
        self.feed: list[FeedLine] = []
        self.names: dict[str, str] = {}
        self.link: TableLink | None = None
        """The readers, the bridge and the table session (B18), when the battle is played at
        the reader table: a troop lifted off its reserve tray deploys, one laid on the
        command pad activates (:mod:`companion.games.kensei.table_session`)."""
        self._described = 0
        self.on_stop: list[Callable[[], object]] = []

    @property
    def game(self) -> KenseiGame:
        return self.link.game if self.link is not None else self._game

    def attach(self, link: TableLink) -> None:
        """Play at the reader table: ``link`` follows this battle from now on."""
        self.link = link
        link.follow(self._game, self._game.recorder
                    if isinstance(self._game.recorder, CommandRecorder) else None)

    def follow(self, game: KenseiGame) -> None:
        self._game = game
        if self.link is not None:
            self.link.follow(game)
        self.feed = []
        self._described = len(game.events)
        state = game.state
        self.names = {s: a.list.name for s, a in state.armies.items()}
        _distinct_names(self.names)

    def table_lines(self) -> list[str]:
        """At the reader table: what the trays show that the rulings do not (B7: the models on
        a casualty tray against the models removed), in public words; empty when they agree."""
        if self.link is None:
            return []
        # the link is game-neutral: its session's rules are Kensei's table rules here
        found: list[str] = self.link.session.tell(
            lambda rules: rules.casualty_discrepancies())  # type: ignore[attr-defined]
        return found

    def pad_cards(self, side: Side) -> list[str]:
        """The tagged command cards face down on ``side``'s card pad (B9.1): for that player's
        own command only, never for the shared screen (a card id reveals its value)."""
        if self.link is None:
            return []
        # as in table_lines: the session's rules are Kensei's table rules
        found: tuple[str, ...] = self.link.session.tell(
            lambda rules: rules.pad_cards(side))  # type: ignore[attr-defined]
        return list(found)

    def stop(self) -> None:
        """Leave the reader table (the app keeps its readers running for the next battle)."""
        self.link = None
        for undo in self.on_stop:
            undo()
        self.on_stop = []

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def events(self) -> tuple[Event, ...]:
        return self.game.events

    def snapshot(self) -> Snapshot:
        self._catch_up()
        return Snapshot(public_view(self.state), tuple(self.feed[-6:]), dict(self.names))

    def _catch_up(self) -> None:
        """The rulings feed gets every event in public words, whoever caused it (a tap on the
        screen, or a tag the readers saw)."""
        events = self.game.events
        for event in events[self._described:]:
            line = self.describe(event)
            if line is not None:
                self.feed.append(line)
        self._described = len(events)

    def private(self, side: Side) -> dict[str, Any]:
        """One player's secrets (their hand, their secondary-mission die): for a private step
        alone, never for the shared screen."""
        view = side_view(self.state, side)
        return {"hand": view["hand"], "secondary_die": view["secondary_die"]}

    def honour_target(self, tid: str, in_melee: bool) -> tuple[int, list[str]]:
        """A Retreat marker's honour roll (B3.1 step 3): the most the die may show, and its
        terms in words ("HO 3", "in melee −1")."""
        from companion.games.kensei.battle.troops import honour_target

        target, items = honour_target(self.state, self.state.troops[tid], in_melee)
        words = {"base_ho": "HO", "dishonoured": "Dishonoured", "general_dead": "general dead",
                 "in_melee": "in melee"}
        return target, [f"{words.get(i, i)} {v:+d}" if n else f"{words.get(i, i)} {v}"
                        for n, (i, v, _rule) in enumerate(items)]

    def deployer(self) -> Side | None:
        """Whose deployment it is (B1.3 step 5: alternation, a side with none left passes)."""
        from companion.games.kensei.battle.pregame import deployer

        return deployer(self.state)

    def deployable(self, side: Side) -> list[tuple[str, str]]:
        """The troops ``side`` may deploy now (units first), as (id, name): the lists are
        open, so this is for everyone to see (a held-back troop is named only to its owner)."""
        from companion.games.kensei.battle.pregame import waiting

        return [(t.id, name(self.state, t)) for t in waiting(self.state, side)]

    def holds_back(self, side: Side) -> bool:
        """The clans that may keep a troop in the reserve tray (B12)."""
        from companion.games.kensei.battle.pregame import HOLDERS

        return self.state.army(side).list.clan in HOLDERS and not any(
            t.held_back for t in self.state.side_troops(side))

    # ------------------------------------------------------------------ commands

    def submit(self, command: Command, say: str | None = None) -> Rejection | None:
        """Submit ``command``; a refusal goes to the feed in plain words, citing its rule
        (a hidden refusal only in its public words)."""
        if isinstance(command, Begin):
            self.names = {s: a.list.name for s, a in command.armies.items()}
            _distinct_names(self.names)
        result = (self.link.submit(command) if self.link is not None
                  else self.game.submit(command))
        if isinstance(result, Rejection):
            text = result.message
            if command.type in ("melee", "shoot"):  # a key path of the form: its words
                text = w.plain(text, self.names)
            self.feed.append(FeedLine("refused", sentence(text), result.rule))
            return result
        assert isinstance(result, Accepted)
        self._catch_up()
        if say:
            self.feed.append(FeedLine("ruling", say))
        return None

    def describe(self, event: Event) -> FeedLine | None:
        """An event in public words, citing its rule (never a card id, never a mission)."""
        n = self.names
        kind = event.type
        if kind in _DECK_EVENTS:
            text = deck.public_words(event, n)
            words, _, rule = text.rpartition(" (")
            return FeedLine("ruling", sentence(words), rule.rstrip(")") or None)
        data = event.model_dump()
        state = self.state
        if kind == "scenario_rolled":
            return FeedLine("ruling", f"Scenario {data['scenario']}: "
                            f"{bw.SCENARIOS[data['scenario']]}.", "B15")
        if kind == "strategy_rolled":
            totals = data["totals"]
            text = (f"Strategy roll: {n['a']} {data['dice']['a']} + level = {totals['a']}, "
                    f"{n['b']} {data['dice']['b']} + level = {totals['b']}: ")
            text += (f"{n[data['winner']]} wins." if data["winner"] else "a tie, roll again.")
            return FeedLine("ruling", text, "B1.3 TIRADA DE ESTRATEGIA")
        if kind == "side_chosen":
            return FeedLine("ruling", f"{n[data['side']]} is the {data['role']}.", "B1.3")
        if kind == "scenery_rolled":
            return FeedLine("ruling", f"Scenery: die {data['die']} + 1 = {data['generic']} "
                            f"generic pieces, {sum(data['extra'].values())} more for the "
                            "commanders.", "B1.3 ESCENOGRAFÍA")
        if kind == "secondary_rolled":
            return FeedLine("ruling", f"{n[data['side']]} rolled a secondary mission in "
                            "secret.", "B15")
        if kind == "troop_deployed":
            return FeedLine("ruling", f"{n[data['side']]} deploys "
                            f"{_troop_name(state, data['troop'])}.", "B1.3 DESPLIEGUE")
        if kind == "troop_held_back":
            what = ("a troop" if data["hidden"] else _troop_name(state, data["troop"]))
            return FeedLine("ruling", f"{n[data['side']]} keeps {what} in the reserve tray.",
                            "B12")
        if kind == "turn_begun":
            return FeedLine("ruling", f"Turn {data['turn']} begins.", "B3")
        if kind == "retreat_rolled":
            word = "passes" if data["passed"] else "fails: the troop is removed"
            return FeedLine("ruling", f"{_troop_name(state, data['troop'])}: honour roll "
                            f"{', '.join(map(str, data['dice']))} against {data['target']}, "
                            f"{word}.", "B3.1 FASE DE MANTENIMIENTO")
        if kind == "markers_cleared":
            return FeedLine("ruling", "Used and Stunned markers cleared.", "B3.1")
        if kind == "initiative_rolled":
            holder = data["holder"]
            return FeedLine("ruling", f"Initiative roll: {n['a']} {data['dice']['a']}, "
                            f"{n['b']} {data['dice']['b']}: " + (
                                f"{n[holder]} holds the initiative." if holder
                                else "a tie, roll again."), "B3.2 FASE DE INICIATIVA")
        if kind == "troop_activated":
            return FeedLine("ruling", f"{n[data['side']]} activates "
                            f"{_troop_name(state, data['troop'])}.", "B3.3")
        if kind == "order_rolled":
            return FeedLine("ruling", f"Order roll, {_troop_name(state, data['troop'])}: "
                            f"{bw.order_sum(data['die'], data['items'], data['total'])}: "
                            f"{bw.orders_result(data['orders'], data['fumble'], data['ki'])}.",
                            "B3.3 TIRADA DE ÓRDENES")
        if kind == "order_given":
            return FeedLine("ruling", f"{_troop_name(state, data['troop'])}: "
                            f"{bw.ORDERS[data['order']]}"
                            + (f" against {_troop_name(state, data['target'])}"
                               if data["target"] else "")
                            + f" ({bw.plural(data['cost'], 'order')}).", "B4")
        if kind in ("melee_fought", "shot_fired"):
            parts = [_change_words(state, c) for c in data["changes"]]
            what = "Melee" if kind == "melee_fought" else "Shot"
            return FeedLine("ruling", f"{what}: " + "; ".join(p for p in parts if p) + ".",
                            "B7")
        if kind == "activation_ended":
            return FeedLine("ruling", f"{bw.plural(len(data['used']), 'troop')} now Used.",
                            "B3.3")
        if kind == "extra_activation":
            return FeedLine("ruling", f"{n[data['side']]} activates one more troop alone.",
                            "B3.3 FIN DEL TURNO")
        if kind == "turn_ended":
            return FeedLine("ruling", f"Turn {data['turn']} ends.", "B3.3 FIN DEL TURNO")
        if kind == "army_routed":
            return FeedLine("ruling", f"{n[data['side']]} is routed: {data['lost']} of "
                            f"{data['starting']} points lost.", "B3.1")
        if kind == "battle_ended":
            return FeedLine("ruling", "The battle is over.", "B15")
        if kind == "marker_set":
            word = bw.MARKERS[data["marker"]]
            return FeedLine("ruling", f"{_troop_name(state, data['troop'])}: {word} "
                            f"{'placed' if data['on'] else 'removed'}.", "B1.1")
        if kind == "conceded":
            return FeedLine("ruling", f"{n[data['side']]} concedes.", "B15")
        if kind in _EXPLAINED:  # the record's public words, for the feed as for the referee
            said = event_rulings(Words.of(state), state, event, public=True)
            return FeedLine("ruling", sentence(str(said[0]["text"])), str(said[0]["rule"]))
        return None

    def roll(self, count: int = 1) -> list[int]:
        """"Roll for me": the app's seeded dice."""
        return [self.rng.randint(1, 6) for _ in range(count)]

    def deal(self, side: Side) -> tuple[list[str], int]:
        """The cards the virtual deck gives ``side`` this maintenance (hand size and the
        commander level's extras, B9.1, B14) and how many go under the deck."""
        lst = self.state.army(side).list
        extra = deck.extra_draws(lst.commander_level)
        count = deck.hand_size(lst.size) + extra
        decks = self.state.decks
        assert decks is not None, "the deck comes with the battle"
        return list(deck.deal(decks, side, count, self.dealers[side])), extra

    # ------------------------------------------------------------------ calculator prefill

    def melee_prefill(self, attacker: str, defender: str, order: str) -> dict[str, Any]:
        """The melee calculator's input as the battle knows it (B5): each troop's class,
        models, weapon, markers and leader; the players add what the table shows.

        ``models_in_melee`` opens at a starting value the players correct (contact is
        theirs to assert, B18): the front rank that can touch the enemy, at most five
        models of a unit (:func:`models_in_contact`)."""
        state = self.state
        a, b = state.troops[attacker], state.troops[defender]
        sides = {a.side: (a, order), b.side: (b, "fight_reaction" if order == "charge"
                                              else "fight")}
        data: dict[str, Any] = {"turn_initiative": state.initiative}
        for side, (troop, given) in sides.items():
            p = profile(state, troop)
            entry: dict[str, Any] = {
                "troop": troop.id, "order": given, **_common(state, troop),
                "at": p.at, "ho": p.ho, "models": troop.models, "weapon": p.weapon,
                "models_in_melee": models_in_contact(troop.models, troop.models_start),
                "skirmishers": p.troop_type == "skirmishers", "stunned": troop.stunned,
                "used": troop.used, "retreat_marker": troop.retreat,
                "parapeted": troop.parapeted}
            leader = leader_of(state, troop)
            if leader is not None:
                lp = profile(state, leader)
                entry["leader"] = {"class": lp.cls, "contact": "direct", "in_front": True,
                                   "at": lp.at, "ho": lp.ho, "hr": lp.hr,
                                   "wounds": leader.wound_markers, "general": leader.general}
            data[side] = entry
        return data

    def shoot_prefill(self, shooter: str, target: str) -> dict[str, Any]:
        """The shoot calculator's input as the battle knows it (B6). The distance (20 cm) and
        the models with line of sight (all of them) are starting values the players correct:
        the table is theirs to measure (B18)."""
        state = self.state
        s, t = state.troops[shooter], state.troops[target]
        p = profile(state, s)
        sh: dict[str, Any] = {"troop": s.id, "class": p.cls, "at": p.at_ranged,
                              "single": s.models_start == 1, "weapon": p.ranged,
                              "unloaded": s.unloaded, "parapeted": s.parapeted,
                              "distance_cm": 20, "models_with_los": s.models}
        lead = leader_of(state, s)
        if lead is not None:
            sh["leader"] = {"class": profile(state, lead).cls, "los": True,
                            "at": profile(state, lead).at_ranged}
        q = profile(state, t)
        tg: dict[str, Any] = {"troop": t.id, **_common(state, t), "ho": q.ho,
                              "models": t.models, "visible": t.models,
                              "parapeted": t.parapeted, "ran": t.ran}
        tlead = leader_of(state, t)
        if tlead is not None:
            lp = profile(state, tlead)
            tg["leader"] = {"class": lp.cls, "in_front": True, "affected": False, "ho": lp.ho,
                            "hr": lp.hr, "wounds": tlead.wound_markers,
                            "general": tlead.general}
        return {"shooter": sh, "target": tg}


FRONT_RANK = 5
"""A unit's front rank as the demo lists deploy it: the models that can be in contact."""


def models_in_contact(models: int, models_start: int) -> int:
    """The starting ``models_in_melee`` of a melee form, for the players to correct: the
    front rank of a unit (at most :data:`FRONT_RANK` models), 1 for a single model (B5, B18:
    contact is asserted by the players, not sensed)."""
    if models_start == 1:
        return 1 if models else 0
    return min(models, FRONT_RANK)


_DECK_EVENTS = frozenset({"cards_drawn", "hand_discarded", "deck_reshuffled", "duel_bid",
                          "duel_revealed", "offering_made", "commander_activated",
                          "deck_pair_reset"})


_EXPLAINED = frozenset({"roll_changed", "duel_answered", "regenerated", "reserve_entered",
                        "troop_emerged"})
"""Events the feed says in :mod:`~companion.games.kensei.explain_words`' public words."""


def _troop_name(state: State, tid: str | None) -> str:
    if tid is None or tid not in state.troops:
        return "a troop"
    return name(state, state.troops[tid])


def _change_words(state: State, c: dict[str, Any]) -> str:
    who = _troop_name(state, c["troop"])
    bits = []
    if c["casualties"]:
        bits.append(bw.plural(c["casualties"], "casualty", "casualties"))
    if c["wiped_out"]:
        bits.append("wiped out")
    if c["leader_killed"]:
        bits.append("its leader killed")
    bits += [bw.MARKERS[m] for m in c["markers"]]
    if c["unloaded"]:
        bits.append("Unloaded")
    return f"{who} " + (", ".join(bits) if bits else "unharmed")


def _common(state: State, troop: Any) -> dict[str, Any]:
    p = profile(state, troop)
    return {"class": p.cls, "hr": p.hr, "single": troop.models_start == 1, "trait": p.trait,
            "mounted": p.mounted, "armour": p.armour == "samurai",
            "dishonoured": troop.dishonoured,
            "general_dead": bool(state.general_dead.get(troop.side)),
            "wound_markers": troop.wound_markers}


def _distinct_names(names: dict[str, str]) -> None:
    """Two armies of one name are told apart by their side of the table."""
    if len(set(names.values())) < len(names):
        for side in list(names):
            names[side] = f"{names[side]} ({'first' if side == 'a' else 'second'} player)"


def sentence(message: str) -> str:
    """An engine message as a sentence on the screen."""
    text = message.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


