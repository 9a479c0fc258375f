"""PPO training throughput: collection in the learner's process against
collector processes beside it (``train --collectors N``).

Each setting trains a fresh run (the default game mix and batch) for the same
number of iterations after one warm-up iteration, and reports environment
steps per second of wall time; the ratio is against ``--collectors 0``.
Several rounds run the settings in turn and the medians are reported (the
machine is shared and noisy). Pause any training run while this runs.

    python benchmarks/bench_ppo_collectors.py --collectors 0,1,2 --iterations 6 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from big2.learn.ppo import PPOConfig, Trainer


def throughput(collectors: int, iterations: int, threads: int) -> float:
    """Steps per second of wall time over *iterations*, after one warm-up
    iteration (processes started, the first batch in hand)."""
    with tempfile.TemporaryDirectory() as out:
        cfg = PPOConfig(out=out, eval_minutes=1e9, checkpoint_minutes=1e9, threads=threads,
                        collectors=collectors, iterations=iterations + 1)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--collectors", default="0,1,2", help="settings to compare")
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="the learner's PyTorch threads")
    args = ap.parse_args()
    settings = [int(c) for c in args.collectors.split(",")]
    got: dict[int, list[float]] = {c: [] for c in settings}
    for r in range(args.rounds):
        for c in settings:
            got[c].append(throughput(c, args.iterations, args.threads))
            print(f"round {r + 1}: --collectors {c}: {got[c][-1]:,.0f} steps/s", flush=True)
    base = statistics.median(got[settings[0]])
    print(f"\nmedians over {args.rounds} rounds, {args.iterations} iterations each:")
    for c in settings:
        med = statistics.median(got[c])
        print(f"  --collectors {c}: {med:>8,.0f} steps/s  {med / base:.2f}x")


if __name__ == "__main__":
    main()
