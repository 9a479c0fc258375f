"""``PlayerView.unseen`` (issue 44): the one source of the cards a seat has not seen.

Checked against the game's true hands, not against another notion of unseen:
in a full deal the unseen cards are exactly the other seats' hands together,
whatever the rule set (the face-up spare, two decks, jokers)."""

from __future__ import annotations

import pytest
from bot_games import positions_with_seats

from big2 import Game, Rules
from big2.presets import PRESETS
from big2.view import unseen_cards

RULE_SETS = {name: Rules.preset(name) for name in PRESETS} | {
    "3 players, spare aside": Rules(players=3, spare_to="aside"),
    "6 players, two decks": Rules(players=6, decks=2),
    "jokers": Rules(jokers="wild"),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_unseen_is_the_other_hands_together(name: str) -> None:
    rules = RULE_SETS[name]
    for g, seat in positions_with_seats(rules, deals=6, every=3):
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
