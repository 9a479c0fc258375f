"""Train a small masked policy-gradient agent for Big Two on the CPU, then
measure it against three random bots.

    python examples/train_pg.py [--minutes 4] [--rules classic] [--eval-deals 2000]

The policy scores each *legal* action instead of all 202,204 ids: a state
network embeds the observation (:mod:`big2.env.observation`), an action
network embeds each legal play (its 52 card bits and its shape), and the
logit is their dot product, so the output layer does not grow with the
action space. Training is REINFORCE with a learned value baseline, many
environments stepped in one batch, reward ±1 for going out first
(``reward="win"``). Needs PyTorch (``pip install big2[rl]``); everything
above the ``# -- torch`` line runs with NumPy alone and is what the tests use.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from big2.env.actions import ACTION_KINDS, ACTION_MASKS
from big2.env.gym import Big2Env

# 52 card bits + 13 shapes (pass = 0, then Kind 1..12) + play size / 5
ACTION_FEATURES = 52 + 13 + 1
_CARD_BITS = np.unpackbits(ACTION_MASKS.view(np.uint8).reshape(-1, 8), axis=1,
                           bitorder="little")[:, :52]


def action_features(ids: Sequence[int] | npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """Features of each action id: its cards, its shape one-hot, its size / 5."""
    ids = np.asarray(ids, dtype=np.int64)
    out = np.zeros((len(ids), ACTION_FEATURES), dtype=np.float32)
    bits = _CARD_BITS[ids]
    out[:, :52] = bits
    out[np.arange(len(ids)), 52 + ACTION_KINDS[ids]] = 1.0
    out[:, 65] = bits.sum(axis=1) / 5.0
    return out


Policy = Callable[[npt.NDArray[np.int8], list[int]], int]
"""A policy: (observation, legal action ids) -> chosen id."""


def random_policy(rng: random.Random) -> Policy:
    """Uniform over the legal actions (the baseline every agent must beat)."""
    return lambda obs, legal: rng.choice(legal)


def biggest_play_policy(obs: npt.NDArray[np.int8], legal: list[int]) -> int:
    """A scripted reference: the legal play with the most cards, weakest first
    (the pass only when nothing else is legal)."""
    sizes = _CARD_BITS[legal].sum(axis=1)
    return legal[int(np.argmax(sizes))]


@dataclass
class Evaluation:
    """Results of *deals* deals of one seat against random bots."""

    deals: int
    wins: int
    mean_score: float
    score_sd: float

    @property
    def win_rate(self) -> float:
        """Share of deals the seat went out first."""
        return self.wins / self.deals

    def win_rate_ci(self) -> tuple[float, float]:
        """95% normal-approximation interval of the win rate."""
        p = self.win_rate
        half = 1.96 * math.sqrt(p * (1 - p) / self.deals)
        return p - half, p + half

    def __str__(self) -> str:
        lo, hi = self.win_rate_ci()
        se = self.score_sd / math.sqrt(self.deals)
        return (f"win rate {self.win_rate:6.1%} (95% CI {lo:.1%}–{hi:.1%}), "
                f"mean score {self.mean_score:+7.2f} ± {1.96 * se:.2f}")


def evaluate(policy: Policy, deals: int, *, rules: str = "classic", seed: int = 10_000,
             opponents: str = "random") -> Evaluation:
    """Play *deals* deals of *policy* (seat drawn at random each deal) against
    three *opponents* bots, scored by the rule set's scoring."""
    env = Big2Env(rules, opponents=opponents, seat=None, reward="score")
    wins, scores = 0, []
    for i in range(deals):
        obs, info = env.reset(seed=seed + i)
        done, reward = False, 0.0
        while not done:
            obs, reward, done, _, info = env.step(policy(obs, info["legal_actions"]))
        scores.append(reward)
        wins += env.game.winner == env.seat
    arr = np.array(scores, dtype=np.float64)
    return Evaluation(deals, wins, float(arr.mean()), float(arr.std()))


# -- torch ------------------------------------------------------------------------


def build_model(obs_size: int, hidden: int = 256) -> object:
    """The two-tower policy with a value head."""
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.state = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(),
                                       nn.Linear(hidden, hidden), nn.ReLU())
            self.action = nn.Sequential(nn.Linear(ACTION_FEATURES, hidden), nn.ReLU(),
                                        nn.Linear(hidden, hidden))
            self.value = nn.Linear(hidden, 1)

        def forward(self, obs: torch.Tensor, acts: torch.Tensor,
                    mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.state(obs)                                   # (B, H)
            a = self.action(acts)                                 # (B, L, H)
            logits = torch.einsum("bh,blh->bl", h, a) / math.sqrt(hidden)
            logits = logits.masked_fill(~mask, -1e9)
            return logits, self.value(h).squeeze(-1)

    return Net()


def _pad(legals: list[list[int]]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    width = max(len(x) for x in legals)
    feats = np.zeros((len(legals), width, ACTION_FEATURES), dtype=np.float32)
    mask = np.zeros((len(legals), width), dtype=bool)
    for i, legal in enumerate(legals):
        feats[i, :len(legal)] = action_features(legal)
        mask[i, :len(legal)] = True
    return feats, mask


def torch_policy(model: object) -> Policy:
    """The trained model as a :data:`Policy` (most likely legal action)."""
    import torch

    def act(obs: npt.NDArray[np.int8], legal: list[int]) -> int:
        feats, mask = _pad([legal])
        with torch.no_grad():
            logits, _ = model(torch.as_tensor(obs[None], dtype=torch.float32),  # type: ignore[operator]
                              torch.as_tensor(feats), torch.as_tensor(mask))
        return legal[int(logits[0].argmax())]

    return act


def train(minutes: float, *, rules: str = "classic", envs: int = 32, batch_episodes: int = 128,
          lr: float = 1e-3, entropy: float = 0.01, seed: int = 0) -> object:
    """REINFORCE with a value baseline for *minutes* of wall time."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    pool = [Big2Env(rules, opponents="random", seat=None, reward="win") for _ in range(envs)]
    model = build_model(pool[0].observation_space.shape[0])
    opt = torch.optim.Adam(model.parameters(), lr=lr)  # type: ignore[attr-defined]
    state = [env.reset(seed=seed * 100_003 + i) for i, env in enumerate(pool)]
    traj: list[list[tuple[npt.NDArray[np.int8], list[int], int]]] = [[] for _ in pool]
    done_eps: list[tuple[list[tuple[npt.NDArray[np.int8], list[int], int]], float]] = []
    next_seed = seed * 100_003 + envs
    deadline = time.perf_counter() + minutes * 60
    updates, episodes, recent = 0, 0, []
    while time.perf_counter() < deadline:
        obs = np.stack([s[0] for s in state])
        legals = [list(s[1]["legal_actions"]) for s in state]
        feats, mask = _pad(legals)
        with torch.no_grad():
            logits, _ = model(torch.as_tensor(obs, dtype=torch.float32),  # type: ignore[operator]
                              torch.as_tensor(feats), torch.as_tensor(mask))
            picks = torch.distributions.Categorical(logits=logits).sample().tolist()
        for i, env in enumerate(pool):
            traj[i].append((obs[i], legals[i], picks[i]))
            o, r, done, _, info = env.step(legals[i][picks[i]])
            if done:
                done_eps.append((traj[i], r))
                recent.append(r)
                traj[i] = []
                state[i] = env.reset(seed=next_seed)
                next_seed += 1
            else:
                state[i] = (o, info)
        if len(done_eps) < batch_episodes:
            continue
        steps = [(o, lg, p, ret) for ep, ret in done_eps for (o, lg, p) in ep]
        episodes += len(done_eps)
        done_eps = []
        o_t = torch.as_tensor(np.stack([s[0] for s in steps]), dtype=torch.float32)
        f, m = _pad([s[1] for s in steps])
        p_t = torch.as_tensor([s[2] for s in steps])
        ret_t = torch.as_tensor([s[3] for s in steps], dtype=torch.float32)
        logits, value = model(o_t, torch.as_tensor(f), torch.as_tensor(m))  # type: ignore[operator]
        dist = torch.distributions.Categorical(logits=logits)
        adv = ret_t - value.detach()
        loss = (-(adv * dist.log_prob(p_t)).mean() + 0.5 * ((ret_t - value) ** 2).mean()
                - entropy * dist.entropy().mean())
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # type: ignore[attr-defined]
        opt.step()
        updates += 1
        if updates % 10 == 0:
            win = (np.array(recent[-1000:]) > 0).mean()
            left = deadline - time.perf_counter()
            print(f"update {updates:4d}  episodes {episodes:6d}  training win rate (last 1000) "
                  f"{win:5.1%}  {left:4.0f}s left", flush=True)
    return model


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=4.0)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--eval-deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t = time.perf_counter()
    model = train(args.minutes, rules=args.rules, seed=args.seed)
    print(f"trained {time.perf_counter() - t:.0f}s; evaluating {args.eval_deals} deals "
          f"against 3 random bots ({args.rules}, seat drawn each deal, chance = 25%)")
    rng = random.Random(args.seed)
    for name, pol in [("trained policy", torch_policy(model)),
                      ("random policy", random_policy(rng)),
                      ("biggest-play script", biggest_play_policy)]:
        print(f"  {name:<20} {evaluate(pol, args.eval_deals, rules=args.rules)}")


if __name__ == "__main__":
    main()
