"""Undo restores snapshots: a game taken back to any ply is the game that was
there, under house rules that draw, call, pass the lead or end tricks early."""

from __future__ import annotations

import random

import pytest

from big2 import Game, Rules

RULES = [Rules(), Rules(players=2, deal="13-each", go_fish=True, last_card=True),
         Rules(trick_end="one-pass"), Rules(passing="lock-out", smack_down="2S"),
         Rules(finish_restrictions=("any-2",), players=3), Rules(decks=2, players=6),
         Rules(scoring="ranking", players=3)]


def _state(g: Game) -> tuple[object, ...]:
    return (tuple(g.hands), tuple(g.history), tuple(g.log), g.to_move, g.last_play,
            g.last_player, g.trick, tuple(g.stock), g.must_contain, g.waive, g.outcome(),
            tuple(g.legal_masks()), tuple(g.finished), g.announced)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: repr(r))
def test_undo_returns_to_each_earlier_position(rules: Rules) -> None:
    rng = random.Random(7)
    for seed in range(6):
        g = Game(rules, seed=seed)
        before = []  # the state just before each action (calls made by then included)
        while not g.is_over():
            for s in range(g.num_players):
                if g.can_call_last_card(s) and rng.random() < 0.5:
                    g.call_last_card(s)
            before.append(_state(g))
            g.play(rng.choice(g.legal_masks()))
        for ply in range(len(g.history) - 1, -1, -1):
            undone = g.undo()
            assert undone.seat == before[ply][3]  # the seat that was to move
            assert _state(g) == before[ply]
        with pytest.raises(IndexError):
            g.undo()
