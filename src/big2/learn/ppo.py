"""PPO self-play training of the policy network (needs PyTorch).

    python -m big2.learn train --out training/ppo --hours 2
    python -m big2.learn export training/ppo src/big2/bots/policy/weights/policy.npz
    python -m big2.learn plot training/ppo -o docs/img/training.png

One network plays every rule family in :data:`~big2.bots.policy.pnet.FAMILIES`
(the family is an input); the games are split evenly between them.

* **Actor** (:class:`~big2.learn.ppo_model.Actor`): the seat's observation
  only; a softmax over the legal plays.
* **Critic** (:class:`~big2.learn.ppo_model.Critic`): the same inputs plus
  every other hand ("perfect training, imperfect execution").
* **Data**: mostly current-policy self-play, a minority of games against
  past selves (a small pool of snapshots) and against fixed bots; only the
  current policy's decisions are learned from. They are played in the
  compiled core (:mod:`big2.learn.ppo_native`, ``--collector native``, the
  default) or in NumPy (:mod:`big2.learn.ppo_collect`, ``--collector
  python``, the reference the core is tested against); both hand the
  learner the same :class:`~big2.learn.ppo_samples.Samples`.
* **Update**: GAE (γ = 1, λ) on each seat's decisions in a deal, the final
  score as the only reward; clipped surrogate, value loss, entropy bonus,
  advantages normalised per minibatch, gradient norm clipped, Adam.

Every ``--checkpoint-minutes`` the run is written atomically to
``OUT/checkpoint.pt`` (actor, critic, optimiser, pool, counters, every
random state; float32, a few MB) and resumes from there exactly when
started again with the same ``--out``; the games in progress are dealt
afresh. :func:`slim_checkpoint` (``python -m big2.learn slim``) writes the
small form the repository keeps (``training/ppo/checkpoint.pt``, under 3 MB):
the actor, critic, counters and random states, without the optimiser's
moments and the past-self pool. A resume from it is not exact: Adam starts
afresh (its moments rebuild within some iterations; the learning rate and
step counters are kept) and the pool refills with the next snapshots, so
until then the pool's games are self-play games. Every ``--eval-minutes`` the greedy policy plays seat 0 against three
of each evaluation bot on fixed deals of each family, a line per pair going
to ``OUT/log.csv``; ``OUT/stats.csv`` has every iteration's losses,
entropy, KL and speed (the sanity gates: value loss falling, entropy not
collapsing).
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import numpy as np

from big2.bots.policy.pnet import FAMILIES, PolicyNet, family_index, sample_plays
from big2.learn.ppo_collect import Collector
from big2.learn.ppo_files import (
    append_log,
    append_stats,
    checkpoint_kind,
    export_policy,
    graft_actor,
    save_checkpoint,
    slim_checkpoint,
    stats_columns,
    stop_on_signals,
)
from big2.learn.ppo_native import NativeCollector, native_reason
from big2.learn.ppo_samples import Samples, gae
from big2.rules import Rules


@dataclass
class PPOConfig:
    """A run's settings (saved in its checkpoint)."""

    out: str
    families: tuple[str, ...] = FAMILIES
    scoring: str = "count"
    seed: int = 0
    hours: float = 1.0
    lr: float = 5e-4
    batch: int = 8192
    """Decisions per update (whole deals, so a little more)."""
    minibatch: int = 2048
    epochs: int = 4
    clip: float = 0.2
    gae_lambda: float = 0.95
    entropy: float = 0.01
    value_coef: float = 0.5
    max_grad: float = 0.5
    self_play: int = 96
    """Self-play games per family."""
    pool: int = 16
    """Games per family against a past self."""
    bots: int = 8
    """Games per family and per opponent bot."""
    opponents: tuple[str, ...] = ("heuristic", "greedy")
    snapshot_every: int = 100
    pool_size: int = 3
    eval_minutes: float = 15.0
    eval_deals: int = 200
    eval_opponents: tuple[str, ...] = ("heuristic", "greedy")
    checkpoint_minutes: float = 5.0
    threads: int = 0
    """PyTorch threads (0: every core)."""
    iterations: int = 0
    """Stop after this many iterations of this invocation (0: only the hours)."""
    device: str = "auto"
    collectors: int = 0
    """Collector processes beside the learner (0: collect in this process,
    which resumes bit for bit; :mod:`big2.learn.ppo_workers`)."""
    ray: str | None = None
    """Collect on Ray actors (:mod:`big2.learn.ppo_ray`; ``collectors`` of them, 0: one
    per CPU of the cluster): ``"local"`` starts a local instance, ``"auto"`` joins
    the running cluster, else the cluster's address. ``None``: no Ray."""
    features: Literal["full", "plain"] = "full"
    """The networks' inputs: ``full`` (the engineered columns and the heuristic's
    hints too) or ``plain`` (the observation, unseen cards, family and the plays'
    cards alone: zero weights held on the rest, :func:`~big2.learn.ppo_model.plain_inputs`),
    for an agent that does not think like the heuristic. A run keeps its choice."""
    precision: Literal["fp32", "bf16"] = "fp32"
    """The update's forward and backward passes: float32, or bfloat16 under autocast
    (weights, optimiser and losses stay float32; about 1.8x the matrix products'
    speed on a CPU with AVX-512 BF16, at bfloat16's 8-bit mantissa)."""
    collector: str = "native"
    """``native`` (the compiled core, :mod:`big2.learn.ppo_native`; NumPy where the
    core cannot play the game mix) or ``python`` (:mod:`big2.learn.ppo_collect`)."""

    def rules(self) -> dict[str, Rules]:
        """Each family's rule set, with the run's scoring."""
        return {f: Rules.preset(f).replace(scoring=self.scoring) for f in self.families}


class Trainer:
    """A run: the networks, the optimiser, the collector and the counters."""

    def __init__(self, cfg: PPOConfig, log: Any = print) -> None:
        import torch

        from big2.learn.ppo_model import Actor, Critic, plain_inputs, widen_checkpoint

        self.torch = torch
        self.cfg, self.log = cfg, log
        torch.set_num_threads(cfg.threads or os.cpu_count() or 1)
        dev = cfg.device
        self.device = torch.device("cuda" if dev == "auto" and torch.cuda.is_available()
                                   else ("cpu" if dev == "auto" else dev))
        torch.manual_seed(cfg.seed)
        self.actor, self.critic = Actor().to(self.device), Critic().to(self.device)
        self.opt = torch.optim.Adam([*self.actor.parameters(), *self.critic.parameters()],
                                    lr=cfg.lr, eps=1e-5)
        self.state: dict[str, Any] = {"iteration": 0, "steps": 0, "deals": 0, "samples": 0,
                                      "wall": 0.0, "cpu": 0.0, "pool": [], "last_eval": -1e9,
                                      "rng": np.random.default_rng(cfg.seed).bit_generator.state}
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.ckpt = self.out / "checkpoint.pt"
        prev = self.ckpt.with_suffix(".prev.pt")
        found = self.ckpt if self.ckpt.exists() else prev if prev.exists() else None
        if found is not None:  # (the previous one only if a crash came between the renames)
            saved = torch.load(found, weights_only=False, map_location=self.device)
            if checkpoint_kind(saved) != "ppo":
                raise ValueError(f"{found} is a {checkpoint_kind(saved).upper()} run's checkpoint, "
                                 "not a PPO one (another --out?)")
            was = saved.get("config", {}).get("features", "full")
            if was != cfg.features:
                raise ValueError(f"{found} was trained with features={was!r}, not "
                                 f"{cfg.features!r}: a run keeps its inputs (another --out?)")
            if widen_checkpoint(saved, self.actor, self.critic):
                log("widened the checkpoint to the new inputs (zero weights on them)")
            self.actor.load_state_dict(saved["actor"])
            self.critic.load_state_dict(saved["critic"])
            if "opt" in saved:  # a slim checkpoint has none: Adam starts afresh
                self.opt.load_state_dict(saved["opt"])
            else:
                log("no optimiser state in the checkpoint (a slim one): Adam starts afresh")
            for group in self.opt.param_groups:  # the saved state carries the old rate:
                group["lr"] = cfg.lr  # this invocation's --lr holds (once ignored on resume)
            torch.set_rng_state(saved["torch_rng"])
            self.state = saved["state"]
            log(f"resumed {found}: iteration {self.state['iteration']}, "
                f"{self.state['steps']:,} steps, {self.state['deals']:,} deals")
        if cfg.features not in ("full", "plain"):
            raise ValueError(f"features must be 'full' or 'plain', not {cfg.features!r}")
        if cfg.features == "plain":
            plain_inputs(self.actor, self.critic)
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = self.state["rng"]
        self.worker_cpu = 0.0
        """CPU seconds the collector processes spent in this invocation."""

    @cached_property
    def collector(self) -> Collector | NativeCollector:
        """The games played in this process (built on first use: never with
        ``--collectors``, whose workers own theirs); it draws from the run's
        generator, so a run resumes exactly."""
        c = make_collector(self.cfg, self.cfg.seed * 100_003 + self.state["iteration"],
                           self.log)
        c.rng = self.rng
        return c

    # -- the loop ------------------------------------------------------------------

    def policy(self) -> PolicyNet:
        """The current actor as the NumPy network that plays."""
        st = self.state
        return self.actor.to_numpy({"families": ",".join(self.cfg.families),
                                    "scoring": self.cfg.scoring, "steps": str(st["steps"]),
                                    "deals": str(st["deals"]), "cpu_s": f"{st['cpu']:.0f}",
                                    "iterations": str(st["iteration"])})

    def run(self) -> None:
        """Train for ``cfg.hours`` of wall time (checkpointing and evaluating on the
        way); SIGTERM or Ctrl+C ends the current iteration, writes a checkpoint and stops."""
        with stop_on_signals(self.log, self.torch.get_num_threads()) as stop:
            self._loop(stop)

    def _loop(self, stop: list[int]) -> None:
        cfg, st = self.cfg, self.state
        start, cpu0 = time.perf_counter(), time.process_time()
        wall0, cpu_before = st["wall"], st["cpu"]
        last_ckpt = start
        done = 0
        workers: Any = None
        seed = cfg.seed * 100_003 + st["iteration"]
        if cfg.ray is not None:
            from big2.learn.ppo_ray import RayCollectors

            workers = RayCollectors(cfg.collectors, cfg.rules(), self.collector_options(), seed,
                                    native=uses_native(cfg, self.log),
                                    address=None if cfg.ray == "local" else cfg.ray)
        elif cfg.collectors:
            from big2.learn.ppo_workers import Collectors

            workers = Collectors(cfg.collectors, cfg.rules(), self.collector_options(), seed,
                                 native=uses_native(cfg, self.log))
        try:
            while time.perf_counter() - start < cfg.hours * 3600:
                if stop or (cfg.iterations and done >= cfg.iterations):
                    break
                done += 1
                self._iterate(workers, start, cpu0, wall0, cpu_before)
                if time.perf_counter() - last_ckpt >= cfg.checkpoint_minutes * 60:
                    self.checkpoint()
                    last_ckpt = time.perf_counter()
        finally:
            if workers is not None:
                workers.close()
        self.checkpoint()

    def collector_options(self) -> dict[str, Any]:
        """The :class:`~big2.learn.ppo_collect.Collector`'s game mix of this run."""
        return collector_options(self.cfg)

    def _iterate(self, workers: Any, start: float, cpu0: float, wall0: float,
                 cpu_before: float) -> None:
        """One iteration: a batch (from this process or the workers), an update."""
        cfg, st = self.cfg, self.state
        t0 = time.perf_counter()
        net = self.policy()
        pool = st["pool"]
        rival = self._pool_net(pool[int(self.rng.integers(len(pool)))]) if pool else None
        if workers is None:
            steps0, deals0 = self.collector.steps, self.collector.deals
            got = self.collector.collect(net, rival, cfg.batch)
            batch = got if isinstance(got, Samples) else Samples.from_trajectories(got)
            steps, deals = self.collector.steps - steps0, self.collector.deals - deals0
        else:
            if not workers.waiting:  # the first batch of this invocation
                workers.request(net, rival, cfg.batch)
            batch, steps, deals, cpu = workers.receive()
            self.worker_cpu += cpu
            workers.request(net, rival, cfg.batch)  # played while this update runs
        if cfg.features == "plain":
            batch.plain()  # what the networks read (the core left it 0 already)
        t1 = time.perf_counter()
        stats = self.update(batch)
        t2 = time.perf_counter()
        st["steps"] += steps
        st["deals"] += deals
        st["samples"] += batch.size
        st["iteration"] += 1
        st["wall"] = wall0 + time.perf_counter() - start
        st["cpu"] = cpu_before + time.process_time() - cpu0 + self.worker_cpu
        stats.update(collect_s=t1 - t0, update_s=t2 - t1, steps_per_s=steps / (t2 - t0))
        self._stats(stats)
        if st["iteration"] % cfg.snapshot_every == 0:
            from big2.learn.ppo_model import state_dict_half

            st["pool"] = (pool + [state_dict_half(self.actor)])[-cfg.pool_size:]
        if st["wall"] - st["last_eval"] >= cfg.eval_minutes * 60:
            st["last_eval"] = st["wall"]
            self.evaluate()

    def _pool_net(self, weights: dict[str, Any]) -> PolicyNet:
        from big2.learn.ppo_model import Actor

        a = Actor()
        a.load_state_dict({k: v.float() for k, v in weights.items()})
        return a.to_numpy()

    def update(self, b: Samples) -> dict[str, float]:
        """One PPO update on the samples *b*; the mean losses, entropy and KL."""
        from big2.learn.ppo_model import masked_log_softmax

        torch, cfg, dev = self.torch, self.cfg, self.device
        state = torch.from_numpy(b.state).to(dev)
        hidden = torch.from_numpy(b.hidden.astype(np.float32)).to(dev)
        with torch.no_grad():
            values = self.critic(state, hidden).cpu().numpy()
        adv, ret = gae(values, b, cfg.gae_lambda)
        adv_t, ret_t = torch.from_numpy(adv).to(dev), torch.from_numpy(ret).to(dev)
        old_logp = torch.from_numpy(b.logp).to(dev)
        pick = torch.from_numpy(b.pick).to(dev)
        plays = torch.from_numpy(b.plays).to(dev)
        if cfg.precision not in ("fp32", "bf16"):
            raise ValueError(f"precision must be 'fp32' or 'bf16', not {cfg.precision!r}")
        autocast = torch.autocast(dev.type, dtype=torch.bfloat16,
                                  enabled=cfg.precision == "bf16")
        sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "kl": 0.0, "clipped": 0.0}
        n_mb = skipped = 0
        for _ in range(cfg.epochs):
            order = self.rng.permutation(b.size)
            # equal shares, never a remnant of one sample (its advantage's std is NaN:
            # that NaN once reached the weights)
            for idx in np.array_split(order, max(1, round(b.size / cfg.minibatch))):
                rows, slots, flat = b.rows(idx)
                it = torch.from_numpy(idx).to(dev)
                r_t, s_t = torch.from_numpy(rows).to(dev), torch.from_numpy(slots).to(dev)
                with autocast:
                    scores = self.actor(state[it], r_t,
                                        plays[torch.from_numpy(flat).to(dev)]).float()
                    v = self.critic(state[it], hidden[it]).float()
                k = int(b.counts[idx].max())
                logp_all, ent = masked_log_softmax(scores, r_t, s_t, len(idx), k)
                logp = logp_all.gather(1, pick[it][:, None]).squeeze(1)
                a = adv_t[it]
                a = (a - a.mean()) / (a.std(correction=0) + 1e-8)
                ratio = torch.exp(logp - old_logp[it])
                surr = torch.min(ratio * a, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a)
                policy_loss = -surr.mean()
                value_loss = ((v - ret_t[it]) ** 2).mean()
                entropy = ent.mean()
                loss = policy_loss + cfg.value_coef * value_loss - cfg.entropy * entropy
                self.opt.zero_grad()
                loss.backward()
                norm = torch.nn.utils.clip_grad_norm_([*self.actor.parameters(),
                                                       *self.critic.parameters()], cfg.max_grad)
                if not (torch.isfinite(loss) and torch.isfinite(norm)):
                    skipped += 1  # a step that would poison the weights is not taken
                    continue
                self.opt.step()
                with torch.no_grad():
                    sums["policy_loss"] += float(policy_loss)
                    sums["value_loss"] += float(value_loss)
                    sums["entropy"] += float(entropy)
                    sums["kl"] += float((old_logp[it] - logp).mean())
                    sums["clipped"] += float(((ratio - 1).abs() > cfg.clip).float().mean())
                n_mb += 1
        out = {k: v / max(n_mb, 1) for k, v in sums.items()}
        out["skipped"] = float(skipped)
        out["samples"] = float(b.size)
        out["return_mean"] = float(np.mean(b.rewards))
        return out

    # -- records -------------------------------------------------------------------

    def _stats(self, stats: dict[str, float]) -> None:
        path = self.out / "stats.csv"
        st = self.state
        if st["iteration"] % 10:
            return  # a line every ten iterations keeps the committed file small
        row = {"iteration": st["iteration"], "steps": st["steps"], "deals": st["deals"],
               "wall_s": round(st["wall"]), "cpu_s": round(st["cpu"]),
               **{k: f"{v:.4g}" for k, v in stats.items()}}
        append_stats(path, row)
        if st["iteration"] % 50 == 0:
            self.log(f"it {st['iteration']} steps {st['steps']:,} deals {st['deals']:,} "
                     f"{stats['steps_per_s']:.0f} steps/s vloss {stats['value_loss']:.3f} "
                     f"entropy {stats['entropy']:.3f} kl {stats['kl']:.4f}")

    def evaluate(self) -> None:
        """The greedy policy in seat 0 against three of each evaluation bot, per family."""
        from big2.learn.evaluate import evaluate_policy

        net, st, cfg = self.policy(), self.state, self.cfg
        for fam, rules in cfg.rules().items():
            for opp in cfg.eval_opponents:
                ev = evaluate_policy(net, rules, opp, cfg.eval_deals, family=fam, seed=12345)
                append_log(self.out / "log.csv", [[
                    f"{st['wall']:.0f}", st["iteration"], st["steps"], st["deals"], fam, opp,
                    f"{ev.mean:.3f}", f"{ev.ci95:.3f}", f"{ev.win_rate:.3f}"]])
                self.log(f"eval {st['steps']:,} steps, {fam} vs 3 {opp}: {ev}")

    def checkpoint(self) -> None:
        """Write the run atomically (resumes exactly from here); the one before
        is kept as ``checkpoint.prev.pt``. Weights that are not finite are never
        written: that raises instead."""
        torch, st = self.torch, self.state
        for net in (self.actor, self.critic):
            if not all(bool(torch.isfinite(v).all()) for v in net.state_dict().values()):
                raise FloatingPointError(f"the weights are not finite at iteration "
                                         f"{st['iteration']}; {self.ckpt} is left as it was")
        st["rng"] = self.rng.bit_generator.state
        save_checkpoint(self.ckpt, {
            "actor": self.actor.state_dict(), "critic": self.critic.state_dict(),
            "opt": self.opt.state_dict(), "state": st, "torch_rng": torch.get_rng_state(),
            "config": asdict(self.cfg)})


def collector_options(cfg: PPOConfig) -> dict[str, Any]:
    """The game mix of run *cfg* (the collectors' keyword options but the seed)."""
    return {"self_play": cfg.self_play, "pool": cfg.pool, "bots": cfg.bots,
            "opponents": cfg.opponents, "plain": cfg.features == "plain"}


def uses_native(cfg: PPOConfig, log: Any = print) -> bool:
    """Whether run *cfg* collects in the core: asked for (``collector="native"``) and
    the core plays its game mix (else it says why, and NumPy collects)."""
    if cfg.collector not in ("native", "python"):
        raise ValueError(f"collector must be 'native' or 'python', not {cfg.collector!r}")
    if cfg.collector == "python":
        return False
    why = native_reason(cfg.rules(), cfg.opponents if cfg.bots else ())
    if why is not None:
        log(f"collecting in NumPy: the core's collector cannot play {why}")
    return why is None


def make_collector(cfg: PPOConfig, seed: int, log: Any = print) -> Collector | NativeCollector:
    """Run *cfg*'s collector (:func:`uses_native` says which kind) seeded by *seed*."""
    kind = NativeCollector if uses_native(cfg, log) else Collector
    return kind(cfg.rules(), seed=seed, **collector_options(cfg))


def greedy_choice(net: PolicyNet, obs: np.ndarray, cards: np.ndarray, counts: np.ndarray,
                  family: str) -> np.ndarray:
    """Each row's most probable play (the ``hard`` bot's choice)."""
    fam = np.full(len(obs), family_index(family))
    pick, _ = sample_plays(net, obs, fam, cards, counts, np.random.default_rng(0), greedy=True)
    return pick


__all__ = ["PPOConfig", "Trainer", "collector_options", "export_policy", "graft_actor",
           "greedy_choice", "make_collector", "slim_checkpoint", "stats_columns", "uses_native"]
