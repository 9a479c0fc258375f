"""The learned evaluator: Q(state, play) as a small NumPy network.

A play's score is a multilayer perceptron over the pair's features
(:func:`pair_features`): the seat's observation (:mod:`big2.observation`),
the play's 52 card bits, and the cards the seat has not seen (not in its
hand, not played, not the face-up spare). The network was trained by
self-play (:mod:`big2.learn`) to predict the seat's final score, divided by
:data:`SCORE_SCALE`, after making that play. Inference needs NumPy alone.

Weights are an ``.npz`` of ``w0, b0, w1, b1, …`` (float16 or float32) with
metadata entries ``meta_*``; :func:`load` reads one and :meth:`QNet.save`
writes one.

>>> import numpy as np
>>> net = QNet.random(np.random.default_rng(0), hidden=(8,))
>>> from big2 import Game
>>> from big2.observation import encode_game, card_vectors
>>> g = Game(seed=1)
>>> x = pair_features(encode_game(g, g.to_move)[None], card_vectors(g.legal_masks())[None])
>>> net(x.reshape(-1, FEATURES)).shape == (len(g.legal_masks()),)
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from big2.observation import LAYOUT, OBS_SIZE

FEATURES: Final = OBS_SIZE + 52 + 52
"""Features of one (state, play) pair: observation, play cards, unseen cards."""
SCORE_SCALE: Final = 13.0
"""Q values are final scores divided by this."""

_HAND, _PLAYED, _SPARE = LAYOUT["hand"], LAYOUT["played"], LAYOUT["spare"]

F32 = npt.NDArray[np.float32]


def unseen_cards(obs: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``(..., 52)``: the cards an observation's seat has not seen anywhere."""
    played = obs[..., _PLAYED].reshape(*obs.shape[:-1], 4, 52).sum(axis=-2)
    seen = obs[..., _HAND] + played + obs[..., _SPARE]
    out: npt.NDArray[np.int8] = (seen == 0).astype(np.int8)
    return out


def pair_features(obs: npt.NDArray[np.int8], cards: npt.NDArray[np.int8]) -> F32:
    """``(N, K, FEATURES)``: each of N observations beside each of its K plays
    (``cards`` is ``(N, K, 52)``, as :meth:`big2.env.VectorEnv.legal_plays`
    or :func:`big2.observation.card_vectors` give them)."""
    n, k, _ = cards.shape
    out = np.empty((n, k, FEATURES), dtype=np.float32)
    out[:, :, :OBS_SIZE] = obs[:, None, :]
    out[:, :, OBS_SIZE:OBS_SIZE + 52] = cards
    out[:, :, OBS_SIZE + 52:] = unseen_cards(obs)[:, None, :]
    return out


def mlp(x: F32, weights: Sequence[F32], biases: Sequence[F32]) -> F32:
    """A ReLU multilayer perceptron's output (no ReLU after the last layer)."""
    h = x
    last = len(weights) - 1
    for i, (w, b) in enumerate(zip(weights, biases)):
        h = h @ w + b
        if i < last:
            np.maximum(h, 0, out=h)
    return h


class QNet:
    """A ReLU multilayer perceptron from :data:`FEATURES` inputs to one value."""

    def __init__(self, weights: Sequence[F32], biases: Sequence[F32],
                 meta: dict[str, str] | None = None) -> None:
        if len(weights) != len(biases) or not weights:
            raise ValueError("a QNet needs one bias per weight matrix")
        if weights[0].shape[0] != FEATURES or weights[-1].shape[1] != 1:
            raise ValueError(f"a QNet maps {FEATURES} features to 1 value, not "
                             f"{weights[0].shape[0]} to {weights[-1].shape[1]}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.meta = dict(meta or {})
        """What the weights are: rules, seed, deals, wall time (strings)."""

    @classmethod
    def random(cls, rng: np.random.Generator, hidden: Sequence[int] = (256, 256)) -> QNet:
        """Untrained weights (He initialisation), for tests and a training start."""
        sizes = [FEATURES, *hidden, 1]
        ws = [(rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32)
              for a, b in itertools.pairwise(sizes)]
        return cls(ws, [np.zeros(b, np.float32) for b in sizes[1:]])

    def __call__(self, x: F32) -> F32:
        """The Q value of each row of *x* (``(M, FEATURES)``)."""
        out: F32 = mlp(x, self.weights, self.biases)[:, 0]
        return out

    def scores(self, obs: npt.NDArray[np.int8], cards: npt.NDArray[np.int8]) -> F32:
        """``(N, K)``: the Q value of each of N observations' K plays, equal to
        ``self(pair_features(obs, cards))`` but with the first layer's state
        part computed once per observation (the plays share it)."""
        w0, b0 = self.weights[0], self.biases[0]
        n, k, _ = cards.shape
        state = (obs.astype(np.float32) @ w0[:OBS_SIZE]
                 + unseen_cards(obs).astype(np.float32) @ w0[OBS_SIZE + 52:] + b0)
        plays = cards.reshape(n * k, 52).astype(np.float32) @ w0[OBS_SIZE:OBS_SIZE + 52]
        h: F32 = (plays.reshape(n, k, -1) + state[:, None, :]).reshape(n * k, -1)
        last = len(self.weights) - 1
        for i in range(1, last + 1):
            np.maximum(h, 0, out=h)
            h = h @ self.weights[i] + self.biases[i]
        out: F32 = h[:, 0].reshape(n, k)
        return out

    def save(self, path: str | Path, *, half: bool = True) -> None:
        """Write the weights (as float16 unless *half* is false) and metadata."""
        dtype = np.float16 if half else np.float32
        arrays: dict[str, npt.NDArray[np.generic]] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{i}"] = w.astype(dtype)
            arrays[f"b{i}"] = b.astype(dtype)
        for key, value in self.meta.items():
            arrays[f"meta_{key}"] = np.array(value)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load(path: str | Path) -> QNet:
    """A :class:`QNet` from an ``.npz`` written by :meth:`QNet.save`."""
    with np.load(path) as data:
        layers = sum(1 for k in data.files if k.startswith("w"))
        ws = [data[f"w{i}"].astype(np.float32) for i in range(layers)]
        bs = [data[f"b{i}"].astype(np.float32) for i in range(layers)]
        meta = {k[5:]: str(data[k]) for k in data.files if k.startswith("meta_")}
    return QNet(ws, bs, meta)


__all__ = ["FEATURES", "SCORE_SCALE", "QNet", "load", "mlp", "pair_features", "unseen_cards"]
