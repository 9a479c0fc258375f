"""Decision times of the searches with heuristic and policy play-outs, side by side.

    python benchmarks/bench_policy_playout.py
    python benchmarks/bench_policy_playout.py --deals 6 --specs expert expert:playout=policy:plies=4

Collects the decisions with a choice of seat 0 in ``--deals`` classic deals
(``heuristic`` in every seat, seeds as ``benchmarks/bench_bots.py``'s
timing run), then times each bot spec on the same decisions, the specs
interleaved decision by decision so the machine's load falls on all alike.
Prints per spec the median and p95 in ms of wall time and of the process's
CPU time (one core: BLAS held to one thread; on a loaded machine the CPU
time is the closer figure to an idle core's wall time) and the wall
median's ratio to the first spec's. The issue's budget:
``expert`` at most 1 s median and 2 s p95 a decision on one core.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import statistics
import time

from big2 import Game, Rules
from big2.arena import parse_seat
from big2.bots import make_bot
from big2.view import PlayerView

DEFAULT_SPECS = ("expert", "expert:playout=policy:plies=4", "expert:playout=policy:plies=8",
                 "expert:playout=policy:plies=-1")


def views(deals: int, seed: int, rules: Rules) -> list[PlayerView]:
    out = []
    for d in range(deals):
        game = Game(rules, seed=seed * 1000 + d)
        bots = [make_bot("heuristic") for _ in range(4)]
        while game.to_move is not None:
            view = game.view(game.to_move)
            if game.to_move == 0 and len(view.legal) > 1:
                out.append(view)
            game.play(bots[game.to_move].choose(view))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--specs", nargs="+", default=list(DEFAULT_SPECS))
    args = ap.parse_args()
    vs = views(args.deals, args.seed, Rules.preset(args.rules))
    bots = []
    for spec in args.specs:
        name, options = parse_seat(spec)
        bots.append(make_bot(name, seed=1, **options))
    times: list[list[float]] = [[] for _ in bots]
    cpu: list[list[float]] = [[] for _ in bots]
    for v in vs:
        for i, bot in enumerate(bots):
            t0, c0 = time.perf_counter(), time.process_time()
            bot.choose(v)
            times[i].append(time.perf_counter() - t0)
            cpu[i].append(time.process_time() - c0)

    def p95(ts: list[float]) -> float:
        return sorted(ts)[min(len(ts) - 1, int(0.95 * len(ts)))]

    print(f"{len(vs)} decisions of seat 0 in {args.deals} {args.rules} deals; ms per decision")
    print(f"  {'':44s} {'wall median':>12s} {'p95':>8s} {'CPU median':>11s} {'p95':>8s}")
    first = statistics.median(times[0])
    for spec, ts, cs in zip(args.specs, times, cpu):
        med = statistics.median(ts)
        print(f"  {spec:44s} {1000 * med:12.1f} {1000 * p95(ts):8.1f} "
              f"{1000 * statistics.median(cs):11.1f} {1000 * p95(cs):8.1f}  x{med / first:5.2f}")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
