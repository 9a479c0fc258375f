"""DMC training throughput (``python -m big2.learn train-dmc``): the next
iteration's deals played in N collector processes while the learner updates
(``--collectors N``, 2 by default) against both in turn in one process
(``--collectors 0``), the update's products in float32 or bfloat16
(``--precision``). A setting is the number of collector processes, then
``:fp32`` or ``:bf16``.

Each setting trains a fresh run with the default network and games (512, 256,
256; 64 deals of each family an iteration) for ``--iterations`` iterations after
two warm-up iterations, and reports environment steps (decisions) per second of
wall time end to end, with the medians of an iteration's collection and update
seconds. Several rounds run the settings in turn and the medians are reported,
with each one's ratio to the first (the machine is shared and noisy). Pause any
training run while this runs: the pipeline needs both cores.

    python benchmarks/bench_dmc.py --iterations 30 --rounds 3 \
        --settings 0:fp32,1:fp32,1:bf16,2:bf16
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from big2.learn.dmc import DMCConfig, DMCTrainer

PRECISIONS = ("fp32", "bf16")


def run(setting: str, iterations: int) -> tuple[float, float, float]:
    """End-to-end steps per second over *iterations* (after two warm-up ones), and
    the median collection and update seconds of an iteration."""
    with tempfile.TemporaryDirectory() as out:
        collectors, _, precision = setting.partition(":")
        cfg = DMCConfig(out=out, eval_minutes=1e9, checkpoint_minutes=1e9, final_eval=False,
                        iterations=iterations + 2, collectors=int(collectors),
                        precision="bf16" if precision == "bf16" else "fp32")
        t = DMCTrainer(cfg, log=lambda m: None)
        marks: list[tuple[float, int]] = []
        collect: list[float] = []
        update: list[float] = []
        record = t._stats

        def stamp(stats: dict[str, float]) -> None:
            marks.append((time.perf_counter(), t.state["steps"]))
            collect.append(stats["collect_s"])
            update.append(stats["update_s"])
            record(stats)

        t._stats = stamp  # type: ignore[method-assign]
        t.run()
        (t0, s0), (t1, s1) = marks[1], marks[-1]
        return ((s1 - s0) / (t1 - t0), statistics.median(collect[2:]),
                statistics.median(update[2:]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--settings", default="0:fp32,1:fp32,1:bf16,2:bf16",
                    help="comma-separated collector processes:precision")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    settings = [s for s in args.settings.split(",") if s]
    for s in settings:
        n, _, precision = s.partition(":")
        if not n.isdigit() or precision not in PRECISIONS:
            raise SystemExit(f"a setting is N:fp32 or N:bf16, not {s!r}")
    got: dict[str, list[tuple[float, float, float]]] = {s: [] for s in settings}
    for r in range(args.rounds):
        for s in settings:
            got[s].append(run(s, args.iterations))
            rate, c, u = got[s][-1]
            print(f"round {r + 1}: {s}: {rate:,.0f} steps/s (collect {c:.3f} s, "
                  f"update {u:.3f} s an iteration)", flush=True)
    print(f"\nmedians over {args.rounds} rounds of {args.iterations} iterations:")
    base = statistics.median(x[0] for x in got[settings[0]])
    for s in settings:
        rate = statistics.median(x[0] for x in got[s])
        c = statistics.median(x[1] for x in got[s])
        u = statistics.median(x[2] for x in got[s])
        print(f"  {s:>17}: {rate:>8,.0f} steps/s  {rate / base:.2f}x   "
              f"collect {c:.3f} s, update {u:.3f} s an iteration")


if __name__ == "__main__":
    main()
