"""The one error every Kensei calculator raises for input it refuses (exit status 2)."""

from __future__ import annotations

from companion.core.calculator import CalculatorError


class KenseiError(CalculatorError):
    """Input a calculator refuses. ``rule`` is the heading broken, None for a format fault
    (bad JSON, an unknown or missing key, a wrong type or value)."""
