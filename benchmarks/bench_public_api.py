"""The public API's speed on the two engines, side by side (issue 40).

Random legal play to the end of each deal, written as a user writes the loop:
``Game(rules, seed=...)``, then ``g.play(choice(g.legal_plays()))`` until
``g.is_over()`` (``_timing.random_deals(public=True)``: a fresh seed each
deal, the steps counted from ``len(g.history)``). Each rule set runs on the
Python engine (``BIG2_ENGINE=python``: the Python trick loop and play engine,
the reference) and on the default one (where the rule set allows it the compiled
core keeps the deal, see ``big2.native_deal``; otherwise the default is the Python
engine too, and the last column says why) in alternating rounds of the same run;
the table gives the median deals/s of each and their ratio.

Time is this process's CPU time (``time.process_time``): the machine is
shared, and waiting for a core is not counted.

    python benchmarks/bench_public_api.py [--deals 1000] [--rounds 5] [--passing play]
        [--rules classic selfplay-2018 taiwan:3 classic,decks=2:6 classic,jokers=wild]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics

from _timing import PASSING, random_deals

from big2 import Rules
from big2.variant import native


def rule_set(spec: str) -> Rules:
    """A preset name, with ``:N`` for N players (``taiwan:3``) and ``,option=value``
    for other options (``classic,jokers=wild``, ``classic,decks=2:6``)."""
    spec, _, players = spec.partition(":")
    name, *options = spec.split(",")
    changes: dict[str, object] = {}
    for option in options:
        key, _, text = option.partition("=")
        try:
            changes[key] = json.loads(text)
        except ValueError:
            changes[key] = text
    if players:
        changes["players"] = int(players)
    return Rules.preset(name).replace(**changes) if changes else Rules.preset(name)


def deals_per_s(rules: Rules, deals: int, seed: int, engine: str, passing: str | None = None
                ) -> float:
    """Random deals through the public API on *engine*, a pass made as *passing* says
    (``_timing.PASSING``; by default the play drawn goes back to ``play`` whatever it
    is): deals per CPU second."""
    os.environ[native.ENGINE_ENV] = engine
    return deals / random_deals(rules, deals, seed, public=True, passing=passing)[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals a round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rules", nargs="+", default=["classic", "selfplay-2018", "taiwan:3",
                                                   "classic,decks=2:6", "classic,jokers=wild"],
                    help="presets; NAME:PLAYERS for another table size, NAME,OPTION=VALUE "
                         "for another option")
    ap.add_argument("--passing", choices=PASSING, default=None,
                    help="tell a pass from a play and make it by play(PASS), pass_turn() or "
                         "play('pass') (default: every play drawn back to play)")
    ap.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = ap.parse_args()
    saved = os.environ.get(native.ENGINE_ENV)
    out: dict[str, dict[str, float]] = {}
    notes: dict[str, str] = {}
    try:
        for spec in args.rules:
            rules = rule_set(spec)
            deals_per_s(rules, 50, 0, "python")  # warm both: tables compiled, caches filled
            deals_per_s(rules, 50, 0, "native")
            runs: dict[str, list[float]] = {"python": [], "native": []}
            for r in range(args.rounds):  # alternating, so machine noise falls on both alike
                for engine in ("python", "native"):
                    runs[engine].append(deals_per_s(rules, args.deals, r + 1, engine,
                                                    args.passing))
            out[spec] = {k: statistics.median(v) for k, v in runs.items()}
            why = native.native_deal_reason(rules)
            notes[spec] = ("deal in the core" if why is None
                           else f"Python engine ({why})" if native.native_reason(rules)
                           else f"native engine, Python trick loop ({why})")
    finally:
        if saved is None:
            os.environ.pop(native.ENGINE_ENV, None)
        else:
            os.environ[native.ENGINE_ENV] = saved
    if args.json:
        print(json.dumps({"deals": args.deals, "rounds": args.rounds, "passing": args.passing,
                          "medians": out,
                          "default engine": notes}))
        return
    print(f"public API, random legal play to the end (passing by {args.passing or 'play'}): "
          f"medians of "
          f"{args.rounds} rounds of {args.deals} deals (CPU time, one core; load average "
          f"{os.getloadavg()[0]:.1f})")
    width = max(16, *(len(spec) for spec in out))
    print(f"{'rule set':{width}} {'python deals/s':>15} {'default deals/s':>16} "
          f"{'ratio':>6}  default engine")
    for spec, med in out.items():
        print(f"{spec:{width}} {med['python']:15,.0f} {med['native']:16,.0f} "
              f"{med['native'] / med['python']:5.1f}x  {notes[spec]}")


if __name__ == "__main__":
    main()
