"""VectorEnv's backends side by side (issue 40): self-play steps a second.

Each round measures, one after another (so a noisy spell hits them all):

* ``native``: ``VectorEnv(N, "classic")`` on the core in this process (one thread);
* ``native reuse``: the same with ``reuse_obs=True`` (the same arrays each step);
* ``native workers=K``: the core's games on K threads of the core;
* ``python``: ``VectorEnv(N, "classic", engine="python")`` (with ``--python``);
* OpenSpiel's ``dou_dizhu`` through its Python API, one state at a time
  (``benchmarks/bench_env_openspiel.py``'s loop; when ``pyspiel`` imports).

Every loop reads the observation and mask, draws one random legal id per game
(``venv.sample``) and steps; a call of N games counts N steps. Medians by the
wall clock and by this process's CPU time, and ratios to ``native``, are printed.

``--busy K`` starts K other processes that keep a core busy each (a Python loop at
the default priority) for the whole run, as another program on a shared machine
does: the core's threads must then not cost more than they bring (issue 54: workers=2
no more than 10% slower than one thread while the other core is busy).

    python benchmarks/bench_vector_backends.py [--seconds 2] [--rounds 5] [--envs 1024]
        [--workers 2] [--python] [--busy 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np
from bench_env_openspiel import openspiel_steps_per_s

from big2.env.vector import VectorEnv


def vector_steps_per_s(seconds: float, seed: int, envs: int, **kw: Any) -> tuple[float, float]:
    """Steps a second of ``VectorEnv(envs, "classic", **kw)`` under random legal ids:
    (by the wall clock, by this process's CPU time)."""
    with VectorEnv(envs, "classic", seed=seed, **kw) as venv:
        obs, _ = venv.reset()
        rng = np.random.default_rng(seed)
        for _ in range(3):  # warm up
            obs = venv.step(venv.sample(rng))[0]
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            _ = obs["observation"], obs["action_mask"]
            obs = venv.step(venv.sample(rng))[0]
            steps += envs
        return (steps / (time.perf_counter() - start),
                steps / max(time.process_time() - cpu, 1e-9))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--envs", type=int, default=1024, help="games per VectorEnv (N)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--python", action="store_true", help="also the Python engine")
    ap.add_argument("--busy", type=int, default=0,
                    help="other processes keeping a core busy each during the run")
    args = ap.parse_args()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.busy)]
    try:
        measure(args)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def measure(args: argparse.Namespace) -> None:
    """Run the rounds *args* asks for and print the table."""
    setups: dict[str, dict[str, Any]] = {
        "native": {}, "native reuse": {"reuse_obs": True},
        f"native workers={args.workers}": {"workers": args.workers}}
    if args.python:
        setups["python"] = {"engine": "python"}
    peer = importlib.util.find_spec("pyspiel") is not None
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in setups}
    peer_name = "OpenSpiel dou_dizhu, Python API"
    if peer:
        got[peer_name] = []
    for r in range(args.rounds):
        for name, kw in setups.items():
            got[name].append(vector_steps_per_s(args.seconds, r, args.envs, **kw))
        if peer:
            start, cpu0 = time.perf_counter(), time.process_time()
            rate = openspiel_steps_per_s(args.seconds, r)  # by the wall clock
            steps = rate * (time.perf_counter() - start)
            got[peer_name].append((rate, steps / max(time.process_time() - cpu0, 1e-9)))
    wall = {name: statistics.median(v[0] for v in values) for name, values in got.items()}
    cpu = {name: statistics.median(v[1] for v in values) for name, values in got.items()}
    print(f"VectorEnv(num_envs={args.envs}), classic 4 players; {args.rounds} rounds of "
          f"{args.seconds:g} s; {args.busy} busy process(es) started beside; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'what':<34}{'wall steps/s':>14}{'native / it':>12}{'CPU steps/s':>14}"
          f"{'native / it':>12}")
    for name in got:
        print(f"{name:<34}{wall[name]:>14,.0f}{wall['native'] / wall[name]:>12.2f}"
              f"{cpu[name]:>14,.0f}{cpu['native'] / cpu[name]:>12.2f}")
    print("(CPU: this process's time, every thread's; compare workers by the wall clock, on an "
          "idle machine)")
    if not peer:
        print("OpenSpiel is not installed (pip install open_spiel): no ratio to it")


if __name__ == "__main__":
    main()
