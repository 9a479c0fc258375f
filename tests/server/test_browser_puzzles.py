"""The puzzles page in Chromium (issue 41): the puzzle of the day drawn with the
SVG cards, a wrong play told why and the streak reset, the right play solving it
(kept in the browser across a reload), the hint and the answer, the band
filter, and the page in 繁體中文; at 1280×800, 390×844 and 360×740."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import test_browser as tb
from conftest import LiveServer
from test_browser import DESKTOP, PHONE, new_page, page_errors
from test_browser_phone import SMALL

from big2.puzzles import Puzzle, load

web = tb.web


def select(page: Any, cards: str) -> None:
    """Select *cards* (names) in your hand on the puzzles page and play them."""
    hand = page.evaluate("() => big2.puzzle.hands[big2.puzzle.seat]")
    for name in cards.split():
        page.click(f'.puzzle-hand.mine .card[data-card="{name}"]')
    assert page.locator(".puzzle-hand.mine .card.selected").count() == len(cards.split())
    assert hand  # the seat had cards to pick from
    page.click("#check-btn")


def a_puzzle_to_answer() -> Puzzle:
    """The page test's puzzle, named rather than the puzzle of the day (which turns with
    the date): the first of the set with a play on the table to beat, so the table's
    cards are drawn apart from the hands."""
    return next(p for p in load() if not p.game().leading)


def test_the_puzzles_page(browser: Any, web: LiveServer, shots: Path) -> None:
    page = new_page(browser, reduced_motion="reduce")
    errors = page_errors(page)
    # with no address the page opens the puzzle of the day, the one the server lists
    page.goto(web.url + "/puzzles")
    page.wait_for_selector(".puzzle-hand.mine .card")
    listed = page.evaluate("() => fetch('/api/puzzles').then(r => r.json())")
    assert page.evaluate("() => big2.puzzle.id") == listed["daily"]
    puzzle = a_puzzle_to_answer()
    page.goto(web.url + f"/puzzles#{puzzle.id}")
    page.reload()
    page.wait_for_function("id => window.big2 && big2.puzzle && big2.puzzle.id === id",
                           arg=puzzle.id)
    g = puzzle.game()
    assert page.locator(".puzzle-seat").count() == g.num_players
    # every hand as the position holds it, seat by seat, and the play to beat on the table
    for seat, hand in enumerate(g.hands):
        shown = page.eval_on_selector_all(f'.puzzle-seat .puzzle-hand[data-seat="{seat}"] .card',
                                          "els => els.map(e => e.dataset.card)")
        assert shown == h_names(hand).split(), (seat, shown)
    table = page.eval_on_selector_all("#table-cards .card", "els => els.map(e => e.dataset.card)")
    assert table == h_names(int(g.last_play)).split() and table
    # the natural play loses, and says why; the streak resets
    natural = h_names(puzzle.natural)
    if natural:
        select(page, natural)
    else:
        page.click("#pass-btn")
    said = page.inner_text("#verdict")
    assert said.startswith("Not this one, it loses: ") and "goes out first." in said, said
    # the hint names the kind; the answer solves it and counts
    page.click("#hint-btn")
    assert page.inner_text("#verdict").startswith("Hint: the answer is a")
    answer = h_names(puzzle.answer)
    if answer:
        select(page, answer)
    else:
        page.click("#pass-btn")
    assert page.inner_text("#verdict").startswith("Right! you play") or \
        page.inner_text("#verdict").startswith("Right! you pass")
    assert page.inner_text("#verdict").endswith("you go out first.")
    total = len(load())
    assert page.inner_text("#progress") == f"Solved 1 of {total} · streak 1 · best 1"
    page.screenshot(path=str(shots / "puzzles-1280.png"))
    page.reload()
    page.wait_for_selector(".puzzle-hand.mine .card")
    assert page.inner_text("#progress") == f"Solved 1 of {total} · streak 1 · best 1"
    # next: another puzzle, of the band chosen
    page.select_option("#band", "hard")
    page.wait_for_function("id => big2.puzzle.id !== id && big2.puzzle.band === 'hard'",
                           arg=puzzle.id)
    page.click("#answer-btn")
    assert page.inner_text("#verdict").startswith("The answer: ")
    assert page.inner_text("#progress").endswith("streak 0 · best 1")
    # in Chinese
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    page.wait_for_function("() => document.getElementById('verdict').textContent"
                           ".startsWith('答案：')")
    assert page.inner_text("h1") == "殘局題"
    assert not errors, errors


def h_names(mask: int) -> str:
    from big2.puzzles import names

    return names(mask)


def test_the_puzzles_page_on_phones(browser: Any, web: LiveServer, shots: Path) -> None:
    for tag, viewport in (("390", PHONE), ("360", SMALL), ("1280", DESKTOP)):
        page = new_page(browser, viewport, locale="zh-HK" if tag == "360" else "en-GB")
        errors = page_errors(page)
        page.goto(web.url + "/puzzles#1")
        page.wait_for_selector(".puzzle-hand.mine .card")
        assert page.evaluate("() => big2.puzzle.id") == 1
        wide = page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert wide, tag  # nothing off the side
        sizes = page.eval_on_selector_all(".puzzle-hand.mine .card", "els => els.map(e => "
                                          "e.getBoundingClientRect().width)")
        assert min(sizes) >= 40, (tag, sizes)
        page.screenshot(path=str(shots / f"puzzles-{tag}.png"), full_page=True)
        assert not errors, errors
        page.context.close()
