"""The core's PPO collector (big2.learn.ppo_native) against the NumPy one it
repeats (big2.learn.ppo_collect): for a seed, the same plays and the same samples."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from big2 import Rules
from big2.bots.policy.pfeatures import RAW_PLAY, RAW_STATE
from big2.bots.policy.pnet import FAMILIES, WEIGHTS_DIR, PolicyNet, load_policy
from big2.learn.ppo_collect import Collector
from big2.learn.ppo_native import NativeCollector, native_reason, plain_net
from big2.learn.ppo_samples import Samples

pytestmark = pytest.mark.xdist_group("torch")

def _same(ref: Samples, got: Samples, tol: float = 1e-4) -> None:
    for name in ("lengths", "families", "rewards", "counts", "pick", "hidden", "state"):
        assert np.array_equal(getattr(ref, name), getattr(got, name)), name
    assert np.array_equal(ref.plays, got.plays)  # hints included
    assert np.abs(ref.logp - got.logp).max() < tol  # the logits agree to rounding


def _mix(seed: int, opponents: tuple[str, ...] = ("heuristic", "greedy")) -> dict[str, object]:
    return {"self_play": 5, "pool": 3, "bots": 2, "opponents": opponents, "seed": seed}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_core_collects_what_numpy_collects(seed: int) -> None:
    """Both families, self-play, a past self and both fixed bots, over three calls
    (the games go on between calls): the same samples, the same counters and the
    same state of the sampling stream after each call."""
    families = {f: Rules.preset(f).replace(scoring="count") for f in FAMILIES}
    ref = Collector(families, **_mix(seed))  # type: ignore[arg-type]
    got = NativeCollector(families, **_mix(seed))  # type: ignore[arg-type]
    nets = [PolicyNet.random(np.random.default_rng(seed * 10 + k)) for k in range(3)]
    for net, rival in ((nets[0], nets[1]), (nets[0], None), (nets[2], nets[0])):
        a = Samples.from_trajectories(ref.collect(net, rival, 250))
        b = got.collect(net, rival, 250)
        assert a.size >= 250
        _same(a, b)
        assert (ref.steps, ref.deals) == (got.steps, got.deals)
        assert ref.rng.bit_generator.state == got.rng.bit_generator.state


@pytest.mark.parametrize("seed", [0, 1])
def test_a_plain_run_collects_without_the_engineered_inputs(seed: int) -> None:
    """The plain encoding's collection (``plain=True``) skips the engineered inputs
    and the hints: the core's equals NumPy's with those inputs zeroed, and it plays
    exactly what the full collection plays with the same networks, which give the
    skipped inputs no weight."""
    families = {f: Rules.preset(f).replace(scoring="count") for f in FAMILIES}
    ref = Collector(families, **_mix(seed), plain=True)  # type: ignore[arg-type]
    got = NativeCollector(families, **_mix(seed), plain=True)  # type: ignore[arg-type]
    full = NativeCollector(families, **_mix(seed))  # type: ignore[arg-type]
    nets = [plain_net(PolicyNet.random(np.random.default_rng(seed * 10 + k))) for k in range(2)]
    for net, rival in ((nets[0], nets[1]), (nets[1], None)):
        a = Samples.from_trajectories(ref.collect(net, rival, 250)).plain()
        b = got.collect(net, rival, 250)
        c = full.collect(net, rival, 250)
        _same(a, b)
        assert not b.state[:, RAW_STATE:].any() and not b.plays[:, RAW_PLAY:].any()
        assert c.plays[:, RAW_PLAY:].any()  # computed when not plain, and unread
        _same(c.plain(), b)
        assert np.array_equal(c.logp, b.logp)  # the same log-probabilities, bit for bit
        assert got.rng.bit_generator.state == full.rng.bit_generator.state
    with pytest.raises(ValueError, match="zero weights on the engineered inputs"):
        got.collect(PolicyNet.random(np.random.default_rng(5)), None, 10)


def test_the_shipped_policy_collects_the_same() -> None:
    """The trained network on the default mix's kinds of games: its logits reach
    about 1,300, where float32 rounding is 1e-4, so the log-probabilities agree
    to 1e-3."""
    net = load_policy(WEIGHTS_DIR / "policy.npz")
    families = {"classic": Rules.preset("classic").replace(scoring="count")}
    ref = Collector(families, **_mix(7, ("heuristic",)))  # type: ignore[arg-type]
    got = NativeCollector(families, **_mix(7, ("heuristic",)))  # type: ignore[arg-type]
    _same(Samples.from_trajectories(ref.collect(net, None, 400)), got.collect(net, None, 400),
          tol=1e-3)


def test_what_the_core_cannot_collect_is_named() -> None:
    classic = {"classic": Rules.preset("classic")}
    assert native_reason(classic, ("heuristic", "greedy")) is None
    assert "random" in str(native_reason(classic, ("random",)))
    with pytest.raises(ValueError, match="random"):
        NativeCollector(classic, self_play=1, pool=0, bots=1, opponents=("random",), seed=0)


def test_a_run_learns_the_same_from_either_collector(tmp_path: Path) -> None:
    """Two iterations of a small run from one seed, collected in the core and in
    NumPy: the same counters and, the samples being the same, the same weights to
    rounding (the log-probabilities agree to rounding)."""
    import torch

    from big2.learn.ppo import PPOConfig, Trainer

    runs = []
    for kind in ("native", "python"):
        cfg = PPOConfig(out=str(tmp_path / kind), batch=200, minibatch=100, epochs=2,
                        self_play=6, pool=2, bots=2, opponents=("heuristic", "greedy"),
                        eval_minutes=1e9, threads=1, snapshot_every=1, iterations=3,
                        collector=kind)
        t = Trainer(cfg, log=lambda m: None)
        t.run()
        runs.append(t)
    a, b = runs
    for key in ("iteration", "steps", "deals", "samples"):
        assert a.state[key] == b.state[key] > 0, key
    assert a.rng.bit_generator.state == b.rng.bit_generator.state
    for x, y in ((a.actor, b.actor), (a.critic, b.critic)):
        for (k, v), (_, w) in zip(x.state_dict().items(), y.state_dict().items()):
            assert torch.allclose(v, w, atol=1e-4), k


def test_collecting_with_new_networks_keeps_none_of_them() -> None:
    """A run hands the collector a new network every iteration: none is kept
    after its call (each once added about 2 MB to a run, for good)."""
    import gc
    import weakref

    families = {"classic": Rules.preset("classic")}
    got = NativeCollector(families, **_mix(3, ("greedy",)))  # type: ignore[arg-type]
    refs = []
    for k in range(3):
        net, rival = (PolicyNet.random(np.random.default_rng(k + j)) for j in (0, 10))
        got.collect(net, rival, 20)
        refs += [weakref.ref(net), weakref.ref(rival)]
        del net, rival
    gc.collect()
    assert all(r() is None for r in refs)


def test_a_mix_the_core_cannot_play_is_collected_in_numpy_and_the_log_says_why() -> None:
    from big2.learn.ppo import PPOConfig, make_collector, uses_native

    said: list[str] = []
    cfg = PPOConfig(out="unused", self_play=2, pool=0, bots=1, opponents=("random",))
    assert not uses_native(cfg, said.append)
    assert "random" in said[0]
    assert isinstance(make_collector(cfg, 0, said.append), Collector)
    assert isinstance(make_collector(PPOConfig(out="unused", self_play=2, pool=0, bots=0), 0),
                      NativeCollector)
    assert not uses_native(PPOConfig(out="unused", collector="python"))
    with pytest.raises(ValueError, match="native"):
        uses_native(PPOConfig(out="unused", collector="gpu"))
