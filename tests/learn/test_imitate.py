"""Imitation: the teacher's choices are recorded as it made them, and the
network learns a simple teacher."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the training extra; `make test` installs it

from big2.bots import make_bot  # noqa: E402
from big2.bots.pfeatures import RAW_PLAY, RAW_STATE  # noqa: E402
from big2.game import Game  # noqa: E402
from big2.learn.imitate import agreement, fit, teacher_decisions  # noqa: E402
from big2.observation import card_vectors, encode_game  # noqa: E402
from big2.rules import Rules  # noqa: E402


def test_decisions_are_the_teachers_choices() -> None:
    data = teacher_decisions("greedy", ["classic"], deals=3, seed=2)
    # replay: the same deals, the same bots; every recorded row is what it chose
    rng = np.random.default_rng(2)
    rules = Rules.preset("classic").replace(scoring="count")
    bots = [make_bot("greedy", seed=20 + k) for k in range(4)]
    row = 0
    for _ in range(3):
        g = Game(rules, seed=int(rng.integers(1 << 62)))
        while not g.is_over():
            masks = g.legal_masks()
            choice = int(bots[g.to_move].choose(g.view(g.to_move)))
            if len(masks) > 1:
                assert (data.obs[row] == encode_game(g, g.to_move)).all()
                start = int(data.starts[row])
                plays = data.cards[start:start + int(data.counts[row])]
                assert (plays == card_vectors(masks)).all()
                assert masks[int(data.pick[row])] == choice
                row += 1
            g.play(choice) if choice else g.pass_turn()
    assert row == len(data)


def test_raw_zeroes_the_engineered_inputs() -> None:
    data = teacher_decisions("greedy", ["classic"], deals=1, seed=3)
    state, plays = data.features(raw=True)
    full_state, full_plays = data.features()
    assert (state[:, RAW_STATE:] == 0).all() and (plays[:, RAW_PLAY:] == 0).all()
    assert full_plays[:, RAW_PLAY:].any()
    assert (state[:, :RAW_STATE] == full_state[:, :RAW_STATE]).all()


def test_the_network_learns_a_simple_teacher() -> None:
    from big2.learn.ppo_model import Actor

    data = teacher_decisions("greedy", ["classic"], deals=60, seed=4)
    held = teacher_decisions("greedy", ["classic"], deals=10, seed=5)
    torch.manual_seed(0)
    before = agreement(Actor().to_numpy(), held)
    actor, curve = fit(data, epochs=6, holdout=300, log=lambda m: None)
    assert curve[-1][0] < curve[0][0]  # the held-out loss falls
    assert agreement(actor.to_numpy(), held) > before + 0.1  # ~0.42 untrained, ~0.65 after
    with pytest.raises(ValueError, match="none to train on"):
        fit(held, holdout=len(held))
