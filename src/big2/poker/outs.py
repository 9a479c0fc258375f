"""Outs: the unseen cards that lift a hand to a better category on the next card.

A card is an **out** when the hand, the board and that card make a better
category than the hand makes now *and* better than the board and that card
make alone: a card that pairs the board improves every hand alike, so it is
not counted.  Outs are grouped by the category they make, best first.

>>> o = outs("AH KH", board="QH 7H 2C")          # the nut flush draw and two overcards
>>> print(o.text())
AH KH on QH 7H 2C: Ace-high now, 15 outs of 47 unseen cards
Flush: 9 cards (2♥ 3♥ 4♥ 5♥ 6♥ 8♥ 9♥ 10♥ J♥)
Pair: 6 cards (K♦ K♣ K♠ A♦ A♣ A♠)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from big2.cards import CARD_SYMBOLS, InvalidCardError
from big2.poker.cards import Hand, format_hand, is_joker, poker_rank, to_cards
from big2.poker.evaluate import evaluate
from big2.poker.ranking import rank_hand
from big2.poker.tables import CLASSES, Category

__all__ = ["Outs", "OutsError", "outs"]

MAX_CARDS = 8
"""Most cards of hand and board together (the next card makes nine)."""


class OutsError(ValueError):
    """Cards that cannot be read as a hand and board (the message never echoes the input)."""


@dataclass(frozen=True)
class Outs:
    """The outs of a hand on a board: the cards, grouped by the category each makes."""

    hand: tuple[int, ...]
    board: tuple[int, ...]
    current: Category
    """The category the hand makes now (with the board)."""
    name: str
    """The hand it makes now, as players say it (``'Ace-high'``)."""
    unseen: int
    """Cards that may come: the deck less the hand, the board and the dead cards."""
    by_category: dict[Category, tuple[int, ...]]
    """The outs by the category they make, best category first, each lowest card first."""

    @property
    def count(self) -> int:
        """How many cards are outs."""
        return sum(len(cards) for cards in self.by_category.values())

    @property
    def cards(self) -> tuple[int, ...]:
        """Every out, in the order of :attr:`by_category`."""
        return tuple(c for cards in self.by_category.values() for c in cards)

    def text(self) -> str:
        """A summary line, then one line per category: ``Flush: 9 cards (2♥ 3♥ …)``."""
        where = f" on {format_hand(self.board)}" if self.board else ""
        lines = [(f"{format_hand(self.hand)}{where}: {self.name} now, "
                 f"{self.count} outs of {self.unseen} unseen cards")]
        for cat, cards in self.by_category.items():
            word = "card" if len(cards) == 1 else "cards"
            lines.append(f"{cat.label}: {len(cards)} {word} "
                         f"({' '.join(CARD_SYMBOLS[c] for c in cards)})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()


def _category(cards: Sequence[int]) -> Category:
    """Category of the best five of *cards* (fewer than five: as :func:`rank_hand` says)."""
    if 5 <= len(cards) <= 9:
        return CLASSES[evaluate(cards)][0]
    return rank_hand(list(cards)).category


def _read(hand: Hand, what: str) -> tuple[int, ...]:
    try:
        cards = to_cards(hand)
    except InvalidCardError as exc:
        text = str(exc)
        raise OutsError(f"{what}: {text.split(':')[0] if chr(39) in text else text}") from None
    if any(is_joker(c) for c in cards):
        raise OutsError(f"{what}: outs are counted without jokers")
    return cards


def outs(hand: Hand, board: Hand = (), dead: Hand = ()) -> Outs:
    """The cards that would lift *hand* (with *board*) to a better category.

    *hand*: the player's cards; *board*: community cards (none for stud);
    *dead*: cards seen elsewhere, which cannot come.  Hand and board hold 2 to
    :data:`MAX_CARDS` cards together.  See the module docstring for what
    counts as an out.

    >>> o = outs("9S 8D", board="7C 6H 2S")        # open-ended straight draw
    >>> {c.label: len(v) for c, v in o.by_category.items()}
    {'Straight': 8, 'Pair': 6}
    >>> outs("AS KD", board="QC 7H 7D").count      # a third seven or a queen helps the board too
    6
    """
    h, b, d = _read(hand, "hand"), _read(board, "board"), _read(dead, "dead cards")
    if not h:
        raise OutsError("hand: no cards")
    known = (*h, *b)
    if not 2 <= len(known) <= MAX_CARDS:
        raise OutsError(f"hand and board hold {len(known)} cards; outs need 2 to {MAX_CARDS}")
    if len(set(known + d)) != len(known) + len(d):
        raise OutsError("a card is given twice (in the hand, the board or the dead cards)")
    now = _category(known)
    name = rank_hand(list(known)).name
    unseen = [c for c in sorted(range(52), key=lambda c: (poker_rank(c), c & 3))
              if c not in known and c not in d]
    found: dict[Category, list[int]] = {}
    for card in unseen:
        cat = _category((*known, card))
        if cat > now and (not b or cat > _category((*b, card))):
            found.setdefault(cat, []).append(card)
    by_cat = {cat: tuple(found[cat]) for cat in sorted(found, reverse=True)}
    return Outs(h, b, now, name, len(unseen), by_cat)
