"""Two builds of the compiled core measured in one run, alternating (issue 43).

The build flags change the compiled core, not the Python, so the "before" needs its
own environment with its own ``big2._native``: export the commit to compare with
and install it into a scratch virtual environment, then

    git archive <commit> | (mkdir -p /tmp/base && tar -x -C /tmp/base)
    python3 -m venv /tmp/base-venv && /tmp/base-venv/bin/pip install -e /tmp/base
    .venv/bin/python benchmarks/side_by_side_builds.py /tmp/base-venv/bin/python \\
        [--rounds 3] [--quick]

Each round runs ``build_probe.py`` (this tree's, which uses only APIs both trees
have) once under each interpreter, base first, then the other order the next
round, so machine noise falls on both alike.  Prints each figure's median per
build and the ratio this/base (for times, lower is better).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def probe(python: str, quick: bool) -> dict[str, float]:
    cmd = [python, str(HERE / "build_probe.py")] + (["--quick"] if quick else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=HERE)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base_python", help="the interpreter of the environment holding the base build")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="smaller runs (a rough look)")
    args = ap.parse_args()
    pythons = {"base": args.base_python, "this": sys.executable}
    for name, py in pythons.items():
        info = subprocess.run([py, "-c", ("from big2 import _native as n; "
                               "print(n.build_info() if hasattr(n, 'build_info') else "
                               "'no build_info')")], check=False, capture_output=True, text=True,
                              cwd=HERE)
        print(f"{name}: {py}: {info.stdout.strip() or info.stderr.strip()[-200:]}")
    got: dict[str, dict[str, list[float]]] = {name: {} for name in pythons}
    for r in range(args.rounds):
        order = list(pythons) if r % 2 == 0 else list(reversed(pythons))
        for name in order:
            for k, v in probe(pythons[name], args.quick).items():
                got[name].setdefault(k, []).append(v)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"{'figure (median of ' + str(args.rounds) + ' rounds, CPU time)':44} "
          f"{'base':>12} {'this':>12} {'this/base':>10}")
    for key, values in got["this"].items():
        base, this = statistics.median(got["base"][key]), statistics.median(values)
        fmt = ",.0f" if base >= 1000 else ".2f"
        print(f"{key:44} {base:12{fmt}} {this:12{fmt}} {this / base:9.2f}x")


if __name__ == "__main__":
    main()
