"""Engine speed: random-vs-random deals per second, and the time to list every
legal play of a fresh 13-card hand when leading (``classic`` preset).

Deals are timed two ways in alternating rounds of the same run: through the
internal fast path (``g.legal_masks()`` and a plain int back to ``g.play``)
and through the public API (``g.legal_plays()`` and one of its
:class:`~big2.cards.CardSet` plays back to ``g.play``); the table gives both
medians and their ratio.

Prints medians over several rounds. The machine is shared and noisy, so time
is this process's CPU time (``time.process_time``): time spent waiting for a
core while other processes run is not counted. Every deal uses a fresh seed
and every hand is freshly dealt, so no cache is warm.

    python benchmarks/bench_engine.py [--deals 2000] [--rounds 5] [--hands 20000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from _timing import lead_listing_us, random_deals

from big2 import Game, Rules
from big2.combos import engine

PEER_DEALS_PER_S = 281  # fastest public Python Big Two engine measured on this machine (issue #2)
PEER_LEAD_US = 104


def _cold(rules: Rules) -> None:
    """Empty the engine's cache of hands' plays, so that two runs over the same
    deals both start cold."""
    cache = getattr(engine(rules), "_cache", None)
    if cache is not None:
        cache.clear()


def deals_per_second(rules: Rules, deals: int, seed: int) -> float:
    """Random-vs-random full deals (uniform over legal plays) per second, through
    the internal fast path: ``legal_masks()`` and a plain int."""
    _cold(rules)
    return deals / random_deals(rules, deals, seed)[1]


def public_deals_per_second(rules: Rules, deals: int, seed: int) -> float:
    """The same deals through the public API, as a user writes the loop:
    ``legal_plays()``, one of them at random, ``play()`` of it, until over."""
    _cold(rules)
    return deals / random_deals(rules, deals, seed, public=True)[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--json", action="store_true", help="print the two medians as JSON only")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    deals_per_s, public_per_s = [], []
    for r in range(args.rounds):  # alternating, so machine noise falls on both alike
        deals_per_s.append(deals_per_second(rules, args.deals, seed=r + 1))
        public_per_s.append(public_deals_per_second(rules, args.deals, seed=r + 1))
    lead = lead_listing_us(engine(rules), args.hands, seed=7)
    med_deals = statistics.median(deals_per_s)
    med_public = statistics.median(public_per_s)
    med_lead = statistics.median(lead)
    if args.json:
        print(json.dumps({"classic deals/s": med_deals, "public API deals/s": med_public,
                          "lead listing us": med_lead}))
        return
    eng = engine(rules)
    sizes = [len(eng.leads(sum(1 << c for c in random.Random(i).sample(range(52), 13))))
             for i in range(500)]
    n_turns = []
    rng = random.Random(5)
    for i in range(200):
        g = Game(rules, seed=10**7 + i)
        while not g.is_over():
            g.play(rng.choice(g.legal_masks()))
        n_turns.append(len(g.history))
    print(f"rules: {args.rules}; {args.rounds} rounds of {args.deals} deals; {args.hands} fresh hands")
    print(f"{'measure':44} {'big2':>10} {'peer':>8} {'ratio':>7} {'target':>8}")
    print(f"{'random-vs-random deals/s (median)':44} {med_deals:10,.0f} {PEER_DEALS_PER_S:8} "
          f"{med_deals / PEER_DEALS_PER_S:6.1f}x {'>= 3000':>8}")
    print(f"{'  the same through legal_plays()/play(CardSet)':44} {med_public:10,.0f} "
          f"{'':8} {med_public / med_deals:6.2f}x {'>= 2500':>8}  (ratio: public / internal)")
    print(f"{'list all leads, fresh 13-card hand (us, median)':44} {med_lead:10.1f} {PEER_LEAD_US:8} "
          f"{PEER_LEAD_US / med_lead:6.1f}x {'<= 15':>8}")
    print(f"  deals/s per round: {', '.join(f'{d:,.0f}' for d in deals_per_s)}; public API: "
          f"{', '.join(f'{d:,.0f}' for d in public_per_s)}")
    print(f"  lead listing p10/p90: {statistics.quantiles(lead, n=10)[0]:.1f} / "
          f"{statistics.quantiles(lead, n=10)[-1]:.1f} us; "
          f"plays per fresh 13-card hand (median): {statistics.median(sizes):.0f}")
    print(f"  turns per random deal (median): {statistics.median(n_turns):.0f}; "
          f"turns/s ~ {med_deals * statistics.median(n_turns):,.0f}")


if __name__ == "__main__":
    main()
