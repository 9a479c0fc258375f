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

from big2.puzzles import daily, load

web = tb.web


def select(page: Any, cards: str) -> None:
    """Select *cards* (names) in your hand on the puzzles page and play them."""
    hand = page.evaluate("() => big2.puzzle.hands[big2.puzzle.seat]")
    for name in cards.split():
        page.click(f'.puzzle-hand.mine .card[data-card="{name}"]')
    assert page.locator(".puzzle-hand.mine .card.selected").count() == len(cards.split())
    assert hand  # the seat had cards to pick from
    page.click("#check-btn")


def test_the_puzzles_page(browser: Any, web: LiveServer, shots: Path) -> None:
    today = daily()
    page = new_page(browser, reduced_motion="reduce")
    errors = page_errors(page)
    page.goto(web.url + "/puzzles")
    page.wait_for_selector(".puzzle-hand.mine .card")
    assert page.evaluate("() => big2.puzzle.id") == today.id  # the puzzle of the day
    assert page.locator(".puzzle-seat").count() == 4
    cards = page.eval_on_selector_all(".puzzle-hand .card", "els => els.map(e => e.dataset.card)")
    assert sorted(cards) == sorted(c for h in today.game().hands for c in
                                   " ".join(h_names(h) for h in [h]).split())
    # the natural play loses, and says why; the streak resets
    natural = h_names(today.natural)
    if natural:
        select(page, natural)
    else:
        page.click("#pass-btn")
    said = page.inner_text("#verdict")
    assert said.startswith("Not this one, it loses: ") and "goes out first." in said, said
    # the hint names the kind; the answer solves it and counts
    page.click("#hint-btn")
    assert page.inner_text("#verdict").startswith("Hint: the answer is a")
    answer = h_names(today.answer)
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
                           arg=today.id)
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
