"""The one error every Kensei calculator raises for input it refuses (exit status 2)."""

from __future__ import annotations

from typing import Any


class KenseiError(Exception):
    """Input a calculator refuses. ``rule`` is the heading broken, None for a format fault
    (bad JSON, an unknown or missing key, a wrong type or value)."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule

    def as_json(self) -> dict[str, Any]:
        return {"error": {"rule": self.rule, "message": self.message}}
