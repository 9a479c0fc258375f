"""Timing loops the benchmarks share.

A script here imports it as ``_timing`` (``python benchmarks/bench_x.py`` puts
the script's folder first on ``sys.path``). It uses only long-standing APIs
(``Game``, ``legal_masks``/``legal_plays``, an engine's ``leads`` and
``_cache``), so ``side_by_side.py`` can still run this tree's scripts against
an older tree.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from big2 import Game, Rules


def steps_per_s(step: Callable[[], object], per_call: int, seconds: float) -> float:
    """Call *step* over and over for *seconds* of wall-clock time; a call
    counts *per_call* steps (N games stepped at once count N). Steps per
    second."""
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        steps += per_call
    return steps / (time.perf_counter() - start)


PASSING = ("play", "pass_turn", "text")
"""How the public loop passes: ``play(PASS)`` (the pass it drew from ``legal_plays()``),
``pass_turn()``, or ``play("pass")``."""


def random_deals(rules: Rules, deals: int, seed: int, *, public: bool = False,
                 passing: str | None = None) -> tuple[int, float]:
    """Play *deals* full deals, each a fresh seed (``seed * 1_000_003 + i``),
    every seat choosing uniformly among its legal plays: through the internal
    fast path (``legal_masks()`` and a plain int back to ``play``), or with
    *public* through the public API (``legal_plays()`` and one of its
    :class:`~big2.cards.CardSet` plays back to ``play``, as a user writes the
    loop). With *passing* (one of :data:`PASSING`, *public* only) the loop tells a
    pass drawn from a play and makes it the way named (the same loop for each way,
    so they differ in the pass's call alone). The turns played and the CPU seconds
    (``time.process_time``) taken."""
    rng = random.Random(seed)
    choice = rng.choice
    turns = 0
    start = time.process_time()
    if public and passing is not None:
        way = PASSING.index(passing)
        for i in range(deals):
            g = Game(rules, seed=seed * 1_000_003 + i)
            while not g.is_over():
                p = choice(g.legal_plays())
                if p or way == 0:
                    g.play(p)
                elif way == 1:
                    g.pass_turn()
                else:
                    g.play("pass")
            turns += len(g.history)
    elif public:
        for i in range(deals):
            g = Game(rules, seed=seed * 1_000_003 + i)
            while not g.is_over():
                g.play(choice(g.legal_plays()))
            turns += len(g.history)
    else:
        for i in range(deals):
            g = Game(rules, seed=seed * 1_000_003 + i)
            while g.to_move is not None:
                g.play(choice(g.legal_masks()))
            turns += len(g.history)
    return turns, time.process_time() - start


def lead_listing_us(eng: Any, hands: int, seed: int) -> list[float]:
    """Microseconds for *eng* to list every legal lead of each of *hands* fresh
    13-card hands (its cache of hands emptied of each first, so none is served
    from it)."""
    rng = random.Random(seed)
    deck = list(range(52))
    out = []
    clock = time.perf_counter  # process_time ticks too coarsely for one call
    for _ in range(hands):
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:13])
        eng._cache.pop(hand, None)  # fresh: never served from the cache
        t = clock()
        eng.leads(hand)
        out.append((clock() - t) * 1e6)
    return out
