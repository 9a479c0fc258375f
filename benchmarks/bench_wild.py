"""Speed under jokers and two decks (RULES.md §2, variations 29 and 34).

Random-vs-random deals per second and the time to list a fresh hand's
leads, for rule sets that use the generic engine (:mod:`big2.variant.generic`; by
default its subclass whose listing and deal run in the compiled core, with
``BIG2_ENGINE=python`` the Python engine), side by side with the classic game
(the same measurement as ``bench_engine.py``). Process CPU time, medians over
rounds, fresh seeds so no cache is warm.

    python benchmarks/bench_wild.py [--deals 100] [--rounds 3] [--hands 300]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from big2 import Game, Rules
from big2.cards import cards_of, deck_mask
from big2.combos import engine

RULE_SETS = {
    "classic": Rules(),
    "jokers wild, 4 players": Rules(jokers="wild"),
    "jokers valueless, 4 players": Rules(jokers="valueless"),
    "two decks, 8 players": Rules(decks=2, players=8),
    "two decks, 6 players": Rules(decks=2, players=6),
    "two decks + jokers, 5 players": Rules(decks=2, players=5, jokers="wild",
                                           five_of_a_kind="above-straight-flush"),
}


def deals_per_second(rules: Rules, deals: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(deals):
        g = Game(rules, seed=seed * 1_000_003 + i)
        while g.to_move is not None:
            g.play(rng.choice(g.legal_masks()))
    return deals / (time.process_time() - start)


def lead_listing_ms(rules: Rules, hands: int, seed: int) -> float:
    """Median milliseconds to list every lead of a fresh hand of the deal's size."""
    eng = engine(rules)
    rng = random.Random(seed)
    cards = cards_of(deck_mask(rules.decks, rules.jokers != "none"))
    size = len(cards) // rules.players
    out = []
    for _ in range(hands):
        hand = sum(1 << c for c in rng.sample(cards, size))
        eng._cache.clear()  # a fresh hand: its plays are not cached
        start = time.process_time()
        eng.leads(hand)
        out.append(time.process_time() - start)
    return 1000 * statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    base = None
    figures = {}
    if not args.json:
        print(f"{'rules':32} {'deals/s (median)':>17} {'vs classic':>10} {'lead list ms':>13}")
    for name, rules in RULE_SETS.items():
        rates = [deals_per_second(rules, args.deals, 11 + r) for r in range(args.rounds)]
        rate = statistics.median(rates)
        base = base or rate
        ms = lead_listing_ms(rules, args.hands, 5)
        figures[f"{name}: deals/s"] = rate
        figures[f"{name}: lead list ms"] = ms
        if not args.json:
            print(f"{name:32} {rate:17,.0f} {rate / base:10.3f} {ms:13.2f}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
