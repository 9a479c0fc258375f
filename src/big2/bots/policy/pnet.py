"""The policy network: a softmax over the legal plays, in NumPy.

The network that the PPO trainer (:mod:`big2.learn.ppo`) trains, ``policy-net``
plays alone and the levels ``hard`` and ``expert`` search with. It reads one seat's observation only — what
:func:`big2.observation.encode_view` gives — and scores each legal play
against an embedding of that observation computed once per decision:

* **state** (:data:`STATE_FEATURES` inputs, :func:`~big2.bots.policy.pfeatures.state_features`):
  the observation, the cards the seat has not seen, the rule family and
  the shape of the hand; two ReLU layers give the embedding ``h``;
* **play** (:data:`PLAY_FEATURES` inputs, :func:`~big2.bots.policy.pfeatures.play_features`):
  the play's cards, the cards the seat keeps after it, its size, kind and
  top rank, the shape of the hand it leaves, the unseen cards above it and
  whether the ``heuristic`` bot would make it (:mod:`big2.bots.policy.phint`);
* **score**: ``v · relu(C · relu(A h + B p + c) + e)`` for each play ``p``.
  The per-play work is two small layers, so a decision costs about one
  state embedding however many plays there are.

The probabilities are the softmax of the scores over the legal plays. The
critic the trainer pairs with it sees every hand, but it is a separate
network that never ships in the actor's weights: this module has no input
for a hidden card.

Weights are an ``.npz`` of named float arrays (``s0_w``, ``s0_b``, ``s1_w``,
``s1_b``, ``a_w``, ``b_w``, ``b_b``, ``c_w``, ``c_b``, ``v_w``) and
``meta_*`` strings.

>>> import numpy as np
>>> from big2 import Game
>>> from big2.observation import encode_game, card_vectors
>>> net = PolicyNet.random(np.random.default_rng(0))
>>> g = Game(seed=1)
>>> obs = encode_game(g, g.to_move)
>>> plays = card_vectors(g.legal_masks())
>>> p = net.probabilities(obs, plays)
>>> p.shape == (len(plays),), bool(abs(p.sum() - 1) < 1e-5)
(True, True)
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from big2.bots.policy.pfeatures import (
    FAMILIES,
    PLAY_FEATURES,
    RAW_STATE,
    STATE_FEATURES,
    mlp,
    play_features,
    state_features,
    unseen_cards,
    widen,
    widen_play,
)
from big2.bots.policy.phint import hints
from big2.observation import LAYOUT, card_vectors
from big2.rules import Rules

WEIGHTS_DIR: Final = Path(__file__).parent / "weights"
"""Where the shipped networks are."""
SCORE_SCALE: Final = 13.0
"""Values (the critic's, the trainer's returns) are scores divided by this."""
NAMES: Final = ("s0_w", "s0_b", "s1_w", "s1_b", "a_w", "b_w", "b_b", "c_w", "c_b", "v_w")
"""The weight arrays, in order."""

_HAND = LAYOUT["hand"]
F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]


def family_index(name: str | None) -> int:
    """The family input of a preset name (``classic`` for any other)."""
    return FAMILIES.index(name) if name in FAMILIES else 0


def sample_plays(net: PolicyNet, obs: I8, family: npt.NDArray[np.integer], cards: I8,
                 counts: npt.NDArray[np.integer], rng: np.random.Generator,
                 greedy: bool = False, rules: Rules | None = None, hint: F32 | None = None,
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Each row's chosen play index (sampled, or the argmax when *greedy*)
    and its log-probability (the heuristic's hints played by *rules*, else
    by each family's preset, unless given: see :meth:`PolicyNet.logits_batch`)."""
    logits = net.logits_batch(obs, family, cards, counts, rules, hint)
    top = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - top)
    total = e.sum(axis=1, keepdims=True)
    if greedy:
        pick = logits.argmax(axis=1)
    else:
        u = rng.random((len(obs), 1)) * total
        pick = np.minimum((np.cumsum(e, axis=1) < u).sum(axis=1), np.asarray(counts) - 1)
    rows = np.arange(len(obs))
    logp = (logits[rows, pick] - top[:, 0] - np.log(total[:, 0])).astype(np.float32)
    return pick.astype(np.int64), logp


def hidden_hands(hands: Any, movers: npt.NDArray[np.integer]) -> I8:
    """``(N, 156)``: the hands of the three seats after each mover (relative
    order; zero rows where the table is smaller). *hands*: ``(N, players)``
    card masks (as ``VectorEnv.hands()`` gives them), or N games."""
    if isinstance(hands, list):
        hands = np.array([g.hands for g in hands], dtype=np.uint64).reshape(len(hands), -1)
    hands = np.asarray(hands, dtype=np.uint64)
    n_env, n = hands.shape
    out = np.zeros((n_env, 3, 52), dtype=np.int8)
    if n_env == 0:
        return out.reshape(0, 156)
    masks = np.zeros((n_env, 3), dtype=np.uint64)
    rows, m = np.arange(n_env), np.asarray(movers, dtype=np.int64)
    for k in range(1, n):
        masks[:, k - 1] = hands[rows, (m + k) % n]
    out[:] = card_vectors(masks.reshape(-1)).reshape(n_env, 3, 52)
    return out.reshape(n_env, 156)


def pad_plays(flat: list[int], counts: list[int]) -> tuple[I8, npt.NDArray[np.int64]]:
    """Several positions' legal plays, given one after another (*flat*, with
    *counts* per position), as ``(N, K, 52)`` card vectors padded with zero
    rows, and the counts as an array."""
    cnt = np.array(counts, dtype=np.int64)
    n, k = len(cnt), int(cnt.max()) if len(cnt) else 0
    which = np.repeat(np.arange(n), cnt)
    slot = np.arange(len(flat)) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    cards = np.zeros((n, k, 52), dtype=np.int8)
    cards[which, slot] = card_vectors(flat)
    return cards, cnt


class PolicyNet:
    """The actor: scores legal plays from one seat's observation (see the module docstring)."""

    def __init__(self, arrays: dict[str, npt.NDArray[np.floating]],
                 meta: dict[str, str] | None = None) -> None:
        missing = [k for k in NAMES if k not in arrays]
        if missing:
            raise ValueError(f"policy weights lack {', '.join(missing)}")
        self.w = {k: np.ascontiguousarray(arrays[k], dtype=np.float32) for k in NAMES}
        try:  # weights from before the engineered features read them with zero weights
            self.w["s0_w"] = widen(self.w["s0_w"], STATE_FEATURES, RAW_STATE, STATE_FEATURES)
            self.w["b_w"] = widen_play(self.w["b_w"])
        except ValueError as exc:
            raise ValueError(f"policy weights do not fit this network: {exc}") from None
        self.meta = dict(meta or {})
        """What the weights are: rules, steps, deals, wall time (strings)."""

    @classmethod
    def random(cls, rng: np.random.Generator, hidden: int = 256, pair: int = 128,
               pair2: int = 64) -> PolicyNet:
        """Untrained weights (He initialisation), for tests."""
        def lin(a: int, b: int) -> F32:
            out: F32 = (rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32)
            return out

        return cls({"s0_w": lin(STATE_FEATURES, hidden), "s0_b": np.zeros(hidden, np.float32),
                    "s1_w": lin(hidden, hidden), "s1_b": np.zeros(hidden, np.float32),
                    "a_w": lin(hidden, pair), "b_w": lin(PLAY_FEATURES, pair),
                    "b_b": np.zeros(pair, np.float32), "c_w": lin(pair, pair2),
                    "c_b": np.zeros(pair2, np.float32), "v_w": lin(pair2, 1)[:, 0]})

    def embed(self, state: F32) -> F32:
        """``(N, pair)``: each state's embedding projected for the play scorer."""
        w = self.w
        h = np.maximum(state @ w["s0_w"] + w["s0_b"], 0)
        h = np.maximum(h @ w["s1_w"] + w["s1_b"], 0)
        out: F32 = h @ w["a_w"]
        return out

    def score_pairs(self, embedded: F32, rows: npt.NDArray[np.intp], plays: F32) -> F32:
        """``(P,)``: the score of each play row against ``embedded[rows]``."""
        w = self.w
        z = np.maximum(embedded[rows] + plays @ w["b_w"] + w["b_b"], 0)
        z = np.maximum(z @ w["c_w"] + w["c_b"], 0)
        out: F32 = z @ w["v_w"]
        return out

    def logits_batch(self, obs: I8, family: npt.NDArray[np.integer], cards: I8,
                     counts: npt.NDArray[np.integer], rules: Rules | None = None,
                     hint: F32 | None = None) -> F32:
        """``(N, K)``: the scores of N observations' plays (``cards`` is
        ``(N, K, 52)``, rows past ``counts[i]`` padding, scored ``-inf``).
        The heuristic's hints (inputs) are played by *rules*, else by each
        family's preset; *hint* gives them instead (``(P, HINTS)``, the
        plays in order, as :func:`big2.bots.policy.phint.hints` makes them)."""
        n, k, _ = cards.shape
        counts = np.asarray(counts)
        valid = np.arange(k)[None, :] < counts[:, None]
        rows, slots = np.nonzero(valid)
        hands = obs[:, _HAND]
        flat = cards[rows, slots]
        if hint is None:
            hint = hints(obs, family, flat, counts, rules)
        feats = play_features(flat, hands[rows], unseen_cards(obs)[rows], hint)
        emb = self.embed(state_features(obs, family))
        out = np.full((n, k), -np.inf, dtype=np.float32)
        out[rows, slots] = self.score_pairs(emb, rows, feats)
        return out

    def probabilities(self, obs: I8, plays: I8, family: int = 0,
                      rules: Rules | None = None) -> F32:
        """``(K,)``: the policy over one observation's K plays (``(K, 52)``),
        at a table with *rules* (default: the family's preset)."""
        logits = self.logits_batch(obs[None], np.array([family]), plays[None],
                                   np.array([len(plays)]), rules)[0]
        e = np.exp(logits - logits.max())
        out: F32 = e / e.sum()
        return out

    def save(self, path: str | Path, *, half: bool = True) -> None:
        """Write the weights (float16 unless *half* is false) and metadata."""
        dtype = np.float16 if half else np.float32
        arrays: dict[str, npt.NDArray[np.generic]] = {k: v.astype(dtype) for k, v in self.w.items()}
        for key, value in self.meta.items():
            arrays[f"meta_{key}"] = np.array(value)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


class ValueNet:
    """The trainer's critic in NumPy: a seat's expected final score (divided
    by :data:`SCORE_SCALE`) from its state features *and the other hands*.

    It needs the hidden hands, so it is for positions where they are known:
    the determinized worlds a search samples, never a real table's truth.
    """

    def __init__(self, weights: list[F32], biases: list[F32],
                 meta: dict[str, str] | None = None) -> None:
        if not weights:
            raise ValueError("a ValueNet needs at least one layer")
        self.meta = dict(meta or {})
        """Where the weights come from (the same fields as :attr:`PolicyNet.meta`)."""
        try:  # weights from before the engineered features: zero rows for them
            weights = [widen(weights[0], STATE_FEATURES + 3 * 52, RAW_STATE, STATE_FEATURES),
                       *weights[1:]]
        except ValueError as exc:
            raise ValueError(f"a ValueNet takes {STATE_FEATURES + 3 * 52} inputs: {exc}") from None
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]

    def __call__(self, state: F32, hidden: I8) -> F32:
        """``(N,)`` values of N states with the three next seats' hands (``(N, 156)``)."""
        out: F32 = mlp(np.concatenate([state, hidden.astype(np.float32)], axis=1),
                       self.weights, self.biases)[:, 0]
        return out


def load_value(path: str | Path) -> ValueNet:
    """A :class:`ValueNet` from the ``w0, b0, …`` arrays the trainer's export writes."""
    with np.load(path) as data:
        layers = sum(1 for k in data.files if k.startswith("w"))
        meta = {k[5:]: str(data[k]) for k in data.files if k.startswith("meta_")}
        return ValueNet([data[f"w{i}"] for i in range(layers)],
                        [data[f"b{i}"] for i in range(layers)], meta)


def load_policy(path: str | Path) -> PolicyNet:
    """A :class:`PolicyNet` from an ``.npz`` written by :meth:`PolicyNet.save`."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in NAMES}
        meta = {k[5:]: str(data[k]) for k in data.files if k.startswith("meta_")}
    return PolicyNet(arrays, meta)


@lru_cache(maxsize=4)
def _policy_at(path: str) -> PolicyNet:
    return load_policy(path)


@lru_cache(maxsize=4)
def _value_at(path: str) -> ValueNet:
    return load_value(path)


def cached_policy(path: str | Path | None = None) -> PolicyNet:
    """The :class:`PolicyNet` at *path* (``None``: the shipped ``policy.npz``),
    read once: the one loader every policy bot and evaluator shares."""
    return _policy_at(str(path if path is not None else WEIGHTS_DIR / "policy.npz"))


def cached_value(path: str | Path | None = None) -> ValueNet:
    """The :class:`ValueNet` at *path* (``None``: the shipped ``value.npz``), read once."""
    return _value_at(str(path if path is not None else WEIGHTS_DIR / "value.npz"))


__all__ = ["FAMILIES", "NAMES", "PLAY_FEATURES", "SCORE_SCALE", "STATE_FEATURES", "WEIGHTS_DIR",
           "PolicyNet", "ValueNet", "cached_policy", "cached_value", "family_index",
           "hidden_hands", "load_policy", "load_value",
           "pad_plays", "play_features", "sample_plays", "state_features"]
