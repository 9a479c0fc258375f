"""A teams table in Chromium (issue 52): your partner marked at the table; a hint
that another bot answered says why; at the end the winning side named as
partners (not "Tied for first") and each score row saying the sides' cards left
(not "(house rule)"); in 繁體中文 too."""

from __future__ import annotations

from typing import Any

from test_browser import new_page, page_errors, seat_at
from test_browser_phone import finish_deal

from big2.bots import bot_label
from big2.server.pool import BotPool
from big2.server.tables import Timing
from conftest import LiveServer, Shots


def test_a_teams_table(browser: Any, live_factory: Any, shots: Shots) -> None:
    # hints asked of a bot in a worker with no time to answer: the quick bot answers
    web: LiveServer = live_factory(timing=Timing(bot_delay=0.05, grace=5, deal_pause=30),
                                   auto_bot="heuristic", pool=BotPool(workers=1, budget=0.0))
    page = new_page(browser, reduced_motion="reduce")
    errors = page_errors(page)
    tid = seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1,
                  options={"teams": True})
    page.wait_for_function("() => big2.myTurn()")
    # the partner (opposite, seat 3) is marked; the others are not
    tags = page.evaluate("() => [...document.querySelectorAll('.seat')].map(s => "
                         "[+s.dataset.seat, !!s.querySelector('.tag.partner')])")
    assert sorted(tags) == [[0, False], [1, False], [2, True], [3, False]], tags
    assert "partner" in page.get_attribute('.seat[data-seat="2"]', "aria-label")
    # a hint the quick bot gave says why it did
    page.click("#hint-btn")
    page.wait_for_function("() => document.getElementById('message').textContent"
                           ".startsWith('Hint (greedy)')")
    said = page.inner_text("#message")
    assert f"({bot_label('heuristic')} took over 0 s, so the quick bot answered)" in said, said
    shots.take(page, "teams-turn-1280.png")
    finish_deal(web, page, tid)
    while page.evaluate("() => big2.state.table.status") == "between":  # a tie: shoot-out
        page.click("#next-btn")
        page.wait_for_function("() => big2.state.table.status === 'playing'")
        finish_deal(web, page, tid)
    page.wait_for_selector("#panel .match-result")
    st = page.evaluate("() => big2.state")
    totals = st["totals"]
    rows = page.eval_on_selector_all("#panel .result-row[data-seat] .why",
                                     "els => els.map(e => e.textContent)")
    assert len(rows) == 4 and all("(house rule)" not in r for r in rows), rows
    assert all("teams: " in r and "on this side" in r for r in rows), rows
    result = page.inner_text("#panel .match-result")
    assert "Tied for first" not in result, result
    first = [s for s in range(4) if totals[s] == max(totals)]
    names = [st["table"]["seats"][s]["name"] or f"Seat {s + 1}" for s in first]
    assert first in ([0, 2], [1, 3]) and result == f"{names[0]} and {names[1]} win the match " \
        "as partners.", (totals, result)
    shots.take(page, "teams-end-1280.png")
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    page.click("#settings summary")
    assert page.inner_text("#panel .match-result").endswith("同隊贏得比賽。")
    assert not errors, errors
    page.context.close()
