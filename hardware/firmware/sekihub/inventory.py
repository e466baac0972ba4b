"""The ISO/IEC 15693 inventory with 16 slots and mask recursion, independent of the chip.

A chip driver supplies two primitives (both with the field already on):

``probe()``
    a one-slot INVENTORY: False if no tag answered at all (the common case for an empty
    location: about 2 ms of air time instead of a 16-slot round).
``inventory_round(mask_value, mask_len)``
    a 16-slot INVENTORY: a list of 16 ``(kind, uid)`` pairs, ``kind`` being ``EMPTY``,
    ``TAG`` (uid is an int) or ``GARBLED`` (several tags answered, or the frame was damaged).

Each tag answers in the slot named by the 4 UID bits above the mask (ISO/IEC 15693-3, 8.2),
so a garbled slot ``s`` is asked again with the mask extended by ``s``: the tags that shared
it now spread over the next 4 bits. That repeats until every slot is clean or the mask reaches
the 60 bits a 16-slot request allows.
"""

from sekihub.drivers import InventoryResult
from sekihub.iso15693 import matches, slot_of

EMPTY = 0
TAG = 1
GARBLED = 2

MAX_MASK_LEN = 60


def run_inventory(chip, max_rounds=48, poll=None):
    """Every UID in range as an InventoryResult (complete=False if rounds ran out).

    ``poll`` (optional) is called between rounds: the hub answers host commands there.
    """
    uids = set()
    if not chip.probe():
        return InventoryResult(uids, True, 0)
    complete = True
    rounds = 0
    pending = [(0, 0)]
    while pending:
        if rounds >= max_rounds:
            complete = False
            break
        if rounds and poll is not None:
            poll()
        value, length = pending.pop()
        results = chip.inventory_round(value, length)
        rounds += 1
        for slot in range(16):
            kind, uid = results[slot]
            if kind == TAG and matches(uid, value, length) and slot_of(uid, length) == slot:
                uids.add(uid)
            elif kind != EMPTY:
                # a collision, a damaged frame, or a UID that cannot be in this slot
                if length + 4 <= MAX_MASK_LEN:
                    pending.append((value | (slot << length), length + 4))
                else:
                    complete = False
    return InventoryResult(uids, complete, rounds)
