"""One source of legality: ``is_legal``, ``check_play``, ``play`` and the listed
legal plays agree, under every preset and house-rule mix (issue 12, bugs 3 and 5)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from house_options import HOUSE_RULE_OPTION_SETS, for_players
from hypothesis import given, settings
from hypothesis import strategies as st

from big2 import Game, IllegalPlayError, Rules
from big2.cards import DECK_SIZE, CardSet, cards_of, parse_cards

WILD_SETS: list[dict[str, Any]] = [
    {"jokers": "wild"}, {"jokers": "valueless"}, {"decks": 2, "players": 6},
    {"decks": 2, "players": 5, "jokers": "wild", "five_of_a_kind": "above-straight-flush"},
    {"decks": 2, "players": 2, "dragon": True}, {"decks": 2, "players": 3, "smack_down": "2S"},
    {"jokers": "wild", "straight_max": 8, "finish_restrictions": ("2S",)},
]
RULE_SETS = ([Rules.preset(p) for p in Rules.presets()]
             + [Rules(**for_players(o, players)) for o in HOUSE_RULE_OPTION_SETS
                for players in (4, 3, 2)]
             + [Rules(**o) for o in WILD_SETS])


def _candidates(g: Game, rng: random.Random) -> list[int]:
    """Plays to ask about: every listed one, the other copies of listed ones,
    random subsets of the hand, and cards the player does not hold."""
    seat = g.to_move
    assert seat is not None
    hand = g.hands[seat]
    legal = g.legal_masks()
    held = cards_of(hand)
    out = list(rng.sample(legal, min(25, len(legal)))) + [0]
    for p in rng.sample(legal, min(10, len(legal))):  # name the other copy where held
        out.append(sum(1 << (c + DECK_SIZE) if c < DECK_SIZE and hand >> (c + DECK_SIZE) & 1
                       and not p >> (c + DECK_SIZE) & 1 else 1 << c for c in cards_of(p)))
    for _ in range(25):
        k = rng.choice((1, 2, 3, 4, 5, 5, 6, 7, len(held)))
        out.append(sum(1 << c for c in rng.sample(held, min(k, len(held)))))
    outside = [c for c in cards_of(g.variant.deck.cards) if not hand >> c & 1]
    out.append(1 << rng.choice(outside) | (1 << held[0]))
    return out


def _agree(g: Game, rng: random.Random) -> None:
    plays = g.legal_plays()
    for m in _candidates(g, rng):
        legal = g.is_legal(m)
        assert legal == (m in plays) == (CardSet(m) in plays), CardSet(m)
        try:
            g.check_play(m)
            checked = True
        except IllegalPlayError:
            checked = False
        assert checked == legal
        trial = g.copy()
        try:
            trial.play(m)  # the fast path (an int) must refuse what is not legal
            played = True
        except IllegalPlayError:
            played = False
        assert played == legal, CardSet(m)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 10_000))
def test_is_legal_is_membership_in_the_legal_plays(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    steps = 0
    while not g.is_over() and steps < 60:
        if steps % 4 == 0:
            _agree(g, rng)
        g.play(rng.choice(g.legal_masks()))
        steps += 1


DRAGON = "3D 4C 5H 6S 7D 8C 9H TS JD QC KH AS 2S"


@pytest.mark.parametrize("players", [4, 2])
def test_a_dragon_holding_2s_is_no_way_out_under_the_2s_restriction(players: int) -> None:
    """Bug 3: the dragon was listed, refused as a CardSet and accepted as an int."""
    rules = Rules(dragon=True, finish_restrictions=("2S",), players=players)
    rest = [c for c in range(52) if not int(parse_cards(DRAGON)) >> c & 1]
    per = len(rest) // (players - 1)
    hands = [int(parse_cards(DRAGON))] + [sum(1 << c for c in rest[i * per:(i + 1) * per])
                                          for i in range(players - 1)]
    g = Game(rules, hands=hands, leader=0)
    dragon = int(parse_cards(DRAGON))
    assert dragon not in g.legal_masks() and not g.is_legal(dragon)
    for form in (dragon, CardSet(dragon), DRAGON):
        with pytest.raises(IllegalPlayError, match="may not go out"):
            g.copy().play(form)
    # without the restriction the same dragon is listed and goes out
    free = Game(Rules(dragon=True, players=players), hands=hands, leader=0)
    assert dragon in free.legal_masks()
    free.play(dragon)
    assert free.winner == 0


def test_the_second_copy_is_found_in_the_legal_plays() -> None:
    """Bug 5: with two decks ``is_legal`` took the second copy while the list
    named the first; membership in ``legal_plays()`` is now a legality test."""
    rules = Rules(decks=2, players=6)
    hands = ["9H 9H 4C KS", "3D", "3C", "5D", "6D", "7D"]
    g = Game(rules, hands=hands, leader=0)
    nine = int(parse_cards("9H"))
    second = nine << DECK_SIZE
    assert nine in g.legal_masks() and second not in g.legal_masks()  # listed once, by name
    assert g.is_legal(second) and second in g.legal_plays() and "9H" in g.legal_plays()
    assert (nine | second) in g.legal_plays()  # the pair of 9♥
    assert int(parse_cards("9H 9H", copies=2)) == nine | second
    assert "TH" not in g.legal_plays() and not g.is_legal(int(parse_cards("TH")))
    g.play(second)  # the copy named is the copy played
    assert g.hands[0] & nine and not g.hands[0] & second
