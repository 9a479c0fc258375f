"""Deep Monte-Carlo self-play training of Q(state, play), as DouZero does for
Dou Dizhu (needs PyTorch): the league agent that does not think like ours.

    python -m big2.learn train-dmc --out training/dmc --hours 2
    python -m big2.learn slim training/dmc/checkpoint.pt training/dmc/checkpoint.npz
    big2 gauntlet dmc:weights=training/dmc/checkpoint.npz

* **Network** (:class:`~big2.bots.policy.dmc.QNet`, NumPy to play, an
  ``nn.Sequential`` of the same layers to train): the plain encoding alone
  (observation, unseen cards, family, the play's cards); no engineered
  column, no heuristic hint, no planner.
* **Games**: every iteration deals ``games`` fresh deals of each family
  (:data:`~big2.bots.policy.pfeatures.FAMILIES`, the PPO trainer's mix) in a
  :class:`~big2.env.vector.VectorEnv` (the compiled core steps them) and plays
  each to its end, every seat choosing epsilon-greedily on the network's Q
  as it was one update before (a uniformly random legal play with
  probability ``epsilon``): the deals of the next iteration are played
  (:mod:`big2.learn.dmc_collect`, in ``collectors`` other processes) while
  this one learns.
  Each decision's target is that seat's final score in the deal (the
  Monte-Carlo return, scoring ``scoring``) divided by
  :data:`~big2.bots.policy.dmc.SCORE_SCALE`, or with ``reward="win"`` 1 if the
  seat won the deal and -1/(players - 1) if not.
* **Update**: mean squared error of Q(state, chosen play) against the target,
  ``epochs`` passes of minibatches over the iteration's decisions, gradient
  norm clipped, Adam.

An iteration depends on nothing but the weights (the learner's and those its
deals were played with), the optimiser, the run's generator and its number
(its deals and exploration), so a run stopped at a checkpoint and resumed plays
and learns exactly what it would have uninterrupted, with any number of
collector processes. Every ``checkpoint_minutes``, at the end, and on SIGTERM or
Ctrl+C the run is written atomically to ``OUT/checkpoint.pt`` (both networks,
optimiser, counters, random states; ``kind: "dmc"``, so the PPO trainer refuses it and this one refuses a
PPO run's). ``python -m big2.learn slim`` makes it a NumPy ``.npz`` without the
optimiser (:func:`~big2.bots.policy.dmc.slim_arrays`): the bot ``dmc`` plays it,
and a run whose ``OUT`` holds ``checkpoint.npz`` but no ``checkpoint.pt``
resumes from it with Adam afresh. ``OUT/log.csv`` and ``OUT/stats.csv`` are the
PPO run's files (:mod:`big2.learn.ppo_files`): an evaluation line per family
and bot every ``eval_minutes`` and at the end; an iteration's loss, values and
speed every ten iterations.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from big2.bots.policy.dmc import FEATURES, KIND, QNet, qnet_from_state_dict
from big2.bots.policy.pnet import FAMILIES, family_index
from big2.learn.dmc_collect import Batch, CollectorProcesses, DMCCollector, Reward, greedy_picks
from big2.learn.ppo_files import (
    append_log,
    append_stats,
    checkpoint_kind,
    save_checkpoint,
    stop_on_signals,
)
from big2.rules import Rules

Precision: TypeAlias = Literal["auto", "fp32", "bf16"]
"""The number format of the update's products (:attr:`DMCConfig.precision`; the PPO
trainer's spelling, and ``auto``)."""

I8 = npt.NDArray[np.int8]
F32 = npt.NDArray[np.float32]


@dataclass
class DMCConfig:
    """A DMC run's settings (saved in its checkpoint)."""

    out: str
    families: tuple[str, ...] = FAMILIES
    scoring: str = "count"
    reward: Reward = "score"
    """What Q learns to predict: the seat's final score (``score``) or whether it wins
    (``win``; :data:`~big2.learn.dmc_collect.Reward`). A run keeps it."""
    seed: int = 0
    hours: float = 1.0
    hidden: tuple[int, ...] = (512, 256, 256)
    """The hidden layers' widths (a run keeps them)."""
    lr: float = 3e-4
    epsilon: float = 0.05
    """The chance a decision is a uniformly random legal play."""
    games: int = 64
    """Deals of each family an iteration plays."""
    minibatch: int = 1024
    epochs: int = 1
    """Passes over an iteration's decisions."""
    max_grad: float = 40.0
    eval_minutes: float = 15.0
    eval_deals: int = 200
    eval_opponents: tuple[str, ...] = ("heuristic", "greedy")
    checkpoint_minutes: float = 5.0
    threads: int = 1
    """PyTorch's and NumPy's threads (0: every core). One by default: on two cores
    shared with other work, two threads made the run 12-16x slower (docs/research.md)."""
    precision: Precision = "auto"
    """The update's products: ``bf16`` is PyTorch's bfloat16 mixed precision (products of
    bfloat16-rounded weights and inputs; sums, biases and the optimiser in float32),
    about 0.6x float32's time on a CPU with AVX-512 (benchmarks/bench_dmc.py);
    ``auto``: ``bf16`` where PyTorch's oneDNN has it, else ``fp32``. Self-play and the bots value
    plays in float32 with NumPy either way."""
    collectors: int = 2
    """Processes that play the next iteration's deals while this one learns (some
    shares of play each, at most one a share: ``families x shards``); 0: the deals
    are played in this process, in turn with the update. The same run either way."""
    shards: int = 1
    """Each family's ``games`` come in this many shares of play, each dealt from a
    seed of its own, so that more collector processes can share them (a machine
    with more cores). The deals depend on it, as on ``games``: a run resumes
    exactly with the same two, and goes on with others (a burst on a bigger
    machine, say) from where it was."""
    device: str = "auto"
    """Where the update runs: ``cpu``, ``cuda`` or ``auto`` (``cuda`` where PyTorch
    has one). A run resumes bit for bit on the CPU."""
    iterations: int = 0
    """Stop after this many iterations of this invocation (0: only the hours)."""
    final_eval: bool = True
    """Evaluate at the end of an invocation too (where it got to)."""

    def rules(self) -> dict[str, Rules]:
        """Each family's rule set, with the run's scoring."""
        return {f: Rules.preset(f).replace(scoring=self.scoring) for f in self.families}


def make_model(hidden: tuple[int, ...]) -> Any:
    """The PyTorch network: Linear and ReLU layers, :data:`FEATURES` to one value."""
    from torch import nn

    sizes = [FEATURES, *hidden, 1]
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class DMCTrainer:
    """A DMC run: the network, the optimiser, the games and the counters."""

    def __init__(self, cfg: DMCConfig, log: Any = print) -> None:
        import torch

        self.torch, self.cfg, self.log = torch, cfg, log
        torch.set_num_threads(cfg.threads or os.cpu_count() or 1)
        torch.manual_seed(cfg.seed)
        self.device = torch.device("cuda" if cfg.device == "auto" and torch.cuda.is_available()
                                   else ("cpu" if cfg.device == "auto" else cfg.device))
        if cfg.precision not in ("auto", "fp32", "bf16"):
            raise ValueError(f"precision is 'auto', 'fp32' or 'bf16', not {cfg.precision!r}")
        has_bf16 = (torch.cuda.is_bf16_supported() if self.device.type == "cuda"
                    else torch.ops.mkldnn._is_mkldnn_bf16_supported())
        self.bf16 = cfg.precision == "bf16" or cfg.precision == "auto" and bool(has_bf16)
        """Whether the products are bfloat16 (:attr:`DMCConfig.precision`)."""
        self.model = make_model(tuple(cfg.hidden)).to(self.device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.actor: QNet | None = None
        """The network the deals in flight are played with (one update behind)."""
        self.state: dict[str, Any] = {"iteration": 0, "steps": 0, "deals": 0, "wall": 0.0,
                                      "cpu": 0.0, "last_eval": -1e9,
                                      "rng": np.random.default_rng(cfg.seed).bit_generator.state}
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.ckpt = self.out / "checkpoint.pt"
        self._resume()
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = self.state["rng"]
        self.collector: DMCCollector | CollectorProcesses | None = None
        self._collectors_cpu = 0.0  # this invocation's collector processes' CPU seconds

    def _resume(self) -> None:
        """Load ``checkpoint.pt`` (or ``.prev.pt`` after a crash between renames), else
        a slim ``checkpoint.npz`` (Adam afresh), if the run has one."""
        torch, cfg = self.torch, self.cfg
        prev, slim = self.ckpt.with_suffix(".prev.pt"), self.out / "checkpoint.npz"
        found = next((p for p in (self.ckpt, prev, slim) if p.exists()), None)
        if found is None:
            return
        if found == slim:
            with np.load(slim) as data:
                if "kind" not in data.files or str(data["kind"]) != KIND:
                    raise ValueError(f"{slim} is not a DMC run's slim checkpoint")
                config, state = (json.loads(str(data["config_json"])),
                                 json.loads(str(data["state_json"])))
                model = {f"{2 * i}.{part}": torch.from_numpy(data[f"{p}{i}"].T.copy()
                                                             if p == "w" else data[f"{p}{i}"])
                         for i in range(len(config["hidden"]) + 1)
                         for p, part in (("w", "weight"), ("b", "bias"))}
                saved: dict[str, Any] = {"kind": KIND, "model": model, "state": state,
                                         "config": config,
                                         "torch_rng": torch.from_numpy(data["torch_rng"])}
        else:
            saved = torch.load(found, weights_only=False, map_location="cpu")
        if checkpoint_kind(saved) != KIND:
            raise ValueError(f"{found} is a {checkpoint_kind(saved).upper()} run's checkpoint, "
                             "not a DMC one (another --out?)")
        was = tuple(saved["config"]["hidden"])
        if was != tuple(cfg.hidden):
            raise ValueError(f"{found} has hidden layers {was}, not {tuple(cfg.hidden)}: "
                             "a run keeps its network (another --out?)")
        reward = saved["config"].get("reward", "score")
        if reward != cfg.reward:
            raise ValueError(f"{found} learns the reward {reward!r}, not {cfg.reward!r}: "
                             "a run keeps its reward (another --out?)")
        self.model.load_state_dict(saved["model"])
        if "opt" in saved:
            self.opt.load_state_dict(saved["opt"])
        else:
            self.log("no optimiser state in the checkpoint (a slim one): Adam starts afresh")
        for group in self.opt.param_groups:
            group["lr"] = cfg.lr
        torch.set_rng_state(saved["torch_rng"])
        self.state = saved["state"]
        if "actor" in saved:
            self.actor = QNet(saved["actor"]["weights"], saved["actor"]["biases"])
        self.log(f"resumed {found}: iteration {self.state['iteration']}, "
                 f"{self.state['steps']:,} steps, {self.state['deals']:,} deals")

    def network(self) -> QNet:
        """The current network as the NumPy :class:`QNet` that plays (a copy)."""
        st = self.state
        model = {k: v.detach().clone() for k, v in self.model.state_dict().items()}
        return qnet_from_state_dict(model, {
            "families": ",".join(self.cfg.families), "scoring": self.cfg.scoring,
            "steps": str(st["steps"]), "deals": str(st["deals"]),
            "iterations": str(st["iteration"])})

    def run(self) -> None:
        """Train for ``cfg.hours`` of wall time (or ``cfg.iterations``), checkpointing and
        evaluating on the way and at the end; SIGTERM or Ctrl+C ends the current
        iteration, evaluates, writes a checkpoint and stops.

        Iteration *k* learns from deals played with the network of one update before
        (iteration 0's, and a run's first after a slim resume, with the current one):
        its deals are played while iteration *k - 1* learns, in ``cfg.collectors``
        other processes, or before it in turn here (0)."""
        cfg = self.cfg
        self.collector = (
            CollectorProcesses(cfg.rules(), cfg.games, cfg.seed, cfg.collectors, cfg.reward,
                               cfg.shards)
            if cfg.collectors else
            DMCCollector(cfg.rules(), cfg.games, cfg.seed, reward=cfg.reward, shards=cfg.shards))
        try:
            if self.actor is None:
                self.actor = self.network()
            self.collector.submit(self.actor, cfg.epsilon, self.state["iteration"])
            with stop_on_signals(self.log, self.torch.get_num_threads()) as stop:
                self._loop(stop)
        finally:
            self.collector.close()
            self.collector = None

    def _loop(self, stop: list[int]) -> None:
        cfg, st = self.cfg, self.state
        start, cpu0 = time.perf_counter(), time.process_time()
        wall0, cpu_before = st["wall"], st["cpu"]
        self._collectors_cpu = 0.0
        last_ckpt, done = start, 0
        while time.perf_counter() - start < cfg.hours * 3600:
            if stop or (cfg.iterations and done >= cfg.iterations):
                break
            done += 1
            self.iterate()
            st["wall"] = wall0 + time.perf_counter() - start
            st["cpu"] = cpu_before + time.process_time() - cpu0 + self._collectors_cpu
            if st["wall"] - st["last_eval"] >= cfg.eval_minutes * 60:
                self.evaluate()
            if time.perf_counter() - last_ckpt >= cfg.checkpoint_minutes * 60:
                self.checkpoint()
                last_ckpt = time.perf_counter()
        if done and cfg.final_eval and st["last_eval"] < st["wall"]:
            self.evaluate()  # where this invocation got to
        self.checkpoint()

    def iterate(self) -> dict[str, float]:
        """One iteration (within :meth:`run`): its deals' decisions received, the next
        iteration's deals started with the network as it is, one update."""
        cfg, st = self.cfg, self.state
        if self.collector is None:
            raise RuntimeError("iterate() runs within run()")
        t0 = time.perf_counter()
        batch: Batch = self.collector.result()
        t1 = time.perf_counter()
        if isinstance(self.collector, CollectorProcesses):  # this process's own is counted
            self._collectors_cpu += batch.cpu
        self.actor = self.network()
        self.collector.submit(self.actor, cfg.epsilon, st["iteration"] + 1)
        t2 = time.perf_counter()
        stats = self.update(batch.x, batch.y)
        t3 = time.perf_counter()
        st["steps"] += batch.steps
        st["deals"] += batch.deals
        st["iteration"] += 1
        stats.update(collect_s=batch.seconds, wait_s=t1 - t0, update_s=t3 - t2,
                     steps_per_s=batch.steps / (t3 - t0))
        self._stats(stats)
        return stats

    def update(self, x: I8, y: F32) -> dict[str, float]:
        """Regress Q(state, chosen play) on the returns *y*; the mean loss and values."""
        torch, cfg = self.torch, self.cfg
        dev = self.device
        xt, yt = torch.from_numpy(x).to(dev), torch.from_numpy(y).to(dev)
        total = n_mb = 0.0
        q_sum = 0.0
        for _ in range(cfg.epochs):
            order = self.rng.permutation(len(x))
            for idx in np.array_split(order, max(1, round(len(x) / cfg.minibatch))):
                it = torch.from_numpy(idx).to(dev)
                with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=self.bf16):
                    pred = self.model(xt[it].float()).squeeze(1).float()
                loss = ((pred - yt[it]) ** 2).mean()
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad)
                self.opt.step()
                total += float(loss.detach())
                q_sum += float(pred.detach().mean())
                n_mb += 1
        return {"loss": total / max(n_mb, 1), "q_mean": q_sum / max(n_mb, 1),
                "return_mean": float(y.mean()) if len(y) else 0.0, "samples": float(len(x))}

    # -- records -------------------------------------------------------------------

    def _stats(self, stats: dict[str, float]) -> None:
        st = self.state
        if st["iteration"] % 10:
            return
        append_stats(self.out / "stats.csv", {
            "iteration": st["iteration"], "steps": st["steps"], "deals": st["deals"],
            "wall_s": round(st["wall"]), "cpu_s": round(st["cpu"]),
            **{k: f"{v:.4g}" for k, v in stats.items()}})
        if st["iteration"] % 50 == 0:
            self.log(f"it {st['iteration']} steps {st['steps']:,} deals {st['deals']:,} "
                     f"{stats['steps_per_s']:.0f} steps/s loss {stats['loss']:.4f}")

    def evaluate(self) -> None:
        """The greedy network in seat 0 against three of each evaluation bot, per family
        (the deals the PPO trainer evaluates on)."""
        from big2.learn.evaluate import evaluate_picker

        net, st, cfg = self.network(), self.state, self.cfg
        st["last_eval"] = st["wall"]
        for fam, rules in cfg.rules().items():
            pick = partial(greedy_picks, net, family=family_index(fam))
            for opp in cfg.eval_opponents:
                ev = evaluate_picker(pick, rules, opp, cfg.eval_deals, seed=12345)
                append_log(self.out / "log.csv", [[
                    f"{st['wall']:.0f}", st["iteration"], st["steps"], st["deals"], fam, opp,
                    f"{ev.mean:.3f}", f"{ev.ci95:.3f}", f"{ev.win_rate:.3f}"]])
                self.log(f"eval {st['steps']:,} steps, {fam} vs 3 {opp}: {ev}")

    def checkpoint(self) -> None:
        """Write the run atomically (it resumes exactly from here); the one before is
        kept as ``checkpoint.prev.pt``. Weights that are not finite raise instead."""
        torch, st = self.torch, self.state
        if not all(bool(torch.isfinite(v).all()) for v in self.model.state_dict().values()):
            raise FloatingPointError(f"the weights are not finite at iteration "
                                     f"{st['iteration']}; {self.ckpt} is left as it was")
        st["rng"] = self.rng.bit_generator.state
        cfg = asdict(self.cfg)
        cfg["hidden"] = list(self.cfg.hidden)
        actor = self.actor or self.network()
        save_checkpoint(self.ckpt, {"kind": KIND, "model": self.model.state_dict(),
                                    "opt": self.opt.state_dict(), "state": st,
                                    "actor": {"weights": actor.weights, "biases": actor.biases},
                                    "torch_rng": torch.get_rng_state(), "config": cfg})


__all__ = ["DMCConfig", "DMCTrainer", "make_model"]
