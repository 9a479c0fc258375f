"""Whether a benchmark ran on a quiet machine, judged from the CPU that *other*
processes used during the run (issue 55).

The 1-minute load average cannot say it: it counts the benchmark itself (its
server and its 400 WebSocket clients, about one core), so an idle 2-core
machine ended a run near 1.0 by itself. :class:`Quiet` reads the machine's busy
CPU time from ``/proc/stat`` (every state but idle and iowait) and the CPU time
of this process and all its descendants from ``/proc/PID/stat`` (``utime``,
``stime``, and ``cutime``/``cstime`` for the children they reaped), before and
after the run; the difference is what other processes used, in cores on
average. A run is **quiet** when others used at most :data:`QUIET_CORES`.

A script here imports it as ``_quiet`` (``python benchmarks/bench_x.py`` puts
the folder first on ``sys.path``). Linux only (``/proc``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["QUIET_CORES", "Quiet", "busy_seconds", "tree_seconds"]

QUIET_CORES = 0.2
"""The most CPU (in cores, averaged over the run) other processes may use for the
run's figures to be called quiet: a fifth of one core."""

_TICK = os.sysconf("SC_CLK_TCK")


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot (all cores)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(x) for x in fields[:8]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / _TICK


def _parents() -> dict[int, tuple[int, float]]:
    """Every process: its parent and its CPU seconds (its own and its reaped children's)."""
    out: dict[int, tuple[int, float]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            fields = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        out[int(d)] = (int(fields[1]), sum(int(x) for x in fields[11:15]) / _TICK)
    return out


def tree_seconds(root: int | None = None) -> float:
    """CPU seconds used by process *root* (this one by default) and its descendants."""
    procs = _parents()
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            total += procs[pid][1]
        todo += children.get(pid, [])
    return total


class Quiet:
    """The CPU other processes used from construction to :meth:`end`, and what that
    makes the run: ``quiet`` (at most :data:`QUIET_CORES` on average) or ``loaded``."""

    def __init__(self) -> None:
        self.start = (time.monotonic(), busy_seconds(), tree_seconds())
        self.others: float | None = None  # cores, on average over the run
        self.own = 0.0  # cores this benchmark's processes used, on average

    def end(self) -> None:
        """Read the counters again (the last call counts)."""
        wall = max(1e-9, time.monotonic() - self.start[0])
        busy, own = busy_seconds() - self.start[1], tree_seconds() - self.start[2]
        self.own = own / wall
        self.others = max(0.0, busy - own) / wall

    @property
    def quiet(self) -> bool:
        return self.others is not None and self.others <= QUIET_CORES

    def text(self) -> str:
        if self.others is None:
            return "other processes' CPU not read"
        used = (f"other processes used {self.others:.2f} cores, this benchmark "
                f"{self.own:.2f}")
        if self.quiet:
            return f"{used}: quiet"
        return f"{used}: loaded (over {QUIET_CORES:g}: not an idle machine's figure)"
