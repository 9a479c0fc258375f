"""Helpers for the bot tests: a deal played out by named bots, positions
part-way through random deals, and twin positions a seat cannot tell apart
(the other hands re-dealt)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from big2 import Game, Rules
from big2.bots import make_bot
from big2.bots.search.endgame import Values


def play_deal(rules: Rules, seed: int, names: list[str],
              options: Mapping[str, dict[str, Any]] | None = None) -> Game:
    """A deal of *rules* played out by the bots *names* (seat order, seeded
    from *seed*; *options* per name), every choice checked to be legal."""
    g = Game(rules, seed=seed)
    opts = options or {}
    bots = [make_bot(name, seed=seed + i, **opts.get(name, {})) for i, name in enumerate(names)]
    while g.to_move is not None:
        view = g.view(g.to_move)
        choice = bots[g.to_move].choose(view)
        assert choice in view.legal
        g.play(choice)
    return g


def random_positions(n: int, seed: int = 0, rules: Rules | None = None,
                     most_plays: int = 25) -> list[Game]:
    """Up to *n* positions of *rules*, each after up to *most_plays* random
    plays of its own deal (deals that ended on the way are left out)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        g = Game(rules or Rules(), seed=seed * 1000 + i)
        for _ in range(rng.randrange(0, most_plays)):
            if g.to_move is None:
                break
            g.play(rng.choice(g.legal_masks()))
        if g.to_move is not None:
            out.append(g)
    return out


def positions_with_seats(rules: Rules, deals: int, every: int) -> list[tuple[Game, int]]:
    """Every *every*-th position along *deals* random deals of *rules* (random legal
    plays), each with a random seat (often not the one to move)."""
    out = []
    for seed in range(deals):
        g = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            out.append((g.copy(), rng.randrange(rules.players)))
            g.play(rng.choice(g.legal_masks()))
    return out[::every]


def redealt_twin(g: Game, seat: int, rng: random.Random) -> Game:
    """*g* with every hand but *seat*'s re-dealt from the same unseen cards:
    a position *seat* cannot tell from *g*."""
    n = g.num_players
    others = [c for s in range(n) if s != seat for c in range(52) if g.hands[s] >> c & 1]
    rng.shuffle(others)
    hands, at = [0] * n, 0
    for s in range(n):
        if s == seat:
            hands[s] = g.hands[s]
        else:
            k = g.hands[s].bit_count()
            hands[s] = sum(1 << c for c in others[at:at + k])
            at += k
    return Game.from_view(g.view(seat), hands)


def same_view_different_hidden_cards(seed: int) -> tuple[Game, Game]:
    """A random classic position after a few plays, and its re-dealt twin."""
    rng = random.Random(seed)
    g = Game(seed=seed)
    for _ in range(rng.randrange(4, 20)):
        g.play(rng.choice(g.legal_masks()))
    seat = g.to_move
    assert seat is not None
    return g, redealt_twin(g, seat, rng)


def brute_force(g: Game) -> Values:
    """Max^n written plainly: no memo, every line played out; ties go to the
    first legal play."""
    if g.to_move is None:
        outcome = g.outcome()
        assert outcome is not None
        return tuple(outcome.scores)
    seat, best = g.to_move, None
    for move in g.legal_masks():
        child = g.copy()
        child.play(move)
        value = brute_force(child)
        if best is None or value[seat] > best[seat]:
            best = value
    assert best is not None
    return best
