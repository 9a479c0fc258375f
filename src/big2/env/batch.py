"""Batched pieces of :class:`big2.env.vector.VectorEnv`: what one refresh of
N games leaves (:class:`Batch`), and the observation of each game's seat to
move built for all games at once (:func:`observe_batch`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from big2.observation import LAYOUT, MAX_COUNT, OBS_SIZE, card_vectors

_COUNT_W: Final = MAX_COUNT + 1
_O: Final = {name: s.start for name, s in LAYOUT.items()}


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


def observe_batch(num: npt.NDArray[np.int64], hands: npt.NDArray[np.uint64],
                  mover: npt.NDArray[np.int64], mover_hand: npt.NDArray[np.uint64],
                  spares: npt.NDArray[np.uint64]) -> npt.NDArray[np.int8]:
    """The observation of the seat to move in each of N games, equal to
    :func:`~big2.observation.encode_game` for that seat, built for all games
    at once.

    *num* is ``(N, 8 + 2n)``: :meth:`~big2.game.Game.numbers`, then the n
    hands, then the cards each seat has played; *hands* its hands columns
    as ``uint64``; *mover* the seat to move; *mover_hand* its hand;
    *spares* the face-up spare card of each game (or zeros).
    """
    n_env, n = hands.shape
    o = _O
    rows = np.arange(n_env)[:, None]
    rel_seats = (mover[:, None] + np.arange(n)) % n  # (N, n): absolute seat of relative k
    played = num[:, 8 + n:8 + 2 * n].astype(np.uint64)[rows, rel_seats]
    words = np.zeros((n_env, 8), dtype=np.uint64)
    words[:, 0] = mover_hand
    words[:, 1:1 + n] = played
    words[:, 5] = num[:, 2].astype(np.uint64)  # the play to beat
    words[:, 6] = num[:, 6].astype(np.uint64)  # the mover's must-contain card
    words[:, 7] = spares
    bits = card_vectors(words.reshape(-1)).reshape(n_env, 8, 52)
    out = np.zeros((n_env, OBS_SIZE), dtype=np.int8)
    out[:, o["hand"]:o["hand"] + 52] = bits[:, 0]
    out[:, o["played"]:o["played"] + 52 * 4] = bits[:, 1:5].reshape(n_env, 208)
    out[:, o["last_play"]:o["last_play"] + 52] = bits[:, 5]
    out[:, o["must_contain"]:o["must_contain"] + 52] = bits[:, 6]
    out[:, o["spare"]:o["spare"] + 52] = bits[:, 7]
    r = rows[:, 0]
    k = np.arange(n)
    counts = np.bitwise_count(hands[rows, rel_seats]).astype(np.int64)  # (N, n)
    out[rows, o["count"] + _COUNT_W * k + counts] = 1
    passed = (num[:, 4:5] >> rel_seats) & 1
    out[:, o["passed"]:o["passed"] + n] = passed
    last_player, kind, leader = num[:, 1], num[:, 3], num[:, 5]
    following = last_player >= 0
    f = r[following]
    out[f, o["last_kind"] + kind[following] - 1] = 1
    out[f, o["last_player"] + (last_player[following] - mover[following]) % n] = 1
    out[r[~following], o["leading"]] = 1
    led = leader >= 0
    out[r[led], o["trick_leader"] + (leader[led] - mover[led]) % n] = 1
    out[:, o["to_move"]] = 1  # the observer is the seat to move
    out[:, o["players"] + n - 2] = 1
    out[r, o["stock"] + num[:, 7]] = 1
    return out


__all__ = ["Batch", "observe_batch"]
