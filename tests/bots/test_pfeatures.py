"""The policy network's engineered inputs against a plain per-play reference,
and old weights widened to them computing what they computed."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from big2 import Game, Rules
from big2.bots.policy.pfeatures import (
    ABOVE,
    PLAY_FEATURES,
    RAW_PLAY,
    RAW_STATE,
    STATE_FEATURES,
    hand_shape,
    play_features,
    state_features,
    unseen_cards,
    widen,
)
from big2.bots.policy.pnet import NAMES, PolicyNet
from big2.observation import card_vectors, encode_game


def positions(n: int, seed: int = 0) -> list[Game]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        g = Game(Rules.preset(rng.choice(["classic", "selfplay-2018"])), seed=seed * 1000 + k)
        for _ in range(rng.randrange(0, 30)):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_masks()))
        if not g.is_over():
            out.append(g)
    return out


def reference_row(play: list[int], hand: list[int], unseen: list[int]) -> dict[str, object]:
    ranks = Counter(c // 4 for c in play)
    kept = [c for c in hand if c not in play]
    kept_ranks = Counter(c // 4 for c in kept)
    top = max(play) if play else None
    unseen_ranks = Counter(c // 4 for c in unseen)
    return {
        "ranks": [ranks[r] for r in range(13)],
        "top_rank": None if top is None else top // 4,
        "flush": len(play) == 5 and len({c % 4 for c in play}) == 1,
        "five_ranks": len(play) == 5 and len(ranks) == 5,
        "full_house": len(play) == 5 and sorted(ranks.values()) == [2, 3],
        "quads": len(play) == 5 and 4 in ranks.values(),
        "kept_singles": sum(1 for v in kept_ranks.values() if v == 1),
        "kept_pairs": sum(1 for v in kept_ranks.values() if v == 2),
        "kept_size": len(kept),
        "above": 0 if top is None else sum(1 for c in unseen if c > top),
        "pairs_above": 0 if top is None else sum(1 for r, v in unseen_ranks.items()
                                                 if r > top // 4 and v >= 2),
    }


def test_play_features_match_a_plain_reference() -> None:
    checked = 0
    for g in positions(100, seed=4):
        obs = encode_game(g, g.to_move)
        masks = g.legal_masks()
        plays = card_vectors(masks)
        hands = np.repeat(obs[None, :52], len(masks), 0)
        unseen = unseen_cards(obs[None])
        f = play_features(plays, hands, np.repeat(unseen, len(masks), 0))
        assert f.shape == (len(masks), PLAY_FEATURES)
        hand = np.flatnonzero(obs[:52]).tolist()
        hidden = np.flatnonzero(unseen[0]).tolist()
        for row, m in zip(f, masks, strict=True):
            play = [c for c in range(52) if m >> c & 1]
            want = reference_row(play, hand, hidden)
            assert row[RAW_PLAY:RAW_PLAY + 13].tolist() == want["ranks"]
            tops = np.flatnonzero(row[RAW_PLAY + 13:RAW_PLAY + 26]).tolist()
            assert tops == ([] if want["top_rank"] is None else [want["top_rank"]])
            kinds = row[RAW_PLAY + 26:RAW_PLAY + 30].tolist()
            assert kinds == [float(want[k]) for k in ("flush", "five_ranks", "full_house", "quads")]
            shape = row[RAW_PLAY + 30:ABOVE]
            assert round(shape[13] * 13) == want["kept_singles"]
            assert round(shape[14] * 13) == want["kept_pairs"]
            assert round(shape[21] * 13) == want["kept_size"]
            assert round(row[ABOVE] * 13) == want["above"]
            assert round(row[ABOVE + 1] * 13) == want["pairs_above"]
            checked += 1
    assert checked > 300


def test_state_features_keep_the_raw_inputs_first() -> None:
    g = positions(1, seed=9)[0]
    obs = encode_game(g, g.to_move)
    s = state_features(obs, 1)
    assert s.shape == (1, STATE_FEATURES)
    assert (s[0, :len(obs)] == obs).all()
    assert (s[0, RAW_STATE:RAW_STATE + 22] == hand_shape(obs[None, :52])[0]).all()
    assert round(float(s[0, RAW_STATE + 21]) * 13) == int(obs[:52].sum())


def test_weights_from_before_the_features_play_the_same() -> None:
    """Old-shaped weights are read with zero weights on the new inputs."""
    new = PolicyNet.random(np.random.default_rng(5))
    new.w["s0_w"][RAW_STATE:] = 0
    new.w["b_w"][RAW_PLAY:] = 0
    old = {k: new.w[k] for k in NAMES}
    old["s0_w"], old["b_w"] = old["s0_w"][:RAW_STATE], old["b_w"][:RAW_PLAY]
    widened = PolicyNet(old)
    for g in positions(10, seed=6):
        obs = encode_game(g, g.to_move)
        plays = card_vectors(g.legal_masks())
        assert np.allclose(widened.probabilities(obs, plays), new.probabilities(obs, plays))
    with pytest.raises(ValueError, match="do not fit"):
        PolicyNet({**old, "b_w": old["b_w"][:50]})


def test_widen_inserts_zeros_where_asked() -> None:
    w = np.arange(12, dtype=np.float32).reshape(4, 3)  # 2 raw inputs, then 2 others
    out = widen(w, 7, 2, 5)
    assert out.shape == (7, 3)
    assert (out[:2] == w[:2]).all() and (out[2:5] == 0).all() and (out[5:] == w[2:]).all()
    assert widen(out, 7, 2, 5) is out
    with pytest.raises(ValueError, match="inputs"):
        widen(w[:3], 7, 2, 5)
