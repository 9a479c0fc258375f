"""Deep Monte-Carlo self-play training of Q(state, play) (needs PyTorch).

    python -m big2.learn train --rules classic --scoring count --out runs/classic --hours 1
    python -m big2.learn export runs/classic src/big2/bots/weights/classic.npz
    python -m big2.learn plot runs/classic runs/selfplay-2018 -o docs/img/training.png

The learner holds a PyTorch copy of the network; actors
(:mod:`big2.learn.rollouts`) play with a NumPy copy, refreshed after every
update, in self-play games, games against a pool of earlier snapshots, and
games against fixed bots. Each update regresses the network on the
Monte-Carlo returns of the deals that ended (mean squared error, Adam).

The run is a sequence of *iterations* (collect, then update), so it is
reproducible from ``--seed`` when it is not interrupted. Every
``--checkpoint-every`` iterations the learner, optimiser, pool, counters and
random states are written to ``OUT/checkpoint.pt`` (atomically); started
again with the same ``--out`` it resumes there (the games in progress are
dealt afresh). Every ``--eval-every`` iterations the network plays seat 0
against three of each evaluation bot on the same fixed deals, and a line
goes to ``OUT/log.csv`` (wall time, deals, samples, opponent, points/deal
with its 95% interval, win rate).

With ``--ray`` the actors are Ray actors (``--actors`` of them), so a
cluster collects faster with the same command.
"""

from __future__ import annotations

import csv
import itertools
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from big2.bots.qnet import FEATURES, QNet
from big2.learn.evaluate import evaluate_net
from big2.learn.rollouts import Actor, ActorConfig
from big2.rules import Rules


@dataclass
class TrainConfig:
    """A training run's settings (all saved with its checkpoints)."""

    out: str
    rules: str = "classic"
    scoring: str = "count"
    seed: int = 0
    hours: float = 1.0
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    batch: int = 1024
    steps: int = 8
    """Steps of every game per iteration."""
    replay: int = 200_000
    """Samples kept for training (the most recent; not saved in checkpoints)."""
    updates: int = 8
    """Minibatches drawn from the replay buffer per iteration."""
    epsilon: float = 0.05
    self_play: int = 96
    pool: int = 32
    bots: int = 32
    opponents: tuple[str, ...] = ("heuristic", "greedy")
    snapshot_every: int = 200
    pool_size: int = 8
    eval_every: int = 100
    eval_deals: int = 200
    eval_opponents: tuple[str, ...] = ("heuristic-v1", "greedy")
    checkpoint_every: int = 50
    ray: bool = False
    actors: int = 2
    threads: int = 1
    extra: dict[str, Any] = field(default_factory=dict)

    def make_rules(self) -> Rules:
        """The rule set trained on: the preset with the scoring applied."""
        return Rules.preset(self.rules).replace(scoring=self.scoring)


def _model(cfg: TrainConfig) -> Any:
    import torch
    from torch import nn

    torch.manual_seed(cfg.seed)
    sizes = [FEATURES, *cfg.hidden, 1]
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        layers.append(nn.Linear(a, b))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def to_qnet(model: Any, meta: dict[str, str] | None = None) -> QNet:
    """The NumPy copy of a PyTorch model built by :func:`_model`."""
    linears = [m for m in model if hasattr(m, "weight")]
    return QNet([m.weight.detach().numpy().T.copy() for m in linears],
                [m.bias.detach().numpy().copy() for m in linears], meta)


class _Actors:
    """The actors, local or on Ray, asked to collect with the same weights."""

    def __init__(self, cfg: TrainConfig, rules: Rules, salt: int) -> None:
        n = cfg.actors if cfg.ray else 1
        configs = [ActorConfig(rules, cfg.self_play // n, cfg.pool // n, cfg.bots // n,
                               cfg.opponents, seed=cfg.seed * 1000 + salt * 10 + k)
                   for k in range(n)]
        self.ray = cfg.ray
        self.actors: list[Any]
        if cfg.ray:
            import ray

            if not ray.is_initialized():
                ray.init(ignore_reinit_error=True, log_to_driver=False)
            remote = ray.remote(Actor)
            self.actors = [remote.remote(c) for c in configs]
        else:
            self.actors = [Actor(c) for c in configs]

    def collect(self, net: QNet, pool: list[QNet], steps: int,
                epsilon: float) -> tuple[Any, Any, int]:
        if self.ray:
            import ray

            parts = ray.get([a.collect.remote(net, pool, steps, epsilon) for a in self.actors])
            deals = int(sum(ray.get([a.deals_done.remote() for a in self.actors])))
        else:
            parts = [a.collect(net, pool, steps, epsilon) for a in self.actors]
            deals = int(sum(a.deals_done() for a in self.actors))
        x = np.concatenate([p[0] for p in parts])
        y = np.concatenate([p[1] for p in parts])
        return x, y, deals


class _Replay:
    """The most recent *capacity* samples, as a ring (features stay ``int8``)."""

    def __init__(self, capacity: int) -> None:
        self.x = np.zeros((capacity, FEATURES), dtype=np.int8)
        self.y = np.zeros(capacity, dtype=np.float32)
        self.capacity, self.size, self._at = capacity, 0, 0

    def add(self, x: np.ndarray, y: np.ndarray) -> None:
        for start in range(0, len(x), self.capacity):
            xs, ys = x[start:start + self.capacity], y[start:start + self.capacity]
            idx = (self._at + np.arange(len(xs))) % self.capacity
            self.x[idx], self.y[idx] = xs, ys
            self._at = int((self._at + len(xs)) % self.capacity)
            self.size = min(self.capacity, self.size + len(xs))

    def draw(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(0, self.size, n)
        return self.x[idx], self.y[idx]


def _save(path: Path, state: dict[str, Any]) -> None:
    import torch

    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)


def train(cfg: TrainConfig, *, log: Any = print) -> Path:
    """Run (or resume) training for ``cfg.hours`` of wall time; the run directory."""
    import torch

    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    rules = cfg.make_rules()
    model = _model(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    ckpt = out / "checkpoint.pt"
    state: dict[str, Any] = {"iteration": 0, "deals": 0, "samples": 0, "wall": 0.0, "pool": [],
                             "rng": np.random.default_rng(cfg.seed).bit_generator.state}
    if ckpt.exists():
        saved = torch.load(ckpt, weights_only=False)
        model.load_state_dict(saved["model"])
        opt.load_state_dict(saved["opt"])
        torch.set_rng_state(saved["torch_rng"])
        state = saved["state"]
        log(f"resumed {ckpt} at iteration {state['iteration']} ({state['deals']} deals)")
    rng = np.random.default_rng()
    rng.bit_generator.state = state["rng"]
    actors = _Actors(cfg, rules, salt=state["iteration"])
    deals_before = state["deals"]
    buffer = _Replay(cfg.replay)
    pool = [QNet(*p) for p in state["pool"]]
    log_path = out / "log.csv"
    new_log = not log_path.exists()
    start = time.perf_counter()
    wall0 = state["wall"]
    with log_path.open("a", newline="") as fh:
        writer = csv.writer(fh)
        if new_log:
            writer.writerow(["wall_s", "iteration", "deals", "samples", "opponent", "points",
                             "ci95", "win_rate"])
        while time.perf_counter() - start < cfg.hours * 3600:
            net = to_qnet(model)
            x, y, deals = actors.collect(net, pool, cfg.steps, cfg.epsilon)
            state["deals"] = deals_before + deals
            state["samples"] += len(x)
            buffer.add(x, y)
            for _ in range(cfg.updates if buffer.size >= cfg.batch else 0):
                bx, by = buffer.draw(rng, cfg.batch)
                pred = model(torch.from_numpy(bx.astype(np.float32))).squeeze(1)
                loss = ((pred - torch.from_numpy(by)) ** 2).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
            state["iteration"] += 1
            it = state["iteration"]
            state["wall"] = wall0 + time.perf_counter() - start
            if it % cfg.snapshot_every == 0:
                pool.append(to_qnet(model))
                pool = pool[-cfg.pool_size:]
            if it % cfg.eval_every == 0:
                net = to_qnet(model)
                for opp in cfg.eval_opponents:
                    ev = evaluate_net(net, rules, opp, cfg.eval_deals, seed=12345)
                    writer.writerow([f"{state['wall']:.0f}", it, state["deals"], state["samples"],
                                     opp, f"{ev.mean:.3f}", f"{ev.ci95:.3f}", f"{ev.win_rate:.3f}"])
                    log(f"it {it} deals {state['deals']} wall {state['wall']:.0f}s vs {opp}: {ev}")
                fh.flush()
            if it % cfg.checkpoint_every == 0:
                _checkpoint(ckpt, model, opt, state, pool, rng, cfg)
    _checkpoint(ckpt, model, opt, state, pool, rng, cfg)
    return out


def _checkpoint(path: Path, model: Any, opt: Any, state: dict[str, Any], pool: list[QNet],
                rng: np.random.Generator, cfg: TrainConfig) -> None:
    import torch

    state["pool"] = [(p.weights, p.biases) for p in pool]
    state["rng"] = rng.bit_generator.state
    _save(path, {"model": model.state_dict(), "opt": opt.state_dict(), "state": state,
                 "torch_rng": torch.get_rng_state(), "config": asdict(cfg)})


def export(run: str | Path, dest: str | Path) -> QNet:
    """Write a run's latest network as a package weights file (float16 ``.npz``)."""
    import torch

    saved = torch.load(Path(run) / "checkpoint.pt", weights_only=False)
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v
                              for k, v in saved["config"].items()}
    cfg = TrainConfig(**fields)
    model = _model(cfg)
    model.load_state_dict(saved["model"])
    st = saved["state"]
    net = to_qnet(model, {"rules": cfg.rules, "scoring": cfg.scoring, "seed": str(cfg.seed),
                          "deals": str(st["deals"]), "samples": str(st["samples"]),
                          "wall_s": f"{st['wall']:.0f}", "iterations": str(st["iteration"])})
    net.save(dest)
    return net


__all__ = ["TrainConfig", "export", "to_qnet", "train"]
