"""The compiled core against the Python engine, side by side (issue 24).

Three measures, each a median over ``--rounds`` repeats, python and native in
the same run, with their ratio:

- **engine loop**: random legal plays stepped with no Python object per step.
  Native: ``big2._native.random_deals`` (deal, list, pick, apply and score all
  inside the core, one thread). Python: the nearest Python loop, a
  :class:`~big2.Game` stepped with ``legal_masks()`` and ``play(mask)``.
- **public API deals**: random classic deals through ``Game.legal_plays()`` and
  ``Game.play()``, a fresh seed each deal, on the Python engine
  (``BIG2_ENGINE=python``) and on the native one (the default, whose Game keeps the
  deal in the core; ``bench_public_api.py`` times more rule sets).
- **the core's State from Python**: the public API's loop on ``_native.State``
  (``legal()`` and ``play()``) with no Game around it: the floor under the public API.
- **lead listing**: microseconds to list every lead of a fresh 13-card hand.
- **batched stepping** (native only): ``big2._native.Batch`` of ``--envs`` games stepped
  with random legal plays and auto-reset, the GIL released, on 1 and 2 threads
  (wall-clock time, since the threads share the process's CPU time); and the same
  driven from Python as a vector environment would: each step writes every game's
  observation (635 int8) and legal plays into preallocated arrays, NumPy picks a legal
  play per game, and the batch steps.

Time is this process's CPU time (``time.process_time``), as in
``bench_engine.py``: the machine is shared, and waiting for a core is not counted.

    python benchmarks/bench_native.py [--rules classic] [--deals 300] [--loop-deals 20000]
        [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from _timing import lead_listing_us, random_deals

from big2 import Rules, _native
from big2.observation import observation_layout
from big2.variant import native, variant


def core_loop(rules: Rules, deals: int, seed: int) -> tuple[float, float]:
    """Native engine loop: (steps/s, deals/s) on one core."""
    tables = variant(rules, engine="native").engine.tables  # type: ignore[attr-defined]
    start = time.process_time()
    steps, done, _ = _native.random_deals(tables, deals, seed)
    dt = time.process_time() - start
    return steps / dt, done / dt


def python_loop(rules: Rules, deals: int, seed: int, engine: str) -> tuple[float, float]:
    """A Game stepped with ``legal_masks()``/``play(mask)``: (steps/s, deals/s)."""
    os.environ[native.ENGINE_ENV] = engine
    steps, dt = random_deals(rules, deals, seed)
    return steps / dt, deals / dt


def public_deals(rules: Rules, deals: int, seed: int, engine: str) -> float:
    """Random deals through ``legal_plays()`` and ``play()``: deals/s."""
    os.environ[native.ENGINE_ENV] = engine
    return deals / random_deals(rules, deals, seed, public=True)[1]


def state_deals(rules: Rules, deals: int, seed: int) -> float:
    """The public API's loop on the core's own deal state (``_native.State``: its
    ``legal()`` list and ``play()``), driven from Python: deals/s. What the native Game
    (which keeps its deal in such a State) adds to it is the public API's own cost."""
    tables = variant(rules, engine="native").engine.tables  # type: ignore[attr-defined]
    choice = random.Random(seed).choice
    n = rules.players
    start = time.process_time()
    for i in range(deals):
        hands, seat, must = _native.deal(tables, seed * 1_000_003 + i, i % n)
        st = _native.State(tables, hands, seat, must)
        while st.to_move is not None:
            st.play(choice(st.legal()))
    return deals / (time.process_time() - start)


def lead_us(rules: Rules, hands: int, seed: int, engine: str) -> float:
    """Median microseconds to list every lead of a fresh 13-card hand."""
    return statistics.median(lead_listing_us(variant(rules, engine=engine).engine, hands, seed))


def batch_steps(rules: Rules, envs: int, threads: int, seed: int) -> float:
    """``Batch`` random stepping over *threads* threads: steps/s, wall clock."""
    tables = variant(rules, engine="native").engine.tables  # type: ignore[attr-defined]
    batch = _native.Batch(tables, envs, seed, threads)
    start = time.perf_counter()
    steps, _ = batch.random_steps(max(1, 2_000_000 // envs), seed)
    return float(steps / (time.perf_counter() - start))


def batch_env_steps(rules: Rules, envs: int, threads: int, seed: int) -> float:
    """A vector-environment loop over ``Batch``: observation + legal plays + step, steps/s."""
    import numpy as np

    tables = variant(rules, engine="native").engine.tables  # type: ignore[attr-defined]
    batch = _native.Batch(tables, envs, seed, threads)
    layout = observation_layout()
    obs = np.zeros((envs, layout["size"]), np.int8)
    masks = np.zeros((envs, 256), np.uint64)
    counts = np.zeros(envs, np.int64)
    scores = np.zeros((envs, rules.players), np.int64)
    done = np.zeros(envs, np.bool_)
    rng = np.random.default_rng(seed)
    rounds = max(1, 200_000 // envs)
    start = time.perf_counter()
    for _ in range(rounds):
        batch.observe_into(obs, layout)
        batch.legal_into(masks, counts)
        batch.step((rng.random(envs) * counts).astype(np.int64), scores, done)
    return rounds * envs / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic", help="a preset of the standard family")
    ap.add_argument("--deals", type=int, default=300, help="Python-side deals a round")
    ap.add_argument("--loop-deals", type=int, default=20000, help="native loop deals a round")
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--envs", type=int, default=1024, help="games in the batched measure")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    rules = Rules.preset(args.rules)
    why = native.native_game_reason(rules)
    if why is not None:
        raise SystemExit(f"{args.rules}: not native ({why})")
    saved = os.environ.get(native.ENGINE_ENV)
    rows: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        rows.setdefault(name, []).append(value)

    try:
        for r in range(args.rounds):
            steps, deals = core_loop(rules, args.loop_deals, r)
            add("loop steps/s native", steps)
            add("loop deals/s native", deals)
            steps, deals = python_loop(rules, args.deals, r, "python")
            add("loop steps/s python", steps)
            add("loop deals/s python", deals)
            add("core state deals/s", state_deals(rules, args.deals, r))
            for engine in ("python", "native"):
                add(f"public deals/s {engine}", public_deals(rules, args.deals, r, engine))
                add(f"lead us {engine}", lead_us(rules, args.hands // args.rounds, r, engine))
            for threads in (1, 2):
                add(f"batch steps/s {threads}", batch_steps(rules, args.envs, threads, r))
                add(f"batch env steps/s {threads}",
                    batch_env_steps(rules, args.envs, threads, r))
    finally:
        if saved is None:
            os.environ.pop(native.ENGINE_ENV, None)
        else:
            os.environ[native.ENGINE_ENV] = saved
    med = {k: statistics.median(v) for k, v in rows.items()}
    table = [
        ("engine loop, steps/s", med["loop steps/s python"], med["loop steps/s native"]),
        ("engine loop, deals/s", med["loop deals/s python"], med["loop deals/s native"]),
        ("public API deals/s", med["public deals/s python"], med["public deals/s native"]),
        ("lead listing, us (lower wins)", med["lead us python"], med["lead us native"]),
    ]
    if args.json:
        print(json.dumps({"rules": args.rules, "rounds": args.rounds, "medians": med}))
        return
    print(f"{args.rules}, medians of {args.rounds} rounds (CPU time, one core)")
    print(f"{'measure':32} {'python':>12} {'native':>12} {'native/python':>14}")
    for name, py, nat in table:
        ratio = py / nat if name.startswith("lead") else nat / py
        print(f"{name:32} {py:12,.1f} {nat:12,.1f} {ratio:13.1f}x")
    state = med["core state deals/s"]
    print(f"the same loop on the core's State from Python: {state:,.0f} deals/s "
          f"({state / med['public deals/s native']:.1f}x the native Game's public API)")
    one, two = med["batch steps/s 1"], med["batch steps/s 2"]
    print(f"batched stepping, {args.envs} games: {one:,.0f} steps/s on 1 thread, "
          f"{two:,.0f} on 2 ({two / one:.2f}x, wall clock)")
    one, two = med["batch env steps/s 1"], med["batch env steps/s 2"]
    print(f"  with observation + legal plays written each step: {one:,.0f} steps/s on 1 "
          f"thread, {two:,.0f} on 2 ({two / one:.2f}x)")


if __name__ == "__main__":
    main()
