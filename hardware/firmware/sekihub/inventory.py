"""The ISO/IEC 15693 inventory with 16 slots, mask recursion and STAY QUIET, chip-independent.

A chip driver supplies three primitives (all with the field already on):

``probe()``
    a one-slot INVENTORY: ``(kind, uid)`` as for a slot below. ``EMPTY`` is the common case
    for an empty location (about 2 ms of air time instead of a 16-slot round); ``TAG`` for a
    lone block (quieted and probed again, no round needed).
``inventory_round(mask_value, mask_len)``
    a 16-slot INVENTORY: a list of 16 ``(kind, uid)`` pairs, ``kind`` being ``EMPTY``,
    ``TAG`` (uid is an int) or ``GARBLED`` (several tags answered, or the frame was damaged).
``stay_quiet(uid)``
    an addressed STAY QUIET: that tag answers no more inventories until the field goes off.

Each tag answers in the slot named by the 4 UID bits above the mask (ISO/IEC 15693-3, 8.2),
so a garbled slot ``s`` is asked again with the mask extended by ``s``: the tags that shared
it now spread over the next 4 bits. That repeats until every slot is clean or the mask reaches
the 60 bits a 16-slot request allows.

A clean slot does not prove that only one tag answered: a tag much closer to the antenna can
drown a weaker one in the same slot (the capture effect), and the reader then decodes the
strong one without any collision flag. So every tag found is sent STAY QUIET, and once the
rounds are done a last probe must hear nobody: only then is the read *complete*. If anyone
still answers, the rounds start again (the quiet tags no longer answer, so the hidden ones
now can).

A **quick read** (protocol 1.3, docs/protocol.md 5.2) first sends STAY QUIET to every tag the
antenna listed last time (``quiet``): those no longer answer, so the same inventory then finds
only newcomers, and an unchanged stack costs one STAY QUIET per tag and a lone unanswered probe
instead of its rounds.
"""

from sekihub.drivers import InventoryResult
from sekihub.iso15693 import matches, slot_of

EMPTY = 0
TAG = 1
GARBLED = 2

MAX_MASK_LEN = 60
MAX_PROBES = 24  # probes after the first; each follows a quieted tag or a pass of rounds


def run_inventory(chip, max_rounds=48, poll=None, quiet=()):
    """Every UID in range as an InventoryResult (with ``quiet``: every UID in range but those).

    ``complete`` is True only when a final probe, with every found tag quiet, heard nobody and
    no slot stayed garbled; running out of rounds or probes leaves it False. A probe that
    hears exactly one tag cleanly needs no round: that tag is quieted and the probe repeated.
    ``poll`` (optional) is called between rounds: the hub answers host commands there.
    ``quiet``: UIDs told to stay quiet first (a quick read); they are not in the result.
    """
    for uid in quiet:
        chip.stay_quiet(uid)
    uids = set()
    rounds = 0
    resolved = True
    kind, uid = chip.probe()
    probes = 0
    while kind != EMPTY:
        if probes >= MAX_PROBES or rounds >= max_rounds:
            return InventoryResult(uids, False, rounds)
        if kind == TAG:
            uids.add(uid)
            chip.stay_quiet(uid)
        else:
            used, ok = _rounds(chip, uids, max_rounds - rounds, poll)
            rounds += used
            if ok is None:
                return InventoryResult(uids, False, rounds)
            resolved = resolved and ok
        if poll is not None:
            poll()
        kind, uid = chip.probe()
        probes += 1
    return InventoryResult(uids, resolved, rounds)


def _rounds(chip, uids, budget, poll):
    """16-slot rounds from an empty mask until no slot is left to split: (rounds used, ok).

    ok is False if some slot stayed garbled at the longest mask, None if the budget ran out.
    Every tag heard is added to ``uids`` and sent STAY QUIET.
    """
    pending = [(0, 0)]
    used = 0
    ok = True
    while pending:
        if used >= budget:
            return used, None
        if used and poll is not None:
            poll()
        value, length = pending.pop()
        results = chip.inventory_round(value, length)
        used += 1
        for slot in range(16):
            kind, uid = results[slot]
            if kind == TAG and matches(uid, value, length) and slot_of(uid, length) == slot:
                uids.add(uid)
                chip.stay_quiet(uid)
            elif kind != EMPTY:
                # a collision, a damaged frame, or a UID that cannot be in this slot
                if length + 4 <= MAX_MASK_LEN:
                    pending.append((value | (slot << length), length + 4))
                else:
                    ok = False
    return used, ok


WANT_MASK_BITS = 24  # a watch asks with this many low UID bits (protocol.WANT_MASK_BITS)


def run_watch(chip, wanted):
    """A watch read (protocol 1.3, docs/protocol.md 5.2): for each wanted UID a one-slot
    INVENTORY masked with its low ``WANT_MASK_BITS`` bits, which only that tag (or one sharing
    those bits) answers; everything else on the antenna stays silent. The tags that answered;
    ``complete`` is False when a probe came back garbled (something is there that needs a full
    read). The chip primitive is ``probe_for(mask_value, mask_len)``."""
    found = set()
    clean = True
    mask = (1 << WANT_MASK_BITS) - 1
    for uid in wanted:
        kind, heard = chip.probe_for(uid & mask, WANT_MASK_BITS)
        if kind == TAG and heard is not None:
            found.add(heard)
        elif kind != EMPTY:
            clean = False
    return InventoryResult(found, clean)
