"""A seat's view never names another seat's card (issue 12, bug 6; RULES.md §2)."""

from __future__ import annotations

import random

import pytest

from big2 import Game, Rules


@pytest.mark.parametrize("rules", [Rules(deal="13-each", players=3),
                                   Rules(deal="13-each", players=2),
                                   Rules(players=3, spare_to="aside"), Rules()])
def test_the_first_play_rule_names_no_hidden_card(rules: Rules) -> None:
    hidden_lowest = 0
    for seed in range(60):
        g = Game(rules, seed=seed)
        leader = g.to_move
        assert leader is not None and g.must_contain
        for seat in range(g.num_players):
            view = g.view(seat)
            assert view.opening
            if seat == leader:
                assert view.must_contain == g.must_contain
            else:
                assert not view.must_contain  # "the lowest card dealt", never which card
            assert int(view.must_contain) & ~g.hands[seat] == 0
        hidden_lowest += g.must_contain != 1  # 3♦ was not dealt: a ghost hand holds it
        g.play(g.legal_masks()[0])
        assert not any(g.view(s).opening for s in range(g.num_players))
    if rules.deal == "13-each":
        assert hidden_lowest > 0  # the case of the bug did occur


def test_views_hold_only_the_seats_own_cards() -> None:
    rng = random.Random(3)
    for rules in (Rules(deal="13-each", players=2, go_fish=True, last_card=True),
                  Rules(players=3, spare_to="aside", spare_swap=True), Rules(jokers="wild")):
        g = Game(rules, seed=5)
        while not g.is_over():
            for seat in range(g.num_players):
                view = g.view(seat)
                others = 0
                for s, h in enumerate(g.hands):
                    if s != seat:
                        others |= h
                shown = int(view.hand) | int(view.must_contain) | int(view.spare)
                assert shown & others == 0
                assert view.legal == () or seat == g.to_move
            g.play(rng.choice(g.legal_masks()))
