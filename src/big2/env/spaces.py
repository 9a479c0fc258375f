"""Gymnasium spaces the environments share: one action-mask dtype (``bool``)
everywhere, and the vector env's observation space.

Every environment of :mod:`big2.env` gives its legal actions as a ``bool``
mask (``True`` = legal). Gymnasium's own :meth:`Discrete.sample
<gymnasium.spaces.Discrete.sample>` takes only ``int8`` masks, so the action
spaces here are :class:`ActionSpace`, a :class:`~gymnasium.spaces.Discrete`
whose ``sample(mask)`` also takes the environments' ``bool`` masks (PettingZoo's
API test and agents that call ``action_space.sample(obs["action_mask"])``
work as they are).

Requires ``gymnasium`` (``pip install big2[rl]``).

>>> space = ActionSpace(5)
>>> int(space.sample(np.array([False, False, True, False, False])))
2
>>> sorted(observation_space(2380, 4).spaces)
['action_mask', 'observation', 'to_move']
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector.utils import batch_space

from big2.observation import OBS_SIZE

MASK_DTYPE = np.bool_
"""The action masks' dtype in every environment of :mod:`big2.env`."""


class ActionSpace(gymnasium.spaces.Discrete):
    """``Discrete(n)`` whose :meth:`sample` takes a ``bool`` action mask (the
    environments' dtype) as well as Gymnasium's ``int8`` one."""

    def sample(self, mask: npt.NDArray[Any] | None = None,
               probability: npt.NDArray[Any] | None = None) -> np.int64:
        """A random action, among the ``True`` (or 1) entries of *mask* when
        given (Gymnasium's :meth:`~gymnasium.spaces.Discrete.sample` otherwise)."""
        if mask is not None and isinstance(mask, np.ndarray) and mask.dtype == np.bool_:
            mask = mask.view(np.int8)
        return super().sample(mask=mask, probability=probability)


class BatchedSpaces:
    """``observation_space`` and ``action_space`` of a vector env, batched from
    its ``single_*`` spaces over ``num_envs`` on first use (a batch of
    202,204-entry masks is large), or as set."""

    num_envs: int
    single_observation_space: gymnasium.spaces.Space[Any]
    single_action_space: gymnasium.spaces.Space[Any]
    _batched_obs: gymnasium.spaces.Space[Any] | None = None
    _batched_act: gymnasium.spaces.Space[Any] | None = None

    @property
    def observation_space(self) -> gymnasium.spaces.Space[Any]:
        """The batched observation space (N games)."""
        if self._batched_obs is None:
            self._batched_obs = batch_space(self.single_observation_space, self.num_envs)
        return self._batched_obs

    @observation_space.setter
    def observation_space(self, space: gymnasium.spaces.Space[Any]) -> None:
        self._batched_obs = space

    @property
    def action_space(self) -> gymnasium.spaces.Space[Any]:
        """The batched action space (``MultiDiscrete`` of N ``Discrete`` sizes)."""
        if self._batched_act is None:
            self._batched_act = batch_space(self.single_action_space, self.num_envs)
        return self._batched_act

    @action_space.setter
    def action_space(self, space: gymnasium.spaces.Space[Any]) -> None:
        self._batched_act = space


def mask_space(num_actions: int) -> gymnasium.spaces.Box:
    """The space of one action mask: ``bool`` of *num_actions*."""
    # Box takes a bool dtype (its stubs list only numbers)
    return gymnasium.spaces.Box(0, 1, (num_actions,), MASK_DTYPE)  # type: ignore[arg-type]


def observation_space(num_actions: int, players: int) -> gymnasium.spaces.Dict:
    """One game's observation in :class:`~big2.env.vector.VectorEnv`: the
    ``int8`` vector of :mod:`big2.observation` (``observation``), the ``bool``
    mask of legal ids (``action_mask``) and the observing seat (``to_move``)."""
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(0, 1, (OBS_SIZE,), np.int8),
        "action_mask": mask_space(num_actions),
        "to_move": gymnasium.spaces.Discrete(players),
    })


__all__ = ["MASK_DTYPE", "ActionSpace", "BatchedSpaces", "mask_space", "observation_space"]
