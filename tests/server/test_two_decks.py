"""The server under jokers and two decks, over real sockets: six people play a
whole two-deck deal with wild jokers through the WebSocket protocol (a card
named twice plays both copies), and no message to a seat ever holds another
seat's card; a one-deck table refuses a card named twice; a table of six with
one deck is refused at creation with the reason."""

from __future__ import annotations

import json
import secrets
import time
from collections import Counter
from typing import Any

from big2.cards import CARD_NAMES, cards_of
from big2.server.tables import Timing
from conftest import Client, LiveServer, cards_in

# people's seats are never covered by a bot in these tests (long grace)
PATIENT = Timing(bot_delay=0.0, grace=60.0, deal_pause=60.0)
DEAL_SEED = 153
"""Six seats, two decks, wild jokers, dealer 0: seat 0 holds both 3♦ and leads
(so ``3D 3D`` is a legal first play)."""


def names_of(mask: int) -> Counter[str]:
    return Counter(CARD_NAMES[c] for c in cards_of(mask))


def seat_clients(live: LiveServer, n: int, **kw: Any) -> tuple[str, list[Client]]:
    tid = live.create([None] * n, **kw)
    tokens = [live.join(tid, s, f"P{s}") for s in range(n)]
    clients = [live.client(tid, t) for t in tokens]
    for c in clients:
        c.wait_state(lambda s: s["game"] is not None)
    return tid, clients


def doubled(play: str) -> bool:
    """Whether a play names a card twice (both copies)."""
    return any(k > 1 for k in Counter(play.split()).values())


def choose(legal: list[str]) -> str:
    """A play that names a card twice if there is one, else the first play (a
    pass only when nothing else is legal), so a deal ends in a few hundred plies."""
    plays = [p for p in legal if p]
    twice = [p for p in plays if doubled(p)]
    if twice:
        return twice[0]
    return plays[0] if plays else ""


def test_six_people_play_a_two_deck_deal_with_wild_jokers(live_factory: Any,
                                                          monkeypatch: Any) -> None:
    real = secrets.randbits  # the table deals from secrets.randbits(64): fix that deal
    monkeypatch.setattr(secrets, "randbits", lambda k: DEAL_SEED if k == 64 else real(k))
    live: LiveServer = live_factory(timing=PATIENT)
    tid, clients = seat_clients(live, 6, deals=2, options={"decks": 2, "jokers": "wild"})
    watcher = live.client(tid)
    table = live.state.hubs[tid].table
    game = table.game
    assert table.rules.decks == 2 and table.rules.jokers == "wild"
    hands = [c.state["game"]["hand"] for c in clients]
    assert sum(map(len, hands)) == 108 and all(len(h) == 18 for h in hands)
    assert Counter(n for h in hands for n in h) == Counter(CARD_NAMES)  # both decks, four jokers
    assert hands[0].count("3D") == 2 and game.to_move == 0  # the deal of DEAL_SEED
    twice_played = 0
    plies = 0
    deadline = time.monotonic() + 40
    while table.status == "playing" and table.game is game:
        assert time.monotonic() < deadline, "the deal did not finish"
        to_move = game.to_move
        mover = clients[to_move]
        mover.wait_state(lambda s, n=plies: s["game"]["plies"] == n and bool(s["game"]["legal"]))
        play = choose(mover.state["game"]["legal"])
        if doubled(play):
            twice_played += 1
        hand_before = names_of(game.hand(to_move))
        mover.send({"type": "play", "cards": play.split()} if play else {"type": "pass"})
        plies += 1
        st = mover.wait_state(lambda s, n=plies: s["game"]["plies"] == n)
        assert Counter(st["game"]["log"][-1][1].split()) == Counter(play.split())
        if play:  # the copies named were the ones taken from the hand
            assert hand_before - names_of(game.hand(to_move)) == Counter(play.split())
    assert twice_played >= 1
    assert game.is_over() and game.winner is not None
    for c in clients + [watcher]:
        c.wait_state(lambda s: s["game"]["winner"] is not None)
        c.drain(0.05)
    assert live.state.internal_errors == 0
    played = {CARD_NAMES[c] for c in cards_of(game.played())}
    for c in clients + [watcher]:
        seat = c.state["you"]
        own = names_of(game.initial_hands[seat]) if seat is not None else Counter()
        for m in c.messages:
            g = m.get("game") or {}
            if g.get("winner") is None:  # at deal end every hand is shown, as in a record
                leaked = cards_in(m) - set(own) - played - c.sent_cards
                assert not leaked, (seat, leaked)
            if seat is None:
                assert "hand" not in g and "legal" not in g
            elif m["type"] == "state" and g:
                hand = Counter(g["hand"])
                assert not hand - own, (seat, hand - own)  # never a copy it does not hold
                for p in g["legal"]:
                    assert not Counter(p.split()) - hand
    for c in clients + [watcher]:
        c.close()


def test_one_deck_refuses_a_card_named_twice(live_factory: Any) -> None:
    live: LiveServer = live_factory(timing=PATIENT)
    tid, clients = seat_clients(live, 4, deals=1)
    table = live.state.hubs[tid].table
    mover = clients[table.game.to_move]
    before = json.dumps(table.snapshot(), sort_keys=True)
    mover.send({"type": "play", "cards": ["3D", "3D"], "id": 3})
    err = mover.wait(lambda m: m["type"] == "error")
    assert err["id"] == 3
    assert err["message"] == ("3D is named twice in cards, but this table plays with one "
                              "deck (one copy of each card)")
    mover.send({"type": "play", "cards": ["3D", "3D", "3D"]})
    assert "more than 2 times" in mover.wait(lambda m: m["type"] == "error")["message"]
    assert json.dumps(table.snapshot(), sort_keys=True) == before
    assert live.state.internal_errors == 0
    for c in clients:
        c.close()


def test_two_decks_refuse_a_copy_the_seat_lacks(live_factory: Any) -> None:
    live: LiveServer = live_factory(timing=PATIENT)
    tid, clients = seat_clients(live, 5, deals=1, options={"decks": 2})
    table = live.state.hubs[tid].table
    mover = clients[table.game.to_move]
    hand = Counter(mover.state["game"]["hand"])
    single = next(n for n, k in hand.items() if k == 1)
    before = json.dumps(table.snapshot(), sort_keys=True)
    mover.send({"type": "play", "cards": [single, single]})
    assert "you do not hold" in mover.wait(lambda m: m["type"] == "error")["message"]
    mover.send({"type": "play", "cards": [single] * 3})
    assert "more than 2 times" in mover.wait(lambda m: m["type"] == "error")["message"]
    assert json.dumps(table.snapshot(), sort_keys=True) == before
    assert live.state.internal_errors == 0
    for c in clients:
        c.close()


def test_creating_a_table_checks_players_against_decks(live: LiveServer) -> None:
    status, body = live.request("POST", "/api/tables", {
        "players": 6, "seats": [None] + ["greedy"] * 5, "options": {"decks": 1}})
    assert status == 400
    assert body["detail"] == "players: 6 players need decks=2 (one deck is for 2 to 4)"
    status, body = live.request("POST", "/api/tables", {
        "players": 6, "seats": [None] + ["greedy"] * 5})  # the default is one deck
    assert status == 400 and "decks=2" in body["detail"]
    status, body = live.request("POST", "/api/tables", {"players": 9})
    assert status == 422  # out of range before any rules are built
    summary = live.post("/api/tables", {"players": 8, "seats": [None] + ["greedy"] * 7,
                                        "options": {"decks": 2, "jokers": "valueless"}})
    assert summary["players"] == 8 and summary["decks"] == 2 and summary["jokers"] == "valueless"
    status, _ = live.request("POST", f"/api/tables/{summary['id']}/join", {"seat": 7, "name": "x"})
    assert status == 400  # seat 8 is a bot's
    assert live.join(summary["id"], 0, "Ann")
    assert live.state.internal_errors == 0
