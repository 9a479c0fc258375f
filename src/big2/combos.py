"""Combinations: what a set of cards is as a play, and which plays beat which.

The meaning lives in :mod:`big2.variant` (kinds, strength keys, the follow
rules and the two play engines); this module keeps the short spellings:
:func:`classify` and :func:`beats` under a rule set, and :func:`engine` for a
rule set's compiled play engine (``variant(rules).engine``, typed by the one
:class:`big2.variant.Engine` protocol).

>>> from big2.cards import parse_cards
>>> c = classify(parse_cards("5D 6C 7H 8S 9D"))
>>> c.kind.name, str(c)
('STRAIGHT', 'straight 5♦ 6♣ 7♥ 8♠ 9♦')
>>> beats(parse_cards("KS KC"), parse_cards("KH KD"))
True
>>> classify(parse_cards("3D 4D")) is None
True

Both also take card text, as :meth:`big2.Game.play` does:

>>> beats("4D", "3D"), classify("9S 9H 9D 4C 4D").kind.label
(True, 'full house')
"""

from __future__ import annotations

from collections.abc import Iterable

from big2.cards import ALL_CARDS, CardSet, Mask, mask_of, parse_cards
from big2.rules import Rules
from big2.variant import kind_name, variant
from big2.variant.engine import Engine
from big2.variant.kinds import STRAIGHT_SEQUENCES, Combo, Kind

_DEFAULT = Rules()


def engine(rules: Rules) -> Engine:
    """The compiled play engine of *rules* (:attr:`big2.variant.Variant.engine`)."""
    return variant(rules).engine


Cards = Mask | str | Iterable[int]
"""What :func:`classify` and :func:`beats` take for a set of cards: a mask (a
:class:`~big2.cards.CardSet`), card text (``"3D 3S"``, parsed with the rule
set's deck copies) or card numbers."""


def _mask(cards: Cards, rules: Rules, what: str) -> Mask:
    if isinstance(cards, str):
        return int(parse_cards(cards, copies=variant(rules).deck.decks))
    if isinstance(cards, bool):
        raise TypeError(f"{what} must be cards (a mask, card text or card numbers), not bool")
    if isinstance(cards, int):
        if not 0 <= cards <= ALL_CARDS:
            raise ValueError(f"{what}: not a set of cards: {cards!r}")
        return int(cards)
    if isinstance(cards, Iterable) and not isinstance(cards, (bytes, dict)):
        numbers = list(cards)
        if all(isinstance(c, int) and not isinstance(c, bool) for c in numbers):
            return mask_of(numbers)
    raise TypeError(f"{what} must be cards (a mask, card text such as '3D 3S', or card "
                    f"numbers), not {type(cards).__name__}")


def classify(cards: Cards, rules: Rules = _DEFAULT) -> Combo | None:
    """The combination *cards* form under *rules*, or ``None`` if no play.

    >>> from big2.cards import parse_cards
    >>> classify(parse_cards("9S 9H 9D 4C 4D")).kind.label
    'full house'
    """
    return engine(rules).classify(_mask(cards, rules, "classify: the cards"))


def beats(a: Cards | Combo, b: Cards | Combo, rules: Rules = _DEFAULT) -> bool:
    """Whether play *a* may be played on play *b* under *rules*.

    *a* and *b* are masks, card text (``"KS KC"``), card numbers or
    :class:`Combo` values. Raises :class:`~big2.cards.InvalidCardError` (a
    ``ValueError``) on text that is not cards, ``ValueError`` if either is not
    a combination under *rules* (naming it), and ``TypeError`` on anything else.

    >>> beats("3D", "4D")
    False
    >>> beats("3D 4D", "5D")
    Traceback (most recent call last):
    ...
    ValueError: not a combination under these rules: 3♦ 4♦
    """
    eng = engine(rules)
    combos = []
    for cards, what in ((a, "beats: the first play"), (b, "beats: the second play")):
        if isinstance(cards, Combo):
            combos.append(cards)
            continue
        mask = _mask(cards, rules, what)
        combo = eng.classify(mask)
        if combo is None:
            raise ValueError(f"not a combination under these rules: {CardSet(mask) or 'no cards'}")
        combos.append(combo)
    return eng.beats(combos[0], combos[1])


__all__ = ["STRAIGHT_SEQUENCES", "Cards", "Combo", "Kind", "beats", "classify", "engine",
           "kind_name"]
