"""``benchmarks/bench_server.py`` calls a run quiet from the CPU *other* processes used
during it (issue 55; before, the 1-minute load average, which counted the benchmark's
own server and clients): CPU burnt by the benchmark's own process tree is not counted
against it, CPU burnt by a process outside it is."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

BURN = ("import time, pathlib, sys\n"
        "end = time.process_time() + float(sys.argv[1])\n"
        "while time.process_time() < end: pass\n"
        "pathlib.Path(sys.argv[2]).write_text('done')\n")
"""A process that burns *seconds* of CPU, then writes a file."""


def load(name: str) -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # as `python benchmarks/bench_server.py` has it
    try:
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize(("busy", "own", "quiet"), [
    (1.0, 0.9, True),     # a busy machine, all of it the benchmark's: quiet
    (10.0, 9.5, True),
    (4.0, 1.0, False),    # others used 3 CPU-seconds in 10 s
    (3.0, 0.0, False),    # 0.3 cores of others
    (2.9, 1.0, True),     # 0.19 cores of others
])
def test_only_the_cpu_of_others_decides(monkeypatch: pytest.MonkeyPatch, busy: float,
                                        own: float, quiet: bool) -> None:
    q = load("_quiet")
    clock = iter([100.0, 110.0])  # a run of 10 s
    monkeypatch.setattr(q.time, "monotonic", lambda: next(clock))
    busies, owns = iter([50.0, 50.0 + busy]), iter([7.0, 7.0 + own])
    monkeypatch.setattr(q, "busy_seconds", lambda: next(busies))
    monkeypatch.setattr(q, "tree_seconds", lambda: next(owns))
    run = q.Quiet()
    run.end()
    assert run.quiet is quiet
    assert run.text().endswith(": quiet") if quiet else "loaded (over 0.2" in run.text()
    assert f"other processes used {(busy - own) / 10:.2f} cores" in run.text()


def test_the_own_tree_counts_as_own_and_a_stranger_as_others(tmp_path: Path) -> None:
    q = load("_quiet")
    bench = load("bench_server")
    assert bench.Quiet is q.Quiet and bench.QUIET_CORES == q.QUIET_CORES
    # a child of ours (reaped by us: its time moves into our cutime) counts as ours
    before = q.tree_seconds()
    subprocess.run([sys.executable, "-c", BURN, "0.8", str(tmp_path / "a")], check=True)
    assert q.tree_seconds() - before >= 0.7
    # a process outside our tree (its parent exits at once: it is nobody's of ours)
    run = q.Quiet()
    done = tmp_path / "b"
    subprocess.run(["sh", "-c", f'"{sys.executable}" -c "$0" 0.8 {done} &', BURN], check=True)
    deadline = time.monotonic() + 60
    while not done.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    run.end()
    wall = time.monotonic() - run.start[0]
    assert run.others is not None and run.others * wall >= 0.7, run.text()
    assert run.own * wall < 0.5, run.text()  # we only waited


def test_capacity_reports_the_largest_count_that_held_the_target() -> None:
    """``capacity`` measures tables of 1 scripted player and 3 bots and names the largest
    count whose p95s (the player's play, the bots' answer) held the target (here one
    count, 4 tables: the run's own figures decide which)."""
    out = subprocess.run([sys.executable, str(BENCHMARKS / "bench_server.py"), "capacity",
                          "--seconds", "3", "--tables", "4", "--bot-level", "greedy"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    lines = out.splitlines()
    measured = next(line for line in lines if line.startswith("capacity (sqlite) 4 tables x "
                                                               "(1 player, 3 greedy): "))
    p95 = float(measured.split("p50/p95/p99 ")[1].split("/")[1])
    assert "errors 0, stalls 0" in measured and "ms/action" in measured, measured
    answer = next(line for line in lines if line.startswith("  bots' answer (3 decisions) "))
    answer_p95 = float(answer.split("p50/p95 ")[1].split("/")[1].split()[0])
    held = 4 if p95 <= 200 and answer_p95 <= 200 else 0
    assert lines[-1].startswith(f"capacity: {held} tables of 1 player and 3 greedy bots held "
                                "p95 <= 200 ms"), out
