"""The rule summaries behind every rule number the touchscreen shows (``data/rules.yaml``).

Checks that every rule the code cites has a summary, that the file covers the rulebook's
sections and the clarifications, that lookups fall back to the parent section, that broken
files are rejected with a message naming the file and the entry, and that no summary copies
a long run of the rulebook's own words.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from companion.core.datafiles import DataFileError
from companion.games.sekigahara.rulebook import (
    Rulebook,
    default_rules,
    is_rule_number,
    load_rules,
    parent_number,
    sort_key,
)

REPO = Path(__file__).parents[3]
SOURCE = REPO / "companion" / "games" / "sekigahara"
SHARED = REPO / ".." / "shared"
RULEBOOK_TEXT = SHARED / "seeds" / "001_f628be61706bfdb5.txt"
CLARIFICATIONS = SHARED / "reference" / "sekigahara" / "clarifications.md"

# ------------------------------------------------------------------ finding the citations

# A whole string that is a rule number: reject("7.3", ...), RuleViolation("8.5", ...),
# rule="8.10", HiddenViolation("8.9.6", ...), rule = "C7" if ... else "8.6.1", defaults, ...
_WHOLE = re.compile(r"\d+(?:\.\d+)+|C\d+")
# A citation inside a message or docstring: "(7.4)", "(8.2.4, C7)", "8.9.1-8.9.3", "see 8.10".
_INSIDE = re.compile(r"(?<![\w.])(?:[1-9]\.\d{1,2}(?:\.\d{1,2})*|C\d{1,2})(?![\w]|\.\d)")
# Numbers in the source that look like citations but are not (none so far).
NOT_CITATIONS: frozenset[str] = frozenset()
# Files whose strings are not citations: this module's own examples of fallbacks.
NOT_SCANNED = frozenset({"rulebook.py"})


def cited_rules(source: str) -> set[str]:
    """Every rule number cited in the string literals (f-strings and docstrings included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            if _WHOLE.fullmatch(text):
                found.add(text)
            else:
                found.update(_INSIDE.findall(text))
    return found - NOT_CITATIONS


def _source_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*.py")):
        if path.name not in NOT_SCANNED:
            yield path


def citations_in_code(root: Path = SOURCE) -> dict[str, list[str]]:
    """Rule number -> the files under ``root`` (companion/games/sekigahara/) that cite it."""
    where: dict[str, list[str]] = {}
    for path in _source_files(root):
        for number in cited_rules(path.read_text("utf-8")):
            where.setdefault(number, []).append(str(path.relative_to(root)))
    return where


def missing_entries(rules: Rulebook, root: Path = SOURCE) -> dict[str, list[str]]:
    """Cited rule numbers without an entry of their own (a parent's entry is not enough)."""
    return {n: files for n, files in citations_in_code(root).items() if n not in rules}


def test_the_scanner_finds_every_form_of_citation() -> None:
    source = '''
"""Module docstring citing (3.1) and 8.9.1-8.9.3."""
raise reject("7.3", "message")
raise RuleViolation("8.5", f"{x} must wait (8.2.4, C7)")
ev = Event(rule="8.10")
raise HiddenViolation("8.9.6", "besieged blocks stay")
rule = "C2" if double else "8.6.1"
def f(rule: str = "6.4") -> None:
    """Checks the overrun (7.4) and C10."""
msg = "must stop (7.3.2); 5,000 warriors, 2 mon, week 7, C-3PO, 12.5%"
'''
    assert cited_rules(source) == {
        "3.1", "8.9.1", "8.9.3", "7.3", "8.5", "8.2.4", "C7", "8.10", "8.9.6", "C2", "8.6.1",
        "6.4", "7.4", "C10", "7.3.2",
    }  # fmt: skip


def test_the_code_cites_rules_in_every_form_the_scan_looks_for() -> None:
    """A sanity check that the scan reads the real source (and so can catch a new citation)."""
    cited = citations_in_code()
    assert len(cited) > 50
    # rule="8.10", RuleViolation("8.2.4", ...), reject("9.3", ...), "C7", "(7.4.1)" in text
    assert {"8.10", "8.2.4", "9.3", "C7", "7.4.1", "2.1"} <= set(cited)


def test_every_rule_the_code_cites_has_its_own_entry() -> None:
    missing = missing_entries(default_rules())
    assert not missing, (
        "rules cited in the code without an entry in data/rules.yaml "
        f"(add a title and a summary): {missing}"
    )


def test_a_new_citation_without_an_entry_would_be_caught(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "new_rule.py").write_text(
        'def check() -> None:\n    raise reject("8.11", "no such rule yet (C99)")\n', "utf-8"
    )
    (tmp_path / "rulebook.py").write_text('"""Falls back: 8.7.9 -> 8.7."""\n', "utf-8")
    assert missing_entries(default_rules(), tmp_path) == {
        "8.11": ["engine/new_rule.py"],
        "C99": ["engine/new_rule.py"],
    }


# ------------------------------------------------------------------ what the file holds


def test_the_built_in_file_loads_and_is_in_rulebook_order() -> None:
    rules = default_rules()
    numbers = rules.numbers()
    assert len(rules) == len(numbers) > 90
    assert numbers == sorted(numbers, key=sort_key)
    assert all(is_rule_number(n) for n in numbers)


def test_every_clarification_of_the_projects_document_is_present_in_order() -> None:
    """docs/clarifications.md numbers them C1 onwards; each has its summary here."""
    written = re.findall(r"^### (C\d+)$", (REPO / "docs" / "clarifications.md").read_text("utf-8"),
                         flags=re.M)
    assert written[:11] == [f"C{i}" for i in range(1, 12)]
    rules = default_rules()
    assert [e.number for e in rules.entries if e.is_clarification] == written


@pytest.mark.skipif(not CLARIFICATIONS.exists(), reason="shared reference files not present")
def test_every_clarification_in_the_reference_has_an_entry() -> None:
    listed = set(re.findall(r"\*\*(C\d+)\b", CLARIFICATIONS.read_text("utf-8")))
    assert listed
    assert listed <= set(default_rules().numbers())


def test_every_sub_section_has_its_parent_sections() -> None:
    numbers = set(default_rules().numbers())
    orphans = {n: p for n in numbers if (p := parent_number(n)) is not None and p not in numbers}
    assert not orphans


def test_chapters_one_to_nine_and_the_sections_the_brief_names_are_present() -> None:
    numbers = set(default_rules().numbers())
    assert {str(i) for i in range(1, 10)} <= numbers
    assert {f"8.{i}" for i in range(1, 11)} | {f"9.{i}" for i in range(1, 6)} <= numbers
    assert {"2.1", "2.2", "3.1", "7.3", "7.3.1", "7.4"} <= numbers


def _rulebook_headings() -> dict[str, str]:
    text = RULEBOOK_TEXT.read_text("utf-8")
    pattern = re.compile(r"^(\d+(?:\.\d+)*)\.? +([A-Z][^\n]*?)\s*$", re.MULTILINE)
    return {m.group(1): m.group(2) for m in pattern.finditer(text)}


@pytest.mark.skipif(not RULEBOOK_TEXT.exists(), reason="shared rulebook text not present")
def test_every_rulebook_section_has_an_entry_with_its_heading() -> None:
    headings = _rulebook_headings()
    assert len(headings) > 80
    rules = default_rules()
    sections = {e.number for e in rules.entries if not e.is_clarification}
    assert sections == set(headings)
    for number, heading in headings.items():
        entry = rules.get(number)
        assert entry is not None
        assert entry.title.casefold() == heading.casefold(), number


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text) if s.strip()]


def test_summaries_are_short_plain_text() -> None:
    for entry in default_rules().entries:
        assert entry.title and len(entry.title) <= 60, entry.number
        assert 1 <= len(_sentences(entry.summary)) <= 3, entry.number
        assert len(entry.summary) <= 400, entry.number
        assert "\n" not in entry.summary, entry.number


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.casefold().replace("’", "'"))


def _ngrams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@pytest.mark.skipif(not RULEBOOK_TEXT.exists(), reason="shared rulebook text not present")
def test_no_summary_copies_twelve_words_in_a_row_from_the_rulebook() -> None:
    book = _ngrams(_words(RULEBOOK_TEXT.read_text("utf-8")), 12)
    copied = {}
    for entry in default_rules().entries:
        for text in (entry.title, entry.summary):
            common = _ngrams(_words(text), 12) & book
            if common:
                copied[entry.number] = " ".join(sorted(common)[0])
    assert not copied, f"summaries repeating the rulebook's wording: {copied}"


def test_the_copy_check_would_catch_a_copied_sentence() -> None:
    book = "Blocks lost in combat are removed from the map and never return to play."
    summary = "Note: blocks lost in combat are removed from the map and never return to play ."
    assert _ngrams(_words(summary), 12) & _ngrams(_words(book), 12)


# ------------------------------------------------------------------ lookups


def test_get_and_cite_an_exact_entry() -> None:
    rules = default_rules()
    entry = rules.get("8.7.2")
    assert entry is not None and entry.number == "8.7.2" and entry.title == "Selecting Losses"
    assert rules.cite("8.7.2") == f"8.7.2 Selecting Losses: {entry.summary}"
    assert rules.cite("C6").startswith("C6 Initiative and ties: ")
    assert not rules.lookup("8.7.2").fallback
    assert rules.get(" 8.10 ") == rules.get("8.10")


def test_a_rule_without_an_entry_falls_back_to_its_nearest_parent_and_says_so() -> None:
    rules = default_rules()
    found = rules.lookup("8.7.9")
    assert found.fallback and found.entry is not None and found.entry.number == "8.7"
    assert rules.get("8.7.9") == rules.get("8.7")
    assert rules.get("8.7.2.1") == rules.get("8.7.2")
    assert rules.cite("8.7.9") == f"8.7.9 (see 8.7 Losses): {found.entry.summary}"
    assert rules.get("8.11") == rules.get("8")


def test_fallback_skips_missing_levels(tmp_path: Path) -> None:
    path = tmp_path / "rules.yaml"
    path.write_text(
        'rules:\n  - {number: "8", title: Combat, summary: Fighting.}\n'
        '  - {number: "8.7", title: Losses, summary: Who loses what.}\n',
        "utf-8",
    )
    rules = load_rules(path)
    assert rules.get("8.7.2") == rules.get("8.7")
    got = rules.get("8.3.1")
    assert got is not None and got.number == "8"
    assert rules.lookup("8.3.1").fallback
    assert rules.cite("8.3.1") == "8.3.1 (see 8 Combat): Fighting."


def test_unknown_or_malformed_numbers_have_no_entry() -> None:
    rules = default_rules()
    for number in ("C99", "10", "10.1", "", "x", "8.", "C", "8..7"):
        assert rules.get(number) is None, number
        assert not rules.lookup(number).found
    assert rules.cite("C99") == "C99: no summary; see the rulebook"


def test_rule_numbers_and_parents() -> None:
    for good in ("1", "8", "8.7", "8.7.2", "8.10", "C1", "C11"):
        assert is_rule_number(good), good
    for bad in ("", "0", "8.", ".7", "8.07", "8.0", "c6", "C0", "C", "8.7a", "C6.1", " 8"):
        assert not is_rule_number(bad), bad
    assert parent_number("8.7.2") == "8.7"
    assert parent_number("8.7") == "8"
    assert parent_number("8") is None
    assert parent_number("C6") is None


def test_the_c_loader_is_used_when_pyyaml_has_it() -> None:
    from companion.core import inputs

    assert issubclass(inputs._Loader, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


# ------------------------------------------------------------------ malformed files

_GOOD = '  - {number: "2.1", title: Instant Victory, summary: Someone wins.}\n'

BROKEN: list[tuple[str, str, str]] = [
    ("not YAML", "rules: [\n", "is not valid YAML"),
    ("a list at the top", "- a\n- b\n", "expected a single key 'rules'"),
    ("an extra top-level key", "rules: []\nmore: 1\n", "expected a single key 'rules'"),
    ("no entries", "rules: []\n", "non-empty list"),
    ("entries not a list", "rules: {a: 1}\n", "non-empty list"),
    ("an entry not a mapping", "rules:\n" + _GOOD + "  - 8.7\n", "entry 2"),
    (
        "an unquoted number",
        "rules:\n" + _GOOD + "  - {number: 8.10, title: Card Replenishment, summary: Draw.}\n",
        "entry 2 (number 8.1): number: 8.1 was read as a number: quote rule numbers",
    ),
    (
        "a malformed number",
        "rules:\n" + _GOOD + '  - {number: "8.7.", title: Losses, summary: Lose.}\n',
        "entry 2 (number 8.7.): number: '8.7.' is not a rule number",
    ),
    (
        "a lower-case clarification",
        "rules:\n" + _GOOD + '  - {number: "c6", title: Ties, summary: Defender.}\n',
        "entry 2 (number c6): number: 'c6' is not a rule number",
    ),
    (
        "an empty summary",
        "rules:\n" + _GOOD + '  - {number: "8.5", title: Initiative, summary: "  "}\n',
        "entry 2 (number 8.5): summary: must not be empty",
    ),
    (
        "a missing title",
        "rules:\n" + _GOOD + '  - {number: "8.5", summary: Behind acts.}\n',
        "entry 2 (number 8.5): title: Field required",
    ),
    (
        "a null summary",
        "rules:\n" + _GOOD + '  - {number: "8.5", title: Initiative, summary: null}\n',
        "entry 2 (number 8.5): summary:",
    ),
    (
        "an unknown field",
        "rules:\n" + _GOOD + '  - {number: "8.5", title: Initiative, summary: A., text: B.}\n',
        "entry 2 (number 8.5): text: Extra inputs are not permitted",
    ),
    (
        "a duplicate number",
        "rules:\n" + _GOOD + '  - {number: "8.5", title: Initiative, summary: A.}\n' + _GOOD,
        "rule 2.1 appears twice (entries 1 and 3)",
    ),
]


@pytest.mark.parametrize(("text", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN])
def test_a_malformed_file_is_rejected_naming_the_file_and_the_entry(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "broken-rules.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(DataFileError) as info:
        load_rules(path)
    assert str(info.value).startswith(str(path)), str(info.value)
    assert message in str(info.value)


def test_a_missing_file_is_rejected_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(DataFileError, match=r"cannot read .*nowhere\.yaml"):
        load_rules(path)


def test_a_rulebook_built_in_code_also_rejects_duplicates() -> None:
    entry = {"number": "C1", "title": "T", "summary": "S."}
    with pytest.raises(ValueError, match="appears twice"):
        Rulebook.model_validate({"entries": [entry, entry]})
