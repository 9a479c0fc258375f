"""What a rule set means for the code built on the core: the kinds of play it
allows, the longest play, whether the fixed-size environment and the trained
networks can take it, and how a match over it runs (:class:`MatchPlan`).

These are the answers :class:`big2.variant.Variant` gives as ``kinds``,
``env_unsupported``, ``supports_network`` and ``plan``; they live here so that
the protocol, the records, the bots, the environment and the front ends ask
the variant instead of reading options.

>>> from big2.rules import Rules
>>> sorted(k.label for k in allowed_kinds(Rules(triples=False))
...        if k.value < Kind.STRAIGHT)
['pair', 'single']
>>> env_unsupported(Rules(decks=2, players=4, dragon=True))
('dragon=true', 'decks=2')
>>> MatchPlan.of(Rules(scoring="penalty", match_deals=0)).ends(0, [-40, -101])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from big2.rules import Rules
from big2.variant.kinds import Kind


def allowed_kinds(rules: Rules) -> frozenset[Kind]:
    """The kinds of play *rules* knows, led or only played on another (a
    smack-down's four of a kind and run of pairs)."""
    kinds = {Kind.SINGLE, Kind.PAIR, Kind.STRAIGHT, Kind.FLUSH, Kind.FULL_HOUSE,
             Kind.STRAIGHT_FLUSH}
    if rules.triples:
        kinds.add(Kind.TRIPLE)
    if rules.two_pairs:
        kinds.add(Kind.TWO_PAIRS)
    if rules.four_of_a_kind_alone or rules.smack_down != "off":
        kinds.add(Kind.FOUR_OF_A_KIND)
    if rules.smack_down != "off":
        kinds.add(Kind.PAIR_RUN)
    if rules.five_two_pairs != "no":
        kinds.add(Kind.FIVE_TWO_PAIRS)
    if rules.five_trips:
        kinds.add(Kind.FIVE_TRIPS)
    if rules.four_kicker:
        kinds.add(Kind.FOUR_KICKER)
    if rules.dragon:
        kinds.add(Kind.DRAGON)
    if rules.five_of_a_kind != "off":
        kinds.add(Kind.FIVE_OF_A_KIND)
    return frozenset(kinds)


def longest_play(rules: Rules) -> int:
    """The most cards one play can hold: 13 with the dragon, else the longest
    straight (five at least, for the five-card hands)."""
    return 13 if rules.dragon else max(5, rules.straight_max)


def odd_straights(rules: Rules) -> bool:
    """Whether straights shorter or longer than five, or the dragon, are plays."""
    return rules.straight_min < 5 or rules.straight_max > 5 or rules.dragon


def env_unsupported(rules: Rules) -> tuple[str, ...]:
    """The options of *rules* (as ``name=value``) whose plays fall outside the
    environment's fixed action space: plays of one to five cards, straights of
    five, from one 52-card deck."""
    out = []
    if rules.straight_min != 5:
        out.append(f"straight_min={rules.straight_min}")
    if rules.straight_max != 5:
        out.append(f"straight_max={rules.straight_max}")
    if rules.dragon:
        out.append("dragon=true")
    if rules.smack_down != "off":
        out.append(f"smack_down={rules.smack_down}")
    if rules.decks != 1:
        out.append(f"decks={rules.decks}")
    if rules.jokers != "none":
        out.append(f"jokers={rules.jokers}")
    return tuple(out)


def network_supported(rules: Rules) -> bool:
    """Whether the trained networks' encoding covers *rules*: one 52-card deck,
    no straights longer than five, no dragon, no smack-downs."""
    return (not rules.extended_deck and rules.straight_max <= 5 and not rules.dragon
            and rules.smack_down == "off")


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """How a match over a rule set runs: its length, its end, who leads later
    deals and whether the President exchange happens between deals."""

    deals: int
    """Deals in the match (0: until the penalty target)."""
    penalty_target: int | None
    """Penalty scoring: the match ends when a seat's penalty reaches it; else ``None``."""
    winner_leads: bool
    """The last deal's winner leads the next deal (not the lowest card's holder)."""
    exchange: bool
    """President form: titles after each deal and cards exchanged before the next."""
    exchange_from_dealt: bool
    """Under the exchange, the receivers give back from their hands as dealt
    (``exchange=before``), not after receiving."""

    @classmethod
    def of(cls, rules: Rules) -> MatchPlan:
        """The plan of *rules*."""
        return cls(deals=rules.match_deals,
                   penalty_target=rules.penalty_target if rules.scoring == "penalty" else None,
                   winner_leads=rules.later_lead == "winner",
                   exchange=rules.exchange != "off",
                   exchange_from_dealt=rules.exchange == "before")

    @property
    def endless(self) -> bool:
        """No number of deals and no penalty target: the match would never end."""
        return not self.deals and self.penalty_target is None

    def ends(self, played: int, totals: Sequence[int], deals: int | None = None) -> bool:
        """Whether a match that has *played* deals, with running *totals*, is
        over (*deals*: the number of deals in place of the plan's)."""
        deals = self.deals if deals is None else deals
        if deals and played >= deals:
            return True
        if self.penalty_target is not None:
            return any(-t >= self.penalty_target for t in totals)
        return False


__all__ = ["MatchPlan", "allowed_kinds", "env_unsupported", "longest_play", "network_supported",
           "odd_straights"]
