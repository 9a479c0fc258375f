"""Self-play training with the vector environment: Deep Monte-Carlo on
Q(state, play), as DouZero does for Dou Dizhu, then a match against bots.

    python examples/train_vec.py [--minutes 3] [--envs 64] [--rules classic] [--eval-deals 1000]

Every seat is played by the same network. At each step
:meth:`big2.env.VectorEnv.legal_plays` gives every game's legal plays as
card vectors; the network scores (observation, play) pairs and the mover
takes the best (or, with probability ε, a random one). When a deal ends,
every (observation, play) a seat chose is labelled with that seat's final
score — the Monte-Carlo return — and the network regresses on it. Then the
network plays seat 0 against three bots of a chosen level in fresh deals.

Needs PyTorch (``pip install big2[rl]``) for :func:`main`; the rollout and
evaluation pieces above the ``# -- torch`` line take any NumPy scoring
function and are what the tests run.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from big2.env.observation import OBS_SIZE
from big2.env.vector import VectorEnv
from big2.learn.evaluate import Evaluation

Scorer = Callable[[npt.NDArray[np.float32]], npt.NDArray[np.float32]]
"""(rows, OBS_SIZE + 52) features → one Q value per row."""
FEATURES = OBS_SIZE + 52
SCORE_SCALE = 10.0
"""Scores are divided by this before regression (a classic deal pays up to ±39 a seat)."""


def pair_features(obs: npt.NDArray[np.int8], cards: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """(N, K, OBS_SIZE + 52): each game's observation beside each of its plays."""
    n, k, _ = cards.shape
    out = np.empty((n, k, FEATURES), dtype=np.float32)
    out[:, :, :OBS_SIZE] = obs[:, None, :]
    out[:, :, OBS_SIZE:] = cards
    return out


def choose(venv: VectorEnv, obs: dict[str, npt.NDArray[np.int8]], q: Scorer, epsilon: float,
           rng: np.random.Generator) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Each game's action id (best Q, or uniformly random with probability
    *epsilon*) and the features of the chosen (observation, play) pair."""
    plays = venv.legal_plays()
    x = pair_features(obs["observation"], plays.cards)
    n, k, _ = x.shape
    values = q(x.reshape(n * k, FEATURES)).reshape(n, k)
    values[np.arange(k)[None, :] >= plays.counts[:, None]] = -np.inf
    pick = values.argmax(axis=1)
    explore = rng.random(n) < epsilon
    pick[explore] = (rng.random(int(explore.sum())) * plays.counts[explore]).astype(np.int64)
    rows = np.arange(n)
    return plays.ids[rows, pick], x[rows, pick]


class Rollouts:
    """Self-play deals in a :class:`VectorEnv`, turned into (features, return) samples."""

    def __init__(self, venv: VectorEnv, seed: int = 0) -> None:
        self.venv = venv
        self.obs, _ = venv.reset()
        self.rng = np.random.default_rng(seed)
        self._open: list[list[tuple[int, npt.NDArray[np.float32]]]] = [[] for _ in range(venv.num_envs)]
        self.deals = 0

    def collect(self, q: Scorer, epsilon: float, steps: int) -> tuple[npt.NDArray[np.float32],
                                                                       npt.NDArray[np.float32]]:
        """Play *steps* steps; return the samples of the deals that ended."""
        xs: list[npt.NDArray[np.float32]] = []
        ys: list[float] = []
        for _ in range(steps):
            seats = self.obs["to_move"]
            ids, chosen = choose(self.venv, self.obs, q, epsilon, self.rng)
            for i, seat in enumerate(seats.tolist()):
                self._open[i].append((seat, chosen[i]))
            self.obs, _, done, _, infos = self.venv.step(ids)
            rewards = infos["seat_rewards"]  # (N, players): each seat's final score
            for i in np.flatnonzero(done).tolist():
                for seat, x in self._open[i]:
                    xs.append(x)
                    ys.append(float(rewards[i, seat]) / SCORE_SCALE)
                self._open[i] = []
                self.deals += 1
        if not xs:
            return np.zeros((0, FEATURES), np.float32), np.zeros(0, np.float32)
        return np.stack(xs), np.array(ys, dtype=np.float32)


def evaluate(q: Scorer | None, deals: int, *, rules: str = "classic", opponents: str = "greedy",
             envs: int = 64, seed: int = 10_000) -> Evaluation:
    """Seat 0 played by *q* (greedy in Q; ``None``: uniformly random) against
    three *opponents* bots, over *deals* fresh deals."""
    venv = VectorEnv(envs, rules, seed=seed, opponents=opponents, learners=[0])
    obs, _ = venv.reset()
    rng = np.random.default_rng(seed)
    scores: list[float] = []
    while len(scores) < deals:
        ids = venv.sample(rng) if q is None else choose(venv, obs, q, 0.0, rng)[0]
        obs, _, done, _, infos = venv.step(ids)
        rewards = infos["seat_rewards"]
        scores += [float(rewards[i, 0]) for i in np.flatnonzero(done).tolist()]
    got = np.array(scores[:deals])
    ci = 1.96 * float(got.std(ddof=1)) / math.sqrt(deals)
    return Evaluation(deals, float(got.mean()), ci, float((got > 0).mean()))


# -- torch ---------------------------------------------------------------------------


def main() -> None:
    import torch
    from torch import nn

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--eval-deals", type=int, default=1000)
    ap.add_argument("--opponents", default="greedy")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(FEATURES, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                          nn.Linear(256, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)

    def q(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        with torch.no_grad():
            return model(torch.from_numpy(x)).squeeze(1).numpy()

    rollouts = Rollouts(VectorEnv(args.envs, args.rules, seed=args.seed, reward="score"),
                        seed=args.seed)
    start = time.perf_counter()
    samples = 0
    while time.perf_counter() - start < 60 * args.minutes:
        elapsed = (time.perf_counter() - start) / (60 * args.minutes)
        x, y = rollouts.collect(q, epsilon=max(0.02, 0.2 * (1 - elapsed)), steps=32)
        if not len(x):
            continue
        samples += len(x)
        perm = np.random.default_rng(samples).permutation(len(x))
        for chunk in np.array_split(perm, max(1, len(x) // 256)):
            pred = model(torch.from_numpy(x[chunk])).squeeze(1)
            loss = ((pred - torch.from_numpy(y[chunk])) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    wall = time.perf_counter() - start
    print(f"trained {wall:.0f}s: {rollouts.deals} self-play deals, {samples} samples "
          f"({args.rules}, {args.envs} games a step)")
    print(f"evaluating {args.eval_deals} deals: seat 0 against 3 {args.opponents} bots")
    print(f"  trained Q network  {evaluate(q, args.eval_deals, rules=args.rules, opponents=args.opponents)}")
    print(f"  random legal plays {evaluate(None, args.eval_deals, rules=args.rules, opponents=args.opponents)}")


if __name__ == "__main__":
    main()
