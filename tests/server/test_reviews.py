"""The game review over HTTP (``POST /api/records/{id}/review``): a seat's
decisions judged by the strongest bot's search in the bot pool, within the time budget
(partial when it runs out), kept once done, with clear refusals."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from test_lifecycle import post_from

import big2.server.pool
from big2.cards import CARD_NAMES, cards_of
from big2.records import from_json
from big2.review import choice_plies, judge_label
from big2.server.pool import BotPool
from big2.server.reviews import WAITING_PER_ADDRESS, run_review
from conftest import LiveServer


def a_record(live: LiveServer) -> dict[str, Any]:
    tid = live.create(["greedy"] * 4, deals=1)
    deadline = time.monotonic() + 60
    while not (records := live.get(f"/api/tables/{tid}/records")):
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return records[0]


class CountingPool(BotPool):
    """The bot pool, counting the reviews it runs."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.runs = 0

    async def review(self, text: str, seat: int) -> dict[str, Any]:
        self.runs += 1
        return await super().review(text, seat)


def test_a_review_judges_the_seats_decisions(live_factory: Any) -> None:
    pool = CountingPool(workers=0, review_playouts=40, review_seconds=30)
    live = live_factory(pool=pool)
    rid = a_record(live)["id"]
    rec = from_json(json.dumps(live.get(f"/api/records/{rid}")))[0]
    got = live.post(f"/api/records/{rid}/review", {"seat": 2})
    assert got["seat"] == 2 and got["complete"] and got["playouts"] == 40
    assert got["bot"] == judge_label(40) == "expert: guided-search, 40 play-outs"  # who judged
    mine = [i + 1 for i, a in enumerate(rec.actions)
            if a.seat == 2 and len(rec.view(2, i).legal) > 1]
    assert [d["ply"] for d in got["decisions"]] == mine  # each decision with a choice
    for d in got["decisions"]:
        made = rec.actions[d["ply"] - 1]
        assert d["made"] == " ".join(CARD_NAMES[c] for c in cards_of(made.cards))
        assert d["best_value"] >= d["made_value"] - 1e-9 or d["made"] == d["best"]
        assert d["mark"] in (None, "inaccuracy", "mistake")
        if d["mark"] == "mistake":
            assert d["loss"] >= got["mistake"]
        # the reason's key and arguments for the page's Chinese, with its English text
        assert (d["why"] is None) == (d["reason"] is None)
        assert d["reason"] is None or (d["reason"]["text"] == d["why"] and d["reason"]["key"])
    # kept: the same answer, without running the search again
    assert pool.runs == 1
    assert live.post(f"/api/records/{rid}/review", {"seat": 2}) == got
    assert pool.runs == 1


def test_refusals_and_the_event_loop_stays_free(live_factory: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # a budget of no time at all: the review stops after its first decision
    live = live_factory(pool=BotPool(workers=0, review_playouts=4000, review_seconds=0.0))
    rid, rid2 = a_record(live)["id"], a_record(live)["id"]
    rec = from_json(json.dumps(live.get(f"/api/records/{rid}")))[0]
    seat = max(range(4), key=lambda s: len(choice_plies(rec, s)))
    assert len(choice_plies(rec, seat)) >= 2
    for body in ({}, {"seat": -1}, {"seat": 8}, {"seat": "1"}, {"seat": 1, "x": 2}):
        status, out = live.request("POST", f"/api/records/{rid}/review", body)
        assert status == 422, (body, status, out)
    status, out = live.request("POST", f"/api/records/{rid}/review", {"seat": 5})
    assert status == 400 and out["detail"] == "cannot review this deal: seats are 0..3", out
    status, out = live.request("POST", "/api/records/999999/review", {"seat": 0})
    assert status == 404, out
    status, out = live.request("POST", "/api/records/abc/review", {"seat": 0})
    assert status in (400, 404, 422), out
    # the search runs off the event loop: held (blocking) at its start wherever the pool
    # runs it, the lobby still answers; on the loop, these requests would wait for it
    started, gate = threading.Event(), threading.Event()
    search = big2.server.pool._review

    def held(*args: Any) -> dict[str, Any]:
        started.set()
        gate.wait(60)
        return search(*args)

    monkeypatch.setattr(big2.server.pool, "_review", held)
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(
        live.request("POST", f"/api/records/{rid}/review", {"seat": seat})))
    worker.start()
    assert started.wait(60), "the review did not start"
    for _ in range(3):
        assert isinstance(live.get("/api/tables"), list)
    # while it is held, this address's next reviews wait; one more than the cap is refused
    asks = [(rid2, s) for s in range(4)] + [(rid, (seat + 1) % 4)]
    answers: list[tuple[int, Any, Any]] = []
    waiters = [threading.Thread(target=lambda r=r, s=s: answers.append(post_from(
        live, "127.0.0.1", f"/api/records/{r}/review", {"seat": s}))) for r, s in asks]
    for w in waiters:
        w.start()
    deadline = time.monotonic() + 8
    while not answers:  # the refusal comes at once; the others wait for the held one
        assert time.monotonic() < deadline, "no review was refused"
        time.sleep(0.02)
    assert worker.is_alive() and not result  # the review was held all along
    gate.set()
    worker.join(120)
    for w in waiters:
        w.join(60)
    refused = [a for a in answers if a[0] == 429]
    assert len(refused) == 1 and len(answers) == len(asks), answers
    _, out, headers = refused[0]
    assert f"already has {WAITING_PER_ADDRESS} reviews waiting" in out["detail"], out
    assert int(headers["Retry-After"]) >= 1, headers
    assert all(a[0] == 200 for a in answers if a[0] != 429), answers
    status, out = result[0]
    assert status == 200, out
    assert not out["complete"] and len(out["decisions"]) == 1, out  # stopped by the clock
    assert out["decisions"][0]["ply"] == choice_plies(rec, seat)[0]


def test_run_review_stops_at_its_budget(live_factory: Any) -> None:
    live = live_factory()
    rid = a_record(live)["id"]
    text = json.dumps(live.get(f"/api/records/{rid}"))
    full = run_review(text, 1, playouts=20, seconds=60)
    assert full["complete"] and full["decisions"]
    cut = run_review(text, 1, playouts=20, seconds=0)
    assert len(cut["decisions"]) == 1
    assert cut["complete"] == (len(full["decisions"]) == 1)


def test_every_reason_has_its_chinese_on_the_page() -> None:
    """Each key :mod:`big2.bots.rules_based.reasons` can send has its sentences (繁體 and
    简体) in the catalogue the server serves to the pages (whys.js reads its ``whys``
    rows), and every argument a sentence names is one the key is sent with."""
    import ast
    import json
    import re
    from pathlib import Path

    from big2.bots.rules_based import reasons
    from big2.server.app import CATALOGUE, STATIC

    sent: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(Path(reasons.__file__).read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_why":
            given = node.args[1]
            assert isinstance(given, ast.Constant) and isinstance(given.value, str)
            sent[given.value] = {k.arg or "group" for k in node.keywords}  # **broken: a group
    assert "../i18n/catalogue.json" in (STATIC / "whys.js").read_text()
    table = json.loads(CATALOGUE.read_text("utf-8"))["whys"]
    assert len(sent) >= 20, sent
    for key, args in sent.items():
        assert key in table, key
        for text in table[key][1:]:
            assert set(re.findall(r"\{(\w+)[^}]*\}", text)) <= args, (key, text)


def test_reviews_are_taken_in_turn_by_address() -> None:
    """Issue 55: one address asking for many reviews does not make another wait behind
    all of them: the waiting ones are taken by address in rotation."""
    import asyncio

    from big2.server.reviews import Reviews

    order: list[tuple[str, int]] = []

    class Timed:
        async def review(self, text: str, seat: int) -> dict[str, Any]:
            order.append((text, seat))
            await asyncio.sleep(0.02)
            return {"complete": False}

    async def main() -> None:
        reviews = Reviews(Timed())
        many = [asyncio.create_task(reviews.review(s, "ann", s, "10.0.0.1")) for s in range(5)]
        await asyncio.sleep(0)  # the first runs, four of ann's wait
        other = asyncio.create_task(reviews.review(9, "bob", 0, "10.0.0.2"))
        late = asyncio.create_task(reviews.review(7, "cat", 1, "10.0.0.3"))
        await asyncio.sleep(0.005)
        many[3].cancel()  # one that gives up waiting leaves the queue
        await asyncio.gather(*many, other, late, return_exceptions=True)
        assert reviews.turns.waiting() == 0

    asyncio.run(main())
    # bob and cat, who asked after ann's five, go third and fourth, not after all of them
    # (ann's second was first in the queue; then each address has one before ann again)
    assert order == [("ann", 0), ("ann", 1), ("bob", 0), ("cat", 1), ("ann", 2), ("ann", 4)]


def test_an_address_may_have_only_so_many_reviews_waiting() -> None:
    """A fifth review waiting from one address is refused with when to ask again; other
    addresses are not, and once one of its own has run, the address may ask again."""
    import asyncio

    from big2.server.reviews import WAITING_PER_ADDRESS, QueueFull, Reviews

    ran: list[int] = []

    class Slow:
        async def review(self, text: str, seat: int) -> dict[str, Any]:
            ran.append(seat)
            await asyncio.sleep(0.05)
            return {"complete": False}

    async def main() -> None:
        reviews = Reviews(Slow())
        first = [asyncio.create_task(reviews.review(1, "t", s, "10.0.0.1"))
                 for s in range(1 + WAITING_PER_ADDRESS)]  # one runs, the rest wait
        await asyncio.sleep(0.01)
        assert reviews.turns.waiting_for("10.0.0.1") == WAITING_PER_ADDRESS
        try:
            await reviews.review(1, "t", 99, "10.0.0.1")
        except QueueFull as exc:
            assert exc.retry_after >= 1 and "reviews waiting" in str(exc)
        else:
            raise AssertionError("a fifth waiting review was queued")
        other = asyncio.create_task(reviews.review(2, "t", 50, "10.0.0.2"))
        await asyncio.sleep(0.07)  # the first has run: room for one more
        again = asyncio.create_task(reviews.review(1, "t", 98, "10.0.0.1"))
        await asyncio.gather(*first, other, again)

    asyncio.run(main())
    assert 99 not in ran and {50, 98} <= set(ran) and len(ran) == WAITING_PER_ADDRESS + 3
