"""The three ways of passing side by side (issue 54): ``play(PASS)``, ``pass_turn()`` and
``play("pass")`` in the public API's random-play loop (``_timing.random_deals`` with
``public=True``: ``legal_plays()``, one drawn at random; a pass drawn is made the way
named). The ways run in alternating rounds over the same seeds (each round's deals played
once untimed first, each way first in turn), so the machine's noise falls on them alike;
the medians and the best rounds of deals per CPU second are printed,
each with its ratio to ``play(PASS)``.

    python benchmarks/bench_passing.py [--deals 300] [--rounds 9] [--rules classic]
        [--engine native]
"""

from __future__ import annotations

import argparse
import os
import statistics

from _timing import PASSING, random_deals
from bench_public_api import rule_set

from big2.variant import native


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="deals a round")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--rules", default="classic", help="as bench_public_api.py's --rules")
    ap.add_argument("--engine", choices=("native", "python"), default="native",
                    help="native: the default engine (the core keeps the deal where it can)")
    args = ap.parse_args()
    os.environ[native.ENGINE_ENV] = args.engine
    rules = rule_set(args.rules)
    for way in PASSING:  # warm: tables compiled, caches filled
        random_deals(rules, 30, 0, public=True, passing=way)
    got: dict[str, list[float]] = {way: [] for way in PASSING}
    for r in range(args.rounds):
        # the round's deals once untimed first: the Python engine caches each hand's plays,
        # and the way that ran first would pay for the others
        random_deals(rules, args.deals, r + 1, public=True, passing="play")
        for way in PASSING[r % 3:] + PASSING[:r % 3]:  # each way first as often
            got[way].append(args.deals / random_deals(rules, args.deals, r + 1, public=True,
                                                      passing=way)[1])
    print(f"{args.rules}, {args.engine} engine: {args.rounds} rounds of {args.deals} deals, "
          f"deals per CPU second; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
          "cores")
    names = {"play": "play(PASS)", "pass_turn": "pass_turn()", "text": 'play("pass")'}
    med = {way: statistics.median(v) for way, v in got.items()}
    best = {way: max(v) for way, v in got.items()}
    print(f"{'passing by':<14}{'median':>10}{'ratio':>8}{'best':>10}{'ratio':>8}")
    for way in PASSING:
        print(f"{names[way]:<14}{med[way]:>10,.0f}{med[way] / med['play']:>8.2f}"
              f"{best[way]:>10,.0f}{best[way] / best['play']:>8.2f}")


if __name__ == "__main__":
    main()
