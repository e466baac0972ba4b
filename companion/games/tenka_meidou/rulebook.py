"""Short summaries of Tenka Meidou's rules, so a tap on a ruling's section can say what it is.

``data/rules.yaml`` holds, for each section (``5.II.1``: section 5, phase II, action 1) and each
clarification (``TM1``-``TM10``), its heading and one to three sentences in the project's own
words; the printed rulebook stays the authority. :func:`cite` falls back to the nearest parent
section (``5.II.3`` -> ``5.II`` -> ``5``).
"""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, ConfigDict, field_validator

from companion.core.datafiles import (
    load_packaged,
)

RULE_NUMBER = re.compile(r"[1-9][0-9]*(?:\.(?:I|II))?(?:\.[1-9])?|TM[1-9][0-9]*")
"""A section (``5``, ``5.I``, ``5.II.3``, ``3.2``) or a clarification (``TM2``)."""
CITED = re.compile(r"\((?:rule |section )?([1-9][0-9]*(?:\.(?:I|II))?(?:\.[1-9])?|TM[1-9][0-9]*)\)")
"""A section cited at the end of a ruling: ``(5.I.1)``, ``(rule 7)``."""


class RuleEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    number: str
    title: str
    summary: str

    @field_validator("number")
    @classmethod
    def _well_formed(cls, value: str) -> str:
        if RULE_NUMBER.fullmatch(value) is None:
            raise ValueError(f"{value!r} is not a section (5.II.1) or a clarification (TM2)")
        return value

    def cite(self) -> str:
        return f"{self.number} {self.title}: {self.summary}"


class Rulebook(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: tuple[RuleEntry, ...]

    def get(self, number: str) -> RuleEntry | None:
        """The entry for ``number``, else its nearest parent section's."""
        by_number = {e.number: e for e in self.rules}
        candidate: str | None = number.strip()
        while candidate:
            if candidate in by_number:
                return by_number[candidate]
            candidate = candidate.rsplit(".", 1)[0] if "." in candidate else None
        return None

    def cite(self, number: str) -> str:
        """One line for the touchscreen: ``"5.II.1 Power in a zone: ..."``."""
        entry = self.get(number)
        if entry is None:
            return f"{number}: no summary; see the rulebook"
        if entry.number != number:
            return f"{number} (see {entry.number} {entry.title}): {entry.summary}"
        return entry.cite()


@cache
def default_rules() -> Rulebook:
    return load_packaged(__package__, "rules.yaml", Rulebook)


def cite(number: str) -> str:
    return default_rules().cite(number)


def cited(text: str) -> str | None:
    """The section a ruling's text cites last, if any."""
    found = CITED.findall(text)
    return found[-1] if found else None
