"""The first listing of a 52-card hand's plays (two decks, two players), per rule mix.

Issue 12 bug 4: with ``decks=2, players=2`` and the dragon, long straights or
smack-downs, the listing did not return in minutes. Each mix is timed in a
child process with a time limit, on fresh random hands (process CPU time).

    python benchmarks/bench_big_hands.py [--hands 3] [--limit 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import time

MIXES = {
    "decks=2 players=2": {},
    "+ dragon": {"dragon": True},
    "+ straight_max=12": {"straight_max": 12},
    "+ smack_down=2S": {"smack_down": "2S"},
    "+ jokers=wild": {"jokers": "wild"},
}


def _first_listing(options: dict[str, object], seed: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    from big2 import Game, Rules

    start = time.process_time()
    Game(Rules(decks=2, players=2, **options), seed=seed).legal_masks()  # type: ignore[arg-type]
    out.put(time.process_time() - start)


def time_mix(options: dict[str, object], hands: int, limit: float) -> list[float | None]:
    """CPU seconds of the first listing for *hands* deals; ``None`` past *limit*."""
    out: list[float | None] = []
    ctx = mp.get_context("spawn")
    for seed in range(hands):
        q: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
        p = ctx.Process(target=_first_listing, args=(options, seed, q))
        p.start()
        p.join(limit)
        if p.is_alive():
            p.kill()
            p.join()
            out.append(None)
        else:
            out.append(q.get())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--limit", type=float, default=20.0, help="seconds before a listing counts as hung")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures: dict[str, float | None] = {}
    for name, options in MIXES.items():
        times = time_mix(options, args.hands, args.limit)
        done = [t for t in times if t is not None]
        figures[f"{name}: first listing s"] = (statistics.median(done)
                                              if len(done) == len(times) else None)
        if not args.json:
            shown = ", ".join(f"{t:.2f}" if t is not None else f">{args.limit:.0f}" for t in times)
            print(f"{name:24} first listing (s): {shown}")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
