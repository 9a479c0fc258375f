"""A plain reference implementation of combinations and legal plays, for tests only.

Written straight from RULES.md, independently of big2.combos: every subset of
a hand up to five cards is classified and compared with slow, obvious code.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

from big2.rules import Rules

RANK_CHARS = "3456789TJQKA2"

# RULES.md §1-§2, written out literally: sequence (low to high), deciding card.
STRAIGHTS = {
    "hk": ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
           "23456:2", "A2345:2"],
    "malaysia": ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
                 "A2345:2", "23456:2"],
    "indonesia": ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
                  "JQKA2:2"],
    "pagat": ["A2345:5", "23456:6", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ",
              "9TJQK", "TJQKA"],
    "ace-low": ["23456:6", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK",
                "TJQKA", "A2345:A"],
    "ace-top": ["23456:6", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK",
                "A2345:A", "TJQKA:A"],
    "vietnam": ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"],
}


@cache  # the same few lists for every subset classified
def _sequences(order: str) -> list[tuple[frozenset[int], int]]:
    out = []
    for item in STRAIGHTS[order]:
        seq, _, decide = item.partition(":")
        decide = decide or seq[-1]
        out.append((frozenset(RANK_CHARS.index(ch) for ch in seq), RANK_CHARS.index(decide)))
    return out


@cache
def suit_positions(order: str) -> tuple[int, ...]:
    """Each suit's place in *order* (a rule set's ``suit_order``), by suit number."""
    return tuple(order.index(s) for s in "DCHS")


def suit_pos(rules: Rules, card: int) -> int:
    return suit_positions(rules.suit_order)[card % 4]


def ref_classify(cards: tuple[int, ...], rules: Rules) -> tuple[str, tuple[int, ...], int] | None:
    """(kind, key within kind, top-card strength) or None."""
    extra = _house_classify(cards, rules)
    if extra is not None:
        return extra
    n = len(cards)
    ranks = [c // 4 for c in cards]
    counts = Counter(ranks)
    suited = rules.suit_ranking
    sp = suit_positions(rules.suit_order)
    top = max((c // 4, sp[c % 4]) for c in cards)
    top_value = top[0] * 4 + top[1] if suited else top[0]

    def top_suit_of_rank(r: int) -> int:
        return max(sp[c % 4] for c in cards if c // 4 == r)
    if n == 1:
        c = cards[0]
        return ("single", (c // 4, suit_pos(rules, c)) if suited else (c // 4,), top_value)
    if n == 2:
        if len(counts) != 1:
            return None
        r = ranks[0]
        return ("pair", (r, top_suit_of_rank(r)) if suited else (r,), top_value)
    if n == 3:
        if len(counts) != 1 or not rules.triples:
            return None
        return ("triple", (ranks[0],), top_value)
    if n == 4:
        if len(counts) == 1 and rules.four_of_a_kind_alone:
            return ("four", (ranks[0],), top_value)
        if sorted(counts.values()) == [2, 2] and rules.two_pairs:
            hi = max(counts)
            return ("two pairs", (hi, top_suit_of_rank(hi)) if suited else (hi,), top_value)
        return None
    if n != 5:
        return None
    shape = sorted(counts.values(), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    if shape == [1, 1, 1, 1, 1]:
        for index, (seq, decide) in enumerate(_sequences(rules.straight_order)):
            if set(ranks) == seq:
                d = next(c for c in cards if c // 4 == decide)
                key = (index, suit_pos(rules, d)) if suited else (index,)
                return ("straight flush" if flush else "straight", key, top_value)
        if flush:
            if rules.flush_order == "top-card":  # the highest card alone: rank, then suit
                return ("flush", top if suited else top[:1], top_value)
            desc = tuple(sorted(ranks, reverse=True))
            if not suited:
                return ("flush", desc, top_value)
            s = suit_pos(rules, cards[0])
            key = (s, *desc) if rules.flush_order == "suit" else (*desc, s)
            return ("flush", key, top_value)
        return None
    if shape == [5] and rules.five_of_a_kind != "off":
        return ("five of a kind", (ranks[0],), top_value)
    if shape == [4, 1]:
        if not rules.four_kicker:
            return None
        return ("four kicker", (next(r for r, k in counts.items() if k == 4),), top_value)
    if shape == [3, 2]:
        return ("full house", (next(r for r, k in counts.items() if k == 3),), top_value)
    if shape == [3, 1, 1] and rules.five_trips:
        return ("five trips", (next(r for r, k in counts.items() if k == 3),), top_value)
    if shape == [2, 2, 1] and rules.five_two_pairs != "no":
        pr = sorted(r for r, k in counts.items() if k == 2)
        if rules.five_two_pairs == "sisters" and pr[1] - pr[0] != 1:
            return None
        hi = pr[1]
        return ("five two pairs", (hi, top_suit_of_rank(hi)) if suited else (hi,), top_value)
    return None


def _house_classify(cards: tuple[int, ...], rules: Rules) -> tuple[str, tuple[int, ...], int] | None:
    """RULES.md §2 plays: straights of 3, 4 or 6-12 cards (ranks 3..A, the top
    card decides), the dragon 3..2, four alone and runs of three or more pairs
    as smack-downs. ``None`` when *cards* is none of those."""
    n = len(cards)
    short = rules.straight_min <= n <= 4 or 6 <= n <= rules.straight_max
    if not (short or (n == 13 and rules.dragon) or rules.smack_down != "off"):
        return None  # none of the plays below can be made
    ranks = sorted(c // 4 for c in cards)
    counts = Counter(ranks)
    suited = rules.suit_ranking
    top = max(ranks)
    top_suit = max(suit_pos(rules, c) for c in cards if c // 4 == top)
    key = (top, top_suit) if suited else (top,)
    all_different = len(counts) == n
    if n == 13 and all_different and rules.dragon:
        return ("dragon", (top_suit,) if suited else (), 0)
    if short and all_different and ranks == list(range(ranks[0], ranks[0] + n)) and top <= 11:
        return (f"straight of {n}", key, 0)
    if rules.smack_down != "off":
        if n == 4 and len(counts) == 1 and not rules.four_of_a_kind_alone:
            return ("four", (ranks[0],), 0)
        pair_ranks = sorted(counts)
        if (n >= 6 and all(k == 2 for k in counts.values()) and top <= 11
                and pair_ranks == list(range(pair_ranks[0], pair_ranks[0] + len(pair_ranks)))):
            return (f"run of {n // 2} pairs", key, 0)
    return None


def ref_leadable(c: tuple[str, tuple[int, ...], int], rules: Rules) -> bool:
    """Runs of pairs, and four alone where it is no play of its own, only smack."""
    return not (c[0].startswith("run of") or (c[0] == "four" and not rules.four_of_a_kind_alone))


def ref_beats_any(a_cards: tuple[int, ...], b_cards: tuple[int, ...], rules: Rules,
                  a: tuple[str, tuple[int, ...], int] | None = None,
                  b: tuple[str, tuple[int, ...], int] | None = None) -> bool:
    """Whether play *a_cards* may go on *b_cards*, house rules included (*a*, *b*:
    their classifications, when a joker made them; cards are then as the jokers stand)."""
    a = a or ref_classify(a_cards, rules)
    b = b or ref_classify(b_cards, rules)
    assert a is not None and b is not None
    na, nb = len(a_cards), len(b_cards)
    if b[0] == "dragon":
        return a[0] == "dragon" and a[1] > b[1]
    if rules.smack_down != "off" and (a[0] == "four" or a[0].startswith("run of")):
        single_two = nb == 1 and b_cards[0] // 4 == 12
        if single_two and (rules.smack_down == "any-2" or b_cards[0] == 51):
            return True
        if a[0] == b[0] and na == nb:
            return a[1] > b[1]

    def is_four(x: tuple[str, tuple[int, ...], int]) -> bool:
        return (x[0] in ("four kicker", "five of a kind")
                or (x[0] == "four" and rules.four_of_a_kind_alone))

    def quad(cards: tuple[int, ...]) -> tuple[bool, int]:
        rank, count = Counter(c // 4 for c in cards).most_common(1)[0]
        return count == 5, rank  # a five of a kind above every four

    if rules.four_beats_all:
        if is_four(a) and is_four(b):
            return quad(a_cards) > quad(b_cards)
        if is_four(a) or is_four(b):
            return is_four(a)
    if rules.bomb_on_small and nb <= 2 and (is_four(a) or a[0] == "straight flush"):
        return True
    if na != nb or not ref_leadable(a, rules) or not ref_leadable(b, rules):
        return False
    if a[0].startswith("straight of") or b[0].startswith("straight of"):
        return a[0] == b[0] and (a[1] > b[1] or (a[1] == b[1] and rules.play_equal))
    return ref_beats(a, b, na, rules)


def ref_sizes(rules: Rules) -> list[int]:
    """Every play size the rules allow."""
    sizes = set(range(1, 6)) | set(range(6, rules.straight_max + 1))
    if rules.dragon:
        sizes.add(13)
    if rules.smack_down != "off":
        sizes |= {6, 8, 10, 12}
    return sorted(sizes)


def five_kind_order(rules: Rules) -> list[str]:
    order = ["five two pairs", "five trips", "straight", "flush", "full house", "four kicker",
             "straight flush"]
    if rules.straight_beats_flush:
        order[2], order[3] = order[3], order[2]
    if rules.five_of_a_kind == "below-straight-flush":
        order.insert(order.index("straight flush"), "five of a kind")
    elif rules.five_of_a_kind == "above-straight-flush":
        order.append("five of a kind")
    return order


def ref_beats(a: tuple[str, tuple[int, ...], int], b: tuple[str, tuple[int, ...], int],
              size: int, rules: Rules) -> bool:
    equal_ok = rules.play_equal  # a play equal to the last may follow it
    if size == 5:
        if rules.five_card_compare == "top-card":
            return a[2] > b[2] or (a[2] == b[2] and equal_ok)
        if a[0] != b[0]:
            if rules.five_card_compare == "same-kind":
                return False
            order = five_kind_order(rules)
            return order.index(a[0]) > order.index(b[0])
        return a[1] > b[1] or (a[1] == b[1] and equal_ok)
    if size == 4 and a[0] != b[0]:
        return a[0] == "four"
    return a[1] > b[1] or (a[1] == b[1] and equal_ok)


def ref_restricted(play: tuple[int, ...], rules: Rules) -> bool:
    res = rules.finish_restrictions
    twos = [c for c in play if c // 4 == 12]
    return (("any-2" in res and bool(twos)) or ("single-2" in res and len(play) == 1 and bool(twos))
            or ("pair-2" in res and len(play) == 2 and len(twos) == 2)
            or ("2S" in res and 51 in play))


def ref_legal(hand: list[int], rules: Rules, last: tuple[int, ...] | None, must: int | None,
              waive: bool = False, led: bool = False) -> set[int]:
    """Every legal play as a mask (0 = pass) by brute force over subsets.

    *must*: the card the deal's first play must contain (under
    ``opening="alone"``: must be, as a single).
    *led*: *last* is the play that opened the current trick.
    """
    out: set[int] = set()
    bombs = rules.bomb_on_small or rules.four_beats_all or rules.smack_down != "off"
    sizes = ref_sizes(rules) if last is None or bombs else [len(last)]
    for k in sizes:
        for sub in combinations(sorted(hand), k):
            c = ref_classify(sub, rules)
            if c is None:
                continue
            if must is not None and (must not in sub or (rules.opening == "alone" and k != 1)):
                continue  # the first play holds the lowest card (or is it alone)
            if last is None and not ref_leadable(c, rules):
                continue
            if last is not None and not ref_beats_any(sub, last, rules):
                continue
            if len(sub) == len(hand) and not waive and ref_restricted(sub, rules):
                continue
            out.add(sum(1 << x for x in sub))
    forced = (rules.three_threes and led and last is not None and len(last) == 3
              and all(c // 4 == 0 for c in last) and len(out) > 0
              and all(all(c // 4 == 12 for c in range(52) if p >> c & 1) for p in out))
    if (last is not None and not forced) or not out:
        out.add(0)
    return out
