"""The tournament's topic tree and accounts (docs/tournament.md, "Topics").

Every topic lies under ``companion/<event>/``; a table's account is its table name
(``table-03``), a referee's ``referee-<name>``, and the players' shared read-only account is
``players``. The broker's access list (:mod:`tournament.broker`) is written from these names, so a
topic spelled here is the only place it is spelled.
"""

from __future__ import annotations

import re

ROOT = "companion"
TABLE_NAME = re.compile(r"^table-\d{2,3}$")
REFEREE_NAME = re.compile(r"^referee-[a-z][a-z0-9-]{0,30}$")
EVENT_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")
PLAYERS = "players"
"""The players' devices' account: public topics only."""


def table_name(number: int) -> str:
    """``table-03`` for table 3: two digits up to 99 tables, three beyond."""
    return f"table-{number:02d}"


def event_root(event: str) -> str:
    return f"{ROOT}/{event}"


def table_topic(event: str, table: str, leaf: str) -> str:
    """A table's topic: ``status`` (retained), ``events``, ``alerts``, ``seals`` (retained),
    ``record/request`` (referees ask for the full record)."""
    return f"{event_root(event)}/tables/{table}/{leaf}"


def record_reply_topic(event: str, referee: str, request_id: str) -> str:
    """Where a table answers a referee's record request: only that referee reads it."""
    return f"{event_root(event)}/referees/{referee}/records/{request_id}"


PUBLIC_LEAVES = ("status", "events", "alerts", "seals")
