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
* **Data** (:mod:`big2.learn.ppo_collect`): mostly current-policy self-play,
  a minority of games against past selves (a small pool of snapshots) and
  against fixed bots; only the current policy's decisions are learned from.
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

import csv
import os
import signal
import time
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from big2.bots.policy.pfeatures import unseen_cards
from big2.bots.policy.pnet import (
    FAMILIES,
    PolicyNet,
    family_index,
    play_features,
    sample_plays,
    state_features,
)
from big2.learn.ppo_collect import Collector, Trajectory
from big2.learn.ppo_files import export_policy, graft_actor, slim_checkpoint
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

    def rules(self) -> dict[str, Rules]:
        """Each family's rule set, with the run's scoring."""
        return {f: Rules.preset(f).replace(scoring=self.scoring) for f in self.families}


def _gae(values: np.ndarray, trajs: list[Trajectory], lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns of concatenated trajectories (γ = 1, reward at the end)."""
    adv = np.zeros_like(values)
    at = 0
    for t in trajs:
        n = len(t.pick)
        v = values[at:at + n]
        nxt = np.append(v[1:], t.reward)
        delta = nxt - v
        acc = 0.0
        for j in range(n - 1, -1, -1):
            acc = delta[j] + lam * acc
            adv[at + j] = acc
        at += n
    return adv, adv + values


class _Batch:
    """Trajectories as arrays: states, hidden hands, flat plays with offsets."""

    def __init__(self, trajs: list[Trajectory]) -> None:
        obs = np.stack([o for t in trajs for o in t.obs])
        fam = np.concatenate([np.full(len(t.pick), t.family) for t in trajs])
        self.state = state_features(obs, fam)
        self.hidden = np.stack([h for t in trajs for h in t.hidden]).astype(np.float32)
        plays = [p for t in trajs for p in t.plays]
        self.counts = np.array([len(p) for p in plays], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.counts)[:-1]])
        hands = np.repeat(obs[:, :52], self.counts, axis=0)
        unseen = np.repeat(unseen_cards(obs), self.counts, axis=0)
        flat = np.concatenate(plays)
        hint = np.concatenate([h for t in trajs for h in t.hints])  # as the policy read them
        self.plays = play_features(flat, hands, unseen, hint)
        self.pick = np.array([p for t in trajs for p in t.pick], dtype=np.int64)
        self.logp = np.array([p for t in trajs for p in t.logp], dtype=np.float32)
        self.size = len(self.pick)

    def rows(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For samples *idx*: each play row's sample (0..len(idx)), slot, and flat index."""
        counts = self.counts[idx]
        rows = np.repeat(np.arange(len(idx)), counts)
        first = np.repeat(np.cumsum(counts) - counts, counts)
        slots = np.arange(len(rows)) - first
        flat = np.repeat(self.starts[idx], counts) + slots
        return rows, slots, flat


class Trainer:
    """A run: the networks, the optimiser, the collector and the counters."""

    def __init__(self, cfg: PPOConfig, log: Any = print) -> None:
        import torch

        from big2.learn.ppo_model import Actor, Critic, widen_checkpoint

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
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = self.state["rng"]
        self.worker_cpu = 0.0
        """CPU seconds the collector processes spent in this invocation."""

    @cached_property
    def collector(self) -> Collector:
        """The games played in this process (built on first use: never with
        ``--collectors``, whose workers own theirs); it draws from the run's
        generator, so a run resumes exactly."""
        c = Collector(self.cfg.rules(), seed=self.cfg.seed * 100_003 + self.state["iteration"],
                      **self.collector_options())
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
        from threadpoolctl import threadpool_limits

        stop: list[int] = []

        def request_stop(signum: int, frame: object) -> None:
            stop.append(signum)
            self.log("stopping after this iteration (checkpoint follows)")

        old = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
        # NumPy's BLAS threads fight the trainer's own (8x slower seen on 2 busy cores)
        try:
            with threadpool_limits(self.torch.get_num_threads(), user_api="blas"):
                self._loop(stop)
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)

    def _loop(self, stop: list[int]) -> None:
        cfg, st = self.cfg, self.state
        start, cpu0 = time.perf_counter(), time.process_time()
        wall0, cpu_before = st["wall"], st["cpu"]
        last_ckpt = start
        done = 0
        workers = None
        if cfg.collectors:
            from big2.learn.ppo_workers import Collectors

            workers = Collectors(cfg.collectors, cfg.rules(), self.collector_options(),
                                 seed=cfg.seed * 100_003 + st["iteration"])
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
        cfg = self.cfg
        return {"self_play": cfg.self_play, "pool": cfg.pool, "bots": cfg.bots,
                "opponents": cfg.opponents}

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
            trajs = self.collector.collect(net, rival, cfg.batch)
            steps, deals = self.collector.steps - steps0, self.collector.deals - deals0
        else:
            if not workers.waiting:  # the first batch of this invocation
                workers.request(net, rival, cfg.batch)
            trajs, steps, deals, cpu = workers.receive()
            self.worker_cpu += cpu
            workers.request(net, rival, cfg.batch)  # played while this update runs
        t1 = time.perf_counter()
        stats = self.update(trajs)
        t2 = time.perf_counter()
        st["steps"] += steps
        st["deals"] += deals
        st["samples"] += sum(len(t.pick) for t in trajs)
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

    def update(self, trajs: list[Trajectory]) -> dict[str, float]:
        """One PPO update on *trajs*; the mean losses, entropy and KL."""
        from big2.learn.ppo_model import masked_log_softmax

        torch, cfg, dev = self.torch, self.cfg, self.device
        b = _Batch(trajs)
        state = torch.from_numpy(b.state).to(dev)
        hidden = torch.from_numpy(b.hidden).to(dev)
        with torch.no_grad():
            values = self.critic(state, hidden).cpu().numpy()
        adv, ret = _gae(values, trajs, cfg.gae_lambda)
        adv_t, ret_t = torch.from_numpy(adv).to(dev), torch.from_numpy(ret).to(dev)
        old_logp = torch.from_numpy(b.logp).to(dev)
        pick = torch.from_numpy(b.pick).to(dev)
        plays = torch.from_numpy(b.plays).to(dev)
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
                scores = self.actor(state[it], r_t, plays[torch.from_numpy(flat).to(dev)])
                k = int(b.counts[idx].max())
                logp_all, ent = masked_log_softmax(scores, r_t, s_t, len(idx), k)
                logp = logp_all.gather(1, pick[it][:, None]).squeeze(1)
                a = adv_t[it]
                a = (a - a.mean()) / (a.std(correction=0) + 1e-8)
                ratio = torch.exp(logp - old_logp[it])
                surr = torch.min(ratio * a, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * a)
                policy_loss = -surr.mean()
                v = self.critic(state[it], hidden[it])
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
        out["return_mean"] = float(np.mean([t.reward for t in trajs]))
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
        new = not path.exists()
        with path.open("a", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(row))
            if new:
                w.writeheader()
            w.writerow(row)
        if st["iteration"] % 50 == 0:
            self.log(f"it {st['iteration']} steps {st['steps']:,} deals {st['deals']:,} "
                     f"{stats['steps_per_s']:.0f} steps/s vloss {stats['value_loss']:.3f} "
                     f"entropy {stats['entropy']:.3f} kl {stats['kl']:.4f}")

    def evaluate(self) -> None:
        """The greedy policy in seat 0 against three of each evaluation bot, per family."""
        from big2.learn.evaluate import evaluate_policy

        net, st, cfg = self.policy(), self.state, self.cfg
        path = self.out / "log.csv"
        new = not path.exists()
        with path.open("a", newline="") as fh:
            w = csv.writer(fh)
            if new:
                w.writerow(["wall_s", "iteration", "steps", "deals", "family", "opponent",
                            "points", "ci95", "win_rate"])
            for fam, rules in cfg.rules().items():
                for opp in cfg.eval_opponents:
                    ev = evaluate_policy(net, rules, opp, cfg.eval_deals, family=fam, seed=12345)
                    w.writerow([f"{st['wall']:.0f}", st["iteration"], st["steps"], st["deals"],
                                fam, opp, f"{ev.mean:.3f}", f"{ev.ci95:.3f}",
                                f"{ev.win_rate:.3f}"])
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
        tmp = self.ckpt.with_suffix(".tmp")
        torch.save({"actor": self.actor.state_dict(), "critic": self.critic.state_dict(),
                    "opt": self.opt.state_dict(), "state": st, "torch_rng": torch.get_rng_state(),
                    "config": asdict(self.cfg)}, tmp)
        if self.ckpt.exists():
            os.replace(self.ckpt, self.ckpt.with_suffix(".prev.pt"))
        os.replace(tmp, self.ckpt)


def greedy_choice(net: PolicyNet, obs: np.ndarray, cards: np.ndarray, counts: np.ndarray,
                  family: str) -> np.ndarray:
    """Each row's most probable play (the ``hard`` bot's choice)."""
    fam = np.full(len(obs), family_index(family))
    pick, _ = sample_plays(net, obs, fam, cards, counts, np.random.default_rng(0), greedy=True)
    return pick


__all__ = ["PPOConfig", "Trainer", "export_policy", "graft_actor", "greedy_choice", "slim_checkpoint"]
