"""Bots: players that see one seat's :class:`~big2.view.PlayerView` only.

A bot's :meth:`~big2.bots.base.Bot.choose` gets a view and returns one of
``view.legal`` (a card mask; ``0`` passes). Bots never see the game object,
so they cannot reach a hidden card, and they act only through the play the
driver makes for them. :class:`~big2.bots.policy.PolicyBot` plays a trained
policy (a function of the encoded view and the legal plays), and
:func:`~big2.bots.policy.register_policy` makes one playable by name.

>>> from big2 import Game
>>> g = Game(seed=3)
>>> bot = make_bot("greedy", seed=1)
>>> g.play(bot.choose(g.view(g.to_move)))
>>> len(g.history)
1
"""

from typing import Any

from big2.bots.base import BOT_LEVELS, Bot, available_bots, make_bot, register_bot
from big2.bots.expert import ExpertBot
from big2.bots.heuristic import HeuristicBot
from big2.bots.policy import PolicyBot, register_policy
from big2.bots.simple import GreedyBot, RandomBot


def _learned(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.learned import LearnedBot  # NumPy loads with the first learned bot

    return LearnedBot(seed=seed, **options)


def _learned_search(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.learned import SearchBot

    return SearchBot(seed=seed, **options)


def _policy_net(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.learned import PolicyNetBot

    return PolicyNetBot(seed=seed, **options)


def _policy_search(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.policy_search import PolicySearchBot

    return PolicySearchBot(seed=seed, **options)


def _guided_search(seed: int | None = None, **options: Any) -> Bot:
    from big2.bots.guided import GuidedSearchBot

    return GuidedSearchBot(seed=seed, **options)


register_bot("learned", _learned)
register_bot("guided-search", _guided_search)
register_bot("policy-search", _policy_search)
register_bot("policy-net", _policy_net)
register_bot("learned-search", _learned_search)
register_bot("expert-v1", ExpertBot)  # the search on the heuristic alone (the level "expert" until 2026-12-04)

__all__ = [
    "BOT_LEVELS", "Bot", "ExpertBot", "GreedyBot", "HeuristicBot", "PolicyBot", "RandomBot",
    "available_bots", "make_bot", "register_bot", "register_policy",
]
