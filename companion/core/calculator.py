"""What every game's referee calculator (``companion referee battle``, ``tenka war``,
``kensei melee``...) answers to input it refuses: exit status 2 and one JSON error object,
``{"error": {"rule": ..., "message": ...}}``, never a traceback."""

from __future__ import annotations

from typing import Any


class CalculatorError(Exception):
    """Input a calculator refuses: ``rule`` is the rule broken (the game's numbering), None for
    a format fault (not JSON, an unknown or missing key, a wrong type or value)."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def as_json(self) -> dict[str, Any]:
        return {"error": {"rule": self.rule, "message": self.message}}
