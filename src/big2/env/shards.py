"""Worker processes for :class:`big2.env.vector.VectorEnv` (``workers > 1``).

Each worker runs a one-process :class:`~big2.env.vector.VectorEnv` (the class is
passed in, so this module does not import the one that uses it) over a
contiguous share of the games, numbered as they would be in one process
(so seeds, and therefore results, do not depend on the number of workers).
The parent sends each worker its share of the actions and joins the arrays
that come back. Workers are forked where the platform can (no
``if __name__ == "__main__"`` guard needed in the caller's script; a worker
runs only NumPy and the engine, never the caller's PyTorch threads), else
spawned; they stop on :meth:`Shards.close`, or when the parent exits.
"""

from __future__ import annotations

import multiprocessing as mp
from multiprocessing.connection import Connection
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt


def _serve(conn: Connection, first: int, size: int, settings: dict[str, Any],
           make: Callable[..., Any]) -> None:
    """A worker's loop: ``("reset", (seed, deals))`` and ``("step", actions)`` until
    ``("close", None)``; *make* builds the worker's one-process environment."""
    try:
        venv = make(size, _first=first, **settings)
        venv._masks = False  # the parent builds the joined masks
    except Exception as exc:  # noqa: BLE001 -- reported to the parent, which raises it
        conn.send(("error", exc))
        return
    conn.send(("ready", None))
    while True:
        try:
            cmd, arg = conn.recv()
        except EOFError:
            return
        if cmd == "close":
            return
        try:
            if cmd == "reset":
                seed, deals = arg
                venv._seed = seed
                conn.send(("ok", venv._adopt_batch(venv._reset_games(deals))))
            else:
                out = venv._advance(arg)
                venv._adopt_batch(out.batch)
                conn.send(("ok", out))
        except Exception as exc:  # noqa: BLE001 -- the parent raises it
            conn.send(("error", exc))


class Shards:
    """*workers* processes stepping *num_envs* games between them, each in an
    environment built by *make* (the :class:`~big2.env.vector.VectorEnv` class)
    from *settings*."""

    def __init__(self, num_envs: int, workers: int, settings: dict[str, Any],
                 make: Callable[..., Any]) -> None:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        bounds = np.linspace(0, num_envs, workers + 1).astype(int)
        self.bounds = bounds
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        for k in range(workers):
            parent, child = ctx.Pipe()
            share = (child, int(bounds[k]), int(bounds[k + 1] - bounds[k]), settings, make)
            proc = ctx.Process(  # type: ignore[attr-defined]
                target=_serve, daemon=True, name=f"big2-vec-{k}", args=share)
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)
        try:
            self._gather()
        except BaseException:
            self.close()
            raise

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

    def reset(self, seed: int | None, deals: Sequence[Any]) -> list[Any]:
        """Every worker's batch after a reset from *seed*, *deals[k]* the
        chosen hands of worker *k*'s games (or ``None``)."""
        for conn, share in zip(self._conns, deals):
            conn.send(("reset", (seed, share)))
        return self._gather()

    def step(self, actions: npt.NDArray[np.int64]) -> list[Any]:
        """Every worker's :class:`~big2.env.batch.Stepped` after a step."""
        b = self.bounds
        for k, conn in enumerate(self._conns):
            conn.send(("step", actions[b[k]:b[k + 1]]))
        return self._gather()

    def close(self) -> None:
        """Stop the workers."""
        for conn in self._conns:
            try:
                conn.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
            conn.close()
        for proc in self._procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self._conns, self._procs = [], []


__all__ = ["Shards"]
