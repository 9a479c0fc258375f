"""Issue 27's remaining table fixes in Chromium: a language switch redraws the
finished deals and the replay's heading, Tab reaches the hand, the card images
are in before the first hand is drawn, spectators see every seat's card count,
the log shows whole lines, the replay's heading names the cards under it, the
turn timer is off by default at a table of bots, and a new deal's cards are
dealt in unless the player prefers reduced motion."""

from __future__ import annotations

from typing import Any

import test_browser as tb
from test_browser import (
    PHONE,
    finished_table,
    new_page,
    page_errors,
    quick_matches,
    seat_at,
    wait_turn,
)
from test_browser_more import play_weakest

from conftest import LiveServer

web = tb.web


def switch_lang(page: Any, code: str) -> None:
    page.click("#settings summary")
    page.select_option("#lang", code)
    page.click("#settings summary")


def test_a_language_switch_redraws_the_finished_deals(browser: Any, live_factory: Any) -> None:
    web = quick_matches(live_factory)
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


IN_HAND = "() => !!document.activeElement.closest('#hand')"


def test_tab_reaches_the_hand_and_space_selects(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=3)
    page.wait_for_selector("#hand .card")
    stops = []
    for _ in range(3):  # from the page's start: the brand, the settings switch, the hand
        if page.evaluate(IN_HAND):  # (or already there: your turn puts it there)
            break
        page.keyboard.press("Tab")
        stops.append(page.evaluate("() => document.activeElement.tagName"))
    assert page.evaluate(IN_HAND), stops
    # a button clicked with the mouse (Pass, Play) keeps the focus; Tab from it goes on
    # to Hint, Clear, Sort… So your next turn puts the focus back in the hand
    clicked = False
    while True:  # your turn with a card you may play, after a click on Pass or Play
        if not wait_turn(page):  # the deal ended first: the next one
            assert page.evaluate("() => big2.state.table.status") == "between", \
                "three deals without two turns with a play"
            page.click("#next-btn")
            page.wait_for_function("() => big2.state.table.status === 'playing'")
            continue
        if clicked:
            assert page.evaluate(IN_HAND), page.evaluate("() => document.activeElement.id")
        if clicked and page.evaluate("() => big2.state.game.legal.some(p => p)"):
            break
        play_weakest(page)  # clicks: the focus left the hand (on Pass, or none: Play is off)
        clicked = True
    # the arrows move to a card some play holds (to the right of the focus, or else to its
    # left: the hand's ends do not wrap); Space selects it, Enter unselects it
    for key in ["ArrowRight"] * 13 + ["ArrowLeft"] * 13:
        if "dim" not in (page.evaluate("() => document.activeElement.className") or ""):
            break
        page.keyboard.press(key)
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


def test_spectators_see_every_seats_card_count(browser: Any, web: LiveServer) -> None:
    player = new_page(browser)
    tid = seat_at(web, player, [None, "greedy", "greedy", "greedy"], deals=1)
    page = new_page(browser)
    errors = page_errors(page)
    page.goto(f"{web.url}/t/{tid}")  # no seat: watching
    page.wait_for_function("() => big2.state && big2.state.game && big2.state.you === null")
    # the person's seat (at the bottom for a spectator) shows its count like the others
    page.wait_for_function("""() => { const g = big2.state.game;
      return [0, 1, 2, 3].every(s => { const c = document.querySelector(
        `.seat[data-seat="${s}"] .count`);
        return c && +c.dataset.count === g.counts[s]; }); }""")
    assert page.is_visible('.seat[data-seat="0"] .count')
    assert page.locator('.seat[data-seat="0"] .mini-fan .card').count() >= 1
    assert "card" in page.inner_text('.seat[data-seat="0"] .count')
    # and still no cards of that hand anywhere
    assert page.locator("#hand .card").count() == 0
    player.context.close()
    assert not errors, errors
    page.context.close()


WHOLE_LINES = """() => { const l = document.getElementById('log'), r = l.getBoundingClientRect();
  const seen = [...l.children].map(li => li.getBoundingClientRect())
    .filter(x => x.bottom > r.top + 0.5 && x.top < r.bottom - 0.5);
  return {top: r.top, bottom: r.bottom, first: seen[0].top, last: seen[seen.length - 1].bottom,
          overflow: l.scrollHeight > l.clientHeight, lines: l.children.length}; }"""


def test_the_log_shows_whole_lines(browser: Any, live_factory: Any) -> None:
    web = quick_matches(live_factory)
    tid = finished_table(web, deals=1)
    page = new_page(browser, tb.DESKTOP)  # one page, loaded again at each size
    errors = page_errors(page)
    for viewport in (tb.DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(f"{web.url}/t/{tid}")
        page.wait_for_function("() => document.querySelectorAll('#log li').length >= 12")
        box = page.evaluate(WHOLE_LINES)
        assert box["overflow"], box  # a long log: it scrolls, to its end
        assert box["first"] >= box["top"] - 0.5, box  # the top line is not cut
        assert box["last"] <= box["bottom"] + 0.5, box  # nor the last
    assert not errors, errors
    page.context.close()


def test_the_replay_heading_names_the_cards_under_it(browser: Any, live_factory: Any) -> None:
    web = quick_matches(live_factory)
    tid = finished_table(web, deals=1)
    rec = web.get(f"/api/tables/{tid}/records")[0]
    page = new_page(browser)
    errors = page_errors(page)
    page.goto(f"{web.url}/replay/{rec['id']}")
    page.wait_for_selector(".replay-hand .card")
    steps = page.evaluate("() => big2.steps.map(s => [s.cards || null, s.last, s.lastBy])")
    names = web.get(f"/api/records/{rec['id']}")["names"]
    passes = [i for i, s in enumerate(steps) if s[0] == "pass"]
    plays = [i for i, s in enumerate(steps) if s[0] not in (None, "pass")]
    assert passes and plays  # a deal of several tricks: tricks end on passes
    for i in (plays[0], passes[0], passes[-1]):
        page.evaluate("i => big2.go(i)", i)
        cards, last, last_by = steps[i]
        shown = page.eval_on_selector_all("#trick .card", "els => els.map(e => e.dataset.card)")
        assert shown == last.split(" "), (i, shown, last)
        by = page.inner_text("#trick-by .by-name")
        assert by == names[last_by], (i, by, names, last_by)  # the one who made that play
        if cards == "pass":
            seat = page.evaluate("i => big2.steps[i].seat", i)
            assert page.inner_text("#trick-by .by-pass") == f"{names[seat]} passed"
        else:
            assert page.locator("#trick-by .by-pass").count() == 0
    assert page.locator("h1").count() == 1
    assert not errors, errors
    page.context.close()


def test_the_turn_timer_is_off_at_a_table_of_bots(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.wait_for_selector("#seat-3 option", state="attached")
    assert page.input_value("#turn-time") == "0"  # you and three bots: nobody to wait for
    page.select_option("#seat-2", "human")  # a friend's seat: 30 s
    assert page.input_value("#turn-time") == "30"
    page.select_option("#seat-2", "greedy")
    assert page.input_value("#turn-time") == "0"
    page.select_option("#players", "3")  # the seats drawn again: still bots only
    assert page.input_value("#turn-time") == "0"
    page.select_option("#turn-time", "60")  # a time chosen by hand stays
    page.select_option("#seat-1", "human")
    page.select_option("#seat-1", "greedy")
    assert page.input_value("#turn-time") == "60"
    page.select_option("#turn-time", "0")
    page.fill("#your-name", "Ann")
    page.click("#create-btn")
    page.wait_for_function("() => window.big2 && big2.state && big2.state.you === 0")
    assert page.evaluate("() => big2.state.table.turn_time") == 0
    page.wait_for_function("() => [...document.querySelectorAll('#rules p')]"
                           ".some(p => p.textContent === 'No turn timer')")
    assert not errors, errors
    page.context.close()


# Every card animation the page starts, by its id ("deal" for the dealing one).
COUNT_ANIMATIONS = """window.__anims = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (k, o) {
  window.__anims.push([o && o.id, this.dataset && this.dataset.card]);
  return animate.call(this, k, o); };"""


def test_a_new_deal_is_dealt_in_unless_motion_is_reduced(browser: Any, web: LiveServer) -> None:
    for motion in ("no-preference", "reduce"):
        page = new_page(browser, reduced_motion=motion)
        errors = page_errors(page)
        page.add_init_script(COUNT_ANIMATIONS)
        seat_at(web, page, [None, None, "greedy", "greedy"], deals=1)  # seat 2 waits
        page.wait_for_selector("#start-btn")
        assert page.locator("#hand .card").count() == 0
        page.click("#start-btn")  # a bot takes the open seat; the deal begins
        page.wait_for_selector("#hand .card")
        dealt = page.evaluate("() => window.__anims.filter(a => a[0] === 'deal')")
        if motion == "reduce":
            assert dealt == [], dealt  # nothing moves
        else:
            hand = page.evaluate("() => big2.state.game.hand.length")
            cards = {c for _, c in dealt}
            # the first drawing deals every card (later ones carry the animation on)
            assert len(cards) >= hand - 1 and len(dealt) >= hand - 1, (dealt, hand)
        # a reload mid-deal deals nothing
        page.evaluate("() => { window.__anims.length = 0; }")
        if page.evaluate("() => big2.state.game.plies === 0 && big2.myTurn()"):
            play_weakest(page)  # you hold the lead: play, so the deal has begun
        page.wait_for_function("() => big2.state.game.plies > 0")
        page.reload()
        page.wait_for_selector("#hand .card")
        assert not page.evaluate("() => window.__anims.filter(a => a[0] === 'deal')"
                                 ".length")
        assert not errors, errors
        page.context.close()


# The fields, folding headings and checkboxes in view, with their sizes and, for a
# checkbox, the height of the label around it (the row a finger taps).
FIELDS = """() => [...document.querySelectorAll('input, select, summary')]
  .filter(e => e.offsetParent !== null && e.type !== 'hidden').map(e => {
    const r = e.getBoundingClientRect(), l = e.closest('label');
    return {what: e.id || e.textContent.trim().slice(0, 20), type: e.type || e.tagName,
            h: r.height, w: r.width, row: l ? l.getBoundingClientRect().height : 0}; })"""


def small_fields(page: Any) -> list[Any]:
    found = page.evaluate(FIELDS)
    assert found, "no fields in view"
    bad = []
    for f in found:
        if f["type"] == "checkbox":  # a 22 px box in a label row 44 px tall
            if f["h"] < 20 or f["row"] < 44:
                bad.append(f)
        elif f["h"] < 44:
            bad.append(f)
    return bad


def test_phone_fields_and_toggles_are_44_px(browser: Any, live_factory: Any) -> None:
    web = quick_matches(live_factory)
    tid = finished_table(web, deals=1)
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    page = new_page(browser, PHONE)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.wait_for_selector("#opt-decks", state="attached")
    page.click("#new-table > summary")  # folded on phones: its heading is a tap target
    page.click("#options >> xpath=../summary")  # the house rules, open
    page.wait_for_selector("#opt-decks")
    assert page.evaluate("""() => [...document.querySelectorAll('#create input, #create select')]
      .every(e => e.getBoundingClientRect().right <= innerWidth)""")  # none cut at the edge
    page.click("#settings summary")  # the menu's checkboxes
    assert page.is_visible("#four-color")
    assert not small_fields(page), small_fields(page)
    page.click("#settings summary")
    page.goto(f"{web.url}/t/{tid}")  # a spectator's page: its seat form
    page.wait_for_function("() => big2.state && big2.state.table")
    assert not small_fields(page), small_fields(page)
    page.goto(f"{web.url}/replay/{rid}")  # the replay's slider
    page.wait_for_selector(".replay-hand .card")
    assert page.is_visible("#ply")
    assert not small_fields(page), small_fields(page)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert not errors, errors
    page.context.close()
