"""Cards and card sets as plain ints.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``. Ranks are numbered in
Big Two order, ``3`` (0) up to ``2`` (12); suits are numbered by identity,
diamonds (0), clubs (1), hearts (2), spades (3). A set of cards is an ``int``
bit mask with bit ``card`` set for each card it holds, so set operations are
``|``, ``&`` and ``~``, and the four cards of one rank sit in one nibble.

Which suit is stronger is a rule (see :mod:`big2.rules`), not a property of
the card; under the default suit order a card's strength is its number.

>>> parse_card("10h")
30
>>> card_name(30), card_symbol(30)
('TH', '10♥')
>>> hand = parse_cards("3D 3S 10H")
>>> hand
CardSet.parse('3D 3S TH')
>>> str(hand), len(hand), list(hand)
('3♦ 3♠ 10♥', 3, [0, 3, 30])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeAlias

Card: TypeAlias = int
"""A card, ``rank * 4 + suit`` (0–51)."""
Mask: TypeAlias = int
"""A set of cards, one bit per card."""

RANKS = "3456789TJQKA2"
"""Rank characters in Big Two order, lowest first."""
SUITS = "DCHS"
"""Suit characters by suit number: diamonds, clubs, hearts, spades."""
SUIT_SYMBOLS = "♦♣♥♠"
"""Suit symbols by suit number."""
RANK_LABELS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
"""Rank labels as players write them (``10`` rather than ``T``)."""

NUM_CARDS = 52
FULL_DECK: Mask = (1 << NUM_CARDS) - 1
"""The mask of all 52 cards."""

DIAMONDS, CLUBS, HEARTS, SPADES = range(4)
THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE, TWO = range(13)

CARD_NAMES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
"""ASCII name of each card: ``'3D'`` … ``'2S'``."""
CARD_SYMBOLS: tuple[str, ...] = tuple(r + s for r in RANK_LABELS for s in SUIT_SYMBOLS)
"""Display name of each card: ``'3♦'`` … ``'2♠'``."""
BB_CARDS: tuple[Mask, ...] = tuple(1 << c for c in range(NUM_CARDS))
"""The one-card mask of each card."""
BB_RANKS: tuple[Mask, ...] = tuple(0xF << (4 * r) for r in range(13))
"""The mask of the four cards of each rank."""
BB_SUITS: tuple[Mask, ...] = tuple(
    sum(1 << (4 * r + s) for r in range(13)) for s in range(4)
)
"""The mask of the thirteen cards of each suit."""

_SUIT_ALIASES = {
    "D": 0, "C": 1, "H": 2, "S": 3,
    "♦": 0, "♣": 1, "♥": 2, "♠": 3, "♢": 0, "♧": 1, "♡": 2, "♤": 3,
}
_RANK_ALIASES = {ch: i for i, ch in enumerate(RANKS)}
_RANK_ALIASES["10"] = TEN
_RANK_ALIASES["1"] = TEN  # never reached alone; "10" is matched first

# Bits of each byte, used to list a mask's cards quickly (small enough to
# build at import in well under a millisecond).
_CHUNK_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(8) if n >> i & 1) for n in range(1 << 8)
)


class InvalidCardError(ValueError):
    """Raised for card text that names no card; the message names the token."""


def rank_of(card: Card) -> int:
    """The rank number of *card* (0 for ``3`` … 12 for ``2``)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The suit number of *card* (0 ♦, 1 ♣, 2 ♥, 3 ♠)."""
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    """The card of *rank* and *suit* numbers."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise InvalidCardError(f"no card with rank {rank} and suit {suit}")
    return rank * 4 + suit


def card_name(card: Card) -> str:
    """ASCII name of *card*, such as ``'TS'``."""
    return CARD_NAMES[card]


def card_symbol(card: Card) -> str:
    """Display name of *card*, such as ``'10♠'``."""
    return CARD_SYMBOLS[card]


def parse_card(text: str) -> Card:
    """Parse one card: ``3D``, ``TS``, ``10s``, ``A♠``; case-insensitive.

    >>> parse_card("2s"), parse_card("3♦")
    (51, 0)
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    big2.cards.InvalidCardError: not a card: '1X' (write rank then suit, e.g. 3D, 10S, A♠)
    """
    token = text.strip().upper()
    if len(token) >= 2:
        rank = _RANK_ALIASES.get(token[:-1])
        suit = _SUIT_ALIASES.get(token[-1])
        if rank is not None and suit is not None and token[:-1] != "1":
            return rank * 4 + suit
    raise InvalidCardError(
        f"not a card: {text.strip()!r} (write rank then suit, e.g. 3D, 10S, A♠)"
    )


def cards_of(mask: Mask) -> list[Card]:
    """The cards of *mask*, lowest number first."""
    out: list[Card] = []
    base = 0
    while mask:
        chunk = mask & 0xFF
        if chunk:
            out.extend([base + i for i in _CHUNK_BITS[chunk]])
        mask >>= 8
        base += 8
    return out


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding *cards*; raises :class:`InvalidCardError` on a non-card."""
    mask = 0
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < NUM_CARDS:
            raise InvalidCardError(f"not a card number: {card!r}")
        mask |= 1 << card
    return mask


def popcount(mask: Mask) -> int:
    """Number of cards in *mask*."""
    return mask.bit_count()


def _split(text: str) -> list[str]:
    return text.replace(",", " ").split()


class CardSet(int):
    """An immutable set of cards: an ``int`` mask that prints as cards.

    Iterating gives card numbers lowest first; ``in`` tests a card number;
    ``str`` gives display names, :meth:`text` ASCII names.

    >>> s = CardSet.parse("AS KS")
    >>> s, 47 in s, s.text()
    (CardSet.parse('KS AS'), True, 'KS AS')
    >>> s | CardSet.parse("2D")
    CardSet.parse('KS AS 2D')
    """

    __slots__ = ()

    def __new__(cls, mask: Mask | Iterable[Card] = 0) -> CardSet:  # noqa: PYI034
        if not isinstance(mask, int):
            mask = mask_of(mask)
        elif mask < 0 or mask > FULL_DECK:
            raise InvalidCardError(f"not a card mask: {mask!r}")
        return super().__new__(cls, mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Parse cards separated by spaces or commas; duplicates are an error."""
        mask = 0
        for token in _split(text):
            card = parse_card(token)
            if mask >> card & 1:
                raise InvalidCardError(f"card given twice: {token!r}")
            mask |= 1 << card
        return cls(mask)

    @property
    def mask(self) -> Mask:
        """The plain ``int`` mask."""
        return int(self)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self))

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < NUM_CARDS and bool(self >> card & 1)

    def __or__(self, other: int) -> CardSet:
        return CardSet(int(self) | int(other))

    def __and__(self, other: int) -> CardSet:
        return CardSet(int(self) & int(other))

    def __sub__(self, other: int) -> CardSet:
        return CardSet(int(self) & ~int(other))

    def text(self) -> str:
        """ASCII names, lowest first: ``'3D TS'``."""
        return " ".join(CARD_NAMES[c] for c in cards_of(self))

    def __str__(self) -> str:
        return " ".join(CARD_SYMBOLS[c] for c in cards_of(self))

    def __repr__(self) -> str:
        return f"CardSet.parse({self.text()!r})"

    def __bool__(self) -> bool:
        return int(self) != 0


def parse_cards(text: str) -> CardSet:
    """Parse card text such as ``"3D 3S 10H"`` into a :class:`CardSet`.

    >>> parse_cards("3♦ 10s, qh")
    CardSet.parse('3D TS QH')
    >>> parse_cards("3D XX")
    Traceback (most recent call last):
    ...
    big2.cards.InvalidCardError: not a card: 'XX' (write rank then suit, e.g. 3D, 10S, A♠)
    """
    return CardSet.parse(text)


def format_cards(cards: Mask | Iterable[Card], *, symbols: bool = True) -> str:
    """Cards as text, lowest number first; ``symbols=False`` for ASCII."""
    mask = cards if isinstance(cards, int) else mask_of(cards)
    names = CARD_SYMBOLS if symbols else CARD_NAMES
    return " ".join(names[c] for c in cards_of(mask))
