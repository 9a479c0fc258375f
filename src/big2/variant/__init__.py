"""A rule set compiled once: deck, play engine, turn order, scorer and house-rule hooks.

:func:`variant` turns a :class:`~big2.rules.Rules` value into a
:class:`Variant` (cached, so each rule set is compiled once). Everything above
it (the game, the match, bots, the environment) asks the variant what a rule
means instead of reading the options again:

- :attr:`Variant.deck` (:mod:`big2.variant.deck`): the cards, the deal, the
  lowest card and who leads, copies of a card with two decks;
- :attr:`Variant.engine`: what cards make a play and which plays beat which,
  table-driven for one deck (:mod:`big2.variant.tables`; in the compiled core,
  :mod:`big2.variant.native`, when :attr:`Variant.native`) or generic for
  jokers and two decks (:mod:`big2.variant.generic`), all built on the strength
  keys of :mod:`big2.variant.keys` and the follow rules of :mod:`big2.variant.compare`;
- :attr:`Variant.turns` (:mod:`big2.variant.turns`): direction, passing, trick end;
- :attr:`Variant.scorer` (:mod:`big2.variant.scorer`): the scoring methods and
  the finishing order;
- :attr:`Variant.house`: the switched-on house rules (:mod:`big2.house`), with
  their hooks grouped by hook point (:mod:`big2.variant.hooks`);
- what the rule set means for the code above the core
  (:mod:`big2.variant.support`): :attr:`Variant.kinds`,
  :attr:`Variant.longest_play`, :attr:`Variant.supports_env`,
  :attr:`Variant.supports_network`, :attr:`Variant.deal_counts` (what a
  protocol ``new_deal`` reports by default) and :attr:`Variant.plan` (how a
  match runs).

>>> from big2.rules import Rules
>>> v = variant(Rules(players=3, finish_restrictions=("2S",)))
>>> v.deck.per_seat, v.turns.after[0], [h.name for h in v.house]
(17, (1, 2, 0), ['finish_restrictions'])
>>> variant(Rules()) is variant(Rules())
True
>>> v = variant(Rules(players=4, decks=2))
>>> v.deal_counts, v.supports_env, v.env_unsupported
((26, 26, 26, 26), False, ('decks=2',))
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

from big2.cards import Mask
from big2.rules import Rules
from big2.variant import native
from big2.variant.compare import Comparator
from big2.variant.deck import Deck
from big2.variant.engine import Engine
from big2.variant.generic import GenericEngine
from big2.variant.hooks import DealState, HouseRule, Outcome, Termination
from big2.variant.keys import StrengthKeys
from big2.variant.kinds import STRAIGHT_SEQUENCES, Combo, Kind
from big2.variant.scorer import Scorer
from big2.variant.support import (
    MatchPlan,
    allowed_kinds,
    env_unsupported,
    longest_play,
    network_supported,
    odd_straights,
)
from big2.variant.tables import TableEngine
from big2.variant.turns import TurnOrder

H = TypeVar("H", bound=HouseRule)


class Variant:
    """A compiled rule set (see the module docstring); get one with :func:`variant`."""

    def __init__(self, rules: Rules, engine: str = "auto") -> None:
        from big2.house import installed  # house rules build on the hooks defined here

        self.rules = rules
        self.native = native.wanted(engine) == "native" and native.native_reason(rules) is None
        """Whether the play engine is the compiled core (:mod:`big2.variant.native`):
        true for rule sets whose every option the core plays, unless the Python
        reference engine was asked for (``engine="python"`` or ``BIG2_ENGINE=python``)."""
        self.engine: Engine
        if self.native:  # compiled once per rule set: a pickled engine comes back as this one
            self.engine = native.native_engine(rules)
        elif rules.decks > 1 or rules.jokers != "none":
            self.engine = GenericEngine(rules, StrengthKeys(rules))
        else:
            self.engine = TableEngine(rules, StrengthKeys(rules), Comparator(rules))
        self.keys: StrengthKeys = self.engine.keys
        self.compare: Comparator = self.engine.compare
        self.deck = Deck(rules, self.keys.strength)
        self.turns = TurnOrder(rules)
        self.scorer = Scorer(rules, self.engine, self.keys, self.deck.per_seat, self.turns.after)
        self.house: tuple[HouseRule, ...] = installed(rules)
        """The switched-on house rules, in the order their hooks run."""
        self.redealers = self._hooks("redeal")
        self.starters = self._hooks("start")
        self.filters = self._hooks("filter_legal")
        self.reasons = self._hooks("reason")
        self.passers = self._hooks("on_pass")
        self.adjusters = self._hooks("adjust")
        self.players: int = rules.players
        """Seats at the table."""
        self.native_deal: bool = self.native and native.native_deal_reason(rules) is None
        """Whether :class:`~big2.Game` keeps its deals in the core (:mod:`big2.native_deal`):
        the native engine and no house-rule hook."""
        self.deal_counts: tuple[int, ...] = (self.deck.per_seat,) * rules.players
        """Cards dealt to each seat before any left-over card: what a protocol
        ``new_deal`` reports when the host gives no counts (26 a seat for four
        players and two decks)."""
        self.kinds: frozenset[Kind] = allowed_kinds(rules)
        """The kinds of play the rule set knows (:func:`~big2.variant.support.allowed_kinds`)."""
        self.longest_play: int = longest_play(rules)
        """The most cards one play can hold (13 with the dragon)."""
        self.straight_sequences: tuple[tuple[str, str], ...] = STRAIGHT_SEQUENCES[
            rules.straight_order]
        """The five-rank sequences that are straights, weakest first, each with
        its deciding rank (``("34567", "7")``)."""
        self.odd_straights: bool = odd_straights(rules)
        """Straights shorter or longer than five, or the dragon, are plays."""
        self.env_unsupported: tuple[str, ...] = env_unsupported(rules)
        """The options (``name=value``) the environment's fixed action space cannot take."""
        self.supports_env: bool = not self.env_unsupported
        """Whether :mod:`big2.env` can play the rule set (plays of one deck, at most five cards)."""
        self.supports_network: bool = network_supported(rules)
        """Whether the trained networks' encoding covers the rule set."""
        self.hands_grow: bool = rules.go_fish
        """A seat's hand can grow during a deal (Go-Fish draws), so a count says
        nothing of the plays it will make."""
        self.teams: bool = rules.teams
        """Partners sit opposite (seats 0 and 2, 1 and 3); see :mod:`big2.house.teams`."""
        self.announces_last_card: bool = rules.last_card
        """A seat down to one card must announce it (:mod:`big2.house.last_card`)."""
        self.plan: MatchPlan = MatchPlan.of(rules)
        """How a match over the rule set runs (:class:`~big2.variant.support.MatchPlan`)."""

    def _hooks(self, hook: str) -> tuple[Callable[..., object], ...]:
        return tuple(getattr(h, hook) for h in self.house if h.overrides(hook))

    def house_rule(self, kind: type[H]) -> H | None:
        """The installed house rule of class *kind*, or ``None`` when it is off."""
        return next((h for h in self.house if isinstance(h, kind)), None)

    def deal(self, rng: random.Random, dealer: int = 0) -> list[Mask]:
        """Shuffle and deal from the seat left of *dealer*; a deal in which a hand
        forces a redeal (``redeal`` rules) is dealt again from the same stream."""
        order = self.turns.after[dealer % self.turns.players]
        core = native.shuffle_deal if self.native else None  # the Python engine: all Python
        hands = self.deck.shuffle_deal(rng, order, core)
        if self.redealers:
            for _ in range(10_000):
                if not any(r(h) for r in self.redealers for h in hands):
                    break
                hands = self.deck.shuffle_deal(rng, order, core)
        return hands

    def __repr__(self) -> str:
        return f"<Variant {self.rules!r}>"


def variant(rules: Rules, engine: str = "auto") -> Variant:
    """The compiled :class:`Variant` of *rules* (built once per rule set and engine).

    *engine*: ``"auto"`` (the compiled core where the rule set allows it, unless
    the environment variable ``BIG2_ENGINE=python`` asks for the Python engine),
    ``"native"`` (the same, whatever the environment says) or ``"python"`` (the
    reference engine)."""
    global _last
    choice = native.wanted(engine)
    last = _last
    if last[0] is rules and last[1] == choice and last[2] is not None:  # no hash of it
        return last[2]
    v = _variant(rules, choice)
    _last = (rules, choice, v)
    return v


_last: tuple[Rules | None, str, Variant | None] = (None, "", None)
"""The last rule set :func:`variant` was asked for, its engine and its variant."""


@lru_cache(maxsize=128)
def _variant(rules: Rules, engine: str) -> Variant:
    return Variant(rules, engine)


def deal(rules: Rules, rng: random.Random, dealer: int = 0) -> list[Mask]:
    """Shuffle and deal one hand per seat under *rules*, from the seat left of
    *dealer* (:meth:`Variant.deal`)."""
    return variant(rules).deal(rng, dealer)


def must_redeal(rules: Rules, hand: Mask) -> bool:
    """Whether a dealt *hand* forces a redeal under *rules* (no face cards, four 2s)."""
    return any(r(hand) for r in variant(rules).redealers)


def kind_name(cards: Mask, rules: Rules) -> str:
    """A play's kind as players say it (``'pair'``), or ``'pass'``."""
    if not cards:
        return "pass"
    combo = variant(rules).engine.classify(cards)
    return combo.kind.label if combo else "not a play"


__all__ = [
    "Combo",
    "DealState",
    "Engine",
    "HouseRule",
    "Kind",
    "MatchPlan",
    "Outcome",
    "Termination",
    "Variant",
    "deal",
    "kind_name",
    "must_redeal",
    "variant",
]
