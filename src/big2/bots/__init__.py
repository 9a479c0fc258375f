"""Bots: players that see one seat's :class:`~big2.view.PlayerView` only.

A bot's :meth:`~big2.bots.base.Bot.choose` gets a view and returns one of
``view.legal`` (a card mask; ``0`` passes). Bots never see the game object,
so they cannot reach a hidden card, and they act only through the play the
driver makes for them.

The package is laid out by how a bot decides:

- :mod:`big2.bots.simple`: ``random`` and ``greedy``;
- :mod:`big2.bots.rules_based`: the hand-written ``heuristic`` and its parts;
- :mod:`big2.bots.policy`: trained policies (:class:`~big2.bots.policy.CallableBot`
  for any policy function, :func:`~big2.bots.policy.register_policy`; the
  shipped PPO network, ``policy-net``; a Deep Monte-Carlo Q network, ``dmc``,
  and the league's members, :mod:`big2.bots.policy.league`);
- :mod:`big2.bots.search`: determinized search from public parts (sampled
  worlds, candidates, evaluators, selectors) and its named configurations.

Every name :func:`make_bot` accepts is registered below, once, with what it
is (:func:`describe_bots`); the levels are :data:`BOT_LEVELS`.

>>> from big2 import Game
>>> g = Game(seed=3)
>>> bot = make_bot("greedy", seed=1)
>>> g.play(bot.choose(g.view(g.to_move)))
>>> len(g.history)
1
"""

from collections.abc import Callable
from typing import Any

from big2.bots.base import (
    BOT_LEVELS,
    LEVEL_OPTIONS,
    STRONGEST_LEVEL,
    Bot,
    available_bots,
    bot_label,
    describe_bots,
    make_bot,
    register_bot,
)
from big2.bots.policy import CallableBot, register_policy
from big2.bots.policy import PolicyBot as PolicyBot  # the old name, still importable
from big2.bots.policy.league import LEAGUE_WEIGHTS
from big2.bots.rules_based.heuristic import HeuristicBot, heuristic_v1
from big2.bots.search.bot import SearchBot
from big2.bots.search.configs import expert_v1, guided_search, policy_search
from big2.bots.simple import GreedyBot, RandomBot


def _policy_net(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.policy.net import PolicyNetBot  # NumPy loads with the first policy bot

    return PolicyNetBot(seed=seed, **options)


def _dmc(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.policy.dmc import DMCBot  # NumPy loads with the first Q network bot

    return DMCBot(seed=seed, **options)


def _league_member(name: str, kind: str, weights: str) -> Callable[..., Bot]:
    """The factory of the league member *name*: its kind's bot on its shipped weights,
    named as the member (records and tables say ``league-dmc``, not ``dmc``)."""
    def make(seed: int | None = None, **options: Any) -> Bot:
        from big2.bots.policy.pnet import WEIGHTS_DIR

        factory = _dmc if kind == "dmc" else _policy_net
        bot = factory(seed=seed, **{"weights": str(WEIGHTS_DIR / weights), **options})
        bot.name = name
        return bot

    return make


register_bot("random", RandomBot, "a uniformly random legal play")
register_bot("greedy", GreedyBot, "the weakest play that beats the table")
register_bot("heuristic", HeuristicBot, "hand planning by partition into combinations")
register_bot("heuristic-v1", heuristic_v1, "the first heuristic (ranks and five-card hands only)")
register_bot("policy-net", _policy_net, "the PPO policy network's most probable play")
register_bot("dmc", _dmc, "a Deep Monte-Carlo Q network's best play (dmc:weights=PATH, "
             "a DMC run's slim .npz or checkpoint.pt)", needs=("weights",))
for _name, (_kind, _file) in LEAGUE_WEIGHTS.items():
    register_bot(_name, _league_member(_name, _kind, _file), f"league: {_kind} on {_file}")
register_bot("guided-search", guided_search,
             "the policy's play unless heuristic play-outs find one a point better")
register_bot("policy-search", policy_search,
             "the policy's candidates valued by policy roll-outs and the exact endgame")
register_bot("expert-v1", expert_v1,
             "determinized search on the heuristic alone (no policy network)")

__all__ = [
    "BOT_LEVELS", "LEVEL_OPTIONS", "STRONGEST_LEVEL", "Bot", "CallableBot", "GreedyBot",
    "HeuristicBot", "RandomBot", "SearchBot", "available_bots", "bot_label", "describe_bots",
    "make_bot", "register_bot", "register_policy",
]
