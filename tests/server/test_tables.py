"""Table logic without the web: timers on a fake clock, restore, tokens."""

from __future__ import annotations

import json

import pytest

from big2.rules import Rules
from big2.server.tables import Table, TableError, TableSettings, Timing

TIMING = Timing(bot_delay=1.0, grace=10.0, deal_pause=5.0)


def table(seats: tuple[str | None, ...], **kw: object) -> Table:
    return Table.create(TableSettings(rules=Rules(players=len(seats)), seats=seats, deals=2,
                                      **kw), timing=TIMING, auto_bot="greedy", now=0.0)  # type: ignore[arg-type]


def test_bots_wait_their_delay_and_timers_play_for_people() -> None:
    t = table((None, None, "greedy", "greedy"), turn_time=20.0)
    t.claim(0, "Ann", 0.0)
    assert t.status == "waiting" and t.due() is None
    t.claim(1, "Bob", 0.0)
    assert t.status == "playing"
    for seat in (0, 1):
        t.connect(seat, 0.0)
    assert t.game is not None
    mover = t.game.to_move
    if t.seats[mover].is_bot:
        assert t.due() == 1.0 and not t.step(0.5) and t.step(1.0)
    else:
        assert t.due() == 20.0 and not t.step(19.9) and t.step(20.0)
    assert len(t.game.history) == 1


def test_absent_player_is_covered_after_grace() -> None:
    t = table((None, "greedy", "greedy", "greedy"))
    t.claim(0, "Ann", 0.0)  # never connects: away since 0
    assert t.game is not None
    now = 0.0
    while t.game.to_move != 0:
        now = t.due() or now
        t.step(now)
    assert t.due() == max(now + 1.0, 10.0)
    t.connect(0, now)
    assert t.due() is None  # present and no timer: the table waits for her


def test_snapshot_restore_round_trip_and_tokens() -> None:
    t = table((None, "greedy", "greedy", "greedy"))
    token = t.claim(0, "Ann", 0.0)
    assert t.game is not None
    for _ in range(5):
        if t.game.to_move == 0:
            t.act(0, t.game.legal_masks()[0], 0.0)
        else:
            t.step(t.due() or 0.0)
    snap = json.loads(json.dumps(t.snapshot()))
    assert token not in json.dumps(snap)  # only the token's hash is stored
    back = Table.restore(snap, timing=TIMING, now=100.0)
    assert back.game is not None
    assert back.game.history == t.game.history and back.game.hands == t.game.hands
    assert back.seat_for_token(token) == 0 and back.seat_for_token(token + "x") is None
    assert back.state_for(0)["game"]["hand"] == t.state_for(0)["game"]["hand"]


def test_refusals_change_nothing() -> None:
    t = table((None, "greedy"))
    t.claim(0, "Ann", 0.0)
    assert t.game is not None
    before = json.dumps(t.snapshot())
    other = 1 - t.game.to_move if t.game.to_move is not None else 0
    with pytest.raises(TableError, match="not your turn"):
        t.act(other, 0, 0.0)
    with pytest.raises(TableError, match="taken"):
        t.claim(0, "Eve", 0.0)
    with pytest.raises(TableError, match="no seat"):
        t.claim(7, "Eve", 0.0)
    with pytest.raises(TableError, match="no deal to start"):
        t.ready(0, 0.0)
    assert json.dumps(t.snapshot()) == before
    with pytest.raises(TableError, match="seats needed"):
        TableSettings(rules=Rules(), seats=(None,))
