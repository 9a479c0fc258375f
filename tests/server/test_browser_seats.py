"""The table page with five to eight seats, two decks and jokers, in Chromium.

The lobby refuses six players with one deck (and says why); a person at a
six-seat two-deck table with wild jokers plays turns by clicking, selecting
both copies of a card or a joker when the hand has them; the seats sit in
turn order around the table without overlapping, and a 24-card hand fits a
desktop and a phone screen. Screenshots (with ``BIG2_SHOTS=DIR``): ``6seats.png``
(desktop), ``6seats-phone.png``, and a 24-card hand drawn in the page,
``24cards.png`` and ``24cards-phone.png``.
"""

from __future__ import annotations

import itertools
import math
import secrets
import time
from collections import Counter
from typing import Any

from test_browser import NO_AUTO_PASS, page_errors

from big2.server.tables import Timing
from conftest import LiveServer, Shots

SHOT, PHONE_SHOT = "6seats.png", "6seats-phone.png"
HAND_SHOT, PHONE_HAND_SHOT = "24cards.png", "24cards-phone.png"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DEAL_SEED = 153
"""Six seats, two decks, wild jokers, dealer 0: seat 0 holds both 3♦ (and leads),
both 7♦ and the black joker."""


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.eval_on_selector_all(selector, "els => els.map(e => { const r = "
                                          "e.getBoundingClientRect(); return {x: r.x, y: r.y, "
                                          "w: r.width, h: r.height}; })"))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["w"] - 1 and b["x"] < a["x"] + a["w"] - 1
            and a["y"] < b["y"] + b["h"] - 1 and b["y"] < a["y"] + a["h"] - 1)


def check_seats(page: Any, n: int) -> None:
    """The other seats do not overlap each other, the trick or the hand, and go
    counter-clockwise from the right in turn order (seat + 1 first)."""
    seats = page.evaluate("""() => [...document.querySelectorAll('.seat-spot .seat')].map(e => {
        const r = e.getBoundingClientRect();
        return {seat: +e.dataset.seat, x: r.x, y: r.y, w: r.width, h: r.height}; })""")
    assert len(seats) == n - 1
    me = page.evaluate("() => big2.state.you")
    others = [boxes(page, "#center")[0], boxes(page, "#hand")[0], *boxes(page, "#trick .card")]
    for i, a in enumerate(seats):
        for b in seats[i + 1:] + others:
            assert not overlap(a, b), (a, b)
    felt = boxes(page, "#felt")[0]
    cx, cy = felt["x"] + felt["w"] / 2, felt["y"] + felt["h"] / 2
    by_turn = sorted(seats, key=lambda s: (s["seat"] - me) % n)
    angles = [math.atan2(cy - (s["y"] + s["h"] / 2), s["x"] + s["w"] / 2 - cx) for s in by_turn]
    angles = [a if a >= -math.pi / 2 else a + 2 * math.pi for a in angles]  # right side: about 0
    assert angles == sorted(angles) and angles[0] < math.pi / 2 < angles[-1], angles


def check_hand_fits(page: Any, n: int, shots: Shots | None = None, shot: str = "") -> None:
    """A hand of *n* cards (drawn in the page) stays inside the screen, each
    card's corner showing."""
    width = page.viewport_size["width"]
    names = page.evaluate(f"""() => {{ const all = [];
        for (const r of "3456789TJQKA2") for (const s of "DCHS") all.push(r + s);
        all.push("RJ", "BJ"); return all.slice(0, {n // 2}).flatMap(c => [c, c]).concat(
        all.slice(40, 40 + {n % 2})); }}""")
    page.evaluate("names => big2.setShown(names)", names)
    cards = boxes(page, "#hand .card")
    assert len(cards) == n
    assert all(c["x"] >= 0 and c["x"] + c["w"] <= width for c in cards), cards
    rows: dict[float, list[dict[str, float]]] = {}
    for c in cards:
        rows.setdefault(round(c["y"]), []).append(c)
    for row in rows.values():
        xs = sorted(c["x"] for c in row)
        assert all(b - a >= row[0]["w"] * 0.24 for a, b in itertools.pairwise(xs))
    if shots is not None:
        shots.take(page, shot)
    page.evaluate("() => { big2.reshow(); big2.renderHand(); }")  # back to the real hand


def cards_key(names: list[str]) -> str:
    """A play's names in card order, as the page's cardsKey writes them."""
    order = [r + s for r in "3456789TJQKA2" for s in "DCHS"] + ["RJ", "BJ"]
    return " ".join(sorted(names, key=order.index))


def pick(legal: list[str]) -> list[str]:
    """A play to click: one that names a card twice or holds a joker if the hand
    allows, else the weakest play; [] to pass."""
    plays = [p.split() for p in legal if p]
    twice = [p for p in plays if max(Counter(p).values()) > 1]
    jokers = [p for p in plays if {"RJ", "BJ"} & set(p)]
    for choice in (twice, jokers, plays):
        if choice:
            return choice[0]
    return []


def click_cards(page: Any, names: list[str]) -> None:
    """Select *names* by clicking cards in the hand (by position: a name twice
    clicks both cards of that name)."""
    shown = page.evaluate("() => big2.shown")
    used: set[int] = set()
    for name in names:
        pos = next(i for i, c in enumerate(shown) if c == name and i not in used)
        used.add(pos)
        page.click(f'#hand [data-pos="{pos}"]', position={"x": 6, "y": 40})
        assert page.get_attribute(f'#hand [data-pos="{pos}"]', "aria-pressed") == "true"


def test_six_seats_two_decks_jokers_in_the_browser(browser: Any, live_factory: Any,
                                                   monkeypatch: Any, shots: Shots) -> None:
    real = secrets.randbits
    monkeypatch.setattr(secrets, "randbits", lambda k: DEAL_SEED if k == 64 else real(k))
    web: LiveServer = live_factory(timing=Timing(bot_delay=0.05, grace=30, deal_pause=30))
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.add_init_script(NO_AUTO_PASS)  # it passes by hand (#pass-btn)
    page.set_default_timeout(15000)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.fill("#your-name", "Ann")
    page.select_option("#players", "6")
    assert page.input_value("#opt-decks") == "2"  # filled in for 5 to 8 players
    page.click("#create details summary")  # the house rules
    page.fill("#opt-decks", "1")
    page.click("#create-btn")
    page.wait_for_function("() => document.getElementById('create-error').textContent")
    assert "6 players need decks=2" in page.inner_text("#create-error")
    page.fill("#opt-decks", "2")
    page.select_option("#opt-jokers", '"wild"')
    for s in range(1, 6):
        page.select_option(f"#seat-{s}", "greedy")
    page.fill("#deals", "1")
    page.select_option("#turn-time", "60")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 18
    hand = Counter(page.evaluate("() => big2.state.game.hand"))
    assert hand["3D"] == hand["7D"] == 2 and hand["BJ"] == 1  # the deal of DEAL_SEED
    assert page.locator(".seat-spot .seat .mini-fan").count() == 5
    assert "Joker" in page.inner_text("#rules") or "jokers" in page.inner_text("#rules")
    check_seats(page, 6)

    turns, special, shot = 0, 0, False
    deadline = time.monotonic() + 30
    while (turns < 4 or not special) and turns < 12 and time.monotonic() < deadline:
        page.wait_for_function("() => big2.myTurn() || big2.state.table.status !== 'playing'")
        if page.evaluate("() => big2.state.table.status") != "playing":
            break
        if turns == 0:  # a hint (names) selects cards of those names
            page.click("#hint-btn")
            page.wait_for_function("() => document.getElementById('message').textContent"
                                   ".startsWith('Hint')")
            hinted = page.evaluate("() => [big2.selectedNames(), big2.state.game.legal.map("
                                   "k => big2.cardsKey(big2.splitCards(k)))]")
            assert cards_key(hinted[0]) in hinted[1]
            page.keyboard.press("Escape")
        play = pick(page.evaluate("() => big2.state.game.legal"))
        n = page.evaluate("() => big2.state.game.plies")
        if play:
            click_cards(page, play)
            assert page.is_enabled("#play-btn")
            special += max(Counter(play).values()) > 1 or bool({"RJ", "BJ"} & set(play))
            if not shot and turns >= 1:
                shots.take(page, SHOT)  # cards selected, a trick on the table
                shot = True
            page.click("#play-btn")
        else:
            page.click("#pass-btn")
        page.wait_for_function(f"() => big2.state.game.plies > {n}")
        turns += 1
    assert turns >= 3 and special >= 1
    if not shot:
        shots.take(page, SHOT)
    log = page.inner_text("#log")
    assert "Ann:" in log
    # the table waits for Ann now, so no state redraws the hand under the check
    page.wait_for_function("() => big2.myTurn() || big2.state.table.status !== 'playing'")
    check_hand_fits(page, 24, shots, HAND_SHOT)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(250)  # the hand is laid out again on resize
    check_seats(page, 6)
    check_hand_fits(page, 24, shots, PHONE_HAND_SHOT)
    shots.take(page, PHONE_SHOT, full_page=True)
    assert not errors, errors
    ctx.close()
