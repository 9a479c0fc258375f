"""Suite-wide settings for running on two CPUs (``make test`` runs pytest-xdist
with ``--dist loadgroup``), and the nightly set's slices (``--nightly-slice K/N``).

Each browser test file's tests run on one worker, one after another (``xdist_group``
per file), so that they share one Chromium (``tests/server/conftest.py``'s ``browser``
keeps it open while the next test on the worker uses it) rather than launching one
each; everything else spreads over the workers test by test. A test that needs to be alone with a shared resource (one database,
one port) can name its own group with ``@pytest.mark.xdist_group("name")``. The
long files are handed out first (:data:`LONG_FIRST`), and the server and browser tests,
which mostly wait, are handed out between the others (:func:`spread_waiting`), so that
the workers do not all wait at once while a CPU idles.
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


LONG_FIRST = ("tests/cli/test_doc_commands.py", "tests/bots/",
              "tests/core/test_legal_vs_reference.py")
"""Where the suite's long tests that keep a CPU busy are, longest first: the order xdist
hands them out (the Makefile passes ``--no-loadscope-reorder``, without which xdist would
hand out the groups of many tests, the browser files, before everything else)."""

WAITING = "tests/server/"
"""The tests that mostly wait (on a live server, a browser, PostgreSQL, a timeout): handed
out between the others rather than together, so that no two workers wait at once while a
CPU idles. Each browser file is one unit (its tests share a Chromium and a worker)."""

WAITING_SPREAD = 0.8
"""The share of the other tests that the waiting units are spread over (none of them left
for the very end, where a browser file could leave one worker running alone)."""


def spread_waiting(items: list[pytest.Item]) -> list[pytest.Item]:
    """*items* (in :func:`schedule_rank` order) with the waiting tests taken out and put
    back between the others, in their order, over the first :data:`WAITING_SPREAD` of
    them: the browser files (each one unit, its tests together) evenly, and the other
    waiting tests evenly, so that neither kind comes in a bunch.

    >>> from pathlib import Path
    >>> class Item:
    ...     def __init__(self, name): self.path = Path(f"/r/tests/{name}")
    ...     def __repr__(self): return self.path.name
    >>> spread_waiting([Item(n) for n in ["server/test_browser_a.py", "server/test_browser_a.py",
    ...                                   "server/test_b.py", "core/1", "core/2", "core/3"]])
    [test_browser_a.py, test_browser_a.py, test_b.py, 1, 2, 3]
    """
    browsers: dict[str, list[pytest.Item]] = {}
    others: list[list[pytest.Item]] = []
    rest = []
    for item in items:
        path = item.path.as_posix()
        if f"/{WAITING}" not in path:
            rest.append(item)
        elif item.path.name.startswith("test_browser"):
            browsers.setdefault(path, []).append(item)
        else:
            others.append([item])
    placed = sorted(((k * len(rest) * WAITING_SPREAD / len(kind), unit)
                     for kind in (list(browsers.values()), others)
                     for k, unit in enumerate(kind)), key=lambda placing: placing[0])
    out: list[pytest.Item] = []
    at = 0
    for where, unit in placed:
        while at < len(rest) and at < where:
            out.append(rest[at])
            at += 1
        out += unit
    return out + rest[at:]


LOST_GROUPS = pytest.StashKey[str]()


def check_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Fail the grouped tests if ``--dist loadgroup`` did not group them.

    pytest-xdist tells its scheduler a test's group by appending ``@group`` to the
    test's id, and pytest 9.2 no longer lets it (pytest-dev/pytest-xdist#1386):
    every browser file would then start a Chromium and a server on each worker,
    silently. ``pyproject.toml`` keeps pytest below 9.2 for that; this says so if
    an upgrade brings it back (each grouped test fails with the reason: an error
    raised here would reach the controller as a bare crash)."""
    if not getattr(config.option, "loadgroup", False):
        return  # not a loadgroup worker (a plain run, or the controller)
    lost = [item for item in items
            if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    for item in lost:
        item.stash[LOST_GROUPS] = (
            "--dist loadgroup did not group this test: this pytest-xdist cannot mark groups "
            "under this pytest (pytest-dev/pytest-xdist#1386); install the versions that "
            "pyproject.toml's test extra names")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if LOST_GROUPS in item.stash:
        pytest.fail(item.stash[LOST_GROUPS], pytrace=False)


def schedule_rank(item: pytest.Item) -> int:
    """The position of *item*'s file in :data:`LONG_FIRST` (after them: everything else)."""
    path = item.path.as_posix()
    return next((i for i, part in enumerate(LONG_FIRST) if f"/{part}" in path), len(LONG_FIRST))


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    check_groups(session.config, session.items)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith("test_browser") and item.path.suffix == ".py":
            item.add_marker(pytest.mark.xdist_group(f"browser:{item.path.stem}"))
    # the long work first, so that the workers stay busy to the end; the waiting tests
    # spread between the others (each browser file goes to one worker as a whole)
    items.sort(key=schedule_rank)
    items[:] = spread_waiting(items)
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
