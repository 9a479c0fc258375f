"""PPO's collectors on Ray actors (big2.learn.ppo_ray), on a local instance of two CPUs:
each actor collects what a collector of its seed collects here, and a run trains on them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import ray

from big2 import Rules
from big2.bots.policy.pnet import PolicyNet
from big2.learn.ppo import PPOConfig, Trainer
from big2.learn.ppo_native import NativeCollector
from big2.learn.ppo_ray import RayCollectors
from big2.learn.ppo_samples import Samples

pytestmark = pytest.mark.xdist_group("torch")


@pytest.mark.nightly  # starting Ray and its actors: about 15 s
def test_ray_actors_collect_what_collectors_here_collect_and_a_run_trains_on_them(
        tmp_path: Path) -> None:
    families = {"classic": Rules.preset("classic").replace(scoring="count")}
    opts: dict[str, object] = {"self_play": 4, "pool": 2, "bots": 1, "opponents": ("heuristic",)}
    actors = RayCollectors(2, families, opts, seed=5, native=True, num_cpus=2)
    try:
        net = PolicyNet.random(np.random.default_rng(1))
        actors.request(net, None, 200)
        assert actors.waiting
        got, steps, deals, cpu = actors.receive()
        here = [NativeCollector(families, seed=5 * 1_009 + k, **opts)  # type: ignore[arg-type]
                for k in range(2)]
        want = Samples.concat([c.collect(net, None, 100) for c in here])
        for name in ("state", "hidden", "plays", "counts", "pick", "logp", "lengths", "rewards",
                     "families"):
            assert np.array_equal(getattr(got, name), getattr(want, name)), name
        assert (steps, deals) == (sum(c.steps for c in here), sum(c.deals for c in here))
        assert cpu > 0
        actors.close()
        cfg = PPOConfig(out=str(tmp_path / "run"), batch=128, minibatch=64, epochs=1,
                        self_play=4, pool=1, bots=1, opponents=("greedy",), eval_minutes=1e9,
                        threads=1, iterations=2, collectors=2, ray="local")
        t = Trainer(cfg, log=lambda m: None)
        t.run()
        st = t.state
        assert st["iteration"] == 2 and st["samples"] >= 2 * cfg.batch and st["deals"] > 0
        assert t.worker_cpu > 0
    finally:
        actors.close()
        ray.shutdown()
