"""What the screen asks the players to do on the table, so that the table check expects it.

The engine's state says where a block is in the rules; the table may lag behind while the players
do what the screen asks, and that is never a discrepancy:

* during the set-up a block with a set-up symbol waits in the game box until the readers see it
  where the map prints its symbol (5.2.1);
* after a battle a deployed block stays on its deployment tray until it is seen off it: "after
  the battle is concluded, revealed blocks again become concealed" (8.2.1);
* a block eliminated on the map (an Overrun, 7.4) stays expected where it stands until it is seen
  on the casualty tray.

:class:`TableSteps` keeps the little it must remember of what the readers saw, and says each step
in plain words (:meth:`TableSteps.said`), counts and location names only (3.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.games.sekigahara.components import SetupSymbol, Side
from companion.games.sekigahara.engine import events as ev
from companion.games.sekigahara.engine.data import BOARD, FACES, side_of
from companion.games.sekigahara.engine.game import SekigaharaGame
from companion.games.sekigahara.engine.state import DEAD, MORI_BOX, Phase, State
from companion.games.sekigahara.zones import CASUALTIES, MORI_ZONE, deployment_zone, zone_name


@dataclass
class TableSteps:
    """The steps on the table for a live game; re-reads ``game.state`` on every call."""

    game: SekigaharaGame
    stood: set[str] = field(default_factory=set)
    """Blocks with a set-up symbol seen where the map prints it now (5.2.1)."""
    _put_back: set[tuple[str, int]] = field(default_factory=set)
    """(block, index of its deployment event): seen off its tray since that battle ended."""
    _to_bury: dict[str, str] = field(default_factory=dict)
    """Eliminated blocks still seen on the map (an Overrun, 7.4): block -> that location."""
    _buried: set[str] = field(default_factory=set)
    """Eliminated blocks seen on the casualty tray (they never come back, 7.4, 8.7.2)."""
    _deployed: tuple[int, dict[str, tuple[str, int]]] = (-1, {})
    """Cache: the events' count, and each block's last deployment (location, event index)."""

    @property
    def state(self) -> State:
        return self.game.state

    def observe(self, seen: Mapping[str, str]) -> None:
        """What the readers see now: which set-up blocks stand in place (5.2.1), which
        deployed blocks left their tray after the battle (8.2.1), which eliminated blocks
        still stand on the map (7.4)."""
        state = self.state
        # 5.2.1: standing where its symbol is printed now; lifted off, it is to stand again
        self.stood = {b for b in self._setup_blocks() if state.phase is Phase.SETUP
                       and seen.get(b) == self._engine_zone_of(b)}
        for block in self.returning():
            if seen.get(block) != deployment_zone(side_of(block)):
                self._put_back.add((block, self._last_deployments()[block][1]))
        to_bury: dict[str, str] = {}  # a new dict: the screen reads it from another thread
        for block, where in state.pos.items():
            if where != DEAD or block in self._buried:
                continue
            if seen.get(block) == CASUALTIES:
                self._buried.add(block)
            elif seen.get(block) in BOARD.locations:
                to_bury[block] = seen[block]
            elif block in self._to_bury:  # in hand on its way to the tray
                to_bury[block] = self._to_bury[block]
        self._to_bury = to_bury

    def in_the_box_now(self) -> bool:
        """5.2.1 before 5.2.2: until the first bag draw, set-up blocks wait in the game box.
        After it they stand on the map (the draws wait for them), also after a restart."""
        state = self.state
        return state.phase is Phase.SETUP and not any(
            isinstance(e, ev.BlocksPlaced) and e.random for e in self.game.events)

    def setup_to_stand(self) -> dict[tuple[str, Side, SetupSymbol], int]:
        """5.2.1: (zone, side, symbol) -> how many blocks with that set-up symbol are still to
        stand there (the game box holds them until then). Counts only: the map prints them."""
        left: Counter[tuple[str, Side, SetupSymbol]] = Counter()
        if not self.in_the_box_now():
            return {}
        for block in self._setup_blocks():
            zone = self._engine_zone_of(block)
            symbol = FACES[block].setup
            if block not in self.stood and zone is not None and symbol is not None:
                left[(zone, side_of(block), symbol)] += 1
        return dict(sorted(left.items(), key=lambda item: (zone_name(item[0][0]), item[0][1])))

    def returning(self) -> dict[str, str]:
        """Blocks deployed in a battle that is over, still on their deployment tray: block ->
        the location they go back to, concealed again (8.2.1)."""
        state = self.state
        p = state.pending
        found: dict[str, str] = {}
        for block, (where, index) in self._last_deployments().items():
            if state.pos.get(block) != where or (block, index) in self._put_back:
                continue
            if p is not None and p.combat is not None and p.combat.is_deployed(block):
                continue  # still in the battle being fought (8.2.3)
            found[block] = where
        return found

    def eliminated(self) -> dict[str, str]:
        """Blocks eliminated off the map (an Overrun, 7.4) that the readers still see there:
        block -> the location to take them from to the casualty tray."""
        return {b: where for b, where in self._to_bury.items() if self.state.pos[b] == DEAD}

    def said(self) -> list[str]:
        """What the players must do on the table before anything else, in plain words."""
        return [
            *(f"{side}: move your {what} from {where} to the casualty tray (7.4)"
              for side, what, where in _by_place(self.eliminated(), "eliminated block")),
            *(f"{side}: put your {what} back on {where}, concealed again (8.2.1)"
              for side, what, where in _by_place(self.returning(), "deployed block")),
        ]

    def setup_places(self) -> dict[str, str]:
        """Each set-up block -> where the map prints its symbol (5.2.1), during the set-up:
        for the hands of the demo and tests, never for the shared screen."""
        if self.state.phase is not Phase.SETUP:
            return {}
        return {b: z for b in self._setup_blocks() if (z := self._engine_zone_of(b)) is not None}

    def _setup_blocks(self) -> list[str]:
        return [b for b in self.state.pos if FACES[b].setup is not None]

    def _engine_zone_of(self, block: str) -> str | None:
        where = self.state.pos[block]
        if where == MORI_BOX:
            return MORI_ZONE
        return where if where in BOARD.locations else None

    def _last_deployments(self) -> dict[str, tuple[str, int]]:
        """Block -> (battle site, event index) for the blocks deployed since movement was last
        bought or a bid placed (7.1, 6.3): a block left on its tray that long is no longer the
        screen's step but a difference (and a game resumed later never asks for an old
        battle's blocks). The phase may end with the battle itself: that is not long enough."""
        events = self.game.events
        count, cached = self._deployed
        if count == len(events):
            return cached
        start = count if 0 <= count < len(events) else 0
        found = dict(cached) if start else {}
        site = ""
        for index in range(start, len(events)):
            event = events[index]
            if isinstance(event, ev.MovementBought | ev.BidPlaced):
                found = {}  # the players' next action: the battles before it are long over
            elif isinstance(event, ev.CombatDeclared | ev.CombatOpened):
                site = event.location
            elif isinstance(event, ev.CombatActed) and event.action.get("type") == "deploy":
                where = site or (self.state.pending.location if self.state.pending else "")
                for block in event.action.get("blocks", ()):
                    found[block] = (where, index)
        self._deployed = (len(events), found)
        return found


def _by_place(blocks: Mapping[str, str], word: str) -> list[tuple[str, str, str]]:
    """Blocks (block -> location) counted per location and side, in words: (side, "2 deployed
    blocks", location), counts only (3.1)."""
    counted = Counter((where, side_of(b)) for b, where in blocks.items())
    return [(side.value.capitalize(), word if n == 1 else f"{n} {word}s", zone_name(where))
            for (where, side), n in sorted(counted.items())]
