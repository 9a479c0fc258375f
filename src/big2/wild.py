"""The play engine for jokers and two decks, under its older name.

It lives in :mod:`big2.variant.generic` (with the listing ruling for plays of
more than five cards); ``WildEngine(rules)`` still builds one.

>>> from big2 import Rules
>>> from big2.cards import parse_cards
>>> str(WildEngine(Rules(jokers="wild")).classify(int(parse_cards("7D 8C RJ TS JS"))))
'straight 7♦ 8♣ 10♠ J♠ RJ'
"""

from __future__ import annotations

from big2.variant.generic import GenericEngine as WildEngine
from big2.variant.generic_sets import by_name

__all__ = ["WildEngine", "by_name"]
