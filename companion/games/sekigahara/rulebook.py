"""Short summaries of the rules, so that a tap on a ruling's rule number can say what the rule is.

Every ruling the companion shows carries a rule number: a rulebook section such as ``8.7.2`` or
one of the project's clarifications (``C1`` onwards, docs/clarifications.md).
``data/rules.yaml`` holds, for each, the section heading and a summary of one to three
sentences in the project's own words (GMT's text is not shipped; the printed rulebook stays the
authority). The file is loaded into frozen
pydantic models and validated: a malformed file raises :class:`DataFileError` naming the file
and the entry at fault.

``Rulebook.get("8.7.9")`` falls back to the nearest section that has an entry (``8.7``, then
``8``); :meth:`Rulebook.lookup` says whether that happened and :meth:`Rulebook.cite` shows it.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError, field_validator

from companion.core.datafiles import (
    DataFileError,
    describe_validation_error,
    parse_yaml,
    read_yaml,
)

RULE_NUMBER = re.compile(r"(?:[1-9][0-9]*(?:\.[1-9][0-9]*)*|C[1-9][0-9]*)")
"""A rulebook section (``8``, ``8.7``, ``8.7.2``, ``8.10``) or a clarification (``C6``)."""

DEFAULT_FILE = "rules.yaml"


def is_rule_number(text: str) -> bool:
    """Whether ``text`` is a well-formed rule number (see :data:`RULE_NUMBER`)."""
    return RULE_NUMBER.fullmatch(text) is not None


def parent_number(number: str) -> str | None:
    """The section that contains ``number``: ``8.7.2`` -> ``8.7`` -> ``8`` -> None.

    Clarifications (``C6``) and chapters (``8``) have no parent.
    """
    if number.startswith("C") or "." not in number:
        return None
    return number.rsplit(".", 1)[0]


def sort_key(number: str) -> tuple[int, tuple[int, ...]]:
    """Rulebook order: sections numerically (``8.9`` before ``8.10``), then clarifications."""
    if number.startswith("C"):
        return (1, (int(number[1:]),))
    return (0, tuple(int(part) for part in number.split(".")))


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)


class RuleEntry(_Frozen):
    """One rule: its number, the section heading and a short summary in our own words."""

    number: str
    title: str
    summary: str

    @field_validator("number", mode="before")
    @classmethod
    def _number_is_text(cls, value: Any) -> Any:
        if isinstance(value, int | float) and not isinstance(value, bool):
            raise ValueError(
                f'{value!r} was read as a number: quote rule numbers (number: "8.10"; '
                "unquoted, YAML reads 8.10 as 8.1)"
            )
        return value

    @field_validator("number")
    @classmethod
    def _number_is_well_formed(cls, value: str) -> str:
        if not is_rule_number(value):
            raise ValueError(
                f"{value!r} is not a rule number (a section such as 8.7.2 or a clarification "
                "such as C6)"
            )
        return value

    @field_validator("title", "summary")
    @classmethod
    def _not_empty(cls, value: str) -> str:
        if not value:
            raise ValueError("must not be empty")
        return value

    @property
    def is_clarification(self) -> bool:
        """A project ruling (``C1`` onwards, docs/clarifications.md) rather than a rulebook
        section."""
        return self.number.startswith("C")

    @property
    def parent(self) -> str | None:
        return parent_number(self.number)

    def cite(self) -> str:
        """``"8.7.2 Selecting Losses: <summary>"``, for the touchscreen."""
        return f"{self.number} {self.title}: {self.summary}"


class Lookup(_Frozen):
    """What :meth:`Rulebook.lookup` found for a rule number.

    ``entry`` is the rule's own entry, or its nearest parent section's when the rule has none
    (``fallback`` is then true), or None when neither exists.
    """

    requested: str
    entry: RuleEntry | None

    @property
    def found(self) -> bool:
        return self.entry is not None

    @property
    def fallback(self) -> bool:
        """True when the entry is a parent section's, not the requested rule's own."""
        return self.entry is not None and self.entry.number != self.requested

    def cite(self) -> str:
        """One line for the touchscreen; a fallback names the section actually summarised.

        ``"8.7.2 Selecting Losses: ..."``, ``"8.7.9 (see 8.7 Losses): ..."``, or for an
        number it does not know: ``"<number>: no summary; see the rulebook"``.
        """
        if self.entry is None:
            return f"{self.requested}: no summary; see the rulebook"
        if self.fallback:
            return f"{self.requested} (see {self.entry.number} {self.entry.title}): " + (
                self.entry.summary
            )
        return self.entry.cite()


class Rulebook(_Frozen):
    """All rule summaries, by number. Build it with :func:`load_rules` or :func:`default_rules`."""

    entries: tuple[RuleEntry, ...]
    _by_number: dict[str, RuleEntry] = PrivateAttr(default_factory=dict)

    @field_validator("entries")
    @classmethod
    def _no_duplicates(cls, entries: tuple[RuleEntry, ...]) -> tuple[RuleEntry, ...]:
        first: dict[str, int] = {}
        for index, entry in enumerate(entries):
            if entry.number in first:
                raise ValueError(
                    f"rule {entry.number} appears twice (entries {first[entry.number] + 1} "
                    f"and {index + 1})"
                )
            first[entry.number] = index
        return entries

    def model_post_init(self, context: Any, /) -> None:
        self._by_number.update((entry.number, entry) for entry in self.entries)

    def __contains__(self, number: object) -> bool:
        return number in self._by_number

    def __len__(self) -> int:
        return len(self.entries)

    def numbers(self) -> list[str]:
        """Every rule number with an entry, in file order."""
        return [entry.number for entry in self.entries]

    def lookup(self, number: str) -> Lookup:
        """The entry for ``number``, else for its nearest parent section that has one."""
        number = number.strip()
        candidate: str | None = number if is_rule_number(number) else None
        while candidate is not None:
            entry = self._by_number.get(candidate)
            if entry is not None:
                return Lookup(requested=number, entry=entry)
            candidate = parent_number(candidate)
        return Lookup(requested=number, entry=None)

    def get(self, number: str) -> RuleEntry | None:
        """The entry for ``number``, falling back to its nearest parent section's.

        A fallback is visible in the result's ``number`` (``get("8.7.9").number == "8.7"``);
        :meth:`lookup` reports it explicitly. None when neither the rule nor any parent has one.
        """
        return self.lookup(number).entry

    def cite(self, number: str) -> str:
        """One line for the touchscreen: ``"8.7.2 Selecting Losses: ..."`` (see :meth:`lookup`)."""
        return self.lookup(number).cite()


def _entry_label(index: int, item: Any) -> str:
    label = f"entry {index + 1}"
    if isinstance(item, dict) and isinstance(item.get("number"), str | int | float):
        label += f" (number {item['number']})"
    return label


def load_rules(path: Path | None = None) -> Rulebook:
    """Load and validate the rule summaries from ``path``, or the built-in ``data/rules.yaml``.

    Raises :class:`DataFileError` naming the file and the entry when the file cannot be read,
    is not YAML, or an entry is malformed (bad number, empty or missing text, unknown field,
    a number listed twice).
    """
    if path is None:
        name = f"built-in {DEFAULT_FILE}"
        try:
            text = resources.files(__package__).joinpath("data", DEFAULT_FILE).read_text("utf-8")
        except OSError as exc:
            raise DataFileError(f"cannot read {name}: {exc.strerror}") from None
        raw = parse_yaml(text, name)
    else:
        name = str(path)
        raw = read_yaml(Path(path))

    if not isinstance(raw, dict) or set(raw) != {"rules"}:
        raise DataFileError(f"{name}: expected a single key 'rules' holding a list of entries")
    items = raw["rules"]
    if not isinstance(items, list) or not items:
        raise DataFileError(f"{name}: 'rules' must be a non-empty list of entries")
    entries: list[RuleEntry] = []
    for index, item in enumerate(items):
        try:
            entries.append(RuleEntry.model_validate(item))
        except ValidationError as exc:
            where = _entry_label(index, item)
            raise DataFileError(f"{name}: {where}: {describe_validation_error(exc)}") from None
    try:
        return Rulebook(entries=tuple(entries))
    except ValidationError as exc:
        raise DataFileError(f"{name}: {describe_validation_error(exc)}") from None


@cache
def default_rules() -> Rulebook:
    """The built-in summaries, loaded once."""
    return load_rules()
