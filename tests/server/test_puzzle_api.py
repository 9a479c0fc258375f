"""The puzzles' JSON for the browser (issues 41 and 52): the list with today's
puzzle; one puzzle as the page draws it (the position now, the legal plays, the
answer, the rules that decide), a hidden-hand puzzle without a card of another
seat's hand; what any legal play comes to (``/after``: the answer's line, or the
others' refutation, on the hands it is played on); 404 with a message for an id
that is not a canonical number of the set, 400 with a message for a play that is
not cards the seat holds making a legal play."""

from __future__ import annotations

from typing import Any

import pytest
from puzzle_sets import a_hidden_puzzle, a_puzzle_of, a_three_player_puzzle

from big2.cards import CARD_NAMES
from big2.puzzles import Puzzle, daily, load, names
from big2.server import puzzlepage
from conftest import LiveServer, cards_in


def serve_also(monkeypatch: pytest.MonkeyPatch, *extra: Puzzle) -> None:
    """The server's puzzle set with *extra* puzzles after the shipped ones (those of
    their ids not in the set)."""
    ids = {p.id for p in load()}
    more = tuple(p for p in extra if p.id not in ids)
    shipped = load()
    monkeypatch.setattr(puzzlepage, "load", lambda: shipped + more)


def test_the_puzzle_list_and_one_puzzle(live: LiveServer) -> None:
    before = daily().id
    got = live.get("/api/puzzles")
    assert got["daily"] in {before, daily().id}  # (the day may turn between the two)
    assert [p["id"] for p in got["puzzles"]] == [p.id for p in load()]
    assert {p["band"] for p in got["puzzles"]} == {"easy", "medium", "hard"}
    assert [p["label"] for p in got["puzzles"]] == [p.label for p in load()]
    p = next(p for p in load() if not p.hidden)
    one = live.get(f"/api/puzzles/{p.id}")
    g = p.game()
    assert one["seat"] == p.seat and one["players"] == g.num_players and not one["hidden"]
    assert one["hands"] == [names(h).split() if h else [] for h in g.hands]
    assert one["legal"] == [names(m) for m in g.legal_masks()]
    assert one["answer"] == names(p.answer)
    assert one["leading"] == g.leading and one["last_play"] == (
        names(g.last_play).split() if g.last_play else [])
    assert one["own_plays"] >= 1
    assert one["rules"]["preset"] == p.preset and one["rules"]["players"] == g.num_players
    assert sorted(one["rules"]["suits"]) == sorted("DCHS") and one["rules"]["straights"]
    status, _page = live.request("GET", "/puzzles")
    assert status == 200


def test_any_legal_play_is_answered_with_its_line(live: LiveServer) -> None:
    p = next(p for p in load() if not p.hidden and p.choices >= 4)
    g = p.game()
    for m in g.legal_masks():
        got = live.get(f"/api/puzzles/{p.id}/after?play={names(m).replace(' ', '+') or 'pass'}")
        assert got["correct"] == (m == p.answer) and got["play"] == names(m)
        assert got["line"] == [list(a) for a in p.line_after(m)]
        assert got["hands"] == [names(h).split() if h else [] for h in g.hands]
        assert not got["other_deal"]
        # the line is legal from the position, and ends with its winner out
        after = g.copy()
        after.play(m)
        on_table = [[] if after.leading else names(after.last_play).split()]
        for seat, cards in got["line"]:
            assert after.to_move == seat
            after.play(sum(1 << CARD_NAMES.index(c) for c in cards.split()))
            on_table.append([] if after.leading else names(after.last_play).split())
        assert got["tables"] == on_table  # a trick won clears the table
        assert got["winner"] == (after.finished[0] if after.finished else after.winner)
        assert (got["winner"] == p.seat) == got["correct"]


def test_bad_ids_and_plays_are_refused_with_a_message(live: LiveServer) -> None:
    p = next(p for p in load() if not p.hidden and _singles_not_legal(p))
    g = p.game()
    for bad in ("0", "99999999", "abc", "+1", "%201", "1.0", "01", "1e0", "-1"):
        status, body = live.request("GET", f"/api/puzzles/{bad}")
        assert status == 404 and "numbered 1 to" in body["detail"], (bad, status, body)
        status, body = live.request("GET", f"/api/puzzles/{bad}/after?play=pass")
        assert status == 404, bad
    theirs = next(c for c in range(52) if int(g.hands[(p.seat + 1) % g.num_players]) >> c & 1)
    illegal = _singles_not_legal(p)[0]  # one of your cards that is no play here
    for play, said in (("", "name the play"), ("3d", "name the play"), ("XX", "name the play"),
                       ("pass+pass", "name the play"), ("3D++3S", "name the play"),
                       ("%203D", "name the play"), ("A" * 100, "too long"),
                       (f"{CARD_NAMES[theirs]}", "you do not hold"),
                       (f"{CARD_NAMES[illegal]}", "not legal"),
                       (f"{CARD_NAMES[illegal]}+{CARD_NAMES[illegal]}", "named twice")):
        status, body = live.request("GET", f"/api/puzzles/{p.id}/after?play={play}")
        assert status == 400 and said in body["detail"], (play, status, body)
    status, body = live.request("GET", f"/api/puzzles/{p.id}/after")
    assert status == 400 and "name the play" in body["detail"]


def _singles_not_legal(p: Puzzle) -> list[int]:
    g = p.game()
    held = int(g.hands[p.seat])
    return [c for c in range(52) if held >> c & 1 and 1 << c not in g.legal_masks()]


def test_a_hidden_hand_puzzle_shows_no_other_hand(live: LiveServer,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    p = a_hidden_puzzle()
    serve_also(monkeypatch, p)
    g = p.game()
    one = live.get(f"/api/puzzles/{p.id}")
    assert one["hidden"]
    assert cards_in(one["hands"]) == set(names(int(g.hands[p.seat])).split())
    assert one["counts"] == [int(h).bit_count() for h in g.hands]
    others = {c for s, h in enumerate(g.hands) if s != p.seat for c in names(int(h)).split()}
    assert not others & cards_in(one), "another seat's card was sent"
    played = [c for _s, cards in p.actions for c in cards.split()]
    assert sorted(c for seat in one["played"] for c in seat) == sorted(played)
    # after a try: the line and the hands it is played on; a wrong play loses in them
    for m in g.legal_masks():
        got: dict[str, Any] = live.get(
            f"/api/puzzles/{p.id}/after?play={names(m).replace(' ', '+') or 'pass'}")
        hands = [sum(1 << CARD_NAMES.index(c) for c in h) for h in got["hands"]]
        assert hands[p.seat] == int(g.hands[p.seat])
        assert [h.bit_count() for h in hands] == one["counts"]
        assert got["other_deal"] == (hands != [int(h) for h in g.hands])
        assert (got["winner"] == p.seat) == (m == p.answer) == got["correct"]
        if m == p.answer:
            assert not got["other_deal"]  # the answer's line on the real hands


def test_the_rules_that_decide_are_said(live: LiveServer,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    p, ph = a_three_player_puzzle(), a_puzzle_of("philippines")
    serve_also(monkeypatch, p, ph)
    one = live.get(f"/api/puzzles/{p.id}")
    assert one["players"] == 3 and one["rules"]["players"] == 3
    assert one["rules"]["label"] == "taiwan:3" and one["rules"]["suits"] == "CDHS"
    assert one["rules"]["finish"] == []
    one = live.get(f"/api/puzzles/{ph.id}")
    assert one["rules"]["suits"] == "CSHD" and one["rules"]["finish"] == ["single-2", "pair-2"]
