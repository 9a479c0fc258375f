"""Issue 27's sounds in Chromium: short sounds for a play, a pass, your turn and
the deal's end, off by default, on with the setting (kept in the browser)."""

from __future__ import annotations

from typing import Any

import test_browser as tb
from test_browser import new_page, page_errors

from conftest import LiveServer

web = tb.web

SOUND_ON = "try { localStorage.setItem('big2.sound', 'true'); } catch (e) {}"


def test_plays_passes_and_the_deals_end_sound_when_switched_on(
        browser: Any, web: LiveServer) -> None:
    on, off = new_page(browser), new_page(browser)
    on.add_init_script(SOUND_ON)
    errors = [page_errors(on), page_errors(off)]
    tid = web.create(["greedy"] * 4, deals=2)  # watched: plays, passes, the deal's end
    for page in (on, off):
        page.goto(f"{web.url}/t/{tid}")
    for page in (on, off):
        page.wait_for_function("() => window.big2 && big2.state && big2.state.game")
    on.wait_for_function("""() => ['play', 'pass', 'end'].every(k => big2.sounds.includes(k))""",
                         timeout=60000)
    off.wait_for_function("() => big2.state.game.winner !== null", timeout=60000)
    assert off.evaluate("() => big2.sounds") == []  # off by default: silent
    sounds = on.evaluate("() => big2.sounds")
    assert set(sounds) <= {"play", "pass", "end"}, sounds  # a spectator has no turn
    # the setting is the one in the menu
    on.click("#settings summary")
    assert on.is_checked("#sound")
    assert on.inner_text('label.menu-row:has(#sound)') == "Sounds: your turn, plays, deal end"
    assert not any(errors), errors
    for page in (on, off):
        page.context.close()
