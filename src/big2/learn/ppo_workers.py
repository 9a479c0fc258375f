"""Collection in worker processes, beside the learner (``train --collectors N``).

On one process the trainer alternates: collect a batch of games (the core's
collector or NumPy's), then update the networks on it (PyTorch). With ``N``
collector processes the two overlap and collection spreads over cores: each
worker owns a collector (:class:`~big2.learn.ppo_native.NativeCollector` or
:class:`~big2.learn.ppo_collect.Collector`) with its own games and seed, and
every iteration returns its share of the batch as
:class:`~big2.learn.ppo_samples.Samples`. The learner asks
for the next batch *before* it updates on the current one, so the workers
play with the weights one update old while it trains: each sample keeps the
log-probability of the policy that chose it, and PPO's clipped ratio
corrects for the lag (as in asynchronous PPO).

What a checkpoint holds is the same; the games in progress in the workers are
dealt afresh on resume, and a run with workers resumes from its checkpoint
like any run but not bit for bit (the workers' random streams are seeded from
the run's seed and iteration, not saved).
"""

from __future__ import annotations

import multiprocessing as mp
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from big2.bots.policy.pnet import PolicyNet
from big2.learn.ppo_collect import Collector
from big2.learn.ppo_native import NativeCollector
from big2.learn.ppo_samples import Samples
from big2.rules import Rules

Arrays = dict[str, np.ndarray]
Request = tuple[Arrays, Arrays | None, int]
Reply = tuple[Samples, int, int, float]


def answer(collector: Collector | NativeCollector, request: Request) -> Reply:
    """What a collector beside the learner (a process, a Ray actor) answers to a
    request (weights, rival's weights, samples): the samples, the steps and deals
    played for them, the CPU seconds spent."""
    import time

    net, rival, samples = request
    steps, deals, cpu = collector.steps, collector.deals, time.process_time()
    got = collector.collect(PolicyNet(net), PolicyNet(rival) if rival else None, samples)
    batch = got if isinstance(got, Samples) else Samples.from_trajectories(got)
    return (batch, collector.steps - steps, collector.deals - deals,
            time.process_time() - cpu)


def _worker(conn: Connection, families: dict[str, Rules], options: dict[str, Any],
            seed: int, native: bool) -> None:
    """A collector process: answer each request (weights, rival, samples) until
    ``None`` arrives."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):
        collector = (NativeCollector if native else Collector)(families, seed=seed, **options)
        while True:
            try:
                msg: Request | None = conn.recv()
            except EOFError:  # the learner went away
                return
            if msg is None:
                return
            conn.send(answer(collector, msg))


class Collectors:
    """*n* collector processes, asked together, each for its share of a batch.

    Args:
        n: worker processes (at least 1).
        families, options: the :class:`~big2.learn.ppo_collect.Collector`'s
            rule sets and keyword options (``self_play``, ``pool``, ``bots``,
            ``opponents``), the same in every worker.
        seed: worker ``k`` seeds its games with ``seed * 1_009 + k``.
        native: the workers collect in the core (else in NumPy).
    """

    def __init__(self, n: int, families: dict[str, Rules], options: dict[str, Any],
                 seed: int, native: bool = False) -> None:
        if n < 1:
            raise ValueError("at least one collector process")
        ctx = mp.get_context("spawn")  # no fork of a process that holds PyTorch's threads
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for k in range(n):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_worker,
                               args=(theirs, families, options, seed * 1_009 + k, native),
                               daemon=True, name=f"big2-collector-{k}")
            proc.start()
            theirs.close()
            self.conns.append(mine)
            self.procs.append(proc)
        self.waiting = False

    def request(self, net: PolicyNet, rival: PolicyNet | None, samples: int) -> None:
        """Ask every worker for its share of *samples* decisions, played by *net*
        (and *rival* in the pool's games); :meth:`receive` collects them."""
        if self.waiting:
            raise RuntimeError("the batch asked for before has not been received")
        share = -(-samples // len(self.conns))
        for conn in self.conns:
            conn.send((net.w, rival.w if rival is not None else None, share))
        self.waiting = True

    def receive(self) -> Reply:
        """The samples asked for, the steps and deals played for them, and
        the CPU seconds the workers spent."""
        if not self.waiting:
            raise RuntimeError("no batch was asked for")
        parts: list[Samples] = []
        steps = deals = 0
        cpu = 0.0
        for conn, proc in zip(self.conns, self.procs):
            try:
                got: Reply = conn.recv()
            except EOFError:
                raise RuntimeError(f"collector {proc.name} died (exit code "
                                   f"{proc.exitcode})") from None
            parts.append(got[0])
            steps += got[1]
            deals += got[2]
            cpu += got[3]
        self.waiting = False
        return Samples.concat(parts), steps, deals, cpu

    def close(self) -> None:
        """Stop the workers (a batch in flight is dropped: read and thrown away, since a
        worker blocked on sending a reply larger than the pipe holds would never read
        the stop and each join waited its 30 s out)."""
        if self.waiting:
            for conn, proc in zip(self.conns, self.procs):
                try:
                    while proc.is_alive() and not conn.poll(0.05):
                        pass
                    if conn.poll():
                        conn.recv()
                except (EOFError, OSError):
                    pass
            self.waiting = False
        for conn in self.conns:
            try:
                conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for proc in self.procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.terminate()
                proc.join()
        for conn in self.conns:
            conn.close()


__all__ = ["Collectors", "Reply", "Request", "answer"]
