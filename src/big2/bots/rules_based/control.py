"""Plays nobody can beat, and going out on a run of them.

A seat that leads a play none of the unseen cards can beat keeps the lead: if
its hand splits into such plays and one last play, it goes out however the
others hold the unseen cards. :func:`unbeatable` decides one play from what a
view shows (the seat's cards, the cards played, the card counts);
:func:`way_out` finds the first play of such a run.

>>> from big2 import Rules
>>> from big2.cards import FULL_DECK, CardSet, parse_cards
>>> from big2.combos import engine
>>> eng = engine(Rules())
>>> hand = int(parse_cards("2S 2H 5D 5C"))
>>> unseen = FULL_DECK & ~hand   # nothing played yet
>>> str(CardSet(way_out(eng, hand, eng.leads(hand), unseen, 12)))  # then the 5s
'2♥ 2♠'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from big2.cards import BB_RANKS, BB_SUITS, Mask
from big2.rules import Rules
from big2.variant import Engine, Kind, variant
from big2.variant.kinds import Combo

_FEW = 20
"""With at most this many cards unseen the engine lists their plays to
decide a play it has no direct test for."""
_MAX_NODES = 300
"""Hands searched for a run, at most, per decision."""


def beaten_by_unseen(eng: Engine, combo_mask: Mask, unseen: Mask) -> bool:
    """Whether some play made of *unseen* cards could beat *combo_mask*.

    Exact for singles, pairs and triples; for larger plays it asks the engine
    when few cards are unseen and otherwise assumes yes (below a straight
    flush).
    """
    combo = eng.classify(combo_mask)
    if combo is None:
        return True
    size = combo.size
    if size == 1:
        return _top_single(eng, unseen) > _top_single(eng, combo_mask)
    if size in (2, 3):
        r0 = (combo_mask.bit_length() - 1) >> 2
        for r in range(12, r0 - 1, -1):
            nib = (unseen >> (4 * r)) & 15
            if nib.bit_count() < size:
                continue
            if r > r0:
                return True
            if size == 2 and eng.suited:
                top = max(eng.suit_rank[s] for s in range(4) if nib >> s & 1)
                mine = max(eng.suit_rank[s] for s in range(4) if (combo_mask >> (4 * r0)) >> s & 1)
                return top > mine
            return False
        return False
    if combo.kind == Kind.STRAIGHT_FLUSH and not (eng.compare.same_kind or eng.keys.top_card):
        return bool(eng.follows(unseen, combo)) if unseen.bit_count() <= 20 else True
    if unseen.bit_count() <= 16:
        return bool(eng.follows(unseen, combo))
    return True


def single_beaters(eng: Engine, combo_mask: Mask) -> Mask | None:
    """For a single, the cards any one of which beats it, so that
    ``beaten_by_unseen(eng, combo_mask, unseen) == bool(unseen & mask)``; ``None``
    for any other play (a test the sampler runs millions of times, made one AND).

    >>> from big2 import Rules
    >>> from big2.cards import CardSet, parse_cards
    >>> from big2.combos import engine
    >>> str(CardSet(single_beaters(engine(Rules()), int(parse_cards("2H")))))
    '2♠'
    """
    combo = eng.classify(combo_mask)
    if combo is None or combo.size != 1:
        return None
    top = _top_single(eng, combo_mask)
    return sum(1 << c for c in range(52) if _top_single(eng, 1 << c) > top)


def _top_single(eng: Engine, mask: Mask) -> int:
    """Strength of the strongest card of *mask* (-1 if empty); without suit
    ranking, only the rank counts."""
    if not mask:
        return -1
    r = (mask.bit_length() - 1) >> 2
    if not eng.suited:
        return r * 4
    nib = (mask >> (4 * r)) & 15
    return r * 4 + max(eng.suit_rank[s] for s in range(4) if nib >> s & 1)


def unbeatable(eng: Engine, combo: Combo, unseen: Mask, opp_max: int) -> bool:
    """Whether no play of the *unseen* cards can beat *combo*, when no other
    seat holds more than *opp_max* cards.

    Exact for singles, pairs, triples, two pairs and four of a kind alone (a
    bomb of the house rules counted where one can be made of the unseen
    cards); other plays are asked of the engine when at most twenty cards
    are unseen, and otherwise count as beatable. A seat with fewer cards
    than the play (than four, where bombs beat smaller plays) cannot beat it.
    """
    size = combo.size
    need = size if eng.plain else min(size, 4)
    if opp_max < need or not unseen:
        return True
    kind = combo.kind
    direct = kind in (Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.TWO_PAIRS, Kind.FOUR_OF_A_KIND)
    if direct and (eng.plain or not (eng.compare.play_equal or _bomb_material(eng, unseen))):
        if kind == Kind.TWO_PAIRS or kind == Kind.FOUR_OF_A_KIND:
            return not _four_beaten(eng, combo, unseen)
        return not beaten_by_unseen(eng, combo.cards, unseen)
    if unseen.bit_count() <= _FEW:
        return not eng.follows(unseen, combo)
    return False


def _bomb_material(eng: Engine, unseen: Mask) -> bool:
    """Whether the unseen cards could make a play that beats across sizes
    (four of a kind, a straight flush, a run of three pairs)."""
    nibs = [(unseen >> (4 * r)) & 15 for r in range(13)]
    if 15 in nibs or any((unseen & BB_SUITS[s]).bit_count() >= 5 for s in range(4)):
        return True
    if eng.compare.smack:
        return any(all(nibs[r + i].bit_count() >= 2 for i in range(3)) for r in range(10))
    return False


def _four_beaten(eng: Engine, combo: Combo, unseen: Mask) -> bool:
    """Two pairs or four of a kind alone against the unseen cards (plain comparison)."""
    nibs = [(unseen >> (4 * r)) & 15 for r in range(13)]
    fours = [r for r in range(13) if nibs[r] == 15]
    if combo.kind == Kind.FOUR_OF_A_KIND:
        mine = (combo.cards.bit_length() - 1) >> 2
        return any(r > mine for r in fours)
    if fours and eng.compare.four_alone:
        return True
    pair_ranks = [r for r in range(13) if nibs[r].bit_count() >= 2]
    if len(pair_ranks) < 2:
        return False
    keys = eng.keys
    best = max(keys.card_key(r, keys.top_pos[nibs[r]]) for r in pair_ranks[1:])
    return best > combo.power


class _Sure:
    """:func:`unbeatable` for many plays against one set of unseen cards: the
    strongest unseen single, pair and triple worked out once."""

    def __init__(self, eng: Engine, unseen: Mask, opp_max: int) -> None:
        self.eng, self.unseen, self.opp_max = eng, unseen, opp_max
        self.big = opp_max < (5 if eng.plain else 4) or unseen.bit_count() <= _FEW
        """Whether a play of five or more cards can be unbeatable here."""
        self.simple = eng.plain or not (eng.compare.play_equal or _bomb_material(eng, unseen))
        """Singles, pairs and triples are beaten only by their own kind."""
        self.best = [-1, _top_single(eng, unseen)]
        """Per size, the key of the strongest unseen play (pairs and triples on demand)."""
        self.memo: dict[Mask, bool] = {}

    def _groups(self) -> None:
        keys = self.eng.keys
        pair = triple = -1
        for r in range(13):
            nib = (self.unseen >> (4 * r)) & 15
            n = nib.bit_count()
            if n >= 2:
                pair = max(pair, keys.card_key(r, keys.top_pos[nib]))
                if n >= 3:
                    triple = r
        self.best += [pair, triple]

    def __call__(self, m: Mask) -> bool:
        got = self.memo.get(m)
        if got is None:
            eng = self.eng
            n = m.bit_count()
            r = (m.bit_length() - 1) >> 2
            if self.opp_max < (n if eng.plain else min(n, 4)):
                got = True
            elif n <= 3 and self.simple and not m & ~BB_RANKS[r]:
                if n == 3:
                    key = r
                else:
                    key = eng.keys.card_key(r, eng.keys.top_pos[(m >> (4 * r)) & 15])
                    if n == 1 and not eng.suited:
                        key = r * 4  # as _top_single counts an unsuited card
                if n > 1 and len(self.best) == 2:
                    self._groups()
                got = key >= self.best[n]
            else:
                combo = eng.classify(m)
                got = combo is not None and unbeatable(eng, combo, self.unseen, self.opp_max)
            self.memo[m] = got
        return got


def way_out(eng: Engine, hand: Mask, plays: Sequence[Mask], unseen: Mask,
            opp_max: int) -> Mask:
    """The first play of a way out, or ``0`` when none is found.

    A way out is a run of plays nobody can beat (:func:`unbeatable`), each
    keeping the lead, then one last play that empties the hand (one the
    finish restrictions allow). The first play is one of *plays* (the legal
    plays now: leads, or the plays that beat the table); the whole hand as
    one play is left to the caller.
    """
    sure_play = _Sure(eng, unseen, opp_max)
    if len(plays) <= 16 and not any(sure_play(p) for p in plays if p != hand):
        return 0  # following (or a short list): no first play
    hp = eng.hand_plays(hand)
    pool = hp.leads() if sure_play.big else [m for k in (1, 2, 3, 4) for m in hp.sized(k)]
    sure = [m for m in pool if sure_play(m)]
    if not sure:
        return 0
    covered = 0
    for m in sure:
        covered |= m
    free = hand & ~covered  # these can only go in the last play
    longest = variant(eng.rules).longest_play
    if free and (free.bit_count() > longest or not any(m & free == free for m in hp.leads())):
        return 0
    sure.sort(key=lambda m: -m.bit_count())
    legal = set(plays)
    barred = _barred(eng.rules)
    memo: dict[Mask, bool] = {}
    budget = [_MAX_NODES]

    def finishes(rest: Mask) -> bool:
        """Whether *rest*, on a free lead, plays out: one last play or a sure play first."""
        got = memo.get(rest)
        if got is not None:
            return got
        budget[0] -= 1
        combo = eng.classify(rest)
        ok = (combo is not None and eng.leadable(combo)
              and not (barred is not None and barred(rest)))
        if not ok and budget[0] > 0:
            ok = any(not u & ~rest and u != rest and finishes(rest & ~u) for u in sure)
        memo[rest] = ok
        return ok

    for first in sure:
        if first in legal and first != hand and finishes(hand & ~first):
            return first
        if budget[0] <= 0:
            break
    return 0


@lru_cache(maxsize=64)
def _barred(rules: Rules) -> Callable[[Mask], bool] | None:
    """The finish-restriction test of the rules, or ``None``."""
    from big2.house.restrictions import FinishRestrictions
    from big2.variant import variant

    rule = variant(rules).house_rule(FinishRestrictions)
    return rule.barred if rule is not None else None
