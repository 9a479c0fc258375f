"""``legal_plays()`` and ``play(CardSet)``: the public API on the internal fast path
(issue 23). A :class:`~big2.position.LegalPlays` is a lazy view of the list
``legal_masks()`` returns, and playing one of its plays does what playing the
same plain int does."""

from __future__ import annotations

import random

import pytest

from big2 import PASS, Game, IllegalPlayError, Rules
from big2.cards import CardSet
from big2.position import LegalPlays

RULE_SETS = [Rules(), Rules.preset("pagat"), Rules(players=3), Rules(jokers="wild"),
             Rules(decks=2, players=6), Rules(last_card=True, players=4)]


def test_legal_plays_reads_as_a_list_of_card_sets() -> None:
    g = Game(seed=5)
    plays, masks = g.legal_plays(), g.legal_masks()
    assert isinstance(plays, LegalPlays) and len(plays) == len(masks) > 1
    assert all(type(p) is CardSet for p in plays) and type(plays[0]) is CardSet
    assert plays == masks and plays == [CardSet(m) for m in masks] and list(plays) == masks
    assert plays[1:3] == masks[1:3] and plays[-1] == masks[-1]
    assert repr(plays) == repr([CardSet(m) for m in masks])
    assert PASS not in plays  # the leader cannot pass
    assert "3D" in plays and int(plays[0]) in plays and plays[0] in plays
    assert "2S" not in plays and object() not in plays and "no cards" not in plays
    with pytest.raises(TypeError):
        hash(plays)


def test_a_kept_legal_plays_answers_for_its_own_position() -> None:
    g = Game(seed=5)
    before = g.legal_plays()
    first = before[0]
    g.play(first)
    assert first in before and first not in g.legal_plays()


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: repr(r)[:60])
def test_playing_card_sets_does_what_playing_ints_does(rules: Rules) -> None:
    for seed in range(6):
        by_int, by_set = Game(rules, seed=seed), Game(rules, seed=seed)
        pick_int, pick_set = random.Random(seed), random.Random(seed)
        while not by_int.is_over():
            by_int.play(pick_int.choice(by_int.legal_masks()))
            by_set.play(pick_set.choice(by_set.legal_plays()))
        assert by_set.history == by_int.history and by_set.outcome() == by_int.outcome()
        assert all(type(a.cards) is int for a in by_set.history)  # plain masks are kept


def test_a_card_set_off_the_list_still_goes_through_the_checks() -> None:
    g = Game(seed=5)
    assert g.to_move is not None
    hand = g.hands[g.to_move]
    missing = next(c for c in range(52) if not hand >> c & 1)
    g.legal_masks()  # the list is there: the fast path is open
    with pytest.raises(IllegalPlayError, match="you do not hold"):
        g.play(CardSet(1 << missing))
    second = hand & ~(hand & -hand)
    second &= -second  # a card it holds, but not the 3♦ the first play must hold
    with pytest.raises(IllegalPlayError, match="must contain 3♦"):
        g.play(CardSet(second))
    assert g.history == []
