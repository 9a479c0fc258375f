"""Bot strength and speed, measured with the arena (issue 3's four figures).

    python benchmarks/bench_bots.py                     # 2,000 duplicate deals each
    python benchmarks/bench_bots.py --deals 200 --expert-deals 60 --workers 2

Prints a Markdown table: points per deal with 95% CI and win rate of the
first seat, against the issue's targets, and the decision times of the two
searching levels, ``hard`` and ``expert`` (median and p95 over decisions with
more than one legal play, in-process; ``--budget`` is the expert's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from big2 import Game, Rules
from big2.arena import ArenaResult, run_arena
from big2.bots import make_bot


def decision_times(deals: int, seed: int, budget: int | None,
                   level: str = "expert") -> list[float]:
    """Seconds per *level* decision with a real choice (more than one legal play)."""
    opts = {} if budget is None else {"budget": budget}
    out: list[float] = []
    for d in range(deals):
        game = Game(Rules(), seed=seed * 1000 + d)
        bots = [make_bot(level, seed=d, **opts)] + [make_bot("heuristic") for _ in range(3)]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            t0 = time.perf_counter()
            choice = bots[seat].choose(view)
            if seat == 0 and len(view.legal) > 1:
                out.append(time.perf_counter() - t0)
            game.play(choice)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=2000, help="duplicate deals, cheap bots")
    ap.add_argument("--expert-deals", type=int, default=None,
                    help="duplicate deals for the expert runs (default: --deals)")
    ap.add_argument("--timing-deals", type=int, default=10, help="deals for the timing run")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=None, help="expert play-outs per decision")
    ap.add_argument("--json", default=None, help="write all figures as JSON here")
    args = ap.parse_args(argv)
    edeals = args.expert_deals or args.deals
    expert = "expert" if args.budget is None else f"expert:budget={args.budget}"
    runs = [
        ("heuristic vs 3 random", ["heuristic"] + ["random"] * 3, "count", args.deals,
         "≥ +8"),
        ("expert vs 3 greedy", [expert] + ["greedy"] * 3, "count", edeals, "≥ +8, ≥ 55% wins"),
        ("expert vs 3 heuristic", [expert] + ["heuristic"] * 3, "count", edeals,
         "≥ +1.5, ≥ 35% wins, CI > 0"),
        ("expert vs 3 heuristic", [expert] + ["heuristic"] * 3, "classic", edeals,
         "(classic scoring)"),
    ]
    results: list[tuple[str, str, str, ArenaResult]] = []
    print("| match | scoring | deals | points/deal (95% CI) | wins | target | wall s |")
    print("|---|---|---|---|---|---|---|")
    for label, seats, scoring, deals, target in runs:
        r = run_arena(seats, deals=deals, rules=Rules(), seed=args.seed, workers=args.workers,
                      scoring=scoring)
        s = r.seats[0]
        print(f"| {label} | {scoring} | {deals} | {s.mean:+.2f} ({s.ci_low:+.2f}, "
              f"{s.ci_high:+.2f}) | {s.win_rate:.1%} | {target} | {r.seconds:.0f} |", flush=True)
        results.append((label, scoring, target, r))
    timing: dict[str, dict[str, float]] = {}
    for level, budget, target in (("hard", None, "median ≤ 10 ms"),
                                  ("expert", args.budget, "median ≤ 1 s, p95 ≤ 2 s")):
        times = sorted(decision_times(args.timing_deals, args.seed, budget, level))
        med = statistics.median(times)
        p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]
        timing[level] = {"median": med, "p95": p95, "max": times[-1], "decisions": len(times)}
        print(f"\n{level} decision time ({len(times)} decisions with a choice, "
              f"{args.timing_deals} deals): median {med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
              f"max {times[-1] * 1000:.1f} ms (target: {target})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"runs": [{"match": lb, "scoring": sc, "target": tg, **r.to_dict()}
                                for lb, sc, tg, r in results],
                       "decision_time": timing}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
