"""big2.bots.rules_based.control's fast path for the sampler: a single's beaters as a card
mask agree with :func:`beaten_by_unseen` on random hands under every preset."""

from __future__ import annotations

import random

import pytest

from big2 import Rules
from big2.bots.rules_based.control import beaten_by_unseen, single_beaters
from big2.cards import FULL_DECK
from big2.combos import engine


@pytest.mark.parametrize("preset", Rules.presets())
def test_single_beaters_agree_with_beaten_by_unseen(preset: str) -> None:
    eng = engine(Rules.preset(preset))
    rng = random.Random(preset)
    for card in range(52):
        beat = single_beaters(eng, 1 << card)
        assert beat is not None and not beat >> card & 1
        for _ in range(40):
            held = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 13))) & FULL_DECK
            assert bool(held & beat) == beaten_by_unseen(eng, 1 << card, held)
    pair = next(m for m in eng.hand_plays(FULL_DECK) if m.bit_count() == 2)
    assert single_beaters(eng, pair) is None


def test_the_review_notices_the_next_player_holding_one_card() -> None:
    from big2 import Game, Rules
    from big2.bots.rules_based.reasons import why_better
    from big2.cards import parse_cards

    # seat 0 leads; seat 1, next to play, holds one card
    g = Game(Rules(), hands=["3D 5C 9S KH 2S", "8D", "4D 6D 7D", "4C 6C 7C"], leader=0)
    view = g.view(0)
    why = why_better(view, int(parse_cards("2S")), int(parse_cards("5C")))
    assert why is not None and "next to play, holds one card" in why
    assert "5♣ may let them go out where 2♠ stops them" in why
    # leading a pair instead of a low single
    g = Game(Rules(), hands=["3D 5C 9S 9H KH", "8D", "4D 6D 7D", "4C 6C 7C"], leader=0)
    why = why_better(g.view(0), int(parse_cards("9S 9H")), int(parse_cards("5C")))
    assert why is not None and why.startswith("Player 2, next to play, holds one card")
    # nobody on one card: not said
    g = Game(Rules(), hands=["3D 5C 9S KH 2S", "8D 9D", "4D 6D 7D", "4C 6C 7C"], leader=0)
    why = why_better(g.view(0), int(parse_cards("2S")), int(parse_cards("5C")))
    assert why is None or "next to play" not in why


def test_no_reason_is_read_off_two_decks_or_jokers() -> None:
    from big2 import Game, Rules
    from big2.bots.rules_based.reasons import why_better, why_play

    for rules in (Rules(decks=2, players=6), Rules(jokers="wild")):
        g = Game(rules, seed=3)
        view = g.view(g.to_move)
        play = next(p for p in view.legal if p)
        assert why_play(view, play) is None  # once an IndexError in the hand's plan
        assert why_better(view, play, 0) is None
