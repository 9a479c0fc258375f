"""The core's first-out search (big2.puzzles.solve.FirstOutSolver) held to the plain
Python reference (ReferenceSolver, over Game on the Python engine) on random late
positions of every preset the puzzles use; its lines checked by replaying them."""

from __future__ import annotations

import random

import pytest

from big2 import Game
from big2.bots.search.endgame import cards_left
from big2.puzzles import PRESET_RULES
from big2.puzzles.solve import FirstOutSolver, ReferenceSolver, first_out, side_bits, solver_for
from big2.rules import Rules


def late_positions(rules: Rules, count: int, left: int, seed: int) -> list[Game]:
    """*count* positions of random deals once *left* cards or fewer remain in all hands,
    reached by random legal plays (so tricks, passes and leads of every sort occur)."""
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        g = Game(rules, seed=rng.randrange(1 << 30))
        while not g.is_over() and cards_left(g) > left:
            g.play(rng.choice(g.legal_masks()))
        if not g.is_over() and not g.finished:
            out.append(g)
    return out


def agree(name: str, count: int, left: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The core and the reference give the same answers on *count* random positions of
    *left* cards, for the seat to move and for the others together."""
    rules = PRESET_RULES[name]
    core = FirstOutSolver(rules)
    positions = late_positions(rules, count, left, seed=len(name) + left)
    monkeypatch.setenv("BIG2_ENGINE", "python")  # the reference's games: the Python engine
    reference = ReferenceSolver(rules)
    won = 0
    for g in positions:
        ref_game = Game(rules, hands=list(g.initial_hands), dealer=g.dealer)
        for action in g.history:
            ref_game.play(int(action.cards))
        assert to_move(g) == to_move(ref_game)
        for side in ({to_move(g)}, set(range(g.num_players)) - {to_move(g)}):
            expected = reference.after_each(ref_game, side)
            assert core.after_each(g, side) == expected
            assert core.wins(g, side) == reference.wins(ref_game, side)
            assert core.distance(g, side) == reference.distance(ref_game, side)
            won += core.wins(g, side)
    assert 0 < won < 2 * count  # both answers occur


def to_move(g: Game) -> int:
    assert g.to_move is not None
    return g.to_move


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("name", sorted(PRESET_RULES))
def test_the_core_answers_as_the_reference(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    agree(name, 25, 8, monkeypatch)


@pytest.mark.nightly
@pytest.mark.parametrize("name", sorted(PRESET_RULES))
def test_the_core_answers_as_the_reference_on_more(name: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    agree(name, 100, 10, monkeypatch)


@pytest.mark.parametrize("name", sorted(PRESET_RULES))
def test_a_line_is_legal_and_shows_the_win(name: str) -> None:
    rules = PRESET_RULES[name]
    solver = FirstOutSolver(rules)
    for g in late_positions(rules, 25, 12, seed=7 + len(name)):
        for side in ({g.to_move}, set(range(g.num_players)) - {g.to_move}):
            assert side is not None
            line = solver.line(g, side)
            d = solver.distance(g, side)
            if d is None:
                assert line == []
                continue
            assert len(line) == d
            replay = g.copy()
            for seat, cards in line:
                assert replay.to_move == seat and cards in replay.legal_masks()
                if seat in side:  # each of the side's plays keeps the win
                    after = replay.copy()
                    after.play(cards)
                    assert first_out(after) in side or solver.wins(after, side)
                replay.play(cards)
            out = first_out(replay)
            assert out is not None and out in side


def test_bad_questions_are_refused() -> None:
    rules = PRESET_RULES["classic"]
    g = Game(rules, hands=["3D 4D", "5C", "6C 7C", "8C 9C"], leader=0)
    solver = FirstOutSolver(rules)
    with pytest.raises(ValueError, match="not a seat"):
        side_bits(g, {4})
    with pytest.raises(ValueError, match="at least one seat"):
        side_bits(g, set())
    with pytest.raises(ValueError, match="another rule set"):
        solver.wins(Game(Rules.preset("taiwan"), seed=1))
    with pytest.raises(ValueError, match="does not play this rule set"):
        FirstOutSolver(Rules(decks=2, players=6))
    big = Game(rules, seed=3)
    solver.budget = 50
    with pytest.raises(RuntimeError, match="budget"):
        solver.wins(big)
    assert isinstance(solver_for(Rules(three_threes=True)), ReferenceSolver)
