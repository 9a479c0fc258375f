"""The Deep Monte-Carlo trainer (big2.learn.dmc): its targets are each seat's final
score; a run stopped at a checkpoint and resumed learns exactly what an
uninterrupted one does; a run refuses another kind's checkpoint; the slim file is
small, plays as the full checkpoint does, and resumes with Adam afresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from big2.bots.policy.dmc import FEATURES, SCORE_SCALE, DMCBot, QNet, load_qnet
from big2.learn.dmc import DMCConfig, DMCTrainer
from big2.learn.dmc_collect import CollectorProcesses, DMCCollector
from big2.rules import Rules

pytestmark = pytest.mark.xdist_group("torch")
"""One worker runs the tests that train (PyTorch's import costs each process seconds)."""


def import_torch() -> Any:
    """PyTorch, imported by the tests that use it (the training extra)."""
    return pytest.importorskip("torch")


def small(out: Path, **kw: object) -> DMCConfig:
    opts: dict[str, object] = {"out": str(out), "games": 6, "minibatch": 64, "threads": 1,
                               "hidden": (32, 16), "eval_minutes": 1e9, "iterations": 2,
                               "final_eval": False, "epsilon": 0.2, "collectors": 0}
    opts.update(kw)
    return DMCConfig(**opts)  # type: ignore[arg-type]


def test_every_decision_is_labelled_with_its_seats_final_score() -> None:
    """Each game plays one whole deal an iteration; the targets are the deal's scores."""
    net = QNet.random(np.random.default_rng(0), hidden=(8,))
    c = DMCCollector({"classic": Rules.preset("classic")}, games=4, seed=3)
    b = c.collect(net, 0.1, iteration=0)
    assert b.x.shape == (b.steps, FEATURES) and b.x.dtype == np.int8 and b.deals == 4
    scores = b.y * SCORE_SCALE
    assert np.allclose(scores, np.round(scores), atol=1e-4)  # whole points
    assert abs(float(scores.sum())) > 0
    again = DMCCollector({"classic": Rules.preset("classic")}, games=4, seed=3)
    b2 = again.collect(net, 0.1, iteration=0)
    assert np.array_equal(b.x, b2.x) and np.array_equal(b.y, b2.y)  # a seed repeats
    b3 = again.collect(net, 0.1, iteration=1)
    assert not np.array_equal(b.x[:50], b3.x[:50])  # another iteration, other deals
    split = DMCCollector({"classic": Rules.preset("classic")}, games=4, seed=3, shards=2)
    b4 = split.collect(net, 0.1, iteration=0)
    assert b4.deals == 4 and not np.array_equal(b.x[:50], b4.x[:50])  # two shares' deals
    with pytest.raises(ValueError, match="shards must be 1 to games"):
        DMCCollector({"classic": Rules.preset("classic")}, games=2, seed=3, shards=3)


def test_the_win_reward_is_one_for_the_seat_that_went_out() -> None:
    """``reward="win"``: the same decisions as ``score``, each labelled 1 where its seat
    won the deal (the one seat whose count score is positive) and -1/3 where not."""
    net = QNet.random(np.random.default_rng(4), hidden=(8,))
    rules = {"classic": Rules.preset("classic").replace(scoring="count")}
    score = DMCCollector(rules, games=5, seed=2).collect(net, 0.2, iteration=3)
    win = DMCCollector(rules, games=5, seed=2, reward="win").collect(net, 0.2, iteration=3)
    assert np.array_equal(score.x, win.x)
    assert np.array_equal(win.y, np.where(score.y > 0, np.float32(1), np.float32(-1 / 3)))
    assert 0 < (win.y == 1).sum() < len(win.y)
    with pytest.raises(ValueError, match="reward is 'score' or 'win'"):
        DMCCollector(rules, games=1, seed=0, reward="draw")  # type: ignore[arg-type]


@pytest.mark.parametrize(("processes", "shards"), [(1, 1), (3, 1), (3, 2)])
def test_collector_processes_play_what_the_collector_plays(processes: int, shards: int) -> None:
    """Processes make, for the same network and iteration, the same batch as the
    collector here (one a share of play at most); an error there is raised here;
    close ends them."""
    families = {"classic": Rules.preset("classic"), "selfplay-2018": Rules.preset("selfplay-2018")}
    net = QNet.random(np.random.default_rng(2), hidden=(16,))
    here = DMCCollector(families, games=3, seed=7, shards=shards)
    there = CollectorProcesses(families, games=3, seed=7, processes=processes, shards=shards)
    assert there.processes == min(processes, 2 * shards)
    try:
        for it in (0, 5):
            there.submit(net, 0.3, it)
            with pytest.raises(RuntimeError, match="again before result"):
                there.submit(net, 0.3, it)
            got, want = there.result(), here.collect(net, 0.3, it)
            assert got.steps == want.steps > 0 and got.deals == want.deals == 6
            assert np.array_equal(got.x, want.x) and np.array_equal(got.y, want.y)
        there.submit(QNet.random(np.random.default_rng(2), hidden=(16,)), 0.3, -1)
        with pytest.raises(RuntimeError, match="collector process failed"):
            there.result()  # a negative seed, refused there
        there.submit(net, 0.3, 1)
        assert there.result().steps > 0  # and it goes on
    finally:
        there.close()
    assert not any(p.is_alive() for p in there._procs)


def test_a_run_resumes_exactly(tmp_path: Path) -> None:
    """Two iterations, a checkpoint, two more: what four uninterrupted iterations make,
    whether the deals are played in a second process or here."""
    torch = import_torch()
    whole = DMCTrainer(small(tmp_path / "whole", iterations=4), log=lambda m: None)
    whole.run()
    first = DMCTrainer(small(tmp_path / "split", collectors=2), log=lambda m: None)
    first.run()
    assert first.state["cpu"] > first._collectors_cpu > 0  # the collectors' CPU counts
    assert (tmp_path / "split" / "checkpoint.pt").exists()
    logged: list[str] = []
    second = DMCTrainer(small(tmp_path / "split"), log=logged.append)
    assert second.state["iteration"] == 2 and any("resumed" in m for m in logged)
    second.run()
    for (k, a), (_, b) in zip(whole.model.state_dict().items(),
                              second.model.state_dict().items()):
        assert torch.equal(a, b), k
    for key in ("iteration", "steps", "deals"):
        assert whole.state[key] == second.state[key] > 0
    assert whole.rng.bit_generator.state == second.rng.bit_generator.state


def test_a_checkpoint_of_another_kind_is_refused(tmp_path: Path) -> None:
    torch = import_torch()
    from big2.learn.ppo import PPOConfig, Trainer

    ppo = tmp_path / "ppo"
    ppo.mkdir()
    torch.save({"actor": {}, "critic": {}, "state": {}, "config": {}}, ppo / "checkpoint.pt")
    with pytest.raises(ValueError, match="PPO run's checkpoint, not a DMC one"):
        DMCTrainer(small(ppo), log=lambda m: None)
    DMCTrainer(small(tmp_path / "dmc", iterations=1), log=lambda m: None).run()
    with pytest.raises(ValueError, match="DMC run's checkpoint, not a PPO one"):
        Trainer(PPOConfig(out=str(tmp_path / "dmc"), threads=1), log=lambda m: None)
    with pytest.raises(ValueError, match="a run keeps its network"):
        DMCTrainer(small(tmp_path / "dmc", hidden=(16,)), log=lambda m: None)
    with pytest.raises(ValueError, match="a run keeps its reward"):
        DMCTrainer(small(tmp_path / "dmc", reward="win"), log=lambda m: None)
    with pytest.raises(ValueError, match="precision is 'auto', 'fp32' or 'bf16'"):
        DMCTrainer(small(tmp_path / "other", precision="float32"), log=lambda m: None)


def test_the_slim_file_plays_as_the_checkpoint_and_resumes(tmp_path: Path) -> None:
    torch = import_torch()
    from bot_games import random_positions

    from big2.learn.__main__ import main

    run = tmp_path / "run"
    t = DMCTrainer(small(run, hidden=(512, 256, 256)), log=lambda m: None)
    t.run()
    slim = tmp_path / "slim.npz"
    res = CliRunner().invoke(main, ["slim", str(run / "checkpoint.pt"), str(slim)])
    assert res.exit_code == 0, res.output
    assert slim.stat().st_size <= 3_000_000 < (run / "checkpoint.pt").stat().st_size
    full, small_net = load_qnet(run / "checkpoint.pt"), load_qnet(slim)
    assert small_net.meta["steps"] == str(t.state["steps"])
    a, b = DMCBot(seed=0, weights=full), DMCBot(seed=0, weights=str(slim))
    for g in random_positions(20, seed=9):
        view = g.view(g.to_move)
        assert a.choose(view) == b.choose(view)
        assert np.array_equal(a.values(view), b.values(view))
    again_dir = tmp_path / "again"
    again_dir.mkdir()
    slim.replace(again_dir / "checkpoint.npz")
    logged: list[str] = []
    again = DMCTrainer(small(again_dir, hidden=(512, 256, 256)), log=logged.append)
    assert any("Adam starts afresh" in m for m in logged)
    for (k, x), (_, y) in zip(t.model.state_dict().items(), again.model.state_dict().items()):
        assert torch.equal(x, y), k
    assert again.rng.bit_generator.state == t.rng.bit_generator.state
    again.run()
    assert again.state["iteration"] == 4


def test_the_command_trains_and_evaluates(tmp_path: Path) -> None:
    import_torch()
    from big2.learn.__main__ import main

    out = tmp_path / "cli"
    args = ["train-dmc", "--out", str(out), "--hours", "0.0003", "--games", "4",
            "--hidden", "16", "--threads", "1", "--eval-deals", "4",
            "--eval-opponents", "random", "--families", "classic"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    log = (out / "log.csv").read_text().splitlines()
    assert log[0].split(",") == ["wall_s", "iteration", "steps", "deals", "family", "opponent",
                                 "points", "ci95", "win_rate"]
    assert [row.split(",")[4:6] for row in log[1:]][-1] == ["classic", "random"]
    bad = CliRunner().invoke(main, [*args, "--hidden", "32"])
    assert bad.exit_code == 1 and "a run keeps its network" in bad.output


def test_the_committed_run_is_slim_and_plays() -> None:
    """training/dmc (issue 53's league agent in training): a slim ``.npz`` within 3 MB,
    its provenance, and a bot that plays it (no PyTorch needed)."""
    from big2 import Game

    path = Path(__file__).resolve().parents[2] / "training" / "dmc" / "checkpoint.npz"
    assert path.stat().st_size <= 3_000_000
    net = load_qnet(path)
    assert int(net.meta["steps"]) > 5_000_000 and net.meta["families"] == "classic,selfplay-2018"
    g = Game(seed=3)
    seat = g.to_move
    assert seat is not None
    play = DMCBot(weights=str(path), seed=0).choose(g.view(seat))
    assert play in g.legal_masks()


@pytest.mark.nightly
def test_the_gpu_burst_script_resumes_a_run_and_hands_it_back(tmp_path: Path) -> None:
    """scripts/gpu-burst-dmc.sh, on the CPU here (as on a lent GPU machine, but for
    the device and the build): the run goes on from its checkpoint and comes back
    as a checkpoint, a slim file and its records, in $OUT."""
    import os
    import subprocess
    import sys

    import_torch()
    root = Path(__file__).resolve().parents[2]
    script = root / "scripts" / "gpu-burst-dmc.sh"
    run = tmp_path / "run"
    DMCTrainer(small(run, families=("classic",)), log=lambda m: None).run()
    (run / "log.csv").write_text("wall_s\n")  # what a run's records hold is not read
    (run / "stats.csv").write_text("iteration\n")
    before = int(load_qnet(run / "checkpoint.pt").meta["steps"])
    env = {**os.environ, "BIG2_BURST_INSTALL": "0", "BIG2_BURST_DEVICE": "cpu",
           "PYTHON": sys.executable, "OUT": str(tmp_path / "out")}
    args = ["--hidden", "32,16", "--families", "classic", "--eval-deals", "2",
            "--eval-opponents", "random"]
    done = subprocess.run(["sh", str(script), str(run), "0.03", *args], check=False, env=env,
                          cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == ["checkpoint.npz", "checkpoint.pt",
                                                     "log.csv", "stats.csv"]
    assert int(load_qnet(out / "checkpoint.npz").meta["steps"]) > before
    assert int(load_qnet(out / "checkpoint.pt").meta["steps"]) > before
    bad = subprocess.run(["sh", str(script), str(tmp_path / "none"), "1"], check=False,
                         env=env, cwd=root, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "holds no checkpoint" in bad.stderr
