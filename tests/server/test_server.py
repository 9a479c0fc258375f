"""The server over real HTTP and WebSocket connections: create, join, play,
pass, spectate, reconnect, timers, records, limits."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from big2.records import from_json, read_one
from big2.server.app import Limits
from big2.server.tables import Timing
from conftest import Client, LiveServer, cards_in


def four_players(live: LiveServer, **kw: Any) -> tuple[str, list[Client]]:
    """Four people at a new table, each connected as soon as seated (the game starts at the
    fourth join)."""
    tid = live.create([None, None, None, None], **kw)
    clients = [live.client(tid, live.join(tid, s, f"P{s}")) for s in range(4)]
    for c in clients:
        c.wait_state(lambda s: s["game"] is not None)
    return tid, clients


def mover(clients: list[Client]) -> Client:
    for c in clients:
        c.drain(0.05)
    to_move = clients[0].state["game"]["to_move"]
    return next(c for c in clients if c.state["you"] == to_move)


def test_create_join_play_pass_and_spectate(live: LiveServer) -> None:
    tid, clients = four_players(live)
    hands = [set(c.state["game"]["hand"]) for c in clients]
    assert all(len(h) == 13 for h in hands)
    assert set.union(*hands) == cards_in([" ".join(h) for h in hands])  # the leak checker sees all
    assert sum(len(h) for h in hands) == len(set.union(*hands)) == 52  # disjoint
    assert [c.state["you"] for c in clients] == [0, 1, 2, 3]
    for c in clients:  # only the seat to move is sent its legal plays
        assert bool(c.state["game"]["legal"]) == (c.state["you"] == c.state["game"]["to_move"])
    watcher = live.client(tid)
    assert watcher.state["you"] is None
    assert "hand" not in watcher.state["game"] and "legal" not in watcher.state["game"]

    first = mover(clients)
    play = first.state["game"]["legal"][0]
    assert "3D" in play.split()  # the opening play holds 3♦
    first.send({"type": "play", "cards": play.split()})
    for c in clients + [watcher]:
        st = c.wait_state(lambda s: s["game"]["plies"] == 1)
        assert st["game"]["last_play"] == play and st["game"]["last_player"] == first.state["you"]
    assert not set(play.split()) & set(first.state["game"]["hand"])

    second = mover(clients)
    assert second is not first
    second.send({"type": "pass", "id": 5})
    st = second.wait_state(lambda s: s["game"]["plies"] == 2)
    assert st["game"]["log"][-1] == [second.state["you"], ""]
    # the leader may not pass; an error reply names the reason and echoes the id
    status, body = live.request("GET", f"/api/tables/{tid}")
    assert status == 200 and body["game"]["plies"] == 2 and "hand" not in body["game"]
    for c in clients + [watcher]:
        c.close()


def test_errors_change_nothing(live: LiveServer) -> None:
    tid, clients = four_players(live)
    first = mover(clients)
    other = next(c for c in clients if c is not first)
    before = live.state.hubs[tid].table.snapshot()
    other.send({"type": "pass", "id": 9})
    err = other.wait(lambda m: m["type"] == "error")
    assert err == {"type": "error", "message": "it is not your turn", "id": 9}
    hand = first.state["game"]["hand"]
    not_3d = [c for c in hand if c != "3D"][:1]
    first.send({"type": "play", "cards": not_3d})
    assert "must contain 3♦" in first.wait(lambda m: m["type"] == "error")["message"]
    first.send({"type": "pass"})
    assert "leader cannot pass" in first.wait(lambda m: m["type"] == "error")["message"]
    first.send({"type": "hello", "token": None})
    assert (first.wait(lambda m: m["type"] == "error")["message"]
            == "this connection has already said hello")
    assert live.state.hubs[tid].table.snapshot() == before
    assert live.state.internal_errors == 0


def test_http_validation(live: LiveServer) -> None:
    status, body = live.request("POST", "/api/tables", {"players": 4, "preset": "nope"})
    assert status == 400 and "unknown preset" in body["detail"]
    status, body = live.request("POST", "/api/tables", {"options": {"suit_order": "XYZW"}})
    assert status == 400 and "suit_order" in body["detail"]
    status, body = live.request("POST", "/api/tables", {"players": 3, "seats": [None, "nobot", None]})
    assert status == 400 and "unknown bot" in body["detail"]
    status, _ = live.request("POST", "/api/tables", {"surprise": 1})
    assert status == 422
    tid = live.create([None, "greedy", "greedy", "greedy"])
    live.join(tid, 0, "Ann")
    status, body = live.request("POST", f"/api/tables/{tid}/join", {"seat": 0, "name": "Bob"})
    assert status == 400 and "taken" in body["detail"]
    assert live.request("GET", "/api/tables/nosuch")[0] == 404
    assert live.request("GET", "/api/records/12345")[0] == 404


def test_bad_token_watches_and_unknown_table(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"])
    live.join(tid, 0, "Ann")
    c = Client.__new__(Client)
    c.__init__(live, tid, "not-a-token")  # type: ignore[misc]
    assert c.state["you"] is None
    assert any(m["type"] == "error" and "unknown seat token" in m["message"] for m in c.messages)
    c.close()
    from websockets.sync.client import connect
    with connect(f"{live.ws_url}/ws/nosuch") as ws:
        assert json.loads(ws.recv(timeout=5))["message"] == "no such table"


def test_reconnect_keeps_the_seat_and_a_bot_covers_absence(live_factory: Any) -> None:
    live = live_factory(timing=Timing(bot_delay=0.0, grace=1.0, deal_pause=0.3))
    tid, clients = four_players(live, turn_time=0)
    first = mover(clients)
    seat, hand, token = first.state["you"], first.state["game"]["hand"], first.token
    first.close()
    back = live.client(tid, token)
    assert back.state["you"] == seat and back.state["game"]["hand"] == hand
    # gone for longer than the grace period (1 s here) on its turn: a bot plays
    back.close()
    watcher = live.client(tid)
    st = watcher.wait_state(lambda s: s["game"]["plies"] >= 1, timeout=5)
    assert st["game"]["log"][0][0] == seat
    assert st["table"]["seats"][seat]["away"]
    again = live.client(tid, token)
    assert again.state["you"] == seat and len(again.state["game"]["hand"]) < 13


def test_turn_timer_plays_for_a_slow_player(live: LiveServer) -> None:
    _tid, clients = four_players(live, turn_time=0.4)
    st = clients[0].wait_state(lambda s: s["game"]["plies"] >= 2, timeout=5)
    assert st["game"]["plies"] >= 2  # nobody moved: the timer did
    assert all(c.state["table"]["seats"][i]["connected"] for i, c in enumerate(clients))


def test_whole_deal_is_stored_as_a_record(live: LiveServer) -> None:
    tid = live.create([None, "greedy", "greedy", "greedy"], deals=1)
    me = live.client(tid, live.join(tid, 0, "Ann"))
    while True:
        st = me.wait_state(lambda s: s["table"]["status"] == "over"
                           or s["game"]["to_move"] == 0, timeout=10)
        if st["table"]["status"] == "over":
            break
        legal = st["game"]["legal"]
        play = legal[-1] if legal[-1] == "" else legal[0]
        me.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})
        me.wait_state(lambda s, n=st["game"]["plies"]: s["game"]["plies"] > n)
    assert st["game"]["winner"] is not None and sum(st["totals"]) == 0  # classic is zero-sum
    totals = st["totals"]  # the match's places: tied totals share one
    assert st["places"] == [1 + sum(t > mine for t in totals) for mine in totals]
    listing = live.get(f"/api/tables/{tid}/records")
    assert len(listing) == 1 and listing[0]["winner"] == st["game"]["winner"]
    rid = listing[0]["id"]
    status, raw = live.request("GET", f"/api/records/{rid}")
    record = from_json(json.dumps(raw))[0]
    assert record.scores == tuple(st["game"]["scores"]) and record.names[0] == "Ann"
    assert record.to_game().is_over()
    status, text = live.request("GET", f"/api/records/{rid}/download?format=txt")
    assert status == 200 and read_one(text) == record
    assert live.request("GET", f"/replay/{rid}")[0] == 200
    assert tid not in [t["id"] for t in live.get("/api/tables")]  # finished: off the lobby


def test_rate_limit_and_kick(live_factory: Any) -> None:
    live = live_factory(limits=Limits(rate=2, burst=4, kick_after=30))
    tid = live.create([None, "greedy", "greedy", "greedy"])
    c = live.client(tid)  # the hello took one token
    for _ in range(60):
        try:
            c.send({"type": "ping"})
        except ConnectionClosed:
            break
    got: list[Any] = []
    with pytest.raises(ConnectionClosed):
        while True:
            got.append(c.recv(5))
    pongs = [m for m in got if m["type"] == "pong"]
    assert 1 <= len(pongs) <= 6
    assert any(m["type"] == "error" and "slow down" in m["message"] for m in got)


def test_pages_cards_and_headers(live: LiveServer) -> None:
    import urllib.request

    with urllib.request.urlopen(live.url + "/cards/AS.svg") as res:
        body = res.read().decode()
        assert res.headers["Content-Type"].startswith("image/svg+xml")
        assert "max-age" in res.headers["Cache-Control"]
        assert 'data-card="AS"' in body
    assert live.request("GET", "/cards/ZZ.svg")[0] == 404
    with urllib.request.urlopen(live.url + "/") as res:
        assert "default-src 'self'" in res.headers["Content-Security-Policy"]
        assert "New table" in res.read().decode()
    options = live.get("/api/options")
    assert "classic" in options["presets"] and "greedy" in options["bots"]
    assert "dmc" not in options["bots"]  # it needs weights: not offered, and refused by name
    status, out = live.request("POST", "/api/tables", {"players": 4, "seats": [None] + ["dmc"] * 3})
    assert status == 400 and "unknown bot" in out["detail"], out
    offered = out["detail"].split("choose from: ")[1].split(", ")
    assert "dmc" not in offered and "league-dmc" in offered  # a league member is ready to play


def test_a_hint_names_its_bot_and_gives_its_reason(live: LiveServer) -> None:
    tid = live.create([None, "greedy", "greedy", "greedy"], deals=1)
    me = live.client(tid, live.join(tid, 0, "Ann"))
    st = me.wait_state(lambda s: s["game"] is not None and s["game"]["to_move"] == 0,
                       timeout=20)
    me.send({"type": "hint", "id": 5})
    got = me.wait(lambda m: m["type"] == "hint", timeout=20)
    assert got["id"] == 5 and got["bot"] in ("heuristic", live.state.auto_bot)
    assert " ".join(got["cards"]) in st["game"]["legal"]
    why = got["why"]
    assert why is None or (why["key"] and isinstance(why["args"], dict) and why["text"])
