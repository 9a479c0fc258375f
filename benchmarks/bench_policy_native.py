"""The policy network's forward pass: NumPy against the compiled core, side by side.

    python benchmarks/bench_policy_native.py
    python benchmarks/bench_policy_native.py --positions 400 --batch 64 --rounds 5

On random positions of classic deals (every seat playing a random legal
play), one core (BLAS held to one thread), decisions per second of:

* **forward**: the network alone from the features (the state embedding and
  a score per legal play): NumPy's ``PolicyNet.embed``/``score_pairs``
  against ``big2.bots.policy.pnative.logits``, one decision a call
  (*single*) and ``--batch`` decisions a call (*batched*, as the play-outs
  call it across sampled worlds);
* **decision**: features, the heuristic's hints and the forward pass from a
  position: ``PolicyNet.logits_batch`` (features in NumPy, hints through
  Python) against the core's ``decide`` (everything in the core from a deal
  it steps).

Each figure is the median of ``--rounds`` rounds, the two paths interleaved
round by round; the ratio is core / NumPy. Say the load average
(``uptime``) with the figures: the machine's other work slows both.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: before NumPy loads BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from big2 import Game, Rules
from big2.bots.policy import pnative
from big2.bots.policy.pfeatures import play_features, state_features, unseen_cards
from big2.bots.policy.phint import hints
from big2.bots.policy.pnet import pad_plays
from big2.bots.rules_based import native
from big2.bots.rules_based.planning import DEFAULT_STYLE
from big2.bots.search.policy_eval import shipped_policy
from big2.combos import engine
from big2.observation import (
    LAYOUT,
    _passed_and_leader,
    card_vectors,
    encode_game,
    played_by_seat,
)


def positions(rules: Rules, n: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    deal = 0
    while len(out) < n:
        g = Game(rules=rules, seed=seed * 100_003 + deal)
        deal += 1
        while g.to_move is not None and len(out) < n:
            legal = g.legal_masks()
            if len(legal) > 1 and rng.random() < 0.3:
                out.append(g.copy())
            g.play(rng.choice(legal))
    return out


def rate(calls: list[Callable[[], object]], per_call: int) -> float:
    """Decisions a second over one pass of *calls*."""
    start = time.perf_counter()
    for c in calls:
        c()
    return len(calls) * per_call / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not pnative.available():
        raise SystemExit("big2._policy is not built: pip install -e .")
    rules = Rules.preset("classic")
    eng = engine(rules)
    net = shipped_policy()
    games = positions(rules, args.positions, args.seed)
    obs = np.stack([encode_game(g, g.to_move) for g in games])  # type: ignore[arg-type]
    legal = [g.legal_masks() for g in games]
    cards, counts = pad_plays([m for ms in legal for m in ms], [len(m) for m in legal])
    fam = np.zeros(len(games), dtype=np.int64)
    state = state_features(obs, fam)
    feats, rows = [], []
    for i, ms in enumerate(legal):
        c = card_vectors(ms)
        h = hints(obs[i:i + 1], fam[i:i + 1], c, counts[i:i + 1], rules)
        feats.append(play_features(c, np.repeat(obs[i:i + 1, LAYOUT["hand"]], len(ms), 0),
                                   np.repeat(unseen_cards(obs[i:i + 1]), len(ms), 0), h))
        rows.append(np.zeros(len(ms), dtype=np.int64))
    b = args.batch
    groups = [range(i, min(i + b, len(games))) for i in range(0, len(games), b)]
    batched = []
    for grp in groups:
        r = np.concatenate([rows[i] + j for j, i in enumerate(grp)])
        batched.append((state[list(grp)], np.concatenate([feats[i] for i in grp]), r))

    def np_single() -> list[Callable[[], object]]:
        return [lambda i=i: net.score_pairs(net.embed(state[i:i + 1]), rows[i], feats[i])
                for i in range(len(games))]

    def core_single() -> list[Callable[[], object]]:
        return [lambda i=i: pnative.logits(net, state[i:i + 1], feats[i], rows[i])
                for i in range(len(games))]

    table = pnative.table(net, native.config(eng), native._style(DEFAULT_STYLE), 0, 0)
    frames = []
    for g in games:
        leader = _passed_and_leader(g.trick, False)[1]
        frames.append((g.hands, (native.frame(g, eng),
                                 list(played_by_seat(g.history, g.num_players)),
                                 -1 if leader is None else leader)))
    figures: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for name, calls, per in (
                ("forward, single: NumPy", np_single(), 1),
                ("forward, single: core", core_single(), 1),
                (f"forward, batched {b}: NumPy",
                 [lambda s=s, p=p, r=r: net.score_pairs(net.embed(s), r, p)
                  for s, p, r in batched], 0),
                (f"forward, batched {b}: core",
                 [lambda s=s, p=p, r=r: pnative.logits(net, s, p, r) for s, p, r in batched], 0),
                ("decision (features, hints, forward): NumPy",
                 [lambda i=i: net.logits_batch(obs[i:i + 1], fam[i:i + 1], cards[i:i + 1],
                                               counts[i:i + 1], rules)
                  for i in range(len(games))], 1),
                ("decision (features, hints, forward): core",
                 [lambda f=f: pnative.decide(table, *f) for f in frames], 1)):
            if per == 0:  # batched: decisions per call vary with the last group
                start = time.perf_counter()
                for c in calls:
                    c()
                figures.setdefault(name, []).append(len(games) / (time.perf_counter() - start))
            else:
                figures.setdefault(name, []).append(rate(calls, per))
    print(f"{len(games)} classic positions, {np.mean(counts):.1f} legal plays each on average; "
          f"medians of {args.rounds} rounds, decisions/s on one core")
    names = list(figures)
    for k in range(0, len(names), 2):
        a, c = statistics.median(figures[names[k]]), statistics.median(figures[names[k + 1]])
        print(f"  {names[k]:48s} {a:>10,.0f}")
        print(f"  {names[k + 1]:48s} {c:>10,.0f}   core / NumPy {c / a:5.1f}x")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
