"""Issue 27's game review in the browser's replay: a seat's decisions judged by
the server's expert search, listed with the play made, its value, the best play
found and the marks; each line steps the replay to that play; the language
switch redraws it. The README's ``docs/img/browser-review.png`` is this test's
screenshot (written there with ``BIG2_UPDATE_SCREENSHOT=1``)."""

from __future__ import annotations

from typing import Any

import pytest
from test_browser import finished_table, new_page, page_errors
from test_browser_shots import _DOCS, UPDATE, shoot

from big2.server.pool import BotPool
from big2.server.tables import Timing
from conftest import LiveServer, Shots


@pytest.fixture
def web(live_factory: Any) -> LiveServer:
    """A server whose review searches little (the test checks the page, not the search),
    and whose bots move at once (the table reviewed is of bots that nobody watches)."""
    server: LiveServer = live_factory(
        timing=Timing(bot_delay=0.0, grace=5, deal_pause=30),
        pool=BotPool(workers=0, review_playouts=40, review_seconds=60))
    return server


def test_the_replay_reviews_a_seats_decisions(browser: Any, web: LiveServer,
                                               shots: Shots) -> None:
    tid = finished_table(web, deals=1)
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    page = new_page(browser, {"width": 1280, "height": 1000},
                    reduced_motion="reduce")  # the screenshot catches no card in flight
    errors = page_errors(page)
    page.goto(f"{web.url}/replay/{rid}")
    page.wait_for_selector(".replay-hand .card")
    assert page.eval_on_selector_all("#review-seat option", "els => els.map(e => e.textContent)"
                                     ) == [f"Greedy bot {i}" for i in range(1, 5)]
    for seat in (2, 0, 1, 3):  # a seat with a decision to judge (one with a choice)
        page.select_option("#review-seat", str(seat))
        page.click("#review-btn")
        page.wait_for_function("() => !document.getElementById('review-btn').disabled && "
                               "document.getElementById('review-status').textContent"
                               ".includes('decisions reviewed')", timeout=60000)
        if page.locator("#review-list li").count():
            break
    got = web.post(f"/api/records/{rid}/review", {"seat": seat})  # kept: the page's answer
    name = f"Greedy bot {seat + 1}"
    plies = page.eval_on_selector_all("#review-list li", "els => els.map(e => +e.dataset.ply)")
    assert plies == [d["ply"] for d in got["decisions"]] and plies
    status = page.inner_text("#review-status")
    marks = [d["mark"] for d in got["decisions"]]
    assert status == (f"{name}: {len(plies)} decisions reviewed · inaccuracies: "
                      f"{marks.count('inaccuracy')} · mistakes: {marks.count('mistake')}"
                      f" · judged by {got['bot']}"), status  # the strongest bot, named
    for d, li in zip(got["decisions"], page.query_selector_all("#review-list li"), strict=True):
        text = li.inner_text()
        assert f"{d['made_value']:+.1f}" in text, (d, text)
        assert ("best found:" in text) == (d["made"] != d["best"]), (d, text)
        assert li.get_attribute("class").split()[0] == (d["mark"] or "good")
    # a line steps the replay to that play, and is marked as the place
    last = plies[-1]
    page.click(f'#review-list li[data-ply="{last}"]')
    page.wait_for_function("p => big2.ply === p", arg=last)
    assert page.get_attribute(f'#review-list li[data-ply="{last}"]', "class").endswith("here")
    marked = [d["ply"] for d in got["decisions"] if d["mark"]]
    page.click(f'#review-list li[data-ply="{(marked or plies)[0]}"]')
    if UPDATE:
        shoot(page, _DOCS / "browser-review.png")  # the docs' picture of a review
    else:
        shots.take(page, "browser-review.png")
    # on a phone the list lies below the board: a line tapped brings the board into view
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("Home")
    last_line = plies[-1]  # the last line: far down the list
    page.click(f'#review-list li[data-ply="{last_line}"]')
    page.wait_for_function("p => big2.ply === p", arg=last_line)
    seen = page.evaluate("""() => { const r = document.getElementById('felt')
      .getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }""")
    assert seen[0] >= -1 and (seen[1] <= seen[2] + 1 or seen[0] <= 1), seen  # whole, or its top
    shots.take(page, "review-390.png")
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.keyboard.press("Home")  # the keys step on; the mark follows
    page.wait_for_function("() => big2.ply === 0")
    assert page.locator("#review-list li.here").count() == 0
    # the language switch redraws the review
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    page.click("#settings summary")
    page.wait_for_function("() => document.getElementById('review-btn').textContent === '覆盤'")
    assert page.inner_text("#review-status").startswith(f"{name}：評估了")
    assert page.locator("#review-list li").count() == len(plies)
    assert not errors, errors
    page.context.close()
