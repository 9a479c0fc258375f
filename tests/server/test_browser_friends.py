"""Issue 27's friends' table in Chromium: quick reactions (shown to the other
player at the sender's seat, none at a table of bots) and the rematch button at
the match's end (same seats, a new match)."""

from __future__ import annotations

import json
import time
from typing import Any

import test_browser as tb
from test_browser import ORIGIN_PAGE, new_page, page_errors, seat_at
from test_browser_fixes import GLYPHS
from test_rematch import finish

from conftest import LiveServer

web = tb.web


def open_seat(web: LiveServer, page: Any, tid: str, seat: int, token: str) -> None:
    """Open table *tid* in *page* as the holder of *seat*'s *token*."""
    page.goto(web.url + ORIGIN_PAGE)
    page.evaluate("([t, s, k]) => localStorage.setItem('big2.seat.' + t, "
                  "JSON.stringify({seat: s, token: k}))", [tid, seat, token])
    page.goto(f"{web.url}/t/{tid}")
    page.wait_for_function("s => window.big2 && big2.state && big2.state.you === s", arg=seat)


def test_quick_reactions_show_at_the_senders_seat(browser: Any, web: LiveServer) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1)
    ann, bob = new_page(browser), new_page(browser)
    errors = [page_errors(ann), page_errors(bob)]
    frames: list[str] = []  # what Ann's page is sent
    ann.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    open_seat(web, ann, tid, 0, web.join(tid, 0, "Ann"))
    open_seat(web, bob, tid, 1, web.join(tid, 1, "Bob"))
    ann.wait_for_selector("#reactions button.react")
    faces = ann.eval_on_selector_all("#reactions .face", "els => els.map(e => "
                                     "e.dataset.face || e.textContent)")
    assert faces == ["👍", "😮", "😂", "GG"]
    # each drawn: 👍 as an icon, the others in a font that has them (not empty boxes)
    assert ann.locator('#reactions [data-reaction="thumbs"] svg path').count() == 1
    for sel in ('[data-reaction="wow"] .face', '[data-reaction="laugh"] .face'):
        got = ann.evaluate(GLYPHS, ["#reactions " + sel, ann.inner_text("#reactions " + sel)])
        assert got["tofu"] == 0, (sel, got)
    sizes = ann.eval_on_selector_all("#reactions .react", "els => els.map(e => "
                                     "Math.min(e.offsetWidth, e.offsetHeight))")
    assert min(sizes) >= 44, sizes
    ann.click('#reactions [data-reaction="thumbs"]')
    # Bob sees it at Ann's seat; Ann at her own
    bob.wait_for_selector('.seat[data-seat="0"] .bubble[data-reaction="thumbs"]')
    assert bob.locator('.seat[data-seat="0"] .bubble svg').count() == 1  # the 👍 icon
    ann.wait_for_selector('.seat[data-seat="0"] .bubble')
    # it stays through the redraws of new states, then goes
    bob.wait_for_selector('.seat[data-seat="0"] .bubble', state="detached", timeout=8000)
    # four in a row: the server refuses one (three in ten seconds at most), and says why
    for _ in range(4):
        ann.click('#reactions [data-reaction="gg"]')
    bob.wait_for_selector('.bubble[data-reaction="gg"]')
    deadline = time.monotonic() + 10
    while not any("too many reactions: wait" in f for f in frames):
        assert time.monotonic() < deadline, frames[-5:]
        ann.wait_for_timeout(50)
    got = [json.loads(f) for f in frames if '"reaction"' in f]
    assert {r["reaction"] for r in got if r["type"] == "reaction"} <= {"thumbs", "gg"}
    # a table of bots: no reaction buttons
    solo = new_page(browser)
    seat_at(web, solo, [None, "greedy", "greedy", "greedy"], deals=1)
    solo.wait_for_selector("#hand .card")
    assert not solo.is_visible("#reactions")
    assert not any(errors), errors
    for p in (ann, bob, solo):
        p.context.close()


def test_rematch_button_seats_the_players_again(browser: Any, web: LiveServer) -> None:
    tid = web.create([None, None, "greedy", "greedy"], deals=1, name="Friday")
    tokens = [web.join(tid, s, n) for s, n in ((0, "Ann"), (1, "Bob"))]
    clients = [web.client(tid, t) for t in tokens]
    finish(web, tid, clients)  # the match played out over WebSockets
    for c in clients:
        c.close()
    ann, bob, watcher = new_page(browser), new_page(browser), new_page(browser)
    errors = [page_errors(ann), page_errors(bob), page_errors(watcher)]
    open_seat(web, ann, tid, 0, tokens[0])
    ann.wait_for_selector("#rematch-btn")
    assert ann.inner_text("#panel h2") == "Match over"
    ann.click("#rematch-btn")
    ann.wait_for_function("t => location.pathname.startsWith('/t/') && "
                          "!location.pathname.endsWith(t)", arg=tid)
    new = ann.url.rsplit("/", 1)[1]
    ann.wait_for_function("() => big2.state && big2.state.you === 0 && "
                          "big2.state.table.status === 'waiting'")
    assert ann.evaluate("() => big2.state.table.name") == "Friday"
    open_seat(web, bob, tid, 1, tokens[1])
    bob.click("#rematch-btn")
    bob.wait_for_function("t => location.pathname === '/t/' + t", arg=new)
    bob.wait_for_selector("#hand .card")  # every seat taken: the new match has begun
    ann.wait_for_selector("#hand .card")
    assert bob.evaluate("() => big2.state.you") == 1
    # a spectator of the finished table has no rematch button
    watcher.goto(f"{web.url}/t/{tid}")
    watcher.wait_for_selector("#panel h2")
    assert watcher.locator("#rematch-btn").count() == 0
    assert not any(errors), errors
    for p in (ann, bob, watcher):
        p.context.close()
