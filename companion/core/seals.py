"""Seals: a stored game's hash chain anchored outside the table (docs/referee.md, Seals).

The hash chain (:mod:`companion.core.chain`) shows an edit only to someone who kept a hash
from before it: a forger who rewrites an entry and recomputes every later hash makes a chain
that checks. So at each of its game's natural checkpoints (Sekigahara: the end of every week;
every game: its end, Tenka Meidou's War) the companion shows a
**seal** of the chain's head on the public screen ("Seal of week 2: K7Q2-M9XD"): the players
write it on their score sheet and the table publishes it to the tournament. Later,
``companion referee verify --seal "week 2=K7Q2-M9XD"`` recomputes the seals from the record
and names the first one that disagrees; a record that matches a seal is, up to that entry,
the record the table showed.

**How strong.** A code is 8 characters of Crockford's base 32 (no I, L, O or U; typing
``O`` for ``0`` or ``l`` for ``1`` still reads), 40 bits. A forger who changes an entry must
make the chain's hash at the sealed entry give the same 40 bits: a second preimage, found
only by brute force, one forged variant (a note's wording, a time) hashed through the chain
per try, 2^39 tries on average. A bare hash would fall to a graphics card in minutes at
10^10 hashes a second, so a code is not cut from the hash directly but from ``scrypt`` of it
(N=2^14, r=8: 16 MiB of memory and about 35 ms per try on a laptop, 0.1-0.2 s on the table's
Raspberry Pi). A graphics card then manages some 10^4 tries a second: about 1.7 years per
card for one seal, for a forger who must match every later seal as well. Enough for a board
game tournament; the full 64-character head (``verify`` prints it) is there for anything more.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from companion.core.inputs import short
from companion.core.store import Entry, GameLog

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O or U, so nothing reads as another character."""
CODE_CHARS = 8
"""Characters in a seal (5 bits each: 40 bits), written in two groups of four."""
_SALT = b"companion-seal-v1"
_N, _R = 2 ** 14, 8
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
MAX_SEALS = 1_000
"""The most seals one check reads (a real game: 8)."""

SealPoints = Callable[[Sequence[Entry]], list[tuple[int, str]]]
"""A game's checkpoints in its recorded entries: ``(entry, label)`` in order, labels like
"week 2" and "game" (each game's ``records.seal_points``)."""


@dataclass(frozen=True)
class Seal:
    """The seal ``code`` of the chain's head after ``entry``, at the checkpoint ``label``
    ("week 2", "game"). A seal given by hand may name only its label (``entry`` 0) or only
    its entry (``label`` "")."""

    entry: int
    label: str
    code: str

    @property
    def name(self) -> str:
        """For players: "Seal of week 2", "Seal of the game", "Seal of entry 57"."""
        if not self.label:
            return f"Seal of entry {self.entry}"
        return "Seal of the game" if _key(self.label) == "game" else f"Seal of {self.label}"

    def __str__(self) -> str:
        return f"{self.name}: {self.code}"


@dataclass(frozen=True)
class SealBreak:
    """The first seal the record does not match: ``entry`` is the first entry known to differ
    (the sealed one), ``since`` the last entry a matching seal vouches for (0: none), so the
    change lies in entries ``since + 1`` to ``entry``."""

    entry: int
    seal: Seal
    reason: str
    since: int = 0

    def __str__(self) -> str:
        where = (f"the record differs at or before entry {self.entry}" if not self.since else
                 f"the record differs in entries {self.since + 1} to {self.entry} (it matches "
                 f"the seals up to entry {self.since})")
        return f"{self.seal.name} ({self.seal.code}): {self.reason}; {where}"


@lru_cache(maxsize=256)
def seal_code(head_hash: str) -> str:
    """The seal of a chain head (hex): 40 bits of scrypt(head), "K7Q2-M9XD". Remembered: the
    screen asks again as each command is played."""
    digest = hashlib.scrypt(head_hash.encode("utf-8"), salt=_SALT, n=_N, r=_R, p=1, dklen=5,
                            maxmem=64 * 2 ** 20)
    bits = int.from_bytes(digest, "big")
    chars = [ALPHABET[(bits >> (5 * k)) & 31] for k in reversed(range(CODE_CHARS))]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])


def normal_code(text: str) -> str | None:
    """A written code as :func:`seal_code` gives it ("k7q2 m9xd" -> "K7Q2-M9XD"), or None when
    it is not one."""
    bare = re.sub(r"[\s\-]", "", text).upper().translate(_READ_AS)
    if len(bare) != CODE_CHARS or any(c not in ALPHABET for c in bare):
        return None
    return bare[:4] + "-" + bare[4:]


def _key(label: str) -> str:
    """A label compared loosely: "Week 2", "week2" and "the game" / "game" are alike."""
    text = re.sub(r"\s+", "", label.lower())
    return re.sub(r"^(seal)?(of)?(the)?", "", text) or text


def points_of(log: GameLog) -> SealPoints:
    """The seal points of ``log``'s game (its records' ``seal_points``); none for a game
    whose records are not installed."""
    return _game_points(str(log.header.get("game", log.summary.game)))


@lru_cache(maxsize=64)
def _game_points(game: str) -> SealPoints:
    """A game's seal points, looked up once: reading the installed games' registrations takes
    milliseconds, too long to repeat at every entry a table publishes."""
    from companion.core.descriptor import DescriptorError, descriptor
    try:
        points: SealPoints = descriptor(game).load_records().seal_points
    except (KeyError, DescriptorError):
        return lambda _entries: []
    return points


def seals(log: GameLog, points: SealPoints | None = None) -> list[Seal]:
    """Every seal of the record, in order: one per checkpoint the game's ``points`` (default:
    its records') find in the recorded entries."""
    found = (points or points_of(log))(log.entries)
    by_seq = {e.seq: e for e in log.entries}
    return [Seal(n, label, seal_code(by_seq[n].hash)) for n, label in found if n in by_seq]


def last_seal(log: GameLog, points: SealPoints | None = None) -> Seal | None:
    """The latest seal of the record (what the table shows and publishes), or None."""
    found = (points or points_of(log))(log.entries)
    if not found:
        return None
    n, label = found[-1]
    entry = next((e for e in log.entries if e.seq == n), None)
    return None if entry is None else Seal(n, label, seal_code(entry.hash))


def check_seals(log: GameLog, given: Iterable[Seal], points: SealPoints | None = None
                ) -> SealBreak | None:
    """The first seal in ``given`` (by entry) that ``log`` does not match, or None when it
    matches them all. A seal named by its label matches if any checkpoint of that label does
    (a week ended again after an undo); the seal of the game also requires that nothing was
    added after it."""
    wanted = list(given)[:MAX_SEALS]
    found = seals(log, points) if any(s.label for s in wanted) else []
    by_seq = {e.seq: e for e in log.entries}
    last = log.entries[-1].seq if log.entries else 0
    results: list[tuple[int, Seal, str | None]] = []
    for seal in wanted:
        results.append(_judge(seal, found, by_seq, last))
    results.sort(key=lambda r: (r[0], r[2] is not None))
    since = 0
    for entry, seal, reason in results:
        if reason is not None:
            return SealBreak(entry, seal, reason, since)
        since = max(since, entry)
    return None


def _judge(seal: Seal, found: list[Seal], by_seq: dict[int, Entry], last: int
           ) -> tuple[int, Seal, str | None]:
    """(the entry the seal stands at, the seal, why it disagrees or None)."""
    code = normal_code(seal.code) or seal.code
    if seal.label:
        alike = [s for s in found if _key(s.label) == _key(seal.label)]
        if seal.entry:
            alike = [s for s in alike if s.entry == seal.entry]
        if not alike:
            return (seal.entry or last + 1, seal,
                    f"the record has no {seal.label}" + (f" at entry {seal.entry}"
                                                          if seal.entry else ""))
        match = next((s for s in alike if s.code == code), None)
        if match is None:
            first = alike[0]
            return (first.entry, seal, f"the record gives {first.code} at entry {first.entry}")
        if _key(match.label) == "game" and match.entry != last:
            return (match.entry + 1, seal, f"entries {match.entry + 1} to {last} were added "
                                           "after the game was sealed")
        return (match.entry, seal, None)
    entry = by_seq.get(seal.entry)
    if entry is None:
        return (seal.entry, seal, f"the record has no entry {seal.entry}")
    actual = seal_code(entry.hash)
    return (seal.entry, seal, None if actual == code else f"the record gives {actual}")


class BadSeal(ValueError):
    """A seal written so it cannot be read; the message says which and why."""


def parse_seal(text: str) -> Seal:
    """``LABEL=CODE`` or ``ENTRY=CODE`` ("week 2=K7Q2-M9XD", "57=K7Q2M9XD", "game=...");
    BadSeal naming what is wrong."""
    if "=" not in text:
        raise BadSeal(f"{_shown(text)} is not LABEL=CODE (week 2=K7Q2-M9XD)")
    where, _, written = text.rpartition("=")
    where = where.strip()
    code = normal_code(written)
    if code is None:
        raise BadSeal(f"{_shown(written.strip(), 20)} is not a seal: {CODE_CHARS} letters and "
                      "digits, like K7Q2-M9XD")
    if not where:
        raise BadSeal(f"{_shown(text)} names no week, game or entry before the =")
    if where.isdigit():
        return Seal(int(where), "", code)
    return Seal(0, " ".join(where.split())[:40], code)


def _shown(text: str, most: int = 40) -> str:
    """A line as quoted in a refusal: cut short, and not echoed at all when it holds control
    characters (a binary file)."""
    return f"'{short(text, most)}'" if text.isprintable() else "the line (not text)"


def read_seals(text: str, name: str = "the seals") -> list[Seal]:
    """One seal a line (``LABEL=CODE``); blank lines, ``#`` comments and a score sheet's
    lines left unfilled (``week 6 = ____-____``) skipped. BadSeal naming the line."""
    out: list[Seal] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line or not line.rpartition("=")[2].strip(" _-"):
            continue
        if len(out) >= MAX_SEALS:
            raise BadSeal(f"{name} holds more than {MAX_SEALS} seals")
        try:
            out.append(parse_seal(line))
        except BadSeal as exc:
            raise BadSeal(f"{name} line {number}: {exc}") from None
    return out
