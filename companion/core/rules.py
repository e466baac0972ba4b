"""Game-neutral vocabulary for rulings and rejections.

Every game package adjudicates with the same two shapes: a :class:`Ruling` records a step the
rules took (and the rule that took it), a :class:`RuleViolation` rejects an action and names the
rule that forbids it. Rule numbers are strings ("8.5", "C6"), cited as printed in the rulebook
or in the project's clarifications.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Ruling(BaseModel):
    """One adjudication step, human-readable, with the rule it applies."""

    model_config = ConfigDict(frozen=True)

    rule: str
    text: str


class RuleViolation(Exception):
    """An action the rules forbid. ``rule`` is the rule number that forbids it."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} (rule {self.rule})"

    def as_ruling(self) -> Ruling:
        return Ruling(rule=self.rule, text=self.message)
