"""Run the engine benchmarks against two source trees in one run, alternating.

Issue 12 asks for the speed of a change measured beside the commit before it:
make a worktree of that commit (``git worktree add /tmp/base <commit>``), then

    python benchmarks/side_by_side.py /tmp/base [--rounds 3] [--quick]

Each round runs ``bench_engine.py``, ``bench_wild.py`` and ``bench_big_hands.py``
(this tree's scripts, which use only APIs both trees have) once under each
tree's ``src`` (base first, then this one, then the other order next round), so
machine noise falls on both alike. Prints each figure's median per tree and the
ratio (this tree / base; for times, lower is better).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAD = HERE.parent


def run(script: str, tree: Path, args: list[str]) -> dict[str, float | None]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    out = subprocess.run([sys.executable, str(HERE / script), *args, "--json"], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, help="a checkout (worktree) of the commit to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="smaller runs (a rough look)")
    args = ap.parse_args()
    small = args.quick
    jobs = [("bench_engine.py", ["--deals", "300" if small else "1000", "--rounds", "1",
                                 "--hands", "3000" if small else "10000"]),
            ("bench_wild.py", ["--deals", "10" if small else "30", "--rounds", "1",
                               "--hands", "30" if small else "60"])]
    trees = {"base": args.base.resolve(), "this": HEAD}
    got: dict[str, dict[str, list[float | None]]] = {name: {} for name in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for script, opts in jobs:
            for name in order:
                for k, v in run(script, trees[name], opts).items():
                    got[name].setdefault(k, []).append(v)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    for name in order:
        for k, v in run("bench_big_hands.py", trees[name], ["--hands", "2", "--limit", "20"]).items():
            got[name].setdefault(k, []).append(v)
    print(f"{'figure':52} {'base':>12} {'this':>12} {'this/base':>10}")
    for key in got["this"]:
        cols = []
        for name in ("base", "this"):
            vals = got[name].get(key, [])
            cols.append(None if not vals or any(v is None for v in vals)
                        else statistics.median(v for v in vals if v is not None))
        b, t = cols
        shown = [f"{c:12,.2f}" if c is not None else f"{'hung':>12}" for c in cols]
        ratio = f"{t / b:10.2f}" if b and t else f"{'-':>10}"
        print(f"{key:52} {shown[0]} {shown[1]} {ratio}")


if __name__ == "__main__":
    main()
