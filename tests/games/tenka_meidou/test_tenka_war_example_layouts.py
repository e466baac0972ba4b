"""Clarification TM9: on how many castle layouts of the bundled board does the rulebook's War
example (section 6, its pictures lost) hold? Counted here, so docs/tenka-meidou.md can say it.

The example names castles 2, 3, 4, 5 and 12 only. Its sentences, read against 5.II.3 (the
winner reinforces every adjacent unresolved zone holding its soldiers):

- zone 2: Miguel reinforces zones 5 and 12, and no other. Miguel has soldiers in 3 (he ties
  Isabel there) and in 4 (all three have the same soldiers), so 2 borders 5 and 12, not 3 or 4;
- zone 3: Isabel reinforces 4 and 5, so 3 borders 4 and 5;
- zone 4: Isabel reinforces 5, so 4 borders 5.

Isabel's other soldiers (none in the unresolved zones next to 3, 4 or 5) and the other six
castles (6-11, any of 720 arrangements) are the reconstruction's free choice.
"""

from __future__ import annotations

import itertools

import pytest
from _tenka_kit import B, R, Y, rulebook_example

from companion.games.tenka_meidou.components import Colour, default_board, default_components
from companion.games.tenka_meidou.war import fight_war

BOARD = default_board()
Layout = tuple[str, str, str, str, str]
"""The zones of castles 2, 3, 4, 5 and 12."""


def fits(z: Layout) -> bool:
    """The borders the example's sentences ask for (module docstring)."""
    two, three, four, five, twelve = z

    def near(a: str, b: str) -> bool:
        return BOARD.border(a, b) is not None

    return (near(two, five) and near(two, twelve) and not near(two, three)
            and not near(two, four) and near(three, four) and near(three, five)
            and near(four, five))


def plays_the_example(z: Layout) -> bool:
    """Fight the War on the example's table laid on ``z``: zones 2-5 with the soldiers of
    examples/rulebook-war.json, 1 soldier of Miguel on the 12, nothing else; the six other
    castles in zone order. Does every sentence of the example hold?"""
    two, three, four, five, twelve = z
    named = dict(zip(z, (2, 3, 4, 5, 12), strict=True))
    rest = iter(range(6, 12))
    castles = {zone: named.get(zone) or next(rest) for zone in BOARD.zone_ids}
    soldiers: dict[str, dict[Colour, int]] = {
        two: {Y: 2, B: 1}, three: {R: 2, Y: 2}, four: {R: 1, B: 1, Y: 1},
        five: {R: 1, B: 1, Y: 3}, twelve: {Y: 1}}
    war = fight_war(players=(R, B, Y), swords={R: 3, B: 2, Y: 1}, castles=castles,
                    soldiers=soldiers, daimyo_at={}, board=BOARD,
                    components=default_components())
    z2, z3, z4, z5 = war.zones[:4]
    return ((z2.winner, z2.second, z2.small_value, z2.reinforcements)
            == (Y, B, 1, {five: 2, twelve: 2})
            and (z3.winner, z3.second, z3.small_value, z3.reinforcements)
            == (R, Y, 1, {four: 2, five: 2})
            and (z4.winner, z4.second, z4.small_value, z4.reinforcements, z4.power[R])
            == (R, B, 2, {five: 2}, 3)
            and (z5.winner, z5.second, z5.small_value, z5.reinforcements, z5.power[R])
            == (R, Y, 2, {}, z5.power[Y]))


def layouts() -> list[Layout]:
    return [z for z in itertools.permutations(BOARD.zone_ids, 5) if fits(z)]


def test_tm9_thirty_six_layouts_fit_the_example_and_the_bundled_one_is_among_them() -> None:
    found = layouts()
    assert len(found) == 36
    assert len({(z[0], z[3], z[4], frozenset(z[1:3])) for z in found}) == 18  # 3 and 4 swap
    castles = rulebook_example()["castles"]
    ours = tuple(next(zone for zone, v in castles.items() if v == n) for n in (2, 3, 4, 5, 12))
    assert ours == ("tsutsujigasaki", "oko", "yoshida_koriyama", "kyoto", "kiyosu")
    assert ours in found
    assert all(plays_the_example(z) for z in found)  # zones 2-5 go the same way on each


@pytest.mark.slow
def test_tm9_no_other_layout_plays_the_example() -> None:
    """All 55,440 ways to lay castles 2, 3, 4, 5 and 12, fought (about 15 s)."""
    played = [z for z in itertools.permutations(BOARD.zone_ids, 5) if plays_the_example(z)]
    assert played == layouts()
