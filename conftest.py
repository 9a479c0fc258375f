"""Collection rules for the whole checkout (``tests/conftest.py`` holds the suite's own).

``--doctest-modules`` imports every module under ``src/big2`` to look for examples, in
every pytest-xdist worker; a module whose text holds no ``>>>`` has none, and importing
it can cost seconds (``big2.learn.ppo_model`` imports PyTorch), so it is not collected.
"""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parent / "src"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if (collection_path.suffix == ".py" and collection_path.is_relative_to(SRC)
            and ">>>" not in collection_path.read_text(encoding="utf-8")):
        return True
    return None
