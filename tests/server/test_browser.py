"""The pages in a real browser: Playwright driving Debian's Chromium.

A person plays a whole deal from the keyboard alone against three bots; the
hint, error and info line is cleared by the next state; the tab title and
favicon say "Your turn"; at the deal's end every seat's remaining cards are
face up with the score explained; the replay steps by play and by trick with
SVG icons and a link to its position; two browsers (phones) share a table; a
reload keeps the seat. ``test_browser_more.py`` has the settings, selection,
timer and layout checks; ``test_browser_shots.py`` makes the docs' screenshots.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from big2.server.tables import Timing
from conftest import LiveServer

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STATIC = Path(__file__).resolve().parents[2] / "src" / "big2" / "server" / "static"


@pytest.fixture
def web(live_factory: Any) -> LiveServer:
    server: LiveServer = live_factory(timing=Timing(bot_delay=0.05, grace=5, deal_pause=30))
    return server


def finished_table(web: LiveServer, deals: int = 2) -> str:
    """A table of four bots that has played its whole match (a score row per deal)."""
    tid = web.create(["greedy"] * 4, deals=deals)
    deadline = time.monotonic() + 60
    while len(web.get(f"/api/tables/{tid}/records")) < deals:
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.1)
    return tid


def quick_matches(live_factory: Any) -> LiveServer:
    """A server for tables of bots that nobody follows as they play: its bots move at once
    and its deals follow each other at once (the shared one paces its bots and waits 30 s
    between deals, so that a test can look at a deal's end); for finished matches."""
    server: LiveServer = live_factory(timing=Timing(bot_delay=0.0, grace=5, deal_pause=0.3))
    return server


def page_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


ORIGIN_PAGE = "/api/options"
"""A small page of the server, opened to write the seat into its origin's localStorage
before the table is opened (the lobby would do as well, at four times Chromium's CPU)."""

NO_AUTO_PASS = "try { localStorage.setItem('big2.autoPass', 'false'); } catch (e) {}"


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP, auto_pass: bool = False,
             **kw: Any) -> Any:
    """A page in a fresh context (its own localStorage), English unless *kw* says.
    Forced passes (on by default for players) are off unless *auto_pass*: the tests
    that pass by hand, or wait for the turn timer, decide each turn themselves
    (``test_browser_fixes.py`` tests the default)."""
    kw.setdefault("locale", "en-GB")
    page = browser.new_context(viewport=viewport, **kw).new_page()
    if not auto_pass:
        page.add_init_script(NO_AUTO_PASS)
    page.set_default_timeout(15000)
    return page


def seat_at(web: LiveServer, page: Any, seats: list[str | None], name: str = "Ann",
            **kw: Any) -> str:
    """Make a table with *seats* (None: a person), take seat 0 and open it in *page*."""
    tid = web.create(seats, **kw)
    token = web.join(tid, 0, name)
    page.goto(web.url + ORIGIN_PAGE)
    page.evaluate("([t, k]) => localStorage.setItem('big2.seat.' + t, "
                  "JSON.stringify({seat: 0, token: k}))", [tid, token])
    page.goto(f"{web.url}/t/{tid}")
    page.wait_for_function("() => window.big2 && big2.state && big2.state.you === 0")
    return tid


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("() => big2.myTurn()"))


def wait_turn(page: Any) -> bool:
    """Wait for your turn or the deal's end; whether it is your turn."""
    found = page.wait_for_function("() => big2.myTurn() ? 'turn' : big2.state.table.status "
                                   "!== 'playing' && 'over'")
    return bool(found.json_value() == "turn")  # as found: a timed turn may be over by now


def message(page: Any) -> str:
    return str(page.inner_text("#message"))


def contrast(page: Any, selector: str) -> float:
    """The WCAG contrast ratio of an element's text on its own background."""
    fg, bg = page.eval_on_selector(selector, "e => [getComputedStyle(e).color, "
                                   "getComputedStyle(e).backgroundColor]")

    def lum(css: str) -> float:
        r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def keyboard_turn(page: Any, turn: int) -> str:
    """Play the weakest legal play with the keyboard alone (or pass with P):
    the arrow keys move to each card, Space or Enter selects it, Shift+Enter plays."""
    legal = page.evaluate("() => big2.state.game.legal")
    plays = [p for p in legal if p]
    if not plays or (legal[-1] == "" and turn % 4 == 3):
        page.keyboard.press("p")
        return ""
    want = plays[0].split()
    shown = page.evaluate("() => big2.shown")
    targets = sorted(shown.index(c) for c in want)
    page.keyboard.press("ArrowRight")  # into the hand: the card that has the tab stop
    for i, pos in enumerate(targets):
        at = int(page.evaluate("() => +document.activeElement.dataset.pos"))
        step = "ArrowRight" if pos > at else "ArrowLeft"
        for _ in range(abs(pos - at)):
            page.keyboard.press(step)
        page.keyboard.press(" " if i % 2 == 0 else "Enter")
        assert page.get_attribute(f'#hand [data-pos="{pos}"]', "aria-pressed") == "true"
    assert page.is_enabled("#play-btn")
    page.keyboard.press("Shift+Enter")
    return plays[0]


def test_a_whole_deal_from_the_keyboard(browser: Any, web: LiveServer) -> None:
    page = new_page(browser)
    errors = page_errors(page)
    seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=2)
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 13
    assert page.locator(".seat .mini-fan").count() == 3  # opponents: backs and counts only
    assert page.evaluate("() => big2.state.game.end") is None  # nothing revealed before the end
    turn, titles = 0, set()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and wait_turn(page):
        title = page.title()
        assert title.startswith("● Your turn")
        assert page.get_attribute("link[rel=icon]", "data-turn") == "1"
        titles.add(title)
        n = page.evaluate("() => big2.state.game.plies")
        if turn == 0:  # the hint selects a legal play, and goes at the next state
            page.keyboard.press("h")
            page.wait_for_function("() => document.getElementById('message').textContent"
                                   ".startsWith('Hint')")
            assert page.is_enabled("#play-btn") == page.evaluate("() => big2.selected.size > 0")
            page.keyboard.press("Escape")
        keyboard_turn(page, turn)
        page.wait_for_function(f"() => big2.state.game.plies > {n}", timeout=1000)
        page.wait_for_function("() => !document.getElementById('message').textContent"
                               ".startsWith('Hint')", timeout=1000)
        # read together: a bot's play can make it your turn again at any moment
        other, title, icon = page.evaluate("() => [!big2.myTurn(), document.title, document"
                                           ".querySelector('link[rel=icon]').dataset.turn]")
        if other:
            assert not title.startswith("●") and icon == "0", title
        turn += 1
    assert turn >= 3 and titles
    # the deal's end: every other seat's cards face up, each score explained
    page.wait_for_selector(".panel .result")
    g = page.evaluate("() => big2.state.game")
    counts = g["counts"]
    assert sum(counts) > 0 and g["end"] is not None
    for seat in (1, 2, 3):
        faces = page.eval_on_selector_all(f'.seat-spot .reveal[data-seat="{seat}"] .card',
                                          "els => els.map(e => e.dataset.card)")
        assert sorted(faces) == sorted(g["end"]["hands"][seat]) and len(faces) == counts[seat]
    whys = page.eval_on_selector_all(".result .why", "els => els.map(e => e.textContent)")
    assert len(whys) == 4 and any("went out first" in w for w in whys)
    assert any(re.search(r"\d+ cards?", w) for w in whys)
    assert re.fullmatch(r"Next deal in \d+s", page.inner_text(".next-in"))
    assert contrast(page, ".next-in") >= 7  # the countdown reads easily (WCAG AAA)
    assert not page.is_visible("#controls")  # nothing to play between deals
    page.keyboard.press("n")  # the only person is ready: the next deal starts
    page.wait_for_function("() => big2.state.table.deal === 2 && big2.state.game")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 13 and page.is_visible("#controls")
    assert page.evaluate("() => big2.state.game.end") is None
    assert not errors, errors


def test_replay_steps_by_play_and_trick_with_svg_icons(browser: Any, live_factory: Any) -> None:
    web = quick_matches(live_factory)
    rid = web.get(f"/api/tables/{finished_table(web, deals=1)}/records")[0]["id"]
    rec = web.get(f"/api/records/{rid}")
    page = new_page(browser, DESKTOP)  # one page, loaded again at each size
    errors = page_errors(page)
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(f"{web.url}/replay/{rid}")
        page.wait_for_selector(".replay-hand .card")
        assert page.locator(".replay-hand .card").count() == 52
        text = page.inner_text("body")
        assert "\u23ee" not in text and "\u23ed" not in text
        for b in ("first", "prev-trick", "prev", "next", "next-trick", "last", "auto"):
            assert page.locator(f"#{b} svg.icon").count() == 1, b
            assert page.get_attribute(f"#{b}", "title") or b == "auto"
        page.click("#next")
        page.click("#next")
        assert page.inner_text("#pos").startswith("2 /")
        assert page.url.endswith("#ply=2")
        page.click("#next-trick")  # to the lead of trick 2: the seat after three passes
        ply = page.evaluate("() => big2.ply")
        assert ply > 2 and "trick 2" in page.inner_text("#status")
        passes = rec["actions"][ply - 4:ply - 1]
        assert [a[1] for a in passes] == ["pass"] * 3 and rec["actions"][ply - 1][1] != "pass"
        page.keyboard.press("ArrowUp")  # back to this trick's lead, then trick 1's
        page.keyboard.press("ArrowUp")
        assert page.evaluate("() => big2.ply") == 0
        # a shared link opens at its position
        page.goto(f"{web.url}/replay/{rid}#ply={ply}")
        page.wait_for_selector(".replay-hand .card")
        assert page.evaluate("() => big2.ply") == ply
        assert page.inner_text("#pos").startswith(f"{ply} /")
        # every hand fits its seat box, and the seats the screen
        fit = page.evaluate("""() => [...document.querySelectorAll('.seat')].every(s => {
            const b = s.getBoundingClientRect();
            return [...s.querySelectorAll('.card')].every(c => { const r =
              c.getBoundingClientRect(); return r.left >= b.left - 1 && r.right <= b.right + 1
              && r.bottom <= b.bottom + 1; }) && b.left >= 0 && b.right <= innerWidth; })""")
        assert fit
        page.click("#last")
        assert "went out" in page.inner_text("#status")
    assert not errors, errors
    page.context.close()


def test_two_phones_share_a_table(browser: Any, web: LiveServer) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1, name="Friends")
    pages = []
    for name in ("Ann", "Bob"):
        page = new_page(browser, PHONE)
        page.goto(web.url + "/")
        page.wait_for_selector(f'li[data-table="{tid}"] button')
        # a phone shows the open tables first and folds the form
        assert not page.evaluate("() => document.getElementById('new-table').open")
        tables = page.locator("#tables").bounding_box()
        form = page.locator("#new-table").bounding_box()
        assert tables and form and tables["y"] < form["y"]
        assert tables["y"] < PHONE["height"] / 2
        fan = page.eval_on_selector_all("#hero-fan .card", "els => els.map(e => "
                                        "e.getBoundingClientRect().left)")
        assert min(fan) >= 0  # the card fan stays on the screen
        page.click(f'li[data-table="{tid}"] button')  # no name yet: the form opens for it
        assert page.evaluate("() => document.getElementById('new-table').open")
        page.fill("#your-name", name)
        page.click(f'li[data-table="{tid}"] button')  # "Join seat N"
        page.wait_for_url(f"**/t/{tid}")
        pages.append(page)
    for page in pages:
        page.wait_for_selector("#hand .card")
    hands = [set(p.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))
             for p in pages]
    assert len(hands[0]) == len(hands[1]) == 13 and not hands[0] & hands[1]
    seen = 0
    deadline = time.monotonic() + 60
    while seen < 4 and time.monotonic() < deadline:
        for i, page in enumerate(pages):
            if page.evaluate("() => big2.state.table.status") != "playing":
                seen = 4
                break
            if not my_turn(page):
                continue
            n = page.evaluate("() => big2.state.game.plies")
            legal = [p for p in page.evaluate("() => big2.state.game.legal") if p]
            if legal:
                for c in legal[0].split():
                    page.click(f'#hand [data-card="{c}"]', position={"x": 6, "y": 30})
                page.click("#play-btn")
            else:
                page.click("#pass-btn")
            other = pages[1 - i]
            other.wait_for_function(f"() => big2.state.game.plies > {n}")
            name = ("Ann", "Bob")[i]
            assert f"{name}:" in other.inner_text("#log")
            if legal:
                first = legal[0].split()[0]
                label = (first[0] if first[0] != "T" else "10") + {
                    "D": "♦", "C": "♣", "H": "♥", "S": "♠"}[first[1]]
                assert label in other.inner_text("#log")
            seen += 1
        time.sleep(0.05)
    assert seen >= 2
    for k, page in enumerate(pages):  # neither page ever shows the other's cards in its hand
        mine = set(page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))
        assert mine <= hands[k]
        page.context.close()


def test_waiting_then_reload_keeps_the_seat(browser: Any, web: LiveServer) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1)
    page = new_page(browser)
    page.goto(f"{web.url}/t/{tid}")
    page.wait_for_selector(".join-seat")
    page.fill("#join-name", "Cy")
    page.click('.join-seat[data-seat="1"]')
    page.wait_for_function("() => big2.state && big2.state.you === 1")
    assert "Waiting for players" in page.inner_text("#panel")
    # the waiting screen has no hand and no Play/Pass/Hint
    assert not page.is_visible("#controls") and not page.is_visible("#play-btn")
    assert not page.is_visible("#hand")
    page.click("#start-btn")  # bots take the open seat
    page.wait_for_selector("#hand .card")
    assert page.is_visible("#controls")
    before = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.evaluate("() => big2.state.you") == 1
    after = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert set(after) <= set(before) and after
    assert page.inner_text(".seat.mine .name") == "Cy"
    # another browser without the token only watches: no hand, no controls
    other = new_page(browser)
    other.goto(f"{web.url}/t/{tid}")
    other.wait_for_function("() => big2.state && big2.state.game")
    assert other.locator("#hand .card").count() == 0
    assert other.locator("#controls.hidden").count() == 1
    other.context.close()
    page.context.close()


def test_static_files_are_modules_with_short_lines() -> None:
    """The pages load ES modules only (no shared globals) and keep lines to 100 characters."""
    for path in sorted(STATIC.iterdir()):
        text = path.read_text(encoding="utf-8")
        long = [i + 1 for i, line in enumerate(text.splitlines()) if len(line) > 100]
        assert not long, (path.name, long)
        if path.suffix == ".html":
            scripts = re.findall(r"<script[^>]*>", text)
            assert scripts and all('type="module"' in s for s in scripts), (path.name, scripts)
        if path.suffix == ".js":  # state lives in modules; only the tests' window.big2 is global
            assigned = set(re.findall(r"window\.(\w+)\s*=[^=]", text))
            assert assigned <= {"big2", "big2Beeps"}, (path.name, assigned)
