"""The PPO trainer (big2.learn.ppo) and its policy network (big2.bots.policy.pnet):
the NumPy network that plays equals the PyTorch actor that trains; the
policy reads nothing hidden; GAE is right on a hand-worked deal; a run
resumes exactly from its checkpoint; a short run learns."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from bot_games import random_positions, redealt_twin

from big2.bots.policy.pfeatures import unseen_cards
from big2.bots.policy.phint import hints
from big2.bots.policy.pnet import (
    PLAY_FEATURES,
    STATE_FEATURES,
    PolicyNet,
    hidden_hands,
    load_policy,
    play_features,
    sample_plays,
    state_features,
)
from big2.learn.ppo import PPOConfig, Trainer, export_policy
from big2.learn.ppo_samples import Samples, gae
from big2.observation import card_vectors, encode_game, encode_view

pytestmark = pytest.mark.xdist_group("torch")
"""One worker runs the tests that train: each process pays about 2.6 s of CPU for
PyTorch's import and its first optimiser (which imports ``torch._dynamo``)."""


def import_torch() -> Any:
    """PyTorch, imported by the tests that use it rather than when the suite is
    collected (every worker collects every file)."""
    return pytest.importorskip("torch")  # the training extra; `make test` installs it


def test_numpy_policy_equals_the_torch_actor() -> None:
    torch = import_torch()
    from big2.learn.ppo_model import Actor
    torch.manual_seed(0)
    actor = Actor()
    net = actor.to_numpy()
    for g in random_positions(20):
        obs = encode_game(g, g.to_move)
        plays = card_vectors(g.legal_masks())
        state = torch.from_numpy(state_features(obs, 1))
        unseen = np.repeat(unseen_cards(obs[None]), len(plays), 0)
        hint = hints(obs[None], np.array([1]), plays, np.array([len(plays)]))
        feats = torch.from_numpy(play_features(plays, np.repeat(obs[None, :52], len(plays), 0),
                                               unseen, hint))
        rows = torch.zeros(len(plays), dtype=torch.long)
        want = torch.softmax(actor(state, rows, feats), 0).detach().numpy()
        assert np.allclose(net.probabilities(obs, plays, family=1), want, atol=1e-5)


def test_the_policy_reads_no_hidden_card() -> None:
    """Two games alike in everything a seat sees, with the other hands
    re-dealt: the policy's input and output are the same."""
    net = PolicyNet.random(np.random.default_rng(1))
    for g in random_positions(10, seed=3):
        seat = g.to_move
        view = g.view(seat)
        twin = redealt_twin(g, seat, random.Random(seat))
        tview = twin.view(seat)
        assert (encode_view(view) == encode_view(tview)).all()
        a = net.probabilities(encode_view(view), card_vectors(view.legal))
        b = net.probabilities(encode_view(tview), card_vectors(tview.legal))
        assert np.array_equal(a, b)
        # ...while the critic's extra input, the hidden hands, does differ
        if twin.hands != g.hands:
            assert not np.array_equal(hidden_hands([g], np.array([seat])),
                                      hidden_hands([twin], np.array([seat])))


def test_gae_on_a_hand_worked_deal() -> None:
    t = Samples.empty()
    t.lengths, t.rewards = np.array([3]), np.array([1.0])
    values = np.array([0.5, 0.2, 0.8], dtype=np.float32)
    adv, ret = gae(values, t, lam=0.5)
    # deltas: 0.2-0.5, 0.8-0.2, 1-0.8 = -0.3, 0.6, 0.2
    want = np.array([-0.3 + 0.5 * 0.6 + 0.25 * 0.2, 0.6 + 0.5 * 0.2, 0.2])
    assert np.allclose(adv, want)
    assert np.allclose(ret, want + values)
    assert np.allclose(gae(values, t, lam=1.0)[1], 1.0)  # λ = 1: the Monte-Carlo return


def test_sampling_follows_the_policy_and_greedy_takes_the_top() -> None:
    net = PolicyNet.random(np.random.default_rng(2))
    g = random_positions(1, seed=9)[0]
    obs = encode_game(g, g.to_move)[None].repeat(4000, 0)
    plays = card_vectors(g.legal_masks())
    cards = plays[None].repeat(4000, 0)
    counts = np.full(4000, len(plays))
    fam = np.zeros(4000, dtype=np.int64)
    pick, logp = sample_plays(net, obs, fam, cards, counts, np.random.default_rng(0))
    p = net.probabilities(obs[0], plays)
    assert np.allclose(np.exp(logp), p[pick], atol=1e-5)
    freq = np.bincount(pick, minlength=len(plays)) / 4000
    assert np.abs(freq - p).max() < 0.05
    top, _ = sample_plays(net, obs[:3], fam[:3], cards[:3], counts[:3], np.random.default_rng(0),
                          greedy=True)
    assert (top == p.argmax()).all()


def small(out: Path, **kw: object) -> PPOConfig:
    opts: dict[str, object] = {
        "out": str(out), "batch": 128, "minibatch": 64, "epochs": 2, "self_play": 8, "pool": 2,
        "bots": 1, "opponents": ("greedy",), "eval_minutes": 1e9, "threads": 1,
        "snapshot_every": 2, "iterations": 3}
    opts.update(kw)
    return PPOConfig(**opts)  # type: ignore[arg-type]


def test_a_run_resumes_exactly(tmp_path: Path) -> None:
    torch = import_torch()
    cfg = small(tmp_path / "run")
    t = Trainer(cfg, log=lambda m: None)
    t.run()
    again = Trainer(cfg, log=lambda m: None)
    for a, b in ((t.actor, again.actor), (t.critic, again.critic)):
        for (k, x), (_, y) in zip(a.state_dict().items(), b.state_dict().items()):
            assert torch.equal(x, y), k
    for (ka, sa), (kb, sb) in zip(t.opt.state_dict()["state"].items(),
                                  again.opt.state_dict()["state"].items()):
        assert ka == kb and all(torch.equal(sa[n], sb[n]) for n in sa if torch.is_tensor(sa[n]))
    assert again.rng.bit_generator.state == t.rng.bit_generator.state
    assert again.rng.random() == t.rng.random()
    for key in ("iteration", "steps", "deals", "samples"):
        assert again.state[key] == t.state[key] > 0
    assert len(again.state["pool"]) == 1  # the snapshot taken at iteration 2
    again.run()  # and it goes on from there
    assert again.state["iteration"] == 6


def test_export_writes_the_network_that_plays(tmp_path: Path) -> None:
    cfg = small(tmp_path / "run", iterations=1)
    t = Trainer(cfg, log=lambda m: None)
    t.run()
    net = export_policy(tmp_path / "run", tmp_path / "p.npz", tmp_path / "c.npz")
    loaded = load_policy(tmp_path / "p.npz")
    assert loaded.meta["steps"] == str(t.state["steps"])
    from big2.bots.policy.pnet import load_value

    assert load_value(tmp_path / "c.npz").meta == loaded.meta  # the critic's provenance too
    g = random_positions(1, seed=4)[0]
    obs, plays = encode_game(g, g.to_move), card_vectors(g.legal_masks())
    # float16 on disk: the same policy up to rounding
    assert np.allclose(loaded.probabilities(obs, plays), net.probabilities(obs, plays), atol=2e-2)
    assert (tmp_path / "p.npz").stat().st_size < 1_000_000


def test_a_remnant_of_one_sample_does_not_poison_the_weights(tmp_path: Path) -> None:
    """8,193 decisions in minibatches of 2,048 once left a last minibatch of
    one sample, whose advantage's standard deviation is NaN."""
    torch = import_torch()
    t = Trainer(small(tmp_path / "run", minibatch=64, epochs=1), log=lambda m: None)
    batch = t.collector.collect(t.policy(), None, 200)
    assert isinstance(batch, Samples)  # the core's collector, the default
    t.cfg.minibatch = batch.size - 1  # the old split: a minibatch of n - 1, then one of 1
    stats = t.update(batch)
    assert np.isfinite(stats["policy_loss"]) and stats["skipped"] == 0
    for net in (t.actor, t.critic):
        assert all(bool(torch.isfinite(v).all()) for v in net.state_dict().values())


def test_weights_that_are_not_finite_are_never_checkpointed(tmp_path: Path) -> None:
    torch = import_torch()
    t = Trainer(small(tmp_path / "run", iterations=1), log=lambda m: None)
    t.run()
    before = (tmp_path / "run" / "checkpoint.pt").read_bytes()
    with torch.no_grad():
        t.actor.s0.weight[0, 0] = float("nan")
    with pytest.raises(FloatingPointError, match="not finite"):
        t.checkpoint()
    assert (tmp_path / "run" / "checkpoint.pt").read_bytes() == before
    t2 = Trainer(small(tmp_path / "run", iterations=1), log=lambda m: None)
    t2.run()  # a second checkpoint keeps the first as checkpoint.prev.pt
    assert (tmp_path / "run" / "checkpoint.prev.pt").read_bytes() == before


@pytest.mark.nightly  # an old checkpoint's migration: long, and it changes rarely
def test_a_checkpoint_from_before_the_engineered_features_resumes(tmp_path: Path) -> None:
    """Cut a checkpoint back to the first network's inputs (as committed runs
    were): it resumes with zero weights on the new inputs, computing the same
    policy and values as the cut networks did."""
    torch = import_torch()
    from big2.bots.policy.pfeatures import RAW_PLAY, RAW_STATE

    cfg = small(tmp_path / "run", iterations=3)
    Trainer(cfg, log=lambda m: None).run()
    path = tmp_path / "run" / "checkpoint.pt"
    saved = torch.load(path, weights_only=False)
    cuts = {("actor", "s0.weight"): list(range(RAW_STATE)),
            ("actor", "b.weight"): list(range(RAW_PLAY)),
            ("critic", "net.0.weight"): [*range(RAW_STATE), *range(STATE_FEATURES,
                                                                   STATE_FEATURES + 156)]}
    names = [("actor", k) for k in saved["actor"] if k.endswith(("weight", "bias"))]
    names += [("critic", k) for k in saved["critic"]]
    for (part, name), keep in cuts.items():
        saved[part][name] = saved[part][name][:, keep].clone()
        st = saved["opt"]["state"][names.index((part, name))]
        for m in ("exp_avg", "exp_avg_sq"):
            st[m] = st[m][:, keep].clone()
    for past in saved["state"]["pool"]:
        for (part, name), keep in cuts.items():
            if part == "actor":
                past[name] = past[name][:, keep].clone()
    torch.save(saved, path)
    logs: list[str] = []
    again = Trainer(cfg, log=logs.append)
    assert any("widened" in m for m in logs)
    assert (again.actor.s0.weight[:, RAW_STATE:] == 0).all()
    assert (again.critic.net[0].weight[:, RAW_STATE:STATE_FEATURES] == 0).all()
    assert torch.equal(again.critic.net[0].weight[:, STATE_FEATURES:],
                       saved["critic"]["net.0.weight"][:, RAW_STATE:])
    assert torch.equal(again.actor.s0.weight[:, :RAW_STATE], saved["actor"]["s0.weight"])
    assert torch.equal(again.actor.b.weight[:, :RAW_PLAY], saved["actor"]["b.weight"])
    moments = again.opt.state_dict()["state"][names.index(("actor", "b.weight"))]
    assert (moments["exp_avg"][:, RAW_PLAY:] == 0).all()
    assert all(p["s0.weight"].shape[1] == STATE_FEATURES for p in again.state["pool"])
    again.run()  # and it trains on
    assert again.state["iteration"] == 6


@pytest.mark.nightly  # an old checkpoint's migration: long, and it changes rarely
@pytest.mark.parametrize("columns", [0, 1])
def test_a_checkpoint_from_before_the_hints_resumes(tmp_path: Path, columns: int) -> None:
    """Cut the actor's play inputs back to before the hints (no hint: the
    checkpoints committed until 2026-12-03's afternoon; the heuristic's choice
    alone: until its evening): it resumes with a zero weight on the new columns, so
    the policy is the cut one's, and trains on."""
    torch = import_torch()
    from big2.bots.policy.pfeatures import HINT

    cut = HINT + columns
    cfg = small(tmp_path / "run", iterations=3)
    Trainer(cfg, log=lambda m: None).run()
    path = tmp_path / "run" / "checkpoint.pt"
    saved = torch.load(path, weights_only=False)
    assert saved["state"]["pool"]
    names = [("actor", k) for k in saved["actor"]] + [("critic", k) for k in saved["critic"]]
    saved["actor"]["b.weight"] = saved["actor"]["b.weight"][:, :cut].clone()
    st = saved["opt"]["state"][names.index(("actor", "b.weight"))]
    for m in ("exp_avg", "exp_avg_sq"):
        st[m] = st[m][:, :cut].clone()
    for past in saved["state"]["pool"]:
        past["b.weight"] = past["b.weight"][:, :cut].clone()
    torch.save(saved, path)
    logs: list[str] = []
    again = Trainer(cfg, log=logs.append)
    assert any("widened" in m for m in logs)
    assert (again.actor.b.weight[:, cut:] == 0).all()
    assert torch.equal(again.actor.b.weight[:, :cut], saved["actor"]["b.weight"])
    assert all(p["b.weight"].shape[1] == PLAY_FEATURES for p in again.state["pool"])
    again.run()
    assert again.state["iteration"] == 6
    assert (again.actor.b.weight[:, cut:] != 0).any()  # the new hints are learned from


def test_the_cli_trains_against_the_chosen_bots(tmp_path: Path) -> None:
    torch = import_torch()
    from click.testing import CliRunner

    from big2.learn.__main__ import main

    out = tmp_path / "run"
    args = ["train", "--out", str(out), "--hours", "0.0003", "--batch", "64", "--self-play", "2",
            "--pool", "0", "--bots", "1", "--eval-minutes", "1e9", "--threads", "1"]
    done = CliRunner().invoke(main, [*args, "--opponents", "heuristic"])
    assert done.exit_code == 0, done.output
    saved = torch.load(out / "checkpoint.pt", weights_only=False)
    assert tuple(saved["config"]["opponents"]) == ("heuristic",)
    assert saved["state"]["iteration"] >= 1
    bad = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "bad"),
                                    "--opponents", "no-such-bot"])
    assert bad.exit_code == 2 and "unknown bot 'no-such-bot'" in bad.output


def test_a_slim_checkpoint_is_small_and_resumes_with_a_fresh_optimiser(tmp_path: Path) -> None:
    torch = import_torch()
    from big2.learn.ppo import slim_checkpoint

    cfg = small(tmp_path / "run")
    t = Trainer(cfg, log=lambda m: None)
    t.run()
    full = tmp_path / "run" / "checkpoint.pt"
    size = slim_checkpoint(full, tmp_path / "slim.pt")
    assert size < full.stat().st_size
    slim = tmp_path / "slim-run"
    slim.mkdir()
    (tmp_path / "slim.pt").replace(slim / "checkpoint.pt")
    logged: list[str] = []
    again = Trainer(small(slim), log=logged.append)
    for a, b in ((t.actor, again.actor), (t.critic, again.critic)):
        for (k, x), (_, y) in zip(a.state_dict().items(), b.state_dict().items()):
            assert torch.equal(x, y), k
    assert again.state["iteration"] == t.state["iteration"] and again.state["pool"] == []
    assert not again.opt.state_dict()["state"]  # Adam afresh, and the log says so
    assert any("Adam starts afresh" in m for m in logged)
    assert again.rng.random() == t.rng.random()
    again.run()
    assert again.state["iteration"] == 6


@pytest.mark.parametrize(("run", "features"), [("ppo", "full"), ("plain", "plain")])
def test_the_committed_checkpoints_are_slim(run: str, features: str) -> None:
    """training/ppo (the shipped policy's run) and training/plain (the plain-encoding
    agent, issue 53's league): slim, and the plain one holds zero weights on every
    engineered input, so it resumes with ``--features plain`` as it was trained."""
    torch = import_torch()
    from big2.bots.policy.pfeatures import RAW_PLAY, RAW_STATE

    path = Path(__file__).resolve().parents[2] / "training" / run / "checkpoint.pt"
    assert path.stat().st_size <= 3_000_000
    saved = torch.load(path, weights_only=False, map_location="cpu")
    assert "opt" not in saved and saved["state"]["steps"] > 0
    assert saved["config"].get("features", "full") == features
    engineered = [saved["actor"]["s0.weight"][:, RAW_STATE:], saved["actor"]["b.weight"][:, RAW_PLAY:]]
    assert all(bool((w == 0).all()) for w in engineered) is (features == "plain")


def test_a_resumed_run_takes_the_new_learning_rate(tmp_path: Path) -> None:
    cfg = small(tmp_path / "run", iterations=1)
    Trainer(cfg, log=lambda m: None).run()
    again = Trainer(small(tmp_path / "run", iterations=1, lr=1e-4), log=lambda m: None)
    assert again.state["iteration"] == 1  # resumed, Adam's moments and all
    assert again.opt.state_dict()["state"]
    assert [g["lr"] for g in again.opt.param_groups] == [1e-4]


def test_a_grafted_policy_becomes_the_runs_actor(tmp_path: Path) -> None:
    torch = import_torch()
    from click.testing import CliRunner

    from big2.bots.policy.pnet import PolicyNet
    from big2.learn.__main__ import main

    cfg = small(tmp_path / "run", iterations=1)
    first = Trainer(cfg, log=lambda m: None)
    first.run()
    critic_moments = {k: v["exp_avg"].clone() for k, v in first.opt.state_dict()["state"].items()
                      if k >= len(list(first.actor.parameters()))}
    net = PolicyNet.random(np.random.default_rng(9))
    out = CliRunner().invoke(main, ["graft", str(tmp_path / "run"), _save(net, tmp_path)])
    assert out.exit_code == 0, out.output
    again = Trainer(small(tmp_path / "run", iterations=1), log=lambda m: None)
    assert again.state["iteration"] == 1 and again.state["grafted"] == 1
    back = again.actor.to_numpy()
    half = PolicyNet({k: v.astype(np.float16) for k, v in net.w.items()})  # saved as float16
    assert all(np.array_equal(back.w[k], half.w[k]) for k in net.w)
    state = again.opt.state_dict()["state"]
    n_actor = len(list(again.actor.parameters()))
    assert all(not state[k]["exp_avg"].any() for k in range(n_actor))
    assert all(torch.equal(state[k]["exp_avg"], v) for k, v in critic_moments.items())
    again.run()  # and training goes on from it
    assert again.state["iteration"] == 2
    bad = CliRunner().invoke(main, ["graft", str(tmp_path / "none"), "x.npz"])
    assert bad.exit_code == 1 and "no checkpoint" in bad.output


def _save(net: object, folder: Path) -> str:
    path = folder / "p.npz"
    net.save(path)  # type: ignore[attr-defined]
    return str(path)


def test_collector_processes_feed_the_learner(tmp_path: Path) -> None:
    import multiprocessing

    cfg = small(tmp_path / "run", iterations=3, collectors=2)
    t = Trainer(cfg, log=lambda m: None)
    t.run()
    st = t.state
    assert st["iteration"] == 3
    assert st["samples"] >= 3 * cfg.batch and st["steps"] >= st["samples"] and st["deals"] > 0
    assert t.worker_cpu > 0 and st["cpu"] > t.worker_cpu  # the workers' CPU is counted
    assert not multiprocessing.active_children()  # the workers were stopped
    again = Trainer(small(tmp_path / "run", iterations=1), log=lambda m: None)
    assert again.state["iteration"] == 3  # its checkpoint resumes like any run's


def test_the_collector_keeps_the_hints_the_policy_read() -> None:
    """Each decision keeps its plays' hint columns, computed once when the
    policy chose: the same as computing them again from what was kept, and
    the kept log-probability is the policy's on them."""
    from big2 import Rules
    from big2.learn.ppo_collect import Collector

    net = PolicyNet.random(np.random.default_rng(6))
    collector = Collector({"selfplay-2018": Rules.preset("selfplay-2018")}, self_play=2,
                          pool=2, bots=2, opponents=("heuristic",), seed=4)
    trajs = collector.collect(net, PolicyNet.random(np.random.default_rng(7)), samples=150)
    decisions = [(t, k) for t in trajs for k in range(len(t.pick))]
    assert len(decisions) >= 150
    hinted = 0
    for t, k in decisions:
        obs, plays = t.obs[k], t.plays[k]
        want = hints(obs[None], np.array([t.family]), plays, np.array([len(plays)]))
        assert np.array_equal(t.hints[k], want)
        hinted += len(plays) > 1
        logp = np.log(net.probabilities(obs, plays, family=t.family)[t.pick[k]])
        assert abs(logp - t.logp[k]) < 1e-4
    assert hinted > 50


def test_stats_rows_follow_the_files_header(tmp_path: Path) -> None:
    """A row goes under the header the file already has (once the dict's order was
    written under an older header, shifting every column after ``clipped``); a header
    naming other fields is moved aside, never extended."""
    from big2.learn.ppo import stats_columns

    path = tmp_path / "stats.csv"
    assert stats_columns(path, ["a", "b"]) == ["a", "b"]
    path.write_text("iteration,b,a\n1,2,3\n")
    assert stats_columns(path, ["iteration", "a", "b"]) == ["iteration", "b", "a"]
    assert path.exists()
    assert stats_columns(path, ["iteration", "a", "b", "skipped"]) == [
        "iteration", "a", "b", "skipped"]
    assert not path.exists()
    assert (tmp_path / "stats.before-1.csv").read_text() == "iteration,b,a\n1,2,3\n"


def test_a_bfloat16_update_computes_what_the_float32_one_does(tmp_path: Path) -> None:
    """``precision="bf16"`` runs the passes under autocast: on the same batch, from the
    same weights and the same minibatch order, its losses and entropy are the float32
    update's to bfloat16's precision, and its weights stay float32 and move alike."""
    torch = import_torch()
    runs = {}
    for precision in ("fp32", "bf16"):
        t = Trainer(small(tmp_path / precision, epochs=1, precision=precision),
                    log=lambda m: None)
        batch = t.collector.collect(t.policy(), None, 300)
        runs[precision] = (t, t.update(batch), batch)
    (a, sa, ba), (b, sb, bb) = runs["fp32"], runs["bf16"]
    assert np.array_equal(ba.state, bb.state) and np.array_equal(ba.pick, bb.pick)
    for key in ("value_loss", "entropy"):
        assert abs(sa[key] - sb[key]) <= 0.03 * abs(sa[key]) + 1e-3, (key, sa[key], sb[key])
    assert abs(sa["policy_loss"] - sb["policy_loss"]) < 0.02
    assert sa["value_loss"] != sb["value_loss"]  # (bfloat16 did run: not bit for bit)
    for (k, x), (_, y) in zip(a.actor.state_dict().items(), b.actor.state_dict().items()):
        assert y.dtype == torch.float32
        assert torch.allclose(x, y, atol=2e-3), k  # one step of at most lr = 5e-4 apart
    with pytest.raises(ValueError, match="precision must be"):
        Trainer(small(tmp_path / "x", precision="fp16"), log=lambda m: None).update(ba)


def test_a_plain_run_reads_the_cards_alone(tmp_path: Path) -> None:
    """``features="plain"``: after training, the actor's scores and the critic's values
    do not move when every engineered input and hint is scrambled (they move when a raw
    input is), and a run keeps the inputs it was started with."""
    torch = import_torch()
    from big2.bots.policy.pfeatures import RAW_PLAY, RAW_STATE

    t = Trainer(small(tmp_path / "plain", features="plain", iterations=2), log=lambda m: None)
    t.run()
    batch = t.collector.collect(t.policy(), None, 200)
    state, plays = torch.from_numpy(batch.state), torch.from_numpy(batch.plays)
    hidden = torch.from_numpy(batch.hidden.astype(np.float32))
    rows, _, flat = batch.rows(np.arange(batch.size))
    r_t, f_t = torch.from_numpy(rows), torch.from_numpy(flat)
    gen = torch.Generator().manual_seed(5)

    def outputs(s: Any, p: Any) -> tuple[Any, Any]:
        with torch.no_grad():
            return t.actor(s, r_t, p[f_t]), t.critic(s, hidden)

    scores, values = outputs(state, plays)
    s2, p2 = state.clone(), plays.clone()
    s2[:, RAW_STATE:] = torch.rand(s2[:, RAW_STATE:].shape, generator=gen)
    p2[:, RAW_PLAY:] = torch.rand(p2[:, RAW_PLAY:].shape, generator=gen)
    again = outputs(s2, p2)
    assert torch.equal(scores, again[0]) and torch.equal(values, again[1])
    p3 = plays.clone()
    p3[:, :52] = 1 - p3[:, :52]  # the plays' cards do count
    assert not torch.equal(scores, outputs(state, p3)[0])
    assert float(t.actor.s0.weight.detach()[:, :RAW_STATE].abs().sum()) > 0
    # the full-input networks do read the engineered columns
    full = Trainer(small(tmp_path / "full", iterations=1), log=lambda m: None)
    with torch.no_grad():
        assert not torch.equal(full.actor(state, r_t, plays[f_t]), full.actor(s2, r_t, p2[f_t]))
    with pytest.raises(ValueError, match="features='plain', not 'full'"):
        Trainer(small(tmp_path / "plain"), log=lambda m: None)


def test_collectors_closed_with_a_batch_in_flight_stop_by_themselves(tmp_path: Path) -> None:
    """A batch asked for and never received (the learner stops while its next batch is
    played) is read and dropped: each worker then reads the stop and exits 0 (it once
    blocked on sending a reply larger than the pipe holds, and was killed after 30 s)."""
    from big2.learn.ppo import collector_options
    from big2.learn.ppo_workers import Collectors

    cfg = small(tmp_path / "run")
    workers = Collectors(2, cfg.rules(), collector_options(cfg), seed=3, native=True)
    t = Trainer(cfg, log=lambda m: None)
    workers.request(t.policy(), None, 400)
    workers.close()
    assert [p.exitcode for p in workers.procs] == [0, 0]
