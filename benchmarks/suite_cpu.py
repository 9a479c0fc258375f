"""Where the test suite's time goes: a pytest plugin that records, for every test, the
CPU of its process, the CPU of the child processes it waited for, its wall time and its
start, and a summary of those records by file.

Record (one JSON line a test, one file a pytest process, into ``SUITE_CPU_DIR``, by
default ``/tmp/suite-cpu``; empty it between runs)::

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu \\
        --dist loadgroup --no-loadscope-reorder -n 3 -m "not nightly"

Summarize (the files that cost most CPU, and how busy the workers kept the CPUs, every
15 s from the first test's start)::

    python benchmarks/suite_cpu.py [DIR]

A Chromium's CPU is counted against the test that closes it (the browser is a
grandchild of the worker), and the CPU of processes nobody waits for is not counted.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

OUT = Path(os.environ.get("SUITE_CPU_DIR", "/tmp/suite-cpu"))


def _children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Time *item* (setup, call and teardown) and append its record."""
    cpu, kids, wall, start = time.process_time(), _children(), time.perf_counter(), time.time()
    yield
    record = {"id": item.nodeid, "cpu": time.process_time() - cpu, "kids": _children() - kids,
              "wall": time.perf_counter() - wall, "t0": start}
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / f"out-{os.getpid()}.jsonl", "a") as f:
        f.write(json.dumps(record) + "\n")


def summarize(folder: Path, top: int = 30, step: int = 15) -> None:
    """Print the *top* files by CPU (own + children) and the CPUs' use every *step* s."""
    runs = [[json.loads(line) for line in path.open()] for path in sorted(folder.glob("out-*.jsonl"))]
    records: list[dict[str, Any]] = [r for run in runs for r in run]
    if not records:
        sys.exit(f"no records in {folder}: run pytest with -p suite_cpu first")
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for r in records:
        row = by_file[r["id"].split("::")[0]]
        row[0] += r["cpu"]
        row[1] += r["kids"]
        row[2] += r["wall"]
    print(f"{len(records)} tests, CPU {sum(r['cpu'] for r in records):.0f} s, "
          f"children {sum(r['kids'] for r in records):.0f} s")
    print(f"{'cpu+kids':>8} {'wall':>7}  file")
    for name, (cpu, kids, wall) in sorted(by_file.items(), key=lambda kv: -kv[1][0] - kv[1][1])[:top]:
        print(f"{cpu + kids:8.1f} {wall:7.1f}  {name}")
    first = min(r["t0"] for r in records)
    end = max(r["t0"] + r["wall"] for r in records)
    print(f"\nCPUs in use (own + children's CPU over wall), every {step} s:")
    at = first
    while at < end:
        busy = 0.0
        for r in records:
            overlap = min(r["t0"] + r["wall"], at + step) - max(r["t0"], at)
            if overlap > 0 and r["wall"] > 0:
                busy += (r["cpu"] + r["kids"]) / r["wall"] * overlap
        print(f"{at - first:5.0f} s  {busy / step:4.2f}")
        at += step


if __name__ == "__main__":
    summarize(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
