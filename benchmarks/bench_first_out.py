"""The first-out search (issue 52): positions a second on one core, and the time to settle
a position with up to 20 cards left in all hands (median, per rule set).

    python benchmarks/bench_first_out.py --positions 30 --left 20

Positions come from random deals played with random legal plays down to *left* cards in
all hands together; each is settled from a cleared table ("does the seat to move go out
first whatever the others do", then the same for every legal play: a puzzle's question).
The reference (plain Python over Game) is timed on smaller positions beside it
(``--reference-left``), where it finishes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from big2 import Game
from big2.bots.search.endgame import cards_left
from big2.puzzles import PRESET_RULES
from big2.puzzles.solve import FirstOutSolver, ReferenceSolver
from big2.rules import Rules


def positions(rules: Rules, count: int, left: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        g = Game(rules, seed=rng.randrange(1 << 30))
        while not g.is_over() and cards_left(g) > left:
            g.play(rng.choice(g.legal_masks()))
        if not g.is_over() and not g.finished and cards_left(g) == left:
            out.append(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=30, help="positions per rule set")
    ap.add_argument("--left", type=int, default=20, help="cards left in all hands")
    ap.add_argument("--reference-left", type=int, default=9)
    ap.add_argument("--rules", nargs="*", default=sorted(PRESET_RULES))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'rules':18} {'median s':>9} {'max s':>7} {'positions/s':>12} "
          f"{'ref median s':>12} {'core/ref':>9}")
    for name in args.rules:
        rules = PRESET_RULES[name]
        solver = FirstOutSolver(rules)
        times, rates = [], []
        for g in positions(rules, args.positions, args.left, args.seed):
            solver.clear()
            before, start = solver.nodes, time.process_time()
            solver.after_each(g)
            spent = time.process_time() - start
            times.append(spent)
            rates.append((solver.nodes - before) / max(spent, 1e-9))
        ref_times, core_small = [], []
        for g in positions(rules, 5, args.reference_left, args.seed + 1):
            start = time.process_time()
            ReferenceSolver(rules).after_each(g)
            ref_times.append(time.process_time() - start)
            solver.clear()
            start = time.process_time()
            solver.after_each(g)
            core_small.append(time.process_time() - start)
        ref, small = statistics.median(ref_times), statistics.median(core_small)
        print(f"{name:18} {statistics.median(times):9.4f} {max(times):7.3f} "
              f"{statistics.median(rates):12,.0f} {ref:12.4f} {ref / max(small, 1e-9):8.0f}x",
              flush=True)


if __name__ == "__main__":
    main()
