"""Exact counts and probabilities of five-card hands dealt from 1 or more decks.

With several decks shuffled together a hand can hold identical cards, so
five of a kind and flushes with pairs (up to a five-of-a-kind flush) become
possible.  Each hand is sorted into its rank pattern (five of a kind, four,
full house, three, two pair, pair, none; a straight when none and in
sequence) and whether all five cards share a suit.  The counts are exact:
for each multiset of ranks, the hands are ``∏ C(4d, k)`` over its rank
counts *k*, of which ``4 · ∏ C(d, k)`` are one-suited.

>>> counts = category_counts(1)
>>> counts["Straight flush"], counts["Four of a kind"], counts["High card"]
(40, 624, 1302540)
>>> sum(category_counts(2).values()) == comb(104, 5)
True

The work does not grow with the number of decks (one pass over the 6,188
multisets of five ranks, on integers of a few dozen digits), so any number up
to :data:`MAX_DECKS` is counted exactly in a few hundredths of a second:

>>> category_counts(1000)["Five of a kind, flush"] == 52 * comb(1000, 5)
True
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, prod

__all__ = ["CATEGORIES", "MAX_DECKS", "category_counts", "odds_table", "probabilities"]

MAX_DECKS = 1_000_000
"""Most decks counted.  Counting stays fast far beyond (0.02 s at a billion decks,
measured), but from a million decks on every probability is within 0.001 % (relative) of
drawing with replacement (the infinite shoe), and the counts pass 40 digits."""

CATEGORIES = (
    "Five of a kind, flush",
    "Five of a kind",
    "Straight flush",
    "Four of a kind, flush",
    "Four of a kind",
    "Full house, flush",
    "Full house",
    "Three of a kind, flush",
    "Two pair, flush",
    "Pair, flush",
    "Flush",
    "Straight",
    "Three of a kind",
    "Two pair",
    "Pair",
    "High card",
)
"""Categories, best first, in the order :func:`~big2.poker.ranking.rank_hand` ranks
the best hand of each (with duplicate cards): a flush holding a pair, two pair or
three of a kind ranks as a flush by its cards, so A-A-K-Q-J suited is above the
best plain flush; the ``…, flush`` rows need several decks."""

_PATTERNS = {
    (5,): "Five of a kind", (4, 1): "Four of a kind", (3, 2): "Full house",
    (3, 1, 1): "Three of a kind", (2, 2, 1): "Two pair", (2, 1, 1, 1): "Pair",
}


def _label(pattern: tuple[int, ...], straight: bool, flush: bool) -> str:
    if pattern == (1, 1, 1, 1, 1):
        if straight:
            return "Straight flush" if flush else "Straight"
        return "Flush" if flush else "High card"
    base = _PATTERNS[pattern]
    return f"{base}, flush" if flush else base


def _is_straight(ranks: tuple[int, ...]) -> bool:
    if len(set(ranks)) != 5:
        return False
    return ranks[-1] - ranks[0] == 4 or ranks == (0, 1, 2, 3, 12)


def category_counts(decks: int = 1) -> dict[str, int]:
    """Exact number of five-card hands in each category with *decks* decks."""
    if decks < 1:
        raise ValueError("at least one deck")
    if decks > MAX_DECKS:
        raise ValueError(f"{decks:,} decks: exact odds are counted for 1 to {MAX_DECKS:,} decks "
                         "(beyond, the counts pass 40 digits and the odds are those of an "
                         "infinite shoe to within 0.001 %)")
    counts = dict.fromkeys(CATEGORIES, 0)
    for ranks in combinations_with_replacement(range(13), 5):
        ks = [ranks.count(r) for r in set(ranks)]
        if max(ks) > 4 * decks:
            continue
        pattern = tuple(sorted(ks, reverse=True))
        straight = _is_straight(ranks)
        total = prod(comb(4 * decks, k) for k in ks)
        suited = 4 * prod(comb(decks, k) for k in ks)
        counts[_label(pattern, straight, True)] += suited
        counts[_label(pattern, straight, False)] += total - suited
    return counts


def probabilities(decks: int = 1) -> dict[str, Fraction]:
    """Exact probability of each category with *decks* decks."""
    total = comb(52 * decks, 5)
    return {k: Fraction(v, total) for k, v in category_counts(decks).items()}


def odds_table(decks: int = 1, *, all_rows: bool = False) -> str:
    """A text table of counts, probabilities and "1 in N" odds.

    Rows that are impossible with *decks* decks are left out unless *all_rows*.
    """
    counts = category_counts(decks)
    total = comb(52 * decks, 5)
    wide = max(18, len(f"{total:,}") + 2)
    lines = [(f"Five-card hands from {decks:,} deck{'s' if decks > 1 else ''} "
             f"({total:,} hands)"),
             f"{'Category':<24}{'Hands':>{wide}}{'Probability':>14}{'1 in':>14}"]
    for name in CATEGORIES:
        n = counts[name]
        if not n and not all_rows:
            continue
        one_in = f"{total / n:,.1f}" if n else "-"
        lines.append(f"{name:<24}{n:>{wide},}{n / total:>14.8f}{one_in:>14}")
    return "\n".join(lines)
