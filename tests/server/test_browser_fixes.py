"""Issue 27's browser fixes in Chromium: the scores panel holds four players'
columns without a sideways scroll at common desktop sizes, the tab title does
not say the game's name twice, phone buttons are a finger's tap tall,
Chinese labels render with a CJK font (not empty boxes), and a turn where pass
is the only play passes by itself (a setting, on by default, remembered)."""

from __future__ import annotations

import time
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

DESKTOPS = [{"width": 1280, "height": 800}, {"width": 1366, "height": 768},
            {"width": 1920, "height": 1080}]


def test_four_players_scores_fit_without_a_sideways_scroll(browser: Any,
                                                           live_factory: Any) -> None:
    web = quick_matches(live_factory)
    tid = finished_table(web)
    page = new_page(browser, DESKTOPS[0])  # one page, loaded again at each size
    errors = page_errors(page)
    for viewport in DESKTOPS:
        page.set_viewport_size(viewport)
        page.goto(f"{web.url}/t/{tid}")
        page.wait_for_function("() => big2.state && big2.state.results.length === 2")
        box = page.evaluate("""() => { const s = document.getElementById('scores');
          const r = s.getBoundingClientRect(), rows = [...s.querySelectorAll('tr')];
          const last = rows.map(tr => tr.lastElementChild.getBoundingClientRect().right);
          return {sw: s.scrollWidth, cw: s.clientWidth, right: r.right,
                  lastRight: Math.max(...last),
                  cols: rows[0].children.length, rows: rows.length,
                  pageSw: document.documentElement.scrollWidth, inner: innerWidth}; }""")
        assert box["cols"] == 5 and box["rows"] == 4, box  # #, four names; 2 deals and Σ
        assert box["sw"] <= box["cw"], (viewport, box)  # nothing hidden behind a scroll
        assert box["lastRight"] <= box["right"] + 0.5, (viewport, box)  # 4th column in view
        assert box["pageSw"] <= box["inner"], (viewport, box)  # nor the page itself
        # the felt still holds the hand, and the table's name is not cut to nothing
        assert page.evaluate("() => document.getElementById('felt').clientWidth") >= 700
    assert not errors, errors
    page.context.close()


def test_the_tab_title_names_the_game_once(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    for name, want in (("Big Two", "Big Two"), ("Friday cards", "Friday cards · Big Two")):
        tid = web.create([None, "greedy", "greedy", "greedy"], deals=1, name=name)
        page.goto(f"{web.url}/t/{tid}")  # a spectator: never "Your turn"
        page.wait_for_function("() => big2.state && big2.state.table")
        page.wait_for_function("t => document.title === t", arg=want)
        assert page.title().count("Big Two") == 1
    # in Chinese: the game's name in Chinese, the default-named table not named twice
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    page.wait_for_function("() => document.title === 'Friday cards · 大老二'")
    tid = web.create([None, "greedy", "greedy", "greedy"], deals=1, name="Big Two")
    page.goto(f"{web.url}/t/{tid}")
    page.wait_for_function("() => big2.state && big2.state.table")
    page.wait_for_function("() => document.title === 'Big Two'")
    cue = page.evaluate("""async () => { const m = await import('/static/cues.js');
      return [m.tabTitle('大老二', 'Big Two'), m.tabTitle('big two', '大老二'),
              m.tabTitle('', 'Big Two'), m.tabTitle('Ann', '锄大地')]; }""")
    assert cue == ["大老二", "big two", "Big Two", "Ann · 锄大地"]
    assert not errors, errors
    page.context.close()


TAP = """() => [...document.querySelectorAll('button, .button, #settings summary')]
  .filter(e => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
  .map(e => { const r = e.getBoundingClientRect();
    return {what: e.id || e.className || e.textContent.trim().slice(0, 20), h: r.height,
            w: r.width}; })"""


def small_targets(page: Any) -> list[Any]:
    found = page.evaluate(TAP)
    assert found, "no visible buttons"
    return [b for b in found if b["h"] < 44 or b["w"] < 44]


def test_phone_tap_targets_are_44_px(browser: Any, live_factory: Any) -> None:
    web = quick_matches(live_factory)
    tid = finished_table(web, deals=1)
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    page = new_page(browser, PHONE)
    errors = page_errors(page)
    page.goto(web.url + "/")  # the lobby: create, and the open tables' buttons
    page.wait_for_selector("#create-btn", state="attached")
    page.eval_on_selector("#new-table", "d => { d.open = true; }")  # closed on phones
    page.wait_for_selector("#create-btn")
    assert not small_targets(page), small_targets(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
    assert wait_turn(page)
    assert page.is_visible("#play-btn") and page.is_visible("#pass-btn")
    assert not small_targets(page), small_targets(page)
    page.click("#settings summary")  # the menu opens below its switch, still reachable
    assert page.is_visible("#lang")
    rows = page.eval_on_selector_all("#settings .menu-row",
                                     "els => els.map(e => e.getBoundingClientRect().height)")
    assert len(rows) >= 4 and min(rows) >= 44, rows  # a row (its label) is the tap target
    page.click("#settings summary")
    page.goto(f"{web.url}/replay/{rid}")
    page.wait_for_selector(".replay-hand .card")
    assert page.locator(".replay-controls button").count() >= 8
    assert not small_targets(page), small_targets(page)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert not errors, errors
    page.context.close()


# Each distinct character of *text* drawn on a canvas in *el*'s font: a CJK font gives
# each its own shape; without one every character is the same empty box, the same
# as U+E000 (a private-use character no font here draws).
GLYPHS = """([sel, text]) => { const e = document.querySelector(sel), cs = getComputedStyle(e);
  const c = document.createElement('canvas'); c.width = 64; c.height = 64;
  const x = c.getContext('2d'); x.font = `48px ${cs.fontFamily}`; x.textBaseline = 'top';
  const draw = ch => { x.clearRect(0, 0, 64, 64); x.fillText(ch, 4, 4);
    return Array.from(x.getImageData(0, 0, 64, 64).data).join(','); };
  const chars = [...new Set(text)].filter(ch => ch.trim());
  const tofu = draw('\\uE000');
  return {shapes: new Set(chars.map(draw)).size, chars: chars.length,
          tofu: chars.filter(ch => draw(ch) === tofu).length,
          perChar: x.measureText(text).width / [...text].length / 48,
          family: cs.fontFamily}; }"""


def test_chinese_labels_render_in_a_cjk_font(browser: Any, web: LiveServer) -> None:
    page = new_page(browser, locale="zh-TW")
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.wait_for_function("() => document.getElementById('create-btn').textContent"
                           " === '開枱並坐下'")
    family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
    for face in ("Noto Sans CJK TC", "Noto Sans CJK SC", "PingFang TC", "Microsoft JhengHei",
                 "Microsoft YaHei"):
        assert face in family, family
    for sel in ("#create-btn", "h1[data-i18n=playBigTwo]"):
        text = page.inner_text(sel)
        got = page.evaluate(GLYPHS, [sel, text])
        assert got["tofu"] == 0 and got["shapes"] == got["chars"], (sel, text, got)
        assert got["perChar"] >= 0.9, (sel, text, got)  # CJK characters are a full em wide
    # the label in the page itself: as wide as its characters, not a row of narrow boxes
    width = page.evaluate("""() => { const e = document.querySelector('h1[data-i18n=playBigTwo]');
      const r = document.createRange(); r.selectNodeContents(e);
      return r.getBoundingClientRect().width / parseFloat(getComputedStyle(e).fontSize); }""")
    assert width >= 0.9 * len(page.inner_text("h1[data-i18n=playBigTwo]")), width
    assert not errors, errors
    page.context.close()


def only_pass(page: Any) -> bool:
    return bool(page.evaluate("() => big2.myTurn() && big2.state.game.legal.length === 1 "
                              "&& big2.state.game.legal[0] === ''"))


def test_a_forced_pass_passes_by_itself(browser: Any, web: LiveServer) -> None:
    page = new_page(browser, auto_pass=True)
    errors = page_errors(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=3)
    page.wait_for_selector("#hand .card")
    page.click("#settings summary")
    assert page.is_checked("#auto-pass")  # on by default
    page.uncheck("#auto-pass")  # off, and remembered across a reload
    page.reload()
    page.wait_for_selector("#hand .card")
    page.click("#settings summary")
    assert not page.is_checked("#auto-pass")
    page.click("#settings summary")
    waited = passed = cleared = False
    page.evaluate("""() => { window.saidHere = [];
      new MutationObserver(() => saidHere.push(document.getElementById('message').textContent))
        .observe(document.getElementById('message'), {childList: true, characterData: true,
                                                      subtree: true}); }""")
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not (passed and cleared):
        status = page.evaluate("() => big2.state.table.status")
        if status == "over":
            break
        if status == "between":  # the next deal, for another chance of a forced pass
            page.wait_for_selector("#next-btn:enabled")
            page.keyboard.press("n")
            page.wait_for_function("() => big2.state.table.status === 'playing'")
            continue
        if not wait_turn(page):
            continue
        n = page.evaluate("() => big2.state.game.plies")
        if not only_pass(page):
            play_weakest(page)
            continue
        if not waited:  # switched off: the turn waits for the player
            time.sleep(1.5)
            assert only_pass(page) and page.evaluate("() => big2.state.game.plies") == n
            waited = True
            page.click("#settings summary")
            page.check("#auto-pass")  # on again: this very turn passes by itself
            page.click("#settings summary")
        page.wait_for_function(f"() => big2.state.game.plies > {n}", timeout=3000)
        mine = page.evaluate(f"() => {{ const g = big2.state.game;"
                             f" return g.log[g.log.length - (g.plies - {n})]; }}")
        assert mine == [0, ""], mine  # the move after the forced turn is your seat's pass
        said = page.evaluate("() => window.saidHere")
        assert "Nothing beats it — passed for you" in said, said
        passed = True
        # your next turn (the bots play on at once, well within the note's 6 s) clears it
        page.wait_for_function("() => big2.myTurn() || big2.state.table.status !== 'playing'")
        if page.evaluate("() => big2.myTurn()") and not only_pass(page):
            assert page.inner_text("#message") != "Nothing beats it — passed for you"
            cleared = True
    assert waited and passed, "no forced pass came up in three deals"
    assert cleared, "no turn of yours followed a forced pass in three deals"
    assert page.evaluate("() => localStorage.getItem('big2.autoPass')") == "true"
    assert not errors, errors
    page.context.close()
