"""Opponent modelling of the expert bot: the greedy rule's public traces."""

from __future__ import annotations

import random

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.rules_based.modelling import (
    greedy_forbidden,
    greedy_posterior,
    greedy_tests,
    public_steps,
)
from big2.bots.search.configs import expert_v1 as ExpertBot
from big2.bots.search.worlds import WorldSampler
from big2.cards import parse_cards


def _play(names: list[str], seed: int, moves: int | None = None) -> Game:
    game = Game(seed=seed)
    bots = [make_bot(n, seed=seed + i) for i, n in enumerate(names)]
    k = 0
    while not game.is_over() and (moves is None or k < moves):
        seat = game.to_move
        assert seat is not None
        game.play(bots[seat].choose(game.view(seat)))
        k += 1
    return game


def test_public_steps_match_the_real_trick_state() -> None:
    game = _play(["heuristic", "greedy", "heuristic", "greedy"], seed=3, moves=30)
    steps = public_steps(game.view(0))
    replay = Game(hands=list(game.initial_hands))
    assert [s.action for s in steps] == list(game.history)
    for step in steps:
        assert step.leading == replay.leading
        assert step.last == replay.last_combo
        replay.play(step.action.cards)


def test_greedy_seats_never_fail_and_their_hands_avoid_forbidden_cards() -> None:
    fails_other = 0
    for seed in range(8):
        names = ["heuristic", "greedy", "heuristic", "greedy"]
        game = _play(names, seed)
        view = game.view(0)
        tests = greedy_tests(view)
        assert tests[1][1] == 0 and tests[3][1] == 0
        fails_other += tests[2][1]
        # mid-deal, a greedy seat never holds a card its plays rule out
        for moves in (12, 24, 36):
            mid = _play(names, seed, moves)
            if mid.is_over():
                continue
            bar = greedy_forbidden(mid.view(0))
            assert not bar[1] & mid.hands[1] and not bar[3] & mid.hands[3]
    assert fails_other > 0  # the heuristic does not play like greedy


def _small_deal(first: str, second: str) -> Game:
    """Seat 1 beats 3♦ with *first*, everyone passes, seat 1 leads *second*."""
    game = Game(Rules(), hands=["3D 4D 9S", "5C 7C 8C", "8H 9H TH", "JS QS KS"])
    game.play("3D")
    game.play(first)
    for _ in range(3):
        game.pass_turn()
    game.play(second)
    return game


def test_posterior_moves_with_the_evidence() -> None:
    # 7♣ on 3♦ while holding 5♣ (played later) breaks the greedy rule
    bad = _small_deal("7C", "5C").view(0)
    assert greedy_tests(bad)[1] == (1, 1)
    assert greedy_posterior(bad, prior=0.3)[1] < 0.3
    # read as greedy anyway, seat 1 could hold nothing below its 5♣ lead
    assert greedy_forbidden(bad)[1] & int(parse_cards("4H"))
    # 5♣ first is the greedy play: the test passes and the posterior rises
    good = _small_deal("5C", "7C").view(0)
    assert greedy_tests(good)[1] == (1, 0)
    assert greedy_posterior(good, prior=0.3)[1] > 0.3
    assert greedy_tests(good)[0] == (0, 0)
    assert greedy_posterior(good, prior=0.3)[0] == 0.3
    # seats 2 and 3 passed on 5♣: greedy would hold nothing that beats it
    bar = greedy_forbidden(_small_deal("5C", "7C").view(0))
    assert bar[2] & int(parse_cards("2S")) and not bar[2] & int(parse_cards("4C"))


def test_expert_with_and_without_modelling_stays_legal_and_deterministic() -> None:
    game = _play(["greedy"] * 4, seed=5, moves=16)
    view = game.view(game.to_move)  # type: ignore[arg-type]
    for model in (True, False):
        picks = {ExpertBot(seed=2, budget=40, model=model).choose(view) for _ in range(2)}
        assert len(picks) == 1 and picks <= set(view.legal)
    unseen = int(view.unseen)
    sampler = WorldSampler(view, random.Random(0), pass_inference=0)
    bar = sampler.evidence.forbidden  # what a greedy seat would not be holding
    assert any(bar)  # the passes bar some cards: the check below is not empty
    for _ in range(10):
        hands = sampler._deal(0b1110)  # seats 1-3 greedy (3 is the viewer's)
        assert [h.bit_count() for h in hands] == list(view.card_counts)
        for s in range(4):
            if s != view.seat and (unseen & ~bar[s]).bit_count() >= view.card_counts[s] * 3:
                assert not hands[s] & bar[s]
