"""Poker's view of the shared cards: poker rank order, jokers, parsing.

The cards are :mod:`big2.cards` ints (``rank * 4 + suit`` in Big Two rank
order); poker ranks them ``2`` (0) low to ``A`` (12) high.  Jokers are
numbered as the Big Two engine numbers them: 52 and 53, then 106 and 107 (the
second deck's), 160 and 161, and so on (:func:`is_joker`).  The engine's
second-deck copies of the cards (54–105) are refused, not read as jokers:
poker's several-deck hands repeat the card number instead (see
:func:`parse_hand`).

>>> parse_hand("AS KS JK")
(47, 43, 52)
>>> poker_rank(47), RANK_CHARS[poker_rank(47)], suit_of(47)
(12, 'A', 3)
>>> format_hand((47, 43, 52))
'AS KS RJ'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

from big2.cards import CARD_NAMES, InvalidCardError, cards_of, parse_card

__all__ = [
    "BLACK_JOKER",
    "JOKER",
    "RANK_CHARS",
    "RANK_NAMES",
    "RANK_PLURALS",
    "RED_JOKER",
    "Hand",
    "InvalidCardError",
    "card_text",
    "format_hand",
    "is_joker",
    "make_card",
    "next_joker",
    "parse_hand",
    "poker_rank",
    "suit_of",
    "to_cards",
]

Hand: TypeAlias = "str | int | Iterable[int]"
"""What the ranking functions accept: card text, a :class:`~big2.cards.CardSet`
mask, or card numbers (jokers included)."""

JOKER = 52
"""The first joker's number (the next are 53, 106, 107, 160, …: see :func:`is_joker`)."""
_DECK = 54  # card numbers per deck copy in the Big Two engine: 52 cards and two jokers
RED_JOKER = 52
BLACK_JOKER = 53

RANK_CHARS = "23456789TJQKA"
"""Poker rank characters, lowest first (poker rank 0 is the deuce)."""
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)
"""Rank names by poker rank, as in "Ace-high"."""
RANK_PLURALS = tuple("Sixes" if n == "Six" else n + "s" for n in RANK_NAMES)
"""Plural rank names by poker rank, as in "Kings full of Queens"."""

_JOKER_TOKENS = {"JK", "JOKER", "JKR", "X", "*"}


def poker_rank(card: int) -> int:
    """Poker rank of a (non-joker) card: 0 for a deuce … 12 for an ace."""
    r = (card >> 2) + 1
    return 0 if r == 13 else r


def suit_of(card: int) -> int:
    """Suit number of a card (0 ♦, 1 ♣, 2 ♥, 3 ♠)."""
    return card & 3


def is_joker(card: int) -> bool:
    """Whether *card* is a joker: 52 or 53 in any deck copy (52, 53, 106, 107, 160 …).

    >>> [is_joker(c) for c in (51, 52, 53, 54, 106, 107)]
    [False, True, True, False, True, True]
    """
    return card % _DECK >= JOKER


def next_joker(taken: set[int]) -> int:
    """The lowest joker number not in *taken*.

    >>> next_joker({52, 53})
    106
    """
    card = JOKER
    while card in taken:
        card += 1 if card % _DECK == JOKER else _DECK - 1
    return card


def make_card(rank: int, suit: int) -> int:
    """The card of poker *rank* (0 = deuce … 12 = ace) and *suit*."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise InvalidCardError(f"no card with poker rank {rank} and suit {suit}")
    return ((rank - 1) % 13) * 4 + suit


def card_text(card: int) -> str:
    """ASCII name of a card (``'KH'``) or joker (``'RJ'``, ``'BJ'``, then ``'JK'``)."""
    if card < JOKER:
        return CARD_NAMES[card]
    return {RED_JOKER: "RJ", BLACK_JOKER: "BJ"}.get(card, "JK")


def parse_hand(text: str, *, allow_duplicates: bool = False) -> tuple[int, ...]:
    """Parse card text, jokers included (``JK``, ``Joker``, ``RJ``, ``BJ``).

    Each plain joker token takes the next free joker number; a card given
    twice is an error unless *allow_duplicates* (several decks).

    >>> parse_hand("10h jk joker")
    (30, 52, 53)
    >>> parse_hand("KH KH")
    Traceback (most recent call last):
    ...
    big2.cards.InvalidCardError: card given twice: 'KH'
    """
    out: list[int] = []
    seen: set[int] = set()
    for token in text.replace(",", " ").split():
        upper = token.upper()
        if upper in _JOKER_TOKENS:
            card = next_joker(seen)
        elif upper in ("RJ", "BJ"):
            card = RED_JOKER if upper == "RJ" else BLACK_JOKER
        else:
            card = parse_card(token)
        if card in seen and not allow_duplicates:
            raise InvalidCardError(f"card given twice: {token!r}")
        seen.add(card)
        out.append(card)
    return tuple(out)


def to_cards(hand: Hand) -> tuple[int, ...]:
    """Card numbers of *hand*: text is parsed, an int is a mask, else iterated.

    >>> from big2.cards import CardSet
    >>> to_cards("KH KS"), to_cards(CardSet.parse("KH KS")), to_cards([43, 42])
    ((42, 43), (42, 43), (43, 42))
    >>> to_cards([47, 47 + 54])
    Traceback (most recent call last):
    ...
    big2.cards.InvalidCardError: card number 101 is the Big Two engine's copy of AS from another deck; poker takes card numbers 0-51 (map a copy with big2.cards.base_of, and repeat a number for several decks)
    """
    if isinstance(hand, str):
        return parse_hand(hand)
    cards = tuple(cards_of(hand)) if isinstance(hand, int) else tuple(hand)
    for c in cards:
        if not isinstance(c, int) or c < 0:
            raise InvalidCardError("not a card number (cards are 0-51, jokers 52 and 53)")
        if c >= _DECK and not is_joker(c):
            raise InvalidCardError(
                f"card number {c} is the Big Two engine's copy of {CARD_NAMES[c % _DECK]} "
                "from another deck; poker takes card numbers 0-51 (map a copy with "
                "big2.cards.base_of, and repeat a number for several decks)")
    return cards


def format_hand(cards: Sequence[int]) -> str:
    """Cards as ASCII text in the order given (jokers ``RJ``, ``BJ``)."""
    return " ".join(card_text(c) for c in cards)
