"""One round of the compiled core's figures, as JSON on the last line (issue 43).

Run by ``side_by_side_builds.py`` under two interpreters (two builds of the core);
it uses only APIs that both the current tree and the one before issue 43 have.
Every figure is this process's CPU time (``time.process_time``), one thread, so a
shared machine times both builds alike:

- ``engine loop steps/s``: ``_native.random_deals`` (deal, list, pick, apply inside
  the core);
- ``public API deals/s``: random classic deals through ``Game.legal_plays()`` and
  ``Game.play()`` on the native engine;
- ``VectorEnv(1024) steps/s``: :class:`big2.env.vector.VectorEnv` of 1,024 games,
  ``"hand"`` actions, one random legal id per game a step;
- ``hard decision ms``: median CPU milliseconds of the ``hard`` bot's decisions with
  more than one legal play, against three ``heuristic`` bots;
- ``evaluate5_batch``/``evaluate7_batch`` ``M/s``: the NumPy batch API on random
  distinct-card hands (uint8 and int64 rows), and ``evaluate7 M/s`` (per call);
- ``AhKh vs QsQd exact ms``: :func:`big2.poker.equity` of the two hands, exact.

    python benchmarks/build_probe.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np

os.environ.setdefault("BIG2_ENGINE", "native")

from _timing import random_deals

from big2 import Game, Rules, _native
from big2.bots import make_bot
from big2.env.vector import VectorEnv
from big2.poker import equity, evaluate5_batch, evaluate7, evaluate7_batch
from big2.variant import variant


def cpu(f: object) -> float:
    start = time.process_time()
    f()  # type: ignore[operator]
    return time.process_time() - start


def engine(rules: Rules, deals: int) -> float:
    tables = variant(rules, engine="native").engine.tables  # type: ignore[attr-defined]
    start = time.process_time()
    steps, _, _ = _native.random_deals(tables, deals, 7)
    return float(steps / (time.process_time() - start))


def vector(rules: Rules, rounds: int) -> float:
    with VectorEnv(1024, rules, seed=3, actions="hand") as venv:
        venv.reset()
        rng = np.random.default_rng(3)
        start = time.process_time()
        for _ in range(rounds):
            venv.step(venv.sample(rng))
        return rounds * 1024 / (time.process_time() - start)


def hard_ms(deals: int) -> float:
    out: list[float] = []
    for d in range(deals):
        game = Game(Rules(), seed=5000 + d)
        bots = [make_bot("hard", seed=d)] + [make_bot("heuristic") for _ in range(3)]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            t0 = time.process_time()
            choice = bots[seat].choose(view)
            if seat == 0 and len(view.legal) > 1:
                out.append(time.process_time() - t0)
            game.play(choice)
    return statistics.median(out) * 1000


def hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    q = args.quick
    rules = Rules.preset("classic")
    out: dict[str, float] = {}
    out["engine loop steps/s"] = engine(rules, 2000 if q else 10000)
    deals = 100 if q else 300
    out["public API deals/s"] = deals / random_deals(rules, deals, 11, public=True)[1]
    out["VectorEnv(1024) steps/s"] = vector(rules, 50 if q else 200)
    out["hard decision ms"] = hard_ms(2 if q else 6)
    n = 500_000 if q else 2_000_000
    h5, h7 = hands(n, 5, 1), hands(n, 7, 2)
    h5w, h7w = h5.astype(np.int64), h7.astype(np.int64)
    evaluate5_batch(h5[:10]), evaluate7_batch(h7[:10])
    for name, f, arr in (("evaluate5_batch uint8 M/s", evaluate5_batch, h5),
                         ("evaluate7_batch uint8 M/s", evaluate7_batch, h7),
                         ("evaluate5_batch int64 M/s", evaluate5_batch, h5w),
                         ("evaluate7_batch int64 M/s", evaluate7_batch, h7w)):
        out[name] = n / 1e6 / statistics.median(cpu(lambda f=f, arr=arr: f(arr)) for _ in range(5))
    rows = [list(map(int, r)) for r in h7[:200_000]]
    out["evaluate7 M/s"] = len(rows) / 1e6 / cpu(lambda: [evaluate7(*r) for r in rows])
    equity(["AhKh", "QsQd"], exact=True)
    out["AhKh vs QsQd exact ms"] = 1000 * statistics.median(
        cpu(lambda: equity(["AhKh", "QsQd"], exact=True)) for _ in range(5))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
