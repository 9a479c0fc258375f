"""The heuristic's planner measured: points and how it plays (issue 14).

    python benchmarks/bench_planner.py --seats heuristic,heuristic-v1,heuristic-v1,heuristic-v1 \
        --deals 1000 --rules classic --scoring count --seed 1

Runs the arena (duplicate deals, in this process) with every seat wrapped in
a recorder, and prints per player: points per deal with a 95% CI (the arena's
figures), and from the recorder the share of games ended with 10 or more
cards, how often it passed on a single it could beat (and how often those
passes kept a 2 back), its leads of four-card two pairs where it held one, and
the times its whole hand was one legal play and it played something else.
``--rules`` takes a preset name or ``selfplay`` (the self-play rule set of
issue 14 when no such preset exists).

``--variants A B …`` instead seats each variant against ``--opponent`` on
the same duplicate deals and prints each one's points with the paired
difference from the first (how the passing thresholds were tuned):

    python benchmarks/bench_planner.py --rules selfplay --deals 400 --seed 2 \
        --opponent heuristic-v1 --variants heuristic:low_cards=0 heuristic:low_cards=4
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter
from typing import Any

from big2 import Rules
from big2.arena import run_arena
from big2.bots import Bot, make_bot, register_bot
from big2.cards import BB_RANKS, TWO, Mask
from big2.combos import engine
from big2.variant import Kind
from big2.view import PlayerView

STATS: dict[str, Counter[str]] = {}
"""Per wrapped bot name, the counters of its decisions (this process only)."""

SELFPLAY = {"two_pairs": True, "four_of_a_kind_alone": True, "four_kicker": False,
            "straight_order": "indonesia", "deal": "13-each", "scoring": "count"}


class Recorder(Bot):
    """Plays as the bot named *inner* and counts what it does."""

    def __init__(self, seed: int | None = None, inner: str = "heuristic", **options: Any) -> None:
        super().__init__(seed=seed)
        self.inner = make_bot(inner, seed=seed, **options)
        self.stats = STATS.setdefault(inner + "".join(f":{k}={v}" for k, v in options.items()),
                                      Counter())

    def choose(self, view: PlayerView) -> Mask:
        choice = self.inner.choose(view)
        st = self.stats
        plays = [p for p in view.legal if p]
        hand = int(view.hand)
        if hand in plays:
            st["whole_hand"] += 1
            if choice != hand:
                st["whole_hand_missed"] += 1
        if view.leading:
            st["leads"] += 1
            eng = engine(view.rules)
            if any(p.bit_count() == 4 and _kind(eng, p) == Kind.TWO_PAIRS for p in plays):
                st["leads_two_pairs_held"] += 1
                if choice.bit_count() == 4 and _kind(eng, choice) == Kind.TWO_PAIRS:
                    st["leads_two_pairs"] += 1
        elif len(view.last_play) == 1 and plays:
            st["single_beatable"] += 1
            if not choice:
                st["single_passed"] += 1
                if any(p & BB_RANKS[TWO] for p in plays if p.bit_count() == 1):
                    st["single_passed_holding_2"] += 1
        return choice

    def end_deal(self, view: PlayerView) -> None:
        left = len(view.hand)
        self.stats["games"] += 1
        self.stats["cards_left"] += left
        if left >= 10:
            self.stats["ended_10_plus"] += 1


def _kind(eng: Any, mask: Mask) -> Kind | None:
    c = eng.classify(mask)
    return c.kind if c else None


register_bot("rec", Recorder)


def rate(num: int, den: int) -> str:
    """``p (low, high)`` with a normal-approximation 95% interval."""
    if not den:
        return "-"
    p = num / den
    half = 1.96 * math.sqrt(p * (1 - p) / den)
    return f"{p:.1%} ({max(0.0, p - half):.1%}, {min(1.0, p + half):.1%})"


def measure(seats: list[str], deals: int, rules: Rules, seed: int) -> dict[str, Any]:
    """Run the arena with recorders; the figures per distinct player."""
    STATS.clear()
    specs = []
    for s in seats:
        name, *opts = s.split(":")
        specs.append(":".join(["rec", f"inner={name}", *opts]))
    result = run_arena(specs, deals=deals, rules=rules, seed=seed)
    out: dict[str, Any] = {"rules": rules.diff(), "deals": deals, "seed": seed, "players": {}}
    for spec, s in zip(seats, result.seats):
        if spec in out["players"]:
            continue
        st = STATS[spec]
        out["players"][spec] = {
            "points": s.mean, "ci": [s.ci_low, s.ci_high], "wins": s.win_rate,
            "counts": dict(st),
            "ended_10_plus": rate(st["ended_10_plus"], st["games"]),
            "single_pass": rate(st["single_passed"], st["single_beatable"]),
            "single_pass_holding_2": rate(st["single_passed_holding_2"], st["single_beatable"]),
            "two_pair_leads": f"{st['leads_two_pairs']} of {st['leads_two_pairs_held']}",
            "whole_hand_missed": f"{st['whole_hand_missed']} of {st['whole_hand']}",
        }
    return out


def _ci(xs: list[float]) -> str:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{mean:+.3f} ({mean - half:+.3f}, {mean + half:+.3f})"


def paired(variants: list[str], opponent: str, deals: int, rules: Rules, seed: int) -> None:
    """Each variant against *opponent* on the same deals, with its paired
    difference from the first variant (per duplicate deal)."""
    n = rules.players
    base: list[float] | None = None
    for spec in variants:
        r = run_arena([spec] + [opponent] * (n - 1), deals=deals, rules=rules, seed=seed)
        xs = [p[0] / n for p in r.points]
        line = f"{spec:<40} {_ci(xs)}"
        if base is None:
            base = xs
        else:
            line += f"  minus the first: {_ci([a - b for a, b in zip(xs, base)])}"
        print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seats", help="comma-separated bot specs")
    ap.add_argument("--variants", nargs="+", help="bot specs to compare on the same deals")
    ap.add_argument("--opponent", default="heuristic-v1", help="the other seats for --variants")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--rules", default="classic", help="a preset name, or 'selfplay'")
    ap.add_argument("--scoring", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    if args.rules == "selfplay" and "selfplay-2018" not in Rules.presets():
        rules = Rules.from_dict(SELFPLAY)
    else:
        rules = Rules.preset("selfplay-2018" if args.rules == "selfplay" else args.rules)
    if args.scoring:
        rules = rules.replace(scoring=args.scoring)
    if args.variants:
        paired(args.variants, args.opponent, args.deals, rules, args.seed)
        return 0
    if not args.seats:
        ap.error("--seats or --variants is needed")
    res = measure(args.seats.split(","), args.deals, rules, args.seed)
    if args.json:
        print(json.dumps(res, indent=1))
        return 0
    print(f"rules {res['rules']}, {args.deals} duplicate deals, seed {args.seed}")
    for name, p in res["players"].items():
        print(f"{name:<28} {p['points']:+.2f} ({p['ci'][0]:+.2f}, {p['ci'][1]:+.2f})"
              f"  wins {p['wins']:.1%}  >=10 cards {p['ended_10_plus']}"
              f"  single passes {p['single_pass']} (holding a 2: {p['single_pass_holding_2']})"
              f"  two-pair leads {p['two_pair_leads']}  missed outs {p['whole_hand_missed']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
