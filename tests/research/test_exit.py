"""Expert iteration (research/exit; issue 45, item 3): the search's self-play records what
the policy saw and what the search found; the targets move the prior toward
the search; learning moves the actor toward the targets; the gate's figures
and its verdict; the pools play the same deals wherever they run; a run
stopped and resumed ends where an uninterrupted one does."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from big2 import Game
from big2.bots.policy.pnet import PolicyNet
from big2.observation import card_vectors, encode_view
from research.exit.data import DealJob, Paired, Samples, empty_samples, play_deal
from research.exit.gate import KINDS, Measure, gate_jobs, summarise, wins
from research.exit.pool import InProcess, Processes, RayActors
from research.exit.run import ExItConfig, ExpertIteration, holdout_split, last_recorded_round
from research.exit.train import acceptable, fit, survivors, targets, teaching

pytestmark = pytest.mark.xdist_group("torch")  # with test_ppo.py: PyTorch loads in one worker

CHECKPOINT = Path(__file__).parents[2] / "training" / "ppo" / "checkpoint.pt"


def _net() -> PolicyNet:
    return PolicyNet.random(np.random.default_rng(3))


def _same(a: Samples, b: Samples) -> bool:
    return a.deals == b.deals and all(
        np.array_equal(getattr(a, k), getattr(b, k), equal_nan=k in ("value", "prior", "share"))
        for k in ("obs", "family", "counts", "chosen", "cards", "hints", "prior", "value", "share"))


def test_a_deal_records_each_searched_decision_as_the_policy_saw_it() -> None:
    job = DealJob("classic", "count", seed=5, index=2, budget=6)
    s = play_deal(_net(), job)
    assert s.deals == 1 and s.size > 5
    assert int(s.counts.sum()) == len(s.cards) == len(s.prior) == len(s.value) == len(s.hints)
    ends = np.cumsum(s.counts)
    for a, b, chosen in zip(ends - s.counts, ends, s.chosen):
        assert b - a >= 2  # only decisions with a choice are searched
        assert math.isclose(float(s.prior[a:b].sum()), 1.0, rel_tol=1e-5)
        tried = ~np.isnan(s.value[a:b])
        assert tried[chosen] and tried.sum() >= 2  # the play made was searched
        assert math.isclose(float(s.share[a:b].sum()), 1.0, rel_tol=1e-5)
        assert (s.share[a:b][~tried] == 0).all()
    assert _same(s, play_deal(_net(), job))  # a job gives the same samples
    assert not _same(s, play_deal(_net(), DealJob("classic", "count", 5, 3, 6)))


def test_parts_of_the_samples_make_them_up_again() -> None:
    s = play_deal(_net(), DealJob("selfplay-2018", "count", seed=4, index=1, budget=4))
    cut = s.size // 3
    a, b = s.part(0, cut), s.part(cut, s.size)
    assert (a.size, b.size) == (cut, s.size - cut)
    assert int(a.counts.sum()) == len(a.cards) and int(b.counts.sum()) == len(b.prior)
    whole = Samples.concat([a, b])
    assert all(np.array_equal(getattr(whole, k), getattr(s, k), equal_nan=True)
               for k in ("counts", "cards", "value", "share", "prior", "obs"))


def test_the_first_decision_is_the_observation_of_the_seat_to_lead() -> None:
    job = DealJob("classic", "count", seed=1, index=0, budget=4)
    s = play_deal(_net(), job)
    import random

    from big2.game import deal
    from big2.rules import Rules

    rules = Rules.preset("classic").replace(scoring="count")
    g = Game(rules, hands=deal(rules, random.Random("big2-exit:1:classic:0")))
    assert g.to_move is not None
    view = g.view(g.to_move)
    if len(view.legal) > 1:  # the leader's first decision is the first recorded
        assert np.array_equal(s.obs[0], encode_view(view))
        assert np.array_equal(s.cards[: s.counts[0]], card_vectors(list(view.legal)))


def _one(prior: list[float], value: list[float], share: list[float], chosen: int = 0,
         gap: list[float] | None = None, gap_se: list[float] | None = None) -> Samples:
    k = len(prior)
    s = empty_samples(deals=1)
    nan = [math.nan] * k
    return Samples(obs=np.zeros((1, s.obs.shape[1]), np.int8), family=np.zeros(1, np.int64),
                   counts=np.array([k]), chosen=np.array([chosen]),
                   gap=np.array(gap or nan, np.float32), gap_se=np.array(gap_se or nan, np.float32),
                   cards=np.zeros((k, 52), np.int8), hints=np.zeros((k, s.hints.shape[1]),
                                                                    np.float32),
                   prior=np.array(prior, np.float32), value=np.array(value, np.float32),
                   share=np.array(share, np.float32), deals=1)


def test_targets_share_the_tried_plays_prior_mass_by_what_the_search_found() -> None:
    s = Samples.concat([_one([0.6, 0.3, 0.1], [1.0, 2.5, math.nan], [0.5, 0.5, 0.0]),
                        _one([0.5, 0.5], [0.0, 0.0], [0.5, 0.5])])
    t = targets(s, "values", temperature=1.0, favour=1.0)
    w = np.exp([1.0 + 1.0, 2.5])  # the favourite (play 0) credited 1 point
    assert np.allclose(t[:3], [0.9 * w[0] / w.sum(), 0.9 * w[1] / w.sum(), 0.1], atol=1e-6)
    assert np.allclose(t[3:], [math.e / (math.e + 1), 1 / (math.e + 1)])  # a tie: the first favoured
    sharp = targets(s, "values", temperature=0.05, favour=0.0)
    assert sharp[1] > 0.89 and math.isclose(float(sharp[2]), 0.1, rel_tol=1e-5)
    assert np.allclose(targets(s, "shares")[:3], [0.45, 0.45, 0.1], atol=1e-6)
    with pytest.raises(ValueError, match="target"):
        targets(s, "visits")
    with pytest.raises(ValueError, match="temperature"):
        targets(s, "values", temperature=0)


def test_a_play_dropped_early_counts_as_no_better_than_the_worst_survivor() -> None:
    # play 2 was dropped after a few lucky worlds (share 0.1): its raw mean
    # (+6) would make it the target's favourite, while the survivors (share
    # 0.45 each, common worlds) say play 1 (the search's play)
    s = _one([0.5, 0.3, 0.2], [1.0, 3.0, 6.0], [0.45, 0.45, 0.1])
    t = targets(s, "values", temperature=0.25, favour=1.0)
    assert int(np.argmax(t)) == 1
    w = np.exp(np.array([1.0 + 1.0, 3.0, 1.0]) / 0.25)  # play 2 valued as the worst survivor
    assert np.allclose(t, w / w.sum(), atol=1e-6)
    assert np.array_equal(survivors(np.array([0.45, 0.45, 0.1], np.float32)), [True, True, False])
    # acceptable: a survivor within the margin of the best survivor
    three = Samples.concat([s, s, s])
    assert acceptable(three, np.array([0, 1, 2]), margin=1.0).tolist() == [False, True, False]
    assert acceptable(three, np.array([0, 1, 2]), margin=2.0).tolist() == [True, True, False]


def test_only_a_search_beyond_its_noise_moves_the_target_from_the_prior() -> None:
    nan = math.nan
    prior = [0.6, 0.3, 0.1]
    value, share = [1.0, 2.5, nan], [0.5, 0.5, 0.0]
    s = Samples.concat([
        _one(prior, value, share, chosen=1, gap=[nan, 1.5, nan], gap_se=[nan, 0.5, nan]),  # 3 SE
        _one(prior, value, share, chosen=1, gap=[nan, 1.5, nan], gap_se=[nan, 1.0, nan]),  # 1.5 SE
        _one(prior, value, share, chosen=0, gap=[nan, -0.5, nan], gap_se=[nan, 0.1, nan]),  # kept
        _one(prior, value, share, chosen=1)])  # no gap recorded (an older shard)
    assert teaching(s, 2.0).tolist() == [True, False, False, False]
    assert teaching(s, 1.0).tolist() == [True, True, False, False]
    t = targets(s, "values", temperature=1.0, favour=1.0, significance=2.0)
    assert np.allclose(t[:3], targets(s.part(0, 1), "values", 1.0, 1.0), atol=1e-6)
    assert np.allclose(t[3:], np.tile(prior, 3), atol=1e-6)  # the others: the prior itself
    with pytest.raises(ValueError, match="significance"):
        teaching(s, -1.0)


def _worlds():  # type: ignore[no-untyped-def]
    """A sampler drawing worlds 0, 1, 2 … (plain numbers: the test's evaluator reads them)."""
    worlds = iter(range(1000))

    class Draws:
        def draw(self):  # type: ignore[no-untyped-def]
            return next(worlds)

    return Draws()


def test_the_paired_gaps_are_the_mean_and_standard_error_of_the_differences() -> None:
    """:class:`Paired` wraps the evaluator: the selector's tally is unchanged, and
    each candidate's differences from the favourite on common worlds are kept."""
    import random

    from big2.bots.search.selectors import SuccessiveHalving

    # candidate c in world w is worth c + (w % 3) for c < 2 and (w % 4) - 1 for candidate 2
    def score(ws, cands):  # type: ignore[no-untyped-def]
        return [[(w % 4) - 1.0 if c == 2 else c + (w % 3) for c in cands] for w in ws]

    class Fixed:
        def start(self, view, rng):  # type: ignore[no-untyped-def]
            return score

    pair = Paired(Fixed())
    t = SuccessiveHalving(30).run([0, 1, 2], _worlds(), pair.start(None, random.Random(0)),  # type: ignore[arg-type]
                                  keep={0})
    plain = SuccessiveHalving(30).run([0, 1, 2], _worlds(), score, keep={0})
    assert t == plain
    assert t.alive[0] == 1 and 2 not in t.alive  # candidate 2 dropped after the first round
    gaps, ses = pair.gaps(t.cands)
    assert math.isnan(gaps[0]) and math.isnan(ses[0])
    assert math.isclose(gaps[1], 1.0) and math.isclose(ses[1], 0.0, abs_tol=1e-9)
    # the first round: 5 worlds for each of the 3 (15 play-outs); then 7 for the 2 kept
    assert np.allclose(t.shares, [12 / 29, 12 / 29, 5 / 29])
    d = [(w % 4) - 1.0 - (w % 3) for w in range(5)]  # candidate 2: the first 5 worlds
    assert math.isclose(gaps[2], float(np.mean(d)))
    assert math.isclose(ses[2], float(np.std(d, ddof=1) / math.sqrt(5)))


def test_the_held_out_decisions_are_the_tail_of_this_rounds_self_play() -> None:
    old = Samples.concat([_one([0.5, 0.5], [1.0, 0.0], [0.5, 0.5])] * 6)
    fresh = Samples.concat([_one([0.2, 0.3, 0.5], [0.0, 1.0, 2.0], [0.3, 0.3, 0.4])] * 4)
    learn, held = holdout_split([old], fresh, 0.2)
    assert (learn.size, held.size) == (8, 2)
    assert (held.counts == 3).all()  # from this round, not the replayed one
    assert holdout_split([old], fresh, 0.5)[1].size == 4  # never more than this round's


def test_the_next_round_follows_the_last_recorded_one(tmp_path: Path) -> None:
    path = tmp_path / "rounds.csv"
    assert last_recorded_round(path) == 0  # a new run
    path.write_text("round,kept\n1,0\n2,1\n8,0\n3,1\n")
    assert last_recorded_round(path) == 8
    path.write_text("round,kept\n")
    assert last_recorded_round(path) == 0


@pytest.mark.nightly  # a first optimiser imports torch._dynamo: seconds
def test_learning_moves_the_actor_toward_the_targets() -> None:
    import torch  # here, not at collection: every worker collects every file

    from big2.learn.ppo_model import Actor

    torch.manual_seed(0)
    actor = Actor()
    s = Samples.concat([play_deal(actor.to_numpy(), DealJob("classic", "count", 2, i, 4))
                        for i in range(1)])
    t = targets(s, "values", temperature=0.3, favour=0.0)
    for loss in ("ce", "kl"):
        a = Actor()
        a.load_state_dict(actor.state_dict())
        got = fit(a, s, t, epochs=4, minibatch=16, lr=3e-3, loss=loss)
        assert got["loss_after"] < got["loss_before"]
        assert 0.0 <= got["accept_after"] <= 1.0
        if loss == "ce":  # the cross-entropy is the forward KL and a constant
            assert got["kl_after"] < got["kl_before"]
    with pytest.raises(ValueError, match="loss"):
        fit(Actor(), s, t, loss="mse")
    with pytest.raises(ValueError, match="optimizer"):
        fit(Actor(), s, t, optimizer="rmsprop")


@pytest.mark.nightly  # torch's optimisers: seconds
def test_sgd_leaves_the_actor_where_no_decision_pulls_and_adam_does_not() -> None:
    from big2.bots.policy.pnet import WEIGHTS_DIR, load_policy
    from big2.learn.ppo_model import actor_from_numpy

    net = load_policy(WEIGHTS_DIR / "policy.npz")  # the shipped one: sure of itself
    s = play_deal(net, DealJob("classic", "count", 2, 0, 4))
    anchor = targets(s, "values", temperature=0.3, favour=0.0, significance=1e9)
    moved = {}
    for optimizer, lr in (("sgd", 1e-2), ("adam", 1e-4)):
        start, a = actor_from_numpy(net), actor_from_numpy(net)
        fit(a, s, anchor, epochs=2, minibatch=16, lr=lr, optimizer=optimizer)
        moved[optimizer] = max(float((p - q).detach().abs().max()) for p, q in
                               zip(a.parameters(), start.parameters(), strict=True))
    assert moved["sgd"] < 1e-5
    assert moved["adam"] > 5e-5  # about lr a step, with no gradient to speak of
    a = actor_from_numpy(net)
    got = fit(a, s, targets(s, "values", temperature=0.3, favour=0.0), epochs=4, minibatch=16,
              lr=1e-2, optimizer="sgd")
    assert got["loss_after"] < got["loss_before"]


def test_the_gate_pairs_the_deals_and_keeps_a_winner() -> None:
    results = {("new-vs-heuristic", "classic", 0): (8, 0, 0, 0),
               ("old-vs-heuristic", "classic", 0): (4, 0, 0, 0),
               ("new-vs-old", "classic", 0): (4, 0, 0, 0),
               ("new-vs-heuristic", "classic", 1): (0, 0, 0, 0),
               ("old-vs-heuristic", "classic", 1): (4, 0, 0, 0),
               ("new-vs-old", "classic", 1): (-2, 0, 0, 0),
               ("new-vs-heuristic", "classic", 2): (4, 0, 0, 0)}  # its pair unfinished
    f = summarise(results, ("classic",))
    assert (f["paired"].mean, f["paired"].deals) == (0.0, 2)  # (+1 and -1) / 2
    assert (f["h2h"].mean, f["h2h"].deals) == (0.25, 2)
    assert f["paired"] == f["paired/classic"]
    assert wins({"h2h": Measure(0.2, -0.5, 0.9, 100), "paired": Measure(-0.3, -0.6, 0.01, 100)})
    assert not wins({"h2h": Measure(-0.1, -0.5, 0.3, 100), "paired": Measure(1, 0.5, 1.5, 100)})
    assert not wins({"h2h": Measure(0.5, 0.1, 0.9, 100), "paired": Measure(-1, -1.5, -0.1, 100)})
    jobs = gate_jobs(("classic", "selfplay-2018"), "count", 7, 10, 100, h2h_deals=3)
    kinds = [sum(j.kind == k for j in jobs) for k in KINDS]
    assert kinds == [20, 20, 6] and len(set(jobs)) == len(jobs)
    assert gate_jobs(("classic",), "count", 7, 3, 100, h2h_deals=5)[-1].kind == "new-vs-old"


@pytest.mark.nightly  # spawning the workers costs about 2 s
def test_worker_processes_play_the_deals_this_process_plays() -> None:
    jobs = [DealJob("classic", "count", 9, i, 4) for i in range(3)]
    here = {j: s for j, s in InProcess().map(play_deal, _net(), jobs)}
    there = dict(Processes(2).map(play_deal, _net(), jobs))
    assert set(there) == set(jobs) and all(_same(here[j], there[j]) for j in jobs)


@pytest.mark.nightly  # starting Ray and a round on it: about 15 s
def test_ray_actors_play_the_deals_and_the_round_this_process_plays(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    pool = RayActors(None, workers=2, num_cpus=2)
    try:
        jobs = [DealJob("classic", "count", 9, i, 4) for i in range(3)]
        here = {j: s for j, s in InProcess().map(play_deal, _net(), jobs)}
        there = dict(pool.map(play_deal, _net(), jobs))
        assert set(there) == set(jobs) and all(_same(here[j], there[j]) for j in jobs)
        for out, p in (("ray", pool), ("here", InProcess())):
            assert "1 rounds played" in ExpertIteration(_cfg(tmp_path / out), log=lambda m: None,
                                                        pool=p).run()
        rows = [_rows(tmp_path / out) for out in ("ray", "here")]
        assert rows[0] == rows[1] and len(rows[0]) == 1
    finally:
        pool.close()
        ray.shutdown()


class _StopAfter:
    """In-process pool that asks the run to stop after *n* jobs."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.run: ExpertIteration | None = None

    def map(self, fn, shared, jobs):  # type: ignore[no-untyped-def]
        for job in jobs:
            got = fn(shared, job)
            self.n -= 1
            if self.n == 0 and self.run is not None:
                self.run.stop.append("test")
            yield job, got

    def close(self) -> None:
        pass


def _rows(out: Path) -> list[dict[str, str]]:
    """A run's rounds.csv without its timings."""
    with (out / "rounds.csv").open() as fh:
        return [{k: v for k, v in r.items() if k != "learn_s"} for r in csv.DictReader(fh)]


def _cfg(out: Path) -> ExItConfig:
    return ExItConfig(out=str(out), start=str(CHECKPOINT), families=("classic",), budget=3,
                      gate_budget=3, deals=3, gate_deals=2, gate_h2h_deals=1, rounds=1,
                      checkpoint_minutes=0.0,
                      epochs=1)


@pytest.mark.nightly  # two short runs (about 10 s)
def test_a_run_stopped_twice_and_resumed_ends_where_a_straight_one_does(tmp_path: Path) -> None:
    import torch
    straight = ExpertIteration(_cfg(tmp_path / "a"), log=lambda m: None)
    assert "1 rounds played" in straight.run()
    for cut in (2, 4, 100):  # in self-play, in the gate, then to the end
        pool = _StopAfter(cut)
        run = ExpertIteration(_cfg(tmp_path / "b"), log=lambda m: None, pool=pool)
        pool.run = run
        run.run()
    rows = [_rows(tmp_path / d) for d in "ab"]
    assert rows[0] == rows[1]
    (tmp_path / "b" / "policy.npz").unlink()  # a checkpoint alone (as the repository keeps it)
    again = ExpertIteration(_cfg(tmp_path / "b"), log=lambda m: None)
    assert again.net().meta["exit_round"] == "1"
    a = torch.load(tmp_path / "a" / "checkpoint.pt", weights_only=False)
    b = torch.load(tmp_path / "b" / "checkpoint.pt", weights_only=False)
    assert all(torch.equal(a["actor"][k], b["actor"][k]) for k in a["actor"])
    assert a["state"]["exit"]["round"] == 1 and len(rows[0]) == 1


def test_the_command_checks_its_options_before_it_starts(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from research.exit.__main__ import expert_iteration_cmd as main

    run = CliRunner().invoke(main, ["--out", str(tmp_path / "x"),
                                    "--start", str(tmp_path / "none.pt")])
    assert run.exit_code == 1 and "no checkpoint to start from" in run.output
    run = CliRunner().invoke(main, ["--out", str(tmp_path / "x"), "--temperature", "0"])
    assert run.exit_code == 2 and "--temperature" in run.output
    run = CliRunner().invoke(main, ["--target", "visits"])
    assert run.exit_code == 2 and "visits" in run.output
    assert not (tmp_path / "x").exists()
