"""The How to play page's facts (:mod:`big2.server.guide`) for the presets and
house rules, and ``GET /api/guide`` for a preset, a live table and a finished one,
with clear refusals."""

from __future__ import annotations

import itertools
import time

import pytest

from big2.cards import parse_cards
from big2.rules import PRESETS, Rules
from big2.server.guide import EXAMPLES, guide
from big2.variant import Kind, variant
from conftest import LiveServer


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_example_is_its_kind_and_the_five_card_order_holds(preset: str) -> None:
    rules = Rules.preset(preset)
    g, v = guide(rules), variant(rules)
    shown = g["plays"] + g["five"]
    assert {"SINGLE", "PAIR", "STRAIGHT", "FLUSH", "FULL_HOUSE"} <= {k["kind"] for k in shown}
    for k in shown:
        combo = v.engine.classify(parse_cards(" ".join(k["cards"])))
        assert combo is not None and combo.kind.name == k["kind"], (preset, k)
    combos = [v.engine.classify(parse_cards(" ".join(k["cards"]))) for k in g["five"]]
    if rules.five_card_compare == "kind":  # each five-card kind beats the ones before it
        for lower, higher in itertools.pairwise(combos):
            assert v.compare.beats(higher, lower) and not v.compare.beats(lower, higher)
    assert g["straights"] == [seq for seq, _ in v.straight_sequences]
    assert g["suits"] == rules.suit_order and g["five_compare"] == rules.five_card_compare
    assert sorted(g["suits"]) == sorted("DCHS") and len(g["ranks"]) == 13


def test_house_rules_change_the_guide() -> None:
    plain = guide(Rules())
    assert "TRIPLE" in [k["kind"] for k in plain["plays"]]
    assert "TWO_PAIRS" not in [k["kind"] for k in plain["plays"]]
    more = guide(Rules(triples=False, two_pairs=True, suit_order="CDHS"))
    assert [k["kind"] for k in more["plays"]] == ["SINGLE", "PAIR", "TWO_PAIRS"]
    assert more["suits"] == "CDHS" and more["lowest"] == "3C"
    assert "A2345" not in guide(Rules.preset("vietnam-straights"))["straights"]
    assert Kind.FIVE_OF_A_KIND not in EXAMPLES  # two decks: no one-deck example


def test_the_guide_api(live: LiveServer) -> None:
    assert live.get("/api/guide")["name"] == Rules().name
    assert live.get("/api/guide?preset=pagat")["straights"][0] == "A2345"
    tid = live.create([None, "greedy", "greedy", "greedy"], preset="pagat",
                      options={"two_pairs": True})
    g = live.get(f"/api/guide?table={tid}")
    assert "TWO_PAIRS" in [k["kind"] for k in g["plays"]] and g["straights"][0] == "A2345"
    over = live.create(["greedy"] * 4, deals=1, preset="taiwan")  # a finished table's rules
    deadline = time.monotonic() + 60
    while live.state.find(over) is not None:  # over and retired: read from what is stored
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    assert live.get(f"/api/tables/{over}")["table"]["status"] == "over"
    assert live.get(f"/api/guide?table={over}")["suits"] == "CDHS"
    three = live.get("/api/guide?preset=taiwan&players=3")  # the puzzles' taiwan:3
    assert three["players"] == 3 and live.get("/api/guide?preset=taiwan")["players"] == 4
    for bad, why in (("abc", "a whole number"), ("%2B3", "a whole number"), ("03", "a whole"),
                     ("3.0", "a whole number"), ("99", "players")):
        status, body = live.request("GET", f"/api/guide?preset=taiwan&players={bad}")
        assert status == 400 and body["detail"].startswith("players: ") and why in body["detail"], (
            bad, status, body)
    status, body = live.request("GET", "/api/guide?preset=%3Cb%3Enope")
    assert status == 400 and "<b>" not in body["detail"], body
    assert body["detail"].startswith("unknown preset; choose from: classic")
    for bad in ("nope", "x" * 300, "%00"):
        status, body = live.request("GET", f"/api/guide?table={bad}")
        assert status == 404 and body == {"detail": "no such table"}, (bad, status, body)
    status, body = live.request("GET", "/how")
    assert status == 200 and "how.js" in body
