"""Issue 27's How to play page in Chromium: the rules of a preset or of the table
you sit at, drawn with the SVG cards (ranks, suits, each play, five-card hands in
their order, the straights allowed), in the chosen language, on a phone too."""

from __future__ import annotations

from typing import Any

import test_browser as tb
from test_browser import PHONE, new_page, page_errors, seat_at

from conftest import LiveServer

web = tb.web

LOADED = """() => [...document.querySelectorAll('.how-cards img')]
  .every(i => i.complete && i.naturalWidth > 0)"""


def drawn(page: Any, sel: str) -> list[list[str]]:
    """The cards of each kind under *sel*, by name."""
    return list(page.eval_on_selector_all(f"{sel} .how-kind", """els => els.map(k =>
      [...k.querySelectorAll('.card')].map(c => c.dataset.card))"""))


def test_how_to_play_draws_the_rules_with_cards(browser: Any, web: LiveServer) -> None:
    facts = web.get("/api/guide?preset=classic")
    page = new_page(browser)
    errors = page_errors(page)
    page.goto(web.url + "/")
    page.click("#how-link")
    page.wait_for_selector("#five .card")
    assert page.url.endswith("/how")
    assert page.inner_text("h1") == "How to play"
    assert "3 of diamonds leads" in page.inner_text("#goal")
    kinds = page.eval_on_selector_all("#five .how-kind", "els => els.map(e => e.dataset.kind)")
    assert kinds == [k["kind"] for k in facts["five"]]
    assert kinds == ["STRAIGHT", "FLUSH", "FULL_HOUSE", "FOUR_KICKER", "STRAIGHT_FLUSH"]
    assert drawn(page, "#five") == [k["cards"] for k in facts["five"]]
    assert drawn(page, "#plays") == [k["cards"] for k in facts["plays"]]
    assert page.eval_on_selector_all("#ranks .card", "els => els.map(e => e.dataset.card[0])"
                                     ) == list("3456789TJQKA2")
    assert page.eval_on_selector_all("#suits .card", "els => els.map(e => e.dataset.card)"
                                     ) == ["AD", "AC", "AH", "AS"]
    seqs = page.eval_on_selector_all("#straights li", "els => els.map(e => e.dataset.seq)")
    assert seqs == facts["straights"] and "A2345" in seqs
    assert page.evaluate(LOADED)  # every card face drawn, none blank
    # the language switch redraws it all
    page.click("#settings summary")
    page.select_option("#lang", "zh-Hant")
    page.click("#settings summary")
    page.wait_for_function("() => document.querySelector('h1').textContent === '玩法'")
    assert page.inner_text('#five .how-kind[data-kind="FULL_HOUSE"] h3') == "葫蘆"
    assert "How" not in page.inner_text("main")
    # a bad preset: a clear message, not an empty page
    page.goto(web.url + "/how?preset=%3Cb%3E")
    page.wait_for_selector("#goal.error-text")
    assert page.inner_text("#goal").startswith("unknown preset")
    assert not errors, errors
    page.context.close()


def test_a_tables_rules_and_a_phone(browser: Any, web: LiveServer) -> None:
    page = new_page(browser, PHONE)
    errors = page_errors(page)
    tid = seat_at(web, page, [None, "greedy", "greedy", "greedy"], deals=1,
                  preset="vietnam-straights", options={"two_pairs": True})
    page.wait_for_selector("#how-link")
    href = page.get_attribute("#how-link", "href")
    assert href == f"/how?table={tid}"
    page.goto(web.url + href)
    page.wait_for_selector("#five .card")
    assert page.inner_text("#rules-name") == web.get(f"/api/guide?table={tid}")["name"]
    kinds = page.eval_on_selector_all("#plays .how-kind", "els => els.map(e => e.dataset.kind)")
    assert "TWO_PAIRS" in kinds  # the table's house rule
    seqs = page.eval_on_selector_all("#straights li", "els => els.map(e => e.dataset.seq)")
    assert "A2345" not in seqs and seqs[-1] == "TJQKA"
    assert page.evaluate(LOADED)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert not errors, errors
    page.context.close()
