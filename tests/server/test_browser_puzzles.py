"""The puzzles page in Chromium (issues 41 and 52): a named puzzle drawn with the
SVG cards, seats numbered from 1 as at the table; any wrong play told why and
its refutation stepped on the board, the streak reset; the right play solving it
(kept in the browser across a reload) and its line stepped too; the verdict
brought into view and announced; the hint and the answer; the rules that decide
with a link to How to play; the band filter, which the puzzle of the day resets;
a hidden-hand puzzle showing only your hand until a try; the page in 繁體中文;
at 1280×800, 390×844 and 360×740."""

from __future__ import annotations

from typing import Any

import pytest
import test_browser as tb
from puzzle_sets import a_hidden_puzzle, a_three_player_puzzle
from test_browser import DESKTOP, PHONE, new_page, page_errors
from test_browser_phone import SMALL
from test_puzzle_api import serve_also

from big2.game import Game
from big2.puzzles import Puzzle, load, names
from conftest import LiveServer, Shots

web = tb.web


def select(page: Any, cards: str) -> None:
    """Select *cards* (names) in your hand on the puzzles page and play them (or pass)."""
    if not cards:
        page.click("#pass-btn")
        return
    for name in cards.split():
        page.click(f'.puzzle-hand.mine .card[data-card="{name}"]')
    assert page.locator(".puzzle-hand.mine .card.selected").count() == len(cards.split())
    page.click("#check-btn")


def a_puzzle_to_answer() -> Puzzle:
    """The page test's puzzle, named rather than the puzzle of the day (which turns with
    the date): an open-hand one with a play on the table to beat (its cards drawn apart
    from the hands) and a wrong play other than the natural one."""
    return next(p for p in load() if not p.hidden and not p.game().leading and p.choices >= 4)


def board(page: Any) -> dict[int, list[str]]:
    """Every seat's cards as the board draws them now (backs left out)."""
    got: dict[int, list[str]] = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.puzzle-hand[data-seat]')]"
        ".map(r => [r.dataset.seat, [...r.querySelectorAll('.card[data-card]')]"
        ".map(c => c.dataset.card)]))")
    return {int(s): cards for s, cards in got.items()}


def in_view(page: Any, selector: str) -> bool:
    """Whether *selector*'s box lies wholly inside the viewport."""
    return bool(page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && "
        "r.bottom <= innerHeight && r.height > 0; }"))


def step_through(page: Any, p: Puzzle, play: int) -> None:
    """Step the line after *play* on the board, checking each seat's cards at each step."""
    hands = [int(h) for h in p.hands_after(play)]
    steps = [(p.seat, names(play)), *p.line_after(play)]
    game = p.game()  # (on the hands the line is played on)
    if hands != [int(h) for h in game.hands]:
        game = Game.from_view(game.view(p.seat), hands)
    if page.locator("#step-first").is_enabled():  # (it may have played by itself)
        page.click("#step-first")
    assert board(page) == {s: names(h).split() if h else [] for s, h in enumerate(hands)}
    for k, (seat, cards) in enumerate(steps, 1):
        page.click("#step-next")
        for c in cards.split():
            hands[seat] &= ~(1 << _index(c))
        assert board(page) == {s: names(h).split() if h else [] for s, h in enumerate(hands)}
        on_table = page.eval_on_selector_all("#table-cards .card",
                                             "els => els.map(e => e.dataset.card)")
        game.play(sum(1 << _index(c) for c in cards.split()))
        assert on_table == ([] if game.leading else names(game.last_play).split()), k
        said = page.inner_text("#table")
        assert said.startswith(f"Step {k} of {len(steps)}: "), said
    assert page.locator("#step-next").is_disabled()
    first = p.first_out(play)
    assert page.inner_text("#table").endswith(
        "you go out first" if first == p.seat else f"Seat {first + 1} goes out first")


def _index(name: str) -> int:
    from big2.cards import CARD_NAMES

    return CARD_NAMES.index(name)


def test_the_puzzles_page(browser: Any, web: LiveServer, shots: Shots) -> None:
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
    # every hand as the position holds it, seat by seat, named from 1 as at the table
    assert board(page) == {s: names(h).split() if h else [] for s, h in enumerate(g.hands)}
    for seat, hand in enumerate(g.hands):
        head = page.inner_text(f'.puzzle-seat[data-seat="{seat}"] b')
        who = "You" if seat == puzzle.seat else f"Seat {seat + 1}"
        n = int(hand).bit_count()
        assert head == f"{who} · {n} card{'s' * (n != 1)} left", head
    table = page.eval_on_selector_all("#table-cards .card", "els => els.map(e => e.dataset.card)")
    assert table == names(int(g.last_play)).split() and table
    assert f"played by Seat {g.last_player + 1}." in page.inner_text("#table") \
        or g.last_player == puzzle.seat
    # the rules that decide, and How to play for the preset
    rules = page.inner_text("#rules")
    assert "suits ♦ < ♣ < ♥ < ♠" in rules or "suits ♣ < ♦ < ♥ < ♠" in rules, rules
    assert "straights " in rules and f"{g.num_players} players" in rules
    href = page.get_attribute("#how-link", "href")
    assert href == f"/how?preset={puzzle.preset}&players={g.num_players}", href
    # every wrong play, not only the natural one, is refuted on the board; the streak resets
    wrong = [m for m in g.legal_masks() if m != puzzle.answer]
    for m in (puzzle.natural, next(m for m in wrong if m != puzzle.natural)):
        select(page, names(m))
        page.wait_for_selector("#stepper:not([hidden])")
        said = page.inner_text("#verdict")
        assert said.startswith("Not this one, it loses: ") and "goes out first." in said, said
        assert in_view(page, "#verdict")
        assert page.get_attribute("#verdict", "aria-live") == "polite"
        step_through(page, puzzle, m)
        assert page.locator(".puzzle-hand.mine .card[role=button]").count() == 0
        page.click("#retry-btn")
        assert board(page)[puzzle.seat] == names(int(g.hands[puzzle.seat])).split()
    assert page.evaluate("() => big2.progress.streak") == 0
    # the hint names the kind; the answer solves it, counts, and its line steps too
    page.click("#hint-btn")
    assert page.inner_text("#verdict").startswith("Hint: the answer is a")
    select(page, names(puzzle.answer))
    page.wait_for_selector("#stepper:not([hidden])")
    said = page.inner_text("#verdict")
    assert said.startswith(("Right! you play", "Right! you pass")), said
    assert said.endswith("you go out first.") and in_view(page, "#verdict")
    assert page.locator("#retry-btn").is_hidden()
    step_through(page, puzzle, puzzle.answer)
    total = len(load())
    assert page.inner_text("#progress") == f"Solved 1 of {total} · streak 1 · best 1"
    shots.take(page, "puzzles-1280.png")
    page.reload()
    page.wait_for_selector(".puzzle-hand.mine .card")
    assert page.inner_text("#progress") == f"Solved 1 of {total} · streak 1 · best 1"
    # next: another puzzle, of the band chosen; its answer shown steps its line
    page.select_option("#band", "hard")
    page.wait_for_function("id => big2.puzzle.id !== id && big2.puzzle.band === 'hard'",
                           arg=puzzle.id)
    page.click("#answer-btn")
    page.wait_for_selector("#stepper:not([hidden])")
    assert page.inner_text("#verdict").startswith("The answer: ")
    assert page.inner_text("#progress").endswith("streak 0 · best 1")
    # the puzzle of the day: the band filter no longer names another band
    page.click("#daily-btn")
    page.wait_for_function("d => big2.puzzle.id === d", arg=listed["daily"])
    band = page.input_value("#band")
    assert band in ("all", page.evaluate("() => big2.puzzle.band")), band
    # in Chinese
    page.click("#answer-btn")
    page.wait_for_selector("#stepper:not([hidden])")
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    page.wait_for_function("() => document.getElementById('verdict').textContent"
                           ".startsWith('答案：')")
    assert page.inner_text("h1") == "殘局題"
    assert "規則：" in page.inner_text("#rules")
    assert not errors, errors


def test_a_hidden_hand_puzzle_on_the_page(browser: Any, web: LiveServer, shots: Shots,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    p = a_hidden_puzzle()
    serve_also(monkeypatch, p)
    g = p.game()
    page = new_page(browser, reduced_motion="reduce")
    errors = page_errors(page)
    page.goto(web.url + f"/puzzles#{p.id}")
    page.wait_for_function("id => window.big2 && big2.puzzle && big2.puzzle.id === id", arg=p.id)
    page.wait_for_selector(".puzzle-hand.mine .card")
    # only your hand: the others as backs, with their counts and the cards they played
    assert board(page) == {s: names(int(h)).split() if s == p.seat else []
                           for s, h in enumerate(g.hands)}
    for s, h in enumerate(g.hands):
        if s != p.seat:
            row = f'.puzzle-hand[data-seat="{s}"] .card.back'
            assert page.locator(row).count() == int(h).bit_count()
    assert page.inner_text("#about").startswith("Only your hand is shown")
    shots.take(page, "puzzles-hidden-1280.png", full_page=True)
    # a wrong try: the line on the hands the server plays it on (a deal that fits)
    wrong = next(m for m in g.legal_masks() if m != p.answer)
    select(page, names(wrong))
    page.wait_for_selector("#stepper:not([hidden])")
    step_through(page, p, wrong)
    shots.take(page, "puzzles-hidden-tried-1280.png", full_page=True)
    for tag, viewport in (("390", PHONE), ("360", SMALL)):  # the phones: only your hand
        page.set_viewport_size(viewport)
        page.click("#retry-btn")
        assert page.locator(".puzzle-seat .puzzle-hand:not(.mine) .card[data-card]").count() == 0
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), tag
        shots.take(page, f"puzzles-hidden-{tag}.png", full_page=True)
        select(page, names(wrong))
        page.wait_for_selector("#stepper:not([hidden])")
        assert in_view(page, "#verdict"), tag
    assert not errors, errors


def test_the_puzzles_page_on_phones(browser: Any, web: LiveServer, shots: Shots,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    three = a_three_player_puzzle()
    serve_also(monkeypatch, three)
    puzzle = a_puzzle_to_answer()
    for tag, viewport in (("390", PHONE), ("360", SMALL), ("1280", DESKTOP)):
        page = new_page(browser, viewport, locale="zh-HK" if tag == "360" else "en-GB")
        errors = page_errors(page)
        page.goto(web.url + f"/puzzles#{puzzle.id}")
        page.wait_for_selector(".puzzle-hand.mine .card")
        assert page.evaluate("() => big2.puzzle.id") == puzzle.id
        wide = page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert wide, tag  # nothing off the side
        sizes = page.eval_on_selector_all(".puzzle-hand.mine .card", "els => els.map(e => "
                                          "e.getBoundingClientRect().width)")
        assert min(sizes) >= 40, (tag, sizes)
        shots.take(page, f"puzzles-{tag}.png", full_page=True)
        # after "Play it" the verdict is on screen (and the line plays by itself)
        select(page, names(puzzle.natural))
        page.wait_for_selector("#stepper:not([hidden])")
        assert in_view(page, "#verdict"), tag
        page.wait_for_function("() => big2.line && big2.line.step >= 1")
        shots.take(page, f"puzzles-tried-{tag}.png")
        # a three-player puzzle says so, and names its preset in the page's language
        page.goto(web.url + f"/puzzles#{three.id}")
        page.reload()
        page.wait_for_function("id => window.big2 && big2.puzzle && big2.puzzle.id === id",
                               arg=three.id)
        assert page.locator(".puzzle-seat").count() == 3
        rules = page.inner_text("#rules")
        assert ("3 人" if tag == "360" else "3 players") in rules, rules
        assert ("台灣" if tag == "360" else "Taiwan") in rules, rules
        if tag == "1280":  # How to play opens the rules for three, not taiwan's four
            page.click("#how-link")
            page.wait_for_function("() => window.big2 && big2.facts")
            facts = page.evaluate("() => big2.facts")
            assert facts == web.get("/api/guide?preset=taiwan&players=3"), facts
            assert facts["players"] == 3 and facts["scoring"]["players"] == 3, facts
        assert not errors, errors
        page.context.close()
