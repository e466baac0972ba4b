"""How likely the simulator reads a tag in a stack: a MODEL, not a measurement.

The simulated hub uses it for blocks set down with ``stack`` (console) or
:meth:`~firmware_bridge.simtable.SimulatedTable.stack`, so ``companion hardware bench
--simulate`` has something to measure. It is *not* evidence that real hardware reads a stack:
that is what the bench test on real blocks is for (hardware/README.md, Stage 1).

* The field on a circular loop's axis: ``H = NI a² / (2 (a² + z²)^1.5)`` (a = loop radius,
  z = height), the formula hardware/tools/scan_budget.py uses for its range table.
* A tag gets ``coupling`` of that field: 1 for a tag parallel to the antenna (a block standing
  upright, tag on the face it stands on), ``FACE_UP_COUPLING`` (an estimate) for a tag at right
  angles to it (a block lying face up: its tag is then vertical and couples only to the loop's
  weaker radial field).
* Read chance per inventory: ``1 / (1 + (H_min / H_tag)^k)``: one half at the ISO/IEC 15693-2
  minimum field (0.15 A/m), rising steeply above it (k = 6, an estimate of how sharply a tag
  drops out at the edge of range).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

H_MIN_A_PER_M = 0.15
"""ISO/IEC 15693-2 minimum operating field."""
FACE_UP_COUPLING = 0.3
"""Estimate: a tag at right angles to the loop, a block's width off its centre."""


class Posture(StrEnum):
    UPRIGHT = "upright"
    """Standing as the rules have blocks in play (tag parallel to the antenna)."""
    FACE_UP = "face-up"
    """Lying face up, as deployed blocks are (tag at right angles to the antenna)."""


def loop_field(ni: float, diameter_mm: float, z_mm: float) -> float:
    """A/m on the axis of a circular loop of ``ni`` ampere-turns, ``z_mm`` above it."""
    a, z = diameter_mm / 2000, z_mm / 1000
    return float(ni * a * a / (2 * (a * a + z * z) ** 1.5))


@dataclass(frozen=True)
class ReadModel:
    """Parameters (all assumptions; see the module docstring)."""

    antenna_mm: float = 50.0
    ni: float = 0.75
    """Loop ampere-turns: between the 0.5 and 1.0 of the build guide's range table."""
    first_tag_mm: float = 3.0
    """Antenna to the bottom block's tag (the map and its cover)."""
    pitch_mm: float = 10.0
    """Height each block adds to a stack."""
    steepness: float = 6.0

    def coupling(self, posture: Posture) -> float:
        return 1.0 if posture is Posture.UPRIGHT else FACE_UP_COUPLING

    def read_chance(self, position: int, posture: Posture) -> float:
        """Chance one inventory reads the tag of the ``position``-th block (0 = bottom)."""
        z = self.first_tag_mm + position * self.pitch_mm
        field = loop_field(self.ni, self.antenna_mm, z) * self.coupling(posture)
        return float(1.0 / (1.0 + (H_MIN_A_PER_M / field) ** self.steepness))
