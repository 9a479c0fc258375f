"""How much the policy's likelihood tells about the hidden hands (``big2.bots.policy.belief``).

    python benchmarks/bench_belief.py                    # hard in the other seats
    python benchmarks/bench_belief.py --players heuristic --positions 24

For positions part-way through classic deals played by ``--players`` (10 to
28 plays in), samples ``--pool`` deals consistent with the history (the
search's sampler), weighs them with :func:`~big2.bots.policy.belief.belief_weights`
at several powers, and prints per power the weighted share of the other
seats' cards placed where they really are, the median effective sample size
(``(sum w)^2 / sum w^2``), and the median time to weigh the pool.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from big2 import Game
from big2.bots import make_bot
from big2.bots.policy.belief import belief_weights
from big2.bots.policy.net import PolicyNetBot
from big2.bots.search.worlds import WorldSampler

POWERS = (0.0, 0.1, 0.25, 0.5, 1.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="hard", help="the bot in every seat (default hard)")
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--pool", type=int, default=128)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args()
    net = PolicyNetBot().network
    rng = random.Random(1)  # one stream over the positions
    placed: dict[float, list[float]] = {b: [] for b in POWERS}
    ess: dict[float, list[float]] = {b: [] for b in POWERS}
    seconds: list[float] = []
    for i in range(args.positions):
        g = Game(seed=args.seed + i)
        bots = [make_bot(args.players, seed=s) for s in range(4)]
        for _ in range(10 + (i % 4) * 6):
            if g.to_move is None:
                break
            g.play(bots[g.to_move].choose(g.view(g.to_move)))
        if g.to_move is None:
            continue
        view = g.view(g.to_move)
        worlds = WorldSampler(view, rng).draws(args.pool)
        others = [s for s in range(4) if s != view.seat]
        held = sum(g.hands[s].bit_count() for s in others)
        right = np.array([sum((w[s] & g.hands[s]).bit_count() for s in others) / held
                          for w in worlds])
        t0 = time.perf_counter()
        log_w = np.log(belief_weights(net, view, worlds, 1.0))
        seconds.append(time.perf_counter() - t0)
        for b in POWERS:
            w = np.exp(b * log_w)
            w /= w.sum()
            placed[b].append(float(w @ right))
            ess[b].append(float(1 / (w ** 2).sum()))
    print(f"{len(seconds)} positions, {args.pool} sampled deals each, {args.players} playing; "
          f"weighing a pool: {statistics.median(seconds) * 1000:.0f} ms median")
    print("| belief | cards placed right | effective deals (median) |")
    print("|---|---|---|")
    for b in POWERS:
        print(f"| {b} | {np.mean(placed[b]):.3f} | {statistics.median(ess[b]):.1f} |")


if __name__ == "__main__":
    main()
