"""Issue 41's layout fixes in Chromium, at 1280×800, 390×844 and 360×740: the
lobby's folded "New table" shows its marker, a 13-card hand is tappable (each
card shows a strip a finger can hit), the deal's end leaves the top seat in
view on a phone, the score table's names are whole, the end's mini cards show
their corners, the results' header reads, and a reaction bubble keeps clear of
your own timer. ``BIG2_SHOTS=DIR`` saves screenshots there for a person to look at
(none are taken otherwise)."""

from __future__ import annotations

import re
from typing import Any

import test_browser as tb
from test_browser import DESKTOP, PHONE, new_page, page_errors, seat_at
from test_browser_friends import open_seat

from conftest import LiveServer, Shots

web = tb.web

SMALL = {"width": 360, "height": 740}
SIZES = {"1280": DESKTOP, "390": PHONE, "360": SMALL}


# each card of the hand: its left edge, the left edge of the next card in its row
# (or its own right edge), and whether a tap in the middle of that strip reaches it
STRIPS = """() => [...document.querySelectorAll('#hand .hand-row')].flatMap(row => {
  const cards = [...row.querySelectorAll('.card')];
  return cards.map((c, i) => {
    const r = c.getBoundingClientRect();
    const end = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().left : r.right;
    const x = (r.left + end) / 2, y = r.top + r.height * 0.6;
    const hit = document.elementFromPoint(x, y);
    return {width: end - r.left, hit: !!hit && hit.closest('.card') === c};
  });
})"""


def test_the_lobby_marks_the_folded_new_table(browser: Any, web: LiveServer, shots: Shots) -> None:
    for tag in ("390", "360"):
        page = new_page(browser, SIZES[tag])
        errors = page_errors(page)
        page.goto(web.url + "/")
        page.wait_for_selector("#preset option", state="attached")
        assert page.evaluate("() => document.getElementById('new-table').open") is False
        marker = page.evaluate("""() => { const s = document.querySelector('#new-table > summary');
          const m = getComputedStyle(s, '::before');
          return [m.content, parseFloat(m.width), m.transform]; }""")
        assert marker[0] == '"▸"' and marker[1] > 8 and marker[2] == "none", marker
        shots.take(page, f"lobby-{tag}.png", full_page=True)
        page.click("#new-table > summary")
        assert page.evaluate("() => document.getElementById('new-table').open") is True
        turned = page.evaluate("() => getComputedStyle(document.querySelector("
                               "'#new-table > summary'), '::before').transform")
        assert turned != "none"  # the marker turns down when open
        assert not errors, errors
        page.context.close()


def test_a_13_card_hand_is_tappable_on_phones(browser: Any, web: LiveServer, shots: Shots) -> None:
    page = new_page(browser, SIZES["1280"], reduced_motion="reduce")  # one page: a table a size
    errors = page_errors(page)
    for tag, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1)
        page.wait_for_function("() => big2.myTurn()")  # the first turn: 13 cards in hand
        page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")
        strips = page.evaluate(STRIPS)
        assert len(strips) == 13
        assert all(s["width"] >= 40 for s in strips), (tag, [s["width"] for s in strips])
        assert all(s["hit"] for s in strips), (tag, strips)
        # a tap at the left of a card (in its strip) selects that card
        legal = [p for p in page.evaluate("() => big2.state.game.legal") if p]
        if legal:
            want = legal[0].split()[0]
            pos = page.evaluate("() => big2.shown").index(want)
            box = page.locator(f'#hand [data-pos="{pos}"]').bounding_box()
            page.mouse.click(box["x"] + 15, box["y"] + box["height"] * 0.6)
            assert page.evaluate("() => big2.selectedNames()") == [want], tag
        # the top seat is whole and in the felt
        top = page.evaluate("""() => { const s = document.querySelector('.seat-spot.pos-top .seat');
          const f = document.getElementById('felt');
          const r = s.getBoundingClientRect(), fr = f.getBoundingClientRect();
          return [r.top - fr.top, fr.right - r.right, r.left - fr.left, r.height]; }""")
        assert min(top[:3]) >= 0 and top[3] > 30, (tag, top)
        # on your turn Play, Pass, Hint, Clear and Sort are whole on the screen, no scroll
        for lang in ("en", "zh-Hant", "en"):  # (Chinese labels differ in width)
            if lang != page.evaluate("() => document.documentElement.lang"):
                page.click("#settings summary")
                page.select_option("#lang", lang)
                page.click("#settings summary")
            page.evaluate("() => scrollTo(0, 0)")
            for button in BUTTONS:
                assert on_screen(page, button), (tag, lang, button)
        shots.take(page, f"turn-{tag}.png")
    # a screen shorter than the table (or taller fonts, a longer note, a play on the table):
    # the buttons stay at the screen's foot, and scrolled down the whole hand can be tapped
    page.set_viewport_size({"width": 360, "height": 560})
    page.evaluate("() => scrollTo(0, 0)")
    for button in BUTTONS:
        assert on_screen(page, button), ("360×560", button)
    page.evaluate("() => document.getElementById('me').scrollIntoView({block: 'end'})")
    assert all(s["hit"] for s in page.evaluate(STRIPS))
    shots.take(page, "turn-360x560.png")
    assert not errors, errors
    page.context.close()


BUTTONS = ("play-btn", "pass-btn", "hint-btn", "clear-btn", "sort-btn")


def on_screen(page: Any, element: str) -> bool:
    """Whether the element with this id is whole inside the viewport as scrolled now."""
    return bool(page.evaluate("""id => { const r = document.getElementById(id).getBoundingClientRect();
      return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth
             && r.bottom <= innerHeight; }""", element))


def on_panel(page: Any, selector: str) -> float:
    """The contrast ratio of an element's text on the panel it sits on."""
    fg = page.eval_on_selector(selector, "e => getComputedStyle(e).color")
    bg = page.eval_on_selector("#panel", "e => getComputedStyle(e).backgroundColor")

    def lum(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def move(web: LiveServer, page: Any, tid: str) -> None:
    """Send the page's seat's weakest play (or a pass) over a connection of its own."""
    token = page.evaluate("t => JSON.parse(localStorage.getItem('big2.seat.' + t)).token", tid)
    legal = page.evaluate("() => big2.state.game.legal")
    play = legal[0] if legal[0] else legal[-1]
    plies = page.evaluate("() => big2.state.game.plies")
    me = web.client(tid, token)
    me.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})
    page.wait_for_function("n => big2.state.game.plies > n || "
                           "big2.state.table.status !== 'playing'", arg=plies)
    me.close()


def finish_deal(web: LiveServer, page: Any, tid: str) -> None:
    """Play the page's seat to the deal's end."""
    while page.wait_for_function("() => big2.myTurn() ? 'turn' : big2.state.table.status "
                                 "!== 'playing' && 'over'", timeout=30000).json_value() != "over":
        move(web, page, tid)


def test_the_deal_end_reads_on_every_size(browser: Any, web: LiveServer, shots: Shots) -> None:
    """One deal played to its end, its results then read at each size (the page is
    laid out again at each, as when a phone turns)."""
    page = new_page(browser, SIZES["360"], reduced_motion="reduce")
    errors = page_errors(page)
    tid = seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1,
                  name="Annabelle's", turn_time=0)
    finish_deal(web, page, tid)
    page.wait_for_selector("#panel .result")
    for tag, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(null)))")
        if tag != "1280":  # a phone: the results leave the top seat in view, not under them
            seen = page.evaluate("""() => { const s = document.querySelector('.pos-top .seat');
              s.scrollIntoView({block: 'center'}); const r = s.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !!hit && !!hit.closest('.pos-top'); }""")
            assert seen, tag
        # each mini card shows its corner: 20 px or more of it before the next
        shown = page.evaluate("""() => [...document.querySelectorAll('#panel .reveal')]
          .flatMap(r => {
          const c = [...r.querySelectorAll('.card')].map(e => e.getBoundingClientRect());
          return c.slice(1).map((b, i) => b.top === c[i].top ? b.left - c[i].left : 99); })""")
        assert all(w >= 20 for w in shown), (tag, shown)
        # the header reads: dark text on the panel's light background
        for cell in (".r-why", ".r-num", ".r-name"):
            ratio = on_panel(page, f"#panel .result-row.head {cell}")
            assert ratio >= 7, (tag, cell, ratio)
        # the score table's names are whole (the seats' share of the side is enough)
        cut = page.evaluate("""() => [...document.querySelectorAll('table.scores th')]
          .filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent)""")
        assert cut == [], (tag, cut)
        shots.take(page, f"end-{tag}.png")
        shots.take(page, f"end-full-{tag}.png", full_page=True)
    assert not errors, errors
    page.context.close()


def test_next_deal_is_on_screen_at_the_deal_end(browser: Any, web: LiveServer,
                                                shots: Shots) -> None:
    """At a deal's end on a phone, Next deal is on the screen under who won, not below
    the results."""
    for tag in ("390", "360"):
        page = new_page(browser, SIZES[tag], reduced_motion="reduce")
        errors = page_errors(page)
        tid = seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=2, turn_time=0)
        finish_deal(web, page, tid)
        page.wait_for_selector("#next-btn")
        page.evaluate("() => scrollTo(0, 0)")
        box = page.evaluate("""() => { const r = document.getElementById('next-btn')
          .getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; }""")
        assert box[0] >= 0 and box[1] <= box[2], (tag, box)
        shots.take(page, f"next-deal-{tag}.png")
        assert not errors, errors
        page.context.close()


def test_a_reaction_bubble_keeps_clear_of_your_own_timer(browser: Any, web: LiveServer, shots: Shots) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1, turn_time=60)
    ann, bob = new_page(browser, PHONE), new_page(browser)
    errors = [page_errors(ann), page_errors(bob)]
    open_seat(web, ann, tid, 0, web.join(tid, 0, "Annabelle"))
    open_seat(web, bob, tid, 1, web.join(tid, 1, "Bob"))
    ann.wait_for_function("() => big2.state.table.status === 'playing'")
    while not ann.evaluate("() => big2.myTurn()"):  # Bob plays until Ann's turn
        if bob.evaluate("() => big2.myTurn()"):
            move(web, bob, tid)
        ann.wait_for_timeout(100)
    ann.wait_for_function("() => document.querySelector('#pos-0 .timer-text') && "
                          "document.querySelector('#pos-0 .timer-text').textContent !== ''")
    ann.click('#reactions [data-reaction="thumbs"]')
    ann.wait_for_selector("#pos-0 .bubble")
    boxes = ann.evaluate("""() => ['#pos-0 .bubble', '#pos-0 .timer-text', '#pos-0 .name']
      .map(s => { const r = document.querySelector(s).getBoundingClientRect();
                  return [r.left, r.top, r.right, r.bottom]; })""")
    bubble, timer, _name = boxes

    def apart(a: list[float], b: list[float]) -> bool:
        return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]

    assert apart(bubble, timer), boxes
    shots.take(ann, "bubble-390.png")
    assert not any(errors), errors
