"""More of the table in Chromium: languages (from the browser's and by the
switch), the four-colour deck, sound off by default, selection by click and
its ARIA labels, the turn timer's bot move said aloud, the play animation and
prefers-reduced-motion, and an eight-seat score table that scrolls."""

from __future__ import annotations

import time
from typing import Any

import test_browser as tb
from test_browser import DESKTOP, PHONE, new_page, page_errors, seat_at, wait_turn

from conftest import LiveServer

web = tb.web

ANIMATE_SPY = """(() => { window.big2Animations = 0; const real = Element.prototype.animate;
  Element.prototype.animate = function (...a) { window.big2Animations++;
    return real.apply(this, a); }; })()"""


def play_weakest(page: Any) -> None:
    """Play the weakest legal play (or pass) by clicking, and wait for its state."""
    n = page.evaluate("() => big2.state.game.plies")
    plays = [p for p in page.evaluate("() => big2.state.game.legal") if p]
    if plays:
        page.evaluate("() => big2.renderHand()")
        for c in plays[0].split():  # dispatched: a card still sliding in is "not stable"
            page.dispatch_event(f'#hand [data-card="{c}"]', "click")
        page.click("#play-btn")
    else:
        page.click("#pass-btn")
    page.wait_for_function(f"() => big2.state.game.plies > {n}")


def replace_single(page: Any) -> bool:
    """Click two singles that share no legal play: the second replaces the first.

    Whether this turn offered such a pair (the check ran)."""
    legal = page.evaluate("() => big2.state.game.legal")
    singles = [p for p in legal if p and " " not in p]
    plays = {frozenset(p.split()) for p in legal if p}
    two = next(((a, b) for a in singles for b in singles
                if a != b and not any({a, b} <= s for s in plays)), None)
    if two is None:
        return False
    for c in two:
        page.click(f'#hand [data-card="{c}"]', position={"x": 6, "y": 30})
    assert page.evaluate("() => big2.selectedNames()") == [two[1]]
    assert page.inner_text("#message") == ""  # no error for the switch
    page.keyboard.press("Escape")
    return True


def test_language_from_the_browser_and_the_switch(browser: Any, web: LiveServer) -> None:
    want = {"zh-TW": ("出牌", "過"), "zh-CN": ("出牌", "过"), "en-US": ("Play", "Pass")}
    tid = web.create([None, "greedy", "greedy", "greedy"], deals=1)
    token = web.join(tid, 0, "Ann")
    for locale, (play, pass_) in want.items():
        page = new_page(browser, locale=locale)
        errors = page_errors(page)
        page.goto(web.url + "/")
        create = {"zh-TW": "開枱並坐下", "zh-CN": "开桌并坐下"}.get(locale, "Create table and sit down")
        assert page.inner_text("#create-btn") == create
        if locale == "en-US":  # Hong Kong and Macau read traditional characters, Singapore simplified
            detected = page.evaluate("""async () => { const m = await import('/static/i18n.js');
              return ['zh-HK', 'zh-MO', 'zh-SG', 'zh-Hant-TW', 'zh', 'fr-FR', 'en-PH'].map(
                l => m.detect([l])); }""")
            assert detected == ["zh-Hant", "zh-Hant", "zh-Hans", "zh-Hant", "zh-Hans", "en", "en"]
        page.evaluate("([t, k]) => localStorage.setItem('big2.seat.' + t, "
                      "JSON.stringify({seat: 0, token: k}))", [tid, token])
        page.goto(f"{web.url}/t/{tid}")
        page.wait_for_selector("#hand .card")
        assert page.inner_text("#play-btn span") == play
        assert page.inner_text("#pass-btn span") == pass_
        assert not errors, errors
        if locale != "zh-TW":
            page.context.close()
            continue
        # the switch: 简体, then English; the choice is kept across a reload
        assert "大老二" in page.evaluate("() => document.title") or page.title()
        page.click("#settings summary")
        page.select_option("#lang", "zh-Hans")
        assert page.inner_text("#pass-btn span") == "过"
        assert page.evaluate("() => document.documentElement.lang") == "zh-Hans"
        page.select_option("#lang", "en")
        assert page.inner_text("#pass-btn span") == "Pass"
        assert page.inner_text("#scores").count("Σ") == 1
        assert page.inner_text("h2[data-i18n=scores]").lower() == "scores"
        page.reload()
        page.wait_for_selector("#hand .card")
        assert page.inner_text("#pass-btn span") == "Pass"
        page.context.close()


def test_play_kinds_as_players_say_them(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    page.goto(web.url + "/")
    said = page.evaluate("""async () => { const m = await import('/static/i18n.js');
      const cases = [['FULL_HOUSE', ['9D', '9C', '9S', '4D', '4H']], ['PAIR', ['KD', 'KS']],
        ['STRAIGHT_FLUSH', ['3H', '4H', '5H', '6H', '7H']], ['FOUR_KICKER',
        ['7D', '7C', '7H', '7S', '3D']], ['STRAIGHT', ['3H', '4D', '5H', '6H', '7H']],
        ['TRIPLE', ['TD', 'TC', 'TS']], ['FLUSH', ['3S', '8S', 'JS', 'KS', '2S']]];
      const out = {};
      for (const l of ['en', 'zh-Hant', 'zh-Hans']) { m.setLang(l);
        out[l] = cases.map(([k, c]) => m.kindText(k, c)); }
      m.setLang('en'); return out; }""")
    assert said["en"] == ["Full house, 9s over 4s", "Pair of kings", "Straight flush",
                          "Four of a kind, 7s", "Straight", "Three 10s", "Flush"]
    assert said["zh-Hant"] == ["葫蘆 9 帶 4", "一對 K", "同花順", "鐵支 7", "順子", "三條 10", "同花"]
    assert said["zh-Hans"] == ["葫芦 9 带 4", "一对 K", "同花顺", "铁支 7", "顺子", "三条 10", "同花"]
    # a loser's score, said from big2.scoring.explain's fields
    why = page.evaluate("""async () => { const m = await import('/static/panel.js');
      return m.scoreWhy({left: 10, per_card: 2, whole: 13, twos: 3, bombs: 1, place: null,
        winning_play: 'two', collects: [], method: 'classic', adjusted: ''}); }""")
    assert why == ("10 cards left · counted ×2: 10 or more of the 13 cards still in hand · "
                   "doubled for each of 3 2s held (×8) · doubled for holding a four of a kind "
                   "or straight flush · doubled: the winner went out on a 2")  # issue 41
    page.context.close()


def test_four_colours_sound_and_selection(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
    page.wait_for_selector("#hand .card")
    # ARIA: each card by its name, each seat by name and count
    first = page.get_attribute("#hand .card", "aria-label")
    assert first and " of " in first
    labels = page.eval_on_selector_all(".seat-spot .seat", "els => els.map(e => "
                                       "e.getAttribute('aria-label'))")
    assert len(labels) == 3 and all("cards" in x for x in labels)
    # four colours: diamonds and clubs recoloured, kept after a reload
    page.click("#settings summary")
    page.check("#four-color")
    page.wait_for_function("() => [...document.querySelectorAll('img[data-face$=D]')]"
                           ".every(i => i.src.startsWith('data:image/svg+xml'))")
    assert "0b5cc6" in page.evaluate("() => decodeURIComponent(document.querySelector("
                                     "'img[data-face$=D]').src)")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.evaluate("() => document.body.classList.contains('four-color')")
    # sound is off until asked for; one beep as each turn comes once it is on (after turn 1)
    turns, replaced = 0, False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and wait_turn(page) and (turns < 3 or not replaced):
        assert page.evaluate("() => window.big2Beeps || 0") == max(0, turns - 1)
        if turns == 1:
            page.click("#settings summary")
            page.check("#sound")
            page.click("#settings summary")
        replaced = replaced or replace_single(page)
        play_weakest(page)
        turns += 1
    assert turns >= 3
    # a deal may end before a turn offers two singles that share no play: deal again
    for _ in range(4):
        if replaced:
            break
        seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
        while not replaced and time.monotonic() < deadline + 60 and wait_turn(page):
            replaced = replace_single(page)
            play_weakest(page)
    assert replaced
    assert not errors, errors
    page.context.close()


def test_a_bot_plays_when_the_timer_runs_out(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1, turn_time=1)
    assert wait_turn(page)
    # the timer bar is on your seat while it is your turn (one second: read both at once)
    assert page.evaluate("() => !big2.myTurn() || !!document.querySelector("
                         "'.seat.mine .timer-bar')")
    page.wait_for_function("() => document.getElementById('message').textContent"
                           ".startsWith(\"Time's up\")", timeout=5000)
    text = page.inner_text("#message")
    g = page.evaluate("() => big2.state.game")
    mine = [cards for seat, cards in g["log"] if seat == 0]
    assert mine, g["log"]
    if text.endswith("passed for you"):
        assert "" in mine
    else:
        assert text.startswith("Time's up — a bot played ") and text.endswith(" for you")
    page.context.close()


def test_play_animation_and_reduced_motion(browser: Any, web: LiveServer) -> None:
    counts = {}
    for motion in ("no-preference", "reduce"):
        page = new_page(browser, reduced_motion=motion)
        page.add_init_script(ANIMATE_SPY)
        seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
        # your turns (a play slides in) and the bots' plays between them, until two plays
        # have slid in (or four turns: a deal can begin with your passes on bots' plays)
        for _ in range(4):
            if page.evaluate("() => window.big2Animations") >= 2 or not wait_turn(page):
                break
            play_weakest(page)
        counts[motion] = page.evaluate("() => window.big2Animations")
        page.context.close()
    assert counts["no-preference"] >= 2 and counts["reduce"] == 0, counts


def test_eight_seat_scores_scroll(browser: Any, web: LiveServer) -> None:
    tid = web.create([None] + ["greedy"] * 7, deals=3, options={"decks": 2})
    for viewport in (DESKTOP, PHONE):  # a spectator while the table waits for its person
        page = new_page(browser, viewport)
        page.goto(f"{web.url}/t/{tid}")
        page.wait_for_function("() => big2.state && big2.state.table.players === 8")
        box = page.evaluate("""() => { const s = document.getElementById('scores');
          const b = s.closest('.box').getBoundingClientRect(), r = s.getBoundingClientRect();
          return {sw: s.scrollWidth, cw: s.clientWidth, ox: getComputedStyle(s).overflowX,
                  right: r.right, boxRight: b.right, cols: s.querySelectorAll('tr')[0]
                  .children.length}; }""")
        assert box["cols"] == 9 and box["ox"] == "auto"
        assert box["sw"] > box["cw"] and box["right"] <= box["boxRight"] + 0.5, box
        page.eval_on_selector("#scores", "s => { s.scrollLeft = s.scrollWidth; }")
        last = page.evaluate("""() => { const s = document.getElementById('scores'), r =
          s.getBoundingClientRect(), c = s.querySelector('tr th:last-child')
          .getBoundingClientRect(); return c.right <= r.right + 1 && c.left >= r.left; }""")
        assert last  # the eighth player's column can be scrolled into view
        page.context.close()
