"""Self-play vector stepping, native against Python: steps per second of
:class:`big2.env.native_games.NativeGames` (the compiled core, on 1 and on
*k* threads) beside the Python-backed :class:`big2.env.vector.VectorEnv`, in
one run, for several batch sizes N.

Every step of either gives the observation of each game's seat to move and
its ``"hand"`` action mask, and plays one uniformly random legal id per game,
sampled in NumPy from the legal ids; a step of N games counts N steps. The
figures are medians over rounds, the rounds interleaved so a noisy spell on
the shared machine hits every column.

    python benchmarks/bench_native_env.py [--seconds 2] [--rounds 3] [--envs 64,256,1024]
        [--rules classic] [--players 4] [--threads 2]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from _timing import steps_per_s

from big2 import Rules
from big2.env.native_games import NativeGames, native_games_reason
from big2.env.vector import VectorEnv


def native_steps_per_s(rules: Rules, envs: int, threads: int, seconds: float,
                       seed: int) -> tuple[float, int]:
    """NativeGames.step with one random legal id per game (observation and mask
    written every step): steps/s, and the threads used (one per
    :data:`~big2.env.native_games.MIN_SHARE` games at most)."""
    games = NativeGames(envs, rules, seed=seed, threads=threads)
    rng = np.random.default_rng(seed)
    return steps_per_s(lambda: games.step(games.sample(rng)), envs, seconds), games.threads


def python_steps_per_s(rules: Rules, envs: int, seconds: float, seed: int) -> float:
    """The Python-backed VectorEnv, self-play, ``"hand"`` actions, the same loop."""
    venv = VectorEnv(envs, rules, seed=seed, engine="python")
    venv.reset()
    rng = np.random.default_rng(seed)
    return steps_per_s(lambda: venv.step(venv.sample(rng)), envs, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds a measure")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (the median is printed)")
    ap.add_argument("--envs", default="64,256,1024", help="batch sizes N, comma-separated")
    ap.add_argument("--rules", default="classic", help="a preset of the standard family")
    ap.add_argument("--players", type=int, default=None, help="seats, overriding the preset's")
    ap.add_argument("--threads", type=int, default=2, help="threads of the second native column")
    args = ap.parse_args()
    rules = Rules.preset(args.rules) if args.players is None else Rules.preset(
        args.rules, players=args.players)
    why = native_games_reason(rules)
    if why is not None:
        raise SystemExit(f"{args.rules}: not stepped natively ({why})")
    k = args.threads
    print(f"{args.rules}, {rules.players} players; steps/s, median of {args.rounds} rounds of "
          f"{args.seconds:g} s (observation + mask, random legal ids)")
    print(f"{'N':>6} {'Python env':>11} {'native 1t':>11} {'ratio':>7} {f'native ≤{k}t':>11} "
          f"{'ratio':>7} {'used':>5} {'vs 1t':>6}")
    for envs in (int(x) for x in args.envs.split(",")):
        py, one, many = [], [], []
        used = 1
        for r in range(args.rounds):
            py.append(python_steps_per_s(rules, envs, args.seconds, r))
            one.append(native_steps_per_s(rules, envs, 1, args.seconds, r)[0])
            rate, used = native_steps_per_s(rules, envs, k, args.seconds, r)
            many.append(rate)
        p, a, b = statistics.median(py), statistics.median(one), statistics.median(many)
        print(f"{envs:>6} {p:>11,.0f} {a:>11,.0f} {a / p:>6.1f}x {b:>11,.0f} {b / p:>6.1f}x "
              f"{used:>5} {b / a:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
