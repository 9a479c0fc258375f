"""Poker evaluator benchmark: big2.poker against treys, eval7 and phevaluator.

Times the single-hand APIs on the same random 5- and 7-card hands (median of
several repeats), checks that big2.poker and treys agree on every hand (both
number the 7,462 classes the same way, one counting up and one down), and
times the NumPy batch API.  Run: ``.venv/bin/python benchmarks/bench_poker.py``
(``--hands N``, ``--repeats R``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from big2.poker import evaluate, evaluate5, evaluate5_batch, evaluate7, evaluate7_batch

RANKS = "23456789TJQKA"


def _poker_name(card: int) -> str:
    from big2.cards import CARD_NAMES

    name = CARD_NAMES[card]
    return name[0] + name[1].lower()


Case = tuple[str, str, Callable[[], None], int]


def median_rates(cases: list[Case], repeats: int) -> list[tuple[str, str, float]]:
    """Median evaluations per second of each case over *repeats* rounds.

    The rounds interleave the cases, so a slow spell on a shared machine
    hits every evaluator alike instead of one.
    """
    for _, _, run, _ in cases:
        run()  # warm up (lazy tables, caches)
    rates: list[list[float]] = [[] for _ in cases]
    for _ in range(repeats):
        for i, (_, _, run, n) in enumerate(cases):
            t = time.perf_counter()
            run()
            rates[i].append(n / (time.perf_counter() - t))
    return [(name, cards, statistics.median(r)) for (name, cards, _, _), r in zip(cases, rates)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--batch", type=int, default=2_000_000)
    args = parser.parse_args()
    rng = random.Random(2024)
    n, reps = args.hands, args.repeats
    h5 = [rng.sample(range(52), 5) for _ in range(n)]
    h7 = [rng.sample(range(52), 7) for _ in range(n)]
    rows: list[Case] = []

    def ours5() -> None:
        for h in h5:
            evaluate5(*h)

    def ours7() -> None:
        for h in h7:
            evaluate7(*h)

    def ours5_list() -> None:
        for h in h5:
            evaluate(h)

    def ours7_list() -> None:
        for h in h7:
            evaluate(h)

    rows += [("big2.poker evaluate5(*cards)", "5", ours5, n),
             ("big2.poker evaluate(cards)", "5", ours5_list, n),
             ("big2.poker evaluate7(*cards)", "7", ours7, n),
             ("big2.poker evaluate(cards)", "7", ours7_list, n)]

    try:
        from treys import Card, Evaluator
    except ImportError:
        print("treys not installed (pip install -e '.[bench]')")
    else:
        ev = Evaluator()
        # treys takes (hand, board); split once, outside the timed loops
        t5 = [(t[:2], t[2:]) for t in ([Card.new(_poker_name(c)) for c in h] for h in h5)]
        t7 = [(t[:2], t[2:]) for t in ([Card.new(_poker_name(c)) for c in h] for h in h7)]
        for ours, (hand, board) in zip(h5, t5):
            assert evaluate(ours) == 7463 - ev.evaluate(hand, board), ours
        for ours, (hand, board) in zip(h7[:20000], t7[:20000]):
            assert evaluate(ours) == 7463 - ev.evaluate(hand, board), ours
        print(f"checked: big2.poker == 7463 - treys on {n:,} 5-card and 20,000 7-card hands")

        def treys5() -> None:
            for hand, board in t5:
                ev.evaluate(hand, board)

        def treys7() -> None:
            for hand, board in t7[: n // 4]:
                ev.evaluate(hand, board)

        rows += [("treys Evaluator.evaluate", "5", treys5, n),
                 ("treys Evaluator.evaluate", "7", treys7, n // 4)]

    try:
        import eval7
    except ImportError:
        print("eval7 not installed")
    else:
        e5 = [[eval7.Card(_poker_name(c)) for c in h] for h in h5]
        e7 = [[eval7.Card(_poker_name(c)) for c in h] for h in h7]

        def eval7_5() -> None:
            for h in e5:
                eval7.evaluate(h)

        def eval7_7() -> None:
            for h in e7:
                eval7.evaluate(h)

        rows += [("eval7.evaluate (C)", "5", eval7_5, n),
                 ("eval7.evaluate (C)", "7", eval7_7, n)]

    try:
        from phevaluator import evaluate_cards
    except ImportError:
        print("phevaluator not installed")
    else:
        p5 = [[_poker_name(c) for c in h] for h in h5]
        p7 = [[_poker_name(c) for c in h] for h in h7]
        i5 = [[(RANKS.index(s[0])) * 4 + "cdhs".index(s[1]) for s in h] for h in p5]
        i7 = [[(RANKS.index(s[0])) * 4 + "cdhs".index(s[1]) for s in h] for h in p7]

        def ph5() -> None:
            for h in i5:
                evaluate_cards(*h)

        def ph7() -> None:
            for h in i7:
                evaluate_cards(*h)

        rows += [("phevaluator.evaluate_cards", "5", ph5, n),
                 ("phevaluator.evaluate_cards", "7", ph7, n)]

    nb = args.batch
    b5 = np.array([rng.sample(range(52), 5) for _ in range(nb // 10)], dtype=np.uint8)
    b5 = np.tile(b5, (10, 1))
    b7 = np.array(h7, dtype=np.uint8)
    rows += [("big2.poker evaluate5_batch (NumPy)", "5",
              lambda: evaluate5_batch(b5), len(b5)),
             ("big2.poker evaluate7_batch (NumPy)", "7",
              lambda: evaluate7_batch(b7), len(b7))]

    results = median_rates(rows, reps)
    base = {cards: rate for name, cards, rate in results if name.startswith("treys")}
    print(f"\n{'evaluator':<38}{'cards':>6}{'M evals/s':>12}{'vs treys':>10}")
    for name, cards, rate in results:
        ratio = f"{rate / base[cards]:.1f}x" if cards in base else "-"
        print(f"{name:<38}{cards:>6}{rate / 1e6:>12.2f}{ratio:>10}")


if __name__ == "__main__":
    main()
