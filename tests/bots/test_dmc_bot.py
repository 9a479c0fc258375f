"""The Deep Monte-Carlo Q network's bot (big2.bots.policy.dmc, ``dmc``): legal under
every preset it is given, repeatable for a seed, blind to hidden cards, and fed the
plain encoding alone (no heuristic feature, hint or planner)."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import FrameType

import numpy as np
import pytest
from bot_games import random_positions, redealt_twin

from big2 import Game, Rules
from big2.arena.seats import SeatError, check_seat
from big2.bots import make_bot
from big2.bots.policy.dmc import FEATURES, KIND, STATE, DMCBot, QNet, load_qnet, state_inputs
from big2.bots.policy.pfeatures import FAMILIES
from big2.observation import OBS_SIZE, card_vectors, encode_view


def _net(seed: int = 0) -> QNet:
    return QNet.random(np.random.default_rng(seed), hidden=(32, 16))


def _save(net: QNet, path: Path) -> Path:
    np.savez_compressed(path, **net.arrays(), kind=np.array(KIND))
    return path


def test_the_inputs_are_the_plain_encoding() -> None:
    """Observation, unseen cards, family, the play's cards: nothing engineered."""
    assert STATE == OBS_SIZE + 52 + len(FAMILIES)
    assert FEATURES == OBS_SIZE + 52 + 52 + len(FAMILIES)
    g = random_positions(1, seed=4)[0]
    view = g.view(g.to_move)
    obs = encode_view(view)
    row = state_inputs(obs[None], 1)[0]
    assert (row[:OBS_SIZE] == obs).all()
    assert row[OBS_SIZE:OBS_SIZE + 52].sum() == len(view.unseen)
    assert list(row[OBS_SIZE + 52:]) == [0, 1]


def test_no_heuristic_function_is_called() -> None:
    """Every Python function a decision runs, traced: none of the heuristic's (its
    bot, planner or reasons), of the policy's engineered features or of its hints."""
    bot = DMCBot(seed=1, weights=_net())
    called: set[tuple[str, str]] = set()

    def trace(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            called.add((frame.f_code.co_filename, frame.f_code.co_name))

    views = [g.view(g.to_move) for g in random_positions(20, seed=5)]
    sys.setprofile(trace)
    try:
        choices = [bot.choose(view) for view in views]
    finally:
        sys.setprofile(None)
    assert all(c in v.legal for c, v in zip(choices, views))
    files = {Path(f).as_posix() for f, _ in called}
    assert any(f.endswith("big2/bots/policy/dmc.py") for f in files)  # the trace works
    assert not [f for f in files if "/rules_based/" in f or f.endswith("phint.py")]
    from_policy = {name for f, name in called if f.endswith("pnet.py")}
    assert from_policy <= {"family_index"}  # the family's number, nothing else of it
    features = {"hand_shape", "play_features", "state_features", "hints", "plan_hints"}
    assert not {name for _, name in called} & features


def test_the_bot_reads_no_hidden_card() -> None:
    """Two games alike in what the seat sees, the other hands re-dealt: the same values."""
    bot = DMCBot(seed=0, weights=_net(2))
    for g in random_positions(12, seed=6):
        seat = g.to_move
        twin = redealt_twin(g, seat, random.Random(seat))
        a, b = bot.values(g.view(seat)), bot.values(twin.view(seat))
        assert np.array_equal(a, b)


@pytest.mark.parametrize("preset", ["classic", "selfplay-2018"])
def test_only_legal_plays_and_repeatable_for_a_seed(preset: str) -> None:
    rules = Rules.preset(preset)
    net = _net(3)
    for seed in range(3):
        games = []
        for _ in range(2):
            g = Game(rules, seed=seed)
            bot = DMCBot(seed=seed, weights=net)
            while not g.is_over():
                view = g.view(g.to_move)
                choice = bot.choose(view)
                assert choice in view.legal
                g.play(choice)
            games.append(g.history)
        assert games[0] == games[1]
    for g in random_positions(15, seed=7, rules=rules):
        view = g.view(g.to_move)
        values = DMCBot(seed=0, weights=net).values(view)
        assert DMCBot(seed=0, weights=net).choose(view) == view.legal[int(np.argmax(values))]


def test_a_rule_set_the_encoding_cannot_hold_gets_the_heuristic() -> None:
    rules = Rules.preset("classic").replace(decks=2, players=6)
    bot = DMCBot(seed=0, weights=_net())
    g = Game(rules, seed=1)
    view = g.view(g.to_move)
    assert not bot.plays_itself(view)
    assert bot.choose(view) in view.legal


def test_the_values_are_the_network_on_the_pairs() -> None:
    """The shared first layer computes what the whole network computes on each pair."""
    net = _net(4)
    g = random_positions(1, seed=8)[0]
    view = g.view(g.to_move)
    plays = card_vectors(view.legal)
    state = state_inputs(encode_view(view)[None], 0)
    x = np.concatenate([np.repeat(state, len(plays), 0), plays], axis=1)
    assert np.allclose(DMCBot(weights=net).values(view), net(x), atol=1e-5)


def test_by_name_with_a_weights_file(tmp_path: Path) -> None:
    path = _save(_net(5), tmp_path / "q.npz")
    bot = make_bot("dmc", seed=1, weights=str(path))
    assert isinstance(bot, DMCBot) and bot.network.hidden == (32, 16)
    check_seat(f"dmc:weights={path}")
    with pytest.raises(ValueError, match="needs weights"):
        make_bot("dmc")
    with pytest.raises(SeatError, match="needs weights"):
        check_seat("dmc")
    other = tmp_path / "other.npz"
    np.savez(other, w0=np.zeros((FEATURES, 1), np.float32), b0=np.zeros(1, np.float32))
    with pytest.raises(ValueError, match="not a DMC network"):
        load_qnet(other)


def test_a_league_member_is_a_named_bot_on_shipped_weights(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """What one line of LEAGUE_WEIGHTS makes: a bot of that name on a file of the
    weights folder, which the gauntlet plays against."""
    from big2.arena.gauntlet import run_gauntlet
    from big2.bots import _league_member, register_bot
    from big2.bots.base import _ABOUT, _REGISTRY
    from big2.bots.policy import pnet

    _save(_net(6), tmp_path / "member.npz")
    monkeypatch.setattr(pnet, "WEIGHTS_DIR", tmp_path)
    monkeypatch.setattr("big2.bots.base._REGISTRY", dict(_REGISTRY))
    monkeypatch.setattr("big2.bots.base._ABOUT", dict(_ABOUT))
    register_bot("league-test", _league_member("league-test", "dmc", "member.npz"))
    bot = make_bot("league-test", seed=1)
    assert isinstance(bot, DMCBot) and bot.network.hidden == (32, 16)
    assert bot.name == "league-test"
    g = run_gauntlet("greedy", ["league-test"], {"classic": Rules.preset("classic")}, deals=1)
    assert g.rows[0].opponent == "league-test" and g.rows[0].deals == 1


def test_front_ends_offer_it_only_with_weights() -> None:
    """``dmc`` needs weights: the registry lists it, the front ends' list leaves it out."""
    from big2.bots import available_bots

    assert "dmc" in available_bots() and "dmc" not in available_bots(ready=True)
    assert "heuristic" in available_bots(ready=True)
