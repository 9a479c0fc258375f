"""Scoring: RULES.md's worked examples exactly, each method, and the doubling counts."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from big2 import Rules, parse_cards, score
from big2.combos import Kind, classify
from big2.scoring import card_multiplier, doubling_count
from big2.variant import variant

P = parse_cards


def test_worked_example_one() -> None:
    """North wins; East, West, South hold 3, 11 and 8 cards, no doubling cards."""
    east, west = P("3D 4D 5D"), P("3C 4S 5C 6S 7C 8C 9S TC JS QC KS")
    south = P("3H 4H 6H 7H 9H JH QH KD")
    assert score(Rules(), [0, east, west, south], winner=0, last_play=P("AD")) == (33, -3, -22, -8)


def test_worked_example_two() -> None:
    """North wins with a 2; West still holds a straight flush, South a 2."""
    west = P("3H 4H 5H 6H 7H 9C 9D JS QS")
    south = P("2C 4S 5S 6C 8C 8D TC KD")
    got = score(Rules(), [0, P("4D 5D 6D"), west, south], winner=0, last_play=P("2S"))
    assert got == (74, -6, -36, -32)


def test_multipliers() -> None:
    assert [card_multiplier(n, 13) for n in (1, 9, 10, 12, 13)] == [1, 1, 2, 2, 3]
    assert [card_multiplier(n, 17) for n in (11, 12, 16, 17)] == [1, 2, 2, 3]


def test_twos_double_each_or_once() -> None:
    hand = P("2S 2H 4D")
    assert doubling_count(hand, Rules()) == 2
    assert doubling_count(hand, Rules(twos_double="once")) == 1
    assert doubling_count(P("9S 9H 9D 9C 4D"), Rules()) == 1  # a four of a kind held whole


def test_count_penalty_and_ranking() -> None:
    hands = [0, P("3D 4D 5D"), P("3C 2C"), P("3H")]
    assert score(Rules(scoring="count"), hands, 0, P("AS")) == (6, -3, -2, -1)
    assert score(Rules(scoring="count", count_twos_double=True), hands, 0, P("AS")) == (7, -3, -3, -1)
    assert score(Rules(scoring="penalty"), hands, 0, P("2S")) == (0, -3, -2, -1)  # no doublings
    assert score(Rules(scoring="ranking"), hands, 0, P("AS"), finished=[0, 3]) == (3, 0, 1, 2)


def _brute_bombs(cards: list[int], rules: Rules) -> int:
    """The most disjoint fours of a kind and straight flushes, by trying every
    collection of them (RULES.md §1: a card counts in at most one)."""
    sfs = [sum(1 << x for x in sub) for sub in combinations(cards, 5)
           if len({x % 4 for x in sub}) == 1  # one suit: the only candidates worth classifying
           and (c := classify(sum(1 << x for x in sub), rules)) is not None
           and c.kind == Kind.STRAIGHT_FLUSH]
    hand = sum(1 << c for c in cards)
    fours = [0xF << (4 * r) for r in range(13) if hand >> (4 * r) & 0xF == 0xF]
    units = sfs + fours

    def best(i: int, used: int) -> int:
        return max([0] + [1 + best(j + 1, used | u) for j, u in enumerate(units[i:], i)
                          if not u & used])

    return best(0, 0)


@pytest.mark.sweep  # a brute-force sweep: make test runs it, make test-fast leaves it out
@pytest.mark.parametrize("order", ["hk", "pagat", "indonesia", "vietnam"])
def test_bombs_held_match_brute_force(order: str) -> None:
    rules = Rules(straight_order=order)
    rng = random.Random(order)
    for _ in range(300):
        # suit-heavy hands so straight flushes actually occur, and some fours
        suit = rng.randrange(4)
        cards = rng.sample([r * 4 + suit for r in range(13)], rng.randint(5, 10))
        if rng.random() < 0.3:
            r = rng.randrange(13)
            cards = list(set(cards) | {r * 4 + s for s in range(4)})
        cards += rng.sample([c for c in range(52) if c not in cards], max(0, 13 - len(cards)))
        assert variant(rules).scorer.bombs_held(sum(1 << c for c in cards)) == \
            _brute_bombs(cards, rules)


def test_a_card_counts_in_one_bomb_only() -> None:
    scorer = variant(Rules()).scorer
    assert scorer.bombs_held(int(P("3H 4H 5H 6H 7H 8H"))) == 1  # 3-7 and 4-8 share four cards
    assert scorer.bombs_held(int(P("3H 4H 5H 6H 7H 8H 9H TH JH QH"))) == 2
    # the four 7s share 7H with the straight flush: one doubling, not two
    assert scorer.bombs_held(int(P("3H 4H 5H 6H 7H 7D 7C 7S"))) == 1
    assert scorer.bombs_held(int(P("3H 4H 5H 6H 7H 9D 9C 9S 9H"))) == 2


def test_three_player_thresholds_count_cards_left() -> None:
    """Issue 12 bug 2: the holder of the spare 18th card pays by the cards left
    (12-16 left: x2, 17 or more: x3), in Game and in score() alike."""
    from big2 import Game
    rules = Rules(players=3)
    for left, mult in ((12, 2), (17, 3), (11, 1), (16, 2)):
        hands = Game(rules, seed=1).initial_hands
        holder = next(s for s in range(3) if hands[s].bit_count() == 18)
        winner = (holder + 1) % 3
        third = (holder + 2) % 3
        cards = [c for c in range(52) if hands[holder] >> c & 1]
        keep = sum(1 << c for c in cards[:left])
        # hands as they end: the holder kept *left* cards, the winner went out
        end = [0, 0, 0]
        end[holder] = keep
        end[third] = hands[third]
        got = score(Rules(players=3, scoring="penalty"), end, winner, int(P("3D")))
        assert got[holder] == -left * mult
    # the same end position through a Game: 3 players, the holder left with 12
    g = Game(Rules(players=3, scoring="penalty"), hands=["3D", "4D 4C 4H 4S 5D 5C 5H 5S 6D 6C 6H",
                                                         "7D 7C 7H 7S 8D 8C 8H 8S 9D 9C 9H 9S"])
    g.play("3D")
    assert g.scores() == (0, -11, -24)  # 11 left: x1; 12 left: x2
