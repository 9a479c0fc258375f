"""A brute-force reference for plays with jokers and two decks, for tests only.

Every joker in a set of cards is replaced by every natural card in turn (any
of the 52, copies allowed), and each resulting multiset is classified by the
plain reference (:func:`reference.ref_classify`): the set's readings are all
the classifications it can take. A joker played alone is itself (wild: above
2♠, black over red; valueless: beats and is beaten by any single). Nothing
here comes from big2.variant.generic.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

from reference import (
    five_kind_order,
    ref_beats_any,
    ref_classify,
    ref_leadable,
    ref_restricted,
    ref_sizes,
)

from big2.rules import Rules

Cls = tuple[str, tuple[int, ...], int]
Reading = tuple[Cls, tuple[int, ...]]
"""A classification and the cards as the jokers stand in it."""


def _base(card: int) -> int:
    return card % 54


@cache
def _readings(nat: tuple[int, ...], jokers: int, rules: Rules) -> tuple[Reading, ...]:
    out: dict[Cls, tuple[int, ...]] = {}
    for subs in combinations_with_replacement(range(52), jokers):
        cards = tuple(sorted(nat + subs))
        c = ref_classify(cards, rules)
        if c is not None and c not in out:
            out[c] = cards
    return tuple(out.items())


def ref_readings(cards: tuple[int, ...], rules: Rules) -> tuple[Reading, ...]:
    """Every reading of *cards* (card numbers 0–107)."""
    bases = sorted(_base(c) for c in cards)
    nat = tuple(b for b in bases if b < 52)
    jokers = len(bases) - len(nat)
    if len(bases) == 1 and jokers:
        color = bases[0] - 52
        if rules.jokers == "valueless":
            return ((("valueless", (), -1), (bases[0],)),)
        key = (13, color) if rules.suit_ranking else (13 + color,)
        return ((("single", key, 13 * 4 + color), (bases[0],)),)
    if jokers and rules.jokers != "wild":
        return ()
    return _readings(nat, jokers, rules)


def ref_strength(c: Cls, size: int, rules: Rules) -> tuple:
    """Orders the readings of one set of cards, strongest last."""
    lead = ref_leadable(c, rules)
    if size == 5:
        idx = five_kind_order(rules).index(c[0])
        return (lead, c[2], idx) if rules.five_card_compare == "top-card" else (lead, idx, c[1])
    if size == 4:
        return (lead, c[0] == "four", c[1])
    return (lead, 0, c[1])


def ref_beats_reading(a: Reading, b: Reading, rules: Rules) -> bool:
    if a[0][0] == "valueless" or b[0][0] == "valueless":
        return len(a[1]) == 1 == len(b[1])
    return ref_beats_any(a[1], b[1], rules, a[0], b[0])


def ref_played(cards: tuple[int, ...], last: Reading | None, rules: Rules) -> Reading | None:
    """The strongest reading of *cards* that may lead (or beat *last*)."""
    ok = [r for r in ref_readings(cards, rules)
          if (ref_leadable(r[0], rules) if last is None else ref_beats_reading(r, last, rules))]
    return max(ok, key=lambda r: ref_strength(r[0], len(cards), rules), default=None)


def canonical(sub: tuple[int, ...], hand: list[int]) -> int:
    """*sub* as the lowest-numbered copies of its cards that *hand* holds."""
    counts: dict[int, int] = {}
    for c in sub:
        counts[_base(c)] = counts.get(_base(c), 0) + 1
    mask = 0
    ordered = sorted(hand)
    for b, k in counts.items():
        for c in [c for c in ordered if _base(c) == b][:k]:
            mask |= 1 << c
    return mask


def ref_legal_wild(hand: list[int], rules: Rules, trick: list[tuple[int, ...]],
                   must: int | None, waive: bool = False) -> set[int]:
    """Every legal play (0 = pass) by brute force: *trick* holds the plays of
    the current trick so far (each read as it was played)."""
    last: Reading | None = None
    for play in trick:
        last = ref_played(play, last, rules)
        assert last is not None, play
    bombs = rules.bomb_on_small or rules.four_beats_all or rules.smack_down != "off"
    sizes = ref_sizes(rules) if last is None or bombs else [len(last[1])]
    masks = {canonical(sub, hand) for k in sizes for sub in combinations(sorted(hand), k)}
    out: set[int] = set()
    for mask in masks:
        sub = tuple(c for c in range(108) if mask >> c & 1)
        if must is not None and (must not in sub or (rules.opening == "alone" and len(sub) != 1)):
            continue
        if ref_played(sub, last, rules) is None:
            continue
        if len(sub) == len(hand) and not waive and ref_restricted(
                tuple(_base(c) for c in sub), rules):
            continue
        out.add(mask)
    if last is not None or not out:
        out.add(0)
    return out
