"""House-rule hooks: how a switched-on house rule joins the game.

A house rule (one module under :mod:`big2.house`) is a :class:`HouseRule`
subclass that overrides only the hooks it needs. :func:`big2.variant.variant`
installs the rules a rule set switches on, and the game calls each hook point
only when some installed rule uses it, so the classic game pays nothing for
the rules that are off. The hook points, in the order of a deal:

- :meth:`HouseRule.redeal`: a dealt hand forces a new deal;
- :meth:`HouseRule.start`: the deal is set up (a stock to draw from, an
  instant win);
- :meth:`HouseRule.filter_legal`: the listed legal plays change (the pass is
  already in the list when passing is allowed);
- :meth:`HouseRule.reason`: why a play that is not listed is refused;
- :meth:`HouseRule.on_pass`: something happens when a player passes;
- :meth:`HouseRule.adjust`: the deal's scores change at the end.

Hooks see the game through :class:`DealState`, the part of
:class:`big2.game.Game` they may read and change.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, NamedTuple, Protocol

from big2.cards import Mask
from big2.variant.deck import Deck
from big2.variant.engine import Engine
from big2.variant.scorer import Scorer
from big2.variant.turns import TurnOrder

if TYPE_CHECKING:
    from big2.log import Action, Record
    from big2.variant.kinds import Combo


class Termination(StrEnum):
    """How a deal ended."""

    NORMAL = "normal"
    """A player went out (or, under ranking scoring, all but one did)."""
    MALTESE = "maltese"
    """A dealt Maltese dragon (six pairs and a card) won at once."""
    MALTESE_LOSS = "maltese-loss"
    """A dealt Maltese dragon with a pair of 3s lost at once."""
    FOUR_TWOS = "four-twos"
    """A hand dealt all four 2s won at once."""
    DRAW = "draw"
    """A hand dealt all four 2s ended the deal unscored."""
    SHOOTOUT = "shoot-out"
    """Teams tied: a five-card shoot-out decides the deal."""
    LAST_CARD = "last-card"
    """The winner went out without announcing a last card and pays instead."""
    ASSIST = "assist"
    """The player who let the winner out on a single pays for everyone."""


INSTANT = frozenset({Termination.MALTESE, Termination.MALTESE_LOSS, Termination.FOUR_TWOS,
                     Termination.DRAW})
"""Terminations decided by a dealt hand before any play."""
PENALTIES = frozenset({Termination.LAST_CARD, Termination.ASSIST})
"""Terminations where a house-rule penalty moved the payment."""


class Outcome(NamedTuple):
    """How a deal ended: who went out first, the scores, the finishing order, and why."""

    winner: int
    scores: tuple[int, ...]
    finished: tuple[int, ...]
    termination: Termination = Termination.NORMAL


class RuleSet(Protocol):
    """What a hook reads of the compiled rule set (:class:`big2.variant.Variant` is one):
    its parts, named here so that the hooks need nothing above them."""

    @property
    def engine(self) -> Engine:
        """The play engine."""

    @property
    def deck(self) -> Deck:
        """The deck and the deal."""

    @property
    def turns(self) -> TurnOrder:
        """The turn order."""

    @property
    def scorer(self) -> Scorer:
        """The scorer."""

    def deal(self, rng: random.Random, dealer: int = 0) -> list[Mask]:
        """Shuffle and deal from the seat left of *dealer* (redealing where a hook says)."""


class DealState(Protocol):
    """What a hook may read and change of a deal in progress."""

    @property
    def variant(self) -> RuleSet:
        """The compiled rule set the deal is played under."""

    num_players: int
    hands: list[Mask]
    initial_hands: tuple[Mask, ...]
    history: list[Action]
    log: list[Record]
    finished: list[int]
    to_move: int | None
    dealer: int
    seed: int | None
    rng: random.Random
    stock: list[int]
    trick_start: int
    waive: bool
    redeals: int

    @property
    def last_combo(self) -> Combo | None:
        """The play to beat, or ``None`` when leading."""

    def end(self, outcome: Outcome) -> None:
        """End the deal with *outcome*."""

    def restart(self, hands: Sequence[Mask]) -> None:
        """Start the deal over from *hands*."""

    def plays_changed(self, seat: int) -> None:
        """*seat*'s hand changed other than by playing (a draw)."""


class HouseRule:
    """A house rule's hooks; each does nothing unless overridden."""

    name: ClassVar[str] = ""
    """The rule's name, as in the rules that switch it on."""

    def redeal(self, hand: Mask) -> bool:
        """Whether a dealt *hand* forces the cards to be dealt again."""
        return False

    def start(self, game: DealState) -> None:
        """Set up a deal (called after every (re)start, before any play)."""

    def filter_legal(self, game: DealState, plays: list[Mask]) -> None:
        """Change the freshly listed legal *plays* in place (``0`` is the pass)."""

    def reason(self, game: DealState, mask: Mask) -> str | None:
        """Why *mask* (``0``: a pass) is not a legal play, if this rule is why."""
        return None

    def on_pass(self, game: DealState, seat: int) -> None:
        """React to *seat*'s pass (before the turn moves on)."""

    def adjust(self, game: DealState, outcome: Outcome, last_play: Mask) -> Outcome:
        """The deal's outcome once this rule has had its say."""
        return outcome

    def overrides(self, hook: str) -> bool:
        """Whether this rule has its own *hook* (the game skips hook points no rule uses)."""
        return getattr(type(self), hook) is not getattr(HouseRule, hook)
