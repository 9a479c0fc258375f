"""Collection on Ray actors, beside the learner (``train --ray ADDRESS``).

As :class:`~big2.learn.ppo_workers.Collectors` does with local processes,
:class:`RayCollectors` keeps *n* collectors — here Ray actors, on any machine
of the cluster — each with its own games and seed (actor ``k`` seeds its
games with ``seed * 1_009 + k``, as worker ``k`` does), asks them together
for their shares of a batch, and has the next batch played while the
learner updates on this one. Each actor answers with
:class:`~big2.learn.ppo_samples.Samples`, the steps and deals played and its
CPU seconds (:func:`~big2.learn.ppo_workers.answer`), so a run on Ray
records what a run with local workers records, and resumes alike (not bit
for bit: the actors' games are not saved).

``--ray`` alone starts a local Ray instance, ``--ray auto`` joins the running
cluster, and an address joins that one; ``--collectors N`` actors (0: one
per CPU of the cluster).
"""

from __future__ import annotations

from typing import Any

from big2.bots.policy.pnet import PolicyNet
from big2.learn.ppo_samples import Samples
from big2.learn.ppo_workers import Reply, Request, answer
from big2.rules import Rules


class _Actor:
    """A collector on a Ray actor (one CPU)."""

    def __init__(self, families: dict[str, Rules], options: dict[str, Any], seed: int,
                 native: bool) -> None:
        import signal

        from threadpoolctl import threadpool_limits

        from big2.learn.ppo_collect import Collector
        from big2.learn.ppo_native import NativeCollector

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the learner's to handle
        threadpool_limits(1, user_api="blas")
        self.collector = (NativeCollector if native else Collector)(families, seed=seed,
                                                                    **options)

    def collect(self, request: Request) -> Reply:
        return answer(self.collector, request)


class RayCollectors:
    """*n* collectors on Ray actors (0: one per CPU of the cluster), asked together
    for their shares of each batch (the interface of
    :class:`~big2.learn.ppo_workers.Collectors`).

    Args:
        n: actors (0: one per CPU of the cluster).
        families, options, seed, native: as for
            :class:`~big2.learn.ppo_workers.Collectors`.
        address: the cluster to join (``"auto"``: the running one; ``None``:
            start or join a local instance).
        init: extra keyword arguments for ``ray.init`` (tests pass ``num_cpus``).
    """

    def __init__(self, n: int, families: dict[str, Rules], options: dict[str, Any], seed: int,
                 native: bool = False, address: str | None = None, **init: Any) -> None:
        try:
            import ray
        except ImportError:
            raise RuntimeError("--ray needs Ray: pip install 'big2[ray]'") from None
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, **init)
        self.ray: Any = ray
        count = n or max(1, int(self.ray.cluster_resources().get("CPU", 1)))
        actor = self.ray.remote(num_cpus=1)(_Actor)
        self.actors: list[Any] = [actor.remote(families, options, seed * 1_009 + k, native)
                       for k in range(count)]
        self._pending: list[Any] = []

    @property
    def waiting(self) -> bool:
        """Whether a batch was asked for and not yet received."""
        return bool(self._pending)

    def request(self, net: PolicyNet, rival: PolicyNet | None, samples: int) -> None:
        """Ask every actor for its share of *samples* decisions, played by *net*
        (and *rival* in the pool's games); :meth:`receive` collects them."""
        if self._pending:
            raise RuntimeError("the batch asked for before has not been received")
        share = -(-samples // len(self.actors))
        msg = self.ray.put((net.w, rival.w if rival is not None else None, share))
        self._pending = [a.collect.remote(msg) for a in self.actors]

    def receive(self) -> Reply:
        """The samples asked for, the steps and deals played for them, and the
        CPU seconds the actors spent."""
        if not self._pending:
            raise RuntimeError("no batch was asked for")
        got: list[Reply] = self.ray.get(self._pending)
        self._pending = []
        return (Samples.concat([g[0] for g in got]), sum(g[1] for g in got),
                sum(g[2] for g in got), sum(g[3] for g in got))

    def close(self) -> None:
        """Stop the actors (a batch in flight is dropped; the Ray connection stays)."""
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
        self._pending = []


__all__ = ["RayCollectors"]
