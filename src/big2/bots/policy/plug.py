"""A trained policy as a bot: :class:`CallableBot` and :func:`register_policy`.

A *policy* is any callable ``policy(observation, plays) -> int``:

* ``observation`` is the seat's observation vector,
  :func:`big2.observation.encode_view` of the bot's view (``int8``,
  :data:`~big2.observation.OBS_SIZE` entries, the same vector the
  environments give for that seat and moment);
* ``plays`` is :func:`big2.observation.card_vectors` of ``view.legal``: a
  ``(K, 52)`` ``int8`` array, row ``i`` the cards of the ``i``-th legal play
  (column = card number, 3♦ = 0 … 2♠ = 51), in the order of ``view.legal``;
  the pass, when allowed, is an all-zero row;
* it returns the index of its choice among those rows (a Python or NumPy
  integer, ``0 <= i < K``); anything else is a :class:`ValueError` naming
  the policy and the value.

The bot sees only its view, so a policy cannot reach a hidden card.
:class:`CallableBot` passes the policy nothing else: a policy that samples
should own its random generator, seeded, so that games replay (the bot's
own ``rng``, seeded by ``seed``, is there for a policy built around it).

:func:`register_policy` makes a policy playable by name wherever bots are
made by name (:func:`~big2.bots.make_bot`: the terminal game, the browser
tables, the arena and the bot protocol).

>>> from big2 import Game
>>> def most_cards(observation, plays):
...     return int(plays.sum(axis=1).argmax())  # the first play with the most cards
>>> bot = CallableBot(most_cards, seed=1)
>>> bot
<CallableBot 'most_cards' seed=1>
>>> g = Game(seed=3)
>>> view = g.view(g.to_move)
>>> play = bot.choose(view)
>>> play in view.legal, play.bit_count() == max(p.bit_count() for p in view.legal)
(True, True)
>>> g.play(play)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from big2.bots.base import BOT_LEVELS, Bot, register_bot
from big2.cards import Mask
from big2.view import PlayerView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Policy = Callable[[npt.NDArray[np.int8], npt.NDArray[np.int8]], Any]
    """``policy(observation, plays) -> index of the chosen play``."""


class CallableBot(Bot):
    """Plays the legal play a *policy* picks from the encoded view.

    Args:
        policy: ``policy(observation, plays) -> int`` (see the module).
        name: the bot's name (in its repr and the terminal's seat names);
            default the policy's ``__name__``, else ``"policy"``.
        seed: seeds :attr:`rng` like any bot (the policy is not given it).

    Deterministic when the policy is: the same deal and seats give the same
    plays. NumPy is imported when the first CallableBot is made, not with
    :mod:`big2.bots`.
    """

    name = "policy"

    def __init__(self, policy: Policy, name: str | None = None, seed: int | None = None,
                 **options: Any) -> None:
        if not callable(policy):
            raise TypeError(f"policy must be callable, not {type(policy).__name__}")
        super().__init__(seed=seed, **options)
        from big2.observation import card_vectors, encode_view

        self._encode = encode_view
        self._vectors = card_vectors
        self.policy = policy
        self.name = name or getattr(policy, "__name__", None) or "policy"

    def choose(self, view: PlayerView) -> Mask:
        """The legal play at the index the policy returns."""
        legal = view.legal
        if not legal:
            raise ValueError(f"{self.name}: seat {view.seat} has no legal play (it is not to move)")
        choice = self.policy(self._encode(view), self._vectors(legal))
        if not _is_index(choice) or not 0 <= choice < len(legal):
            raise ValueError(f"policy {self.name!r} returned {choice!r}; expected the index of one "
                             f"of the {len(legal)} legal plays (an int from 0 to {len(legal) - 1})")
        return legal[int(choice)]

    def __repr__(self) -> str:
        return f"<CallableBot {self.name!r} seed={self.seed}>"


def _is_index(value: object) -> bool:
    """An int or NumPy integer, not a bool."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    import numpy as np

    return isinstance(value, np.integer)


def register_policy(name: str, policy: Policy) -> None:
    """Make *policy* playable as the bot *name*: ``make_bot(name, seed=...)``
    then gives a :class:`CallableBot` of it (seat options, such as the arena's
    ``name:key=value``, go to the bot's ``options``). A bot name already
    registered is replaced; a level name (``easy`` … of
    :data:`~big2.bots.BOT_LEVELS`) is refused, as :func:`~big2.bots.make_bot`
    reads it as its level's bot.

    >>> from big2.bots import make_bot
    >>> register_policy("first-play", lambda observation, plays: 0)
    >>> make_bot("first-play", seed=2)
    <CallableBot 'first-play' seed=2>
    """
    if name in BOT_LEVELS:
        raise ValueError(f"{name!r} is a bot level (it plays {BOT_LEVELS[name]!r}); "
                         "choose another name for the policy")
    if not callable(policy):
        raise TypeError(f"policy must be callable, not {type(policy).__name__}")

    def factory(seed: int | None = None, **options: Any) -> CallableBot:
        return CallableBot(policy, name=name, seed=seed, **options)

    register_bot(name, factory)


PolicyBot = CallableBot
""":class:`CallableBot`'s name before issue 54 (beside ``policy-net``'s
:class:`~big2.bots.policy.net.PolicyNetBot` it read as the network's bot),
kept so that old imports work."""


__all__ = ["CallableBot", "register_policy"]
