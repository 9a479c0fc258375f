"""The NumPy batch API against the poker core's plain C++ loop, side by side (issue 43).

Builds ``poker_core_loop.cpp`` (the core's ``poker.hpp`` in a plain loop: no
checks, cards straight from the rows) with the compiled core's own flags (``-O3``,
the same instruction-set clones, or ``-march`` of a ``BIG2_NATIVE_MARCH`` build, as
``big2._native.build_info()`` reports), writes the same random hands to a file, and
times, round after round, the C++ loop over them and ``evaluate5_batch`` /
``evaluate7_batch`` from Python on the same hands, as a uint8 array and as an int64
one (the C++ loop then reads the same int64 rows), each with a new output array a
call and with ``out=`` (one reused array).  All must give the same values (their
sums are compared).  Prints the median rate of each and the ratio batch / plain
loop (issue 43's target: ≥ 85%).  Every figure is CPU time of one thread.

    .venv/bin/python benchmarks/bench_poker_batch.py [--hands 4000000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from big2 import _native
from big2.poker import evaluate5_batch, evaluate7_batch

HERE = Path(__file__).resolve().parent
NATIVE = HERE.parent / "src" / "native"


def build(out: Path) -> list[str]:
    """Compile the plain loop like the core (CMakeLists.txt); returns the flags used."""
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or "c++"
    info = _native.build_info()
    flags = ["-O3", "-std=c++17", f"-I{NATIVE}"]
    if info["march"]:
        flags += [f"-march={info['march']}", "-DBIG2_NO_CLONES"]
    subprocess.run([cxx, *flags, str(HERE / "poker_core_loop.cpp"), "-o", str(out)], check=True)
    return flags


def core_loop(exe: Path, width: int, path: Path, repeats: int, wide: bool) -> tuple[float, int]:
    """Median CPU seconds of the plain loop over the file (its rows as uint8, or as int64
    with *wide*), and its checksum."""
    extra = ["int64"] if wide else []
    out = subprocess.run([str(exe), str(width), str(path), str(repeats), *extra], check=True,
                         capture_output=True, text=True).stdout.split("\n")
    runs = [line.split() for line in out if line.strip()]
    return statistics.median(float(t) for t, _ in runs), int(runs[-1][1])


def batch(f: object, hands: np.ndarray, repeats: int) -> tuple[float, int]:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        values = f(hands)  # type: ignore[operator]
        times.append(time.process_time() - start)
    return statistics.median(times), int(values.sum(dtype=np.int64))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3, help="passes per round (median)")
    args = ap.parse_args()
    print(f"core: {_native.build_info()}")
    rng = np.random.default_rng(43)
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "poker_core_loop"
        print("plain loop built with:", " ".join(build(exe)))
        rows: dict[str, list[float]] = {}
        for width, f in ((5, evaluate5_batch), (7, evaluate7_batch)):
            hands = np.argsort(rng.random((args.hands, 52), dtype=np.float32),
                               axis=1)[:, :width].astype(np.uint8)
            wide = hands.astype(np.int64)
            path = Path(tmp) / f"hands{width}.bin"
            hands.tofile(path)
            f(hands[:100])  # tables built before timing
            out = np.empty(args.hands, np.int32)
            for _ in range(args.rounds):
                sums = []
                for dtype, arr in (("uint8", hands), ("int64", wide)):
                    t, s = core_loop(exe, width, path, args.repeats, dtype == "int64")
                    rows.setdefault(f"{width} {dtype} plain C++ loop", []).append(args.hands / t)
                    sums.append(s)
                    t, s = batch(f, arr, args.repeats)
                    rows.setdefault(f"{width} {dtype} evaluate{width}_batch(hands)",
                                    []).append(args.hands / t)
                    sums.append(s)
                    t, s = batch(lambda a, f=f, out=out: f(a, out=out), arr, args.repeats)
                    rows.setdefault(f"{width} {dtype} evaluate{width}_batch(hands, out=)",
                                    []).append(args.hands / t)
                    sums.append(s)
                if len(set(sums)) != 1:
                    raise SystemExit(f"values differ: {sums}")
    print(f"{args.hands:,} random hands, median of {args.rounds} rounds "
          f"(each the median of {args.repeats} passes), CPU time")
    print(f"{'cards':8}{'loop':40}{'M hands/s':>12}{'vs plain loop':>15}")
    for width in (5, 7):
        for dtype in ("uint8", "int64"):
            plain = statistics.median(rows[f"{width} {dtype} plain C++ loop"])
            for key in ("plain C++ loop", f"evaluate{width}_batch(hands)",
                        f"evaluate{width}_batch(hands, out=)"):
                rate = statistics.median(rows[f"{width} {dtype} {key}"])
                print(f"{width} {dtype:6}{key:40}{rate / 1e6:12.1f}{rate / plain:14.0%}")


if __name__ == "__main__":
    main()
