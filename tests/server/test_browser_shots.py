"""The docs' screenshots, taken while two people (a desktop and a phone) play
a deal against two bots (the phone in 繁體中文): the lobby, a trick in progress, your turn with cards
selected, the deal's end and the replay, at 1280×800 and 390×844.

They are written to ``docs/img/browser-*.png`` (and the README's
``docs/img/browser.png``) when ``BIG2_UPDATE_SCREENSHOT=1``, and to a
temporary folder otherwise, so a test run leaves the working tree as it was. The
shots are the docs' (the pages' own checks are in the other browser files), so they are
taken in the nightly set (``make test-nightly``), or on their own with the variable set.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from test_browser import DESKTOP, PHONE, new_page, page_errors

from big2.server.tables import Timing
from conftest import LiveServer

_DOCS = Path(__file__).resolve().parents[2] / "docs" / "img"
UPDATE = os.environ.get("BIG2_UPDATE_SCREENSHOT") == "1"
KINDS = ("lobby", "trick", "turn", "end", "replay")


def shoot(page: Any, path: Path) -> None:
    """A screenshot once every card image has loaded."""
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    page.screenshot(path=str(path))


@pytest.mark.nightly
def test_screenshots(browser: Any, live_factory: Any, tmp_path: Path) -> None:
    out = _DOCS if UPDATE else tmp_path
    web: LiveServer = live_factory(timing=Timing(bot_delay=0.15, grace=30, deal_pause=60))
    web.create([None, "hard", "medium", None], deals=1, name="Practice")
    tid = web.create([None, None, "greedy", "greedy"], deals=4, turn_time=30, name="Friday night")
    pages: dict[str, Any] = {}
    # Ann on a desktop in English, Bob on a phone in Hong Kong's 繁體中文
    for size, viewport, name, locale in (("desktop", DESKTOP, "Ann", "en-GB"),
                                         ("phone", PHONE, "Bob", "zh-HK")):
        page = new_page(browser, viewport, locale=locale,
                        reduced_motion="reduce")  # no card caught in flight
        page_errors(page)
        page.goto(web.url + "/")
        page.wait_for_selector(f'li[data-table="{tid}"] button')
        if size == "phone":  # the lobby as a friend sees it: the open tables first
            shoot(page, out / f"browser-lobby-{size}.png")
        page.evaluate("() => document.getElementById('new-table').open = true")
        page.fill("#your-name", name)
        if size == "desktop":
            shoot(page, out / f"browser-lobby-{size}.png")
        page.click(f'li[data-table="{tid}"] button')
        page.wait_for_url(f"**/t/{tid}")
        pages[size] = page
    for page in pages.values():
        page.wait_for_selector("#hand .card")
    shots: set[str] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if pages["desktop"].evaluate("() => big2.state.table.status") != "playing":
            break
        for size, page in pages.items():
            # read together: the state changes under the test as the bots play
            g, mine = page.evaluate("() => [big2.state.game, big2.myTurn()]")
            if not mine:
                bot_to_move = page.evaluate("() => { const g = big2.state.game; return "
                                            "g.to_move !== null && "
                                            "big2.state.table.seats[g.to_move].bot; }")
                if f"trick-{size}" not in shots and len(g["trick"]) >= 2 and bot_to_move \
                        and g["last_play"] and g["plies"] > 4:
                    shoot(page, out / f"browser-trick-{size}.png")
                    shots.add(f"trick-{size}")
                continue
            plays = [p for p in g["legal"] if p]
            n = g["plies"]
            if plays:
                for c in plays[0].split():
                    page.click(f'#hand [data-card="{c}"]', position={"x": 6, "y": 30})
                if f"turn-{size}" not in shots and not g["leading"] and g["plies"] > 4:
                    page.mouse.move(0, 0)
                    shoot(page, out / f"browser-turn-{size}.png")
                    shots.add(f"turn-{size}")
                page.click("#play-btn")
            else:
                page.click("#pass-btn")
            page.wait_for_function(f"() => big2.state.game.plies > {n}")
        time.sleep(0.02)
    for size, page in pages.items():
        page.wait_for_selector(".panel .result")
        page.wait_for_timeout(400)
        shoot(page, out / f"browser-end-{size}.png")
        shots.add(f"end-{size}")
        page.wait_for_selector("#records a[href^='/replay/']")
        page.click("#records a[href^='/replay/']")
        page.wait_for_selector(".replay-hand .card")
        for _ in range(3):
            page.click("#next-trick")
        page.click("#next")
        page.wait_for_timeout(400)
        shoot(page, out / f"browser-replay-{size}.png")
        shots.add(f"replay-{size}")
        page.context.close()
    want = {f"{k}-{s}" for k in KINDS for s in ("desktop", "phone")} - {"lobby-desktop",
                                                                         "lobby-phone"}
    assert want <= shots, want - shots
    for k in KINDS:
        for s in ("desktop", "phone"):
            assert (out / f"browser-{k}-{s}.png").stat().st_size > 20_000, (k, s)
    if UPDATE:  # the README's picture: your turn on the desktop
        shutil.copyfile(out / "browser-turn-desktop.png", out / "browser.png")
