"""Razz, badugi and the stud8 low half against brute force over every completion."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from poker_brute import low8, pot_shares

from big2.poker import ACE_TO_FIVE, rank_badugi, rank_hand
from big2.poker.cards import parse_hand
from big2.poker.equity import equity
from big2.poker.lowball import badugi_values, razz_values

Key = Callable[[Sequence[int]], object]
Tally = list[tuple[Fraction, Fraction, Fraction, Fraction]]


def razz_key(cards: Sequence[int]) -> object:
    """The best ace-to-five five of the cards, by the general ranker (pairs included)."""
    return rank_hand(list(cards), ACE_TO_FIVE).key


def badugi_key(cards: Sequence[int]) -> object:
    return rank_badugi(list(cards)).key


def brute(hands: list[str], size: int, key: Key, low: Key | None = None) -> Tally:
    """(win, tie, equity, low-half share) of each hand over every way to complete them."""
    hs = [list(parse_hand(h)) for h in hands]
    used = {c for h in hs for c in h}
    rest = [c for c in range(52) if c not in used]
    missing = [size - len(h) for h in hs]
    sums = [[Fraction(0)] * 4 for _ in hs]
    n = 0
    for dealt in permutations(rest, sum(missing)):
        # every ordered deal once per distinct split: skip orders within a hand's cards
        full, at, ok = [], 0, True
        for h, m in zip(hs, missing):
            part = dealt[at:at + m]
            ok &= list(part) == sorted(part)
            full.append(h + list(part))
            at += m
        if not ok:
            continue
        n += 1
        hi, lo = pot_shares([key(f) for f in full],
                            None if low is None else [low(f) for f in full])
        for s, x, y in zip(sums, hi, lo):
            s[0] += x == 1
            s[1] += 0 < x < 1
            s[2] += x
            s[3] += y
    return [(w / n, t / n, e / n, lo / n) for w, t, e, lo in sums]


def assert_same(result: object, expected: Tally, low: bool = False) -> None:
    for h, (w, t, e, lo) in zip(result.hands, expected):  # type: ignore[attr-defined]
        assert (h.win, h.tie, h.equity) == pytest.approx((float(w), float(t), float(e)),
                                                         abs=1e-12)
        if low:
            assert h.low == pytest.approx(float(lo), abs=1e-12)


def test_razz_values_order_like_the_general_ranker() -> None:
    rng = np.random.default_rng(5)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(400)])
    # pairs and trips are where razz differs from eight-or-better: seven of 16 cards
    # (four ranks) hold at least three pairs
    for i in range(150):
        ranks = rng.choice(13, 4, replace=False)
        pool = [int(r) * 4 + s for r in ranks for s in range(4)]
        hands[i] = rng.choice(pool, 7, replace=False)
    values = razz_values(hands).tolist()
    keys = [razz_key(h) for h in hands.tolist()]
    for i in range(len(keys) - 1):
        a, b = keys[i], keys[i + 1]
        assert (values[i] > values[i + 1]) == (a > b)  # type: ignore[operator]
        assert (values[i] == values[i + 1]) == (a == b)


def test_badugi_values_order_like_rank_badugi() -> None:
    rng = np.random.default_rng(6)
    hands = np.array([rng.choice(52, 4, replace=False) for _ in range(2000)])
    values = badugi_values(hands).tolist()
    keys = [badugi_key(h) for h in hands.tolist()]
    order_v = sorted(range(len(keys)), key=lambda i: values[i])
    assert [keys[i] for i in order_v] == sorted(keys)  # type: ignore[type-var]


def test_razz_heads_up_last_card_equals_brute_force() -> None:
    hands = ["AS 2D 3C 4H 9S 8D", "2S 3D 4C 5H 6S 7D"]
    r = equity(hands, game="razz")
    assert r.exact and r.deals == 40 * 39 and r.low_made is None
    assert r.hands[0].low is None
    assert_same(r, brute(hands, 7, razz_key))


def test_razz_pairs_and_ties_three_way_equals_brute_force() -> None:
    # paired razz hands: A-A and 2-2 must play a pair whenever no new rank comes
    hands = ["AS AD 2C 2H 3S 3D KC", "AH AC 2S 2D 3H 3C", "KS KD QC QH JS JD TC"]
    expected = brute(hands, 7, razz_key)
    assert expected[0][1] > 0  # the aces split some deals
    r = equity(hands, game="razz")
    assert r.exact and r.deals == 52 - 20
    assert_same(r, expected)


def test_razz_monte_carlo_within_its_interval() -> None:
    hands = ["AS 2D 3C 9H KS", "4S 5D 6C 7H 8S 8D"]
    exact = equity(hands, game="razz")
    assert exact.exact
    mc = equity(hands, game="razz", trials=30_000, seed=11)
    for e, m in zip(exact.hands, mc.hands):
        assert m.ci is not None and abs(m.equity - e.equity) < 4 * m.ci


def test_badugi_drawing_hands_equal_brute_force() -> None:
    # two players keep three cards and draw one each, against a pat 8-badugi
    hands = ["AS 2D 3C", "2S 4D 5H", "8C 7H 6D 5S"]
    r = equity(hands, game="badugi")
    assert r.exact and r.deals == 42 * 41
    assert_same(r, brute(hands, 4, badugi_key))


def test_badugi_monte_carlo_within_its_interval() -> None:
    hands = ["AS 2D", "KC QH JD TS"]
    exact = equity(hands, game="badugi", exact=True)
    mc = equity(hands, game="badugi", trials=20_000, seed=3)
    assert exact.exact and not mc.exact
    for e, m in zip(exact.hands, mc.hands):
        assert m.ci is not None and abs(m.equity - e.equity) < 4 * m.ci


def test_stud8_low_half_equals_brute_force() -> None:
    hands = ["AS 2S 3D 4D KH KC", "AH 2H 3C 4C QS QD"]
    r = equity(hands, game="stud8", exact=True)
    expected = brute(hands, 7, lambda c: rank_hand(list(c)).key, low8)
    assert 0 < expected[0][3] < 0.5  # the lows split some deals
    assert_same(r, expected, low=True)
    assert r.low_made is not None and 0 < r.low_made < 1
    assert sum(h.low or 0 for h in r.hands) == pytest.approx(r.low_made)
    assert "low half" in r.table()


def test_stud8_monte_carlo_low_half_within_tolerance() -> None:
    hands = ["AS 2S 3D 4D", "2H 3H 5C 6C"]
    mc = equity(hands, game="stud8", trials=40_000, seed=2)
    assert not mc.exact and mc.hands[0].low is not None
    # the low halves of the two hands and the deals without a low add up
    assert mc.low_made is not None
    assert sum(h.low or 0 for h in mc.hands) == pytest.approx(mc.low_made)
    assert 0.3 < mc.low_made < 0.95


def test_best_low5_equals_every_subset_on_every_seven_rank_multiset() -> None:
    from itertools import combinations_with_replacement

    from big2.poker.lowball import best_low5, low_key5, razz_by_subsets

    n = 0
    for seven in combinations_with_replacement(range(13), 7):
        if max(seven.count(r) for r in seven) <= 4:
            assert low_key5(best_low5(seven)) == razz_by_subsets(seven), seven
            n += 1
    assert n == 49_205


def test_cli_equity_deals_razz_badugi_and_shows_the_low_half() -> None:
    from click.testing import CliRunner

    from big2.poker.cli import poker

    def run(*args: str) -> str:
        result = CliRunner().invoke(poker, ["equity", *args])
        assert result.exit_code == 0, result.output
        return result.output

    out = run("AS 2D 3C 4H 9S 8D", "2S 3D 4C 5H 6S 7D", "--game", "razz")
    assert out.startswith("razz, exact, 1,560 deals") and "14.13%" in out
    out = run("AS 2D 3C", "4S 5D 6H 7C", "--game", "badugi")
    assert out.startswith("badugi, exact, 45 deals") and "93.33%" in out
    out = run("AS 2S 3D 4D KH KC", "AH 2H 3C 4C QS QD", "--game", "stud8")
    assert "low half" in out and "a qualifying low is made on 64.62% of deals" in out
