"""Issue 41's words on the pages, in Chromium: a tied match is told as a tie with
shared places, scores are explained in plain words and How to play has a Scoring
section, the hint names its bot and gives its reason (in Chinese too), the review
scrolls to its results and says its "why" in the page's language with a loss
signed negative, and the lobby filters and pages its tables."""

from __future__ import annotations

import json
import re
from typing import Any

import test_browser as tb
from test_browser import (
    DESKTOP,
    PHONE,
    finished_table,
    new_page,
    page_errors,
    quick_matches,
    seat_at,
)
from test_browser_phone import finish_deal

from conftest import LiveServer, Shots

web = tb.web


def test_a_tied_match_shares_first_place(browser: Any, web: LiveServer, shots: Shots) -> None:
    page = new_page(browser, reduced_motion="reduce")
    errors = page_errors(page)
    tid = seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1, turn_time=0)
    finish_deal(web, page, tid)
    page.wait_for_selector("#panel .match-result")
    totals = page.evaluate("() => big2.state.totals")
    places = page.evaluate("() => big2.state.places")
    assert places == [1 + sum(t > v for t in totals) for v in totals]  # from the server
    # the same page given a tied match (as the server would send it): a tie, not a win
    page.evaluate("""() => { const st = big2.state; st.totals = [36, -20, 36, -52];
      st.places = [1, 3, 1, 4]; big2.render(); }""")
    assert page.inner_text("#panel .match-result") == "Tied for first: Ann and Greedy bot 3 " \
                                                       "with +36 each."
    shown = page.eval_on_selector_all("#panel .result-row:not(.head)",
                                      "rows => rows.map(r => r.querySelector('.r-name')"
                                      ".textContent)")
    assert shown[:2] == ["1st Ann", "1st Greedy bot 3"] and shown[2].startswith("3rd ")
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    assert page.inner_text("#panel .match-result") == "並列第一：Ann、Greedy bot 3，各 +36 分。"
    shots.take(page, "tie-1280.png")
    assert not errors, errors


def test_scores_are_explained_in_plain_words(browser: Any, web: LiveServer, shots: Shots) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.wait_for_function("() => document.querySelector('#preset option')")
    from_lines = page.evaluate("""async () => {
      const {scoreWhy} = await import('/static/panel.js');
      const line = {method: 'classic', left: 10, per_card: 2, whole: 13, twos: 2, bombs: 1,
                    winning_play: 'two', collects: [], adjusted: ''};
      return [scoreWhy(line), scoreWhy({...line, left: 13, per_card: 3, twos: 1, bombs: 0,
                                         winning_play: ''})]; }""")
    assert from_lines[0] == ("10 cards left · counted ×2: 10 or more of the 13 cards still in "
                             "hand · doubled for each of 2 2s held (×4) · doubled for holding "
                             "a four of a kind or straight flush · doubled: the winner went out "
                             "on a 2")
    assert from_lines[1] == ("13 cards left · counted ×3: all 13 cards still in hand · doubled "
                             "for holding a 2")
    # How to play says the rules those words come from, for each scoring method
    for preset, want in (("classic", ["scClassicPay", "scMultiplier", "scTwosEach", "scBombs",
                                      "scWinningPlay", "scExample"]),
                         ("president", ["scRanking"])):
        page.goto(f"{web.url}/how?preset={preset}")
        page.wait_for_selector("#scoring li")
        assert page.eval_on_selector_all("#scoring li", "els => els.map(e => e.dataset.line)") \
            == want
    page.goto(f"{web.url}/how?preset=classic")
    page.wait_for_selector("#scoring li")
    text = page.inner_text("#scoring")
    assert "With 10 or more of the 13 cards left, each card counts 2" in text
    page.set_viewport_size(PHONE)
    page.locator("#scoring-box").scroll_into_view_if_needed()
    shots.take(page, "how-scoring-390.png")
    assert not errors, errors


def test_the_hint_names_its_bot_and_says_why(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1, turn_time=0)
    page.wait_for_function("() => big2.myTurn()")
    page.click("#hint-btn")
    page.wait_for_function("() => document.getElementById('message').textContent"
                           ".startsWith('Hint (')")
    said = page.inner_text("#message")
    assert re.match(r"Hint \(greedy\): ", said), said  # the server's hint bot, by name
    # the reason, as the server sends it, in the page's words and in Chinese
    reason = page.evaluate("""async () => {
      const {reasonText} = await import('/static/whys.js');
      const {setLang} = await import('/static/i18n.js');
      const r = {key: 'nextOnOneStop', text: 'Bob, next to play, holds one card: …',
                 args: {name: 'Bob', made: {cards: '5C', kind: 'SINGLE'},
                        best: {cards: '2S', kind: 'SINGLE'}}};
      const en = reasonText(r); setLang('zh-Hant'); const hant = reasonText(r);
      setLang('zh-Hans'); const hans = reasonText({key: 'breaks', text: 'breaks a pair of 7s',
        args: {group: 'pair', rank: '7'}}); setLang('en'); return [en, hant, hans]; }""")
    assert reason[0] == "Bob, next to play, holds one card: …"  # the server's own English
    assert reason[1] == "下家 Bob 只剩一張：出單張 5♣ 可能讓他出完，單張 2♠ 才擋得住", reason
    assert reason[2] == "拆了一对 7"
    assert not errors, errors


def test_the_review_scrolls_to_its_results_and_speaks_the_pages_language(
        browser: Any, live_factory: Any, shots: Shots) -> None:
    web = quick_matches(live_factory)
    tid = finished_table(web, deals=1)
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    review = {"seat": 0, "complete": True, "playouts": 40, "seconds": 0.5, "inaccuracy": 3.0,
              "mistake": 8.0, "decisions": [
                  {"ply": 1, "made": "3D", "made_value": -9.0, "best": "3D 3S",
                   "best_value": 1.0, "loss": 10.0, "mark": "mistake", "choices": 4,
                   "why": "breaks a pair of 3s",
                   "reason": {"key": "breaks", "args": {"group": "pair", "rank": "3"},
                              "text": "breaks a pair of 3s"}}]}
    for viewport, lang in ((PHONE, "zh-HK"), (DESKTOP, "en-GB")):
        page = new_page(browser, viewport, locale=lang)
        errors = page_errors(page)
        page.route(f"**/api/records/{rid}/review", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(review)))
        page.goto(f"{web.url}/replay/{rid}")
        page.wait_for_selector(".replay-hand .card")
        assert page.evaluate("() => scrollY") == 0
        assert "expert" in page.inner_text("#review-status")  # the level that judges
        page.click("#review-btn")
        page.wait_for_selector("#review-list li")
        page.wait_for_function("() => { const r = document.getElementById('review-status')"
                               ".getBoundingClientRect(); return r.top >= 0 && "
                               "r.bottom <= innerHeight; }")  # scrolled into view
        why = page.inner_text("#review-list li .r-why")
        mark = page.inner_text("#review-list li .r-mark")
        if lang == "zh-HK":
            assert why == "拆了一對 3" and mark == "失誤（-10.0）", (why, mark)
            shots.take(page, "review-390-zh.png")
        else:
            assert why == "breaks a pair of 3s" and mark == "mistake (-10.0)", (why, mark)
        assert not errors, errors
        page.context.close()


def test_the_lobby_filters_and_pages(browser: Any, web: LiveServer, shots: Shots) -> None:
    for i in range(12):
        web.create([None, None, "greedy", "greedy"], name=f"Table {i:02d}")
    web.create([None, None, "greedy", "greedy"], name="Friday night", preset="taiwan")
    page = new_page(browser, PHONE)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.wait_for_selector("#tables li[data-table]")
    assert page.locator("#tables li[data-table]").count() == 10
    assert page.is_visible("#more-tables")
    page.click("#more-tables")
    page.wait_for_function("() => document.querySelectorAll('#tables li[data-table]').length "
                           "=== 13")
    assert not page.is_visible("#more-tables")
    page.fill("#find", "friday")
    page.wait_for_function("() => document.querySelectorAll('#tables li[data-table]').length "
                           "=== 1")
    assert "Friday night" in page.inner_text("#tables")
    page.fill("#find", "nothing like it")
    page.wait_for_function("() => document.getElementById('tables').textContent"
                           ".includes('No table matches')")
    shots.take(page, "lobby-filter-390.png", full_page=True)
    assert not errors, errors
