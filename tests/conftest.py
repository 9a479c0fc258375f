"""Suite-wide settings for running on two CPUs (``make test`` runs pytest-xdist
with ``--dist loadgroup``), and the nightly set's slices (``--nightly-slice K/N``).

Each browser test file shares one Chromium through a module-scoped fixture,
so its tests are kept on one worker (``xdist_group`` per file) rather than
launching a browser on each; everything else spreads over the workers test
by test. A test that needs to be alone with a shared resource (one database,
one port) can name its own group with ``@pytest.mark.xdist_group("name")``. The
long files are handed out first (:data:`LONG_FIRST`), so that no worker is left alone
with a browser file at the end.
"""

from __future__ import annotations

import re
import zlib

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--nightly-slice", metavar="K/N", default=None,
        help="run only part K of N (0 <= K < N) of the tests marked nightly, split by a "
             "hash of their ids; the other tests are untouched (CI turns K with the day)")


def nightly_slice(text: str | None) -> tuple[int, int] | None:
    """``"K/N"`` as ``(K, N)``; ``None`` for no slice. Raises ``pytest.UsageError``."""
    if text is None:
        return None
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if not m or not 0 <= int(m[1]) < int(m[2]):
        raise pytest.UsageError(f"--nightly-slice {text!r}: give K/N with 0 <= K < N, as 3/7")
    return int(m[1]), int(m[2])


LONG_FIRST = ("tests/server/test_browser", "tests/cli/test_doc_commands.py", "tests/bots/",
              "tests/server/", "tests/core/test_legal_vs_reference.py")
"""Where the suite's long tests are, longest groups first: the order xdist hands them out."""


def schedule_rank(item: pytest.Item) -> int:
    """The position of *item*'s file in :data:`LONG_FIRST` (after them: everything else)."""
    path = item.path.as_posix()
    return next((i for i, part in enumerate(LONG_FIRST) if f"/{part}" in path), len(LONG_FIRST))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith("test_browser") and item.path.suffix == ".py":
            item.add_marker(pytest.mark.xdist_group(f"browser:{item.path.stem}"))
    # the long work first, so that both workers stay busy to the end: each browser file
    # goes to one worker as a whole, and started last they would leave the other idle
    items.sort(key=schedule_rank)
    part = nightly_slice(config.getoption("--nightly-slice"))
    if part is not None:
        k, n = part
        keep, drop = [], []
        for item in items:
            other = zlib.crc32(item.nodeid.encode()) % n != k
            (drop if item.get_closest_marker("nightly") and other else keep).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep
