"""The duplicate replay in the server and the browser (issue 52, item 8): a finished
deal's record names each seat's bot; ``POST /api/records/{id}/duplicate`` deals the
same cards again with the expert in a seat, checked here by replaying its deal with
fresh bots of the table's kind; the replay page shows both scores and steps the board
to each decision where the expert plays otherwise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_browser import finished_table, new_page, page_errors

from big2.bots import make_bot
from big2.cards import CARD_NAMES
from big2.records import from_json
from big2.server.pool import BotPool
from big2.server.tables import Timing
from conftest import LiveServer, Shots


@pytest.fixture
def web(live_factory: Any) -> LiveServer:
    server: LiveServer = live_factory(
        timing=Timing(bot_delay=0.0, grace=5, deal_pause=30),
        pool=BotPool(workers=0, review_playouts=40, review_seconds=60, duplicate_playouts=40))
    return server


def test_a_duplicate_deals_the_same_cards_with_the_expert(web: LiveServer) -> None:
    tid = finished_table(web, deals=1)
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    record = from_json(json.dumps(web.get(f"/api/records/{rid}")))[0]
    assert record.tags["Bots"] == "greedy,greedy,greedy,greedy"
    got = web.post(f"/api/records/{rid}/duplicate", {"seat": 1})
    assert got["seat"] == 1 and got["original"] == record.scores[1]
    assert got["bot"].startswith("expert: ") and got["others"] == ["greedy@0", "", "greedy@2",
                                                                    "greedy@3"]
    # the expert's deal: the same hands, every other seat's play the greedy bot's choice
    g = record.to_game(ply=0)
    bots = {s: make_bot("greedy", seed=s) for s in (0, 2, 3)}
    for seat, cards in got["actions"]:
        mask = sum(1 << CARD_NAMES.index(c) for c in cards.split())
        if seat != 1:
            assert bots[seat].choose(g.view(seat)) == mask
        g.play(mask)
    assert g.is_over() and g.scores()[1] == got["replayed"]
    plies = [d["ply"] for d in got["differences"]]
    assert all(record.actions[p - 1].seat == 1 for p in plies) and len(plies) <= got["decisions"]
    assert web.post(f"/api/records/{rid}/duplicate", {"seat": 1}) == got  # kept
    status, body = web.request("POST", f"/api/records/{rid}/duplicate", {"seat": 9})[:2]
    assert status in (400, 422), (status, body)


def test_the_replay_page_shows_the_duplicate(browser: Any, web: LiveServer, shots: Shots) -> None:
    tid = finished_table(web, deals=1)
    rid = web.get(f"/api/tables/{tid}/records")[0]["id"]
    page = new_page(browser, {"width": 1280, "height": 1000}, reduced_motion="reduce")
    errors = page_errors(page)
    page.goto(f"{web.url}/replay/{rid}")
    page.wait_for_selector(".replay-hand .card")
    for seat in (0, 1, 2, 3):
        page.select_option("#review-seat", str(seat))
        page.click("#duplicate-btn")
        page.wait_for_function("() => document.getElementById('duplicate-status').textContent"
                               ".startsWith('Same cards')", timeout=120000)
        if page.locator("#duplicate-list li").count():
            break
    got = web.post(f"/api/records/{rid}/duplicate", {"seat": seat})
    name = f"Greedy bot {seat + 1}"
    assert page.inner_text("#duplicate-status") == (
        f"Same cards: {name} {got['original']:+d} · expert {got['replayed']:+d} · expert "
        f"chooses otherwise at {len(got['differences'])} of {got['decisions']} decisions"
        f" · played by {got['bot']}")
    plies = page.eval_on_selector_all("#duplicate-list li", "els => els.map(e => +e.dataset.ply)")
    assert plies == [d["ply"] for d in got["differences"]] and plies
    page.click(f'#duplicate-list li[data-ply="{plies[-1]}"]')
    page.wait_for_function("p => big2.ply === p", arg=plies[-1])
    page.click("#duplicate-deal summary")
    assert page.locator("#duplicate-deal li").count() == len(got["actions"])
    shots.take(page.locator("#review"), "duplicate-1280.png")
    assert not errors, errors
