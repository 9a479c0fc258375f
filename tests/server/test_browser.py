"""The pages in a real browser: Playwright driving Debian's Chromium.

A person plays a whole deal against three bots by clicking cards; two
browser contexts share one table and see each other's plays; a reload keeps
the seat. The first test saves the README screenshot ``docs/img/browser.png``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from playwright import sync_api

from big2.server.tables import Timing

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The README picture is this test's own screenshot: it is written to docs/img
# when BIG2_UPDATE_SCREENSHOT=1, and to a temporary file otherwise, so a test
# run leaves the working tree as it was.
_README_SHOT = Path(__file__).resolve().parents[2] / "docs" / "img" / "browser.png"
SCREENSHOT = (_README_SHOT if os.environ.get("BIG2_UPDATE_SCREENSHOT") == "1"
              else Path(tempfile.gettempdir()) / f"big2-browser-{os.getpid()}.png")
DESKTOP = {"width": 1280, "height": 820}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is needed for the browser tests (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def web(live_factory: Any) -> LiveServer:
    server: LiveServer = live_factory(timing=Timing(bot_delay=0.05, grace=5, deal_pause=30))
    return server


def page_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("() => myTurn()"))


def click_play(page: Any, cards: list[str], *, keyboard: bool = False,
               shot: Path | None = None) -> None:
    """Select *cards* by clicking them in the hand, then play (button or Enter);
    with *shot*, save a screenshot with the cards selected first."""
    for c in cards:
        # hand cards overlap: click the visible left strip of the card
        page.click(f'#hand [data-card="{c}"]', position={"x": 6, "y": 40})
        assert page.get_attribute(f'#hand [data-card="{c}"]', "aria-pressed") == "true"
    assert page.is_enabled("#play-btn")
    if shot is not None:
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot))
    if keyboard:
        page.keyboard.press("Enter")
    else:
        page.click("#play-btn")


def take_turn(page: Any, turn: int, shot: Path | None = None) -> str:
    """Play the weakest legal play by clicking (or pass); return what was played."""
    legal = page.evaluate("() => state.game.legal")
    assert not page.is_enabled("#play-btn")  # nothing selected: nothing to play
    plays = [p for p in legal if p]
    if plays and (legal[-1] != "" or turn % 3 != 2):
        click_play(page, plays[0].split(), keyboard=turn % 2 == 1, shot=shot)
        return plays[0]
    page.click("#pass-btn")
    return ""


def test_person_plays_a_whole_deal_against_three_bots(browser: Any, web: LiveServer) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.fill("#your-name", "Ann")
    for s in (1, 2, 3):
        page.select_option(f"#seat-{s}", "greedy")
    page.fill("#deals", "1")
    page.select_option("#turn-time", "0")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 13
    assert page.locator(".seat .mini-fan").count() == 3  # opponents: backs and counts only
    turn, shot = 0, False
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page.wait_for_function("() => myTurn() || (state && state.table.status !== 'playing')")
        if not my_turn(page):
            break
        if turn == 0:
            page.click("#hint-btn")  # the hint selects a legal play
            page.wait_for_function("() => document.getElementById('message').textContent"
                                   ".startsWith('Hint')")
            # a hint is a legal play (or a pass, then nothing is selected)
            assert page.is_enabled("#play-btn") == page.evaluate("() => selected.size > 0")
            page.keyboard.press("Escape")
        n = page.evaluate("() => state.game.plies")
        want_shot = turn >= 2 and not shot and page.evaluate("() => !state.game.leading")
        if take_turn(page, turn, SCREENSHOT if want_shot else None) and want_shot:
            shot = True  # a follow with cards selected: the README picture
        page.wait_for_function(f"() => state.game.plies > {n}")
        turn += 1
    page.wait_for_selector(".panel table.result")
    assert page.locator("#panel h2").inner_text() in ("Match over",) or "wins" in page.inner_text("#panel")
    assert turn >= 3 and shot
    assert SCREENSHOT.stat().st_size > 20_000  # a real picture of the table, not a blank page
    page.wait_for_selector("#records a[href^='/replay/']")
    page.click("#records a[href^='/replay/']")
    page.wait_for_selector(".replay-hand .card")
    total = int(page.get_attribute("#ply", "max") or 0)
    assert total > 0 and page.locator(".replay-hand .card").count() == 52
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#pos").startswith("2 /")
    page.click("#last")
    assert "went out" in page.inner_text("#status")
    assert not errors, errors
    ctx.close()


def test_two_browsers_share_a_table(browser: Any, web: LiveServer) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1, name="Friends")
    pages = []
    for name in ("Ann", "Bob"):
        ctx = browser.new_context(viewport={"width": 390, "height": 844})  # phone-sized
        page = ctx.new_page()
        page.goto(web.url + "/")
        page.fill("#your-name", name)
        page.wait_for_selector(f'li[data-table="{tid}"] button')
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
            if page.evaluate("() => state.table.status") != "playing":
                seen = 4
                break
            if not my_turn(page):
                continue
            n = page.evaluate("() => state.game.plies")
            played = take_turn(page, 0)
            other = pages[1 - i]
            other.wait_for_function(f"() => state.game.plies > {n}")
            log = other.inner_text("#log")
            name = ("Ann", "Bob")[i]
            assert f"{name}:" in log
            if played:
                first = played.split()[0]
                label = (first[0] if first[0] != "T" else "10") + {"D": "♦", "C": "♣", "H": "♥", "S": "♠"}[first[1]]
                assert label in other.inner_text("#log")
            seen += 1
        time.sleep(0.05)
    assert seen >= 2
    for page in pages:  # neither page ever shows the other's cards in its hand
        mine = set(page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))
        assert mine <= hands[pages.index(page)]
        page.context.close()


def test_reload_keeps_the_seat(browser: Any, web: LiveServer) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1)
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{web.url}/t/{tid}")
    page.wait_for_selector(".join-seat")
    page.fill("#join-name", "Cy")
    page.click('.join-seat[data-seat="1"]')
    page.wait_for_function("() => state && state.you === 1")
    assert "Waiting for players" in page.inner_text("#panel")
    page.click("#start-btn")  # bots take the open seat
    page.wait_for_selector("#hand .card")
    before = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.evaluate("() => state.you") == 1
    after = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")
    assert set(after) <= set(before) and after
    assert page.inner_text(".seat.mine .name") == "Cy"
    # another browser without the token only watches: no hand, no controls
    other = browser.new_context(viewport=DESKTOP).new_page()
    other.goto(f"{web.url}/t/{tid}")
    other.wait_for_function("() => state && state.game")
    assert other.locator("#hand .card").count() == 0
    assert other.locator("#controls.hidden").count() == 1
    other.context.close()
    ctx.close()
