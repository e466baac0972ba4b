"""Instant victory in combat (2.1, 9.1, 9.5)."""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.sekigahara.combat.events import InstantVictory
from companion.games.sekigahara.combat.losses import lost_units
from companion.games.sekigahara.combat.state import CombatState
from companion.games.sekigahara.components import Clan, Disk, Side


def instant_victory(state: CombatState, units: Iterable[str]) -> InstantVictory | None:
    """Who wins instantly if ``units`` are eliminated (2.1).

    Ishida Mitsunari eliminated (9.5) or Hideyori captured (9.1): Tokugawa wins. Tokugawa Ieyasu
    eliminated: Ishida wins, also when both sides win in the same combat.
    """
    faces = state.setup.blocks
    lost = set(units)
    protagonists = {faces[u].clan for u in lost if u in faces and faces[u].is_protagonist}
    ieyasu = Clan.TOKUGAWA in protagonists
    mitsunari = Clan.ISHIDA in protagonists
    hideyori = Disk.HIDEYORI.value in lost
    if ieyasu:
        reason = "Tokugawa Ieyasu is eliminated"
        if mitsunari:
            reason += " in the same battle as Ishida Mitsunari (both win: Ishida prevails)"
        return InstantVictory(rule="2.1", winner=Side.ISHIDA, reason=reason)
    if mitsunari:
        return InstantVictory(
            rule="2.1", winner=Side.TOKUGAWA, reason="Ishida Mitsunari is eliminated"
        )
    if hideyori:
        return InstantVictory(
            rule="9.1", winner=Side.TOKUGAWA, reason="Toyotomi Hideyori is captured"
        )
    return None


def certain_eliminations(state: CombatState) -> list[str]:
    """Units lost so far, plus those each side is bound to lose whatever it chooses."""
    return [u for side in Side for u in lost_units(state, side)]
