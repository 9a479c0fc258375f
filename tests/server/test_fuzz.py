"""Thousands of malformed, illegal and out-of-turn messages from several
clients: each gets an error reply, the table does not change, nothing escapes
as an internal error, and no client is ever sent a card it may not see."""

from __future__ import annotations

import json
import random
from typing import Any

from big2.cards import CARD_NAMES, cards_of
from conftest import Client, LiveServer, cards_in

JUNK: list[Any] = [
    "", "null", "[]", "{}", "42", '"play"', "{", "}{", '{"type": 5}', '{"type": null}',
    '{"type": "launch"}', '{"type": "play"}', '{"type": "play", "cards": "3D"}',
    '{"type": "play", "cards": []}', '{"type": "play", "cards": [3]}',
    '{"type": "play", "cards": ["3D", "3D"]}', '{"type": "play", "cards": ["1X"]}',
    '{"type": "play", "cards": ["3d"]}', '{"type": "pass", "extra": true}',
    '{"type": "pass", "id": "7"}', '{"type": "pass", "id": -1}', '{"type": "hello", "token": 1}',
    '{"type": "hint", "id": 1e9}', "\u0000\u0001", "x" * 5000, '{"type": "play", "cards": '
    + json.dumps(["ZZ"] * 20) + "}", b"\xff\xfe binary".decode("latin-1"),
]


def fuzz_message(rng: random.Random, client: Client, hand: list[str], played: list[str],
                 to_move: bool) -> Any:
    """One message the server must refuse, from a client that knows *hand*."""
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(JUNK)
    if roll < 0.4:
        return "".join(chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randrange(1, 40)))
    if roll < 0.5:
        return {"type": "hello", "token": rng.choice([None, "x" * rng.randrange(1, 60)])}
    if roll < 0.6:
        return {"type": rng.choice(["next", "start"])}
    if not to_move:  # anything from a seat not to move is out of turn
        pick = rng.sample(hand, rng.randrange(1, min(5, len(hand)) + 1)) if hand else ["3D"]
        return rng.choice([{"type": "pass"}, {"type": "play", "cards": pick}, {"type": "hint"}])
    state = client.state["game"]
    legal = set(state["legal"])
    # illegal plays from the seat to move: its own cards (or cards already played)
    for _ in range(50):
        pool = hand + played if played and rng.random() < 0.2 else hand
        pick = rng.sample(pool, rng.randrange(1, min(6, len(pool)) + 1))
        key = " ".join(sorted(pick, key=CARD_NAMES.index))
        if key not in legal:
            return {"type": "play", "cards": pick}
    return {"type": "pass"} if "" not in legal else rng.choice(JUNK)


def settle(clients: list[Client], mark: int) -> None:
    """Read each client's messages up to the answer to a ping sent now: the server answers
    a connection's messages in order, through one queue with everything else it sends
    there, so all that it had to say to the client before is read (no timed wait)."""
    for c in clients:
        c.send({"type": "ping", "id": mark})
    for c in clients:
        c.wait(lambda m: m.get("type") == "pong" and m.get("id") == mark)


def test_fuzz_changes_nothing_and_leaks_nothing(live: LiveServer) -> None:
    rng = random.Random(2024)
    tid = live.create([None, None, None, None], deals=1)
    tokens = [live.join(tid, s, f"P{s}") for s in range(4)]
    players = [live.client(tid, t) for t in tokens]
    watcher = live.client(tid)
    everyone = players + [watcher]
    table = live.state.hubs[tid].table
    sent = 0
    for _round in range(12):
        settle(everyone, 2 * _round)
        to_move = table.game.to_move
        played = [CARD_NAMES[c] for c in cards_of(table.game.played())]
        before = json.dumps(table.snapshot(), sort_keys=True)
        errors_before = [sum(m["type"] == "error" for m in c.messages) for c in everyone]
        counts = [0] * len(everyone)
        for _ in range(300):
            i = rng.randrange(len(everyone))
            c = everyone[i]
            seat = c.state["you"]
            hand = c.state["game"].get("hand", []) if seat is not None else []
            msg = fuzz_message(rng, c, hand, played, seat == to_move and seat is not None)
            if isinstance(msg, dict) and msg.get("type") == "hint" and seat == to_move:
                continue
            if isinstance(msg, dict) and msg.get("type") in ("hint", "pass", "play") and seat is None:
                pass  # spectators are refused too
            c.send(msg)
            counts[i] += 1
            sent += 1
        settle(everyone, 2 * _round + 1)  # every answer to the messages sent is in
        for i, c in enumerate(everyone):  # one error reply for every refused message
            got = sum(m["type"] == "error" for m in c.messages) - errors_before[i]
            assert got == counts[i], (i, got, counts[i])
        assert json.dumps(table.snapshot(), sort_keys=True) == before  # nothing changed
        assert all(c.state["version"] == table.version for c in everyone)
        # then the seat to move makes a real play, which every client sees
        mover = players[to_move]
        legal = mover.state["game"]["legal"]
        choice = legal[0] if legal[0] else legal[-1]
        plies = len(table.game.history) + 1
        mover.send({"type": "play", "cards": choice.split()} if choice else {"type": "pass"})
        for c in everyone:
            c.wait_state(lambda s, n=plies: s["game"]["plies"] == n)
        if table.game.is_over():
            break
    assert sent >= 3000
    assert live.state.internal_errors == 0
    # no message ever named a card its client may not see
    game = table.game
    played_now = {CARD_NAMES[c] for c in cards_of(game.played())}
    for c in everyone:
        seat = c.state["you"]
        own = {CARD_NAMES[x] for x in cards_of(game.initial_hands[seat])} if seat is not None else set()
        allowed = own | played_now | c.sent_cards
        for m in c.messages:
            leaked = cards_in(m) - allowed
            assert not leaked, (seat, leaked, m)
        if seat is None:
            assert all("hand" not in (m.get("game") or {}) for m in c.messages)
