"""Environment speed: PettingZoo AEC steps per second with random masked
actions, single process, observations (vector and 202,204-entry mask)
included, beside the engine's own random-play turns per second (the ceiling).

Prints medians over several rounds (the machine is shared and noisy).

    python benchmarks/bench_env.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from big2 import Game, Rules
from big2.env import Big2AECEnv


def engine_turns_per_s(rules: Rules, seconds: float, seed: int) -> float:
    """Game.play of a uniformly random legal mask, no environment around it."""
    rng = random.Random(seed)
    turns, i = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = Game(rules, seed=seed * 1_000_003 + i)
        i += 1
        while g.to_move is not None:
            g.play(rng.choice(g.legal_masks()))
            turns += 1
    return turns / (time.perf_counter() - start)


def env_steps_per_s(rules: Rules, seconds: float, seed: int, *, from_mask: bool) -> float:
    """The standard AEC loop: ``last()`` (observation vector and action mask),
    then a uniformly random legal action, chosen from ``info["legal_actions"]``
    or, with *from_mask*, by scanning the observation's mask."""
    env = Big2AECEnv(rules)
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if from_mask:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            else:
                env.step(rng.choice(info["legal_actions"]))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"{'rules':<10} {'players':>7} {'engine turns/s':>15} {'env steps/s':>12} "
          f"{'ratio':>6} {'env, mask scan':>15}")
    for preset, players in [("classic", 4), ("classic", 3), ("classic", 2), ("pagat", 4)]:
        rules = Rules.preset(preset, players=players)
        eng, env, scan = [], [], []
        for r in range(args.rounds):
            eng.append(engine_turns_per_s(rules, args.seconds, r))
            env.append(env_steps_per_s(rules, args.seconds, r, from_mask=False))
            scan.append(env_steps_per_s(rules, args.seconds / 2, r, from_mask=True))
        e, v, s = statistics.median(eng), statistics.median(env), statistics.median(scan)
        print(f"{preset:<10} {players:>7} {e:>15,.0f} {v:>12,.0f} {v / e:>6.2f} {s:>15,.0f}",
              flush=True)


if __name__ == "__main__":
    main()
