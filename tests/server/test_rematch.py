"""Rematches over real HTTP: a player of a finished match gets the same seat at a
new table with the same settings, the other player joins that same table, and
nobody else (a spectator, a wrong token, a match still on) gets one."""

from __future__ import annotations

import time
from typing import Any

from conftest import LiveServer


def finish(live: LiveServer, tid: str, clients: list[Any]) -> None:
    """Pass or play the weakest legal play for each person until the match is over."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        for c in clients:
            c.drain(0.02)
        st = clients[0].state
        if st["table"]["status"] == "over":
            return
        if st["table"]["status"] == "between":
            for c in clients:
                if not c.state["table"]["seats"][c.state["you"]]["ready"]:
                    c.send({"type": "next"})
            continue
        for c in clients:
            g = c.state["game"]
            if g and g["to_move"] == c.state["you"] and g["legal"]:
                play = g["legal"][-1] if "" not in g["legal"] else ""
                c.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})


def test_a_rematch_keeps_the_seats_and_settings(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "random"], deals=1, turn_time=45, name="Friday")
    tokens = [live.join(tid, s, n) for s, n in ((0, "Ann"), (1, "Bob"))]
    clients = [live.client(tid, t) for t in tokens]
    status, body = live.request("POST", f"/api/tables/{tid}/rematch", {"token": tokens[0]})
    assert status == 400 and body["detail"].startswith("the match is not over yet"), body
    finish(live, tid, clients)
    # a stranger's token, a spectator's nothing, a bad body: refused, nothing made
    status, body = live.request("POST", f"/api/tables/{tid}/rematch", {"token": "x" * 30})
    assert status == 403 and body["detail"] == "only a player of this table can ask for its " \
        "rematch", body
    for bad in ({}, {"token": ""}, {"token": 5}, {"token": "a", "seat": 1}, {"token": "a" * 201}):
        status, body = live.request("POST", f"/api/tables/{tid}/rematch", bad)
        assert status == 422, (bad, status, body)
    status, body = live.request("POST", "/api/tables/nope/rematch", {"token": tokens[0]})
    assert status == 400 and body["detail"] == "no such finished table", body
    before = len(live.get("/api/tables"))
    # Bob asks first: a new table, Bob in seat 1 under his name, seat 0 open for Ann
    bob = live.post(f"/api/tables/{tid}/rematch", {"token": tokens[1]})
    assert bob["seat"] == 1 and bob["table"] != tid and bob["token"] not in tokens
    new = bob["table"]
    state = live.get(f"/api/tables/{new}")
    assert state["table"]["status"] == "waiting" and state["table"]["open"] == [0]
    seats = state["table"]["seats"]
    assert seats[1]["name"] == "Bob" and seats[2]["bot"] and seats[3]["bot"]
    assert [s["name"] for s in seats[2:]] == ["Greedy bot 3", "Random bot 4"]
    assert state["table"]["turn_time"] == 45 and state["table"]["name"] == "Friday"
    assert state["table"]["deals"] == 1
    # Ann asks: the same new table, her seat; it starts
    ann = live.post(f"/api/tables/{tid}/rematch", {"token": tokens[0]})
    assert ann["table"] == new and ann["seat"] == 0
    assert len(live.get("/api/tables")) == before + 1  # one new table, not two
    c = live.client(new, ann["token"])
    st = c.wait_state(lambda s: s["game"] is not None)
    assert st["you"] == 0 and st["table"]["seats"][0]["name"] == "Ann"
    # asking twice for the same seat: it is taken (the first token holds it)
    status, body = live.request("POST", f"/api/tables/{tid}/rematch", {"token": tokens[0]})
    assert status == 400 and body["detail"] == "seat 0 is taken", body
    for x in [*clients, c]:
        x.close()
