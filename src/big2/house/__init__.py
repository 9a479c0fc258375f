"""House rules as hooks: one module per rule (RULES.md §2), installed only when on.

:func:`installed` lists the :class:`~big2.variant.hooks.HouseRule` objects a
rule set switches on; :func:`big2.variant.variant` calls it once per rule set.
Rules that change only tables (straight orders, suit orders, kinds of play,
comparisons) live in the play engine instead, and the President exchange is a
matter of the match (:mod:`big2.match`).

>>> from big2.rules import Rules
>>> [h.name for h in installed(Rules(last_card=True, go_fish=True, players=2, deal="13-each"))]
['go_fish', 'last_card']
>>> installed(Rules())
()
"""

from __future__ import annotations

from big2.house.assist import AssistPenalty
from big2.house.four_twos import FourTwos
from big2.house.go_fish import GoFish
from big2.house.last_card import LastCard
from big2.house.maltese import Maltese
from big2.house.redeal import NoFaceRedeal, WeakHandRedeal
from big2.house.restrictions import FinishRestrictions
from big2.house.spare import SpareSwap
from big2.house.teams import Teams
from big2.house.three_threes import ThreeThrees
from big2.rules import Rules
from big2.variant.hooks import HouseRule


def installed(rules: Rules) -> tuple[HouseRule, ...]:
    """The house rules *rules* switches on, in the order their hooks run."""
    out: list[HouseRule] = []
    if "no-face" in rules.redeal:
        out.append(NoFaceRedeal())
    if "weak" in rules.redeal:
        out.append(WeakHandRedeal())
    if rules.maltese:
        out.append(Maltese())
    if rules.four_twos != "play":
        out.append(FourTwos(rules.four_twos))
    if rules.spare_swap:
        out.append(SpareSwap())
    if rules.go_fish:
        out.append(GoFish())
    if rules.finish_restrictions:
        out.append(FinishRestrictions(rules.finish_restrictions))
    if rules.three_threes:
        out.append(ThreeThrees())
    if rules.last_card:
        out.append(LastCard(rules.scoring))
    if rules.assist_penalty:
        out.append(AssistPenalty(rules.scoring))
    if rules.teams:
        out.append(Teams())
    return tuple(out)


__all__ = ["installed"]
