""":class:`~big2.env.vector.VectorEnv` on the compiled core: :class:`NativeVectorEnv`.

``VectorEnv(...)`` builds one of these by itself when it can — self-play
(no ``opponents``), ``"hand"`` actions, one process, and a rule set
:func:`~big2.env.native_games.native_games_reason` accepts — unless it is
asked for ``engine="python"``. It has the same Gymnasium API, spaces,
rewards, same-step autoreset with ``infos["final_obs"]``, chosen hands and
errors as the Python-backed env; the games are stepped by
:class:`~big2.env.native_games.NativeGames` into buffers allocated once.

Two differences, both of the deals and not of the rules: a seed gives other
deals than the Python env's (the core has its own random stream), and there
are no :class:`~big2.game.Game` objects behind it (:meth:`NativeVectorEnv.hands`
gives the hands).

>>> from big2.env import VectorEnv
>>> venv = VectorEnv(8, "classic", seed=3)
>>> type(venv).__name__, type(VectorEnv(8, "classic", engine="python")).__name__
('NativeVectorEnv', 'VectorEnv')
>>> obs, infos = venv.reset()
>>> obs, rewards, term, trunc, infos = venv.step(venv.sample(np.random.default_rng(0)))
>>> obs["observation"].shape, obs["action_mask"].dtype, rewards.shape
((8, 635), dtype('bool'), (8,))
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from big2.env.batch import LegalPlays, Stepped
from big2.env.native_games import NativeGames
from big2.env.reset_options import check_options
from big2.env.vector import Obs, VectorEnv
from big2.game import Game


class NativeVectorEnv(VectorEnv):
    """A :class:`~big2.env.vector.VectorEnv` whose games the compiled core steps."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.pop("engine", None)
        super().__init__(*args, **kwargs)
        self._nat = NativeGames(self.num_envs, self.rules, seed=self._seed,
                                illegal=self.illegal, illegal_reward=self.illegal_reward)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """As :meth:`VectorEnv.reset <big2.env.vector.VectorEnv.reset>`."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        deals = check_options(options, self.num_envs, self.num_players, self.hand_actions.hand)
        super(VectorEnv, self).reset(seed=None if seed is None else int(seed))  # Gymnasium's
        if seed is not None:
            self._seed = int(seed)
        self._nat.reset(self._seed)
        if deals is not None:
            which = np.array([d is not None for d in deals])
            hands = np.zeros((self.num_envs, self.num_players), np.uint64)
            for i, d in enumerate(deals):
                if d is not None:
                    hands[i] = d
            self._nat.deal(hands, which)
        self._deals = 0
        return self._observe(), {}

    def step(self, actions: npt.ArrayLike) -> tuple[
            Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
            dict[str, Any]]:
        """As :meth:`VectorEnv.step <big2.env.vector.VectorEnv.step>`."""
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        nat = self._nat
        actor = nat.to_move.copy()
        _, done = nat.step(actions)  # NativeGames.step checks them: shape, type, range, legality
        finals = np.flatnonzero(done)
        stepped = Stepped(cast(Any, None), nat.rewards(self._reward), done.copy(),
                          nat.illegal.copy(), 0, finals.astype(np.int64),
                          nat.final_observation[finals])
        self._deals = nat.deals
        return self._observe(), *stepped.results(actor, self.num_actions)

    def _observe(self) -> Obs:
        nat = self._nat
        self._obs = {"observation": nat.observation.copy(), "to_move": nat.to_move.copy(),
                     "action_mask": nat.action_mask.copy()}
        return self._obs

    @property
    def games(self) -> list[Game]:
        """Not here: the core keeps no :class:`~big2.game.Game` (see :meth:`hands`)."""
        raise RuntimeError("a native VectorEnv keeps no Game objects: use hands(), or "
                           "VectorEnv(..., engine='python')")

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand in every game, ``(N, players)`` card masks."""
        return self._nat.hands()

    def legal_ids(self) -> list[npt.NDArray[np.int64]]:
        """Each game's legal action ids, in the engine's order."""
        return self._nat.legal_ids()

    def legal_plays(self) -> LegalPlays:
        """Each game's legal plays as card vectors with their ids."""
        return LegalPlays(*self._nat.legal_plays())

    def sample(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per game."""
        return self._nat.sample(rng)

    def decode(self, games: npt.NDArray[np.intp], ids: npt.NDArray[np.int64]
               ) -> npt.NDArray[np.uint64]:
        """The card masks action *ids* name in *games*."""
        return self._nat.decode(games, ids)


__all__ = ["NativeVectorEnv"]
