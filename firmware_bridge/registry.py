"""The tag registry: which tag UID is glued into which block.

A YAML file the registration flow writes (``companion hardware register-tags``)::

    tags:
      E004015000000001: I01
      E004015000000002: T17

Blocks with the same face are interchangeable, so the flow asks for a block's *face*
("mori 3", "tokugawa 1 gun", "ishida leader") and assigns the next unregistered block id with
that face; a block id ("I07") is accepted too.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from companion.games.sekigahara.components import (
    Attack,
    Block,
    BlockFace,
    BlockSet,
    Clan,
    SetupSymbol,
    default_blocks,
)
from firmware_bridge.files import load_model, save_yaml
from firmware_bridge.protocol import UID_PATTERN


class TagRegistry(BaseModel):
    """uid -> block id, one tag per block."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tags: dict[str, str] = {}

    @field_validator("tags")
    @classmethod
    def _valid(cls, tags: dict[str, str]) -> dict[str, str]:
        blocks = default_blocks().by_id()
        owner: dict[str, str] = {}
        for uid, block_id in tags.items():
            if UID_PATTERN.fullmatch(str(uid)) is None:
                raise ValueError(f"{uid!r} is not a tag uid (16 upper-case hex digits)")
            if block_id not in blocks:
                raise ValueError(f"{uid}: unknown block {block_id!r}")
            if block_id in owner:
                raise ValueError(f"{uid}: block {block_id} already has tag {owner[block_id]}")
            owner[block_id] = uid
        return tags

    @classmethod
    def load(cls, path: Path) -> TagRegistry:
        return load_model(path, cls)

    def save(self, path: Path) -> None:
        save_yaml(path, self.model_dump(), "Tag registry: tag uid -> block id (docs/bridge.md).")

    def block_of(self, uid: str) -> str | None:
        return self.tags.get(uid)

    def uid_of(self, block_id: str) -> str | None:
        return next((u for u, b in self.tags.items() if b == block_id), None)

    def with_tag(self, uid: str, block_id: str) -> TagRegistry:
        tags = {u: b for u, b in self.tags.items() if b != block_id and u != uid}
        tags[uid] = block_id
        return TagRegistry(tags=tags)

    def unregistered_blocks(self, blocks: BlockSet | None = None) -> list[Block]:
        taken = set(self.tags.values())
        return [b for b in (blocks or default_blocks()).blocks if b.id not in taken]


_WORD = re.compile(r"[a-z0-9]+")


def _face_matches(face: BlockFace, words: list[str]) -> bool:
    wanted_attack = next((a for a in Attack if a.value in words), None)
    mon = next((int(w) for w in words if w.isdigit()), None)
    clan = next((c for c in Clan if c.value in words), None)
    setup = next((s for s in SetupSymbol if s.value in words), None)
    return (
        (setup is None or face.setup is setup)
        and (clan is None or face.clan is clan)
        and (mon is None or face.mon == mon)
        and face.attack is wanted_attack
        and face.leader == ("leader" in words)
    )


def _describe(face: BlockFace) -> str:
    setup = f" {face.setup.value}" if face.setup else ""
    return face.describe() + setup


def resolve_block(answer: str, registry: TagRegistry, blocks: BlockSet | None = None) -> Block:
    """The block a registering user means by ``answer``: a block id, or a face description.

    Raises ValueError with a message for the user when it names no block or several kinds.
    """
    block_set = blocks or default_blocks()
    by_id = block_set.by_id()
    text = answer.strip()
    if text.upper() in by_id:
        return by_id[text.upper()]
    words = _WORD.findall(text.lower())
    if not words or not any(c.value in words for c in Clan):
        raise ValueError(f"{answer!r}: say a block id (I07) or a face: clan, mon, gun/cavalry")
    free = [b for b in registry.unregistered_blocks(block_set) if _face_matches(b.face, words)]
    if not free:
        raise ValueError(f"no unregistered block has the face {answer!r}")
    faces = {b.face for b in free}
    if len(faces) > 1 and not any(s.value in words for s in SetupSymbol):
        plain = [b for b in free if b.face.setup is None]  # no symbol named: the unmarked one
        if plain and len({b.face for b in plain}) == 1:
            return plain[0]
    if len(faces) > 1:
        options = "; ".join(sorted(_describe(f) for f in faces))
        raise ValueError(f"{answer!r} fits several faces: {options}")
    return free[0]
