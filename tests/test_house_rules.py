"""Each RULES.md §2 house rule played in the situation it governs."""

from __future__ import annotations

import pytest

from big2 import Game, IllegalPlayError, Match, Rules, parse_cards

P = parse_cards

HANDS4 = [
    "3D 5C 7H 9S JD KC 2H 4S 6D 8C TH QS AD",
    "3C 5H 7S 9D JC KH 2S 4D 6C 8H TS QD AC",
    "3H 5S 7D 9C JH KS 2D 4C 6H 8S TD QC AH",
    "3S 5D 7C 9H JS KD 2C 4H 6S 8D TC QH AS",
]


# -- play flow ------------------------------------------------------------------

def test_clockwise_play_goes_to_the_previous_seat() -> None:
    g = Game(Rules(direction="clockwise"), hands=HANDS4)
    g.play("3D")
    assert g.to_move == 3
    g.play("3S")
    assert g.to_move == 2
    g.pass_turn()
    g.pass_turn()  # seat 1
    g.pass_turn()  # seat 0: everyone else passed after seat 3's play
    assert g.leading and g.to_move == 3
    ccw = Game(hands=HANDS4)
    ccw.play("3D")
    assert ccw.to_move == 1


def test_clockwise_deal_and_dealer_move_the_other_way() -> None:
    m = Match(Rules(direction="clockwise", match_deals=3), seed=4)
    g = m.new_game()
    assert g.dealer == 0
    while not g.is_over():
        g.play(g.legal_masks()[0])
    m.record(g)
    assert m.dealer == 3  # the deal moves in the direction of play
    # dealing starts on the dealer's side of play: the first card goes to seat 3
    import random

    from big2.game import deal
    cw = deal(Rules(direction="clockwise"), random.Random(9), dealer=0)
    ccw = deal(Rules(), random.Random(9), dealer=0)
    assert cw[3] == ccw[1] and cw[1] == ccw[3] and cw[2] == ccw[2]


def test_one_pass_ends_the_trick() -> None:
    g = Game(Rules(trick_end="one-pass"), hands=HANDS4)
    g.play("3D")
    g.play("3C")
    g.pass_turn()  # seat 2 passes: the trick ends at once
    assert g.leading and g.to_move == 1
    plain = Game(hands=HANDS4)
    plain.play("3D")
    plain.play("3C")
    plain.pass_turn()
    assert not plain.leading and plain.to_move == 3


THREES = [
    "3D 3C 3H 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "2C 2H 2S 4C 5C 6C 7C 8C 9C TC JC QC KC",  # three 2s and no other triple
    "4H 5H 6H 7H 8H 9H TH JH QH KH AH AD 2D",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS AC",
]


def test_led_three_threes_force_three_twos() -> None:
    g = Game(Rules(three_threes=True), hands=THREES)
    g.play("3D 3C 3H")
    assert g.legal_masks() == [int(P("2C 2H 2S"))]
    with pytest.raises(IllegalPlayError, match="three 2s"):
        g.pass_turn()
    g.play("2C 2H 2S")
    # without the rule the pass is allowed
    plain = Game(hands=THREES)
    plain.play("3D 3C 3H")
    assert plain.legal_masks() == [int(P("2C 2H 2S")), 0]


def test_three_threes_leave_the_pass_when_another_triple_beats() -> None:
    hands = [
        "3D 3C 3H 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "2C 2H 2S 4C 5C 6C 7C 8C 9C 9H 9S QC KC",  # three 2s and three 9s
        "4H 5H 6H 7H 8H TC TH JH QH KH AH AD 2D",
        "3S 4S 5S 6S 7S 8S JC TS JS QS KS AS AC",
    ]
    g = Game(Rules(three_threes=True), hands=hands)
    g.play("3D 3C 3H")
    assert g.legal_masks()[-1] == 0 and len(g.legal_masks()) == 3
    g.pass_turn()
