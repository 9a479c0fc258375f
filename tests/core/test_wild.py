"""Jokers, two decks, five of a kind and equal plays (RULES.md §2, variations 29
and 34): each rule played through, the GenericEngine against the plain engine and
against a brute-force reference, random deals and bots under every option set.

The two costly sweeps check a share in ``make test`` and the rest under the
``nightly`` marker (``make test-nightly``; CI runs a slice), together the same positions and
deals as always: a third of the reference's legal-play positions, and one
deal of six for the plays kept up to date against a fresh listing (every
hand of up to eight listed again after every play).
"""

from __future__ import annotations

import itertools
import random
import zlib

import pytest
from house_options import (
    EXTENDED_DECK_OPTION_SETS,
    REFERENCE_EXTENDED_SETS,
    option_id,
    rich_hands,
)
from reference_wild import ref_legal_wild, ref_played

from big2 import Game, IllegalPlayError, Rules
from big2.bots import make_bot
from big2.cards import DECK_SIZE, JOKERS, InvalidCardError, cards_of, parse_cards
from big2.combos import Kind, engine
from big2.rules import InvalidRulesError
from big2.variant.generic import GenericEngine
from big2.variant.keys import PLAY_MASK, StrengthKeys
from big2.variant.tables import TableEngine

PARTS = [pytest.param("share", id="share", marks=pytest.mark.sweep),
         pytest.param("rest", id="rest", marks=pytest.mark.nightly)]
"""A sweep's two parts: the share ``make test`` runs (``make test-fast`` skips
it: marker ``sweep``) and the ``nightly`` rest."""


def m(text: str) -> int:
    """A mask from card text, a card named twice meaning both decks' copies."""
    return int(parse_cards(text, copies=2))


# -- the generic reader agrees with the plain engine on one deck ----------------

PLAIN_SETS = [
    {}, {"straight_order": "pagat", "flush_order": "suit"},
    {"two_pairs": True, "four_of_a_kind_alone": True, "five_trips": True,
     "five_two_pairs": "any", "suit_order": "CSHD"},
    {"five_two_pairs": "sisters", "straight_order": "malaysia"},
    {"five_card_compare": "top-card", "suit_order": "CDSH"},
    {"suit_ranking": False, "five_card_compare": "same-kind", "straight_beats_flush": True},
    {"smack_down": "any-2", "straight_min": 3, "straight_max": 8, "dragon": True,
     "suit_order": "CSHD"},
    {"bomb_on_small": True, "four_beats_all": True, "four_of_a_kind_alone": True},
    {"straight_order": "ace-top", "triples": False, "four_kicker": False, "play_equal": True},
    {"flush_order": "top-card", "opening": "alone", "two_pairs": True,
     "four_of_a_kind_alone": True, "four_kicker": False, "straight_order": "indonesia"},
    {"flush_order": "top-card", "suit_ranking": False, "suit_order": "CDSH"},
]


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", PLAIN_SETS, ids=lambda o: option_id(o) or "default")
def test_wild_engine_agrees_with_the_plain_engine_on_one_deck(options: dict) -> None:
    """Without jokers the generic reader must list, read and compare every play
    exactly as the plain engine's tables do."""
    rules = Rules(**options)
    plain, wild = TableEngine(rules), GenericEngine(rules)
    rng = random.Random(zlib.crc32(option_id(options).encode()))
    for i in range(60):
        hand = rich_hands(rng, 1, 13)[0] if i % 2 else sum(
            1 << c for c in rng.sample(range(52), 13))
        p_groups = [[e & PLAY_MASK for e in g] for g in plain.hand_plays(hand).groups[1:]]
        w_groups = [[e & PLAY_MASK for e in g] for g in wild.hand_plays(hand).groups[1:]]

        def by_key(plays: list[int]) -> tuple[list[int], set[object]]:
            """Plays of up to five cards, and the play keys of the longer ones
            (the generic engine lists one set of cards per key, see big2.variant.generic)."""
            return (sorted(p for p in plays if p.bit_count() <= 5),
                    {wild.play_key(p) for p in plays if p.bit_count() > 5})

        assert by_key(plain.leads(hand)) == by_key(wild.leads(hand))
        every = sorted(p for g in p_groups for p in g)
        assert by_key(every) == by_key([p for g in w_groups for p in g])
        for p in every:
            assert wild.classify(p) == plain.classify(p)
        other = sum(1 << c for c in rng.sample(range(52), 13))
        for p in rng.sample(every, min(8, len(every))):
            last = plain.classify(p)
            assert last is not None
            assert by_key(plain.follows(other, last)) == by_key(
                wild.follows_from(wild.hand_plays(other), last))


# -- legal plays against the brute-force reference --------------------------------


def joker_positions(rules: Rules, count: int, seed: int):
    """Random-play positions where the player to move holds a joker or two
    copies of a card (the positions these rules are about)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        g = Game(rules, seed=rng.getrandbits(32))
        while not g.is_over() and made < count:
            hand = g.hands[g.to_move]
            if (hand & JOKERS or hand & hand >> DECK_SIZE) and rng.random() < 0.5:
                yield g
                made += 1
            g.play(rng.choice(g.legal_masks()))


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("options", REFERENCE_EXTENDED_SETS, ids=option_id)
def test_legal_plays_match_reference(options: dict, part: str) -> None:
    rules = Rules(**options)
    count = 30 if rules.jokers == "wild" else 60
    sweep = joker_positions(rules, count, zlib.crc32(option_id(options).encode()))
    # a wild joker's reference reads each joker as all 52 cards: its share is smaller
    share = count // 6 if rules.jokers == "wild" else count // 3
    for g in itertools.islice(sweep, *((0, share) if part == "share" else (share, count))):
        seat = g.to_move
        trick = [tuple(cards_of(a.cards)) for a in g.trick if a.cards]
        must = g.must_contain.bit_length() - 1 if g.must_contain else None
        expected = ref_legal_wild(cards_of(g.hands[seat]), rules, trick, must, waive=g.waive)
        got = g.legal_masks()
        assert len(got) == len(set(got)), "duplicate legal plays"
        assert set(got) == expected, (g.trick, g.hand(seat))


# -- random deals and bots --------------------------------------------------------


def play_and_check(rules: Rules, seed: int, reference: bool) -> Game:
    """A random deal with invariants at every step: cards conserved, each play
    from the hand, read as the reference reads it, the deal ends with scores."""
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    deck = engine(rules).deck_cards
    dealt = 0
    for h in g.initial_hands:
        assert h & ~deck == 0 and not h & dealt
        dealt |= h
    while not g.is_over():
        seat = g.to_move
        assert seat is not None and g.hands[seat]
        play = rng.choice(g.legal_masks())
        if play:
            assert play & ~g.hands[seat] == 0
            g.check_play(play)
        if play and reference:
            before = [tuple(cards_of(a.cards)) for a in g.trick if a.cards]
            last = None
            for p in before:
                last = ref_played(p, last, rules)
            assert ref_played(tuple(cards_of(play)), last, rules) is not None
        g.play(play)
        held = g.played()
        for h in g.hands:
            assert not h & held
            held |= h
        assert held == dealt, "cards not conserved"
    out = g.outcome()
    assert out is not None and g.hands[out.winner] == 0 or g.instant_result
    if rules.scoring in ("classic", "count") and not rules.teams and g.penalty is None:
        assert sum(out.scores) == 0 and out.scores[out.winner] == max(out.scores) > 0
    return g


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", EXTENDED_DECK_OPTION_SETS, ids=option_id)
def test_random_deals_hold_invariants(options: dict) -> None:
    rules = Rules(**options)
    reference = options in REFERENCE_EXTENDED_SETS
    for i in range(12):
        play_and_check(rules, 7000 + i, reference)


@pytest.mark.sweep  # over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", EXTENDED_DECK_OPTION_SETS, ids=option_id)
def test_every_bot_plays_legally(options: dict) -> None:
    rules = Rules(**options)
    names = ["random", "greedy", "heuristic", "expert"]
    for i in range(4):
        g = Game(rules, seed=300 + i)
        bots = [make_bot(names[(s + i) % 4], seed=s) for s in range(rules.players)]
        while not g.is_over():
            view = g.view(g.to_move)  # type: ignore[arg-type]
            choice = bots[view.seat].choose(view)
            assert choice in view.legal
            g.play(choice)
        assert g.outcome() is not None


# -- the rules, played -----------------------------------------------------------


def test_options_validate() -> None:
    with pytest.raises(InvalidRulesError, match="decks=2"):
        Rules(players=5)
    with pytest.raises(InvalidRulesError, match="five_of_a_kind"):
        Rules(five_of_a_kind="below-straight-flush")
    with pytest.raises(InvalidRulesError, match="maltese"):
        Rules(jokers="wild", maltese=True)
    with pytest.raises(InvalidRulesError, match="jokers"):
        Rules(jokers="some")
    with pytest.raises(InvalidRulesError):
        Rules(decks=3)
    r = Rules(decks=2, players=8, jokers="valueless", five_of_a_kind="above-straight-flush",
              play_equal=True)
    assert Rules.from_json(r.to_json()) == r


@pytest.mark.parametrize("players, sizes", [
    (5, [24, 20, 20, 20, 20]), (6, [19, 17, 17, 17, 17, 17]),
    (7, [20, 14, 14, 14, 14, 14, 14]), (8, [13] * 8)])
def test_two_decks_deal_to_five_to_eight(players: int, sizes: list[int]) -> None:
    g = Game(Rules(decks=2, players=players), seed=players)
    assert sorted(g.dealt, reverse=True) == sizes
    all_cards = 0
    for h in g.initial_hands:
        all_cards |= h
    assert all_cards.bit_count() == 104
    # a holder of 3♦ leads (of two, the first from the dealer's left) and got the spare cards
    leader = g.to_move
    assert leader is not None and g.must_contain & g.hands[leader]
    assert g.must_contain in (1, 1 << DECK_SIZE)
    assert g.dealt[leader] == max(g.dealt)


def test_jokers_are_dealt_and_the_lowest_card_leads() -> None:
    g = Game(Rules(jokers="wild"), seed=1)
    held = 0
    for h in g.initial_hands:
        held |= h
    assert held & JOKERS == 3 << 52 and held.bit_count() == 54
    assert sorted(g.dealt) == [13, 13, 13, 15]


def test_wild_joker_alone_is_above_two_of_spades_black_over_red() -> None:
    g = Game(Rules(jokers="wild"), hands=["3D 2S", "RJ 4C", "BJ 5C", "6C 7C"])
    g.play("3D")
    g.play("RJ")
    with pytest.raises(IllegalPlayError):  # nothing beats the red joker but the black
        g.copy().play("5C")
    g.play("BJ")
    assert g.last_play == parse_cards("BJ")
    # and the red joker does not beat the black one
    g2 = Game(Rules(jokers="wild"), hands=["3D BJ", "RJ 4C", "2S 5C", "6C 7C"])
    g2.play("3D")
    g2.play("4C")
    g2.play("2S")
    g2.play("pass")
    g2.play("BJ")
    assert not g2.is_legal("RJ")


def test_wild_joker_completes_plays() -> None:
    eng = engine(Rules(jokers="wild"))
    assert eng.classify(m("7D RJ")).kind == Kind.PAIR
    assert eng.classify(m("KD KC BJ 4S 4H")).kind == Kind.FULL_HOUSE
    assert eng.classify(m("3D 5D 9D JD RJ")).kind == Kind.FLUSH
    sf = eng.classify(m("3D 4D 5D 6D RJ"))
    assert sf.kind == Kind.STRAIGHT_FLUSH
    # K K K + two jokers: four kings and a card, or a full house
    kinds = {c.kind for c in eng.readings(m("KD KC KH RJ BJ"))}
    assert {Kind.FOUR_KICKER, Kind.FULL_HOUSE} <= kinds
    # a joker pair takes the strongest suit: it beats K♥K♣, ties K♠K♣, loses to aces
    assert eng.beats(eng.classify(m("KD RJ")), eng.classify(m("KH KC")))
    assert not eng.beats(eng.classify(m("KD RJ")), eng.classify(m("KS KC")))
    assert not eng.beats(eng.classify(m("KS RJ")), eng.classify(m("AD AC")))
    # jokers alone in a pair read as two 2s with the top suit
    assert eng.classify(m("RJ BJ")).power == eng.classify(m("2S 2H")).power
    assert eng.classify(m("RJ 4C 9D")) is None


def test_a_joker_takes_the_reading_that_beats_the_table() -> None:
    """No poker: a straight must follow a straight; a joker set that is best
    read as a straight flush is played as the straight that beats."""
    rules = Rules(jokers="wild", five_card_compare="same-kind")
    g = Game(rules, hands=["3D 4C 5H 6S 7D 4D", "8C 9C TC JC RJ 3C", "QD 2C", "KD 2H"])
    g.play("3D 4C 5H 6S 7D")
    g.play("8C 9C TC JC RJ")
    assert g.last_combo is not None and g.last_combo.kind == Kind.STRAIGHT
    eng = engine(rules)
    assert eng.classify(m("8C 9C TC JC RJ")).kind == Kind.STRAIGHT_FLUSH
    from big2.terminal import _kind  # the terminal names the reading that was played

    assert _kind(g, m("8C 9C TC JC RJ")) == "straight"


def test_valueless_joker_beats_any_single_and_any_single_beats_it() -> None:
    rules = Rules(jokers="valueless")
    g = Game(rules, hands=["3D 2S 5S", "RJ 4C 6D", "4D 7C", "6C 8C"])
    g.play("3D")
    g.play("pass")
    g.play("pass")
    g.play("pass")
    g.play("2S")
    g.play("RJ")  # on the 2♠
    assert g.to_move == 2
    g.play("4D")  # the lowest card beats the joker
    assert g.last_play == parse_cards("4D")
    eng = engine(rules)
    assert eng.classify(m("RJ 4C 9D")) is None and eng.classify(m("RJ BJ")) is None


def test_two_decks_copies_identical_plays_and_five_of_a_kind() -> None:
    rules = Rules(decks=2, players=5)
    g = Game(rules, hands=["3D 9S", "3D 4C", "5C 6C", "7C 8C", "TC JC"], dealer=4)
    assert g.to_move == 0  # of the two 3♦ holders, the first from the dealer's left
    g.play("3D")
    assert not g.is_legal("3D")  # an identical single may not follow ...
    eq = Game(rules.replace(play_equal=True), hands=["3D 9S", "3D 4C", "5C 6C", "7C 8C", "TC JC"],
              dealer=4)
    eq.play("3D")
    assert eq.is_legal("3D")  # ... unless play_equal is on
    eq.play("3D")
    assert eq.hands[1] == m("4C")  # the player's own copy (the second deck's) left the hand
    # a pair of one card's two copies
    eng = engine(rules)
    assert eng.classify(m("7H 7H")).kind == Kind.PAIR
    assert eng.beats(eng.classify(m("7S 7D")), eng.classify(m("7H 7H")))
    with pytest.raises(InvalidCardError):  # only two decks
        m("7H 7H 7H")
    assert eng.classify(m("9D 9D 9C 9H 9S")) is None  # five of a kind is off
    for where, beats_sf in (("below-straight-flush", False), ("above-straight-flush", True)):
        e5 = engine(rules.replace(five_of_a_kind=where))
        five = e5.classify(m("4D 4D 4C 4H 4S"))
        assert five is not None and five.kind == Kind.FIVE_OF_A_KIND
        assert e5.beats(five, e5.classify(m("AD AC AH AS 3D")))
        assert e5.beats(five, e5.classify(m("3D 4D 5D 6D 7D"))) == beats_sf
    # a flush needs five different ranks
    assert eng.classify(m("3S 3S 5S 7S 9S")) is None


def test_two_deck_scoring_counts_fours_and_twos_per_copy() -> None:
    from big2.scoring import doubling_count

    rules = Rules(decks=2, players=6)
    assert doubling_count(m("2S 2S"), rules) == 2
    assert doubling_count(m("9D 9D 9C 9H"), rules) == 1  # four of a kind, copies included
    assert doubling_count(m("9D 9D 9C 9H 9S 9S 9C 9H"), rules) == 2


def test_two_copies_of_the_lowest_card_first_holder_from_the_dealers_left_leads() -> None:
    rules = Rules(decks=2, players=5)
    hands = ["9C 4C", "3D TC", "JC QC", "3D KC", "AC 2C"]
    for dealer, leader in ((0, 1), (1, 3), (2, 3), (3, 1)):
        g = Game(rules, hands=hands, dealer=dealer)
        assert g.to_move == leader
        assert not g.is_legal("4C") if leader == 1 else True
        # either copy of 3♦ makes the first play
        copy = g.hands[leader] & (1 | 1 << DECK_SIZE)
        g.play(copy)
        assert g.history[0].cards == copy
    both = Game(rules, hands=["3D 3D 5C", "4C", "6C", "7C", "8C"])
    both.play(1 << DECK_SIZE)  # the second copy by number
    assert both.hands[0] == m("3D 5C")


@pytest.mark.parametrize("options", [{"decks": 2, "players": 8}, {"jokers": "wild"},
                                     {"decks": 2, "players": 6, "jokers": "valueless"}],
                         ids=option_id)
@pytest.mark.parametrize("part", PARTS)
def test_plays_kept_up_to_date_equal_a_fresh_listing(options: dict, part: str) -> None:
    """After each play a hand's plays are carried over (moved onto the other copy
    of a played card); they must equal listing the hand again, even when a
    player names the second deck's copy of a card it holds twice. (The share checks
    the hand that moved after each play: the hands that did not move are the rest's.)"""
    rules = Rules(**options)
    keys = StrengthKeys(rules)  # the rule set's tables, built once; each listing is fresh
    rng = random.Random(17)
    checked = range(1) if part == "share" else range(1, 6)
    for seed in range(6):  # the rest plays the share's deal too (unchecked), for its draws
        if seed > max(checked):
            break
        g = Game(rules, seed=seed)
        while not g.is_over():
            play = rng.choice(g.legal_masks())
            hand = g.hands[g.to_move]  # type: ignore[index]
            if play and rng.random() < 0.5:  # the other copy, where the hand holds both
                play = sum(1 << (c + DECK_SIZE) if c < DECK_SIZE and (hand & ~play) >> (
                    c + DECK_SIZE) & 1 else 1 << c for c in cards_of(play))
            mover = g.to_move
            g.play(play)
            if seed not in checked:
                continue
            for seat, hp in enumerate(g._hp):
                # the share lists again only the hand that changed; the rest every hand
                if hp is not None and (part == "rest" or seat == mover):
                    fresh = GenericEngine(rules, keys).hand_plays(g.hands[seat])
                    assert [sorted(x) for x in hp.groups] == [sorted(x) for x in fresh.groups]


def test_president_titles_and_exchange_with_six_players() -> None:
    from big2 import Match

    rules = Rules(decks=2, players=6, exchange="after", match_deals=2)
    match = Match(rules, seed=4)
    bots = [make_bot("greedy", seed=s) for s in range(6)]
    while not match.is_over():
        g = match.new_game()
        while not g.is_over():
            view = g.view(g.to_move)  # type: ignore[arg-type]
            g.play(bots[view.seat].choose(view))
        match.record(g)
        titles = match.titles
        assert sorted(titles) == sorted(["President", "Vice-President", "Citizen", "Citizen",
                                          "Vice-Scum", "Scum"])
    # before the second deal: Scum gave the President 2 cards, Vice-Scum gave 1; both got as many back
    gives = [(e.giver, e.receiver, e.cards.bit_count()) for e in match.exchanges]
    assert len(gives) == 4 and [n for _, _, n in gives] == [2, 2, 1, 1]
    g2 = match.games[-1]
    assert sum(h.bit_count() for h in g2.initial_hands) == 104


def test_wild_policy_keeps_a_pair_whole_when_a_single_beats() -> None:
    from big2.bots.wildplay import wild_play

    rules = Rules(jokers="wild")
    g = Game(rules, hands=["3D 4C 7D 8D", "5D 5C 6H 9S", "7C 8C", "JC QC"])
    g.play("3D")
    view = g.view(1)
    assert int(parse_cards("5D")) in view.legal  # the weakest single breaks the pair of 5s
    assert wild_play(view) == int(parse_cards("6H"))
