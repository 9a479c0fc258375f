"""Equity against independent brute force (small boards), published matchups, ranges."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from poker_brute import low8, pot_shares

from big2.cards import CARD_NAMES
from big2.poker import Rules, rank_hand
from big2.poker.cards import parse_hand, poker_rank
from big2.poker.equity import EquityError, equity
from big2.poker.ranges import parse_range
from big2.poker.reference import reference_key

Key = Callable[[Sequence[int]], object]


def ref_high(cards: Sequence[int]) -> tuple[int, ...]:
    """Best five by the plain reference ranker (no tables involved)."""
    return max(reference_key([CARD_NAMES[c] for c in five]) for five in combinations(cards, 5))


def ref_omaha(hole: Sequence[int], board: Sequence[int], low: bool) -> object:
    keys = [(low8 if low else ref_high)([*h, *b])
            for h in combinations(hole, 2) for b in combinations(board, 3)]
    present = [k for k in keys if k is not None]
    return max(present) if present else None


def brute(hands: list[str], board: str, value: Callable[[list[int], list[int]], object],
          low: Callable[[list[int], list[int]], object] | None = None,
          deck: Sequence[int] = range(52), board_size: int = 5
          ) -> list[tuple[Fraction, Fraction, Fraction]]:
    """(win, tie, equity) of each hand, dealing the rest of the board every way."""
    hs = [list(parse_hand(h)) for h in hands]
    b = list(parse_hand(board))
    used = {*b, *(c for h in hs for c in h)}
    rest = [c for c in deck if c not in used]
    tallies = [[Fraction(0)] * 3 for _ in hs]
    n = 0
    for more in combinations(rest, board_size - len(b)):
        full = b + list(more)
        s, _ = pot_shares([value(h, full) for h in hs],
                          [low(h, full) for h in hs] if low else None)
        n += 1
        for t, x in zip(tallies, s):
            t[0] += x == 1
            t[1] += 0 < x < 1
            t[2] += x
    return [(w / n, t / n, e / n) for w, t, e in tallies]


def assert_same(result: object, expected: list[tuple[Fraction, Fraction, Fraction]]) -> None:
    got = [(h.win, h.tie, h.equity) for h in result.hands]  # type: ignore[attr-defined]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g == pytest.approx(tuple(float(x) for x in e), abs=1e-12)


def test_holdem_flop_two_hands_equals_brute_force() -> None:
    hands, board = ["AS KD", "QH QC"], "JS TH 2C"
    r = equity(hands, board=board)
    assert r.exact and r.deals == 990
    assert_same(r, brute(hands, board, lambda h, b: ref_high(h + b)))


def test_holdem_turn_three_hands_with_ties_equals_brute_force() -> None:
    hands, board = ["AS 5D", "AH 5C", "KC QD"], "JS TD 4C 2H"
    expected = brute(hands, board, lambda h, b: ref_high(h + b))
    assert expected[0][1] > 0  # the two A-5 hands split some rivers
    assert_same(equity(hands, board=board), expected)


def test_dead_cards_are_not_dealt() -> None:
    hands, board = ["AS KD", "QH QC"], "JS TH 2C 3D"
    live = equity(hands, board=board, dead="QS QD KS")
    assert live.deals == 44 - 3
    r = brute(hands, board, lambda h, b: ref_high(h + b),
              deck=[c for c in range(52) if c not in parse_hand("QS QD KS")])
    assert_same(live, r)


def test_omaha_uses_exactly_two_hole_cards() -> None:
    hands, board = ["AS AH KD QC", "JS TS 9H 8H"], "2S 7S 3H 4S"
    r = equity(hands, board=board, game="omaha")
    assert_same(r, brute(hands, board, lambda h, b: ref_omaha(h, b, low=False)))
    # five spades on the board and one in hand is no flush in Omaha: the tens win
    flush_board = "2S 7S 3S 4S 9S"
    assert equity(["AS KH QH JH", "TD TC 8C 8D"], board=flush_board, game="omaha").hands[
        1].equity == 1.0


def test_omaha8_splits_high_and_low_like_brute_force() -> None:
    hands, board = ["AS 2H 3D KC", "AH 2D QS QH", "JS TS 9H 8H"], "4S 5S KH 7C"
    r = equity(hands, board=board, game="omaha8")
    expected = brute(hands, board, lambda h, b: ref_omaha(h, b, low=False),
                     lambda h, b: ref_omaha(h, b, low=True))
    assert_same(r, expected)
    assert 0 < r.hands[1].tie  # the A-2 hands quarter the low


def test_shortdeck_equals_rank_hand_brute_force() -> None:
    rules = Rules.stripped(36)
    deck = [c for c in range(52) if poker_rank(c) >= 4]
    hands, board = ["AS 9D", "KH KC"], "6S 7H 8C TD"
    r = equity(hands, board=board, game="shortdeck")
    expected = brute(hands, board, lambda h, b: rank_hand(h + b, rules).key, deck=deck)
    assert_same(r, expected)
    # A-6-7-8-9 is a straight in short deck, ace-high in hold'em
    assert equity(["AS 9D", "KH KC"], board="6S 7H 8C JD QC",
                  game="shortdeck").hands[0].equity == 1.0
    assert equity(["AS 9D", "KH KC"], board="6S 7H 8C JD QC").hands[0].equity == 0.0


def test_shortdeck_flush_beats_full_house() -> None:
    hands, board = ["AH KH", "TS TC"], "TH 6H 7H 6S JC"
    assert equity(hands, board=board, game="shortdeck").hands[0].equity == 1.0
    assert equity(hands, board=board).hands[0].equity == 0.0


def test_stud_and_stud8_deal_the_last_cards_like_brute_force() -> None:
    a, b = "AS KS 2D 3D 4H 9C", "QH QD 7C 7S 5H 6H"
    used = set(parse_hand(a + " " + b))
    rest = [c for c in range(52) if c not in used]
    tall: list[list[Fraction]] = [[Fraction(0)] * 3 for _ in range(2)]
    hi_lo: list[list[Fraction]] = [[Fraction(0)] * 3 for _ in range(2)]
    n = 0
    for x in rest:
        for y in rest:
            if x == y:
                continue
            h1, h2 = [*parse_hand(a), x], [*parse_hand(b), y]
            n += 1
            high = [ref_high(h1), ref_high(h2)]
            for tally, low in ((tall, None), (hi_lo, [low8(h1), low8(h2)])):
                for t, s in zip(tally, pot_shares(high, low)[0]):
                    t[0] += s == 1
                    t[1] += 0 < s < 1
                    t[2] += s
    for game, tally in (("stud", tall), ("stud8", hi_lo)):
        r = equity([a, b], game=game)
        assert r.exact and r.deals == n
        assert_same(r, [(w / n, t / n, e / n) for w, t, e in tally])


def test_ranges_weight_every_combination_alike() -> None:
    board = "JS TH 2C 9D"
    r = equity(["AKs", "QQ"], board=board)
    assert r.hands[0].combos == 4 and r.hands[1].combos == 6
    total = [Fraction(0)] * 3
    pairs = 0
    for a in parse_range("AKs"):
        for q in parse_range("QQ"):
            cards = {*a, *q, *parse_hand(board)}
            if len(cards) < 7:
                continue
            res = brute([" ".join(CARD_NAMES[c] for c in a),
                         " ".join(CARD_NAMES[c] for c in q)], board,
                        lambda h, b: ref_high(h + b))
            pairs += 1
            total = [t + x for t, x in zip(total, res[0])]
    assert r.hands[0].equity == pytest.approx(float(total[2] / pairs), abs=1e-12)


def test_monte_carlo_is_within_its_interval_and_reproducible() -> None:
    exact = equity(["AS KD", "QH QC", "7C 8C"], board="JS TH 2C")
    mc = equity(["AS KD", "QH QC", "7C 8C"], board="JS TH 2C", trials=30_000, seed=7)
    again = equity(["AS KD", "QH QC", "7C 8C"], board="JS TH 2C", trials=30_000, seed=7)
    assert not mc.exact and mc.deals == 30_000
    for e, m, a in zip(exact.hands, mc.hands, again.hands):
        assert m.ci is not None and 0 < m.ci < 0.01
        assert abs(m.equity - e.equity) < 4 * m.ci
        assert m.equity == a.equity
    assert sum(h.equity for h in mc.hands) == pytest.approx(1)


def test_monte_carlo_ranges_skip_clashing_combinations() -> None:
    r = equity(["AA", "AKs", "random"], trials=20_000, seed=3)
    assert r.hands[0].combos == 6 and r.hands[2].combos == 1326
    assert r.hands[0].equity > 0.6 and sum(h.equity for h in r.hands) == pytest.approx(1)


def test_published_preflop_matchups() -> None:
    # aces over kings about 4.5 to 1, A-K against a small pair about a coin flip
    aa = equity(["AC AD", "KH KS"])
    assert aa.exact and aa.deals == 1_712_304
    assert 0.81 < aa.hands[0].equity < 0.83
    flip = equity(["AS KD", "2C 2H"])
    assert 0.46 < flip.hands[0].equity < 0.48


def test_progress_reaches_the_total() -> None:
    calls: list[tuple[int, int]] = []
    equity(["AS KD", "QH QC"], board="JS TH 2C", progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1] == 990


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": ["AS KD"]}, "two or more"),
    ({"hands": ["AS KD", "AS QC"]}, "shares a card"),
    ({"hands": ["AS KD QD", "QH QC"]}, "3 cards, holdem deals 2"),
    ({"hands": ["AKs", "QQ"], "game": "omaha"}, "ranges are for hold'em"),
    ({"hands": ["AS KD", "QH QC"], "game": "pineapple"}, "unknown game"),
    ({"hands": ["AS KD", "2H 2C"], "game": "shortdeck"}, "not in the 36-card deck"),
    ({"hands": ["AS KD", "QH QD"], "board": "JK 2C 3C"}, "jokers"),
    ({"hands": ["AS KD", "QH QC"], "board": "2C 3C 4C 5C 6C 7C"}, "board has 6"),
    ({"hands": ["ZZ+", "QQ"]}, "range item 1"),
])
def test_errors_are_clear_and_do_not_echo(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(EquityError, match=message) as info:
        equity(**kwargs)  # type: ignore[arg-type]
    assert "ZZ" not in str(info.value)


@pytest.mark.nightly
def test_preflop_exact_equals_brute_force_over_every_board() -> None:
    """All 1,712,304 boards, valued by the five-card batch path (best of 21 subsets)."""
    from big2.poker import evaluate5_batch
    from big2.poker.lookup import combinations_array

    a, k = parse_hand("AC AD"), parse_hand("KH KS")
    rest = np.array([c for c in range(52) if c not in (*a, *k)], dtype=np.uint8)
    boards = rest[combinations_array(48, 5)]
    vals = []
    for hole in (a, k):
        seven = np.concatenate([boards, np.tile(np.array(hole, dtype=np.uint8), (len(boards), 1))],
                               axis=1)
        best = np.zeros(len(boards), dtype=np.int32)
        for idx in combinations(range(7), 5):
            np.maximum(best, evaluate5_batch(seven[:, idx]), out=best)
        vals.append(best)
    win = float(np.mean(vals[0] > vals[1]))
    tie = float(np.mean(vals[0] == vals[1]))
    r = equity(["AC AD", "KH KS"])
    assert (r.hands[0].win, r.hands[0].tie) == pytest.approx((win, tie), abs=1e-12)


def test_seven_handed_stud_samples_and_refuses_an_impossible_enumeration() -> None:
    hands = ["AS KS 2D", "QH QD 7C", "JS JD 3C", "TH 9H 8H", "2S 2C 4D", "5S 6S 7S", "8D 9D TD"]
    r = equity(hands, game="stud", trials=2_000, seed=1)
    assert r.deals == 2_000 and sum(h.equity for h in r.hands) == pytest.approx(1)
    with pytest.raises(EquityError, match="too many deals"):
        equity(hands[:3], game="stud", exact=True)


def test_hands_as_card_numbers_and_a_random_hand() -> None:
    text = equity(["AS AH", "KS KH"], board="2C 7D 9H")
    nums = equity([list(parse_hand("AS AH")), list(parse_hand("KS KH"))],
                  board=list(parse_hand("2C 7D 9H")))
    assert [h.equity for h in nums.hands] == [h.equity for h in text.hands]
    r = equity(["AS AH", ""], board="2C 7D 9H 4S")   # against any two cards
    assert r.exact and r.hands[1].hand == "(random)" and r.hands[0].equity > 0.8
    with pytest.raises(EquityError, match="board: not a card"):
        equity(["AS AH", "KS KH"], board="<b>ZZ</b>")
