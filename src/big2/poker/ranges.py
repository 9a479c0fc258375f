"""Hold'em starting-hand ranges in the usual notation: ``"QQ+, AKs, T9s-65s, A5s+"``.

Items are separated by commas (or spaces):

* a pair ``"77"``, suited ``"AKs"``, offsuit ``"AKo"``, or both ``"AK"``
  (6, 4, 12 and 16 combinations);
* ``"QQ+"`` (queens or better), ``"A5s+"`` (A5s up to AKs: the second card
  rises below the first), ``"KTo+"``;
* a span: ``"22-55"``, ``"A2s-A5s"`` (second card varies), ``"T9s-65s"``
  (both step down together: T9s, 98s, 87s, 76s, 65s);
* one exact combination, ``"AhKh"``;
* ``"random"`` (or ``"*"``): all 1,326 two-card hands.

A combination is a pair of card numbers, higher card first.

>>> len(parse_range("QQ+, AKs")), len(parse_range("T9s-65s")), len(parse_range("22+"))
(22, 20, 78)
>>> from big2.poker.cards import format_hand
>>> format_hand(parse_range("AhKh")[0])
'AH KH'
"""

from __future__ import annotations

import re
from itertools import combinations

from big2.cards import InvalidCardError, parse_card
from big2.poker.cards import RANK_CHARS, make_card, poker_rank

__all__ = ["Combo", "RangeError", "is_range", "parse_range"]

Combo = tuple[int, int]
"""Two card numbers, the higher-ranked (then higher-numbered) first."""


class RangeError(ValueError):
    """A range item that cannot be read (the message names the item's position)."""


_ITEM = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([SO]?)(\+?)$")
_SPAN = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([SO]?)-([2-9TJQKA])([2-9TJQKA])([SO]?)$")
_EXACT = re.compile(r"^([2-9TJQKA][SHDC])([2-9TJQKA][SHDC])$")


def _combo(a: int, b: int) -> Combo:
    return (a, b) if (poker_rank(a), a) > (poker_rank(b), b) else (b, a)


def _shape(hi: int, lo: int, kind: str) -> list[Combo]:
    """Combinations of ranks *hi*, *lo* (poker ranks) of kind ``"s"``, ``"o"`` or ``""``."""
    if hi == lo:
        return [_combo(make_card(hi, s), make_card(hi, t)) for s, t in combinations(range(4), 2)]
    out = []
    for s in range(4):
        for t in range(4):
            if (kind == "s" and s != t) or (kind == "o" and s == t):
                continue
            out.append(_combo(make_card(hi, s), make_card(lo, t)))
    return out


def _ranks(a: str, b: str) -> tuple[int, int]:
    x, y = RANK_CHARS.index(a), RANK_CHARS.index(b)
    return max(x, y), min(x, y)


def _item(text: str, where: str) -> list[Combo]:
    up = text.upper().replace("10", "T")
    if up in ("RANDOM", "*", "ANY"):
        return [_combo(a, b) for a, b in combinations(range(52), 2)]
    m = _EXACT.match(up)
    if m:
        a, b = parse_card(m.group(1)), parse_card(m.group(2))
        if a == b:
            raise RangeError(f"{where}: the same card twice")
        return [_combo(a, b)]
    m = _ITEM.match(up)
    if m:
        hi, lo = _ranks(m.group(1), m.group(2))
        kind, plus = m.group(3).lower(), m.group(4)
        if hi == lo and kind:
            raise RangeError(f"{where}: a pair cannot be suited or offsuit")
        if not plus:
            return _shape(hi, lo, kind)
        if hi == lo:
            return [c for r in range(hi, 13) for c in _shape(r, r, "")]
        return [c for r in range(lo, hi) for c in _shape(hi, r, kind)]
    m = _SPAN.match(up)
    if m:
        h1, l1 = _ranks(m.group(1), m.group(2))
        h2, l2 = _ranks(m.group(4), m.group(5))
        kind = m.group(3).lower()
        if kind != m.group(6).lower():
            raise RangeError(f"{where}: both ends of a span need the same suitedness")
        if h1 == l1 and h2 == l2:
            lo_r, hi_r = sorted((h1, h2))
            return [c for r in range(lo_r, hi_r + 1) for c in _shape(r, r, "")]
        if h1 == l1 or h2 == l2:
            raise RangeError(f"{where}: a span joins two pairs or two non-pairs")
        if h1 == h2:
            a, b = sorted((l1, l2))
            return [c for r in range(a, b + 1) for c in _shape(h1, r, kind)]
        if h1 - l1 == h2 - l2:
            a, b = sorted((h1, h2))
            gap = h1 - l1
            return [c for r in range(a, b + 1) for c in _shape(r, r - gap, kind)]
        raise RangeError(f"{where}: a span keeps the first card or the gap the same")
    raise RangeError(f"{where}: not a hand range (e.g. QQ+, AKs, T9s-65s, AhKh)")


def parse_range(text: str) -> list[Combo]:
    """The distinct two-card combinations of a range, in the order written.

    Errors name the item's position, not its text.

    >>> from big2.poker.cards import format_hand
    >>> [format_hand(c) for c in parse_range("AA")][:3]
    ['AC AD', 'AH AD', 'AS AD']
    >>> parse_range("QQ+, AKx")
    Traceback (most recent call last):
    ...
    big2.poker.ranges.RangeError: range item 2: not a hand range (e.g. QQ+, AKs, T9s-65s, AhKh)
    """
    items = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not items:
        raise RangeError("an empty range")
    seen: dict[Combo, None] = {}
    for i, item in enumerate(items, 1):
        try:
            combos = _item(item, f"range item {i}")
        except InvalidCardError:
            raise RangeError(f"range item {i}: not a card pair") from None
        seen.update(dict.fromkeys(combos))
    return list(seen)


def is_range(text: str) -> bool:
    """Whether *text* is range notation rather than cards (``"AS AH"`` is cards).

    >>> is_range("AS AH"), is_range("AKs"), is_range("QQ+, AKs"), is_range("AhKh")
    (False, True, True, True)
    """
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    try:
        for t in tokens:
            parse_card(t)
    except InvalidCardError:
        return True
    return False
