"""Cards and card sets as plain ints.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``. Ranks are numbered in
Big Two order, ``3`` (0) up to ``2`` (12); suits are numbered by identity,
diamonds (0), clubs (1), hearts (2), spades (3). A set of cards is an ``int``
bit mask with bit ``card`` set for each card it holds, so set operations are
``|``, ``&`` and ``~``, and the four cards of one rank sit in one nibble.

Which suit is stronger is a rule (see :mod:`big2.rules`), not a property of
the card; under the default suit order a card's strength is its number.

House rules add cards past 51 (see :func:`deck_mask`): the red joker (52) and
the black joker (53), and, with two decks, a second copy of each card at
``card + 54``. A copy has the same name and plays like the first; the jokers
count as rank 13 (above the 2s), suit 0 (red) or 1 (black).

>>> card_name(RED_JOKER), card_name(54), base_of(54 + 51)
('RJ', '3D', 51)
>>> CardSet.parse("3D 3D BJ", copies=2).cards()
[0, 53, 54]

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

from big2.i18n import Refusal

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
DECK_SIZE = 54
"""Card numbers per deck copy: 52 cards and two jokers (the second copy starts at 54)."""
MAX_CARDS = 2 * DECK_SIZE
"""Card numbers in all: two decks with their jokers (0–107)."""
ALL_CARDS: Mask = (1 << MAX_CARDS) - 1
"""The mask of every card number, both decks and the jokers."""
RED_JOKER, BLACK_JOKER = 52, 53
"""The jokers of the first deck (the second deck's are 106 and 107)."""
JOKERS: Mask = 3 << 52 | 3 << (52 + DECK_SIZE)
"""The mask of all four joker numbers."""

DIAMONDS, CLUBS, HEARTS, SPADES = range(4)
THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE, TWO = range(13)

_NAMES = (*(r + s for r in RANKS for s in SUITS), "RJ", "BJ")
_SYMBOLS = (*(r + s for r in RANK_LABELS for s in SUIT_SYMBOLS), "RJ", "BJ")
CARD_NAMES: tuple[str, ...] = _NAMES * 2
"""ASCII name of each card number: ``'3D'`` … ``'2S'``, ``'RJ'``, ``'BJ'``, then the
second deck's copies under the same names."""
CARD_SYMBOLS: tuple[str, ...] = _SYMBOLS * 2
"""Display name of each card number: ``'3♦'`` … ``'2♠'``, ``'RJ'``, ``'BJ'`` (twice)."""
BB_CARDS: tuple[Mask, ...] = tuple(1 << c for c in range(NUM_CARDS))
"""The one-card mask of each card."""
BB_RANKS: tuple[Mask, ...] = tuple(0xF << (4 * r) for r in range(13))
"""The mask of the four cards of each rank (first deck)."""
RANK_MASKS: tuple[Mask, ...] = tuple(
    (0xF << (4 * r)) | (0xF << (4 * r + DECK_SIZE)) for r in range(13)) + (JOKERS,)
"""Each rank's cards in both decks (index 13: the jokers), for rules that count them."""
BB_SUITS: tuple[Mask, ...] = tuple(
    sum(1 << (4 * r + s) for r in range(13)) for s in range(4)
)
"""The mask of the thirteen cards of each suit."""

_SUIT_ALIASES = {
    "D": 0, "C": 1, "H": 2, "S": 3,
    "♦": 0, "♣": 1, "♥": 2, "♠": 3, "♢": 0, "♧": 1, "♡": 2, "♤": 3,
}
_JOKER_ALIASES = {"RJ": RED_JOKER, "JR": RED_JOKER, "BJ": BLACK_JOKER, "JB": BLACK_JOKER}
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
    """The rank number of *card* (0 for ``3`` … 12 for ``2``, 13 for a joker)."""
    return (card % DECK_SIZE) >> 2


def suit_of(card: Card) -> int:
    """The suit number of *card* (0 ♦, 1 ♣, 2 ♥, 3 ♠; a joker: 0 red, 1 black)."""
    return card % DECK_SIZE & 3


def base_of(card: Card) -> Card:
    """The first deck's number of *card* (a second-deck copy maps to its original)."""
    return card % DECK_SIZE


def is_joker(card: Card) -> bool:
    """Whether *card* is a joker."""
    return card % DECK_SIZE >= NUM_CARDS


def deck_mask(decks: int = 1, jokers: bool = False) -> Mask:
    """The cards a game uses: *decks* copies of the 52 cards, with their jokers.

    >>> deck_mask() == FULL_DECK, deck_mask(1, True).bit_count(), deck_mask(2).bit_count()
    (True, 54, 104)
    """
    one = FULL_DECK | (3 << NUM_CARDS if jokers else 0)
    return one if decks == 1 else one | one << DECK_SIZE


def match_copies(cards: Mask, hand: Mask) -> Mask | None:
    """*cards* with each card not in *hand* replaced by a copy that is, or ``None``.

    Copies of a card are interchangeable, so a play written ``3D`` is the 3♦
    its player holds, whichever deck it came from.

    >>> match_copies(1 << 0, 1 << 54) == 1 << 54
    True
    """
    missing = cards & ~hand
    if not missing:
        return cards
    free = hand & ~cards
    out = cards & hand
    while missing:
        low = missing & -missing
        missing ^= low
        card = low.bit_length() - 1
        for other in (card + DECK_SIZE, card - DECK_SIZE):
            if 0 <= other < MAX_CARDS and free >> other & 1:
                out |= 1 << other
                free &= ~(1 << other)
                break
        else:
            return None
    return out


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
    """Parse one card: ``3D``, ``TS``, ``10s``, ``A♠``, ``RJ``/``BJ`` (red and black
    jokers); case-insensitive. Gives the first deck's number.

    >>> parse_card("2s"), parse_card("3♦")
    (51, 0)
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    big2.cards.InvalidCardError: not a card: '1X' (write rank then suit, e.g. 3D, 10S, A♠)
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_card takes card text such as '3D', not {type(text).__name__}")
    token = text.strip().upper()
    if token in _JOKER_ALIASES:
        return _JOKER_ALIASES[token]
    if len(token) >= 2:
        rank = _RANK_ALIASES.get(token[:-1])
        suit = _SUIT_ALIASES.get(token[-1])
        if rank is not None and suit is not None and token[:-1] != "1":
            return rank * 4 + suit
    raise InvalidCardError(Refusal("notACard", text=repr(text.strip())))


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


def ordered(mask: Mask) -> list[Card]:
    """The cards of *mask* for display: by number, copies of a card side by side.

    >>> [CARD_NAMES[c] for c in ordered(1 << 54 | 1 << 1 | 1 << 0)]
    ['3D', '3D', '3C']
    """
    cards = cards_of(mask)
    if mask >> DECK_SIZE:
        cards.sort(key=lambda c: (c % DECK_SIZE, c))
    return cards


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask holding *cards*; raises :class:`InvalidCardError` on a non-card."""
    mask = 0
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < MAX_CARDS:
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
        elif mask < 0 or mask > ALL_CARDS:
            raise InvalidCardError(f"not a card mask: {mask!r}")
        return super().__new__(cls, mask)

    @classmethod
    def parse(cls, text: str, copies: int = 1) -> CardSet:
        """Parse cards separated by spaces or commas.

        With ``copies=2`` (two decks) a card named twice is the first deck's
        copy and the second's; naming a card more often than *copies* is an error.
        """
        if not isinstance(text, str):
            hint = " (CardSet(mask) takes a mask or card numbers)" if isinstance(text, int) else ""
            raise TypeError(f"parse_cards takes card text such as '3D 3S', not "
                            f"{type(text).__name__}{hint}")
        mask = 0
        for token in _split(text):
            card = parse_card(token)
            for _ in range(copies - 1):
                if not mask >> card & 1:
                    break
                card += DECK_SIZE
            if mask >> card & 1:
                raise InvalidCardError(Refusal("cardTwice", text=repr(token)) if copies == 1
                                       else Refusal("cardTooOften", copies=copies,
                                                    text=repr(token)))
            mask |= 1 << card
        return cls(mask)

    @property
    def mask(self) -> Mask:
        """The plain ``int`` mask."""
        return int(self)

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self))

    def cards(self) -> list[Card]:
        """The card numbers, lowest first."""
        return cards_of(self)

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < MAX_CARDS and bool(self >> card & 1)

    def __or__(self, other: int) -> CardSet:
        return CardSet(int(self) | int(other))

    def __and__(self, other: int) -> CardSet:
        return CardSet(int(self) & int(other))

    def __sub__(self, other: int) -> CardSet:
        return CardSet(int(self) & ~int(other))

    def text(self) -> str:
        """ASCII names, lowest first: ``'3D TS'``."""
        return " ".join(CARD_NAMES[c] for c in ordered(self))

    def __str__(self) -> str:
        return " ".join(CARD_SYMBOLS[c] for c in ordered(self))

    def __repr__(self) -> str:
        return f"CardSet.parse({self.text()!r})"

    # truth is int's (empty: false), in C: a __bool__ here cost a Python call at every
    # `if play:` (200 ns against 30)


def parse_cards(text: str, copies: int = 1) -> CardSet:
    """Parse card text such as ``"3D 3S 10H"`` into a :class:`CardSet`.

    >>> parse_cards("3♦ 10s, qh")
    CardSet.parse('3D TS QH')
    >>> parse_cards("3D XX")
    Traceback (most recent call last):
    ...
    big2.cards.InvalidCardError: not a card: 'XX' (write rank then suit, e.g. 3D, 10S, A♠)
    >>> parse_cards(5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: parse_cards takes card text such as '3D 3S', not int (CardSet(mask) takes ...)
    """
    return CardSet.parse(text, copies)


def format_cards(cards: Mask | Iterable[Card], *, symbols: bool = True) -> str:
    """Cards as text, lowest number first (copies side by side); ``symbols=False`` for ASCII."""
    mask = cards if isinstance(cards, int) else mask_of(cards)
    names = CARD_SYMBOLS if symbols else CARD_NAMES
    return " ".join(names[c] for c in ordered(mask))
