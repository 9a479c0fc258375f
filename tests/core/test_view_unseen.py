"""``PlayerView.unseen`` (issue 44): the one source of the cards a seat has not seen.

Checked against the game's true hands, not against another notion of unseen:
in a full deal the unseen cards are exactly the other seats' hands together,
whatever the rule set (the face-up spare, two decks, jokers)."""

from __future__ import annotations

import random

import pytest

from big2 import Game, Rules
from big2.presets import PRESETS
from big2.view import unseen_cards

RULE_SETS = {name: Rules.preset(name) for name in PRESETS} | {
    "3 players, spare aside": Rules(players=3, spare_to="aside"),
    "6 players, two decks": Rules(players=6, decks=2),
    "jokers": Rules(jokers="wild"),
}


def positions(rules: Rules, deals: int = 6) -> list[tuple[Game, int]]:
    """Positions along random deals: (game, a seat)."""
    out = []
    for seed in range(deals):
        g = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            out.append((g.copy(), rng.randrange(rules.players)))
            g.play(rng.choice(g.legal_masks()))
    return out[::3]


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_unseen_is_the_other_hands_together(name: str) -> None:
    rules = RULE_SETS[name]
    for g, seat in positions(rules):
        view = g.view(seat)
        others = 0
        for s, h in enumerate(g.hands):
            if s != seat:
                others |= h
        assert int(view.unseen) == others, (name, seat, len(g.history))
        assert int(view.unseen) == unseen_cards(rules, int(g.hands[seat]), g.played(),
                                                int(g.spare))


def test_the_face_up_spare_is_seen() -> None:
    g = Game(Rules(players=3, spare_to="aside"), seed=2)
    view = g.view(0)
    assert int(view.spare) and not int(view.unseen) & int(view.spare)
    assert int(view.unseen).bit_count() == sum(view.card_counts) - view.card_counts[0]
