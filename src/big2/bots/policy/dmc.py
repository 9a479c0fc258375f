"""The Deep Monte-Carlo Q network and its bot, ``dmc`` (issue 53's league).

:class:`QNet` values a (state, play) pair: a ReLU multilayer perceptron over
the plain encoding alone (:data:`FEATURES` inputs: the seat's observation,
:func:`big2.observation.encode_view`; the cards it has not seen; its rule
family, one-hot over :data:`~big2.bots.policy.pfeatures.FAMILIES`; the
play's 52 card bits), trained by self-play (:mod:`big2.learn.dmc`) to predict
the seat's final score, divided by :data:`SCORE_SCALE`, after making that
play. No engineered column, hint or planner goes in: it does not think like
the heuristic. Inference needs NumPy alone; the first layer's state part is
computed once per decision and shared by its plays.

:class:`DMCBot` plays the legal play of highest value, from its
:class:`~big2.view.PlayerView` alone. Its weights are a DMC run's slim
checkpoint (an ``.npz``, ``python -m big2.learn slim``), or a full
``checkpoint.pt`` (read with PyTorch); a bare file name is looked for in
:data:`~big2.bots.policy.pnet.WEIGHTS_DIR`. A rule set the observation cannot
hold (jokers, two decks, plays longer than five cards) gets the ``heuristic``
bot instead, as ``policy-net`` does; :meth:`DMCBot.plays_itself` says which.

>>> import numpy as np
>>> from big2 import Game
>>> net = QNet.random(np.random.default_rng(0), hidden=(8,))
>>> g = Game(seed=5)
>>> bot = DMCBot(seed=1, weights=net)
>>> bot.choose(g.view(g.to_move)) in g.legal_masks()
True
>>> bot.values(g.view(g.to_move)).shape == (len(g.legal_masks()),)
True
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from big2.bots.base import Bot
from big2.bots.policy.net import encodable, policy_family
from big2.bots.policy.pfeatures import FAMILIES, unseen_cards
from big2.bots.policy.pnet import WEIGHTS_DIR
from big2.bots.rules_based.heuristic import HeuristicBot
from big2.cards import Mask
from big2.observation import OBS_SIZE, card_vectors, encode_view
from big2.view import PlayerView

STATE: Final = OBS_SIZE + 52 + len(FAMILIES)
"""Inputs of a decision's state: observation, unseen cards, family one-hot."""
FEATURES: Final = STATE + 52
"""Inputs of one (state, play) pair: the state's, then the play's 52 card bits."""
SCORE_SCALE: Final = 13.0
"""Q values are final scores divided by this."""
KIND: Final = "dmc"
"""The ``kind`` a DMC checkpoint and slim file carry (a PPO run's have none)."""

F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]


def state_inputs(obs: I8, family: npt.NDArray[np.integer] | int) -> I8:
    """``(N, STATE)`` 0/1 rows of N observations (``(N, OBS_SIZE)``) and their
    family indices: the observation, the cards unseen by its seat, the family."""
    n = len(obs)
    out = np.zeros((n, STATE), dtype=np.int8)
    out[:, :OBS_SIZE] = obs
    out[:, OBS_SIZE:OBS_SIZE + 52] = unseen_cards(obs)
    out[np.arange(n), OBS_SIZE + 52 + np.broadcast_to(np.asarray(family), (n,))] = 1
    return out


class QNet:
    """A ReLU multilayer perceptron from :data:`FEATURES` inputs to one value.

    Args:
        weights: each layer's ``(inputs, outputs)`` matrix, the first's rows in
            :data:`FEATURES` order.
        biases: each layer's bias.
        meta: what the weights are (family, scoring, steps…, as strings).
    """

    def __init__(self, weights: Sequence[npt.NDArray[Any]], biases: Sequence[npt.NDArray[Any]],
                 meta: Mapping[str, str] | None = None) -> None:
        if len(weights) != len(biases) or not weights:
            raise ValueError("a QNet needs one bias per weight matrix")
        if weights[0].shape[0] != FEATURES or weights[-1].shape[1] != 1:
            raise ValueError(f"a QNet maps {FEATURES} features to 1 value, not "
                             f"{weights[0].shape[0]} to {weights[-1].shape[1]}")
        self.weights = [np.ascontiguousarray(w, dtype=np.float32) for w in weights]
        self.biases = [np.ascontiguousarray(b, dtype=np.float32) for b in biases]
        self.meta = dict(meta or {})
        """What the weights are (strings)."""

    @classmethod
    def random(cls, rng: np.random.Generator, hidden: Sequence[int] = (256, 256)) -> QNet:
        """Untrained weights (He initialisation), for tests."""
        sizes = [FEATURES, *hidden, 1]
        ws = [(rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32)
              for a, b in itertools.pairwise(sizes)]
        return cls(ws, [np.zeros(b, np.float32) for b in sizes[1:]])

    @property
    def hidden(self) -> tuple[int, ...]:
        """The hidden layers' widths."""
        return tuple(w.shape[1] for w in self.weights[:-1])

    def values(self, state: npt.NDArray[Any], plays: npt.NDArray[Any],
               rows: npt.NDArray[np.integer]) -> F32:
        """``(P,)``: the value of each of P plays (``(P, 52)``), play ``p`` made in
        decision ``rows[p]`` of *state* (``(N, STATE)``): the network on the pairs'
        :data:`FEATURES`, with the first layer's state part once per decision."""
        w0, b0 = self.weights[0], self.biases[0]
        s = state.astype(np.float32) @ w0[:STATE] + b0
        h: F32 = plays.astype(np.float32) @ w0[STATE:]
        h += s[rows]
        for w, b in zip(self.weights[1:], self.biases[1:]):
            np.maximum(h, 0, out=h)
            h = h @ w + b
        out: F32 = h[:, 0]
        return out

    def __call__(self, x: npt.NDArray[Any]) -> F32:
        """The value of each row of *x* (``(M, FEATURES)`` pairs)."""
        return self.values(x[:, :STATE], x[:, STATE:], np.arange(len(x)))

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The layers as ``w0, b0, w1, …`` (float32) and the metadata as ``meta_*``."""
        out: dict[str, npt.NDArray[Any]] = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            out[f"w{i}"], out[f"b{i}"] = w, b
        for key, value in self.meta.items():
            out[f"meta_{key}"] = np.array(value)
        return out


def qnet_from_state_dict(model: Mapping[str, Any], meta: Mapping[str, str] | None = None) -> QNet:
    """The :class:`QNet` of a PyTorch ``nn.Sequential`` of Linear and ReLU layers'
    state dict (the trainer's model; tensors or arrays, on any device)."""
    layers = sorted({int(k.split(".")[0]) for k in model if k.endswith(".weight")})

    def array(v: Any) -> npt.NDArray[Any]:
        return np.asarray(v.detach().cpu().numpy() if hasattr(v, "detach") else v)

    return QNet([array(model[f"{i}.weight"]).T for i in layers],
                [array(model[f"{i}.bias"]) for i in layers], meta)


def load_qnet(path: str | Path) -> QNet:
    """The network of a DMC run's file: a slim ``.npz`` or a full ``checkpoint.pt``
    (that one needs PyTorch).

    Raises:
        ValueError: the file is not a DMC run's (a PPO checkpoint, another ``.npz``).
    """
    path = Path(path)
    if path.suffix == ".pt":
        import torch

        saved = torch.load(path, weights_only=False, map_location="cpu")
        if saved.get("kind") != KIND:
            raise ValueError(f"{path} is not a DMC checkpoint (kind {saved.get('kind', 'ppo')!r})")
        return qnet_from_state_dict(saved["model"], _provenance(saved["state"], saved["config"]))
    with np.load(path) as data:
        if "kind" not in data.files or str(data["kind"]) != KIND:
            raise ValueError(f"{path} is not a DMC network (no kind={KIND!r} entry)")
        layers = sum(1 for k in data.files if k[0] == "w" and k[1:].isdigit())
        ws = [data[f"w{i}"] for i in range(layers)]
        bs = [data[f"b{i}"] for i in range(layers)]
        meta = {k[5:]: str(data[k]) for k in data.files if k.startswith("meta_")}
    return QNet(ws, bs, meta)


def _provenance(state: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, str]:
    """The metadata a run's network carries: what it learnt and from how much."""
    return {"families": ",".join(config["families"]), "scoring": str(config["scoring"]),
            "reward": str(config.get("reward", "score")),
            "steps": str(state["steps"]), "deals": str(state["deals"]),
            "iterations": str(state["iteration"]), "cpu_s": f"{state['cpu']:.0f}",
            "wall_s": f"{state['wall']:.0f}"}


def slim_arrays(saved: Mapping[str, Any]) -> dict[str, npt.NDArray[Any]]:
    """A full DMC checkpoint (as ``torch.load`` reads it) without the optimiser: the
    network (float32), the counters and random states (JSON) and the run's settings,
    as the arrays of a slim ``.npz`` (:func:`load_qnet` plays it, the trainer resumes
    from it)."""
    net = qnet_from_state_dict(saved["model"], _provenance(saved["state"], saved["config"]))
    rng = saved["torch_rng"]
    return {**net.arrays(), "kind": np.array(KIND),
            "state_json": np.array(json.dumps(saved["state"])),
            "config_json": np.array(json.dumps(saved["config"])),
            "torch_rng": np.asarray(rng.numpy() if hasattr(rng, "numpy") else rng, np.uint8)}


@lru_cache(maxsize=8)
def _net_at(path: str) -> QNet:
    return load_qnet(path)


def cached_qnet(path: str | Path) -> QNet:
    """The :class:`QNet` at *path* (a bare file name: in ``WEIGHTS_DIR``), read once."""
    p = Path(path)
    if not p.exists() and p.name == str(path) and (WEIGHTS_DIR / p).exists():
        p = WEIGHTS_DIR / p
    return _net_at(str(p))


class DMCBot(Bot):
    """The Q network's best legal play (see the module docstring).

    Args:
        weights: a DMC run's slim ``.npz`` or full ``checkpoint.pt`` (a bare file
            name: in the package's weights folder), or a :class:`QNet`.
    """

    name = "dmc"

    def __init__(self, seed: int | None = None, weights: str | Path | QNet | None = None,
                 **options: Any) -> None:
        super().__init__(seed=seed, **options)
        if weights is None:
            raise ValueError("dmc needs weights: a DMC run's slim .npz or checkpoint.pt "
                             "(dmc:weights=PATH)")
        self._net = weights if isinstance(weights, QNet) else cached_qnet(weights)
        self._fallback: Bot | None = None

    @property
    def network(self) -> QNet:
        """The Q network this bot plays."""
        return self._net

    @staticmethod
    def plays_itself(view: PlayerView) -> bool:
        """Whether the network plays *view*'s rule set (else the heuristic does)."""
        return encodable(view.rules)

    def values(self, view: PlayerView) -> F32:
        """The network's value of each of ``view.legal``, in order (scores / 13)."""
        state = state_inputs(encode_view(view)[None], policy_family(view.rules))
        plays = card_vectors(view.legal)
        return self._net.values(state, plays, np.zeros(len(plays), np.intp))

    def choose(self, view: PlayerView) -> Mask:
        """The legal play of highest value (the heuristic's choice where the
        observation cannot hold the rules)."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if not self.plays_itself(view):
            if self._fallback is None:
                self._fallback = HeuristicBot(seed=int(self.rng.getrandbits(32)))
            return self._fallback.choose(view)
        return legal[int(np.argmax(self.values(view)))]


__all__ = ["FEATURES", "KIND", "SCORE_SCALE", "STATE", "DMCBot", "QNet", "cached_qnet",
           "load_qnet", "qnet_from_state_dict", "slim_arrays", "state_inputs"]
