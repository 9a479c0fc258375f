"""A search bot assembled from parts: :class:`Search` and :class:`SearchBot`.

A :class:`Search` names its parts: a candidate rule
(:mod:`~big2.bots.search.candidates`), how worlds are sampled
(:class:`Sampling`, :mod:`~big2.bots.search.worlds`), an evaluator
(:mod:`~big2.bots.search.evaluators`), a selector
(:mod:`~big2.bots.search.selectors`), and when the favourite play stands:
the policy's most probable play when there is a policy, else the heuristic's,
is kept unless another is worth more than ``margin`` points, and made without
searching when the policy gives it more than ``sure``.

:class:`SearchBot` plays a :class:`Search` for one seat, and a *fallback*
search (the heuristic-only one by default) where its policy cannot read the
rule set; jokers and two decks get :func:`~big2.bots.wildplay.wild_play`.
The named configurations (``expert-v1``, ``guided-search``, which the levels
``hard`` and ``expert`` play, and ``policy-search``) are in
:mod:`big2.bots.search.configs`.

>>> from big2 import Game
>>> from big2.bots.search.candidates import HeuristicCandidates
>>> from big2.bots.search.evaluators import HeuristicPlayout
>>> from big2.bots.search.selectors import SuccessiveHalving
>>> search = Search(HeuristicCandidates(4), HeuristicPlayout(), SuccessiveHalving(40))
>>> g = Game(seed=5)
>>> SearchBot(search, seed=1).choose(g.view(g.to_move)) in g.legal_masks()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from big2.bots.base import Bot
from big2.bots.search.candidates import CandidateRule, HeuristicCandidates, heuristic_guide
from big2.bots.search.evaluators import Evaluator, HeuristicPlayout
from big2.bots.search.selectors import Row, Selector, Tally, keep_unless_beaten, rows
from big2.bots.search.worlds import PooledSampler, Sampler, WeighedSampler, WorldSampler, weigh
from big2.bots.wildplay import wild_play
from big2.cards import Mask
from big2.view import PlayerView

if TYPE_CHECKING:
    from big2.bots.policy.net import PolicyNetBot
    from big2.bots.policy.pnet import PolicyNet


@dataclass(frozen=True)
class Sampling:
    """How a search samples its worlds (:mod:`big2.bots.search.worlds`).

    Attributes:
        pass_inference, greedy_mix, model: the
            :class:`~big2.bots.search.worlds.WorldSampler`'s options.
        belief: above 0, weigh worlds by the policy's likelihood of the
            history, raised to this power (a search with a policy only).
        pool: with ``belief``, draw every world from a pool of this many,
            weighed once (``None``: weigh each batch a selector draws).
    """

    pass_inference: float = 0.7
    greedy_mix: float = 0.3
    model: bool = True
    belief: float = 0.0
    pool: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.pass_inference <= 1:
            raise ValueError("pass_inference must be between 0 and 1")
        if not 0 <= self.greedy_mix <= 1:
            raise ValueError("greedy_mix must be between 0 and 1")
        if self.belief < 0:
            raise ValueError("belief must be at least 0")
        if self.pool is not None and self.pool < 1:
            raise ValueError("pool must be at least 1")

    def sampler(self, view: PlayerView, rng: random.Random,
                net: PolicyNet | None = None) -> Sampler:
        """The sampler for one decision of *view*'s seat, drawing from *rng*."""
        base = WorldSampler(view, rng, pass_inference=self.pass_inference,
                            greedy_mix=self.greedy_mix, model=self.model)
        if self.belief <= 0 or net is None:
            return base
        if self.pool is None:
            return WeighedSampler(base, net, view, self.belief)
        if not any(a.seat != view.seat for a in view.history):  # nothing to weigh by
            return base
        return PooledSampler(weigh(base.draws(self.pool), net, view, self.belief), rng)


@dataclass(frozen=True)
class Search:
    """One search configuration (see the module docstring).

    Attributes:
        candidates: the candidate rule.
        evaluator: values candidates in worlds.
        selector: spends the worlds and ranks the candidates.
        sampling: how worlds are drawn.
        margin: another play replaces the favourite only when worth more
            than this many points over it.
        sure: a policy's play with more than this probability is made
            without searching (1 or more: never).
        keep_favourite: the favourite (the first candidate) is never dropped
            by the selector, so it is compared on every world.
        one_card_margin: the margin instead of ``margin`` on a lead while the
            next seat to act holds one card (``None``: ``margin``), where a low
            single the favourite makes may let that seat go out.
    """

    candidates: CandidateRule
    evaluator: Evaluator
    selector: Selector
    sampling: Sampling = field(default_factory=Sampling)
    margin: float = 0.0
    sure: float = 1.0
    keep_favourite: bool = False
    one_card_margin: float | None = None

    def __post_init__(self) -> None:
        if self.margin < 0 or (self.one_card_margin is not None and self.one_card_margin < 0):
            raise ValueError("margin must be at least 0")
        if self.sure <= 0:
            raise ValueError("sure must be above 0")


def next_on_one_card(view: PlayerView) -> bool:
    """Whether *view*'s seat leads and the next seat to act (the next holding
    cards) holds exactly one.

    >>> from big2 import Game
    >>> g = Game(hands=["3D 4D", "5C", "6C 7C", "8C 9C"], leader=0)
    >>> next_on_one_card(g.view(0)), next_on_one_card(Game(hands=["3D", "5C 6C"]).view(0))
    (True, False)
    """
    if not view.leading or view.to_move != view.seat:
        return False
    n = len(view.card_counts)
    for step in range(1, n):
        count = view.card_counts[(view.seat + step) % n]
        if count:
            return count == 1
    return False


class SearchBot(Bot):
    """A determinized search from parts (see the module docstring).

    Args:
        search: the configuration played.
        seed: seeds the sampling: a seed and a configuration give the same plays.
        policy: the policy network bot whose probabilities feed the candidates,
            the favourite and the belief weights (``None``: none).
        fallback: the search played where *policy* cannot read the rule set
            (default: the heuristic-only search with *search*'s selector).
    """

    name = "search"

    def __init__(self, search: Search, *, seed: int | None = None,
                 policy: PolicyNetBot | None = None, fallback: Search | None = None,
                 **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self.search = search
        self.policy = policy
        self.fallback = fallback or Search(HeuristicCandidates(), HeuristicPlayout(),
                                           search.selector, search.sampling)
        self.option_sources: tuple[Callable[..., Any], ...] = ()
        """The functions that read the options a user gives this bot by name
        (the arena's seat checks read their signatures)."""

    @property
    def budget(self) -> int | None:
        """Play-outs a decision, where the selector counts them."""
        budget = getattr(self.search.selector, "budget", None)
        return budget if isinstance(budget, int) else None

    def choose(self, view: PlayerView) -> Mask:
        """The favourite play, unless a searched play beats it by more than the
        margin (:meth:`decide`'s play)."""
        return self.decide(view)[0]

    def decide(self, view: PlayerView) -> tuple[Mask, Tally | None, Sequence[float] | None]:
        """The play :meth:`choose` makes, with what it came from: the search's
        tally (``None`` where no search ran: one legal play, jokers or two
        decks, or a policy play above ``sure``) and the policy's probabilities
        over ``view.legal`` (``None`` without a policy). :meth:`choose` is this
        play, so the two never differ."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0], None, None
        if view.rules.extended_deck:  # the search's planner reads one 52-card deck
            return wild_play(view), None, None
        search, p = self._plan(view)
        guide = heuristic_guide(view)
        favourite = guide if p is None else legal[max(range(len(p)), key=p.__getitem__)]
        if p is not None and max(p) > search.sure:
            return favourite, None, p
        tally = self.tally(view, search, guide, p)
        margin = search.margin
        if search.one_card_margin is not None and next_on_one_card(view):
            margin = search.one_card_margin
        choice = keep_unless_beaten(tally, favourite, margin)
        return (choice if choice in legal else guide), tally, p

    def analyse(self, view: PlayerView, include: Sequence[Mask] = ()) -> list[Row]:
        """The search :meth:`choose` makes, as rows ``(play, share, value)``:
        each candidate, its share of the play-outs and its value (mean points
        for the seat at the end of the deal), best first (:func:`~big2.bots.search.selectors.rows`).
        Plays in *include* (legal ones) are searched too and never dropped.

        Raises:
            ValueError: for rule sets with jokers or two decks (the search's
                planner reads one 52-card deck), or a view of a seat not to move.
        """
        if view.rules.extended_deck:
            raise ValueError("the search reads one 52-card deck: no jokers, no second deck")
        if not view.legal:
            raise ValueError(f"seat {view.seat} is not to move: nothing to analyse")
        search, p = self._plan(view)
        return rows(self.tally(view, search, heuristic_guide(view), p, include))

    def tally(self, view: PlayerView, search: Search, guide: Mask,
              p: Sequence[float] | None, include: Sequence[Mask] = ()) -> Tally:
        """Run *search* on *view* (*guide*: the heuristic's play; *p*: the policy's
        probabilities or ``None``), with the legal plays of *include* searched
        and kept too."""
        cands = search.candidates(view, guide, p)
        cands += [m for m in dict.fromkeys(include) if m in view.legal and m not in cands]
        keep = {i for i, m in enumerate(cands) if m in include}
        if search.keep_favourite:
            keep.add(0)
        net = self.policy.network if self.policy is not None and p is not None else None
        sampler = search.sampling.sampler(view, self.rng, net)
        return search.selector.run(cands, sampler, search.evaluator.start(view, self.rng), keep)

    def _plan(self, view: PlayerView) -> tuple[Search, Sequence[float] | None]:
        """The search for *view*'s rule set and the policy's probabilities (or ``None``)."""
        if self.policy is None:
            return self.search, None
        from big2.bots.policy.net import encodable

        if not encodable(view.rules):
            return self.fallback, None
        p: Sequence[float] = self.policy.probabilities(view)  # type: ignore[assignment]
        return self.search, p

    def __repr__(self) -> str:
        return f"<SearchBot {self.name!r} seed={self.seed}>"


__all__ = ["Sampling", "Search", "SearchBot", "next_on_one_card"]
