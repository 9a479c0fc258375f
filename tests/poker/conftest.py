"""Shared helpers for the poker tests: the OneJoker test data (must be present)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TESTDATA = Path(__file__).resolve().parents[3] / "shared" / "testdata"


def load_rows(name: str) -> list[list[object]]:
    """Rows of a ``.jsonc`` test-data file; fails (never skips) when it is missing."""
    path = TESTDATA / name
    assert path.is_file(), f"test data missing: {path} (see the project's shared/testdata)"
    rows = [json.loads(line.rstrip().rstrip(",")) for line in path.open() if line.startswith('["')]
    assert len(rows) == 100_000
    return rows


def spaced(compact: str) -> str:
    """``'6h9s4s5h3c'`` → ``'6h 9s 4s 5h 3c'``."""
    return " ".join(compact[i:i + 2] for i in range(0, len(compact), 2))


@pytest.fixture(scope="session")
def to_text():  # type: ignore[no-untyped-def]
    """The :func:`spaced` helper, as a fixture (test modules do not import conftest)."""
    return spaced


@pytest.fixture(scope="session")
def five_rows() -> list[list[object]]:
    return load_rows("poker_hands_100k.jsonc")


@pytest.fixture(scope="session")
def seven_rows() -> list[list[object]]:
    return load_rows("seven_card_hands_100k.jsonc")
