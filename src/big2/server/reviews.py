"""The game review in the browser's replay: ``POST /api/records/{id}/review``
with ``{"seat": S}`` judges seat S's decisions in a stored deal with the
strongest bot's search (:mod:`big2.review`, as ``big2 replay FILE --review``);
the answer's ``bot`` names it (:func:`big2.review.judge_label`).
``POST /api/records/{id}/duplicate`` with ``{"seat": S}`` deals the same cards
again with that bot in seat S and the table's bots in the others
(:mod:`big2.duplicate`, as ``big2 replay FILE --duplicate``): both scores, the
expert's deal, and the decisions where it would have played otherwise.

The search runs in the server's bot pool (:meth:`BotPool.review
<big2.server.pool.BotPool.review>`), never on the event loop, one review at a
time, the waiting ones taken in turn by address
(:class:`~big2.server.hygiene.FairTurns`: one address asking for many reviews
waits behind its own, not others behind it, issue 55; an address with
:data:`WAITING_PER_ADDRESS` already waiting is refused with :class:`QueueFull`, which the
app answers ``429``), and stops at its time budget (:data:`REVIEW_SECONDS`): the decisions
judged by then are sent with ``"complete": false``. A finished review is kept
(the same deal and seat give the same answer: the search is seeded), so asking
again costs nothing. Records are public once a deal is over (the replay shows
every hand), so any seat of any stored deal may be reviewed.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from big2.bots import BOT_LEVELS, STRONGEST_LEVEL
from big2.bots.rules_based.reasons import Why
from big2.duplicate import duplicate
from big2.records import from_json
from big2.review import (
    INACCURACY,
    MISTAKE,
    REVIEW_BUDGET,
    choice_plies,
    decisions,
    judge_label,
)
from big2.server.hygiene import FairTurns
from big2.server.settings import TableError
from big2.server.state import cards_text

__all__ = ["DUPLICATE_PLAYOUTS", "REVIEW_SECONDS", "WAITING_PER_ADDRESS", "QueueFull", "Reviews",
           "run_duplicate", "run_review"]

REVIEW_SECONDS = 10.0
"""A review's time budget: a 13-card deal's decisions take about 5 s on two cores."""
WAITING_PER_ADDRESS = 4
"""Reviews (and duplicates) one address may have waiting for their turn; one more is
refused (:class:`QueueFull`) rather than queued for minutes behind its own."""
DUPLICATE_PLAYOUTS = 200
"""The expert's play-outs a decision in a duplicate (it plays a whole deal, then is
asked again at each of the seat's decisions: about twice a review's searches)."""


def _tenths(x: float) -> float:
    """*x* to one decimal, never ``-0.0`` (the page signs zero as ``+0.0``)."""
    return round(x, 1) + 0.0


def run_review(text: str, seat: int, playouts: int = REVIEW_BUDGET,
               seconds: float = REVIEW_SECONDS) -> dict[str, Any]:
    """Review *seat*'s decisions in the deal of record JSON *text*, for at most
    about *seconds* (in a worker process or a thread). Raises ``ValueError`` for
    a seat the deal does not have or rules the search cannot read."""
    start = time.monotonic()
    record = from_json(text)[0]
    out: list[dict[str, Any]] = []
    complete = True
    for d in decisions(record, seat, budget=playouts):
        out.append({"ply": d.ply, "made": cards_text(d.made), "made_value": _tenths(d.made_value),
                    "best": cards_text(d.best), "best_value": _tenths(d.best_value),
                    "loss": _tenths(d.loss), "mark": d.mark, "why": d.why,
                    "reason": d.why.data() if isinstance(d.why, Why) else None,
                    "choices": d.choices})
        if time.monotonic() - start > seconds:  # out of time: what is judged so far
            complete = d.ply == choice_plies(record, seat)[-1]
            break
    return {"seat": seat, "decisions": out, "complete": complete, "playouts": playouts,
            "bot": judge_label(playouts),
            "inaccuracy": INACCURACY, "mistake": MISTAKE,
            "seconds": round(time.monotonic() - start, 1)}


def run_duplicate(text: str, seat: int, playouts: int = DUPLICATE_PLAYOUTS) -> dict[str, Any]:
    """A duplicate replay of *seat* in the deal of record JSON *text* (in a worker
    process or a thread). Raises ``ValueError`` as :func:`big2.duplicate.duplicate` does."""
    start = time.monotonic()
    record = from_json(text)[0]
    d = duplicate(record, seat, budget=playouts)
    return {"seat": seat, "original": d.original, "replayed": d.replayed,
            "bot": f"{STRONGEST_LEVEL}: {BOT_LEVELS[STRONGEST_LEVEL]}, {playouts:,} play-outs",
            "others": list(d.bots),
            "actions": [[a.seat, cards_text(a.cards)] for a in d.record.actions],
            "differences": [{"ply": x.ply, "made": cards_text(x.made),
                             "expert": cards_text(x.expert)} for x in d.differences],
            "decisions": d.decisions, "complete": True,
            "seconds": round(time.monotonic() - start, 1)}


class QueueFull(Exception):
    """An address already has :data:`WAITING_PER_ADDRESS` reviews waiting; *retry_after*
    is about when one of its own will have run, in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"your address already has {WAITING_PER_ADDRESS} reviews waiting; "
                         "ask again when one is answered")
        self.retry_after = retry_after


class Reviews:
    """Reviews for the server: one at a time, in turn by address, at most *per_address*
    waiting from one address, kept once complete (see the module doc)."""

    def __init__(self, pool: Any, size: int = 64, per_address: int = WAITING_PER_ADDRESS) -> None:
        self.pool, self.size, self.per_address = pool, size, per_address
        self._done: OrderedDict[tuple[int, int, str], dict[str, Any]] = OrderedDict()
        self.turns = FairTurns()

    async def review(self, record_id: int, text: str, seat: int,
                     address: str = "") -> dict[str, Any]:
        """The review of *seat* in stored deal *record_id* (JSON *text*), asked from
        *address* (whose reviews wait their turn behind other addresses')."""
        return await self._run((record_id, seat, "review"), address, "review",
                               lambda: self.pool.review(text, seat))

    async def duplicate(self, record_id: int, text: str, seat: int,
                        address: str = "") -> dict[str, Any]:
        """The duplicate replay of *seat* in stored deal *record_id* (JSON *text*), asked
        from *address*, in turn with the reviews."""
        return await self._run((record_id, seat, "duplicate"), address, "replay",
                               lambda: self.pool.duplicate(text, seat))

    async def _run(self, key: tuple[int, int, str], address: str, verb: str,
                   call: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        if self.turns.waiting_for(address) >= self.per_address:
            raise QueueFull(round(REVIEW_SECONDS * max(1, self.turns.waiting())))
        async with self.turns.turn(address):
            if key in self._done:
                return self._done[key]
            try:
                result: dict[str, Any] = await call()
            except ValueError as exc:  # the engine's own reasons (seats, decks)
                raise TableError(f"cannot {verb} this deal: {exc}") from None
            except (TimeoutError, BrokenProcessPool):
                raise TableError("the review did not finish; try again in a moment") from None
        if result["complete"]:
            self._done[key] = result
            while len(self._done) > self.size:
                self._done.popitem(last=False)
        return result
