"""The policy network in the compiled core: its forward pass, and deciding in many deals at once.

``big2._policy`` (C++17, ``src/native/policy.hpp``) computes what
:class:`~big2.bots.policy.pnet.PolicyNet` computes in NumPy — the state
embedding once per decision, a score per legal play — with the weights of
a :class:`PolicyNet` (so any weights the trainer exports, in the same
``.npz`` format); NumPy stays the reference
(``tests/bots/test_policy_native.py`` checks both agree within 1e-5 on
random positions of both families). Two levels:

* :func:`logits`: the forward pass alone, from the features NumPy makes
  (:func:`~big2.bots.policy.pfeatures.state_features`,
  :func:`~big2.bots.policy.pfeatures.play_features`);
* :func:`table` and ``big2._policy.play_outs``: the features, the
  heuristic's hints and the observation computed in the core from a deal it
  steps, for the searches' policy play-out
  (:class:`big2.bots.search.policy_eval.PolicyPlayout`), batched across the
  sampled worlds (one forward pass a ply for every deal in play).

Where the extension is missing, :func:`available` is false and callers use
NumPy; where the core cannot play a rule set, :func:`table` is ``None``.

>>> import numpy as np
>>> from big2 import Game
>>> from big2.bots.policy.pnet import PolicyNet
>>> from big2.observation import card_vectors, encode_game
>>> net = PolicyNet.random(np.random.default_rng(0))
>>> g = Game(seed=1)
>>> obs, plays = encode_game(g, g.to_move)[None], card_vectors(g.legal_masks())[None]
>>> ref = net.logits_batch(obs, np.array([0]), plays, np.array([plays.shape[1]]))
>>> got = logits_batch(net, obs, np.array([0]), plays, np.array([plays.shape[1]]))
>>> not available() or bool(np.abs(got - ref).max() < 1e-5)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from big2.bots.policy import pfeatures
from big2.bots.policy.pfeatures import play_features, state_features, unseen_cards
from big2.bots.policy.phint import hints
from big2.bots.policy.pnet import SCORE_SCALE, PolicyNet, ValueNet
from big2.observation import LAYOUT, OBS_SIZE, observation_layout
from big2.rules import Rules

try:
    from big2 import _policy as _core
except ImportError:  # pragma: no cover - a source tree without the built extension
    _core = None  # type: ignore[assignment,unused-ignore]

F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]
_HAND = LAYOUT["hand"]
_NETS: dict[int, tuple[object, Any]] = {}


def available() -> bool:
    """Whether the core's forward pass is built and reads this feature layout."""
    return _core is not None and (
        _core.STATE_FEATURES, _core.PLAY_FEATURES, _core.OBS_SIZE, _core.HINT, _core.ABOVE,
        _core.RAW_STATE) == (pfeatures.STATE_FEATURES, pfeatures.PLAY_FEATURES, OBS_SIZE,
                             pfeatures.HINT, pfeatures.ABOVE, pfeatures.RAW_STATE)


def _cached(key: object, make: Any) -> Any:
    got = _NETS.get(id(key))
    if got is None or got[0] is not key:
        got = _NETS[id(key)] = (key, make())
    return got[1]


def native_net(net: PolicyNet) -> Any:
    """*net*'s weights in the core (``big2._policy.Net``), made once per network.

    Raises:
        RuntimeError: the extension is not built (see :func:`available`).
    """
    if not available():
        raise RuntimeError("big2._policy is not built for this feature layout")
    return _cached(net, lambda: _core.Net(net.w))


def native_critic(critic: ValueNet) -> Any:
    """*critic*'s layers in the core (``big2._policy.Critic``), made once per network."""
    if not available():
        raise RuntimeError("big2._policy is not built for this feature layout")
    return _cached(critic, lambda: _core.Critic(critic.weights, critic.biases))


def logits(net: PolicyNet, state: F32, plays: F32, rows: npt.NDArray[np.integer]) -> F32:
    """``(P,)``: play ``k``'s score (features ``plays[k]``) against the embedding of
    ``state[rows[k]]``, in the core: ``net.score_pairs(net.embed(state), rows, plays)``."""
    out: F32 = native_net(net).logits(state, plays, np.asarray(rows, dtype=np.int64))
    return out


def logits_batch(net: PolicyNet, obs: I8, family: npt.NDArray[np.integer], cards: I8,
                 counts: npt.NDArray[np.integer], rules: Rules | None = None,
                 hint: F32 | None = None) -> F32:
    """:meth:`PolicyNet.logits_batch` (same arguments, same values) with the forward
    pass in the core; the features are NumPy's."""
    n, k, _ = cards.shape
    counts = np.asarray(counts)
    valid = np.arange(k)[None, :] < counts[:, None]
    rows, slots = np.nonzero(valid)
    flat = cards[rows, slots]
    if hint is None:
        hint = hints(obs, family, flat, counts, rules)
    feats = play_features(flat, obs[:, _HAND][rows], unseen_cards(obs)[rows], hint)
    out = np.full((n, k), -np.inf, dtype=np.float32)
    out[rows, slots] = logits(net, state_features(obs, family), feats, rows)
    return out


def table(net: PolicyNet, config: Any, style: Any, spare: int, family: int) -> Any:
    """What a decision's deals share in the core (``big2._policy.Table``): *net*, the
    rule set's compiled ``config`` and the heuristic's ``style``
    (:mod:`big2.bots.rules_based.native`), the face-up *spare* card and the *family*."""
    return _core.Table(native_net(net), config, style, observation_layout(), spare, family)


Public = tuple[Any, list[int], int]
"""A position's public part as the core reads it beside its frame: ``(frame, each
seat's played cards, the trick's leader or -1)``."""


def decide(tab: Any, hands: Sequence[int], public: Public,
           ) -> tuple[list[int], F32, F32, F32]:
    """The seat to move's legal plays, their logits, its state features ``(1, S)`` and
    the plays' features ``(K, F)``, all computed in the core (for tests and benchmarks)."""
    frame, played, leader = public
    return _core.decide(tab, list(hands), frame, played, leader)


def play_outs(tab: Any, worlds: Sequence[Sequence[int]], public: Public, cands: Sequence[int],
              seat: int, plies: int | None, sample: bool, seed: int,
              greedy: Sequence[int], critic: ValueNet | None) -> npt.NDArray[np.float64]:
    """``(worlds, cands)``: *seat*'s value of each candidate in each world (hands by
    seat): the candidate made, every seat playing the policy for *plies* plies
    (``None``: to the end; *sample*: drawn from it with a stream seeded by
    *seed*, else its most probable play), then the heuristic to the end (the
    greedy rule at the seats in each world's *greedy* bits), or *critic*'s value
    (points). See :class:`big2.bots.search.policy_eval.PolicyPlayout`."""
    frame, played, leader = public
    return _core.play_outs(tab, [list(w) for w in worlds], frame, played, leader, list(cands),
                           seat, -1 if plies is None else plies, sample, seed, list(greedy),
                           None if critic is None else native_critic(critic), SCORE_SCALE)


__all__ = ["Public", "available", "decide", "logits", "logits_batch", "native_critic",
           "native_net", "play_outs", "table"]
