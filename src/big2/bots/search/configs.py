"""The named search bots, each a configuration of the parts (:class:`~big2.bots.search.bot.Search`).

=================  ==============================  ===================  ======================  ==================
name               candidates                      evaluator            selector                favourite kept
=================  ==============================  ===================  ======================  ==================
``expert-v1``      the heuristic's list            heuristic play-out   successive halving      heuristic's, ties
``guided-search``  policy's top 3, then heuristic  heuristic play-out   halving, favourite kept policy's, margin 1
``policy-search``  policy's top 4                  policy roll, exact   flat, belief-weighed    policy's, margin 0
                                                   endgame
=================  ==============================  ===================  ======================  ==================

``guided-search`` is what the levels ``hard`` (200 play-outs) and ``expert``
(2,000) play (:data:`big2.bots.base.LEVEL_OPTIONS`); ``playout=policy``
swaps its evaluator for the policy play-out
(:class:`~big2.bots.search.policy_eval.PolicyPlayout`: every seat plays the
policy for ``plies`` plies, then the heuristic). Each factory takes the
options a user may pass by name (``make_bot("guided-search", budget=400)``,
``guided-search:budget=400`` as an arena seat) and raises ``ValueError`` for
values out of range.

>>> from big2 import Game
>>> g = Game(seed=5)
>>> expert_v1(seed=1, budget=40).choose(g.view(g.to_move)) in g.legal_masks()
True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from big2.bots.search.bot import Sampling, Search, SearchBot
from big2.bots.search.candidates import HeuristicCandidates, PolicyFirst
from big2.bots.search.evaluators import (
    DEFAULT_ENDGAME,
    DEFAULT_ENDGAME_NODES,
    Evaluator,
    ExactLeaves,
    HeuristicPlayout,
)
from big2.bots.search.selectors import Flat, SuccessiveHalving

if TYPE_CHECKING:
    from big2.bots.policy.pnet import PolicyNet, ValueNet

DEFAULT_BUDGET = 800
"""Play-outs per decision of ``expert-v1`` by default."""


def heuristic_search(budget: int = DEFAULT_BUDGET, seconds: float | None = None,
                     candidates: int = 8, pass_inference: float = 0.7, greedy_mix: float = 0.3,
                     model: bool = True, endgame: int = 0,
                     endgame_nodes: int = DEFAULT_ENDGAME_NODES, batch: int = 1) -> Search:
    """The search on the heuristic alone (``expert-v1``; every search's fallback).

    Args:
        budget: play-outs per decision.
        seconds: optional time cap per decision.
        candidates: at most this many plays searched.
        pass_inference, greedy_mix, model: the sampler's
            (:class:`~big2.bots.search.worlds.WorldSampler`).
        endgame, endgame_nodes: from this many cards left in all hands, solve
            each world exactly instead of playing it out, within this many
            positions a decision (:class:`~big2.bots.search.evaluators.ExactLeaves`;
            0 cards: never).
        batch: worlds scored in one call (more for an evaluator that batches
            across worlds, as the policy play-out does).
    """
    evaluator: Evaluator = HeuristicPlayout()
    if endgame:
        evaluator = ExactLeaves(evaluator, int(endgame), int(endgame_nodes))
    return Search(HeuristicCandidates(int(candidates)), evaluator,
                  SuccessiveHalving(int(budget), seconds, int(batch)),
                  Sampling(float(pass_inference), float(greedy_mix), bool(model)))


def expert_v1(seed: int | None = None, **options: Any) -> SearchBot:
    """``expert-v1``: determinized search guided by the heuristic
    (:func:`heuristic_search`'s options), no policy network: the search
    every other falls back to where the policy cannot read the rules."""
    bot = SearchBot(heuristic_search(**options), seed=seed)
    bot.name, bot.option_sources = "expert-v1", (heuristic_search,)
    return bot


def _policy(seed: int | None, weights: str | Path | PolicyNet | None) -> Any:
    from big2.bots.policy.net import PolicyNetBot  # NumPy loads with the first policy bot

    return PolicyNetBot(seed=seed, weights=weights)


def guided_search(seed: int | None = None, policy_candidates: int = 3, sure: float = 1.0,
                  margin: float = 1.0, belief: float = 0.0, pool: int = 128,
                  weights: str | Path | PolicyNet | None = None, playout: str = "heuristic",
                  plies: int | None = 4, sample: bool = False, finish: str = "heuristic",
                  one_card_margin: float | None = None, **options: Any) -> SearchBot:
    """``guided-search`` (the levels ``hard`` and ``expert``): the PPO policy's
    candidates and favourite, heuristic play-outs in the compiled core.

    Args:
        policy_candidates: the policy's most probable plays put first among
            the candidates (the rest of ``candidates`` come from the heuristic's list).
        sure: a play the policy gives more than this probability is made
            without searching (1, the default: every decision with a choice is searched).
        margin: another play replaces the policy's favourite only when its
            mean play-out score is higher by more than this many points.
        belief: above 0, worlds come from a pool of ``pool`` weighed by the
            policy's likelihood of the history, raised to this power.
        pool: the worlds sampled and weighed per decision when ``belief`` is above 0.
        weights: the policy ``.npz`` (default: the shipped one).
        playout: ``"heuristic"``: every seat played out by the heuristic;
            ``"policy"``: every seat plays the policy for ``plies`` plies first
            (:class:`~big2.bots.search.policy_eval.PolicyPlayout`).
        plies, sample, finish: the policy play-out's (``plies=-1`` or
            ``None``: the policy plays to the end; ``sample``: draw from it;
            ``finish``: ``"heuristic"`` or ``"critic"``).
        one_card_margin: *margin* on a lead while the next seat holds one card
            (``None``: *margin*).
        options: :func:`heuristic_search`'s (budget, seconds, candidates,
            sampler, endgame, batch: default 32 worlds a call with the policy play-out).
    """
    if pool < 1:
        raise ValueError("pool must be at least 1")
    if playout not in ("heuristic", "policy"):
        raise ValueError(f"playout is 'heuristic' or 'policy', not {playout!r}")
    policy = _policy(seed, weights)
    evaluator: Any = HeuristicPlayout()
    if playout == "policy":
        from big2.bots.search.policy_eval import PolicyPlayout

        options.setdefault("batch", 32)
        k = None if plies is None or int(plies) < 0 else int(plies)
        evaluator = PolicyPlayout(policy.network, k, bool(sample), str(finish))
    base = heuristic_search(**options)
    limit = base.candidates.limit  # type: ignore[attr-defined]
    if playout == "heuristic":
        evaluator = base.evaluator  # with the exact endgame at the leaves if asked for
    elif isinstance(base.evaluator, ExactLeaves):
        evaluator = ExactLeaves(evaluator, base.evaluator.cards, base.evaluator.nodes)
    search = Search(PolicyFirst(int(policy_candidates), limit), evaluator,
                    base.selector, Sampling(base.sampling.pass_inference,
                                            base.sampling.greedy_mix, base.sampling.model,
                                            float(belief), int(pool)),
                    margin=float(margin), sure=float(sure), keep_favourite=True,
                    one_card_margin=None if one_card_margin is None else float(one_card_margin))
    bot = SearchBot(search, seed=seed, policy=policy, fallback=base)
    bot.name, bot.option_sources = "guided-search", (guided_search, heuristic_search)
    return bot


def policy_search(seed: int | None = None, samples: int = 48, candidates: int = 4,
                  sure: float = 0.9, roll: str = "end", margin: float = 0.0,
                  belief: float = 0.5, endgame: int | None = None,
                  endgame_nodes: int | None = None,
                  weights: str | Path | PolicyNet | None = None,
                  value: str | Path | ValueNet | None = None, **options: Any) -> SearchBot:
    """``policy-search``: the policy's candidates valued by the policy playing
    every seat on (:class:`~big2.bots.search.policy_eval.PolicyRollout`), the
    exact endgame where few cards are left, every candidate on the same
    belief-weighed worlds.

    Args:
        samples: worlds per decision.
        candidates: the policy's most probable plays tried (at least 2).
        sure: a play the policy gives more than this probability is made without searching.
        roll: ``"end"``: the policy plays to the end of the deal; ``"turn"``:
            until the seat is to move again, and the critic scores the leaf.
        margin: another candidate replaces the policy's favourite only when
            its mean is higher by more than this many points.
        belief: weigh each world by the policy's likelihood of the history
            (raised to this power); 0 weighs every world the same.
        endgame, endgame_nodes: solve a world exactly from this many cards
            left, within this many positions a decision (0 never solves).
        weights, value: the policy and critic ``.npz`` (default: the shipped ones).
        options: the sampler's, and :func:`heuristic_search`'s for the
            fallback where the policy cannot read the rules.
    """
    from big2.bots.search.policy_eval import PolicyRollout

    policy = _policy(seed, weights)
    base = heuristic_search(candidates=candidates, **options)
    evaluator: Evaluator = ExactLeaves(
        PolicyRollout(policy.network, value, roll),
        DEFAULT_ENDGAME if endgame is None else int(endgame),
        DEFAULT_ENDGAME_NODES if endgame_nodes is None else int(endgame_nodes))
    search = Search(PolicyFirst(int(candidates), int(candidates)), evaluator, Flat(int(samples)),
                    Sampling(base.sampling.pass_inference, base.sampling.greedy_mix,
                             base.sampling.model, float(belief)),
                    margin=float(margin), sure=float(sure))
    bot = SearchBot(search, seed=seed, policy=policy, fallback=base)
    bot.name, bot.option_sources = "policy-search", (policy_search, heuristic_search)
    return bot


__all__ = ["DEFAULT_BUDGET", "expert_v1", "guided_search", "heuristic_search", "policy_search"]
