"""Our vector environment against OpenSpiel's C++ ``dou_dizhu``, in one run.

Both sides do what an RL loop does each step: read the mover's observation
and legal actions, pick a uniformly random legal action, apply it.

* **big2**: :class:`big2.env.VectorEnv` with N games a call (``"hand"``
  actions), observation array and action mask included; a call of N games
  counts N steps.
* **OpenSpiel** (``pip install open_spiel``, benchmark only): one
  ``dou_dizhu`` state at a time through its Python API — ``observation_tensor``,
  ``legal_actions``, ``apply_action``; chance nodes (the deal) are applied
  but not counted. OpenSpiel has no batched stepping, so this is how its
  Python users step it.

Rounds alternate between the two; the table gives medians and the ratio.

    python benchmarks/bench_env_openspiel.py [--seconds 2] [--rounds 5] [--envs 1024]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from typing import Any

import numpy as np

from big2.env.vector import VectorEnv


def openspiel_steps_per_s(seconds: float, seed: int, game: str = "dou_dizhu") -> float:
    """Decision steps a second of OpenSpiel *game* through its Python API."""
    import pyspiel

    g = pyspiel.load_game(game)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            np.asarray(state.observation_tensor(state.current_player()), dtype=np.float32)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def _first(out: Any) -> Any:
    return out[0] if isinstance(out, tuple) else out


def big2_steps_per_s(seconds: float, seed: int, envs: int) -> float:
    """VectorEnv steps a second: N games a call, one random legal id each."""
    venv = VectorEnv(envs, "classic", seed=seed)
    obs = _first(venv.reset())
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _ = obs["observation"], obs["action_mask"]
        obs = _first(venv.step(venv.sample(rng)))
        steps += envs
    venv.close()
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--envs", type=int, default=1024, help="games per VectorEnv call (N)")
    args = ap.parse_args()
    have_peer = importlib.util.find_spec("pyspiel") is not None
    ours: list[float] = []
    peer: list[float] = []
    for r in range(args.rounds):
        ours.append(big2_steps_per_s(args.seconds, r, args.envs))
        if have_peer:
            peer.append(openspiel_steps_per_s(args.seconds, r))
    a = statistics.median(ours)
    print(f"{'env':<40}{'steps/s (median)':>18}")
    print(f"{f'big2 VectorEnv(num_envs={args.envs}), classic':<40}{a:>18,.0f}")
    if not have_peer:
        print("OpenSpiel is not installed (pip install open_spiel, or the bench extra): "
              "no ratio")
        return
    b = statistics.median(peer)
    print(f"{'OpenSpiel dou_dizhu, Python API':<40}{b:>18,.0f}")
    print(f"ratio big2 / OpenSpiel: {a / b:.2f}x  ({args.rounds} rounds of {args.seconds:g} s each)")


if __name__ == "__main__":
    main()
