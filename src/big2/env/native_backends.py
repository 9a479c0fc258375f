"""The compiled core's backend of :class:`~big2.env.vector.VectorEnv` (see
:mod:`big2.env.backends` for what a backend is): :class:`NativeBackend`, the
core's games in this process (:class:`~big2.env.native_games.NativeGames`), stepped
on one thread or, with ``workers=k``, split over *k* threads of the core (the GIL
released while they step; the core keeps its threads between calls).

It takes self-play games of a rule set the core plays, with ``"hand"`` actions
(:func:`native_env_reason` says what else keeps a set of settings off).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.env.batch import PaddedPlays, Stepped
from big2.env.core import IllegalMode, RewardMode
from big2.env.native_games import NativeGames, native_games_reason
from big2.env.reset_options import Deal
from big2.game import Game
from big2.rules import Rules

Obs = dict[str, npt.NDArray[Any]]
I64 = npt.NDArray[np.int64]


def native_env_reason(rules: Rules, *, opponents: object, actions: str) -> str | None:
    """What keeps these settings off the core (``None``: nothing): bots in other
    seats, an action form but ``"hand"``, or the rule set
    (:func:`~big2.env.native_games.native_games_reason`)."""
    if opponents is not None:
        return "opponents"
    if actions != "hand":
        return f"actions={actions!r}"
    return native_games_reason(rules)


class NativeBackend:
    """*num_envs* self-play games in the core, stepped on *threads* threads (see
    :class:`~big2.env.native_games.NativeGames`)."""

    def __init__(self, rules: Rules, *, reward: RewardMode, illegal: IllegalMode,
                 illegal_reward: float, num_envs: int, threads: int = 1) -> None:
        self.num_envs = num_envs
        self.reward = reward
        self.nat = NativeGames(num_envs, rules, seed=0, illegal=illegal,
                               illegal_reward=illegal_reward, threads=threads)
        self.rewards = np.zeros((num_envs, self.nat.num_players), np.float32)
        """The last step's rewards by seat."""

    def reset(self, seed: int, hands: Sequence[Deal | None] | None) -> None:
        """Deal every game afresh from *seed* (chosen *hands* where given)."""
        nat = self.nat
        nat.reset(seed)
        if hands is not None:
            which = np.array([d is not None for d in hands])
            grid = np.zeros((self.num_envs, nat.num_players), np.uint64)
            for i, d in enumerate(hands):
                if d is not None:
                    grid[i] = d
            nat.deal(grid, which)

    def advance(self, acts: I64) -> int:
        """Step the games (ids checked by the caller, or ended as illegal); the rewards
        go to :attr:`rewards`. How many deals ended."""
        before = self.nat.deals
        self.nat.play_ids(acts)
        np.copyto(self.rewards, self.nat.rewards(self.reward))
        return self.nat.deals - before

    def step(self, acts: I64) -> Stepped:
        """Play the in-range ids *acts* (the core checks them)."""
        nat = self.nat
        deals = self.advance(acts)
        finals = nat.done.nonzero()[0].astype(np.int64)
        return Stepped(None, self.rewards.copy(), nat.done.copy(),  # type: ignore[arg-type]
                       nat.illegal.copy(), deals, finals,
                       nat.final_observation.take(finals, axis=0))

    def reasons(self, games: npt.NDArray[np.intp], acts: I64) -> list[tuple[int, str]]:
        """For each of *games*, the cards its id names and why it is not legal now."""
        return self.nat.reasons(games, acts)

    @property
    def to_move(self) -> I64:
        """Each game's seat to move."""
        return self.nat.to_move

    def observe(self, out: Obs | None) -> Obs:
        """The observations: arrays of the caller's own (the core writes the next ones
        into new arrays), or (*out* given) the buffers the core rewrites each step."""
        return self.nat.hand_over() if out is None else self.nat.take_back()

    def games(self) -> list[Game]:
        """Each game rebuilt as a :class:`~big2.game.Game` (new objects, each call)."""
        return self.nat.games()

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand, ``(N, players)``."""
        return self.nat.hands()

    def legal_ids(self) -> list[I64]:
        """Each game's legal ids."""
        return [ids.copy() for ids in self.nat.legal_ids()]

    def legal_plays(self) -> PaddedPlays:
        """Each game's legal plays as card vectors."""
        return PaddedPlays(*self.nat.legal_plays())

    def sample(self, rng: np.random.Generator) -> I64:
        """A random legal id per game."""
        return self.nat.sample(rng)

    def decode(self, games: npt.NDArray[np.intp], ids: I64) -> npt.NDArray[np.uint64]:
        """The card masks of *ids* in *games*."""
        return self.nat.decode(games, ids)

    def close(self) -> None:
        """Nothing to stop: the core's threads sleep between calls and end with the games."""


__all__ = ["NativeBackend", "native_env_reason"]
