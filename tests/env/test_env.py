"""The RL environments (big2.env): PettingZoo API and seed tests, masks against
the engine's legal plays, the two observation encoders against each other,
random rollouts under every preset, the action space's coverage and round
trips, the Gymnasium wrapper, rendering, and the training example's
NumPy-only pieces."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from big2 import Game, IllegalPlayError, Rules, classify
from big2.cards import FULL_DECK, CardSet
from big2.combos import engine
from big2.env import Big2AECEnv, Big2Env
from big2.env.actions import (
    ACTION_KINDS,
    ACTION_MASK_LIST,
    KIND_RANGES,
    NUM_ACTIONS,
    PASS_ACTION,
    InvalidActionError,
    action_to_mask,
    action_to_text,
    mask_to_action,
    rule_actions,
    text_to_action,
)
from big2.env.observation import LAYOUT, OBS_SIZE, describe, encode_game, encode_view

SETUPS = [("classic", 4), ("pagat", 3), ("hawaii", 2), ("philippines", 4), ("taiwan", 2),
          ("indonesia", 3)]


# -- PettingZoo ---------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_pettingzoo_api_and_seed(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the API test warns that dict observations are not arrays
        api_test(Big2AECEnv(preset, players=players), num_cycles=100)
        seed_test(lambda: Big2AECEnv(preset, players=players), num_cycles=30)


def test_same_seed_same_deals_different_seed_different_deals() -> None:
    a, b, c = (Big2AECEnv("classic") for _ in range(3))
    a.reset(seed=11)
    b.reset(seed=11)
    c.reset(seed=12)
    assert a.game.initial_hands == b.game.initial_hands != c.game.initial_hands
    a.reset()
    b.reset()
    assert a.game.initial_hands == b.game.initial_hands  # the stream of deals, not just the first


def _rollout(env: Big2AECEnv, rng: random.Random, check: bool = True) -> dict[str, float]:
    """Random masked play to the end, checking masks and observations at every step."""
    game = env.game
    returns = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat == game.to_move
        legal_ids = np.flatnonzero(obs["action_mask"])
        if check:
            # the mask is exactly the engine's legal plays, pass included when allowed
            assert sorted(ACTION_MASK_LIST[i] for i in legal_ids) == sorted(game.legal_masks())
            assert sorted(info["legal_actions"]) == legal_ids.tolist()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            # the fast encoder (from the game) equals the one from the seat's view
            for s in range(game.num_players):
                assert np.array_equal(encode_game(game, s), encode_view(game.view(s)))
            assert np.array_equal(obs["observation"], encode_view(game.view(seat)))
        env.step(int(rng.choice(legal_ids)))
    return returns


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_rollouts_end_correctly(preset: str, players: int) -> None:
    rng = random.Random(hash((preset, players)) & 0xFFFF)
    env = Big2AECEnv(preset, players=players)
    for deal in range(2):
        env.reset(seed=deal)
        returns = _rollout(env, rng, check=deal == 0)
        game = env.game
        assert game.is_over() and env.agents == []
        assert game.hands[game.winner] == 0
        assert tuple(returns[a] for a in env.possible_agents) == pytest.approx(game.scores())


def test_masks_and_observations_under_option_variants() -> None:
    rng = random.Random(5)
    variants = [
        Rules(passing="lock-out"),
        Rules(two_pairs=True, four_of_a_kind_alone=True, five_two_pairs="sisters", five_trips=True),
        Rules(finish_restrictions=("any-2", "2S"), players=3),
        Rules(deal="13-each", players=2, suit_order="CSHD"),
        Rules(five_card_compare="same-kind", straight_beats_flush=True, suit_ranking=False),
        Rules(play_equal=True, suit_ranking=False),  # equal plays may follow: same action space
    ]
    for rules in variants:
        env = Big2AECEnv(rules)
        for deal in range(3):
            env.reset(seed=deal)
            _rollout(env, rng)
            assert env.game.is_over()


def test_win_reward_mode() -> None:
    env = Big2AECEnv("classic", reward="win")
    env.reset(seed=3)
    returns = _rollout(env, random.Random(0), check=False)
    winner = f"player_{env.game.winner}"
    assert returns == {a: (1.0 if a == winner else -1.0) for a in env.possible_agents}


def test_illegal_action_raises_with_reason() -> None:
    env = Big2AECEnv("classic")
    env.reset(seed=1)
    with pytest.raises(IllegalPlayError, match="leader cannot pass"):
        env.step(PASS_ACTION)
    with pytest.raises(InvalidActionError):
        env.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="not None"):
        env.step(None)


def test_render_text_and_svg() -> None:
    env = Big2AECEnv("classic", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    for s in range(4):
        assert str(CardSet(env.game.hands[s])).split()[0] in text
    svg_env = Big2AECEnv("classic", render_mode="svg")
    svg_env.reset(seed=2)
    root = ET.fromstring(svg_env.render())
    assert root.tag.endswith("svg")
    with pytest.raises(ValueError):
        Big2AECEnv(render_mode="png")


# -- observation --------------------------------------------------------------------


def test_observation_layout_covers_vector_once() -> None:
    covered = np.zeros(OBS_SIZE, dtype=int)
    for sl in LAYOUT.values():
        covered[sl] += 1
    assert (covered == 1).all()


def test_observation_fields_mean_what_the_docs_say() -> None:
    g = Game(Rules(players=3), seed=8)
    rng = random.Random(8)
    for _ in range(7):
        g.play(rng.choice(g.legal_masks()))
    seat = g.to_move
    assert seat is not None
    d = describe(encode_game(g, seat))
    assert d["hand"] == g.hands[seat]
    assert d["count"] == [g.hands[(seat + k) % 3].bit_count() for k in range(3)]
    played = [0, 0, 0]
    for a in g.history:
        played[a.seat] |= a.cards
    assert d["played"] == [played[(seat + k) % 3] for k in range(3)]
    assert d["to_move"] == 0 and d["players"] == 3
    assert d["leading"] == g.leading
    if not g.leading:
        assert d["last_play"] == int(g.last_play)
        assert d["last_player"] == (g.last_player - seat) % 3
        assert d["last_kind"] == classify(g.last_play).kind


# -- action space ---------------------------------------------------------------------


def test_action_space_is_exactly_the_union_of_every_rule_sets_plays() -> None:
    everything: set[int] = set()
    universe = set(ACTION_MASK_LIST)
    orders = ("hk", "malaysia", "indonesia", "pagat", "ace-low", "ace-top", "vietnam")
    for order in orders:
        rules = Rules(straight_order=order, two_pairs=True, four_of_a_kind_alone=True,
                      five_two_pairs="any", five_trips=True)
        plays = engine(rules).leads(FULL_DECK)
        assert universe.issuperset(plays)
        everything.update(plays)
    assert everything == set(ACTION_MASK_LIST[1:])
    assert len(ACTION_MASK_LIST) == NUM_ACTIONS == len(set(ACTION_MASK_LIST))


def test_rule_actions_agrees_with_classify() -> None:
    rules = Rules.preset("pagat")
    ids = rule_actions(rules)
    eng = engine(rules)
    playable = [i for i in range(1, NUM_ACTIONS) if eng.classify(ACTION_MASK_LIST[i]) is not None]
    assert ids.tolist() == [PASS_ACTION, *playable]


def test_kind_ranges_are_sorted_blocks() -> None:
    for kind, (lo, hi) in KIND_RANGES.items():
        assert (ACTION_KINDS[lo:hi] == kind).all()
        block = ACTION_MASK_LIST[lo:hi]
        assert block == sorted(block)
        for m in block[:: max(1, len(block) // 50)]:
            got = classify(m, Rules(two_pairs=True, four_of_a_kind_alone=True,
                                    five_two_pairs="any", five_trips=True, straight_order="indonesia"))
            if got is not None and kind.name != "STRAIGHT_FLUSH":
                assert got.kind == kind


@settings(max_examples=300, deadline=None)
@given(st.integers(0, NUM_ACTIONS - 1))
def test_action_round_trips(action: int) -> None:
    cards = action_to_mask(action)
    assert mask_to_action(cards) == action
    assert mask_to_action(list(cards)) == action
    assert text_to_action(action_to_text(action)) == action
    assert text_to_action(action_to_text(action, symbols=False)) == action


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, 51), min_size=1, max_size=5))
def test_any_card_set_maps_iff_it_is_a_play_somewhere(cards: set[int]) -> None:
    mask = sum(1 << c for c in cards)
    loose = Rules(two_pairs=True, four_of_a_kind_alone=True, five_two_pairs="any", five_trips=True)
    somewhere = any(classify(mask, loose.replace(straight_order=o)) is not None
                    for o in ("hk", "indonesia", "ace-top"))
    if somewhere:
        assert action_to_mask(mask_to_action(mask)) == mask
    else:
        with pytest.raises(InvalidActionError):
            mask_to_action(mask)


def test_bad_action_ids() -> None:
    for bad in (-1, NUM_ACTIONS, "x", 2.5):
        with pytest.raises(InvalidActionError):
            action_to_text(bad)  # type: ignore[arg-type]


# -- Gymnasium --------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players"), [("classic", 4), ("pagat", 3), ("hawaii", 2)])
def test_gymnasium_check_env(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(Big2Env(preset, players=players, opponents="greedy", seat=None),
                  skip_render_check=True)


def test_gym_episode_against_bots_and_seeding() -> None:
    def play(seed: int) -> tuple[list[int], tuple[int, ...] | None, float]:
        env = Big2Env("classic", opponents=["random", "greedy", "easy"], seat=None)
        obs, info = env.reset(seed=seed)
        rng = random.Random(seed)
        total, done, actions = 0.0, False, []
        while not done:
            assert env.game.to_move == env.seat
            assert sorted(ACTION_MASK_LIST[i] for i in info["legal_actions"]) == sorted(
                env.game.legal_masks())
            assert np.array_equal(np.flatnonzero(info["action_mask"]), sorted(info["legal_actions"]))
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            assert np.array_equal(obs, encode_view(env.game.view(env.seat)))
            a = rng.choice(info["legal_actions"])
            actions.append(a)
            obs, reward, done, _, info = env.step(a)
            total += reward
        assert env.game.is_over()
        assert total == env.game.scores()[env.seat]
        return actions, env.game.scores(), total

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_gym_illegal_actions() -> None:
    env = Big2Env("classic", illegal="raise")
    env.reset(seed=1)
    with pytest.raises(IllegalPlayError):
        env.step(text_to_action("2S") if not env.game.hands[0] >> 51 & 1 else text_to_action("2H"))
    soft = Big2Env("classic", illegal="end", illegal_reward=-5)
    soft.reset(seed=1)
    bad = next(a for a in range(1, 53) if a not in soft.table.legal_actions())
    _, reward, done, _, info = soft.step(bad)
    assert (reward, done, info["illegal"]) == (-5.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        soft.step(bad)
    with pytest.raises(ValueError, match="opponents"):
        Big2Env("classic", opponents=["random"])


# -- packaging and the training example ------------------------------------------------------


def test_import_big2_needs_no_rl_packages() -> None:
    code = ("import sys, big2, big2.env; big2.env.text_to_action('3D');"
            "bad = [m for m in ('pettingzoo', 'gymnasium', 'torch') if m in sys.modules];"
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
    script = Path(__file__).parents[2] / "examples" / "train_pg.py"
    code = (f"import sys, runpy; runpy.run_path({str(script)!r}, run_name='not_main');"
            "assert 'torch' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def _train_pg():  # type: ignore[no-untyped-def]
    path = Path(__file__).parents[2] / "examples" / "train_pg.py"
    spec = importlib.util.spec_from_file_location("train_pg", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_training_example_pieces_without_torch() -> None:
    tp = _train_pg()
    ids = [PASS_ACTION, text_to_action("3D"), text_to_action("5C 6C 7C 8C 9C")]
    f = tp.action_features(ids)
    assert f.shape == (3, tp.ACTION_FEATURES)
    assert f[:, :52].sum(axis=1).tolist() == [0, 1, 5]
    assert f[2, 52 + 12] == 1  # straight flush shape
    # the evaluation harness measures a real difference: a scripted policy that
    # sheds the most cards beats uniform random play against random bots
    scripted = tp.evaluate(tp.biggest_play_policy, 300, seed=1)
    rand = tp.evaluate(tp.random_policy(random.Random(1)), 300, seed=1)
    assert scripted.win_rate > rand.win_rate + 0.1
    assert scripted.mean_score > rand.mean_score


@pytest.mark.parametrize("options", [{"straight_min": 3}, {"straight_max": 7}, {"dragon": True},
                                     {"smack_down": "2S"}, {"decks": 2}, {"jokers": "wild"}])
def test_rule_sets_with_plays_outside_the_action_space_are_refused(options: dict) -> None:
    """Plays longer or shorter than the fixed action space covers: a clear error up front."""
    from big2 import Rules
    from big2.env.core import make_rules

    with pytest.raises(ValueError, match="fixed action space") as err:
        make_rules(Rules(**options), None)
    assert next(iter(options)) in str(err.value)

