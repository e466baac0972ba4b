"""The log is no place for hidden information: which block is which (its id, or its tag's
UID, which the registry turns into one) never reaches a bridge log line at INFO or above, even
when a subscriber fails on an event that names blocks, a hub refuses a FOCUS naming the tags in
hand, or players correct the table. A sim game on real pseudo-terminals, every record captured.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fb_game import lay_out, seeded_movement
from fb_helpers import WAIT_S

from firmware_bridge.bridge import Bridge
from firmware_bridge.corrections import CorrectionLog
from firmware_bridge.simtable import SimulatedTable
from firmware_bridge.table_session import TableSession
from firmware_bridge.tracking import TrackEvent


@pytest.fixture
def bridge(table: SimulatedTable, tmp_path: Path) -> Iterator[Bridge]:
    with Bridge(table.ports, wiring=table.wiring, registry=table.registry,
                missing_after_s=60.0,
                corrections=CorrectionLog(tmp_path / "corrections.jsonl")) as running:
        running.wait_for(lambda b: len(b.hubs()) == 2, WAIT_S)
        yield running


def broken_subscriber(event: TrackEvent) -> None:
    """A subscriber with a bug that names the block in its exception."""
    raise KeyError(f"no seat for {getattr(event, 'block_ids', None) or event}")


def test_no_bridge_log_line_at_info_or_above_names_a_block(
        table: SimulatedTable, bridge: Bridge, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    bridge.subscribe(broken_subscriber)
    game = seeded_movement()
    lay_out(table, bridge, game)
    with TableSession(bridge, game) as session:
        session.wait_for(lambda s: s.discrepancies == () and not s.questions, WAIT_S)
        for hub in table.hubs.values():
            hub.protocol = (1, 2)  # said 1.3 in its HELLO; now refuses FOCUS
        for block in ("I10", "I44"):
            table.lift(block)
        bridge.wait_for(lambda b: set(b.holding()) == {"I10", "I44"}, WAIT_S)
        assert session.show_destinations("kyoto", ("I10", "I44"))
        bridge.wait_for(lambda b: any(h.link is not None and "Focus" in h.link.refusals
                                      for h in b.hubs().values()), WAIT_S)
        for block in ("I10", "I44"):
            table.put(block, "kyoto")
        session.clear_destinations()
        bridge.wait_for(lambda b: not b.holding(), WAIT_S)

        table.move("gifu", "kiso")  # a legal move: the broken subscriber fails on it
        session.wait_for(lambda s: s.game.state.pos["I11"] == "kiso", WAIT_S)
        table.lift("I11")  # a dead tag, declared where the game has it
        bridge.wait_for(lambda b: "I11" in b.holding(), WAIT_S)
        bridge.give_up(["I11"])
        [missing] = session.wait_for(lambda s: s.discrepancies, WAIT_S)
        session.trust_engine(missing, "its tag is dead")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)
        table.move("osaka", "hakone")  # illegal; the players accept the table as it is
        [illegal] = session.wait_for(lambda s: s.discrepancies, WAIT_S)
        session.accept_table(illegal, "house rule")
        session.wait_for(lambda s: s.discrepancies == (), WAIT_S)

    secrets = re.compile(r"\b(" + "|".join(
        sorted({*table.registry.tags, *table.registry.tags.values()})) + r")\b")
    told = [(r, _text(r)) for r in caplog.records
            if r.levelno >= logging.INFO and r.name.startswith("firmware_bridge")]
    failures = [t for r, t in told if r.levelno >= logging.ERROR and "broken_subscriber" in t]
    assert any("failed on a StackMoved event: KeyError" in t for t in failures), failures
    assert any("refused Focus" in t for _, t in told), "the FOCUS refusal is logged"
    assert any("correction: declare a block on kiso" in t for _, t in told)
    leaks = [t for _, t in told if secrets.search(t)]
    assert leaks == []
    below = [r for r in caplog.records if r.levelno < logging.INFO and secrets.search(_text(r))]
    assert below, "the details are still there for a debugging log"


def _text(record: logging.LogRecord) -> str:
    formatter = logging.Formatter()
    text = record.getMessage()
    if record.exc_info:
        text += "\n" + formatter.formatException(record.exc_info)
    return text
