"""Quick reactions over a real WebSocket: the fixed set reaches everyone at the
table (spectators too) and nothing else is accepted; a seat is rate-limited;
spectators and a table of bots get a clear refusal."""

from __future__ import annotations

import json
import time

from big2.server import reactions
from big2.server.messages import REACTIONS
from big2.server.reactions import Reactions
from big2.server.tables import TableError
from conftest import LiveServer


def is_reaction(m: dict[str, object]) -> bool:
    return m.get("type") == "reaction"


def test_a_reaction_reaches_everyone_at_the_table(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"])
    ann, bob = (live.client(tid, live.join(tid, s, n)) for s, n in ((0, "Ann"), (1, "Bob")))
    watcher = live.client(tid)
    ann.send({"type": "react", "reaction": "gg", "id": 3})
    for c in (ann, bob, watcher):
        got = c.wait(is_reaction)
        assert got == {"type": "reaction", "seat": 0, "reaction": "gg"}, got
    # only the fixed set: anything else is refused without being echoed or sent on
    for bad in ({"type": "react", "reaction": "<b>hi</b>"}, {"type": "react"},
                {"type": "react", "reaction": "gg", "text": "free text"},
                {"type": "react", "reaction": ["gg"]}, {"type": "react", "reaction": 7}):
        bob.send(bad)
        err = bob.wait(lambda m: m.get("type") == "error")
        assert "hi" not in err["message"] and "free" not in err["message"], err
        assert "reaction" in err["message"] or "react" in err["message"], err
    watcher.send({"type": "react", "reaction": "wow"})
    err = watcher.wait(lambda m: m.get("type") == "error")
    assert err["message"] == "spectators cannot act: join a seat to play"
    ann.drain()
    assert not [m for m in ann.messages[1:] if is_reaction(m) and m["seat"] != 0]
    assert set(REACTIONS) == {"thumbs", "wow", "laugh", "gg"}
    for c in (ann, bob, watcher):
        c.close()


def test_a_seat_may_react_three_times_in_ten_seconds(live: LiveServer) -> None:
    tid = live.create([None, None, "greedy", "greedy"])
    ann = live.client(tid, live.join(tid, 0, "Ann"))
    live.client(tid, live.join(tid, 1, "Bob")).close()
    for r in ("thumbs", "wow", "laugh"):
        ann.send({"type": "react", "reaction": r})
        assert ann.wait(is_reaction)["reaction"] == r
    ann.send({"type": "react", "reaction": "gg", "id": 9})
    err = ann.wait(lambda m: m.get("type") == "error")
    assert err["id"] == 9 and err["message"].startswith("too many reactions: wait "), err
    ann.close()


def test_no_reactions_at_a_table_of_bots(live: LiveServer) -> None:
    tid = live.create([None, "greedy", "greedy", "greedy"])
    ann = live.client(tid, live.join(tid, 0, "Ann"))
    ann.send({"type": "react", "reaction": "gg"})
    err = ann.wait(lambda m: m.get("type") == "error")
    assert "tables with friends" in err["message"], err
    ann.drain()
    assert not [m for m in ann.messages if is_reaction(m)]
    ann.close()


def test_the_rate_limit_lets_a_seat_react_again_after_the_window() -> None:
    limit = Reactions()
    t = time.monotonic()
    for i in range(reactions.BURST):
        limit.check(0, t + i)
    try:
        limit.check(0, t + 3)
        raise AssertionError("a fourth reaction in the window went through")
    except TableError as exc:
        assert str(exc) == "too many reactions: wait 8 s", exc
    limit.check(1, t + 3)  # another seat has its own
    limit.check(0, t + reactions.WINDOW + 0.01)  # the first has left the window
    assert json.dumps(REACTIONS)  # plain strings, for the page
