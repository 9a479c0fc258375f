"""Match snapshots: a match saved (through JSON) at any point and restored
plays on exactly as the original would, under every form that changes how
deals follow one another; bad snapshot data is refused with the reason."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from big2.game import Game
from big2.match import Match
from big2.rules import Rules


def choice(game: Game) -> int:
    """A deterministic but varied move (a pass now and then)."""
    legal = game.legal_masks()
    return legal[len(game.history) * 7 % len(legal)]


def advance(m: Match) -> bool:
    """One step of a match: deal, or one action (a finished deal is recorded
    at once). ``False`` once the match is over."""
    g = m.games[-1] if m.games else None
    if g is None or g.is_over():
        if m.is_over():
            return False
        m.new_game()
        return True
    g.play(choice(g))
    if g.is_over():
        m.record(g)
    return True


def json_round_trip(m: Match) -> Match:
    return Match.restore(json.loads(json.dumps(m.snapshot())))


def assert_same(a: Match, b: Match) -> None:
    assert json.dumps(a.snapshot()) == json.dumps(b.snapshot())
    assert a.totals == b.totals and a.results == b.results and a.titles == b.titles
    assert a.exchanges == b.exchanges and a.next_is_shootout == b.next_is_shootout
    if a.games:
        ga, gb = a.games[-1], b.games[-1]
        assert ga.hands == gb.hands and ga.to_move == gb.to_move
        assert ga.legal_masks() == gb.legal_masks() and ga.history == gb.history


def play_on_together(a: Match, b: Match) -> int:
    """Drive both matches to their end in lockstep; return the steps taken."""
    steps = 0
    while advance(a):
        assert advance(b)
        assert_same(a, b)
        steps += 1
    assert not advance(b) and a.is_over() and b.is_over()
    return steps


FORMS = {
    "classic": Rules(match_deals=3),
    "exchange-before": Rules(exchange="before", match_deals=3),
    "exchange-after": Rules(exchange="after", match_deals=3),
    "exchange-three-players": Rules(exchange="before", players=3, match_deals=3),
    "later-lead-winner": Rules(later_lead="winner", match_deals=3),
    "teams": Rules(teams=True, match_deals=3),
    "penalty": Rules(scoring="penalty", penalty_target=30, match_deals=0),
    "clockwise": Rules(direction="clockwise", match_deals=3),
}

# (deals recorded, actions into the next deal; None: before it is dealt)
POINTS = [(0, None), (0, 0), (0, 9), (1, None), (1, 0), (1, 17), (2, 5)]


def run_to(m: Match, deals: int, plies: int | None) -> None:
    while len(m.results) < deals or m.games and not m.games[-1].is_over():
        assert advance(m)
    if plies is not None and not m.is_over():
        assert advance(m)  # the next deal
        for _ in range(plies):
            if m.games[-1].is_over():
                break
            advance(m)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("deals", "plies"), POINTS)
def test_a_restored_match_plays_on_identically(form: str, deals: int, plies: int | None) -> None:
    original = Match(FORMS[form], seed=11, names=["Ann", "Bo", "Cy", "Di"][:FORMS[form].players])
    run_to(original, deals, plies)
    restored = json_round_trip(original)
    assert_same(original, restored)
    play_on_together(original, restored)


def test_a_replayed_match_is_the_same_as_one_never_saved() -> None:
    """Saving and restoring at every step changes nothing."""
    rules = Rules(exchange="after", later_lead="winner", match_deals=3)
    plain, saved = Match(rules, seed=3), Match(rules, seed=3)
    while advance(plain):
        assert advance(saved)
        saved = json_round_trip(saved)
        assert_same(plain, saved)
    assert saved.is_over() and saved.totals == plain.totals


TEAMS = Rules(teams=True, match_deals=2)


def tied_seed() -> int:
    """A seed whose teams match has a tied deal (under :func:`choice`)."""
    for seed in range(300):
        if tied_teams_match(seed) is not None:
            return seed
    raise AssertionError("no tied deal in 300 seeds")


def tied_teams_match(seed: int) -> Match | None:
    """The teams match of *seed* stopped just after a tied deal was recorded."""
    m = Match(TEAMS, seed=seed)
    while advance(m):
        if m.next_is_shootout:
            return m
    return None


def test_a_deal_restored_before_its_tie_deals_the_same_shootout() -> None:
    """The shoot-out comes from the tied game's own random stream: a game
    restored in the middle of the deal deals the same one."""
    seed = tied_seed()
    tied = tied_teams_match(seed)
    assert tied is not None
    m = Match(TEAMS, seed=seed)
    while len(m.games) < len(tied.games) or len(m.games[-1].history) < 5:
        advance(m)
    back = json_round_trip(m)
    play_on_together(m, back)


def test_a_pending_shootout_survives_a_restore() -> None:
    m = tied_teams_match(tied_seed())
    assert m is not None
    back = json_round_trip(m)
    assert back.next_is_shootout and back.results == m.results
    a, b = m.new_game(), back.new_game()
    assert a.card_counts() == b.card_counts() == (5, 5, 5, 5)
    assert a.initial_hands == b.initial_hands and a.dealer == b.dealer
    assert not back.next_is_shootout
    for _ in range(3):  # and in the middle of the shoot-out
        advance(m)
        advance(back)
    again = json_round_trip(back)
    assert_same(m, again)
    play_on_together(m, again)


def test_exchange_is_restored_with_the_titles() -> None:
    m = Match(Rules(exchange="before", match_deals=3), seed=2)
    run_to(m, 1, 0)
    assert m.exchanges and m.titles
    back = json_round_trip(m)
    assert back.exchanges == m.exchanges and back.titles == m.titles and back.order == m.order
    assert back.games[-1].initial_hands == m.games[-1].initial_hands


def test_two_decks_six_players() -> None:
    rules = Rules(decks=2, players=6, exchange="after", match_deals=2)
    m = Match(rules, seed=4)
    run_to(m, 1, 11)
    back = json_round_trip(m)
    assert_same(m, back)
    play_on_together(m, back)


def test_secure_match_keeps_no_random_state_and_plays_on() -> None:
    m = Match(Rules(match_deals=2), secure=True)
    run_to(m, 1, 4)
    snap = m.snapshot()
    assert snap["rng"] is None and snap["secure"] is True
    back = Match.restore(json.loads(json.dumps(snap)))
    assert_same(m, back)
    while advance(back):
        pass
    assert back.is_over() and len(back.results) == 2
    with pytest.raises(ValueError, match="secure"):
        Match(Rules(), seed=1, secure=True)


def test_negative_deals_are_refused() -> None:
    with pytest.raises(ValueError, match="deals must be 0 or more"):
        Match(Rules(), deals=-1)
    with pytest.raises(ValueError, match="number of deals"):
        Match(Rules(), deals=0)


def good_snapshot() -> dict[str, Any]:
    m = Match(Rules(exchange="before", match_deals=3), seed=8)
    run_to(m, 1, 6)
    snap: dict[str, Any] = json.loads(json.dumps(m.snapshot()))
    return snap


def _set(path: str, value: Any) -> Any:
    def change(snap: dict[str, Any]) -> None:
        *keys, last = path.split(".")
        node: Any = snap
        for k in keys:
            node = node[int(k)] if isinstance(node, list) else node[k]
        if value is KeyError:
            del node[last]
        elif isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


def _illegal_play(snap: dict[str, Any]) -> None:
    snap["games"][-1]["history"][2][1] = snap["games"][-1]["hands"][
        snap["games"][-1]["history"][2][0] - 1 if snap["games"][-1]["history"][2][0] else 3]


def _unfinished_first(snap: dict[str, Any]) -> None:
    snap["games"][0]["history"] = snap["games"][0]["history"][:3]


BAD = {
    "not a mapping": (lambda s: None, "expected a mapping"),
    "wrong format": (_set("format", "chess"), "not a match snapshot"),
    "missing key": (_set("totals", KeyError), "'totals' is missing"),
    "unknown option": (_set("rules.colour", "red"), "rules"),
    "negative deals": (_set("deals", -1), "'deals' must be a whole number 0 or more"),
    "random state": (_set("rng.1", [1, 2, 3]), "rng"),
    "totals": (_set("totals.0", 999), "totals are not the sums"),
    "results width": (_set("results.0", [1, 2]), "results"),
    "dealer": (_set("dealer", 4), "'dealer' must be a whole number 0..3"),
    "titles": (_set("titles.0", "King"), "titles"),
    "order": (_set("order", [0, 0, 1, 2]), "order"),
    "out of turn": (_set("games.1.history.0.0", 9), "action 1: seat 9 acts"),
    "not a pair": (_set("games.1.history.0", "3D"), r"action 1: expected \[seat, cards\]"),
    "illegal play": (_illegal_play, "action 3"),
    "a card twice": (_set("games.0.hands.1", 1), "bad deal"),
    "unfinished early game": (_unfinished_first, "only the last game may be unfinished"),
    "shootout without a tie": (_set("shootout", {}), "not a tied deal"),
    "seed": (_set("games.0.seed", "x"), "'seed' must be a whole number"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_snapshot_data_is_refused_with_the_reason(case: str) -> None:
    change, message = BAD[case]
    snap = good_snapshot()
    if case == "not a mapping":
        snap = None  # type: ignore[assignment]
    else:
        change(snap)
    with pytest.raises(ValueError, match=message):
        Match.restore(snap)


def test_restore_leaves_its_input_alone() -> None:
    snap = good_snapshot()
    before = copy.deepcopy(snap)
    Match.restore(snap)
    assert snap == before


def test_the_environment_deals_through_a_match() -> None:
    import random

    from big2.env.core import EnvTable

    env = EnvTable(Rules(exchange="before"), seed=6)
    first = Game(Rules(exchange="before"), seed=random.Random(6).getrandbits(64),
                 names=env.names)
    assert env.game.initial_hands == first.initial_hands  # the first deal is as it always was
    while not env.game.is_over():
        env.play(env.legal_actions()[0])
    second = env.reset()
    assert second is env.match.games[-1] and len(env.match.games) == 2
    assert env.match.exchanges and second.dealer == 1  # the exchange, the dealer moved on
    env.play(env.legal_actions()[0])
    env.reset()  # a deal left unfinished: a new match
    assert len(env.match.games) == 1 and env.match.results == []


def test_last_card_calls_survive_a_snapshot() -> None:
    """A last-card call is a record in the game's log; the snapshot keeps it."""
    from big2.view import LastCardCall

    rules = Rules(last_card=True, match_deals=2)
    m = Match(rules, seed=3)
    g = m.new_game()
    rng = random.Random(3)
    called = False
    while not g.is_over() and not called:
        for seat in range(4):
            if g.can_call_last_card(seat):
                g.call_last_card(seat)
                called = True
        if not called:
            g.play(rng.choice(g.legal_masks()))
    assert called
    back = Match.restore(json.loads(json.dumps(m.snapshot())))
    restored = back.games[-1]
    assert [r for r in restored.log if isinstance(r, LastCardCall)] == \
        [r for r in g.log if isinstance(r, LastCardCall)]
    assert restored.announced == g.announced


def test_tied_totals_share_a_place_and_the_lead() -> None:
    m = Match(Rules(match_deals=2), seed=1)
    m.totals = [36, -20, 36, -52]
    assert m.places() == [1, 3, 1, 4]
    assert m.leaders() == [0, 2]  # a tie: no single winner
    m.totals = [10, 10, 10, -30]
    assert m.places() == [1, 1, 1, 4] and m.leaders() == [0, 1, 2]
    m.totals = [-5, 20, 3, -18]
    assert m.places() == [3, 1, 2, 4] and m.leaders() == [1]
