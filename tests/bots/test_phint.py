"""The heuristic's hint (big2.bots.phint): the heuristic's own choice, read
from the observation alone."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from bot_games import random_positions, redealt_twin

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.pfeatures import FAMILIES
from big2.bots.phint import heuristic_hints, masks
from big2.bots.pnet import PolicyNet, family_index, load_policy, pad_plays
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
        hints = []
        for game in (g, twin):
            legal = game.legal_masks()
            hints.append(heuristic_hints(encode_game(game, seat)[None], np.array([0]),
                                         card_vectors(legal), np.array([len(legal)])))
        assert np.array_equal(hints[0], hints[1])


def test_masks_round_trip() -> None:
    rng = np.random.default_rng(0)
    want = [int(x) for x in rng.integers(0, 1 << 52, size=20, dtype=np.uint64)]
    assert masks(card_vectors(want)).tolist() == want


def test_a_policy_without_the_hint_column_loads_with_zero_weight_on_it(tmp_path: Path) -> None:
    """Weights saved before the hint (one play input fewer) read it with a
    zero weight: the hint changes none of their scores."""
    from big2.bots.pfeatures import HINT

    net = PolicyNet.random(np.random.default_rng(3))
    arrays = dict(net.w)
    arrays["b_w"] = arrays["b_w"][:HINT]
    np.savez(tmp_path / "old.npz", **arrays)
    old = load_policy(tmp_path / "old.npz")
    assert not old.w["b_w"][HINT:].any()
    assert np.array_equal(old.w["b_w"][:HINT], net.w["b_w"][:HINT])
    g = Game(seed=4)
    legal = g.legal_masks()
    obs = encode_game(g, g.to_move)[None]
    cards, counts = pad_plays(legal, [len(legal)])
    hint = heuristic_hints(obs, np.array([0]), card_vectors(legal), counts)
    assert hint.sum() == 1
    net.w["b_w"][HINT:] = 0.0
    assert np.allclose(old.logits_batch(obs, np.array([0]), cards, counts),
                       net.logits_batch(obs, np.array([0]), cards, counts))
