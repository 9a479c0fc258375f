"""A move the database could not store, in Chromium (issue 26, item 5): the
page shows the table as it stands, says "Not saved, try again" and offers a
retry button, which sends the same move again once the database is back."""

from __future__ import annotations

from typing import Any

from test_browser import new_page, page_errors, seat_at, wait_turn
from test_storage import outage_control

from big2.server.store import Store
from big2.server.tables import Timing


def test_a_refused_move_is_offered_again(browser: Any, live_factory: Any, db_url: str) -> None:
    with outage_control(db_url) as (url, cut, restore):
        live = live_factory(db=url, store=Store(url, timeout=0.5),
                            timing=Timing(bot_delay=0.05, grace=5, deal_pause=30))
        page = new_page(browser)
        errors = page_errors(page)
        seat_at(live, page, [None, "greedy", "greedy", "greedy"])
        assert wait_turn(page)
        plies = page.evaluate("() => big2.state.game.plies")
        hand = page.evaluate("() => big2.state.game.hand")
        play = ([p for p in page.evaluate("() => big2.state.game.legal") if p] or [""])[0]
        page.evaluate("() => big2.renderHand()")
        for card in play.split():
            page.click(f'#hand [data-card="{card}"]', position={"x": 6, "y": 30})
        cut()
        page.click("#play-btn" if play else "#pass-btn")
        page.wait_for_selector("#retry-btn")
        assert page.inner_text("#message").startswith("Not saved, try again")
        assert page.evaluate("() => big2.state.game.plies") == plies  # the table as it stands
        assert page.evaluate("() => big2.state.game.hand") == hand
        restore()
        page.click("#retry-btn")
        page.wait_for_function(f"() => big2.state.game.plies > {plies}")
        log = page.evaluate("() => big2.state.game.log")
        assert [0, play] in log
        assert page.query_selector("#retry-btn") is None
        assert not errors, errors
