"""Batched pieces of :class:`big2.env.vector.VectorEnv`: what one refresh of
N games leaves (:class:`Batch`), and the observation of each game's seat to
move built for all games at once (:func:`~big2.observation.observe_batch`,
re-exported)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from big2.observation import observe_batch


class Batch(NamedTuple):
    """What one refresh leaves: the observations and every game's legal plays."""

    observation: npt.NDArray[np.int8]
    to_move: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    ids: npt.NDArray[np.int64]
    plays: npt.NDArray[np.uint64]
    mover_hand: npt.NDArray[np.uint64]

    @staticmethod
    def join(parts: Sequence[Batch]) -> Batch:
        """One batch of the games of *parts*, in order."""
        return Batch(*(np.concatenate([getattr(p, f) for p in parts]) for f in Batch._fields))


__all__ = ["Batch", "observe_batch"]
