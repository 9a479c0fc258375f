"""Scoring a finished deal under each scoring rule.

All scores are "higher is better": a loser's payment or penalty is negative.

>>> from big2.rules import Rules
>>> from big2.cards import parse_cards as p
>>> east, west = p("3D 4D 5D"), p("3C 4S 5C 6S 7C 8C 9S TC JS QC KS")
>>> south = p("3H 4H 6H 7H 9H JH QH KD")        # 8 cards, nothing doubling
>>> score(Rules(), [0, east, west, south], winner=0, last_play=p("AD"))   # RULES.md example 1
(33, -3, -22, -8)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from big2.cards import DECK_SIZE, FULL_DECK, RANK_MASKS, TWO, Mask, cards_of, rank_of
from big2.combos import Kind, engine
from big2.rules import Rules


def card_multiplier(left: int, dealt: int) -> int:
    """Points per card for *left* cards out of *dealt*: 1, 2 (from 70% of the
    deal: 10 of 13, 12 of 17) or 3 (all of them)."""
    if left >= dealt:
        return 3
    if left >= math.ceil(dealt * 0.7):
        return 2
    return 1


def _straight_flushes(hand: Mask, rules: Rules) -> int:
    """Five-card straight flushes held in *hand* (overlapping ones each count;
    with two decks, copies of a card count once)."""
    sequences = engine(rules).straight_list
    hand = (hand | hand >> DECK_SIZE) & FULL_DECK
    count = 0
    for suit in range(4):
        ranks = 0
        for r in range(13):
            if hand >> (4 * r + suit) & 1:
                ranks |= 1 << r
        if ranks.bit_count() >= 5:
            count += sum(1 for smask, _, _ in sequences if ranks & smask == smask)
    return count


def doubling_count(hand: Mask, rules: Rules) -> int:
    """How many times a loser's figure doubles for what *hand* still holds."""
    twos = (hand & RANK_MASKS[TWO]).bit_count()
    n = twos if rules.twos_double == "each" else min(twos, 1)
    n += sum((hand & RANK_MASKS[r]).bit_count() // 4 for r in range(13))  # fours held whole
    if hand.bit_count() >= 5:
        n += _straight_flushes(hand, rules)
    return n


def winning_play_doubles(last_play: Mask, rules: Rules) -> bool:
    """Whether going out with *last_play* doubles every loser once (a 2, a pair
    of 2s, four of a kind, or a straight flush)."""
    combo = engine(rules).classify(last_play)
    if combo is None:
        return False
    if combo.kind in (Kind.SINGLE, Kind.PAIR) and all(rank_of(c) == TWO for c in cards_of(last_play)):
        return True
    return combo.kind in (Kind.FOUR_OF_A_KIND, Kind.FOUR_KICKER, Kind.STRAIGHT_FLUSH,
                          Kind.FIVE_OF_A_KIND)


def score(
    rules: Rules,
    hands_left: Sequence[Mask | int],
    winner: int,
    last_play: Mask,
    *,
    dealt: Sequence[int] | None = None,
    finished: Sequence[int] = (),
) -> tuple[int, ...]:
    """Score a finished deal.

    Args:
        rules: the rule set (its ``scoring`` option decides the method).
        hands_left: each seat's remaining cards as a mask (the winner's is 0).
        winner: the seat that went out first.
        last_play: the winner's final play.
        dealt: cards each seat was dealt (default: 13, or 17 for 3 players
            dealt evenly); used for the ×2 / ×3 thresholds.
        finished: for ``ranking`` scoring, the seats in the order they went out.

    >>> r = Rules()
    >>> from big2.cards import parse_cards as p
    >>> west = p("3H 4H 5H 6H 7H 9C 9D JS QS")        # 9 cards, a straight flush
    >>> south = p("2C 4S 5S 6C 8C 8D TC KD")            # 8 cards, a 2
    >>> score(r, [0, p("4D 5D 6D"), west, south], winner=0, last_play=p("2S"))
    (74, -6, -36, -32)
    """
    n = len(hands_left)
    hands = [int(h) for h in hands_left]
    if dealt is None:
        each = 13 if (rules.deal == "13-each" or n == 4) else 52 * rules.decks // n
        dealt = [each] * n
    if rules.scoring == "ranking":
        order = list(finished) or [winner]
        rest = sorted((s for s in range(n) if s not in order), key=lambda s: hands[s].bit_count())
        order += rest
        return tuple(n - 1 - order.index(s) for s in range(n))
    pay = [0] * n
    double_all = rules.scoring == "classic" and winning_play_doubles(last_play, rules)
    for seat, hand in enumerate(hands):
        if seat == winner:
            continue
        left = hand.bit_count()
        if rules.scoring == "count":
            figure = left + ((hand & RANK_MASKS[TWO]).bit_count() if rules.count_twos_double else 0)
        else:
            figure = left * card_multiplier(left, dealt[seat])
            if rules.scoring == "classic":
                figure <<= doubling_count(hand, rules) + (1 if double_all else 0)
        pay[seat] = figure
    if rules.scoring == "penalty":
        return tuple(-p for p in pay)
    total = sum(pay)
    return tuple(total if s == winner else -pay[s] for s in range(n))
