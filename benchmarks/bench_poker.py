"""Poker evaluator benchmark: big2.poker against treys, eval7 and phevaluator.

Times the single-hand APIs on the same random 5- and 7-card hands (median of
several interleaved repeats), checks that big2.poker and treys agree on every
hand (both number the 7,462 classes the same way, one counting up and one
down), times the NumPy batch API against the scalar call, and times
``big2.poker.equity`` (exact and Monte Carlo) beside eval7's Monte Carlo.
phevaluator is timed twice: its public ``evaluate_cards`` (which converts
every card) and its raw C entry points (``evaluate_5cards``/``evaluate_7cards``
on card ids).  Then ``rank_hand`` (names, the cards that play) on 7 cards,
beside pokerkit's ``StandardHighHand.from_game`` where pokerkit is installed.
The evaluators and the hold'em equity loops run in the compiled core
(``big2._native.poker``) when it is built; the NumPy reference batch is timed
beside it.  The run ends with issue 28's targets, each measured in this run
beside its peer: scalar evaluate5/evaluate7 against phevaluator's raw C calls,
the batch rates on one core, heads-up Monte Carlo against eval7's, and AA vs
KK exact.  Run: ``.venv/bin/python benchmarks/bench_poker.py``
(``--hands N``, ``--repeats R``, ``--no-equity``, ``--clock cpu|wall``).

Every figure is this process's CPU time by default (``--clock cpu``: time the
process ran, not time it waited for a core), so a machine shared with other
jobs times each library alike; ``--clock wall`` times wall-clock seconds, the
same figures on an idle machine.  Every timed call is single-threaded.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from big2.poker import evaluate, evaluate5, evaluate5_batch, evaluate7, evaluate7_batch
from big2.poker.batch import py_evaluate5_batch, py_evaluate7_batch
from big2.poker.native import native_reason

RANKS = "23456789TJQKA"
clock: Callable[[], float] = time.process_time
"""The timer of every figure (``--clock``)."""


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
            t = clock()
            run()
            rates[i].append(n / (clock() - t))
    return [(name, cards, statistics.median(r)) for (name, cards, _, _), r in zip(cases, rates)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--batch", type=int, default=2_000_000)
    parser.add_argument("--no-equity", action="store_true", help="skip the equity timings")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time CPU seconds of this process (default) or wall-clock seconds")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"clock: {args.clock} time")
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
        from phevaluator.evaluator import _EVALUATORS as PH_RAW
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

        raw5, raw7 = PH_RAW[5], PH_RAW[7]

        def ph5_raw() -> None:
            for h in i5:
                raw5(*h)

        def ph7_raw() -> None:
            for h in i7:
                raw7(*h)

        rows += [("phevaluator.evaluate_cards", "5", ph5, n),
                 ("phevaluator.evaluate_cards", "7", ph7, n),
                 ("phevaluator raw evaluate_5cards (C)", "5", ph5_raw, n),
                 ("phevaluator raw evaluate_7cards (C)", "7", ph7_raw, n)]

    nb = args.batch
    b5 = np.array([rng.sample(range(52), 5) for _ in range(nb // 10)], dtype=np.uint8)
    b5 = np.tile(b5, (10, 1))
    b7 = np.tile(np.array(h7, dtype=np.uint8), (max(1, nb // n), 1))
    rows += [("big2.poker evaluate5_batch", "5",
              lambda: evaluate5_batch(b5), len(b5)),
             ("big2.poker evaluate7_batch", "7",
              lambda: evaluate7_batch(b7), len(b7)),
             ("NumPy reference py_evaluate5_batch", "5",
              lambda: py_evaluate5_batch(b5), len(b5)),
             ("NumPy reference py_evaluate7_batch", "7",
              lambda: py_evaluate7_batch(b7), len(b7))]

    results = median_rates(rows, reps)
    base = {cards: rate for name, cards, rate in results if name.startswith("treys")}
    rate_of = {(name, cards): rate for name, cards, rate in results}
    ours = {"5": rate_of[("big2.poker evaluate5(*cards)", "5")],
            "7": rate_of[("big2.poker evaluate7(*cards)", "7")]}
    print(f"\n{'evaluator':<38}{'cards':>6}{'M evals/s':>12}{'vs treys':>10}{'big2/it':>10}")
    for name, cards, rate in results:
        ratio = f"{rate / base[cards]:.1f}x" if cards in base else "-"
        mine = f"{ours[cards] / rate:.2f}x"
        print(f"{name:<38}{cards:>6}{rate / 1e6:>12.2f}{ratio:>10}{mine:>10}")
    batch7 = rate_of[("big2.poker evaluate7_batch", "7")]
    print(f"\nevaluate7_batch / evaluate7 (scalar): {batch7 / ours['7']:.1f}x")
    rank_timings(h7[:20_000], reps)
    if not args.no_equity:
        equity_timings(reps)
    targets(rate_of, reps, with_equity=not args.no_equity)


def targets(rate_of: dict[tuple[str, str], float], repeats: int, with_equity: bool) -> None:
    """Issue 28's targets, each as measured in this run (beside its peer where it has one)."""
    print(f"\nissue 28 targets (poker core: {native_reason() or 'native'})")
    print(f"{'figure':<44}{'big2':>12}{'peer':>12}{'big2/peer':>11}  target")
    for cards in ("5", "7"):
        ours = rate_of[(f"big2.poker evaluate{cards}(*cards)", cards)]
        peer = rate_of.get((f"phevaluator raw evaluate_{cards}cards (C)", cards))
        ratio = f"{ours / peer:.2f}x" if peer else "-"
        peer_text = f"{peer / 1e6:.2f} M/s" if peer else "-"
        print(f"{'evaluate' + cards + ' per hand vs phevaluator raw C':<44}"
              f"{ours / 1e6:>8.2f} M/s{peer_text:>12}{ratio:>11}  >= 1.0x")
    for cards, goal in (("5", 100), ("7", 50)):
        rate = rate_of[(f"big2.poker evaluate{cards}_batch", cards)]
        ref = rate_of[(f"NumPy reference py_evaluate{cards}_batch", cards)]
        print(f"{'evaluate' + cards + '_batch, one core (vs NumPy ref)':<44}"
              f"{rate / 1e6:>8.1f} M/s{ref / 1e6:>8.1f} M/s{rate / ref:>10.1f}x"
              f"  >= {goal}M/s")
    if not with_equity:
        return
    from big2.poker import equity

    cases: list[tuple[str, Callable[[], object]]] = [
        ("AA vs KK exact", lambda: equity(["AC AD", "KH KS"])),
        ("AA vs KK Monte Carlo 1,000,000", lambda: equity(["AC AD", "KH KS"],
                                                          trials=1_000_000, seed=1)),
    ]
    try:
        import eval7
    except ImportError:
        print("eval7 not installed: Monte Carlo timed alone")
    else:
        hero = [eval7.Card("Ac"), eval7.Card("Ad")]
        villain = eval7.HandRange("KhKs")
        cases.append(("eval7 Monte Carlo 1,000,000", lambda: eval7.py_hand_vs_range_monte_carlo(
            hero, villain, [], 1_000_000)))
    for _, call in cases:
        call()  # warm
    times: list[list[float]] = [[] for _ in cases]
    for _ in range(max(3, repeats)):
        for i, (_, call) in enumerate(cases):  # interleaved: a slow spell hits all alike
            t = clock()
            call()
            times[i].append(clock() - t)
    med = [statistics.median(t) for t in times]
    mc_peer = f"{med[2]:>10.3f} s{med[2] / med[1]:>10.2f}x" if len(med) > 2 else f"{'-':>12}{'-':>11}"
    print(f"{'heads-up Monte Carlo AA vs KK, 1M trials':<44}{med[1]:>10.3f} s{mc_peer}"
          "  faster than eval7 (big2/peer = speed ratio)")
    print(f"{'AA vs KK exact, all 1,712,304 boards (warm)':<44}{med[0]:>10.3f} s"
          f"{'-':>12}{'-':>11}  <= 0.05 s")


def rank_timings(hands: list[list[int]], repeats: int) -> None:
    """Microseconds a 7-card hand through ``rank_hand`` (and pokerkit, if installed)."""
    from big2.poker import rank_hand

    tuples = [tuple(h) for h in hands]
    rank_hand(tuples[0])

    def ours() -> None:
        for h in tuples:
            rank_hand(h)

    rows: list[Case] = [("big2.poker rank_hand(cards)", "7", ours, len(tuples))]
    try:
        from pokerkit import StandardHighHand
    except ImportError:
        print("\npokerkit not installed: rank_hand timed alone")
    else:
        texts = ["".join(_poker_name(c) for c in h)
                 for h in hands]

        def theirs() -> None:
            for t in texts:
                StandardHighHand.from_game(t[:4], t[4:])

        rows.append(("pokerkit StandardHighHand.from_game", "7", theirs, len(texts)))
    results = median_rates(rows, repeats)
    mine = results[0][2]
    print(f"\n{'named ranking':<38}{'cards':>6}{'us/hand':>12}{'big2/it':>10}")
    for name, cards, rate in results:
        print(f"{name:<38}{cards:>6}{1e6 / rate:>12.1f}{mine / rate:>9.2f}x")


def equity_timings(repeats: int) -> None:
    """Median seconds of typical equity calls (the first call builds the tables)."""
    from big2.poker import equity

    equity(["AS AH", "KS KH"], board="2C 7D 9H")  # build the lookup tables
    equity(["AS 2D 3C", "KS KD 4H"], game="razz", trials=1_000, seed=1)  # and razz's
    cases: list[tuple[str, Callable[[], object]]] = [
        ("hold'em AA vs KK preflop, exact (1,712,304 boards)",
         lambda: equity(["AC AD", "KH KS"])),
        ("hold'em AA vs KK vs QQ preflop, exact (1,370,754)",
         lambda: equity(["AC AD", "KH KS", "QS QH"])),
        ("hold'em AA vs KK vs QQ, Monte Carlo 1,000,000",
         lambda: equity(["AC AD", "KH KS", "QS QH"], trials=1_000_000, seed=1)),
        ("hold'em QQ+ vs AKs (ranges), Monte Carlo 200,000",
         lambda: equity(["QQ+", "AKs"], trials=200_000, seed=1)),
        ("omaha preflop heads-up, Monte Carlo 200,000",
         lambda: equity(["AS AH KD QC", "JS TS 9H 8H"], game="omaha", trials=200_000, seed=1)),
        ("omaha8 on the flop, exact (820 boards)",
         lambda: equity(["AS 2H 3D KC", "JS TS 9H 8H"], board="4S 5S KH", game="omaha8")),
        ("stud third street, Monte Carlo 200,000",
         lambda: equity(["AS KS 2D", "QH QD 7C"], game="stud", trials=200_000, seed=1)),
        ("razz third street, Monte Carlo 200,000",
         lambda: equity(["AS 2D 3C", "KS KD 4H"], game="razz", trials=200_000, seed=1)),
        ("badugi, both draw one, exact (1,722 deals)",
         lambda: equity(["AS 2D 3C", "2S 4D 5H", "8C 7H 6D 5S"], game="badugi")),
    ]
    try:
        import eval7
    except ImportError:
        pass
    else:
        hero = [eval7.Card("Ac"), eval7.Card("Ad")]
        villain = eval7.HandRange("KhKs")
        cases.append(("eval7 py_hand_vs_range_monte_carlo AA vs KK, 1,000,000 (C)",
                      lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [],
                                                                 1_000_000)))
    print(f"\n{'equity call':<62}{'median s':>10}")
    for name, call in cases:
        times = []
        for _ in range(max(1, repeats // 2)):
            t = clock()
            call()
            times.append(clock() - t)
        print(f"{name:<62}{statistics.median(times):>10.3f}")


if __name__ == "__main__":
    main()
