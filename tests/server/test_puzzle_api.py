"""The puzzles' JSON for the browser (issue 41): the list with today's puzzle,
one puzzle as the page draws it (the position now, the legal plays, the
solution), and 404 for a number not in the set."""

from __future__ import annotations

from conftest import LiveServer

from big2.puzzles import daily, load, names


def test_the_puzzle_list_and_one_puzzle(live: LiveServer) -> None:
    got = live.get("/api/puzzles")
    assert got["daily"] == daily().id
    assert [p["id"] for p in got["puzzles"]] == [p.id for p in load()]
    assert {p["band"] for p in got["puzzles"]} == {"easy", "medium", "hard"}
    p = load()[0]
    one = live.get(f"/api/puzzles/{p.id}")
    g = p.game()
    assert one["seat"] == p.seat and one["players"] == 4
    assert one["hands"] == [names(h).split() if h else [] for h in g.hands]
    assert one["legal"] == [names(m) for m in g.legal_masks()]
    assert one["answer"] == names(p.answer) and one["natural"] == names(p.natural)
    assert one["line"] == [list(a) for a in p.line]
    assert one["leading"] == g.leading and one["last_play"] == (
        names(g.last_play).split() if g.last_play else [])
    assert one["own_plays"] >= 1
    for bad in ("0", "99999"):
        assert live.request("GET", f"/api/puzzles/{bad}")[0] == 404
    assert live.request("GET", "/api/puzzles/x")[0] == 404  # as the docs say (issue 55)
    status, _page = live.request("GET", "/puzzles")
    assert status == 200
