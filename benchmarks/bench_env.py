"""Environment speed, one process: the engine's own random-play turns per
second (the ceiling), PettingZoo AEC steps per second (observation vector
and 202,204-entry mask every step), and :class:`big2.env.VectorEnv` steps
per second (N games a call, ``"hand"`` actions, observations and masks
included), all with uniformly random legal actions.

Prints medians over several rounds (the machine is shared and noisy), and
the vector env's ratio to the engine.

    python benchmarks/bench_env.py [--seconds 2] [--rounds 5] [--envs 256]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
from _timing import steps_per_s

from big2 import Game, Rules
from big2.env import Big2AECEnv
from big2.env.vector import VectorEnv


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


def vector_steps_per_s(rules: Rules, seconds: float, seed: int, envs: int,
                       actions: str = "hand", workers: int = 1) -> float:
    """VectorEnv.step with one uniformly random legal id per game; a step of
    N games counts N steps."""
    with VectorEnv(envs, rules, seed=seed, actions=actions,  # type: ignore[arg-type]
                   workers=workers) as venv:
        venv.reset()
        rng = np.random.default_rng(seed)
        return steps_per_s(lambda: venv.step(venv.sample(rng)), envs, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--envs", type=int, default=256, help="games per VectorEnv (N)")
    ap.add_argument("--workers", type=int, default=0,
                    help="also measure VectorEnv(workers=k) when k > 1")
    ap.add_argument("--setups", default="classic:4,classic:3,classic:2,pagat:4",
                    help="preset:players,... to measure")
    args = ap.parse_args()
    extra = f" {f'workers={args.workers}':>15} {'w/eng':>6}" if args.workers > 1 else ""
    print(f"{'rules':<10} {'players':>7} {'engine turns/s':>15} {'AEC steps/s':>12} "
          f"{'AEC/eng':>7} {'vector steps/s':>15} {'vec/eng':>7}{extra}")
    for setup in args.setups.split(","):
        preset, players = setup.split(":")
        rules = Rules.preset(preset, players=int(players))
        eng, env, vec, par = [], [], [], []
        for r in range(args.rounds):  # interleaved, so a noisy spell hits all of them
            eng.append(engine_turns_per_s(rules, args.seconds, r))
            env.append(env_steps_per_s(rules, args.seconds, r, from_mask=False))
            vec.append(vector_steps_per_s(rules, args.seconds, r, args.envs))
            if args.workers > 1:
                par.append(vector_steps_per_s(rules, args.seconds, r, args.envs,
                                              workers=args.workers))
        e, a, v = statistics.median(eng), statistics.median(env), statistics.median(vec)
        line = (f"{preset:<10} {players:>7} {e:>15,.0f} {a:>12,.0f} {a / e:>7.2f} {v:>15,.0f} "
                f"{v / e:>7.2f}")
        if par:
            p = statistics.median(par)
            line += f" {p:>15,.0f} {p / e:>6.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
