"""Worker processes for :class:`big2.env.vector.VectorEnv` (``workers > 1``).

Each worker holds one backend (:mod:`big2.env.backends`: the Python engine's games;
the core's run on its own threads instead) over a contiguous share of the games,
numbered as they would be in one process (so seeds, and therefore deals and results,
do not depend on the number of workers). The parent calls the workers' backends by method name and
gets back what they return (:meth:`Shards.call`). Workers are forked where the
platform can (no ``if __name__ == "__main__"`` guard needed in the caller's
script; a worker runs only NumPy and the engine, never the caller's PyTorch
threads), else spawned; they stop on :meth:`Shards.close`, or when the parent
exits.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy as np


def _serve(conn: Connection, make: Callable[[int, int], Any], first: int, size: int) -> None:
    """A worker's loop: ``(method, args)`` calls on its backend (``make(first, size)``)
    until ``("close", ())``; each answer is ``("ok", result)`` or ``("error", exc)``."""
    try:
        backend = make(first, size)
    except Exception as exc:  # noqa: BLE001 -- reported to the parent, which raises it
        conn.send(("error", exc))
        return
    conn.send(("ready", None))
    while True:
        try:
            cmd, args = conn.recv()
        except EOFError:
            return
        if cmd == "close":
            return
        try:
            conn.send(("ok", getattr(backend, cmd)(*args)))
        except Exception as exc:  # noqa: BLE001 -- the parent raises it
            conn.send(("error", exc))


class Shards:
    """*workers* processes, worker *k* holding ``make(first_k, size_k)``: the backend of
    games ``first_k .. first_k + size_k - 1`` of *num_envs* (:attr:`bounds`)."""

    def __init__(self, num_envs: int, workers: int, make: Callable[[int, int], Any]) -> None:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.bounds = np.linspace(0, num_envs, workers + 1).astype(int)
        """Worker *k*'s games are ``bounds[k]:bounds[k + 1]``."""
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        b = self.bounds
        for k in range(workers):
            parent, child = ctx.Pipe()
            proc = ctx.Process(  # type: ignore[attr-defined]
                target=_serve, daemon=True, name=f"big2-vec-{k}",
                args=(child, make, int(b[k]), int(b[k + 1] - b[k])))
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)
        try:
            self._gather()
        except BaseException:
            self.close()
            raise

    @property
    def firsts(self) -> list[int]:
        """Each worker's first game."""
        return [int(x) for x in self.bounds[:-1]]

    def split(self, items: Sequence[Any] | None) -> list[Any]:
        """*items* (one per game, or ``None``) cut into the workers' shares."""
        b = self.bounds
        return [None if items is None else items[b[k]:b[k + 1]] for k in range(len(b) - 1)]

    def _gather(self) -> list[Any]:
        out = []
        error: BaseException | None = None
        for conn in self._conns:
            try:
                status, value = conn.recv()
            except EOFError:
                status, value = "error", RuntimeError("a VectorEnv worker process died")
            if status == "error" and error is None:
                error = value
            out.append(value)
        if error is not None:
            raise error
        return out

    def call(self, method: str, args: Sequence[tuple[Any, ...]]) -> list[Any]:
        """Call *method* on every worker's backend, worker *k* with ``args[k]``; their
        results in order (the first error raised here, after every worker answered)."""
        for conn, a in zip(self._conns, args):
            conn.send((method, a))
        return self._gather()

    def call_all(self, method: str, *args: Any) -> list[Any]:
        """:meth:`call` with the same *args* for every worker."""
        return self.call(method, [args] * len(self._conns))

    def call_one(self, k: int, method: str, *args: Any) -> Any:
        """Call *method* on worker *k*'s backend alone."""
        self._conns[k].send((method, args))
        status, value = self._conns[k].recv()
        if status == "error":
            raise value
        return value

    def reasons(self, games: Any, acts: Any) -> list[tuple[int, str]]:
        """Why each of *games* (global numbers) refuses its action in *acts*, asked
        of the worker holding it (each backend's ``reasons``, numbered locally)."""
        b = self.bounds
        out: list[tuple[int, str]] = []
        for i in np.asarray(games).tolist():
            k = int(np.searchsorted(b, i, side="right")) - 1
            lo = int(b[k])
            out += self.call_one(k, "reasons", np.array([i - lo]), acts[lo:b[k + 1]])
        return out

    def close(self) -> None:
        """Stop the workers."""
        for conn in self._conns:
            try:
                conn.send(("close", ()))
            except (BrokenPipeError, OSError):
                pass
            conn.close()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []


__all__ = ["Shards"]
