"""Issue 27's remaining table fixes in Chromium: a language switch redraws the
finished deals and the replay's heading, Tab reaches the hand, the card images
are in before the first hand is drawn, spectators see every seat's card count,
the log shows whole lines, the replay's heading names the cards under it, the
turn timer is off by default at a table of bots, and a new deal's cards are
dealt in unless the player prefers reduced motion."""

from __future__ import annotations

from typing import Any

import test_browser as tb
from conftest import LiveServer
from test_browser import PHONE, new_page, page_errors, seat_at, wait_turn
from test_browser_fixes import finished_table

browser = tb.browser  # this module's Chromium, and the server the tests share
web = tb.web


def switch_lang(page: Any, code: str) -> None:
    page.click("#settings summary")
    page.select_option("#lang", code)
    page.click("#settings summary")


def test_a_language_switch_redraws_the_finished_deals(browser: Any, web: LiveServer) -> None:
    tid = finished_table(web)
    page = new_page(browser)
    errors = page_errors(page)
    page.goto(f"{web.url}/t/{tid}")
    page.wait_for_function("() => document.querySelectorAll('#records li a').length === 4")
    assert page.inner_text("#records").startswith("Deal ")
    switch_lang(page, "zh-Hant")  # no reload: every list in the new language at once
    page.wait_for_function("() => document.getElementById('records').innerText"
                           ".startsWith('第 ')")
    records = page.inner_text("#records")
    assert "Deal" not in records and "Replay" not in records and "重播" in records, records
    assert page.inner_text("h2[data-i18n=finishedDeals]") == "已完成的牌局"
    switch_lang(page, "en")
    page.wait_for_function("() => document.getElementById('records').innerText"
                           ".startsWith('Deal ')")
    # the replay's heading too
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    page.goto(f"{web.url}/replay/{rid}")
    page.wait_for_selector(".replay-hand .card")
    assert page.inner_text("h1#title").startswith("Replay: ")
    switch_lang(page, "zh-Hans")
    page.wait_for_function("() => document.getElementById('title').textContent"
                           ".startsWith('回放: ')")
    assert "Greedy bot 1" in page.inner_text("h1#title")  # not cut back to the bare word
    assert not errors, errors
    page.context.close()


def test_tab_reaches_the_hand_and_space_selects(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
    while True:  # your turn with a card you may play (pass by hand when you must)
        assert wait_turn(page), "the deal ended before a turn with a play"
        if page.evaluate("() => big2.state.game.legal.some(p => p)"):
            break
        n = page.evaluate("() => big2.state.game.plies")
        page.click("#pass-btn")
        page.wait_for_function(f"() => big2.state.game.plies > {n}")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    stops = []
    for _ in range(3):  # the brand, the settings switch, then the hand
        page.keyboard.press("Tab")
        stops.append(page.evaluate("() => document.activeElement.closest('#hand') ? 'hand'"
                                   " : document.activeElement.tagName"))
        if stops[-1] == "hand":
            break
    assert stops[-1] == "hand", stops
    # the arrows move to a card some play holds; Space selects it, Enter unselects it
    for _ in range(13):
        if "dim" not in (page.evaluate("() => document.activeElement.className") or ""):
            break
        page.keyboard.press("ArrowRight")
    card = page.evaluate("() => document.activeElement.dataset.card")
    assert card and "dim" not in page.evaluate("() => document.activeElement.className")
    page.keyboard.press(" ")
    page.wait_for_function("c => big2.selectedNames().includes(c)", arg=card)
    # the hand was drawn again: the focus stays on that card, now pressed
    assert page.evaluate("() => [document.activeElement.dataset.card,"
                         " document.activeElement.getAttribute('aria-pressed')]") == [card, "true"]
    page.keyboard.press("Enter")
    page.wait_for_function("c => !big2.selectedNames().includes(c)", arg=card)
    assert not errors, errors
    page.context.close()


# Each card image put in the page: whether it was already loaded (an image the browser
# has decoded is complete at once; one still on its way is a blank card for a moment).
WATCH_IMAGES = """window.__faces = [];
new MutationObserver(ms => { for (const m of ms) for (const n of m.addedNodes) {
  if (!(n instanceof Element)) continue;
  for (const img of n.matches('img') ? [n] : n.querySelectorAll('img')) {
    if (img.closest('#hand, #trick, .replay-hand')) window.__faces.push(
      [img.dataset.face, img.complete && img.naturalWidth > 0]);
  } } }).observe(document, {childList: true, subtree: true});"""


def test_card_images_are_in_before_the_first_hand(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    page.add_init_script(WATCH_IMAGES)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
    page.wait_for_selector("#hand .card")
    faces = page.evaluate("() => window.__faces")
    assert len(faces) >= 13, faces
    assert all(ok for _, ok in faces), [f for f, ok in faces if not ok]
    # a fresh browser (nothing cached) on a replay: the same
    page.context.close()
    rid = web.get(f"/api/tables/{finished_table(web, deals=1)}/records")[0]["id"]
    page = new_page(browser)
    errors = page_errors(page)
    page.add_init_script(WATCH_IMAGES)
    page.goto(f"{web.url}/replay/{rid}")
    page.wait_for_selector(".replay-hand .card")
    faces = page.evaluate("() => window.__faces")
    assert len(faces) >= 52 and all(ok for _, ok in faces), faces
    assert not errors, errors
    page.context.close()
