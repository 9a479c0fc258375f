"""Suite-wide settings for running on both cores (``make test`` runs pytest-xdist
with ``--dist loadgroup``).

Each browser test file shares one Chromium through a module-scoped fixture,
so its tests are kept on one worker (``xdist_group`` per file) rather than
launching a browser on each; everything else spreads over the workers test
by test. A test that needs to be alone with a shared resource (one database,
one port) can name its own group with ``@pytest.mark.xdist_group("name")``.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith("test_browser") and item.path.suffix == ".py":
            item.add_marker(pytest.mark.xdist_group(f"browser:{item.path.stem}"))
