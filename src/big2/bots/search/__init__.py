"""Determinized search from public parts, for bot writers.

A search guesses the hidden cards many times and plays each guess out with
every hand open. Its parts, each small and named:

- **worlds** (:mod:`~big2.bots.search.worlds`): :func:`sample_worlds` deals the
  cards a seat has not seen (:attr:`big2.view.PlayerView.unseen`) consistently
  with its view, optionally reading passes, modelling opponents and weighing
  by the policy's likelihood of the history;
- **candidates** (:mod:`~big2.bots.search.candidates`): which plays to compare;
- **evaluators** (:mod:`~big2.bots.search.evaluators`,
  :mod:`~big2.bots.search.policy_eval`): the heuristic play-out in the
  compiled core, the policy's roll with the critic as a leaf, the exact endgame
  (:mod:`~big2.bots.search.endgame`);
- **selectors** (:mod:`~big2.bots.search.selectors`): successive halving or a
  flat average, and the margin before overturning the favourite;
- :class:`~big2.bots.search.bot.Search` puts them together and
  :class:`~big2.bots.search.bot.SearchBot` plays one;
  :mod:`~big2.bots.search.configs` holds the named ones (``expert-v1``,
  ``guided-search``, ``policy-search``).

Every part is exported here; each kind of part is a :class:`typing.Protocol`
(:class:`CandidateRule`, :class:`Sampler`, :class:`Evaluator` with its
:data:`Score`, :class:`Selector` returning a :class:`Tally`), so a bot
writer's own part needs no base class. docs/bots.md ("Write your own bot")
shows a new search bot written from these parts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from big2.bots.search.bot import Sampling, Search, SearchBot
from big2.bots.search.candidates import (
    AllLegal,
    CandidateRule,
    HeuristicCandidates,
    PolicyFirst,
    heuristic_guide,
)
from big2.bots.search.endgame import EndgameSolver
from big2.bots.search.evaluators import Evaluator, ExactLeaves, HeuristicPlayout, Score, play_out
from big2.bots.search.selectors import (
    Flat,
    Row,
    Selector,
    SuccessiveHalving,
    Tally,
    keep_unless_beaten,
    rows,
)
from big2.bots.search.worlds import Sampler, World, WorldSampler, sample_worlds

if TYPE_CHECKING:
    from big2.bots.search.policy_eval import PolicyPlayout, PolicyRollout


def __getattr__(name: str) -> Any:
    """The policy evaluators, imported on first use (they load NumPy)."""
    if name in ("PolicyPlayout", "PolicyRollout"):
        from big2.bots.search import policy_eval

        return getattr(policy_eval, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AllLegal", "CandidateRule", "EndgameSolver", "Evaluator", "ExactLeaves", "Flat",
    "HeuristicCandidates", "HeuristicPlayout", "PolicyFirst", "PolicyPlayout", "PolicyRollout",
    "Row", "Sampler", "Sampling", "Score", "Search", "SearchBot", "Selector", "SuccessiveHalving",
    "Tally", "World", "WorldSampler", "heuristic_guide", "keep_unless_beaten", "play_out", "rows",
    "sample_worlds",
]
