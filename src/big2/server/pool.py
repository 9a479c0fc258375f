"""Bot moves and hints off the event loop: a pool of worker processes.

A bot such as ``expert`` thinks for seconds; chosen on the server's event
loop it would stop every other table (and the lobby) meanwhile. :class:`BotPool`
sends the seat's :class:`~big2.view.PlayerView` (all a bot may see) to a worker
process, which keeps one bot of each name, and awaits the choice for at most
*budget* seconds; past that, or if the worker dies, the quick fallback bot
(``greedy``) chooses in the server process, so a table never waits longer than
its budget. The workers run at a lower priority (``nice``) than the server, so
the server's own work goes first on a busy machine. Bots that answer in
microseconds (``greedy``, ``random``, ``easy``) are asked in the server
process: a round trip to a worker would cost more than the move.

>>> import asyncio
>>> from big2 import Game
>>> pool = BotPool(workers=0)
>>> g = Game(seed=3)
>>> asyncio.run(pool.choose("greedy", g.view(g.to_move))) in g.legal_masks()
True
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from big2.bots import Bot, make_bot
from big2.cards import Mask
from big2.threads import use_one_thread
from big2.view import PlayerView

__all__ = ["INLINE_BOTS", "BotPool"]

log = logging.getLogger("big2.server")

INLINE_BOTS = frozenset({"greedy", "random", "easy"})
"""Bots asked in the server process (they answer in microseconds)."""
FALLBACK = "greedy"

_bots: dict[str, Bot] = {}  # one bot of each name in each process


def _bot(name: str) -> Bot:
    bot = _bots.get(name)
    if bot is None:
        bot = _bots[name] = make_bot(name, seed=secrets.randbits(32))
    return bot


def _start_worker(server: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    use_one_thread()  # before a bot loads NumPy
    with contextlib.suppress(OSError):
        os.nice(10)
    threading.Thread(target=_exit_with, args=(server,), daemon=True).start()


def _exit_with(parent: int) -> None:
    """End this worker when the server process is gone (even killed with -9, and
    even before this worker had started)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _choose(name: str, view: PlayerView) -> Mask:
    return _bot(name).choose(view)


def _review(text: str, seat: int, playouts: int, seconds: float) -> dict[str, Any]:
    from big2.server.reviews import run_review

    return run_review(text, seat, playouts, seconds)


def _duplicate(text: str, seat: int, playouts: int) -> dict[str, Any]:
    from big2.server.reviews import run_duplicate

    return run_duplicate(text, seat, playouts)


def _warm(name: str) -> None:
    _bot(name)


class BotPool:
    """Worker processes that choose bot moves (see the module doc).

    Args:
        workers: processes (``0``: choose in the server process, for tests).
        budget: seconds a move or hint may take before the fallback bot answers.
        review_playouts, review_seconds: a game review's search (play-outs a
            decision) and time budget (:mod:`big2.server.reviews`).
        duplicate_playouts: the expert's play-outs a decision in a duplicate replay.
    """

    def __init__(self, workers: int = 2, budget: float = 5.0, *,
                 review_playouts: int = 400, review_seconds: float = 10.0,
                 duplicate_playouts: int = 200) -> None:
        self.workers, self.budget = workers, budget
        self.review_playouts, self.review_seconds = review_playouts, review_seconds
        self.duplicate_playouts = duplicate_playouts
        self.timeouts = 0
        self._warmed: set[str] = set()
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(os.getpid(),))
        return self._executor

    def warm(self, names: list[str]) -> None:
        """Start the workers now and load these bots in them (not waited for;
        each name once)."""
        if self.workers:
            for name in names:
                if name not in INLINE_BOTS and name not in self._warmed:
                    self._warmed.add(name)
                    for _ in range(self.workers):
                        self._pool().submit(_warm, name)

    async def choose(self, name: str, view: PlayerView) -> Mask:
        """Bot *name*'s play for *view*, within the budget (else the fallback's)."""
        return (await self.choose_named(name, view))[0]

    async def choose_named(self, name: str, view: PlayerView) -> tuple[Mask, str]:
        """:meth:`choose`'s play with the name of the bot that chose it
        (*name*, or the fallback's when *name* ran out of time or its worker died)."""
        if not self.workers or name in INLINE_BOTS:
            return _choose(name, view), name
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._pool(), _choose, name, view)
            return await asyncio.wait_for(future, self.budget), name
        except TimeoutError:
            self.timeouts += 1
            log.warning("bot %s took over %.1f s: %s played instead", name, self.budget, FALLBACK)
        except BrokenProcessPool:
            log.error("a bot worker died; starting new workers")
            self._executor, self._warmed = None, set()
        return _choose(FALLBACK, view), FALLBACK

    async def review(self, text: str, seat: int) -> dict[str, Any]:
        """The game review of *seat* in the deal of record JSON *text*, in a
        worker (a thread without workers), stopped at the review time budget."""
        return await self._job(_review, text, seat, self.review_playouts, self.review_seconds)

    async def duplicate(self, text: str, seat: int) -> dict[str, Any]:
        """A duplicate replay of *seat* in the deal of record JSON *text*
        (:func:`big2.server.reviews.run_duplicate`), in a worker (a thread without workers)."""
        return await self._job(_duplicate, text, seat, self.duplicate_playouts)

    async def _job(self, job: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
        if not self.workers:
            return await asyncio.to_thread(job, *args)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._pool(), job, *args)
            # the review stops itself at its budget; this is the backstop
            return await asyncio.wait_for(future, self.review_seconds + 30)
        except BrokenProcessPool:
            log.error("a bot worker died; starting new workers")
            self._executor, self._warmed = None, set()
            raise

    def close(self) -> None:
        """Stop the workers (a move being chosen is abandoned)."""
        if self._executor is not None:
            processes = list(getattr(self._executor, "_processes", {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a move being thought about is not waited for
                with contextlib.suppress(Exception):
                    process.join(0.5)
                    if process.is_alive():
                        process.terminate()
            self._executor, self._warmed = None, set()
