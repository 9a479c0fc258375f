"""The exact endgame solver (big2.bots.search.endgame) and policy-search's use of it:
the memoised max^n agrees with a plain unmemoised one on random small deals
under several rule sets, its values are the game's own outcomes, a forced
win is solved as one, the node budget is honoured, and policy-search with
``endgame`` plays legal plays and repeats for a seed."""

from __future__ import annotations

import random

import pytest
from bot_games import brute_force

from big2 import Game, Rules
from big2.arena import check_seat, parse_seat
from big2.bots import make_bot
from big2.bots.search import ExactLeaves
from big2.bots.search.configs import policy_search as PolicySearchBot
from big2.bots.search.endgame import EndgameSolver, cards_left
from big2.cards import parse_cards

RULE_SETS = {
    "classic": Rules.preset("classic"),
    "selfplay-2018": Rules.preset("selfplay-2018"),
    "hawaii": Rules.preset("hawaii"),  # ranking: the finishing order scores
    "philippines": Rules.preset("philippines"),  # finish restrictions, lead passes
    "pagat": Rules.preset("pagat"),
    "lock-out+house": Rules.preset("classic").replace(
        passing="lock-out", assist_penalty=True, last_card=True, scoring="count"),
    "3 players": Rules.preset("classic", players=3),
}


def random_position(rules: Rules, rng: random.Random) -> Game:
    """A random deal of one to three cards a seat (at most nine in all), a
    random leader, and up to three random actions played from it (so some
    positions are mid-trick)."""
    n = rules.players
    deck = list(range(52))
    rng.shuffle(deck)
    sizes = [rng.randint(1, 3) for _ in range(n)]
    while sum(sizes) > 9:
        sizes[rng.randrange(n)] = 1
    hands, at = [], 0
    for k in sizes:
        hands.append(sum(1 << c for c in deck[at:at + k]))
        at += k
    g = Game(rules, hands=hands, leader=rng.randrange(n))
    for _ in range(rng.randrange(4)):
        if g.to_move is None:
            break
        g.play(rng.choice(g.legal_masks()))
    return g


def principal_line(g: Game, solver: EndgameSolver) -> Game:
    """*g* played out by the solver's choices: each mover's best play, ties to
    the first legal play."""
    g = g.copy()
    while g.to_move is not None:
        rows = solver.move_values(g)
        assert rows is not None
        seat = g.to_move
        best = max(range(len(rows)), key=lambda i: (rows[i][1][seat], -i))
        g.play(rows[best][0])
    return g


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_solver_agrees_with_plain_max_n_on_random_small_positions(name: str) -> None:
    rules, rng = RULE_SETS[name], random.Random(len(name))
    for _ in range(25):
        g = random_position(rules, rng)
        solver = EndgameSolver(budget=100_000)
        value = solver.solve(g)
        assert value == brute_force(g), (name, g.hands, g.history)
        if g.to_move is not None:
            rows = solver.move_values(g)
            assert rows is not None and [m for m, _ in rows] == g.legal_masks()
            for move, v in rows:
                child = g.copy()
                child.play(move)
                assert v == brute_force(child)


@pytest.mark.parametrize("name", ["classic", "hawaii", "lock-out+house"])
def test_solved_values_are_the_outcome_of_the_line_the_solver_plays(name: str) -> None:
    rules, rng = RULE_SETS[name], random.Random(99)
    for _ in range(15):
        g = random_position(rules, rng)
        solver = EndgameSolver(budget=100_000)
        value = solver.solve(g)
        end = principal_line(g, solver)
        outcome = end.outcome()
        assert outcome is not None and value == tuple(outcome.scores)


def test_a_seat_that_can_force_going_out_is_solved_as_a_win() -> None:
    # Seat 0 leads the unbeatable 2♠, then leads its 3♦ and is out, whatever the others hold.
    g = Game(Rules.preset("classic").replace(scoring="count"),
             hands=["3D 2S", "4C 5C 6C", "7H 8H", "9S"], leader=0)
    solver = EndgameSolver(budget=10_000)
    value = solver.solve(g)
    assert value is not None and value[0] == 6 and value[0] == max(value)
    rows = solver.move_values(g)
    assert rows is not None
    by_move = dict(rows)
    assert by_move[int(parse_cards("2S"))][0] == 6
    assert by_move[int(parse_cards("3D"))][0] < 6  # leading the 3♦ first lets others out
    assert principal_line(g, solver).winner == 0


def test_the_node_budget_is_honoured() -> None:
    g = Game(seed=3)
    for budget in (1, 50, 500):
        solver = EndgameSolver(budget=budget)
        assert solver.solve(g) is None and solver.move_values(g) is None
        assert solver.nodes == budget + 1  # it stopped at the first position past the budget
    small = random_position(RULE_SETS["classic"], random.Random(5))
    solver = EndgameSolver(budget=100_000)
    assert solver.solve(small) is not None
    tight = EndgameSolver(budget=max(solver.nodes, 1))
    assert tight.solve(small) == solver.solve(small)
    with pytest.raises(ValueError):
        EndgameSolver(budget=0)


def test_the_memo_serves_a_later_call_and_is_cleared_for_other_rules() -> None:
    g = random_position(RULE_SETS["classic"], random.Random(11))
    solver = EndgameSolver(budget=100_000)
    first = solver.solve(g)
    assert solver.solve(g) == first and solver.nodes == 0  # all known
    other = Game(RULE_SETS["hawaii"], hands=g.initial_hands, leader=0)
    assert solver.solve(other) == brute_force(other)


def late_game(seed: int, left: int, rules: Rules | None = None) -> Game:
    """A deal played by heuristic bots until at most *left* cards remain."""
    g = Game(rules, seed=seed)
    bots = [make_bot("heuristic", seed=s) for s in range(g.num_players)]
    while g.to_move is not None and cards_left(g) > left:
        g.play(bots[g.to_move].choose(g.view(g.to_move)))
    return g


@pytest.mark.parametrize("preset", ["classic", "selfplay-2018"])
def test_policy_search_with_endgame_plays_legal_plays_and_repeats_for_a_seed(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(3):
        g = late_game(seed, 14, rules)
        bot_a = PolicySearchBot(seed=4, samples=4, endgame=9, sure=1.01)
        bot_b = PolicySearchBot(seed=4, samples=4, endgame=9, sure=1.01)
        while g.to_move is not None:
            view = g.view(g.to_move)
            choice = bot_a.choose(view)
            assert choice in view.legal and bot_b.choose(view) == choice
            g.play(choice)


def test_policy_search_scores_a_solved_world_exactly() -> None:
    # Seat 0 can force going out (above): in every sampled world the 2♠ is worth the win.
    g = Game(Rules.preset("classic").replace(scoring="count"),
             hands=["3D 2S", "4C 5C 6C", "7H 8H", "9S"], leader=0)
    bot = PolicySearchBot(seed=1, samples=6, belief=0, endgame=8)
    rows = {m: v for m, _, v in bot.analyse(g.view(0), include=g.legal_masks())}
    assert rows[int(parse_cards("2S"))] == 6.0


def test_endgame_options_parse_from_a_seat_spec() -> None:
    name, options = parse_seat("policy-search:endgame=6:endgame_nodes=500")
    assert (name, options) == ("policy-search", {"endgame": 6, "endgame_nodes": 500})
    check_seat("policy-search:endgame=6", start=False)
    bot = make_bot(name, seed=1, **options)
    endgame = bot.search.evaluator  # type: ignore[attr-defined]
    assert isinstance(endgame, ExactLeaves)  # the one exact-endgame wrapper
    assert bot.name == "policy-search" and (endgame.cards, endgame.nodes) == (6, 500)
    with pytest.raises(ValueError):
        PolicySearchBot(endgame=-1)
