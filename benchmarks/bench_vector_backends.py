"""VectorEnv's backends side by side (issue 40): self-play steps a second.

Each round measures, one after another (so a noisy spell hits them all):

* ``native``: ``VectorEnv(N, "classic")`` on the core in this process (one core);
* ``native reuse``: the same with ``reuse_obs=True`` (no copy of the arrays a step);
* ``native workers=K``: the core's games in K worker processes (shared memory);
* ``python``: ``VectorEnv(N, "classic", engine="python")`` (with ``--python``);
* OpenSpiel's ``dou_dizhu`` through its Python API, one state at a time
  (``benchmarks/bench_env_openspiel.py``'s loop; when ``pyspiel`` imports).

Every loop reads the observation and mask, draws one random legal id per game
(``venv.sample``) and steps; a call of N games counts N steps. Medians, and
ratios to ``native``, are printed.

    python benchmarks/bench_vector_backends.py [--seconds 2] [--rounds 5] [--envs 1024]
        [--workers 2] [--python]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time
from typing import Any

import numpy as np
from bench_env_openspiel import openspiel_steps_per_s

from big2.env.vector import VectorEnv


def vector_steps_per_s(seconds: float, seed: int, envs: int, **kw: Any) -> float:
    """Steps a second of ``VectorEnv(envs, "classic", **kw)`` under random legal ids."""
    with VectorEnv(envs, "classic", seed=seed, **kw) as venv:
        obs, _ = venv.reset()
        rng = np.random.default_rng(seed)
        for _ in range(3):  # warm up
            obs = venv.step(venv.sample(rng))[0]
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _ = obs["observation"], obs["action_mask"]
            obs = venv.step(venv.sample(rng))[0]
            steps += envs
        return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--envs", type=int, default=1024, help="games per VectorEnv (N)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--python", action="store_true", help="also the Python engine")
    args = ap.parse_args()
    setups: dict[str, dict[str, Any]] = {
        "native": {}, "native reuse": {"reuse_obs": True},
        f"native workers={args.workers}": {"workers": args.workers}}
    if args.python:
        setups["python"] = {"engine": "python"}
    peer = importlib.util.find_spec("pyspiel") is not None
    got: dict[str, list[float]] = {name: [] for name in setups}
    if peer:
        got["OpenSpiel dou_dizhu, Python API"] = []
    for r in range(args.rounds):
        for name, kw in setups.items():
            got[name].append(vector_steps_per_s(args.seconds, r, args.envs, **kw))
        if peer:
            got["OpenSpiel dou_dizhu, Python API"].append(openspiel_steps_per_s(args.seconds, r))
    base = statistics.median(got["native"])
    print(f"VectorEnv(num_envs={args.envs}), classic 4 players; {args.rounds} rounds of "
          f"{args.seconds:g} s; load average {os.getloadavg()[0]:.1f}")
    print(f"{'what':<34}{'steps/s (median)':>18}{'native / it':>13}")
    for name, values in got.items():
        m = statistics.median(values)
        print(f"{name:<34}{m:>18,.0f}{base / m:>13.2f}")
    if not peer:
        print("OpenSpiel is not installed (pip install open_spiel): no ratio to it")


if __name__ == "__main__":
    main()
