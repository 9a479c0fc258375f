"""``benchmarks/bench_server.py`` calls a figure quiet only at a load average of
1.0 or less before and after the run (issue 41): a figure taken on a busy machine
says it was loaded."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_server.py"


def bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_server", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_server"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("before", "after", "quiet"), [
    (0.3, 0.9, True), (1.0, 1.0, True), (0.4, 1.6, False), (2.5, 0.2, False)])
def test_only_a_low_load_is_quiet(monkeypatch: pytest.MonkeyPatch, before: float, after: float,
                                  quiet: bool) -> None:
    b = bench()
    loads = iter([(before, 0.0, 0.0), (after, 0.0, 0.0)])
    monkeypatch.setattr(b.os, "getloadavg", lambda: next(loads))
    load = b.Load()
    load.end()
    assert load.quiet is quiet
    text = load.text()
    assert text.startswith(f"load {before:.2f} -> {after:.2f}, ")
    assert ("quiet" in text and "loaded" not in text) if quiet else "loaded (over 1.0" in text
