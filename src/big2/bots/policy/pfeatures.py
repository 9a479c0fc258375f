"""Inputs of the policy network (:mod:`big2.bots.policy.pnet`) and its critic.

Two groups of inputs, both from what one seat may know:

* **state** (:data:`STATE_FEATURES`): the observation
  (:func:`big2.observation.encode_view`), the cards the seat has not seen,
  the rule family as a one-hot over :data:`FAMILIES`, then the *shape* of
  the seat's hand (:func:`hand_shape`) and how many unseen cards each rank
  still has;
* **play** (:data:`PLAY_FEATURES`, one row per legal play): the play's
  cards, the cards kept after it, its size (one-hot 0..5, 0 for a pass),
  then its rank counts, its top rank, its five-card kind (flush, five
  ranks, full house, four of a kind), the shape of the hand it leaves,
  how many unseen cards and unseen pairs rank above its top card, then
  the heuristic's reading of it (:data:`HINTS` columns the caller fills,
  :func:`big2.bots.policy.phint.hints`): whether it is the play the ``heuristic``
  bot would make, and what the heuristic's hand planner makes of it.

The engineered columns (everything after the raw card vectors) are sums and
comparisons a network can learn from the raw cards, but slowly: a network
trained to imitate the ``heuristic`` bot on the same 400,000 decisions
reached 74% top-1 agreement without them and 79% with them (see
docs/bots.md). They come *after* the raw columns, so weights trained
without them are the same function with zero weights on them
(:func:`widen`).

"Above" compares card indices (3♦ = 0 … 2♠ = 51, the classic order); under
other suit or rank orders the network reads it through the family input.

>>> import numpy as np
>>> from big2.observation import card_vectors
>>> cards = card_vectors([0b1, 0b110000])  # 3♦; the pair 4♦ 4♣
>>> unseen = card_vectors([(1 << 52) - 1 - 0b110001] * 2)  # all but those three
>>> f = play_features(cards, cards, unseen)  # each play is the whole hand
>>> f.shape == (2, PLAY_FEATURES)
True
>>> [int(round(x * 13)) for x in f[:, ABOVE]]  # unseen cards above 3♦, above 4♣
[49, 46]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from big2.observation import LAYOUT, OBS_SIZE

_HAND, _PLAYED, _SPARE = LAYOUT["hand"], LAYOUT["played"], LAYOUT["spare"]
F32 = npt.NDArray[np.float32]


def unseen_cards(obs: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``(..., 52)``: the cards an observation's seat has not seen anywhere
    (:attr:`big2.view.PlayerView.unseen` read off the encoded observation)."""
    played = obs[..., _PLAYED].reshape(*obs.shape[:-1], 4, 52).sum(axis=-2)
    seen = obs[..., _HAND] + played + obs[..., _SPARE]
    out: npt.NDArray[np.int8] = (seen == 0).astype(np.int8)
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

FAMILIES: Final = ("classic", "selfplay-2018")
"""Rule families the network is told apart by (a one-hot input); any other
rule set the observation can hold is read as ``classic``."""
SHAPE: Final = 13 + 4 + 4 + 1
"""Columns of :func:`hand_shape`."""
RAW_STATE: Final = OBS_SIZE + 52 + len(FAMILIES)
"""State inputs before the engineered ones (the first network's inputs)."""
STATE_FEATURES: Final = RAW_STATE + SHAPE + 13
"""Inputs of the state embedding."""
RAW_PLAY: Final = 52 + 52 + 6
"""Play inputs before the engineered ones."""
ABOVE: Final = RAW_PLAY + 13 + 13 + 4 + SHAPE
"""Column of a play's "unseen cards above its top card" (/13); the next
column counts unseen pairs of a rank above its top rank (/13)."""
HINT: Final = ABOVE + 2
"""First of the hint columns (:mod:`big2.bots.policy.phint`): the heuristic's choice
(1 on the play the ``heuristic`` bot would make), then the planner's reading
(:func:`big2.bots.policy.phint.plan_hints`). The inputs before it are the second
network's; the third read the choice alone."""
HINTS: Final = 4
"""Hint columns."""
PLAY_FEATURES: Final = HINT + HINTS
"""Inputs per play."""

I8 = npt.NDArray[np.int8]


def _rank_counts(v: I8) -> npt.NDArray[np.int16]:
    out: npt.NDArray[np.int16] = v.reshape(len(v), 13, 4).sum(axis=2, dtype=np.int16)
    return out


def hand_shape(hands: I8) -> F32:
    """``(N, SHAPE)`` of N card vectors: each rank's count (/4), how many
    ranks hold exactly 1, 2, 3 and 4 cards (/13), each suit's count (/13)
    and the size (/13)."""
    n = len(hands)
    rc = _rank_counts(hands)
    out = np.empty((n, SHAPE), dtype=np.float32)
    out[:, :13] = rc / 4
    for k in range(1, 5):
        out[:, 12 + k] = (rc == k).sum(axis=1) / 13
    out[:, 17:21] = hands.reshape(n, 13, 4).sum(axis=1) / 13
    out[:, 21] = hands.sum(axis=1) / 13
    return out


def state_features(obs: I8, family: int | npt.NDArray[np.integer]) -> F32:
    """``(N, STATE_FEATURES)`` from N observations and each one's family index."""
    obs = np.atleast_2d(obs)
    n = obs.shape[0]
    unseen = unseen_cards(obs)
    out = np.zeros((n, STATE_FEATURES), dtype=np.float32)
    out[:, :OBS_SIZE] = obs
    out[:, OBS_SIZE:OBS_SIZE + 52] = unseen
    out[np.arange(n), OBS_SIZE + 52 + np.broadcast_to(np.asarray(family), (n,))] = 1
    out[:, RAW_STATE:RAW_STATE + SHAPE] = hand_shape(obs[:, _HAND])
    out[:, RAW_STATE + SHAPE:] = _rank_counts(unseen) / 4
    return out


def play_features(cards: I8, hands: I8, unseen: I8, hint: F32 | None = None) -> F32:
    """``(P, PLAY_FEATURES)`` from P plays' card vectors, the hand each is
    played from and the cards unseen by its player (``(P, 52)`` each), and
    their hint columns (``(P, HINTS)``, :func:`big2.bots.policy.phint.hints`, or
    ``(P,)``: the heuristic's choice alone; zero when not given)."""
    p = cards.shape[0]
    rows = np.arange(p)
    out = np.zeros((p, PLAY_FEATURES), dtype=np.float32)
    out[:, :52] = cards
    out[:, 52:104] = hands - cards
    size = cards.sum(axis=1, dtype=np.int64)
    out[rows, 104 + np.minimum(size, 5)] = 1
    rc = _rank_counts(cards)
    at = RAW_PLAY
    out[:, at:at + 13] = rc
    has = size > 0
    top = np.where(has, 51 - np.argmax(cards[:, ::-1], axis=1), 51)
    top_rank = top // 4
    out[rows[has], at + 13 + top_rank[has]] = 1
    five = size == 5
    kinds = at + 26
    out[:, kinds] = five & (cards.reshape(p, 13, 4).sum(axis=1).max(axis=1) == 5)
    out[:, kinds + 1] = five & ((rc > 0).sum(axis=1) == 5)
    out[:, kinds + 2] = five & (rc.max(axis=1) == 3)
    out[:, kinds + 3] = five & (rc.max(axis=1) == 4)
    out[:, kinds + 4:ABOVE] = hand_shape(hands - cards)
    # unseen cards at an index above the top card; unseen pairs of a higher rank
    from_here = np.cumsum(unseen[:, ::-1], axis=1, dtype=np.int16)[:, ::-1]
    above = np.where(top < 51, from_here[rows, np.minimum(top + 1, 51)], 0)
    out[:, ABOVE] = np.where(has, above, 0) / 13
    pairs = np.cumsum((_rank_counts(unseen) >= 2)[:, ::-1], axis=1, dtype=np.int16)[:, ::-1]
    higher = np.where(top_rank < 12, pairs[rows, np.minimum(top_rank + 1, 12)], 0)
    out[:, ABOVE + 1] = np.where(has, higher, 0) / 13
    if hint is not None:
        hint = np.asarray(hint)
        out[:, HINT:HINT + (hint.shape[1] if hint.ndim == 2 else 1)] = hint.reshape(p, -1)
    return out


def widen_play(w: npt.NDArray[np.floating], axis: int = 0) -> npt.NDArray[np.floating]:
    """Play-input weights *w* of any earlier network (the raw inputs only, or
    fewer hint columns) widened to :data:`PLAY_FEATURES` with zero weights on
    the new inputs: the same function of the inputs it had."""
    if w.shape[axis] == RAW_PLAY:
        w = widen(w, HINT, RAW_PLAY, HINT, axis=axis)
    have = w.shape[axis]
    if HINT <= have < PLAY_FEATURES:
        return widen(w, PLAY_FEATURES, have, PLAY_FEATURES, axis=axis)
    return widen(w, PLAY_FEATURES, HINT, PLAY_FEATURES, axis=axis)


def widen(w: npt.NDArray[np.floating], inputs: int, raw: int, full: int, at: int | None = None,
          axis: int = 0) -> npt.NDArray[np.floating]:
    """Weights *w* for *inputs* inputs along *axis*, given as the first
    network's *raw* inputs, widened to *full* with zero weights inserted at
    *at* (default: after the raw ones) — the same function of the raw inputs.
    *w* is returned unchanged when it already has *inputs* rows."""
    have = w.shape[axis]
    if have == inputs:
        return w
    if have != inputs - (full - raw):
        raise ValueError(f"weights take {have} inputs, not {inputs} (or {inputs - full + raw} "
                         "from before the engineered features)")
    shape = list(w.shape)
    shape[axis] = full - raw
    return np.concatenate([np.take(w, range(raw if at is None else at), axis=axis),
                           np.zeros(shape, dtype=w.dtype),
                           np.take(w, range(raw if at is None else at, have), axis=axis)],
                          axis=axis)


__all__ = [
    "ABOVE",
    "FAMILIES",
    "HINT",
    "HINTS",
    "PLAY_FEATURES",
    "RAW_PLAY",
    "RAW_STATE",
    "SHAPE",
    "STATE_FEATURES",
    "hand_shape",
    "mlp",
    "play_features",
    "state_features",
    "unseen_cards",
    "widen",
    "widen_play",
]
