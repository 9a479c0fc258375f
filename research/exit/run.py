"""Expert iteration (ExIt): the search plays, the policy learns from it, a gate keeps what wins.

    python -m research.exit --out training/exit --hours 2

A round (:class:`ExpertIteration`):

1. **self-play** (:mod:`research.exit.data`): ``deals`` deals of each rule
   family where ``guided-search`` (the ``hard`` search, ``budget``
   play-outs, 100 by default) on the kept network plays every seat; each searched decision
   is recorded with the search's values and shares;
2. **learning** (:mod:`research.exit.train`): a copy of the kept actor is
   trained toward the search's targets on this round's decisions and those
   of the ``replay - 1`` rounds before;
3. **gate** (:mod:`research.exit.gate`): ``hard`` on the new network against
   ``hard`` on the kept one (``gate_budget`` play-outs, the level's),
   ``gate_deals`` duplicate deals per family paired against three
   ``heuristic`` (1,000 by default, as issue 45 asks of each round) and
   ``gate_h2h_deals`` head to head (250: four searching seats a deal); the new network is kept when
   it wins (:func:`~research.exit.gate.wins`). After ``patience`` losing rounds
   in a row the run stops and says why.

Self-play and the gate run in ``workers`` local processes (by default one
per core; 1: this process), or on Ray actors (``ray``: a cluster's address; :mod:`research.exit.pool`).

**Files** (``OUT/``): ``checkpoint.pt``, the kept network as a PPO checkpoint
(actor, critic, counters: ``python -m big2.learn export-policy OUT ...`` and
``train --out`` read it), its ``state["exit"]`` the rounds so far;
``policy.npz``, the kept actor as the bots load it; ``rounds.csv``, a line
per round (what it learnt and every gate figure); ``log.txt``, what the run
printed; ``work/rNNN/``, a round's self-play shards (written every
``checkpoint_minutes``), its candidate network and its gate's deals (a line
each, as they finish). A run started again with the same ``OUT`` resumes
where it stopped: finished deals are not replayed. Ctrl-C or SIGTERM stops
once the deal this process is waiting on comes in, with every finished deal
written (the deals the workers were still playing are played again on
resume); a second Ctrl-C stops at once (losing only the deals since the last
shard).
"""

from __future__ import annotations

import csv
import json
import os
import signal
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from big2.bots.base import LEVEL_OPTIONS
from big2.bots.policy.pnet import FAMILIES, PolicyNet, load_policy
from research.exit.data import DealJob, Samples, play_deal
from research.exit.gate import gate_jobs, play_gate, summarise, wins
from research.exit.pool import Pool, make_pool
from research.exit.train import fit, targets, teaching

START = "training/ppo/checkpoint.pt"
"""The PPO checkpoint a new run starts from."""


@dataclass
class ExItConfig:
    """A run's settings (each a ``python -m research.exit`` option)."""

    out: str
    start: str = START
    families: tuple[str, ...] = FAMILIES
    scoring: str = "count"
    seed: int = 0
    budget: int = 100
    """Play-outs a decision of the search in self-play (``hard`` played 100 until 2026-12-05)."""
    gate_budget: int = LEVEL_OPTIONS["hard"]["budget"]
    """Play-outs a decision of ``hard`` in the gate (the level's)."""
    deals: int = 300
    """Self-play deals per family a round."""
    gate_deals: int = 1000
    """Duplicate deals per family of a gate's paired runs against ``heuristic``."""
    gate_h2h_deals: int = 250
    """Duplicate deals per family of a gate's head to head (four searching seats a deal)."""
    target: str = "values"
    temperature: float = 1.0
    favour: float = 1.0
    significance: float = 0.0
    """Above 0: only decisions where the search overturned the policy by
    more than this many standard errors teach (:func:`~research.exit.train.teaching`)."""
    loss: str = "ce"
    optimizer: str = "adam"
    """``adam`` or ``sgd`` (:func:`~research.exit.train.fit`)."""
    epochs: int = 3
    minibatch: int = 512
    lr: float = 3e-4
    replay: int = 2
    """Rounds of self-play learnt from (this one and those before it)."""
    holdout: float = 0.1
    """The share of the decisions kept out of the learning (the last ones of
    this round's self-play: :func:`holdout_split`), to measure whether it generalises."""
    rounds: int = 0
    """Rounds this invocation plays at most (0: no limit)."""
    patience: int = 2
    """Losing rounds in a row that stop the run."""
    hours: float = 1.0
    workers: int = 0
    """Local worker processes (0: one per core; 1: this process), or Ray actors."""
    ray: str | None = None
    checkpoint_minutes: float = 5.0
    threads: int = 1


def holdout_split(replayed: list[Samples], fresh: Samples, share: float
                  ) -> tuple[Samples, Samples]:
    """The decisions a round learns from and those it holds out: *share* of
    all of them, taken from the end of this round's self-play (*fresh*), so
    that no network has learnt from a held-out decision. (Until 2026-12-05
    the tail of the replayed rounds was held out, decisions the kept network
    had learnt from when the round before was kept.)"""
    every = Samples.concat([*replayed, fresh])
    cut = every.size - min(round(every.size * share), fresh.size)
    return every.part(0, cut), every.part(cut, every.size)


def last_recorded_round(rounds_csv: Path) -> int:
    """The highest round ``rounds.csv`` records (0 when it is missing or empty). A
    checkpoint committed before later rounds were recorded (rounds not kept leave the
    network as it was) would otherwise number the next round as one already recorded."""
    if not rounds_csv.exists():
        return 0
    with rounds_csv.open(newline="") as f:
        return max((int(row["round"]) for row in csv.DictReader(f) if row.get("round")),
                   default=0)


class ExpertIteration:
    """A run (see the module docstring); :meth:`run` plays rounds."""

    def __init__(self, cfg: ExItConfig, log: Any = print, pool: Pool | None = None) -> None:
        import torch

        self.torch, self.cfg = torch, cfg
        torch.set_num_threads(max(1, cfg.threads))
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self._echo = log
        self.ckpt = self.out / "checkpoint.pt"
        if not self.ckpt.exists():
            self._begin()
        self.saved: dict[str, Any] = torch.load(self.ckpt, weights_only=False, map_location="cpu")
        self.ex: dict[str, Any] = self.saved["state"]["exit"]
        # numbered after the last recorded round (see last_recorded_round)
        self.ex["round"] = max(self.ex["round"], last_recorded_round(self.out / "rounds.csv"))
        if not (self.out / "policy.npz").exists():  # a checkpoint alone (as committed)
            self._export(self.saved["actor"], self.out / "policy.npz", self.saved)
        self.pool = pool or make_pool(cfg.workers, cfg.ray)
        self.stop: list[str] = []
        self.deadline = time.monotonic() + cfg.hours * 3600

    # -- files ----------------------------------------------------------------------

    def log(self, msg: str) -> None:
        """Print *msg* and add it to ``log.txt``."""
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {msg}"
        self._echo(line)
        with (self.out / "log.txt").open("a") as fh:
            fh.write(line + "\n")

    def _begin(self) -> None:
        """A new run: the start checkpoint, brought to the current inputs, as round 0."""
        from big2.learn.ppo_model import Actor, Critic, widen_checkpoint

        torch = self.torch
        saved = torch.load(self.cfg.start, weights_only=False, map_location="cpu")
        widen_checkpoint(saved, Actor(), Critic())
        saved.pop("opt", None)
        saved["state"] = {**saved["state"], "pool": [],
                          "exit": {"round": 0, "losing": 0, "kept": [], "decisions": 0,
                                   "deals": 0, "wall": 0.0, "start": str(self.cfg.start)}}
        self._write(saved)
        self.log(f"new run from {self.cfg.start}: {saved['state']['steps']:,} PPO steps")

    def _write(self, saved: dict[str, Any]) -> None:
        tmp = self.ckpt.with_suffix(".tmp")
        self.torch.save(saved, tmp)
        if self.ckpt.exists():
            os.replace(self.ckpt, self.ckpt.with_suffix(".prev.pt"))
        os.replace(tmp, self.ckpt)
        self._export(saved["actor"], self.out / "policy.npz", saved)

    def _export(self, actor_state: dict[str, Any], path: Path, saved: dict[str, Any]) -> None:
        """Write an actor as the bots load it (float16, as the package ships them)."""
        from big2.learn.ppo_model import Actor

        actor = Actor()
        actor.load_state_dict(actor_state)
        st = saved["state"]
        net = actor.to_numpy({"families": ",".join(saved["config"]["families"]),
                              "scoring": saved["config"]["scoring"], "steps": str(st["steps"]),
                              "exit_round": str(st["exit"]["round"]),
                              "exit_kept": ",".join(map(str, st["exit"]["kept"]))})
        net.save(path)

    def _work(self, r: int) -> Path:
        path = self.out / "work" / f"r{r:03d}"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def _time_up(self) -> bool:
        return bool(self.stop) or time.monotonic() > self.deadline

    # -- the loop -------------------------------------------------------------------

    def run(self) -> str:
        """Play rounds until the hours, the rounds, the patience or Ctrl-C end
        the run; the reason it stopped."""
        def request_stop(signum: int, frame: object) -> None:
            if self.stop:  # the second Ctrl-C: at once
                signal.signal(signal.SIGINT, signal.default_int_handler)
                raise KeyboardInterrupt
            self.stop.append(signal.Signals(signum).name)
            self.log("stopping (every finished deal is kept)")

        old = {s: signal.signal(s, request_stop) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            return self._loop()
        finally:
            for s, h in old.items():
                signal.signal(s, h)
            self.pool.close()

    def _loop(self) -> str:
        cfg, done = self.cfg, 0
        while True:
            if self.ex["losing"] >= cfg.patience:
                why = (f"stopped: {self.ex['losing']} losing rounds in a row "
                       f"(the last: {self.ex.get('last', '?')})")
                self.log(why)
                return why
            if cfg.rounds and done >= cfg.rounds:
                return f"stopped: {done} rounds played"
            if self._time_up():
                why = "stopped: " + (f"{self.stop[0]}" if self.stop else "the hours are up")
                self.log(why)
                return why
            if not self.round(self.ex["round"] + 1):
                continue
            done += 1

    def net(self) -> PolicyNet:
        """The kept network as the bots play it."""
        return load_policy(self.out / "policy.npz")

    def round(self, r: int) -> bool:
        """Round *r* from where it stands; whether it finished."""
        t0 = time.monotonic()
        work = self._work(r)
        samples = self.generate(r, work)
        if samples is None:
            return False
        cand = work / "candidate.pt"
        if not cand.exists():
            self.learn(r, work, samples)
        candidate = load_policy(work / "candidate.npz")
        figures = self.gate(r, work, candidate)
        if figures is None:
            return False
        self.decide(r, work, figures, time.monotonic() - t0)
        return True

    def generate(self, r: int, work: Path) -> Samples | None:
        """Round *r*'s self-play (resumed from its shards); ``None`` if stopped first."""
        cfg = self.cfg
        index = work / "shards.jsonl"
        done: set[tuple[str, int]] = set()
        parts: list[Samples] = []
        lines = index.read_text().splitlines() if index.exists() else []
        for line in lines:
            entry = json.loads(line)
            parts.append(Samples.load(work / entry["file"]))
            done |= {(f, i) for f, i in entry["jobs"]}
        jobs = [DealJob(f, cfg.scoring, cfg.seed * 1_000_003 + r, i, cfg.budget)
                for i in range(cfg.deals) for f in cfg.families if (f, i) not in done]
        if jobs:
            self.log(f"round {r}: self-play, {len(jobs)} of {cfg.deals * len(cfg.families)} "
                     f"deals to play (budget {cfg.budget})")
        pending: list[tuple[DealJob, Samples]] = []
        last = start = time.monotonic()
        shown = start

        def flush() -> None:
            nonlocal pending, last
            if not pending:
                return
            name = f"shard-{len(lines):04d}.npz"
            part = Samples.concat([s for _, s in pending])
            part.save(work / (name + ".tmp.npz"))
            os.replace(work / (name + ".tmp.npz"), work / name)
            entry = {"file": name, "jobs": [[j.family, j.index] for j, _ in pending]}
            with index.open("a") as fh:
                fh.write(json.dumps(entry) + "\n")
            lines.append(name)
            parts.append(part)
            pending, last = [], time.monotonic()

        finished = len(done)
        if jobs:
            try:
                for job, s in self.pool.map(play_deal, self.net(), jobs):
                    pending.append((job, s))
                    finished += 1
                    now = time.monotonic()
                    if now - last >= cfg.checkpoint_minutes * 60:
                        flush()
                    if now - shown >= 60:
                        shown = now
                        rate = (finished - len(done)) / (now - start)
                        left = (cfg.deals * len(cfg.families) - finished) / max(rate, 1e-9)
                        self.log(f"round {r}: self-play {finished}/{cfg.deals * len(cfg.families)}"
                                 f" deals, {rate * 60:.1f} a minute, about {left / 60:.0f} min left")
                    if self._time_up():
                        break
            finally:
                flush()
        if finished < cfg.deals * len(cfg.families):
            return None
        return Samples.concat(parts)

    def learn(self, r: int, work: Path, samples: Samples) -> None:
        """Train a copy of the kept actor on this round's and the replayed rounds' decisions."""
        from big2.learn.ppo_model import Actor

        cfg = self.cfg
        data: list[Samples] = []
        for back in range(cfg.replay - 1, 0, -1):
            old = self.out / "work" / f"r{r - back:03d}" / "shards.jsonl"
            if old.exists():
                data += [Samples.load(old.parent / json.loads(x)["file"])
                         for x in old.read_text().splitlines()]
        s, held = holdout_split(data, samples, cfg.holdout)
        t = targets(s, cfg.target, cfg.temperature, cfg.favour, cfg.significance)
        actor = Actor()
        actor.load_state_dict(self.saved["actor"])
        t0 = time.monotonic()
        check: dict[str, float] = {}
        if held.size:  # the last decisions, learnt from by none: does the learning generalise?
            th = targets(held, cfg.target, cfg.temperature, cfg.favour, cfg.significance)
            check = {f"held_{k[:-6]}_before": v for k, v in
                     fit(actor, held, th, epochs=0, loss=cfg.loss).items() if k.endswith("_after")}
        stats: dict[str, Any] = fit(actor, s, t, epochs=cfg.epochs, minibatch=cfg.minibatch,
                                    lr=cfg.lr, loss=cfg.loss, seed=cfg.seed * 1_000_003 + r,
                                    optimizer=cfg.optimizer)
        if held.size:
            check |= {f"held_{k}": v for k, v in
                      fit(actor, held, th, epochs=0, loss=cfg.loss).items() if k.endswith("_after")}
            check["held_decisions"] = float(held.size)
            self.log(f"round {r}: on {held.size:,} decisions held out, agreement with the search "
                     f"{check['held_agree_before']:.1%} -> {check['held_agree_after']:.1%}, "
                     f"a play the search keeps {check['held_accept_before']:.1%} -> "
                     f"{check['held_accept_after']:.1%}, KL from the targets "
                     f"{check['held_kl_before']:.3f} -> {check['held_kl_after']:.3f}")
        stats |= check
        stats["learn_s"] = time.monotonic() - t0
        stats["deals"] = float(s.deals)
        stats["selfplay_deals"] = samples.deals  # this round's (the replayed ones' aside)
        if cfg.significance > 0:
            stats["teaching"] = float(teaching(s, cfg.significance).sum())
            self.log(f"round {r}: {int(stats['teaching']):,} of {s.size:,} decisions teach "
                     f"(overturned by more than {cfg.significance:g} standard errors)")
        stats |= {"selfplay_budget": cfg.budget, "target": cfg.target,
                  "temperature": cfg.temperature, "favour": cfg.favour,
                  "significance": cfg.significance,
                  "loss": cfg.loss, "optimizer": cfg.optimizer, "lr": cfg.lr, "epochs": cfg.epochs, "replay": cfg.replay}
        self.log(f"round {r}: learnt from {s.size:,} decisions of {s.deals} deals: loss "
                 f"{stats['loss_before']:.4f} -> {stats['loss_after']:.4f}, agreement with the "
                 f"search {stats['agree_before']:.1%} -> {stats['agree_after']:.1%}")
        (work / "learn.json").write_text(json.dumps(stats))
        self._export(actor.state_dict(), work / "candidate.npz", self.saved)
        self.torch.save(actor.state_dict(), work / "candidate.tmp")
        os.replace(work / "candidate.tmp", work / "candidate.pt")

    def gate(self, r: int, work: Path, candidate: PolicyNet) -> dict[str, Any] | None:
        """Round *r*'s gate (resumed from its file); ``None`` if stopped first."""
        cfg = self.cfg
        path = work / "gate.jsonl"
        results: dict[tuple[str, str, int], tuple[int, ...]] = {}
        if path.exists():
            for line in path.read_text().splitlines():
                e = json.loads(line)
                results[(e["kind"], e["family"], e["index"])] = tuple(e["points"])
        every = gate_jobs(cfg.families, cfg.scoring, self.gate_seed(r), cfg.gate_deals,
                          cfg.gate_budget, cfg.gate_h2h_deals)
        jobs = [j for j in every if (j.kind, j.family, j.index) not in results]
        if jobs:
            self.log(f"round {r}: gate, {len(jobs)} of {len(every)} duplicate deals to play")
            nets = {"new": candidate, "old": self.net(),
                    "keys": {"new": f"r{r}-new-{os.getpid()}", "old": f"r{r}-old-{os.getpid()}"}}
            shown = time.monotonic()
            with path.open("a") as fh:
                for job, points in self.pool.map(play_gate, nets, jobs):
                    results[(job.kind, job.family, job.index)] = points
                    fh.write(json.dumps({"kind": job.kind, "family": job.family,
                                         "index": job.index, "points": list(points)}) + "\n")
                    fh.flush()
                    if time.monotonic() - shown >= 60:
                        shown = time.monotonic()
                        self.log(f"round {r}: gate {len(results)}/{len(every)}: "
                                 + "; ".join(f"{k} {v}" for k, v in
                                             summarise(results, cfg.families).items()
                                             if "/" not in k))
                    if self._time_up():
                        break
        if any((j.kind, j.family, j.index) not in results for j in every):
            return None
        return summarise(results, cfg.families)

    def _append_row(self, row: dict[str, Any]) -> None:
        """Add *row* to ``rounds.csv`` (rewritten with the wider header when it
        brings new columns; a column a row lacks is left empty)."""
        path = self.out / "rounds.csv"
        rows: list[dict[str, Any]] = []
        if path.exists():
            with path.open(newline="") as fh:
                rows = list(csv.DictReader(fh))
        names = list(dict.fromkeys([k for r in rows for k in r] + list(row)))
        with path.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=names)
            w.writeheader()
            w.writerows([*rows, row])

    def gate_seed(self, r: int) -> int:
        """The arena seed of round *r*'s gate."""
        return self.cfg.seed * 1_000_003 + 500_000 + r

    def decide(self, r: int, work: Path, figures: dict[str, Any], seconds: float) -> None:
        """Keep round *r*'s network or not, write its line and the checkpoint."""
        cfg, ex = self.cfg, self.ex
        won = wins(figures)
        stats = json.loads((work / "learn.json").read_text())
        if won:
            self.saved["actor"] = self.torch.load(work / "candidate.pt", map_location="cpu")
            ex["kept"].append(r)
            ex["losing"] = 0
        else:
            ex["losing"] += 1
        ex["last"] = f"round {r}: head to head {figures['h2h']}, paired {figures['paired']}"
        ex["round"] = r
        ex["decisions"] += int(stats["decisions"])
        ex["deals"] += int(stats.get("selfplay_deals", cfg.deals * len(cfg.families)))
        ex["wall"] += seconds
        row: dict[str, Any] = {"round": r, "kept": int(won), "gate_budget": cfg.gate_budget,
                               "gate_deals_per_family": cfg.gate_deals,
                               "gate_h2h_deals_per_family": cfg.gate_h2h_deals,
                               "learnt_decisions": int(stats["decisions"]),
                               "gate_seed": self.gate_seed(r)}
        row |= {k: round(v, 4) if isinstance(v, float) else v for k, v in stats.items()
                if k not in ("decisions", "deals")}
        for key, m in figures.items():
            row |= {f"{key}:deals": m.deals, f"{key}:mean": round(m.mean, 4),
                    f"{key}:low": round(m.low, 4), f"{key}:high": round(m.high, 4)}
        self._append_row(row)
        self.saved["state"]["exit"] = ex
        self.saved["state"]["exit_config"] = {k: v for k, v in asdict(cfg).items()
                                              if k != "out"}
        self._write(self.saved)
        verdict = "kept" if won else f"not kept ({ex['losing']} losing in a row)"
        self.log(f"round {r} {verdict}: " + "; ".join(f"{k} {v}" for k, v in figures.items()))
        for back in range(cfg.replay, r + 1):  # shards no round will learn from again
            for shard in (self.out / "work" / f"r{r + 1 - back:03d}").glob("shard-*.npz"):
                shard.unlink()


__all__ = ["START", "ExItConfig", "ExpertIteration", "holdout_split"]
