"""Discrepancies against a real MoveRules (the board's road graph), with the real bridge."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from fb_helpers import WAIT_S, placed

from companion.games.sekigahara.components import Clan, default_blocks
from companion.games.sekigahara.table import AdjacencyRules
from firmware_bridge.bridge import Bridge
from firmware_bridge.discrepancy import MoveRules, Reconciliation, count_blocks
from firmware_bridge.protocol import LedMode
from firmware_bridge.simtable import SimulatedTable

IDENTITY = re.compile(
    r"\b(" + "|".join(c.value for c in Clan) + r"|mon|cavalry|gun|leader|[IT]\d\d)\b", re.I
)


def _public(result: Reconciliation) -> str:
    return "\n".join(d.public() for d in result.discrepancies)


def _setup(table: SimulatedTable, bridge: Bridge) -> AdjacencyRules:
    for block, zone in (("I01", "gifu"), ("I02", "gifu"), ("T01", "osaka"), ("T02", "osaka"),
                        ("T03", "osaka")):
        table.put(block, zone)
    bridge.wait_for(lambda b: len(b.placements()) == 5, WAIT_S)
    return AdjacencyRules(bridge.placements())


def test_adjacency_rules_satisfy_the_engine_interface() -> None:
    assert isinstance(AdjacencyRules({}), MoveRules)


def test_a_legal_move_is_proposed_not_flagged(table: SimulatedTable, bridge: Bridge) -> None:
    rules = _setup(table, bridge)
    table.move("gifu", "kiyosu")  # one road away
    bridge.wait_for(lambda b: placed(b, "I01", "kiyosu") and placed(b, "I02", "kiyosu"), WAIT_S)
    result = bridge.reconcile(rules)
    assert result.discrepancies == ()
    assert [(m.origin, m.destination, m.block_ids) for m in result.legal_moves] == [
        ("gifu", "kiyosu", ("I01", "I02"))
    ]
    rules.apply(result.legal_moves[0])
    assert bridge.reconcile(rules).clean


def test_an_illegal_move_says_how_to_fix_it_and_blinks_both_ends(
    table: SimulatedTable, bridge: Bridge
) -> None:
    rules = _setup(table, bridge)
    table.lift("I01")
    table.put("I01", "edo")  # nowhere near gifu
    bridge.wait_for(lambda b: placed(b, "I01", "edo"), WAIT_S)
    result = bridge.reconcile(rules)
    [problem] = result.discrepancies
    assert problem.kind == "illegal_move"
    assert problem.text.startswith("a gold block moved from Gifu to Edo")
    assert problem.fix == "put it back on Gifu"
    assert problem.rule == "7.3.1"
    assert not IDENTITY.search(problem.public())
    gifu_hub, gifu_antenna = table.antenna("gifu")
    edo_hub, edo_antenna = table.antenna("edo")
    bridge.wait_for(lambda b: gifu_hub.leds.get(gifu_antenna) == LedMode.BLINK
                    and edo_hub.leds.get(edo_antenna) == LedMode.BLINK, WAIT_S)

    table.lift("I01")
    table.put("I01", "gifu")  # fixed as told
    bridge.wait_for(lambda b: placed(b, "I01", "gifu"), WAIT_S)
    assert bridge.reconcile(rules).clean
    bridge.wait_for(lambda b: gifu_hub.leds.get(gifu_antenna) == LedMode.OFF, WAIT_S)


def test_missing_blocks_are_counted_by_colour_only(
    table: SimulatedTable, bridge: Bridge
) -> None:
    rules = _setup(table, bridge)
    bridge.tracker.missing_after_s = 0.3
    table.lift("T01")
    table.lift("T02")
    bridge.wait_for(lambda b: b.tracker.missing.keys() >= {"T01", "T02"}, WAIT_S)
    result = bridge.reconcile(rules)
    assert _public(result) == "two black blocks missing from Osaka - put them back on Osaka"
    assert result.led_modes() == {"osaka": LedMode.BLINK}


def test_unknown_tags_ambiguity_and_dead_readers_are_discrepancies(
    table: SimulatedTable, bridge: Bridge
) -> None:
    rules = _setup(table, bridge)
    table.put("E0040150DEADBEEF", "kyoto")
    table.execute("fault osaka NO_READER")
    bridge.wait_for(lambda b: "E0040150DEADBEEF" in b.view().where
                    and "osaka" in b.view().unobserved, WAIT_S)
    text = _public(bridge.reconcile(rules))
    assert "an unregistered tag on Kyoto - take it off Kyoto, or register it" in text
    assert "the reader under Osaka is not reporting" in text
    assert not IDENTITY.search(text)


def test_a_correction_declares_a_dead_tag_and_dismisses_a_discrepancy(
    table: SimulatedTable, bridge: Bridge, tmp_path: object
) -> None:
    rules = _setup(table, bridge)
    table.lift("I02")  # its tag died, but the block is still on gifu
    bridge.tracker.missing_after_s = 0.2
    bridge.wait_for(lambda b: "I02" in b.tracker.missing, WAIT_S)
    assert bridge.reconcile(rules).discrepancies
    bridge.corrections.declare(bridge.tracker, "I02", "gifu", "tag under the block is dead")
    bridge.set_registry(bridge.registry)  # re-run tracking with the declaration
    assert placed(bridge, "I02", "gifu")
    assert bridge.reconcile(rules).clean

    table.put("T05", "edo")  # a block the rules do not know about
    bridge.wait_for(lambda b: placed(b, "T05", "edo"), WAIT_S)
    [extra] = bridge.reconcile(rules).discrepancies
    assert extra.public() == "a black block on Edo not in play - take it off Edo"
    bridge.corrections.dismiss(extra, "house rule: a spare block marks the turn")
    assert bridge.reconcile(rules).clean
    assert [e["kind"] for e in bridge.corrections.entries] == ["declare", "dismiss"]


def test_count_blocks_wording() -> None:
    from companion.games.sekigahara.components import Side

    assert count_blocks([Side.ISHIDA]) == "a gold block"
    assert count_blocks([Side.TOKUGAWA] * 2 + [Side.ISHIDA]) == "a gold block and two black blocks"
    assert count_blocks([Side.TOKUGAWA] * 12) == "12 black blocks"


def test_no_message_leaks_identity_on_a_busy_table(table: SimulatedTable, bridge: Bridge) -> None:
    table.populate()
    bridge.wait_for(lambda b: len(b.placements()) == len(default_blocks().blocks), WAIT_S)
    rules = AdjacencyRules({b: "edo" for b in bridge.placements()})  # every block "misplaced"
    time.sleep(0.1)
    text = _public(bridge.reconcile(rules))
    assert text and not IDENTITY.search(text)


def test_corrections_are_appended_to_their_log_file(tmp_path: Path) -> None:
    from firmware_bridge.corrections import CorrectionLog
    from firmware_bridge.registry import TagRegistry
    from firmware_bridge.tracking import Tracker

    log = CorrectionLog(tmp_path / "corrections.jsonl")
    tracker = Tracker(TagRegistry())
    log.declare(tracker, "I05", "gifu", "dead tag")
    log.undeclare(tracker, "I05", "tag replaced")
    lines = [json.loads(line) for line in (tmp_path / "corrections.jsonl").read_text().splitlines()]
    assert [(e["kind"], e["note"]) for e in lines] == [("declare", "dead tag"),
                                                       ("undeclare", "tag replaced")]
    assert all(e["at"] for e in lines) and tracker.declared == {}
