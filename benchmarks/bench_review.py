"""How long the game review (``big2 replay FILE --review``) takes on a whole deal.

    python benchmarks/bench_review.py                 # seeds 1-3, the fullest seat of each
    python benchmarks/bench_review.py --seeds 5 --budget 400

Plays a match with ``big2 play --seed S --save`` through a pipe (the human
always takes the first listed play), then reviews the seat and deal with the
most decisions to judge, as the server's review and the replay do. Prints the
seconds each review took and their median; the tests check what a review says,
this script how long it takes (a timed test fails on a busy machine).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from big2.records import load
from big2.review import REVIEW_BUDGET, review


def fullest(path: Path) -> tuple[int, int, int]:
    """(decisions, deal, seat) of the seat and deal with the most decisions with a choice."""
    records = load(str(path))
    return max((sum(1 for i, a in enumerate(r.actions) if a.seat == s
                    and len(r.view(s, i).legal) > 1), d, s)
               for d, r in enumerate(records) for s in range(len(r.hands)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=3, help="matches to play and review (seeds 1..N)")
    ap.add_argument("--budget", type=int, default=REVIEW_BUDGET, help="play-outs a decision")
    args = ap.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            path = Path(tmp) / f"match{seed}.txt"
            subprocess.run([sys.executable, "-m", "big2.cli", "play", "--seed", str(seed),
                            "--save", str(path)], input="1\n" * 3000, capture_output=True,
                           text=True, timeout=600, check=True)
            n, deal, seat = fullest(path)
            start = time.perf_counter()
            review(load(str(path))[deal], seat, budget=args.budget)
            took = time.perf_counter() - start
            times.append(took)
            print(f"seed {seed}: deal {deal + 1}, seat {seat}, {n} decisions: {took:.2f} s")
    print(f"median {statistics.median(times):.2f} s over {len(times)} reviews "
          f"({args.budget} play-outs a decision)")


if __name__ == "__main__":
    main()
