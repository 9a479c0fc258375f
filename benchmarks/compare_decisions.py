"""Decision equality of the bots between two source trees (issue 44's refactor check).

Run once per tree; each run writes the bots' choices on the same random
positions (random legal plays from seeded deals of classic and selfplay-2018),
and whole deals the bot plays in every seat, as JSON. Two runs agree when the
files are equal. A tree is imported by path, without the editable install::

    SITE=$(.venv/bin/python -c 'import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))')
    PYTHONPATH=/tmp/base/src:$SITE .venv/bin/python -S benchmarks/compare_decisions.py --out old.json
    PYTHONPATH=src:$SITE .venv/bin/python -S benchmarks/compare_decisions.py --out new.json
    python3 benchmarks/compare_decisions.py --compare old.json new.json

(the old tree needs the compiled core copied beside it: big2/_native*.so).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

BOTS = {"expert-v1": {"budget": 200}, "hard": {}, "expert": {}, "policy-search": {}}


def positions(n: int) -> list[tuple[str, int, int]]:
    """(preset, deal seed, plies) for *n* positions."""
    rng = random.Random(44)
    return [(("classic", "selfplay-2018")[i % 2], rng.randrange(10**6), rng.randrange(0, 40))
            for i in range(n)]


def run(counts: dict[str, int], deals: int) -> dict[str, object]:
    from big2 import Game, Rules
    from big2.bots import make_bot

    out: dict[str, object] = {}
    for name, opts in BOTS.items():
        picks = []
        t0 = time.perf_counter()
        for i, (preset, seed, plies) in enumerate(positions(counts[name])):
            g = Game(Rules.preset(preset), seed=seed)
            rng = random.Random(seed)
            for _ in range(plies):
                if g.to_move is None:
                    break
                g.play(rng.choice(g.legal_masks()))
            if g.to_move is None:
                continue
            picks.append(make_bot(name, seed=i, **opts).choose(g.view(g.to_move)))
        out[name] = picks
        out[name + " seconds"] = round(time.perf_counter() - t0, 1)
    histories = []
    for d in range(deals):  # the bot's own stream over a whole deal, every seat
        for preset in ("classic", "selfplay-2018"):
            g = Game(Rules.preset(preset), seed=1000 + d)
            bots = [make_bot("hard", seed=10 * d + s) for s in range(4)]
            while g.to_move is not None:
                g.play(bots[g.to_move].choose(g.view(g.to_move)))
            histories.append([a.cards for a in g.history])
    out["hard deals"] = histories
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--deals", type=int, default=10)
    args = ap.parse_args()
    if args.compare:
        a, b = (json.loads(Path(p).read_text()) for p in args.compare)
        for key in a:
            if key.endswith("seconds"):
                print(f"{key}: {a[key]} vs {b[key]}")
                continue
            same = sum(x == y for x, y in zip(a[key], b[key]))
            print(f"{key}: {same}/{len(a[key])} identical")
        return
    n = args.positions
    counts = {"expert-v1": n, "hard": n, "expert": n // 4, "policy-search": n // 4}
    Path(args.out).write_text(json.dumps(run(counts, args.deals)))


if __name__ == "__main__":
    main()
