"""Combinations: what a set of cards is as a play, and which plays beat which.

The meaning lives in :mod:`big2.variant` (kinds, strength keys, the follow
rules and the two play engines); this module keeps the short spellings:
:func:`classify` and :func:`beats` under a rule set, and :func:`engine` for a
rule set's compiled play engine.

>>> from big2.cards import parse_cards
>>> c = classify(parse_cards("5D 6C 7H 8S 9D"))
>>> c.kind.name, str(c)
('STRAIGHT', 'straight 5♦ 6♣ 7♥ 8♠ 9♦')
>>> beats(parse_cards("KS KC"), parse_cards("KH KD"))
True
>>> classify(parse_cards("3D 4D")) is None
True
"""

from __future__ import annotations

from big2.cards import Mask
from big2.rules import Rules
from big2.variant import kind_name, variant
from big2.variant.kinds import STRAIGHT_SEQUENCES, Combo, Kind
from big2.variant.protocol import Engine as PlayEngine
from big2.variant.tables import TableEngine

Engine = TableEngine
"""The one-deck play engine (``Engine(rules)`` builds one; :func:`engine` gives the
cached engine of any rule set, generic for jokers and two decks)."""

_DEFAULT = Rules()


def engine(rules: Rules) -> PlayEngine:
    """The compiled play engine of *rules* (:attr:`big2.variant.Variant.engine`)."""
    return variant(rules).engine


def classify(cards: Mask, rules: Rules = _DEFAULT) -> Combo | None:
    """The combination *cards* form under *rules*, or ``None`` if no play.

    >>> from big2.cards import parse_cards
    >>> classify(parse_cards("9S 9H 9D 4C 4D")).kind.label
    'full house'
    """
    return engine(rules).classify(int(cards))


def beats(a: Mask | Combo, b: Mask | Combo, rules: Rules = _DEFAULT) -> bool:
    """Whether play *a* may be played on play *b* under *rules*.

    Raises ``ValueError`` if either is not a combination under *rules*.
    """
    eng = engine(rules)
    ca = a if isinstance(a, Combo) else eng.classify(int(a))
    cb = b if isinstance(b, Combo) else eng.classify(int(b))
    if ca is None or cb is None:
        raise ValueError("not a combination under these rules")
    return eng.beats(ca, cb)


__all__ = ["STRAIGHT_SEQUENCES", "Combo", "Engine", "Kind", "PlayEngine", "beats", "classify",
           "engine", "kind_name"]
