"""The policy network in the core (big2._policy, big2.bots.policy.pnative) against NumPy.

The NumPy forward pass (:class:`~big2.bots.policy.pnet.PolicyNet`) is the
reference: on random positions of both families the core's logits agree
with it within 1e-5 of the position's scale (its largest logit or embedding
entry, at least 1), and name the same play. Both sum in float32, in different
orders: the shipped network's embeddings reach about 230 and its logits
about 1,300 (one float32 step there is 1.2e-4), and NumPy's float32 logits
differ from float64 ones by up to 5e-4, so no absolute bound of 1e-5 holds
between any two float32 implementations. The features and hints the core
computes from a deal it steps are NumPy's exactly, and the policy play-out
matches the Python policy and heuristic play-outs.
"""

from __future__ import annotations

import random

import bot_games
import numpy as np
import pytest

from big2 import Game
from big2.bots.policy import pnative
from big2.bots.policy.net import policy_family
from big2.bots.policy.pfeatures import play_features, state_features, unseen_cards
from big2.bots.policy.phint import hints
from big2.bots.policy.pnet import SCORE_SCALE, PolicyNet, hidden_hands, pad_plays
from big2.bots.rules_based import native
from big2.bots.rules_based.planning import DEFAULT_STYLE
from big2.bots.search.evaluators import play_out
from big2.bots.search.policy_eval import (
    PolicyPlayout,
    PolicyRollout,
    shipped_critic,
    shipped_policy,
)
from big2.bots.search.worlds import World
from big2.combos import engine
from big2.observation import LAYOUT, _passed_and_leader, card_vectors, encode_game, played_by_seat
from big2.rules import Rules

pytestmark = pytest.mark.skipif(not pnative.available(), reason="big2._policy not built")

FAMILIES = ("classic", "selfplay-2018")


def positions(rules: Rules, n: int, seed: int) -> list[Game]:
    """*n* positions with a choice, from deals where every seat plays a random legal play."""
    rng = random.Random(seed)
    out: list[Game] = []
    deal = 0
    while len(out) < n:
        g = Game(rules=rules, seed=seed * 100_003 + deal)
        deal += 1
        while g.to_move is not None and len(out) < n:
            legal = g.legal_masks()
            if len(legal) > 1 and rng.random() < 0.5:
                out.append(g.copy())
            g.play(rng.choice(legal))
    return out


def close(got: np.ndarray, ref: np.ndarray, emb: float = 0.0) -> bool:
    """Within 1e-5 of the position's scale (its largest logit or embedding entry
    *emb*, at least 1), and the same play highest where the top two are further apart."""
    tol = 1e-5 * max(1.0, float(np.abs(ref).max()), emb)
    if np.abs(got - ref).max() > tol:
        return False
    top = np.sort(ref)[-2:]
    return len(ref) < 2 or top[1] - top[0] <= 2 * tol or int(got.argmax()) == int(ref.argmax())


def check_forward(family: str, n: int, seed: int) -> None:
    rules = Rules.preset(family)
    net = shipped_policy()
    fam = policy_family(rules)
    games = positions(rules, n, seed)
    obs = np.stack([encode_game(g, g.to_move) for g in games])  # type: ignore[arg-type]
    legal = [g.legal_masks() for g in games]
    cards, counts = pad_plays([m for ms in legal for m in ms], [len(m) for m in legal])
    famv = np.full(len(games), fam)
    hint = hints(obs, famv, cards[np.arange(cards.shape[1])[None] < counts[:, None]], counts, rules)
    ref = net.logits_batch(obs, famv, cards, counts, rules, hint)
    got = pnative.logits_batch(net, obs, famv, cards, counts, rules, hint)
    emb = np.abs(net.embed(state_features(obs, famv))).max(axis=1)
    bad = [i for i in range(len(games))
           if not close(got[i, :counts[i]], ref[i, :counts[i]], float(emb[i]))]
    assert not bad, f"{len(bad)} of {len(games)} positions differ, first {bad[0]}"
    assert (np.isneginf(got) == np.isneginf(ref)).all()


@pytest.mark.sweep
@pytest.mark.parametrize("family", FAMILIES)
def test_forward_matches_numpy(family: str) -> None:
    check_forward(family, 250, seed=1)


@pytest.mark.nightly
@pytest.mark.parametrize("family", FAMILIES)
def test_forward_matches_numpy_on_10000_positions(family: str) -> None:
    check_forward(family, 10_000, seed=2)


def table_of(g: Game, net: PolicyNet | None = None) -> tuple[object, pnative.Public]:
    eng = engine(g.rules)
    t = pnative.table(net or shipped_policy(), native.config(eng), native._style(DEFAULT_STYLE), 0,
                      policy_family(g.rules))
    leader = _passed_and_leader(g.trick, False)[1]
    return t, (native.frame(g, eng), list(played_by_seat(g.history, g.num_players)),
               -1 if leader is None else leader)


@pytest.mark.parametrize("family", FAMILIES)
def test_core_features_are_numpys(family: str) -> None:
    """State and play features, hints included, computed in the core from the deal it
    steps are NumPy's from the observation, exactly; the logits agree."""
    rules = Rules.preset(family)
    fam = policy_family(rules)
    net = shipped_policy()
    for g in positions(rules, 25, seed=3):
        t, public = table_of(g, net)
        legal, logits, state, plays = pnative.decide(t, g.hands, public)
        assert list(legal) == g.legal_masks()
        obs = encode_game(g, g.to_move)[None]  # type: ignore[arg-type]
        cards = card_vectors(legal)
        hint = hints(obs, np.array([fam]), cards, np.array([len(legal)]), rules)
        n = len(legal)
        ref_plays = play_features(cards, np.repeat(obs[:, LAYOUT["hand"]], n, 0),
                                  np.repeat(unseen_cards(obs), n, 0), hint)
        assert np.array_equal(state, state_features(obs, fam))
        assert np.array_equal(plays, ref_plays)
        ref = net.logits_batch(obs, np.array([fam]), cards[None], np.array([n]), rules, hint)[0]
        assert close(logits, ref, float(np.abs(net.embed(state)).max()))


def test_untrained_weights_agree_too() -> None:
    """Any weights of the format (here random ones) load and agree, not the shipped only."""
    net = PolicyNet.random(np.random.default_rng(5))
    g = positions(Rules(), 1, seed=4)[0]
    obs = encode_game(g, g.to_move)[None]  # type: ignore[arg-type]
    cards = card_vectors(g.legal_masks())[None]
    args = (obs, np.array([0]), cards, np.array([cards.shape[1]]))
    assert close(pnative.logits_batch(net, *args)[0], net.logits_batch(*args)[0])


def test_bad_weights_and_inputs_are_refused() -> None:
    w = dict(shipped_policy().w)
    with pytest.raises(ValueError, match="b_w"):
        pnative._core.Net({**w, "b_w": w["b_w"][:10]})
    with pytest.raises(ValueError, match="state"):
        pnative.native_net(shipped_policy()).embed(np.zeros((2, 5), np.float32))
    with pytest.raises(ValueError, match="plies"):
        PolicyPlayout(plies=-1)
    with pytest.raises(ValueError, match="finish"):
        PolicyPlayout(finish="coin")


def worlds_of(g: Game, n: int) -> list[World]:
    """*n* guesses of the other hands of *g*'s mover (re-dealt from their union)."""
    rng = random.Random(7)
    seat = g.to_move
    assert seat is not None
    others = [s for s in range(g.num_players) if s != seat]
    pool = [c for s in others for c in range(52) if g.hands[s] >> c & 1]
    out = []
    for _ in range(n):
        rng.shuffle(pool)
        hands = list(g.hands)
        at = 0
        for s in others:
            k = g.hands[s].bit_count()
            hands[s] = sum(1 << c for c in pool[at:at + k])
            at += k
        out.append(World(hands))
    return out


def core_play_outs(g: Game, worlds: list[World], plies: int, sample: bool = False,
                   seed: int = 0, critic: bool = False, cands: int = 99) -> np.ndarray:
    t, public = table_of(g)
    assert g.to_move is not None
    return pnative.play_outs(t, worlds, public, g.legal_masks()[:cands], g.to_move,
                             None if plies < 0 else plies, sample, seed, [0] * len(worlds),
                             shipped_critic() if critic else None)


@pytest.mark.parametrize("family", FAMILIES)
def test_no_policy_plies_is_the_heuristic_play_out(family: str) -> None:
    g = positions(Rules.preset(family), 1, seed=5)[0]
    worlds = worlds_of(g, 3)
    got = core_play_outs(g, worlds, plies=0)
    eng = engine(g.rules)
    for w, row in zip(worlds, got):
        for c, v in zip(g.legal_masks(), row):
            h = Game.from_view(g.view(g.to_move), w)  # type: ignore[arg-type]
            h.play(c)
            assert v == play_out(h, eng)[g.to_move]  # type: ignore[index]


def test_policy_to_the_end_is_the_python_roll() -> None:
    """plies=-1: the policy's argmax at every seat to the end, as PolicyRollout rolls it."""
    g = positions(Rules(), 1, seed=6)[0]
    worlds = worlds_of(g, 1)
    got = core_play_outs(g, worlds, plies=-1, cands=3)
    roll = PolicyRollout(until="end")
    seat = g.to_move
    assert seat is not None
    for w, row in zip(worlds, got):
        games = []
        for c in g.legal_masks()[:3]:
            h = Game.from_view(g.view(seat), w)
            h.play(c)
            games.append(h)
        roll._roll(games, None, policy_family(g.rules))
        assert row.tolist() == [float(h.outcome().scores[seat]) for h in games]  # type: ignore[union-attr]


def test_critic_finish_is_the_numpy_critic() -> None:
    g = positions(Rules(), 1, seed=8)[0]
    worlds = worlds_of(g, 2)
    got = core_play_outs(g, worlds, plies=1, critic=True)
    seat = g.to_move
    assert seat is not None
    net, critic = shipped_policy(), shipped_critic()
    fam = policy_family(g.rules)
    for w, row in zip(worlds, got):
        for c, v in zip(g.legal_masks(), row):
            h = Game.from_view(g.view(seat), w)
            h.play(c)
            if h.to_move is not None:  # one policy ply, as the core plays it
                obs = encode_game(h, h.to_move)[None]
                legal = h.legal_masks()
                lg = net.logits_batch(obs, np.array([fam]), card_vectors(legal)[None],
                                      np.array([len(legal)]), h.rules)[0]
                h.play(legal[int(np.argmax(lg))])
            if h.to_move is None:
                assert v == h.outcome().scores[seat]  # type: ignore[union-attr]
                continue
            obs = encode_game(h, seat)[None]
            ref = critic(state_features(obs, fam), hidden_hands([h], np.array([seat])))[0]
            assert abs(v - ref * SCORE_SCALE) <= 1e-4 * max(1.0, abs(v))


def test_sampled_play_outs_repeat_for_a_seed() -> None:
    g = positions(Rules(), 1, seed=9)[0]
    worlds = worlds_of(g, 2)
    a = core_play_outs(g, worlds, plies=8, sample=True, seed=11)
    assert np.array_equal(a, core_play_outs(g, worlds, plies=8, sample=True, seed=11))
    assert a.shape == (2, len(g.legal_masks()))
    assert np.array_equal(a, np.round(a))  # every play-out ends its deal: whole points


POLICY_SEARCH = {"guided-search": {"budget": 8, "playout": "policy", "plies": 3}}


@pytest.mark.parametrize("preset", [
    pytest.param(p, marks=() if p in ("classic", "selfplay-2018") else pytest.mark.nightly)
    for p in Rules.presets()])
def test_the_policy_play_out_search_plays_legal_plays_under_every_preset(preset: str) -> None:
    """Where the core cannot play the rule set the search falls back to the heuristic
    play-out; every choice is legal (play_deal checks) at 4, 3 and 2 players."""
    for players in (4, 3, 2) if preset not in ("classic", "selfplay-2018") else (4,):
        rules = Rules.preset(preset, players=players)
        g = bot_games.play_deal(rules, players * 7 + len(preset), ["guided-search"] * players,
                                POLICY_SEARCH)
        assert g.to_move is None


def test_the_policy_play_out_search_repeats_for_a_seed() -> None:
    names = ["guided-search", "heuristic", "guided-search", "heuristic"]
    first = bot_games.play_deal(Rules(), 5, names, POLICY_SEARCH).history
    assert first == bot_games.play_deal(Rules(), 5, names, POLICY_SEARCH).history


def test_bad_play_out_options_are_refused() -> None:
    from big2.bots import make_bot

    with pytest.raises(ValueError, match="playout"):
        make_bot("guided-search", playout="coin")
