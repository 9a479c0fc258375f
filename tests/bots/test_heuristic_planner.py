"""The heuristic's planner (issue 14): every play kind of the rule set, going
out at once, legal and reproducible everywhere, and ``heuristic-v1`` kept
exactly as the first version played."""

from __future__ import annotations

import hashlib
import random

import pytest

from big2 import Game, Rules
from big2.bots import BOT_LEVELS, HeuristicBot, make_bot
from big2.bots.rules_based.control import unbeatable, way_out
from big2.bots.rules_based.planning import DEFAULT_STYLE, V1, heuristic_play, plan
from big2.cards import FULL_DECK, Mask, parse_cards
from big2.combos import engine
from big2.variant import Kind

TWO_PAIRS = Rules(two_pairs=True)


def m(text: str) -> Mask:
    return int(parse_cards(text))


def choose(rules: Rules, hand: str, last: str = "", counts: tuple[int, ...] = (5, 10, 10, 10),
           played: str = "", style: object = DEFAULT_STYLE) -> Mask:
    """The heuristic's play for seat 0 from plain values, nothing but *played* seen."""
    eng = engine(rules)
    h, t = m(hand), m(last) if last else 0
    legal = eng.leads(h) if not t else [0, *eng.follows(h, eng.classify(t))]  # type: ignore[arg-type]
    unseen = FULL_DECK & ~h & ~t & ~(m(played) if played else 0)
    return heuristic_play(eng, 0, h, legal, t, counts, unseen, style)  # type: ignore[arg-type]


# -- going out ----------------------------------------------------------------


def test_goes_out_at_once_with_a_whole_hand_of_two_pairs() -> None:
    hands = ["3D 3C 5H 5S", "4D 6C 8H TS QD AC 2D", "4C 6D 8S TH QC AD 2C",
             "4H 6H 8D TD QS AH 2H"]
    game = Game(TWO_PAIRS, hands=hands)
    view = game.view(0)
    assert m("3D 3C 5H 5S") in view.legal
    assert make_bot("heuristic").choose(view) == m("3D 3C 5H 5S")
    game.play(make_bot("heuristic").choose(view))
    assert game.outcome() is not None and game.outcome().winner == 0  # type: ignore[union-attr]
    # the first version led one pair of the two
    assert make_bot("heuristic-v1").choose(Game(TWO_PAIRS, hands=hands).view(0)) == m("3D 3C")


def test_follows_with_the_whole_hand_when_it_beats_the_table() -> None:
    assert choose(TWO_PAIRS, "9C 9D JH JS", last="4D 4C 7H 7S") == m("9C 9D JH JS")


def test_plays_out_a_run_of_unbeatable_plays() -> None:
    """2♠2♥ A♠A♥ cannot be beaten (no four-card play of the unseen cards
    tops it), so it leads them and goes out on 9♣; the first version led its
    aces and kept the rest for later."""
    hand = "2S 2H AS AH 9C"
    first = choose(TWO_PAIRS, hand)
    assert first == m("2S 2H AS AH")
    eng = engine(TWO_PAIRS)
    rest = m(hand) & ~first
    assert choose(TWO_PAIRS, "9C") == rest  # the last play empties the hand
    assert unbeatable(eng, eng.classify(first), FULL_DECK & ~m(hand), 12)  # type: ignore[arg-type]
    assert choose(TWO_PAIRS, hand, style=V1) == m("AS AH")
    # following a lower four-card play with it works the same way
    assert choose(TWO_PAIRS, hand, last="3D 3C 4H 4S") == m("2S 2H AS AH")


def test_run_walks_to_the_end_of_the_hand() -> None:
    """Singles, pairs and a last play: each step keeps the lead until the hand is empty."""
    rules = Rules()
    hand = m("2S 2H AS AH KS 7C 7D")
    played = m("2D 2C AD AC")  # the other 2s and aces are gone: K♠ cannot be beaten
    eng = engine(rules)
    unseen = FULL_DECK & ~hand & ~played
    steps = 0
    while hand:
        legal = eng.leads(hand)
        choice = heuristic_play(eng, 0, hand, legal, 0, (hand.bit_count(), 9, 9, 9), unseen)
        assert choice in legal
        hand &= ~choice
        steps += 1
        if hand:
            assert unbeatable(eng, eng.classify(choice), unseen, 9)  # type: ignore[arg-type]
        assert steps < 8
    assert steps <= 5


def test_no_run_when_the_last_play_is_a_barred_finish() -> None:
    rules = Rules(finish_restrictions=("single-2",))
    eng = engine(rules)
    hand = m("2S 2H")
    # 2♠ then 2♥ would go out on a single 2: barred; the pair itself is legal
    assert way_out(eng, hand, eng.leads(hand), FULL_DECK & ~hand, 12) == 0


def test_counts_make_plays_unbeatable() -> None:
    eng = engine(Rules())
    unseen = FULL_DECK & ~m("5C 5D")
    pair = eng.classify(m("5C 5D"))
    assert pair is not None
    assert not unbeatable(eng, pair, unseen, 13)
    assert unbeatable(eng, pair, unseen, 1)  # nobody holds two cards


def test_two_pairs_and_fours_against_the_unseen_cards() -> None:
    rules = Rules(two_pairs=True, four_of_a_kind_alone=True)
    eng = engine(rules)
    two = eng.classify(m("AS AH KS KH"))
    assert two is not None and two.kind == Kind.TWO_PAIRS
    rest = FULL_DECK & ~m("AS AH KS KH")
    assert not unbeatable(eng, two, rest, 13)  # 2s in pairs, and fours alone
    only = m("2D 2C 3D 3C 4S")  # a lower-suited pair of 2s with 3s tops AA-KK
    assert not unbeatable(eng, two, only, 13)
    assert unbeatable(eng, two, m("QD QC JD JC 4S"), 13)
    four = eng.classify(m("9D 9C 9H 9S"))
    assert four is not None
    assert unbeatable(eng, four, m("TD TC TH 3D"), 13)
    assert not unbeatable(eng, four, m("TD TC TH TS"), 13)


# -- planning with every kind -------------------------------------------------


def test_plans_and_leads_two_pairs_as_a_four_card_play() -> None:
    eng = engine(TWO_PAIRS)
    hand = m("3D 3S 6C 6D 9H JD KS 2C")
    assert m("3D 3S 6C 6D") in plan(eng, hand).combos
    assert m("3D 3S 6C 6D") not in plan(eng, hand, all_kinds=False).combos
    game = Game(TWO_PAIRS, hands=["3D 3S 6C 6D 9H JD KS 2C", "4D 5C 7H 8S TD QC AS",
                                  "4C 5D 7S 8H TC QD AD", "4H 5H 7D 8D TH QH AH"])
    assert make_bot("heuristic").choose(game.view(0)) == m("3D 3S 6C 6D")


def test_leads_two_pairs_in_play_where_the_rules_allow_them() -> None:
    rules = Rules.preset("selfplay-2018") if "selfplay-2018" in Rules.presets() else TWO_PAIRS
    eng = engine(rules)
    led = {"new": 0, "v1": 0}
    for seed in range(12):
        for name, key in (("heuristic", "new"), ("heuristic-v1", "v1")):
            game = Game(rules, seed=seed)
            bots = [make_bot(name, seed=s) for s in range(4)]
            while not game.is_over():
                seat = game.to_move
                assert seat is not None
                view = game.view(seat)
                choice = bots[seat].choose(view)
                combo = eng.classify(choice) if choice else None
                if view.leading and combo is not None and combo.kind == Kind.TWO_PAIRS:
                    led[key] += 1
                game.play(choice)
    assert led["v1"] == 0 and led["new"] > 0


def test_plan_with_every_kind_partitions_the_hand() -> None:
    rng = random.Random(4)
    for rules in (TWO_PAIRS, Rules(straight_max=8, straight_min=3), Rules.preset("pagat"),
                  Rules(five_two_pairs="sisters", five_trips=True, four_of_a_kind_alone=True)):
        eng = engine(rules)
        for _ in range(25):
            hand = sum(1 << c for c in rng.sample(range(52), rng.randint(1, 17)))
            union = 0
            for part in plan(eng, hand).combos:
                combo = eng.classify(part)
                assert combo is not None and eng.leadable(combo)
                assert not union & part
                union |= part
            assert union == hand


def test_plans_long_straights_where_allowed() -> None:
    eng = engine(Rules(straight_max=7))
    hand = m("3D 4C 5H 6S 7D 8C 9H KD")
    assert m("3D 4C 5H 6S 7D 8C 9H") in plan(eng, hand).combos


# -- legality, determinism, names ------------------------------------------------


@pytest.mark.parametrize("preset", Rules.presets())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_legal_plays_under_every_preset(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    for seed in range(3):
        game = Game(rules, seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(players)]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            choice = bots[seat].choose(view)
            assert choice in view.legal, (preset, players, seed)
            game.play(choice)


def test_reproducible_for_a_seed() -> None:
    rules = Rules(two_pairs=True, players=3)
    assert _fingerprint("heuristic", rules, 6) == _fingerprint("heuristic", rules, 6)


def test_names_levels_and_options() -> None:
    assert BOT_LEVELS["medium"] == "heuristic"
    bot = make_bot("medium")
    assert isinstance(bot, HeuristicBot) and bot.style == DEFAULT_STYLE
    v1 = make_bot("heuristic-v1")
    assert isinstance(v1, HeuristicBot) and v1.style == V1 and v1.name == "heuristic-v1"
    tuned = make_bot("heuristic", hold_two_above=9, low_cards=2)
    assert isinstance(tuned, HeuristicBot)
    assert (tuned.style.hold_two_above, tuned.style.low_cards) == (9, 2)


# -- heuristic-v1 is the first version ---------------------------------------------

FINGERPRINT_RULES = {
    "classic": Rules(),
    "four-card": Rules(two_pairs=True, four_of_a_kind_alone=True, four_kicker=False,
                       straight_order="indonesia", scoring="count"),
    "pagat-3": Rules.preset("pagat", players=3, deal="13-each"),
    "two-seats": Rules(players=2, deal="13-each"),
    "fives": Rules(five_two_pairs="sisters", five_trips=True, straight_max=7),
}
V1_FINGERPRINTS = {
    # recorded from the heuristic before issue 14's changes (commit fb0cf48)
    "classic": "194722cdaaea8981", "four-card": "c47133d3484b7a26",
    "pagat-3": "791635a65cfeb030", "two-seats": "e8ab770fef1f51ff", "fives": "981930141a636183",
}


def _hands(rules: Rules, seed: int) -> list[Mask]:
    cards = list(range(52))
    random.Random(f"fp:{seed}").shuffle(cards)
    return [sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(rules.players)]


def _fingerprint(name: str, rules: Rules, deals: int = 20) -> str:
    """A hash of every choice of *name* at every seat over *deals* fixed deals."""
    h = hashlib.sha256()
    for seed in range(deals):
        game = Game(rules, hands=_hands(rules, seed))
        bots = [make_bot(name, seed=seed * 10 + s) for s in range(rules.players)]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            choice = bots[seat].choose(game.view(seat))
            h.update(f"{seat}:{choice};".encode())
            game.play(choice)
        h.update(b"|")
    return h.hexdigest()[:16]


@pytest.mark.parametrize("key", sorted(FINGERPRINT_RULES))
def test_heuristic_v1_plays_exactly_as_the_first_version(key: str) -> None:
    assert _fingerprint("heuristic-v1", FINGERPRINT_RULES[key]) == V1_FINGERPRINTS[key]
