"""The "How to play" page's facts for one rule set: what ranks and suits beat,
who leads, each kind of play this rule set knows with an example of it
(checked against the engine: an example that is not that kind under these rules
is left out), the five-card kinds weakest first as the rules compare them, and
the straights allowed, weakest first, and how a deal is scored.

>>> from big2.rules import Rules
>>> g = guide(Rules())
>>> g["ranks"], g["suits"], g["lowest"]
('3456789TJQKA2', 'DCHS', '3D')
>>> [k["kind"] for k in g["five"]]
['STRAIGHT', 'FLUSH', 'FULL_HOUSE', 'FOUR_KICKER', 'STRAIGHT_FLUSH']
>>> g["straights"][0], g["straights"][-1]
('34567', 'A2345')
>>> g["scoring"]["method"], g["scoring"]["whole"], g["scoring"]["most"]
('classic', 13, 10)
"""

from __future__ import annotations

import functools
from typing import Any

from big2.cards import CARD_NAMES, RANKS, cards_of, parse_cards
from big2.rules import Rules
from big2.variant import Kind, variant

__all__ = ["guide"]

# One example of each kind (one deck, no jokers), strongest cards not needed
EXAMPLES: dict[Kind, str] = {
    Kind.SINGLE: "2S",
    Kind.PAIR: "9D 9S",
    Kind.TRIPLE: "7C 7H 7S",
    Kind.TWO_PAIRS: "5D 5C 8H 8S",
    Kind.FOUR_OF_A_KIND: "JD JC JH JS",
    Kind.PAIR_RUN: "4D 4C 5H 5S 6D 6C",
    Kind.FIVE_TWO_PAIRS: "4D 4S 6C 6H KD",
    Kind.FIVE_TRIPS: "8D 8C 8S 3H QS",
    Kind.STRAIGHT: "5C 6D 7S 8H 9D",
    Kind.FLUSH: "3H 7H 9H JH KH",
    Kind.FULL_HOUSE: "TD TC TS 4H 4S",
    Kind.FOUR_KICKER: "QD QC QH QS 3D",
    Kind.STRAIGHT_FLUSH: "6S 7S 8S 9S TS",
    Kind.DRAGON: "3D 4C 5H 6S 7D 8C 9H TS JD QC KH AS 2D",
}


def _names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def guide(rules: Rules) -> dict[str, Any]:
    """The facts of *rules* for the page (see the module doc); JSON-friendly."""
    v = variant(rules)
    plays = []
    for kind, text in EXAMPLES.items():
        if kind not in v.kinds:
            continue
        mask = parse_cards(text)
        combo = v.engine.classify(mask)
        if combo is None or combo.kind != kind:
            continue  # not this kind under these rules (e.g. a straight they do not allow)
        plays.append((combo, {"kind": kind.name, "label": kind.label, "cards": _names(mask),
                              "size": len(_names(mask))}))

    def order(a: tuple[Any, Any], b: tuple[Any, Any]) -> int:
        return 1 if v.compare.beats(a[0], b[0]) else -1 if v.compare.beats(b[0], a[0]) else 0

    five = sorted((p for p in plays if p[1]["size"] == 5), key=functools.cmp_to_key(order))
    def strength(name: str) -> int:
        return rules.strength(cards_of(parse_cards(name))[0])

    # the five-card comparison as the variant reads it (no option read here)
    compare = ("same-kind" if getattr(v.compare, "same_kind", False)
               else "top-card" if v.keys.top_card else "kind")
    return {
        "name": rules.name,
        "players": v.players,
        "ranks": "".join(sorted(RANKS, key=lambda r: strength(r + "S"))),
        "suits": "".join(sorted("DCHS", key=lambda s: strength("3" + s))),
        "lowest": CARD_NAMES[rules.lowest_card],
        "plays": [p[1] for p in plays if p[1]["size"] != 5],
        "five": [p[1] for p in five],
        "five_compare": compare,
        "straights": [seq for seq, _top in v.straight_sequences],
        "scoring": _scoring(v),
    }


def _scoring(v: Any) -> dict[str, Any]:
    """How a deal is scored, for the page's Scoring section: the method and the
    numbers its sentences need (``most``: the fewest cards left that count double,
    read off :meth:`Scorer.multiplier <big2.variant.scorer.Scorer.multiplier>`)."""
    whole, players = v.scorer.per_seat, v.players
    most = next(k for k in range(whole + 1) if v.scorer.multiplier(k) >= 2)
    sc = v.scorer  # the variant's reading of the scoring options
    return {"method": sc.method, "whole": whole, "most": most, "twos_each": sc.twos_each,
            "count_twos": sc.count_twos, "target": v.plan.penalty_target, "players": players}
