"""The one bounded reader (companion/core/inputs.py): what it accepts as well as what it
refuses (the refusals, over every command and loader, are test_hostile_inputs.py's)."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from companion.core.inputs import InputError, Limits, parse_json, parse_yaml, read_text


def test_a_few_yaml_aliases_are_fine_a_bomb_is_not() -> None:
    text = "base: &b {mon: 2, count: 3}\nmore: [*b, *b, {<<: *b, mon: 3}]\n"
    assert parse_yaml(text)["more"][2] == {"mon": 3, "count": 3}
    bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
    with pytest.raises(InputError, match="more than 50 values once its aliases are expanded"):
        parse_yaml(bomb, "x.yaml", Limits(nodes=50))


def test_yaml_dates_stay_the_text_written() -> None:
    assert parse_yaml("a: 2001-12-14\nb: 2001-12-14 21:59:43.10 -5\n") == {
        "a": "2001-12-14", "b": "2001-12-14 21:59:43.10 -5"}


def test_the_digit_cap_holds_whatever_the_interpreter_was_told() -> None:
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # PYTHONINTMAXSTRDIGITS=0: Python would convert any length
    try:
        with pytest.raises(InputError, match="an integer of 5000 digits"):
            parse_json("9" * 5000)
        with pytest.raises(InputError, match="an integer of 5000 digits"):
            parse_yaml("a: " + "9" * 5000)
    finally:
        sys.set_int_max_str_digits(before)
    assert parse_json("9" * 4300) == int("9" * 4300)


def test_the_exact_limit_is_read_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\xef\xbb\xbf" + b" " * 7)  # a byte-order mark, dropped
    assert read_text(path, Limits(size=10)) == " " * 7
    path.write_bytes(b" " * 11)
    with pytest.raises(InputError, match=r"x\.json: larger than 10 bytes$"):
        read_text(path, Limits(size=10))


def test_standard_input_and_a_fifo_without_a_writer(tmp_path: Path) -> None:
    assert read_text("-", stdin=io.BytesIO(b"[1]")) == "[1]"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert read_text(fifo) == ""  # at once: no writer is waited for


@pytest.mark.parametrize(("text", "words"), [
    ('{"a": 1, "a": 2}', "the key 'a' is given twice"),
    ("[NaN]", "NaN is not a number JSON allows"),
    ("[1e999]", "1e999 is too large a number"),
    ("[" * 33 + "]" * 33, "nested deeper than 32 levels"),
    ("{", "not valid JSON: Expecting property name"),
])
def test_json_refusals_name_the_file(text: str, words: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_json(text, "game.json")
    assert refused.value.message.startswith("game.json is ") and words in refused.value.message
    assert parse_json("[" * 32 + "]" * 32) is not None
