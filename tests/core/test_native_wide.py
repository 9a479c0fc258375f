"""The wide core (``src/native/engine_extended.hpp``: two decks and 2-8 players, jokers
valueless or wild) against the Python reference engine
(:class:`~big2.variant.generic.GenericEngine`).

The lockstep of :mod:`native_lockstep` (Python engine, native engine, the core's
``WideState``: the same legal plays in the same order after every action, the same
transitions and scores) over the two-deck and joker rule sets with random options, a
few deals in ``make test`` and a long share nightly; the listing and reading of random
hands; every reading of sets holding wild jokers and the follows of each; copies of a
card named either way; bad masks.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_lockstep import (
    OPTION_NEEDS,
    WIDE_OPTION_VALUES,
    deck_cards,
    engines_agree,
    lockstep,
    option_strategies,
    wide_follows_agree,
)
from python_engine import python_engine
from valid_options import consistent

from big2 import Game, Rules
from big2.cards import DECK_SIZE, parse_cards
from big2.variant import Kind, native, variant

_native = native._native
pytestmark = pytest.mark.skipif(_native is None, reason="big2._native is not built")

WIDE_OPTIONS = {**option_strategies(WIDE_OPTION_VALUES),
                # 2 players (52-card hands, slow on the Python engine): below, nightly
                "players": st.integers(3, 8)}
"""Every option the two-deck core plays, with its values."""

wide_mixes = st.fixed_dictionaries({}, optional=WIDE_OPTIONS).map(
    lambda o: Rules(**consistent({**o, "decks": 2})))


wild_mixes = st.tuples(st.fixed_dictionaries({}, optional=WIDE_OPTIONS),
                       st.sampled_from((1, 2))).map(
    lambda od: wide_rules({**od[0], "jokers": "wild"}, od[1]))
"""Rule sets with wild jokers: one deck or two, random options of the wide core."""


def wide_rules(options: dict[str, Any], decks: int) -> Rules:
    """*options* (values of :data:`_VALUES`) as a rule set of the wide core: two decks, or
    one deck with jokers (up to four players): wild ones if *options* say so, else
    valueless ones (and then no five of a kind)."""
    if decks == 1:
        wild = options.get("jokers") == "wild"
        options = {k: v for k, v in options.items() if wild or k != "five_of_a_kind"}
        options.update(jokers="wild" if wild else "valueless",
                       players=min(options.get("players", 4), 4))
    return Rules(**consistent({**options, "decks": decks}))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lockstep_one_deck_with_valueless_jokers(players: int) -> None:
    """Valueless jokers (singles that beat and are beaten by any single) on the wide
    core, one deck."""
    rules = Rules(jokers="valueless", players=players)
    assert isinstance(native.native_engine(rules), native.WideNativeEngine)
    assert sum(lockstep(rules, seed) for seed in range(2)) > 20


@pytest.mark.parametrize(("players", "five"), [
    (2, "off"), (3, "below-straight-flush"), (4, "off"), (4, "above-straight-flush")])
def test_lockstep_one_deck_with_wild_jokers(players: int, five: str) -> None:
    """Wild jokers (any card; a set may read as several plays, played as the strongest
    reading that beats the table) on the wide core, one deck."""
    rules = Rules(jokers="wild", players=players, five_of_a_kind=five)
    assert isinstance(native.native_engine(rules), native.WideNativeEngine)
    assert variant(rules).native_deal
    assert sum(lockstep(rules, seed) for seed in range(3)) > 40


def readings_and_follows_agree(rules: Rules, seed: int, draws: int) -> None:
    """Sets holding wild jokers, drawn at random (*draws* of them) and from the plays a hand
    lists: every reading (strongest first), and what follows each reading, as the Python
    engine."""
    rng = random.Random(seed)
    ref = variant(rules, engine="python").engine
    tables = native.native_engine(rules).tables
    cards = deck_cards(rules)
    jokers = [c for c in cards if c % DECK_SIZE >= 52]
    naturals = [c for c in cards if c % DECK_SIZE < 52]
    sure = int(parse_cards("5H 6H 7H 8H RJ"))  # a straight flush, a straight, a flush
    reads = _native.wide_readings(tables, sure)
    assert len(reads) >= 2 and reads == [(int(c.kind), c.power) for c in ref.readings(sure)]
    wide_follows_agree(ref, tables, rng.sample(cards, 17), sure)
    for _ in range(draws):
        n = rng.randint(2, 5)
        j = rng.randint(1, min(n, len(jokers)))
        drawn = sum(1 << c for c in rng.sample(jokers, j) + rng.sample(naturals, n - j))
        hand = sum(1 << c for c in rng.sample(cards, 17)) | 1 << jokers[0]
        listed = [p & ((1 << 108) - 1) for g in ref.hand_plays(hand).groups[2:6] for p in g]
        for mask in (drawn, rng.choice([m for m in listed if m >> 52 & 3 or m >> 106 & 3])):
            reads = _native.wide_readings(tables, mask)
            assert reads == [(int(c.kind), c.power) for c in ref.readings(mask)]
            if reads:
                wide_follows_agree(ref, tables, rng.sample(cards, 17), mask)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=wild_mixes, seed=st.integers(0, 2**32))
def test_wild_readings_and_follows_agree(rules: Rules, seed: int) -> None:
    readings_and_follows_agree(rules, seed, 20)


@pytest.mark.nightly
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=wild_mixes, seed=st.integers(0, 2**32))
def test_wild_readings_and_follows_agree_on_more(rules: Rules, seed: int) -> None:
    readings_and_follows_agree(rules, seed, 40)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("players", [2, 4, 5, 6, 8])
def test_lockstep_two_decks(players: int) -> None:
    rules = Rules(decks=2, players=players)
    assert sum(lockstep(rules, seed) for seed in range(2)) > 20


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=wide_mixes, seed=st.integers(0, 2**32))
def test_lockstep_two_deck_option_mixes(rules: Rules, seed: int) -> None:
    lockstep(rules, seed)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@settings(max_examples=4, deadline=None)
@given(rules=wide_mixes, seed=st.integers(0, 2**32))
def test_engines_agree_on_random_two_deck_hands(rules: Rules, seed: int) -> None:
    engines_agree(rules, random.Random(seed), 3)


@pytest.mark.parametrize("rules", [
    Rules(decks=2, players=6, finish_restrictions=("single-2", "2S"), three_threes=True),
    Rules(decks=2, players=4, teams=True, assist_penalty=True),
], ids=repr)
def test_house_rule_games_match_on_two_decks(rules: Rules) -> None:
    """House-rule hooks run in Game (the Python trick loop) over the two-deck native
    engine as over the Python one."""
    assert native.native_reason(rules) is None and native.native_deal_reason(rules) is not None
    for seed in range(2):
        with python_engine():
            ref = Game(rules, seed=seed)
        game = Game(rules, seed=seed)
        assert game.variant.native and game._core is None
        rng = random.Random(seed)
        while not ref.is_over():
            assert game.legal_masks() == ref.legal_masks()
            play = rng.choice(ref.legal_masks())
            ref.play(play)
            game.play(play)
            assert game.hands == ref.hands and game.numbers() == ref.numbers()
        assert game.outcome() == ref.outcome() and game.log == ref.log


@pytest.mark.parametrize("five", ["below-straight-flush", "above-straight-flush"])
def test_going_out_with_five_of_a_kind_scores_alike(five: str) -> None:
    """Five of a kind (two decks) is listed, played and doubles every loser as the
    Python engine does."""
    rules = Rules(decks=2, players=3, five_of_a_kind=five)
    hands = [parse_cards(h, copies=2) for h in
             ("3D 9H 9H 9S 9S 9D", "4D 4C KS KS", "5D 6C 7H 8S 2S 2S 2H 2H 2C 2C")]
    games = []
    for reference in (True, False):
        with python_engine() if reference else contextlib.nullcontext():
            g = Game(rules, hands=hands)
        assert (g._core is None) == reference
        g.play("3D")
        while not g.is_over():
            legal = g.legal_masks()
            fives = [p for p in legal if p.bit_count() == 5]
            g.play(fives[0] if g.to_move == 0 and fives else 0 if 0 in legal else legal[0])
        games.append(g)
    ref, game = games
    assert game.history == ref.history and game.outcome() == ref.outcome()
    assert ref.history[-1].cards.bit_count() == 5 and ref.history[-1].seat == 0
    assert ref.variant.engine.classify(ref.history[-1].cards).kind == Kind.FIVE_OF_A_KIND
    assert game.scores() == (2568, -8, -2560)  # every loser doubled once more


WIDE_SWEEP_PARTS = 160
WIDE_SWEEP_POSITIONS = 6_250
"""Positions each nightly case checks: 160 cases, a million positions in all (cases of
25,000 took up to 10 minutes on the slowest option mixes, longer than CI's slice)."""


@pytest.mark.nightly
@pytest.mark.parametrize("part", range(WIDE_SWEEP_PARTS))
def test_lockstep_two_decks_sweep(part: int) -> None:
    """The wide differential: random option mixes (seeded by *part*; two decks, or one
    deck with jokers, valueless or wild), stepped in lockstep until :data:`WIDE_SWEEP_POSITIONS`
    positions agree."""
    rng = random.Random(part)
    positions = 0
    while positions < WIDE_SWEEP_POSITIONS:
        options = {name: rng.choice(_VALUES[name]) for name in rng.sample(sorted(_VALUES), 8)}
        rules = wide_rules(options, rng.choice((1, 2)))
        positions += lockstep(rules, rng.randrange(2**32))
        engines_agree(rules, rng, 1)
    assert positions >= WIDE_SWEEP_POSITIONS


_VALUES = WIDE_OPTION_VALUES


def test_sweep_values_are_ones_the_wide_core_plays() -> None:
    for name, values in _VALUES.items():
        for value in values:
            rules = wide_rules({name: value, **OPTION_NEEDS.get(name, {})}, decks=2)
            assert getattr(rules, name) == value
            assert native.native_deal_reason(rules) is None, (name, value)


def test_copies_named_either_way_play_the_same() -> None:
    """A play naming the other copy of a card held once is the listed play, on both
    engines, and the history records the copy held."""
    rules = Rules(decks=2, players=6)
    for seed in range(20):
        with python_engine():
            ref = Game(rules, seed=seed)
        game = Game(rules, seed=seed)
        assert game._core is not None
        hand = ref.hands[ref.to_move]  # type: ignore[index]
        single = next(p for p in ref.legal_masks() if p and not p & (p - 1))
        other = single << DECK_SIZE if single < 1 << DECK_SIZE else single >> DECK_SIZE
        if other & hand:
            continue  # both copies held: naming either is that copy
        for g in (ref, game):
            g.play(other)
        assert game.history == ref.history and game.history[-1].cards == single
        assert game.hands == ref.hands and game.legal_masks() == ref.legal_masks()
        return
    pytest.fail("no deal with a lead of a single held once")


@pytest.mark.parametrize(("mask", "error"), [
    (-1, ValueError), (1 << 52, ValueError), (1 << 106, ValueError), (1 << 200, ValueError),
    ("3D", TypeError), (1.0, TypeError), (None, TypeError), (True, TypeError),
])
def test_bad_two_deck_masks_raise(mask: object, error: type[Exception]) -> None:
    tables = native.native_engine(Rules(decks=2, players=6)).tables  # type: ignore[union-attr]
    for call in (lambda: _native.wide_classify(tables, mask),
                 lambda: _native.wide_hand_plays(tables, mask),
                 lambda: _native.wide_bombs_held(tables, mask)):
        with pytest.raises(error):
            call()
