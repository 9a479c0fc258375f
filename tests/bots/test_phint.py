"""The heuristic's hints (big2.bots.policy.phint): the heuristic's own choice and
its planner's reading of each play, read from the observation alone."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from bot_games import random_positions, redealt_twin

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.policy.pfeatures import FAMILIES
from big2.bots.policy.phint import heuristic_hints, hints, masks, plan_hints
from big2.bots.policy.pnet import PolicyNet, family_index, load_policy, pad_plays
from big2.bots.rules_based.planning import plan
from big2.combos import engine
from big2.observation import card_vectors, encode_game


@pytest.mark.parametrize("preset", [*FAMILIES, "philippines", "taiwan", "hong-kong"])
def test_the_hint_is_the_heuristics_choice(preset: str) -> None:
    """On many positions, batched: exactly one play hinted, and it is the
    play the heuristic bot makes from the seat's view."""
    rules = Rules.preset(preset)
    games = random_positions(150, len(preset), rules, most_plays=30)
    bot = make_bot("heuristic")
    obs = np.stack([encode_game(g, g.to_move) for g in games])
    legal = [g.legal_masks() for g in games]
    flat = card_vectors([m for ms in legal for m in ms])
    counts = np.array([len(m) for m in legal])
    fam = np.full(len(games), family_index(preset))
    hint = heuristic_hints(obs, fam, flat, counts, rules)
    at = 0
    for g, ms in zip(games, legal):
        row = hint[at:at + len(ms)]
        assert row.sum() == 1
        assert ms[int(row.argmax())] == bot.choose(g.view(g.to_move))
        at += len(ms)
    if preset in FAMILIES:  # by the family's preset when no rules are given
        assert np.array_equal(heuristic_hints(obs, fam, flat, counts), hint)


def test_the_hint_reads_nothing_hidden() -> None:
    """A position and its twin with the other hands re-dealt give the same hint."""
    rng = random.Random(5)
    for g in random_positions(60, 7, most_plays=30):
        seat = g.to_move
        assert seat is not None
        twin = redealt_twin(g, seat, rng)
        got = []
        for game in (g, twin):
            legal = game.legal_masks()
            got.append(hints(encode_game(game, seat)[None], np.array([0]),
                             card_vectors(legal), np.array([len(legal)])))
        assert np.array_equal(got[0], got[1])


@pytest.mark.parametrize("preset", [*FAMILIES, "philippines", "taiwan"])
def test_the_plan_hints_are_the_planners_reading(preset: str) -> None:
    """Batched, the planner columns (from the compiled core where the rules
    are native) equal the Python planner's reading of each play, one at a time."""
    rules = Rules.preset(preset)
    eng = engine(rules)
    games = random_positions(120, 3 + len(preset), rules, most_plays=30)
    obs = np.stack([encode_game(g, g.to_move) for g in games])
    legal = [g.legal_masks() for g in games]
    flat = card_vectors([m for ms in legal for m in ms])
    counts = np.array([len(m) for m in legal])
    got = plan_hints(obs, np.full(len(games), family_index(preset)), flat, counts, rules)
    at = 0
    for g, ms in zip(games, legal):
        hand = g.hands[g.to_move]
        for k, m in enumerate(ms):
            want = (0.0, 0.0, 0.0)
            if len(ms) > 1:
                kept = plan(eng, hand & ~m)
                want = (float(m in plan(eng, hand).combos), len(kept.combos) / 13,
                        kept.cost / 13)
            assert np.allclose(got[at + k], want, atol=1e-6), (g.to_move, m)
        at += len(ms)
    assert got[:, 0].any() and got[:, 1].any()


def test_masks_round_trip() -> None:
    rng = np.random.default_rng(0)
    want = [int(x) for x in rng.integers(0, 1 << 52, size=20, dtype=np.uint64)]
    assert masks(card_vectors(want)).tolist() == want


@pytest.mark.parametrize("columns", [0, 1])
def test_a_policy_with_fewer_hint_columns_loads_with_zero_weight_on_them(
        tmp_path: Path, columns: int) -> None:
    """Weights saved before the hints (none, or the heuristic's choice alone)
    read the new columns with a zero weight: they change none of their scores."""
    from big2.bots.policy.pfeatures import HINT

    cut = HINT + columns
    net = PolicyNet.random(np.random.default_rng(3))
    arrays = dict(net.w)
    arrays["b_w"] = arrays["b_w"][:cut]
    np.savez(tmp_path / "old.npz", **arrays)
    old = load_policy(tmp_path / "old.npz")
    assert not old.w["b_w"][cut:].any()
    assert np.array_equal(old.w["b_w"][:cut], net.w["b_w"][:cut])
    g = Game(seed=4)
    legal = g.legal_masks()
    obs = encode_game(g, g.to_move)[None]
    cards, counts = pad_plays(legal, [len(legal)])
    hint = heuristic_hints(obs, np.array([0]), card_vectors(legal), counts)
    assert hint.sum() == 1
    net.w["b_w"][cut:] = 0.0
    assert np.allclose(old.logits_batch(obs, np.array([0]), cards, counts),
                       net.logits_batch(obs, np.array([0]), cards, counts))
