"""Where expert iteration's deals are played: this process, local worker
processes, or Ray actors across a cluster (:func:`make_pool`).

Every pool runs ``fn(shared, job)`` for each job and yields ``(job, result)``
as each finishes (in any order). *shared* (the networks of a round) is sent
once per worker, not once per job: a worker process gets it at its start, a
Ray actor at its creation (from one ``ray.put``). Workers ignore Ctrl-C, so
the driver alone handles it: it keeps what has finished and closes the pool.

>>> def twice(shared, job):
...     return shared * job
>>> sorted(r for _, r in InProcess().map(twice, 2, [1, 2, 3]))
[2, 4, 6]
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")


class Pool(Protocol):
    """Runs jobs (see the module docstring)."""

    def map(self, fn: Callable[[Any, J], R], shared: Any, jobs: Sequence[J]
            ) -> Iterator[tuple[J, R]]:
        """``(job, fn(shared, job))`` for each job, as each finishes."""
        ...

    def close(self) -> None:
        """Stop the workers (a pool can map again after this only by making them anew)."""
        ...


class InProcess:
    """Every job in this process, in order."""

    def map(self, fn: Callable[[Any, J], R], shared: Any, jobs: Sequence[J]
            ) -> Iterator[tuple[J, R]]:
        """See :class:`Pool`."""
        for job in jobs:
            yield job, fn(shared, job)

    def close(self) -> None:
        """Nothing to stop."""


_WORKER: dict[str, Any] = {}


def _start(fn: Callable[[Any, Any], Any], shared: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver handles Ctrl-C
    _WORKER["fn"], _WORKER["shared"] = fn, shared


def _run(job: Any) -> tuple[Any, Any]:
    return job, _WORKER["fn"](_WORKER["shared"], job)


class Processes:
    """Local worker processes (spawned afresh for each :meth:`map`, so each
    gets that map's *shared*)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self._pool: Any = None

    def map(self, fn: Callable[[Any, J], R], shared: Any, jobs: Sequence[J]
            ) -> Iterator[tuple[J, R]]:
        """See :class:`Pool`."""
        import multiprocessing as mp

        self.close()
        ctx = mp.get_context("spawn")
        self._pool = ctx.Pool(min(self.workers, max(1, len(jobs))), initializer=_start,
                              initargs=(fn, shared))
        try:
            yield from self._pool.imap_unordered(_run, jobs, chunksize=1)
        finally:
            self.close()

    def close(self) -> None:
        """Terminate the worker processes, if any."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class _Actor:
    """A Ray actor's state: the function and the shared object."""

    def __init__(self, fn: Callable[[Any, Any], Any], shared: Any) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.fn, self.shared = fn, shared

    def run(self, job: Any) -> tuple[Any, Any]:
        return job, self.fn(self.shared, job)


class RayActors:
    """Ray actors: *workers* of them (0: one per CPU of the cluster), made
    afresh for each :meth:`map` with that map's *shared*.

    Args:
        address: the cluster to join (``"auto"``: the running one; ``None``:
            start or join a local instance).
        workers: actors per map (0: the cluster's CPUs).
        init: extra keyword arguments for ``ray.init`` (tests pass ``num_cpus``).
    """

    def __init__(self, address: str | None, workers: int = 0, **init: Any) -> None:
        try:
            import ray
        except ImportError:
            raise RuntimeError("--ray needs Ray: pip install 'big2[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, **init)
        self.workers = workers
        self._actors: list[Any] = []

    def map(self, fn: Callable[[Any, J], R], shared: Any, jobs: Sequence[J]
            ) -> Iterator[tuple[J, R]]:
        """See :class:`Pool`."""
        ray = self.ray
        self.close()
        count = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        ref = ray.put(shared)
        actor = ray.remote(num_cpus=1)(_Actor)
        self._actors = [actor.remote(fn, ref) for _ in range(min(count, max(1, len(jobs))))]
        todo = list(jobs)[::-1]
        running: dict[Any, Any] = {}
        try:
            for a in self._actors:
                if todo:
                    running[a.run.remote(todo.pop())] = a
            while running:
                done, _ = ray.wait(list(running), num_returns=1)
                for r in done:
                    a = running.pop(r)
                    if todo:
                        running[a.run.remote(todo.pop())] = a
                    yield ray.get(r)
        finally:
            self.close()

    def close(self) -> None:
        """Kill this pool's actors (the Ray connection stays)."""
        for a in self._actors:
            self.ray.kill(a)
        self._actors = []


def make_pool(workers: int = 0, ray_address: str | None = None) -> Pool:
    """The pool for *workers* local processes (0: one per core; 1: this
    process), or as many Ray actors when *ray_address* is given (0: one per
    CPU of the cluster; ``"local"``: start a local instance)."""
    if ray_address is not None:
        return RayActors(None if ray_address == "local" else ray_address, workers)
    workers = workers or os.cpu_count() or 1
    return InProcess() if workers == 1 else Processes(workers)


__all__ = ["InProcess", "Pool", "Processes", "RayActors", "make_pool"]
