"""Table logic without the web: timers on a fake clock, restore, tokens."""

from __future__ import annotations

import json
import random

import pytest

import big2.match as match_module
from big2.game import deal
from big2.match import TITLES
from big2.records import GameRecord, to_json
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


# -- deals follow the match (issue 12, bug 1) -------------------------------------------------

QUICK = Timing(bot_delay=0.0, grace=0.0, deal_pause=0.0)


def bot_table(rules: Rules, deals: int) -> Table:
    seats = ("greedy",) * rules.players
    return Table.create(TableSettings(rules=rules, seats=seats, deals=deals), timing=QUICK,
                        now=0.0)


def play_deal(t: Table, now: float = 1.0) -> None:
    """Step the table until the current deal is over."""
    assert t.game is not None
    while not t.game.is_over():
        assert t.step(now)


def seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the table's secret deal seeds repeatable."""
    rng = random.Random(seed)
    monkeypatch.setattr(match_module.secrets, "randbits", rng.getrandbits)


def test_president_exchange_moves_cards_at_a_table() -> None:
    rules = Rules(exchange="before")
    t = bot_table(rules, 3)
    play_deal(t)
    titles = t.match.titles
    assert t.status == "between" and sorted(titles) == sorted(TITLES[4])
    assert t.step(1.0)  # the next deal
    g = t.game
    assert g is not None and t.deal_no == 2 and not g.history
    dealt = deal(rules, random.Random(g.seed), g.dealer)  # the hands before the exchange
    pres, scum = titles.index("President"), titles.index("Scum")
    best = sorted((c for c in range(52) if dealt[scum] >> c & 1), key=rules.strength)[-2:]
    best_mask = sum(1 << c for c in best)
    assert list(g.initial_hands) != dealt
    assert g.initial_hands[pres] & best_mask == best_mask  # Scum's best two reach the President
    assert not g.initial_hands[scum] & best_mask
    moved = sum((h ^ d).bit_count() for h, d in zip(g.initial_hands, dealt))
    assert moved == 12  # 2 + 2 cards each way between President and Scum, 1 + 1 between the vices
    assert t.match.exchanges
    back = Table.restore(json.loads(json.dumps(t.snapshot())), timing=QUICK)
    assert back.game is not None and back.game.initial_hands == g.initial_hands
    assert back.match.titles == titles


def test_a_tied_teams_deal_is_followed_by_the_shootout(monkeypatch: pytest.MonkeyPatch) -> None:
    seeded(monkeypatch, 5)
    t = bot_table(Rules(teams=True), 200)
    for _ in range(200):
        play_deal(t)
        if t.game is not None and t.game.shootout:
            break
        assert t.step(1.0)
    else:
        raise AssertionError("no tied deal in 200")
    results, deal_no = len(t.match.results), t.deal_no
    assert t.status == "between" and t.match.next_is_shootout
    back = Table.restore(json.loads(json.dumps(t.snapshot())), timing=QUICK)  # saved in between
    for table in (t, back):
        assert table.step(1.0)
        g = table.game
        assert g is not None and g.card_counts() == (5, 5, 5, 5)
        assert table.deal_no == deal_no + 1 and len(table.match.results) == results
    assert t.game.initial_hands == back.game.initial_hands  # type: ignore[union-attr]
    play_deal(t)
    if not t.game.shootout:  # type: ignore[union-attr]
        assert len(t.match.results) == results + 1  # only the shoot-out's result counts


def test_snapshots_of_the_older_form_are_read() -> None:
    """Before the match was saved whole: its totals and the current deal's record."""
    t = table((None, "greedy", "greedy", "greedy"))
    t.claim(0, "Ann", 0.0)
    assert t.game is not None
    while t.game.to_move != 0:
        t.step(t.due() or 0.0)
    snap = json.loads(json.dumps(t.snapshot()))
    snap["match"] = {"totals": [0, 0, 0, 0], "results": [], "dealer": 0, "last_winner": None}
    snap["game"] = to_json(GameRecord.from_game(t.game), indent=None)
    back = Table.restore(snap, timing=TIMING)
    assert back.game is not None and back.game.history == t.game.history
    assert back.game.hands == t.game.hands
    back.act(0, back.game.legal_masks()[0], 1.0)
    again = Table.restore(json.loads(json.dumps(back.snapshot())), timing=TIMING)
    assert again.game is not None and again.game.history == back.game.history


def test_a_snapshot_under_other_rules_is_refused() -> None:
    t = bot_table(Rules(), 2)
    snap = json.loads(json.dumps(t.snapshot()))
    snap["match"]["rules"]["teams"] = True
    with pytest.raises(ValueError, match="settings"):
        Table.restore(snap)
    snap["match"]["games"][0]["history"] = [[9, 1]]
    with pytest.raises(ValueError, match="action 1"):
        Table.restore(snap)
