"""The ``selfplay-2018`` preset (issue 14, "the held-out rule set"): the rule set
of a public 2018 self-play PPO agent's engine, rule by rule.

4 players, 13 cards each; triples; two pairs and four of a kind as four-card
plays (four of a kind beats two pairs); no four of a kind + one card; straights
3…2 without wrapping (3-4-5-6-7 lowest, J-Q-K-A-2 highest); flushes by their top
card; count scoring; jump-back passing; the 3♦ played alone opens the deal.
"""

from __future__ import annotations

import random

import pytest

from big2 import Game, IllegalPlayError, Rules
from big2.bots import make_bot
from big2.cards import BB_RANKS, cards_of, parse_cards
from big2.combos import beats, classify, engine
from big2.scoring import score
from big2.variant import variant

RULES = Rules.preset("selfplay-2018")
THREE_D = 1  # card 0


def m(text: str) -> int:
    return int(parse_cards(text))


def test_the_preset_is_exactly_the_rule_set() -> None:
    assert "selfplay-2018" in Rules.presets()
    assert RULES.diff() == {
        "deal": "13-each", "straight_order": "indonesia", "flush_order": "top-card",
        "two_pairs": True, "four_of_a_kind_alone": True, "four_kicker": False,
        "opening": "alone", "scoring": "count"}
    assert RULES.players == 4 and variant(RULES).deck.per_seat == 13
    assert RULES.triples and RULES.passing == "jump-back" and RULES.suit_order == "DCHS"
    assert RULES.name == "selfplay-2018"
    assert Rules.preset("Selfplay 2018") == Rules.from_dict({"preset": "selfplay-2018"}) == RULES


# -- the opening: 3♦ alone ---------------------------------------------------------


def test_the_opening_play_is_exactly_the_three_of_diamonds_alone() -> None:
    for seed in range(200):
        g = Game(RULES, seed=seed)
        seat = g.to_move
        assert seat is not None and g.hands[seat] & THREE_D
        assert g.must_contain == THREE_D
        assert g.legal_masks() == [THREE_D]  # no pass, no pair or straight holding 3♦
        view = g.view(seat)
        assert view.legal == (THREE_D,) and view.opening and view.must_contain == THREE_D
        other = (seat + 1) % 4
        assert g.view(other).opening and not g.view(other).must_contain
        g.play(THREE_D)
        assert 0 in g.legal_masks()  # the opening is over: pass, or beat the 3♦
        assert all(p == 0 or cards_of(p)[-1] > 0 for p in g.legal_masks())


def test_a_play_holding_three_of_diamonds_with_other_cards_is_refused() -> None:
    hands = [m("3D 3C 4H 5S 6D 7C 8H 9S TD JC QH KS AD"), m("3H 4D 5D 6C 7D 8C 9D TC JD QD KD 2D 2C"),
             m("3S 4C 5C 6H 7H 8D 9C TH JH QC KC AC 2H"),
             m("4S 5H 6S 7S 8S 9H TS JS QS KH AH AS 2S")]
    g = Game(RULES, hands=hands)
    assert g.to_move == 0 and g.legal_masks() == [THREE_D]
    for text in ("3D 3C", "3D 4H 5S 6D 7C", "3C"):
        with pytest.raises(IllegalPlayError, match="the first play must be 3♦ alone"):
            g.play(m(text))
    classic = Game(Rules(), hands=hands)
    assert {m("3D 3C"), m("3D 4H 5S 6D 7C"), THREE_D} <= set(classic.legal_masks())


def test_where_three_of_diamonds_is_undealt_the_lowest_card_dealt_is_led_alone() -> None:
    """13 each with three players sets 13 cards aside: the lowest card dealt leads, alone."""
    rules = Rules.preset("selfplay-2018", players=3)
    rng = random.Random(5)
    seen_other = False
    for _ in range(60):
        g = Game(rules, seed=rng.getrandbits(32))
        dealt = 0
        for h in g.initial_hands:
            dealt |= h
        low = dealt & -dealt  # the suit order is ♦♣♥♠: card order is strength order
        seen_other |= low != THREE_D
        assert g.must_contain == low and g.hands[g.to_move] & low  # type: ignore[index]
        assert g.legal_masks() == [low]
    assert seen_other


# -- flushes by the top card ------------------------------------------------------


def test_a_flush_with_the_higher_top_card_beats_one_with_higher_second_cards() -> None:
    spades_ace_low = m("AS 6S 5S 4S 3S")  # top A♠, then small cards
    hearts_ace_king = m("AH KH QH JH 9H")  # top A♥, K Q J 9 behind it
    assert classify(spades_ace_low, RULES).kind.label == "flush"  # type: ignore[union-attr]
    assert beats(spades_ace_low, hearts_ace_king, RULES)
    assert not beats(hearts_ace_king, spades_ace_low, RULES)
    # the classic order reads the second cards: there the hearts win
    assert beats(hearts_ace_king, spades_ace_low, Rules())
    # a higher top rank beats whatever the rest; a 2 on top is the best flush
    assert beats(m("KD 5D 4D 3D 6D"), m("QS JS TS 8S 7S"), RULES)
    assert beats(m("2D 3D 4D 5D 7D"), m("AS KS QS JS 9S"), RULES)


def test_without_suit_ranking_equal_top_ranks_are_equal_flushes() -> None:
    rules = RULES.replace(suit_ranking=False)
    a, b = m("AS 6S 5S 4S 3S"), m("AH KH QH JH 9H")
    assert not beats(a, b, rules) and not beats(b, a, rules)
    assert beats(m("2D 3D 4D 5D 7D"), b, rules)


# -- four-card plays --------------------------------------------------------------


def test_four_of_a_kind_beats_two_pairs_as_four_card_plays() -> None:
    four_threes = m("3D 3C 3H 3S")
    aces_and_twos = m("AS AH 2S 2H")
    assert classify(four_threes, RULES).kind.label == "four of a kind"  # type: ignore[union-attr]
    assert classify(aces_and_twos, RULES).kind.label == "two pairs"  # type: ignore[union-attr]
    assert beats(four_threes, aces_and_twos, RULES)
    assert not beats(aces_and_twos, four_threes, RULES)
    assert beats(m("4D 4C 4H 4S"), four_threes, RULES)
    assert beats(m("KD KC 5H 5S"), m("QS QH JS JH"), RULES)
    # four-card plays meet only four-card plays
    for other in ("2S", "2S 2H", "2S 2H 2D", "3D 4C 5H 6S 7D"):
        assert not beats(four_threes, m(other), RULES)
    # in play: a four of a kind may follow two pairs, nothing else of another size
    hands = [m("5D 5C 6D 6C 3D"), m("9D 9C 9H 9S 4D"), m("TD TC"), m("JD JC")]
    g = Game(RULES, hands=hands, leader=0)
    g.play(m("5D 5C 6D 6C"))
    assert set(g.legal_masks()) == {0, m("9D 9C 9H 9S")}


def test_no_four_of_a_kind_plus_one_card() -> None:
    assert classify(m("9D 9C 9H 9S 4D"), RULES) is None
    assert classify(m("9D 9C 9H 9S 4D"), Rules()) is not None
    hand = m("9D 9C 9H 9S 4D 4C 5H 6S 7D 8C 2S")
    for p in engine(RULES).leads(hand):
        if p.bit_count() == 5:
            assert all((p & BB_RANKS[r]).bit_count() < 4 for r in range(13)), cards_of(p)


# -- straights 3…2 without wrapping ----------------------------------------------


def test_j_q_k_a_2_is_the_highest_straight_and_3_to_7_the_lowest() -> None:
    top = m("JD QC KH AD 2D")
    assert classify(top, RULES).kind.label == "straight"  # type: ignore[union-attr]
    for lower in ("TS JS QS KS AH", "3D 4C 5H 6S 7D", "9S TS JS QS KD"):
        assert beats(top, m(lower), RULES)
        assert not beats(m(lower), top, RULES)
    lowest = m("3S 4S 5S 6S 7H")
    assert beats(m("4D 5C 6H 7S 8D"), lowest, RULES)
    for wrapped in ("QD KC AH 2S 3D", "KD AC 2H 3S 4D", "AD 2C 3H 4S 5D", "2D 3C 4H 5S 6D"):
        assert classify(m(wrapped), RULES) is None, wrapped
    # between two J-Q-K-A-2 straights the 2's suit decides
    assert beats(m("JD QD KD AC 2S"), m("JS QS KS AS 2H"), RULES)


# -- count scoring ----------------------------------------------------------------


def test_count_scoring_is_a_point_a_card_with_no_doubling() -> None:
    hands = [0, m("2S 2H 4D"), m("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2C"),
             m("9D 9C 9H 9S 3H 4H 5H 6H")]
    assert score(RULES, hands, winner=0, last_play=m("2D")) == (24, -3, -13, -8)
    # classic scoring would double twice for the 2s held and once for the winning 2
    assert score(Rules(), hands, winner=0, last_play=m("2D"))[1] == -24


# -- bots play legal deals under the preset ---------------------------------------


@pytest.mark.parametrize(("bot", "deals", "options"), [
    ("greedy", 20, {}), ("heuristic", 20, {}), ("expert", 1, {"budget": 4, "candidates": 2})])
def test_bots_play_legal_deals_scored_by_count(bot: str, deals: int, options: dict) -> None:
    for seed in range(deals):
        g = Game(RULES, seed=seed)
        bots = [make_bot(bot, seed=seed + s, **options) for s in range(4)]
        first = True
        while not g.is_over():
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            choice = bots[seat].choose(view)
            assert choice in view.legal and g.is_legal(choice)
            if first:
                assert choice == THREE_D
                first = False
            g.play(choice)
        outcome = g.outcome()
        assert outcome is not None
        left = [h.bit_count() for h in g.hands]
        assert left[outcome.winner] == 0
        assert outcome.scores == tuple(sum(left) if s == outcome.winner else -left[s]
                                       for s in range(4))
