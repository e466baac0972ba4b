"""The whole suite's order: the longest tests start first.

``python3 dev.py test`` runs the suite on parallel workers (pytest-xdist, ``--dist
worksteal``), which take tests in collection order: a long test collected last would run alone
at the end while the other workers sit idle. The modules listed here (each takes 20 s or more of
CPU, measured with ``--durations``) are collected first, the longest first; the order within a
module, and every other module's, is unchanged.
"""

from __future__ import annotations

import pytest

LONGEST_FIRST = (
    "tests/ui/test_ui_legibility.py",  # ten recorded demo games
    "tests/games/sekigahara/test_records.py",  # 3,300 mutated logs re-adjudicated
    "tests/games/sekigahara/engine/test_selfplay.py",  # 1,000 checked games
    "tests/ui/test_ui_tenka.py",  # whole Tenka Meidou games at five panel sizes
    "tests/packaging/test_wheel.py",  # a wheel installed into a fresh venv
    "tests/ui/test_ui_table.py",
    "tests/ui/test_ui_concealment.py",
    "tests/ui/test_ui_words.py",
    "tests/ui/test_ui_tenka_war.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: the order within a rank is kept
