"""PPO training throughput: the core's collector against NumPy's, in the
learner's process or in collector processes beside it.

Two measures, side by side for each collector kind:

* **end to end**: each setting trains a fresh run (the default game mix and
  batch) for ``--iterations`` iterations after one warm-up iteration, and
  reports environment steps per second of wall time. A setting is a
  collector kind (``native``: :mod:`big2.learn.ppo_native`, ``python``:
  :mod:`big2.learn.ppo_collect`), optionally ``+N`` collector processes
  (``train --collectors N``);
* **collection alone**: a collector of each kind plays batches of the
  default mix with the shipped policy (after one warm-up batch), and reports
  steps per second of wall time and per second of its own CPU time (one
  thread, BLAS on one thread); ``native-plain`` is the plain encoding's
  collection (``train --features plain``: neither the engineered inputs nor the
  hints computed), the shipped policy's weights on them zeroed.

Several rounds run the settings in turn and the medians are reported, with
each one's ratio to the first setting (the machine is shared and noisy).
Pause any training run while this runs.

    python benchmarks/bench_ppo_collectors.py --settings python,native,python+1,native+1 \\
        --iterations 4 --rounds 2 --batches 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from threadpoolctl import threadpool_limits

from big2.bots.policy.pnet import WEIGHTS_DIR, load_policy
from big2.learn.ppo import PPOConfig, Trainer, collector_options
from big2.learn.ppo_collect import Collector
from big2.learn.ppo_native import NativeCollector, plain_net


def parse(setting: str) -> tuple[str, int]:
    """``"native+1"`` -> ``("native", 1)``."""
    kind, _, workers = setting.partition("+")
    if kind not in ("native", "python"):
        raise SystemExit(f"a setting is native or python, then +N: not {setting!r}")
    return kind, int(workers or 0)


def throughput(setting: str, iterations: int, threads: int) -> float:
    """Steps per second of wall time over *iterations*, after one warm-up
    iteration (processes started, the first batch in hand)."""
    kind, workers = parse(setting)
    with tempfile.TemporaryDirectory() as out:
        cfg = PPOConfig(out=out, eval_minutes=1e9, checkpoint_minutes=1e9, threads=threads,
                        collectors=workers, collector=kind, iterations=iterations + 1)
        t = Trainer(cfg, log=lambda m: None)
        marks: list[tuple[float, int]] = []
        record = t._stats

        def stamp(stats: dict[str, float]) -> None:
            marks.append((time.perf_counter(), t.state["steps"]))
            record(stats)

        t._stats = stamp  # type: ignore[method-assign]
        t.run()
        (t0, s0), (t1, s1) = marks[0], marks[-1]
        return (s1 - s0) / (t1 - t0)


def collection(kind: str, batches: int, batch: int) -> tuple[float, float]:
    """Steps per second of wall time and of CPU time of *batches* batches of the
    default mix played by a collector of *kind* (``python``, ``native``, either with
    ``-plain``: the plain encoding's collection, the shipped policy held to it) with
    the shipped policy."""
    name, _, plain = kind.partition("-")
    cfg = PPOConfig(out="unused", features="plain" if plain else "full")
    net = load_policy(WEIGHTS_DIR / "policy.npz")
    if plain:
        net = plain_net(net)
    make = NativeCollector if name == "native" else Collector
    c = make(cfg.rules(), seed=1, **collector_options(cfg))
    with threadpool_limits(1, user_api="blas"):
        c.collect(net, None, batch)
        s0, w0, c0 = c.steps, time.perf_counter(), time.process_time()
        for _ in range(batches):
            c.collect(net, None, batch)
        steps = c.steps - s0
        return steps / (time.perf_counter() - w0), steps / (time.process_time() - c0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--settings", default="python,native,python+1,native+1",
                    help="end-to-end settings to compare (kind[+collector processes]); "
                         "empty: none")
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="the learner's PyTorch threads")
    ap.add_argument("--batches", type=int, default=3,
                    help="batches of collection alone per kind and round (0: none)")
    ap.add_argument("--batch", type=int, default=8192, help="decisions a batch")
    ap.add_argument("--alone", default="python,native,native-plain",
                    help="collectors measured alone (native or python, -plain: the plain "
                         "encoding's collection)")
    args = ap.parse_args()
    settings = [s for s in args.settings.split(",") if s]
    for s in settings:
        parse(s)
    kinds = tuple(k for k in args.alone.split(",") if k) if args.batches else ()
    for k in kinds:
        if k.partition("-")[0] not in ("native", "python") or k.partition("-")[2] not in ("", "plain"):
            raise SystemExit(f"a collector is native or python, then -plain or not: not {k!r}")
    got: dict[str, list[float]] = {s: [] for s in settings}
    alone: dict[str, list[tuple[float, float]]] = {k: [] for k in kinds}
    for r in range(args.rounds):
        for k in kinds:
            alone[k].append(collection(k, args.batches, args.batch))
            wall, cpu = alone[k][-1]
            print(f"round {r + 1}: collection alone, {k}: {wall:,.0f} steps/s "
                  f"({cpu:,.0f} per CPU second)", flush=True)
        for s in settings:
            got[s].append(throughput(s, args.iterations, args.threads))
            print(f"round {r + 1}: end to end, {s}: {got[s][-1]:,.0f} steps/s", flush=True)
    if kinds:
        print(f"\ncollection alone, medians over {args.rounds} rounds of {args.batches} "
              f"batches of {args.batch:,}:")
        base_w = statistics.median(w for w, _ in alone[kinds[0]])
        base_c = statistics.median(c for _, c in alone[kinds[0]])
        for k in kinds:
            w = statistics.median(x for x, _ in alone[k])
            c = statistics.median(y for _, y in alone[k])
            print(f"  {k:>12}: {w:>9,.0f} steps/s {w / base_w:5.2f}x   "
                  f"{c:>9,.0f} per CPU second {c / base_c:5.2f}x")
    if settings:
        print(f"\nend to end, medians over {args.rounds} rounds of {args.iterations} iterations "
              f"(learner on {args.threads} PyTorch thread(s)):")
        base = statistics.median(got[settings[0]])
        for s in settings:
            med = statistics.median(got[s])
            print(f"  {s:>10}: {med:>8,.0f} steps/s  {med / base:.2f}x")


if __name__ == "__main__":
    main()
