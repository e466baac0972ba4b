"""The tag registry: which tag UID is glued into which piece (a block, a pawn).

A YAML file the registration flow writes (``companion hardware register-tags``)::

    tags:
      E004015000000001: I01
      E004015000000002: T17

Piece ids are checked against the manifest of the game being served
(:func:`firmware_bridge.zones.active_table`). The flow asks the player which piece a tag is in,
in the game's words (:meth:`companion.core.table.GameTable.resolve_piece`: for Sekigahara a
block's face, "mori 3", or its id, "I07").
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from companion.core.table import GameTable
from firmware_bridge.files import load_model, save_yaml
from firmware_bridge.protocol import UID_PATTERN
from firmware_bridge.zones import active_table


class TagRegistry(BaseModel):
    """uid -> piece id, one tag per piece (of the game being served)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tags: dict[str, str] = {}

    @field_validator("tags")
    @classmethod
    def _valid(cls, tags: dict[str, str]) -> dict[str, str]:
        blocks = {p.id for p in active_table().pieces()}
        owner: dict[str, str] = {}
        for uid, block_id in tags.items():
            if UID_PATTERN.fullmatch(str(uid)) is None:
                raise ValueError(f"{uid!r} is not a tag uid (16 upper-case hex digits)")
            if block_id not in blocks:
                raise ValueError(f"{uid}: unknown {active_table().piece_word} {block_id!r}")
            if block_id in owner:
                raise ValueError(f"{uid}: {active_table().piece_word} {block_id} already has tag "
                                 f"{owner[block_id]}")
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

    def unregistered(self, table: GameTable | None = None) -> list[str]:
        """The pieces of the game that have no tag yet."""
        taken = set(self.tags.values())
        return [p.id for p in (table or active_table()).pieces() if p.id not in taken]


def resolve_piece(answer: str, registry: TagRegistry, table: GameTable | None = None) -> str:
    """The piece a registering player means by ``answer`` (the game's words: a block's face or
    id for Sekigahara); ValueError with a message for the player if it names none."""
    return (table or active_table()).resolve_piece(answer, set(registry.tags.values()))
