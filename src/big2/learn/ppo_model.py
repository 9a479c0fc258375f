"""PyTorch side of the PPO actor-critic (training only).

:class:`Actor` computes exactly what :class:`big2.bots.policy.pnet.PolicyNet` does
(the shipped NumPy copy is :meth:`Actor.to_numpy`); :class:`Critic` is the
perfect-information value network: it reads the actor's state features
*and every other seat's hand*, so it can only be used where the hands are
known — training games, and the determinized worlds of a search. It never
ships inside the actor's weights.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from big2.bots.policy.pfeatures import RAW_PLAY, RAW_STATE, widen, widen_play
from big2.bots.policy.pnet import NAMES, PLAY_FEATURES, STATE_FEATURES, PolicyNet

HIDDEN_FEATURES = 3 * 52
"""The critic's extra inputs: the hands of the three seats after the mover
(relative order, zero rows for absent seats)."""


class Actor(nn.Module):
    """The policy: state embedding once per decision, a small scorer per play."""

    def __init__(self, hidden: int = 256, pair: int = 128, pair2: int = 64) -> None:
        super().__init__()
        self.s0 = nn.Linear(STATE_FEATURES, hidden)
        self.s1 = nn.Linear(hidden, hidden)
        self.a = nn.Linear(hidden, pair, bias=False)
        self.b = nn.Linear(PLAY_FEATURES, pair)
        self.c = nn.Linear(pair, pair2)
        self.v = nn.Linear(pair2, 1, bias=False)
        for m in (self.s0, self.s1, self.a, self.b, self.c):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        nn.init.normal_(self.v.weight, std=0.01)  # a near-uniform policy at the start

    def forward(self, state: torch.Tensor, rows: torch.Tensor, plays: torch.Tensor) -> torch.Tensor:
        """``(P,)`` scores of the play rows *plays*, each against ``state[rows]``."""
        h = torch.relu(self.s1(torch.relu(self.s0(state))))
        z = torch.relu(self.a(h)[rows] + self.b(plays))
        z = torch.relu(self.c(z))
        out: torch.Tensor = self.v(z).squeeze(-1)
        return out

    def to_numpy(self, meta: dict[str, str] | None = None) -> PolicyNet:
        """The NumPy copy that plays (same outputs, float32)."""
        def t(x: torch.Tensor) -> np.ndarray:
            return x.detach().cpu().float().numpy().copy()

        arrays = {"s0_w": t(self.s0.weight).T, "s0_b": t(self.s0.bias),
                  "s1_w": t(self.s1.weight).T, "s1_b": t(self.s1.bias),
                  "a_w": t(self.a.weight).T, "b_w": t(self.b.weight).T, "b_b": t(self.b.bias),
                  "c_w": t(self.c.weight).T, "c_b": t(self.c.bias), "v_w": t(self.v.weight)[0]}
        assert set(arrays) == set(NAMES)
        return PolicyNet(arrays, meta)


def actor_from_numpy(net: PolicyNet) -> Actor:
    """The :class:`Actor` computing what *net* computes (the inverse of
    :meth:`Actor.to_numpy`), to train on from a shipped ``.npz``."""
    w = net.w
    hidden, pair = w["s0_w"].shape[1], w["a_w"].shape[1]
    actor = Actor(hidden=hidden, pair=pair, pair2=w["c_w"].shape[1])

    def t(x: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))

    state = {"s0.weight": t(w["s0_w"].T), "s0.bias": t(w["s0_b"]),
             "s1.weight": t(w["s1_w"].T), "s1.bias": t(w["s1_b"]),
             "a.weight": t(w["a_w"].T), "b.weight": t(w["b_w"].T), "b.bias": t(w["b_b"]),
             "c.weight": t(w["c_w"].T), "c.bias": t(w["c_b"]), "v.weight": t(w["v_w"][None, :])}
    actor.load_state_dict(state)
    return actor


class Critic(nn.Module):
    """V(state, every hand): the mover's final score / ``SCORE_SCALE``."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STATE_FEATURES + HIDDEN_FEATURES, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, state: torch.Tensor, hidden_hands: torch.Tensor) -> torch.Tensor:
        """``(B,)`` values."""
        out: torch.Tensor = self.net(torch.cat([state, hidden_hands], dim=1)).squeeze(-1)
        return out


def masked_log_softmax(scores: torch.Tensor, rows: torch.Tensor, slots: torch.Tensor,
                       n: int, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities ``(n, k)`` of flat scores placed at ``(rows, slots)``
    (others ``-inf``), and each row's entropy ``(n,)``."""
    full = torch.full((n, k), float("-inf"), dtype=scores.dtype, device=scores.device)
    full = full.index_put((rows, slots), scores)
    logp = torch.log_softmax(full, dim=1)
    p = logp.exp()
    entropy = -(p * torch.where(p > 0, logp, torch.zeros_like(logp))).sum(dim=1)
    return logp, entropy


def plain_inputs(actor: Actor, critic: Critic) -> dict[str, torch.Tensor]:
    """Hold *actor* and *critic* to the plain encoding, in place: zero weights on every
    engineered input (the state's hand shape and unseen rank counts, the play's rank
    counts, kinds, shape, "above" counts and the heuristic's hints; everything after
    :data:`~big2.bots.policy.pfeatures.RAW_STATE` and
    :data:`~big2.bots.policy.pfeatures.RAW_PLAY`), and gradient hooks that keep them
    zero (Adam then never moves them: its moments stay zero), so the networks are
    functions of the observation, the unseen cards, the family and the plays' cards
    alone. The critic keeps the other hands it reads. The masks, by parameter name."""
    masks: dict[str, torch.Tensor] = {}
    for part, module, name, cut in (
            ("actor", actor, "s0.weight", slice(RAW_STATE, STATE_FEATURES)),
            ("actor", actor, "b.weight", slice(RAW_PLAY, PLAY_FEATURES)),
            ("critic", critic, "net.0.weight", slice(RAW_STATE, STATE_FEATURES))):
        param = module.get_parameter(name)
        mask = torch.ones_like(param)
        mask[:, cut] = 0
        with torch.no_grad():
            param.mul_(mask)
        param.register_hook(lambda grad, m=mask: grad * m)  # type: ignore[no-untyped-call]
        masks[f"{part}.{name}"] = mask
    return masks


def state_dict_half(module: nn.Module) -> dict[str, Any]:
    """A module's weights as float16 (for the pool of past selves)."""
    return {k: v.detach().cpu().half() for k, v in module.state_dict().items()}


def _state(w: np.ndarray) -> np.ndarray:
    return widen(w, STATE_FEATURES, RAW_STATE, STATE_FEATURES, axis=1)


def _critic_in(w: np.ndarray) -> np.ndarray:
    return widen(w, STATE_FEATURES + HIDDEN_FEATURES, RAW_STATE, STATE_FEATURES, axis=1)


def _play(w: np.ndarray) -> np.ndarray:
    return widen_play(w, axis=1)


# weights whose inputs grew, and how each grows (zero weights on the new inputs)
_WIDENED = {"actor": {"s0.weight": (STATE_FEATURES, _state), "b.weight": (PLAY_FEATURES, _play)},
            "critic": {"net.0.weight": (STATE_FEATURES + HIDDEN_FEATURES, _critic_in)}}


def widen_checkpoint(saved: dict[str, Any], actor: nn.Module, critic: nn.Module) -> bool:
    """Bring a checkpoint from before the engineered features (or the hint) up to the
    current inputs, in place: zero weights (and zero Adam moments) on the new
    inputs, so the networks compute what they computed. Whether anything
    changed."""
    def grow(t: torch.Tensor, spec: tuple[int, Any]) -> torch.Tensor:
        return torch.from_numpy(spec[1](t.detach().cpu().numpy())).to(t.device)

    changed = False
    index = 0
    opt_state = saved["opt"]["state"] if "opt" in saved else {}  # none in a slim checkpoint
    for part, module in (("actor", actor), ("critic", critic)):
        for name, param in module.named_parameters():
            spec = _WIDENED[part].get(name)
            if spec is not None and saved[part][name].shape != param.shape:
                saved[part][name] = grow(saved[part][name], spec)
                for key in ("exp_avg", "exp_avg_sq"):
                    if index in opt_state and key in opt_state[index]:
                        opt_state[index][key] = grow(opt_state[index][key], spec)
                changed = True
            index += 1
    for past in saved["state"].get("pool", []):  # past selves, float16 actors
        for name, want in _WIDENED["actor"].items():
            if past[name].shape[1] != want[0]:
                past[name] = grow(past[name].float(), want).half()
    return changed


__all__ = ["HIDDEN_FEATURES", "Actor", "Critic", "actor_from_numpy", "masked_log_softmax",
           "plain_inputs", "state_dict_half", "widen_checkpoint"]
