"""The referee calculator's blocks checked against the block manifest (3.2, 2.1, 9.3-9.5).

A combat can only hold blocks that exist: each face given must be one the manifest (the built-in
``data/blocks.yaml`` or the user's ``--blocks FILE``) has, and no more blocks of a face than it
has (two Ii blocks, a second Tokugawa leader). Whether a block is a leader is taken from the
manifest when its clan, mon and attack leave only one possibility (the Ishida block is always
Ishida Mitsunari); where both are possible and it matters for the ruling (a protagonist, 2.1, or
a block deployed without a card, 8.2.4), the input must say, and the error says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from companion.core.rules import RuleViolation
from companion.games.sekigahara.components import Attack, BlockFace, BlockSet, Clan

FaceKey = tuple[Clan, int, Attack | None, bool]
"""What the calculator needs of a face: clan, mon, attack, leader (setup symbols do not fight)."""


@dataclass(frozen=True)
class GivenBlock:
    """One block as the input describes it; ``leader`` None when left out."""

    clan: Clan
    mon: int
    attack: Attack | None
    leader: bool | None


_COUNTED: dict[int, tuple[BlockSet, Counter[FaceKey]]] = {}


def manifest_counts(blocks: BlockSet) -> Counter[FaceKey]:
    """How many blocks of each face the copy of the game has: counted once per manifest loaded,
    not for every combat judged (the result is shared: read it, never change it)."""
    seen = _COUNTED.get(id(blocks))
    if seen is not None and seen[0] is blocks:
        return seen[1]
    counts = Counter(
        (b.face.clan, b.face.mon, b.face.attack, b.face.leader) for b in blocks.blocks)
    if len(_COUNTED) >= 8:  # a process judges with one or two manifests; never grow unbounded
        _COUNTED.clear()
    _COUNTED[id(blocks)] = (blocks, counts)
    return counts


def resolve_faces(
    given: Mapping[str, GivenBlock], manifest: Counter[FaceKey], cardless: Collection[str]
) -> dict[str, BlockFace]:
    """The faces of the given blocks, leaders settled from the manifest; raise RuleViolation
    naming the component rule for a face that does not exist or one block too many.
    ``cardless``: blocks some action deploys without a card (their leadership decides 8.2.4)."""
    faces: dict[str, BlockFace] = {}
    for block_id, block in given.items():
        leader = _leader(block_id, block, manifest, block_id in cardless)
        faces[block_id] = BlockFace(clan=block.clan, mon=block.mon, attack=block.attack,
                                    leader=leader)
    used = Counter(_key(f) for f in faces.values())
    for key, n in used.items():
        if n > manifest[key]:
            rule, what = _component(key)
            ids = ", ".join(b for b, f in faces.items() if _key(f) == key)
            raise RuleViolation(
                rule, f"{ids}: the game has {manifest[key]} {what}, not {n}")
    return faces


def _key(face: BlockFace) -> FaceKey:
    return (face.clan, face.mon, face.attack, face.leader)


def _leader(block_id: str, block: GivenBlock, manifest: Counter[FaceKey], cardless: bool) -> bool:
    options = [
        leader for leader in (False, True)
        if manifest[(block.clan, block.mon, block.attack, leader)]
    ]
    described = _describe(block.clan, block.mon, block.attack)
    if not options:
        rule, why = _missing(block)
        raise RuleViolation(rule, f"block {block_id}: no {described} block exists ({why})")
    if block.leader is not None:
        if block.leader not in options:
            kind = "leader" if block.leader else "non-leader"
            only = "a leader" if options == [True] else "not a leader"
            raise RuleViolation(
                "3.2", f"block {block_id}: there is no {kind} {described} block: it is {only}")
        return block.leader
    if len(options) == 1:
        return options[0]
    if block.clan in (Clan.TOKUGAWA, Clan.ISHIDA) or cardless:
        rule = "2.1" if block.clan in (Clan.TOKUGAWA, Clan.ISHIDA) else "8.2.4"
        raise RuleViolation(
            rule, f"block {block_id}: a {described} block may be a leader or not and it decides "
            f'the ruling: add "leader": true or "leader": false')
    return False


def _describe(clan: Clan, mon: int, attack: Attack | None) -> str:
    return f"{clan.value} {mon}-mon" + (f" {attack.value}" if attack else "")


def _missing(block: GivenBlock) -> tuple[str, str]:
    """The component rule a face that does not exist breaks."""
    if block.clan is Clan.II or block.mon == 4:
        return "9.4", "the only 4-mon block is the single Ii block"
    if block.clan is Clan.ISHIDA:
        return "9.5", "the single Ishida block is Ishida Mitsunari, a 1-mon leader"
    if block.attack is not None and block.mon != 1:
        return "3.2", "gun and cavalry are on 1-mon blocks only"
    return "3.2", "not a face in the block manifest"


def _component(key: FaceKey) -> tuple[str, str]:
    """The rule that fixes how many blocks of a face there are, and the face in words."""
    clan, mon, attack, leader = key
    what = _describe(clan, mon, attack) + (" leader" if leader else "") + " block(s)"
    if clan is Clan.II:
        return "9.4", what
    if clan is Clan.ISHIDA:
        return "9.5", what
    if leader and clan is Clan.TOKUGAWA:
        return "2.1", what + " (Tokugawa Ieyasu)"
    if leader and clan is Clan.MORI:
        return "9.3", what + " (Mōri Terumoto)"
    return "3.2", what + " in the block manifest"
