"""General poker hand ranking under any :class:`~big2.poker.rules.Rules`.

:func:`rank_hand` gives a :class:`HandRank`: the category, the cards that
play and the kickers, a name as players say it, and a ``key`` tuple that
compares like hands (higher is better, in low poker too).  It handles
fewer than five cards, best five of more, wild cards and every house rule in
:class:`~big2.poker.rules.Rules`; for plain high poker at speed use
:mod:`big2.poker.evaluate`.  Five to nine distinct plain cards under
:data:`~big2.poker.rules.STANDARD` take a fast path (the evaluator's class,
then the cards that make it: about 10 µs for seven cards); everything else
tries every five-card subset.

>>> rank_hand("KH KS KD QC QS").name
'Full house, Kings full of Queens'
>>> rank_hand("AH 9H 8H 5H JK").text()    # the joker is a king, not a second ace
'AH RJ 9H 8H 5H'
>>> compare("AH 9H 8H 5H JK", "AS KS TS 4S 3S")
-1
>>> rank_hand("6S 5D 4H 2C JK", ACE_TO_FIVE).name   # the joker fits as an ace
'6-low'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, product

from big2.poker.cards import Hand, format_hand, is_joker, poker_rank, to_cards
from big2.poker.evaluate import evaluate
from big2.poker.names import hand_name
from big2.poker.rules import ACE_TO_FIVE, STANDARD, Rules
from big2.poker.tables import CLASSES, VALUE_OF, Category

__all__ = ["HandRank", "compare", "qualifies_eight_or_better", "rank_hand", "showdown"]

_ORDER = (
    Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
    Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH, Category.FIVE_OF_A_KIND,
)
_ORDER_FLUSH_HIGH = (
    *_ORDER[:5], Category.FULL_HOUSE, Category.FLUSH, *_ORDER[7:],
)
_NO_KICKERS = (
    Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE,
    Category.STRAIGHT_FLUSH, Category.FIVE_OF_A_KIND,
)
_BUG_FILLS = (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH)
_MISSING = -1


@dataclass(frozen=True, eq=False)
class HandRank:
    """A ranked hand.  Compare with ``<``/``==`` (or :func:`compare`); higher wins.

    ``ranks`` are the poker ranks that decide ties, most significant first
    (a straight gives only its top card); ``cards`` are the cards that play,
    combination first then kickers, and ``played_as`` the rank each plays as
    (which differs from its own for a wild card).
    """

    category: Category
    ranks: tuple[int, ...]
    cards: tuple[int, ...]
    played_as: tuple[int, ...]
    kickers: tuple[int, ...]
    wilds: int
    suit: int
    key: tuple[int, ...]
    rules: Rules = field(default=STANDARD, repr=False)
    qualifies: bool = True

    @property
    def name(self) -> str:
        """The hand as players say it: ``'Two pair, Aces up'``."""
        return hand_name(self)

    @property
    def value(self) -> int | None:
        """The :mod:`big2.poker.evaluate` value (1–7,462) of a standard five-card
        class, or ``None`` (five of a kind, incomplete or doubled-ace hands)."""
        return VALUE_OF.get((self.category, self.ranks))

    def text(self) -> str:
        """The cards that play, as ASCII text."""
        return format_hand(self.cards)

    def __str__(self) -> str:
        return f"{self.name} ({self.text()})"

    def __repr__(self) -> str:
        return f"<HandRank {self.name!r}: {self.text()}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandRank) and _compare(self, other) == 0

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: HandRank) -> bool:
        return _compare(self, other) < 0

    def __le__(self, other: HandRank) -> bool:
        return _compare(self, other) <= 0

    def __gt__(self, other: HandRank) -> bool:
        return _compare(self, other) > 0

    def __ge__(self, other: HandRank) -> bool:
        return _compare(self, other) >= 0


def _strength(rank: int, rules: Rules) -> int:
    return (rank + 1) % 13 if rules.ace_low else rank


def _rank_of_strength(strength: int, rules: Rules) -> int:
    return (strength - 1) % 13 if rules.ace_low else strength


def _score(
    ranks: Sequence[int], flush: bool, rules: Rules
) -> tuple[Category, tuple[int, ...], list[int]]:
    """Category, deciding strengths and card order of natural ranks (a plain ranker)."""
    n = len(ranks)
    st = [_strength(r, rules) for r in ranks]
    counts = Counter(st)
    top = -1
    if n == 5 and rules.straights_count and len(counts) == 5:
        lo, hi = min(st), max(st)
        if hi - lo == 4:
            top = hi
        elif rules.low is None and set(st) == {12, *range(rules.lowest, rules.lowest + 4)}:
            top = rules.lowest + 3
    flush = flush and n == 5 and rules.straights_count
    pattern = sorted(counts.values(), reverse=True) + [0]
    if pattern[0] == 5:
        cat = Category.FIVE_OF_A_KIND
    elif top >= 0 and flush:
        cat = Category.STRAIGHT_FLUSH
    elif pattern[0] == 4:
        cat = Category.FOUR_OF_A_KIND
    elif pattern[0] == 3 and pattern[1] == 2:
        cat = Category.FULL_HOUSE
    elif top >= 0:
        cat = Category.STRAIGHT
    elif pattern[0] == 3:
        cat = Category.THREE_OF_A_KIND
    elif pattern[0] == 2:
        cat = Category.TWO_PAIR if pattern[1] == 2 else Category.PAIR
    else:
        cat = Category.HIGH_CARD
    order_of = _ORDER_FLUSH_HIGH if rules.flush_beats_full_house else _ORDER
    if flush and order_of.index(Category.FLUSH) > order_of.index(cat):
        cat = Category.FLUSH
    idx = list(range(n))
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        idx.sort(key=lambda i: st[i] if st[i] <= top else -1, reverse=True)
        return cat, (top,), idx
    if cat in (Category.FLUSH, Category.HIGH_CARD):
        idx.sort(key=lambda i: st[i], reverse=True)
        return cat, tuple(st[i] for i in idx), idx
    idx.sort(key=lambda i: (counts[st[i]], st[i]), reverse=True)
    groups = sorted(counts, key=lambda s: (counts[s], s), reverse=True)
    return cat, tuple(groups), idx


@dataclass
class _Candidate:
    cards: Sequence[int]
    ranks: list[int]
    suits: list[int]
    flush: bool
    wild_at: list[bool]
    bug_ranks: tuple[int, ...] = ()


def _key(cat: Category, sig: tuple[int, ...], rules: Rules) -> tuple[int, ...]:
    order_of = _ORDER_FLUSH_HIGH if rules.flush_beats_full_house else _ORDER
    padded = list(sig) + [_MISSING] * (5 - len(sig))
    pos = order_of.index(cat)
    if rules.low:
        return (-pos, *[-s if s >= 0 else -99 for s in padded])
    return (pos, *padded)


def _build(c: _Candidate, rules: Rules) -> HandRank | None:
    cat, sig, idx = _score(c.ranks, c.flush, rules)
    if c.bug_ranks and cat not in _BUG_FILLS and any(r != 12 for r in c.bug_ranks):
        return None
    key = _key(cat, sig, rules)
    nwild = sum(c.wild_at)
    if rules.wild_tiebreak == "natural":
        key += (0 if nwild else 1,)
    elif rules.wild_tiebreak == "fewer":
        key += (-nwild,)
    elif rules.wild_tiebreak == "more":
        key += (nwild,)
    if rules.suit_tiebreak:
        key += (_tiebreak_suit(c, cat, idx, rules),)
    ordered = [c.ranks[i] for i in idx]
    cnt = Counter(c.ranks)
    if cat in _NO_KICKERS:
        kickers: tuple[int, ...] = ()
    elif cat == Category.HIGH_CARD:
        kickers = tuple(ordered[1:])
    else:
        kickers = tuple(r for r in ordered if cnt[r] == 1)
    return HandRank(
        category=cat,
        ranks=tuple(_rank_of_strength(s, rules) for s in sig),
        cards=tuple(c.cards[i] for i in idx),
        played_as=tuple(ordered),
        kickers=kickers,
        wilds=nwild,
        suit=c.suits[0] if c.flush and c.suits else -1,
        key=key,
        rules=rules,
    )


def _tiebreak_suit(c: _Candidate, cat: Category, idx: list[int], rules: Rules) -> int:
    def strength_of(i: int) -> tuple[int, int]:
        suit = 3 if c.wild_at[i] else rules.suit_strength(c.suits[i])
        return _strength(c.ranks[i], rules), suit

    cnt = Counter(c.ranks)
    pool = list(range(len(c.ranks)))
    if rules.suit_tiebreak == "paired":
        pool = [i for i in pool if cnt[c.ranks[i]] >= 2] or pool
    elif rules.suit_tiebreak == "unpaired":
        pool = [i for i in pool if cnt[c.ranks[i]] == 1] or pool
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return strength_of(idx[0])[1]
    return max(strength_of(i) for i in pool)[1]


def _candidates(cards: Sequence[int], wild: set[int], rules: Rules) -> Iterable[_Candidate]:
    naturals = [c for c in cards if c not in wild]
    wilds = [c for c in cards if c in wild]
    nat_ranks = [poker_rank(c) for c in naturals]
    nat_suits = [c & 3 for c in naturals]
    n = len(cards)
    ordered = naturals + wilds
    wild_at = [False] * len(naturals) + [True] * len(wilds)
    if not wilds:
        flush = n == 5 and len(set(nat_suits)) == 1
        yield _Candidate(ordered, nat_ranks, nat_suits, flush, wild_at)
        return
    deck_ranks = [r for r in range(13) if r >= rules.lowest or r == 12]
    top_suit = "DCHS".index(rules.suit_order.upper()[0])
    if rules.low:  # wild cards are fitters: ranks not already held
        free = [r for r in deck_ranks if r not in nat_ranks]
        for fit in combinations(free, len(wilds)):
            yield _Candidate(ordered, nat_ranks + list(fit),
                             nat_suits + [top_suit] * len(wilds), False, wild_at)
        return
    bugs = [c for c in wilds if is_joker(c)] if rules.bug else []
    full = [c for c in wilds if c not in bugs]
    ordered = naturals + full + bugs
    can_flush = n == 5 and len(set(nat_suits)) <= 1
    flush_suit = nat_suits[0] if nat_suits else top_suit
    for fr in combinations_with_replacement(deck_ranks, len(full)):
        for br in product(deck_ranks, repeat=len(bugs)):
            ranks = nat_ranks + list(fr) + list(br)
            yield _Candidate(ordered, ranks, nat_suits + [top_suit] * len(wilds),
                             False, wild_at, br)
            if can_flush and (rules.double_ace_flush or len(set(ranks)) == n):
                yield _Candidate(ordered, ranks, nat_suits + [flush_suit] * len(wilds),
                                 True, wild_at, br)


def _subsets(cards: tuple[int, ...], wild: set[int], rules: Rules) -> Iterable[tuple[int, ...]]:
    if len(cards) <= 5:
        yield cards
        return
    wilds = [c for c in cards if c in wild]
    if not rules.bug and not rules.wild_tiebreak and wilds:
        if len(wilds) >= 5:
            yield from combinations(wilds, 5)
            return
        naturals = [c for c in cards if c not in wild]
        for rest in combinations(naturals, 5 - len(wilds)):
            yield (*rest, *wilds)
        return
    yield from combinations(cards, 5)


def qualifies_eight_or_better(hand: Hand, rules: Rules = ACE_TO_FIVE) -> bool:
    """Whether five different ranks of 8 or lower (aces low) can be made.

    Wild cards (under *rules*) fill in as any missing low rank.

    >>> qualifies_eight_or_better("TC 8D 6H 6S 3C 2D AH")
    True
    >>> qualifies_eight_or_better("9C 7D 6H 4S 2D")
    False
    """
    cards = to_cards(hand)
    wild = set(rules.wild_cards(cards))
    low = {poker_rank(c) for c in cards if c not in wild and poker_rank(c) in (12, *range(7))}
    return len(low) + len(wild) >= 5


def rank_hand(hand: Hand, rules: Rules = STANDARD) -> HandRank:
    """Rank *hand* (1–9 cards; best five of more) under *rules*.

    >>> rank_hand("8S 8D KH").kickers > rank_hand("8H 8C 6S 2D").kickers
    True
    >>> rank_hand("AS KS QS JS TS 2D 2C")
    <HandRank 'Royal flush': AS KS QS JS TS>
    """
    cards = to_cards(hand)
    if 5 <= len(cards) <= 9 and (rules is STANDARD or rules == STANDARD):
        fast = _rank_plain(cards, rules)
        if fast is not None:
            return fast
    return _rank_general(cards, rules)


def _rank_general(cards: tuple[int, ...], rules: Rules) -> HandRank:
    """:func:`rank_hand` by trying every five-card subset and every wild card choice
    (the reference for :func:`_rank_plain`)."""
    if not cards:
        raise ValueError("a hand needs at least one card")
    wild = set(rules.wild_cards(cards))
    best: HandRank | None = None
    for subset in _subsets(cards, wild, rules):
        for cand in _candidates(subset, wild, rules):
            hr = _build(cand, rules)
            if hr is not None and (best is None or hr.key > best.key):
                best = hr
    if best is None:  # pragma: no cover - every hand has a candidate
        raise ValueError(f"cannot rank {format_hand(cards)}")
    if rules.eight_or_better:
        ok = qualifies_eight_or_better(cards, rules)
        best = HandRank(**{**best.__dict__, "key": (int(ok), *best.key), "qualifies": ok})
    return best


_RANK_OF = tuple(poker_rank(c) for c in range(52))
_NEEDS: dict[int, tuple[tuple[int, int], ...]] = {}
"""By value: (rank, cards of it) that play, for the classes that are not flushes."""
_PAIRED = {
    Category.PAIR: (2, 1, 1, 1), Category.TWO_PAIR: (2, 2, 1), Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.FULL_HOUSE: (3, 2), Category.FOUR_OF_A_KIND: (4, 1),
}


def _needs(value: int) -> tuple[tuple[int, int], ...]:
    cat, sig = CLASSES[value]
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = sig[0]
        ranks = (3, 2, 1, 0, 12) if top == 3 else tuple(range(top, top - 5, -1))
        return tuple((r, 1) for r in ranks)
    counts = _PAIRED.get(cat, (1, 1, 1, 1, 1))
    return tuple(zip(sig, counts))


def _rank_plain(cards: tuple[int, ...], rules: Rules) -> HandRank | None:
    """:func:`rank_hand` of 5–9 distinct plain cards under standard rules, or ``None``.

    The fast evaluator gives the class; the cards that play are then picked as the
    general path picks them (the first five, in the order given, that make the class),
    so the result equals the general path's field for field.
    """
    if len(set(cards)) != len(cards) or max(cards) >= 52:
        return None
    value = evaluate(cards)
    cat, sig = CLASSES[value]
    needs = _NEEDS.get(value)
    if needs is None:
        needs = _NEEDS[value] = _needs(value)
    suit = -1
    if cat in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        suits = [c & 3 for c in cards]
        suit = max(range(4), key=suits.count)
        pool = [c for c in cards if c & 3 == suit]
    else:
        pool = list(cards)
    want = dict(needs)
    chosen = []
    for c in pool:  # the first cards of each rank, in the order given
        r = _RANK_OF[c]
        if want.get(r, 0):
            want[r] -= 1
            chosen.append(c)
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = sig[0]
        chosen.sort(key=lambda c: _RANK_OF[c] if _RANK_OF[c] <= top else -1, reverse=True)
        kickers: tuple[int, ...] = ()
    elif cat in (Category.FLUSH, Category.HIGH_CARD):
        chosen.sort(key=_RANK_OF.__getitem__, reverse=True)
        kickers = tuple(_RANK_OF[c] for c in chosen[1:]) if cat == Category.HIGH_CARD else ()
    else:
        count = dict(needs)
        chosen.sort(key=lambda c: (count[_RANK_OF[c]], _RANK_OF[c]), reverse=True)
        kickers = () if cat == Category.FULL_HOUSE else tuple(
            r for r, n in needs if n == 1)
    played = tuple(_RANK_OF[c] for c in chosen)
    return HandRank(category=cat, ranks=sig, cards=tuple(chosen), played_as=played,
                    kickers=kickers, wilds=0, suit=suit,
                    key=(int(cat), *sig, *(_MISSING,) * (5 - len(sig))), rules=rules)


def _special(x: HandRank, y: HandRank) -> int | None:
    """The "no unbeatable hand" rules, which are not transitive."""
    rules = x.rules
    if rules.italian_straight_flush and x.category == y.category == Category.STRAIGHT_FLUSH:
        minimum = rules.lowest + 3
        if (x.ranks[0], y.ranks[0]) == (minimum, 12):
            return 1
        if (x.ranks[0], y.ranks[0]) == (12, minimum):
            return -1
    if rules.imperial_flush:
        xi, yi = _imperial(x), _imperial(y)
        if xi != yi:
            other = y if xi else x
            beaten = (other.category == Category.FOUR_OF_A_KIND
                      and other.ranks[0] == rules.lowest)
            return (1 if xi else -1) * (-1 if beaten else 1)
    return None


def _imperial(h: HandRank) -> bool:
    top_suit = "DCHS".index(h.rules.suit_order.upper()[0])
    return h.category == Category.STRAIGHT_FLUSH and h.ranks == (12,) and h.suit == top_suit


def _compare(x: HandRank, y: HandRank) -> int:
    special = _special(x, y)
    if special is not None:
        return special
    return (x.key > y.key) - (x.key < y.key)


def compare(a: Hand | HandRank, b: Hand | HandRank, rules: Rules = STANDARD) -> int:
    """1 if *a* beats *b*, -1 if *b* beats *a*, 0 for equal hands.

    >>> compare("8D 8C 6S 6H 3C", "8H 8S 5D 5C KD")
    1
    """
    x = a if isinstance(a, HandRank) else rank_hand(a, rules)
    y = b if isinstance(b, HandRank) else rank_hand(b, rules)
    return _compare(x, y)


def showdown(hands: Sequence[Hand | HandRank], rules: Rules = STANDARD) -> list[int]:
    """Indices of the hands that share the pot.

    Normally the best hand and any equal to it.  Under the "no unbeatable
    hand" rules beating is not transitive; then the winners are the smallest
    group whose every member beats or ties every hand outside it (so a
    minimum, medium and maximum straight flush split the pot).

    >>> showdown(["AS AD 3C 4C 5C", "KS KD 3D 4D 5D", "AH AC 3H 4H 5S"])
    [0, 2]
    """
    ranked = [h if isinstance(h, HandRank) else rank_hand(h, rules) for h in hands]
    n = len(ranked)
    wins = [sum(_compare(ranked[i], ranked[j]) >= 0 for j in range(n)) for i in range(n)]
    order = sorted(range(n), key=lambda i: -wins[i])
    for k in range(1, n + 1):
        inside, outside = order[:k], order[k:]
        if all(_compare(ranked[i], ranked[j]) > 0 for i in inside for j in outside):
            # add everything tied with the group's members
            return sorted(inside)
    return list(range(n))
