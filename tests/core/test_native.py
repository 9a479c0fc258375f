"""The compiled core (:mod:`big2._native`) against the Python reference engine.

Random deals are stepped in lockstep through three players of the same deal:
a :class:`~big2.Game` on the Python engine, a :class:`~big2.Game` on the native
engine (what users get by default) and the core's own :class:`big2._native.State`;
at every step the legal-play lists, the transition (turn, hands, play to beat,
passes) and at the end the scores must be identical. Deals run under every
preset of the standard family and under random option mixes (hypothesis); a
share runs in ``make test``, a larger sweep under ``slow``. Bad input through
the bindings must raise a Python exception, never crash.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_lockstep import (
    CORE_OPTION_VALUES,
    OPTION_NEEDS,
    engines_agree,
    lockstep,
    option_strategies,
)
from python_engine import python_engine
from valid_options import consistent

from big2 import Game, Rules
from big2.cards import cards_of
from big2.variant import native, variant

_native = native._native
pytestmark = pytest.mark.skipif(_native is None, reason="big2._native is not built")

FAMILY_PRESETS = [name for name in Rules.presets() if not Rules.preset(name).extended_deck]
"""Every preset of the standard family (one deck, no jokers): all of them today."""

NATIVE_GAME_OPTIONS = option_strategies(CORE_OPTION_VALUES)
"""Every option the core's own deal loop plays, with its values."""

option_mixes = st.fixed_dictionaries({}, optional=NATIVE_GAME_OPTIONS).map(
    lambda o: Rules(**consistent(o)))


# -- which rule sets are native ------------------------------------------------------

def test_family_presets_are_native() -> None:
    for name in FAMILY_PRESETS:
        assert variant(Rules.preset(name)).native, name


@pytest.mark.parametrize("option", [
    {"smack_down": "2S"}, {"straight_max": 7}, {"straight_min": 3}, {"dragon": True},
    {"bomb_on_small": True}, {"four_beats_all": True},
    {"jokers": "wild", "smack_down": "2S"}, {"decks": 2, "players": 6, "dragon": True},
], ids=lambda o: next(iter(o)))
def test_options_outside_the_core_keep_the_python_engine(option: dict[str, Any]) -> None:
    rules = Rules(**option)
    assert not variant(rules).native
    assert native.native_reason(rules) in option


def test_house_rules_keep_the_engine_native_but_not_the_deal_loop() -> None:
    rules = Rules(three_threes=True)  # a hook in Game
    assert variant(rules).native
    assert native.native_game_reason(rules) == "three_threes"
    assert native.native_deal_reason(rules) == "three_threes"
    assert not variant(rules).native_deal


def test_finish_restrictions_are_in_the_deal_but_not_the_one_deck_loops() -> None:
    """Philippines (finish restrictions): Game's deal in the core (the leader's pass and
    the waiver are the core's), the core's own loops (Batch, the environment, the
    heuristic's play-outs) not."""
    rules = Rules.preset("philippines")
    assert variant(rules).native and variant(rules).native_deal
    assert native.native_game_reason(rules) == "finish_restrictions"
    assert Game(rules, seed=1)._core is not None


def test_two_decks_are_native_but_not_the_one_deck_loops() -> None:
    """Two decks and 2-8 players: the engine and Game's deal in the core (``WideState``);
    the core's own one-deck loops (Batch, the environment, the heuristic) say ``decks``."""
    for players, five in ((2, "off"), (4, "below-straight-flush"), (5, "off"),
                          (8, "above-straight-flush")):
        rules = Rules(decks=2, players=players, five_of_a_kind=five)
        v = variant(rules)
        assert v.native and v.native_deal and native.native_deal_reason(rules) is None
        assert native.native_game_reason(rules) == "decks"
        assert isinstance(v.engine, native.WideNativeEngine)


def test_jokers_are_native_but_not_the_one_deck_loops() -> None:
    for rules in (Rules(jokers="valueless"), Rules(jokers="valueless", decks=2, players=6),
                  Rules(jokers="wild"), Rules(jokers="wild", five_of_a_kind="below-straight-flush"),
                  Rules(jokers="wild", decks=2, players=6)):
        v = variant(rules)
        assert v.native and v.native_deal and isinstance(v.engine, native.WideNativeEngine)
        assert native.native_game_reason(rules) in ("jokers", "decks")


def test_python_engine_is_selectable() -> None:
    assert not variant(Rules(), engine="python").native
    assert variant(Rules(), engine="native").native
    with python_engine():
        assert not variant(Rules()).native
        assert not Game(seed=1).variant.native
        assert variant(Rules(), engine="native").native
    with pytest.raises(ValueError, match="engine"):
        variant(Rules(), engine="fortran")


def test_games_on_the_native_engine_pickle_and_deepcopy() -> None:
    import copy
    import pickle

    g = Game(seed=4)
    g.play(g.legal_masks()[0])
    for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert h.variant.native and h.hands == g.hands and h.legal_masks() == g.legal_masks()
        h.play(h.legal_masks()[-1])


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(players=2),
                                   Rules(players=3, spare_to="aside"),
                                   Rules(players=3, deal="13-each"), Rules(jokers="wild")],
                         ids=str)
def test_the_core_shuffles_and_deals_as_python_does(rules: Rules) -> None:
    """The core's one-deck shuffle (big2.variant.native.shuffle_deal) deals, from a
    random.Random, the hands the Python shuffle deals, and leaves the stream where it does."""
    deck, after = variant(rules).deck, variant(rules).turns.after
    for seed in range(300):
        core, python = random.Random(seed), random.Random(seed)
        order = after[seed % len(after)]
        assert deck.shuffle_deal(core, order, native.shuffle_deal) == deck.shuffle_deal(python,
                                                                                         order)
        assert core.getrandbits(64) == python.getrandbits(64)
    with pytest.raises(TypeError, match="float"):
        native.shuffle_deal(lambda: 1, 52, 13, [0, 1, 2, 3])
    with pytest.raises(ValueError, match="per"):
        native.shuffle_deal(random.random, 52, 14, [0, 1, 2, 3])


# -- lockstep: presets and option mixes -----------------------------------------------

@pytest.mark.parametrize("name", FAMILY_PRESETS)
def test_lockstep_presets(name: str) -> None:
    rules = Rules.preset(name)
    if native.native_game_reason(rules) is not None:  # house-rule hooks: Game and engine only
        rules = rules.replace(finish_restrictions=())
    for seed in range(6):
        lockstep(rules, seed)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes, seed=st.integers(0, 2**32))
def test_lockstep_option_mixes(rules: Rules, seed: int) -> None:
    lockstep(rules, seed)


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@settings(max_examples=30, deadline=None)
@given(rules=option_mixes, seed=st.integers(0, 2**32))
def test_engines_agree_on_random_hands(rules: Rules, seed: int) -> None:
    engines_agree(rules, random.Random(seed), 6)


SWEEP_DEALS = 1500
"""Deals per preset in the slow sweep: about 100,000 positions a preset (a deal is about 70
steps), over a million across the family's presets, each checked in three engines."""


@pytest.mark.nightly
@pytest.mark.parametrize("name", FAMILY_PRESETS)
def test_lockstep_presets_sweep(name: str) -> None:
    rules = Rules.preset(name).replace(finish_restrictions=())
    positions = sum(lockstep(rules, seed) for seed in range(6, 6 + SWEEP_DEALS))
    assert positions > SWEEP_DEALS * 20
    engines_agree(rules, random.Random(name), 300)


@pytest.mark.nightly
@pytest.mark.parametrize("part", range(24))  # 24 x 25 examples: parts the workers share
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=option_mixes, seed=st.integers(0, 2**32))
def test_lockstep_option_mixes_sweep(part: int, rules: Rules, seed: int) -> None:
    lockstep(rules, seed)
    engines_agree(rules, random.Random(seed), 20)


OPTION_VALUES = [(name, value) for name, values in CORE_OPTION_VALUES.items() for value in values]
"""Every value of every option the core's deal loop plays (:data:`NATIVE_GAME_OPTIONS`)."""

OPTION_SWEEP_POSITIONS = 20_000
"""Positions each option value of the nightly differential checks in lockstep: with 60
option values, 1.2 million in all (a case takes seconds, so a nightly slice
holds a share of them)."""


def test_option_values_cover_the_core_options() -> None:
    for name, value in OPTION_VALUES:  # each value is one the core's deal loop plays
        rules = Rules(**consistent({name: value, **OPTION_NEEDS.get(name, {})}))
        assert getattr(rules, name) == value
        assert native.native_deal_reason(rules) is None, (name, value)
    assert len(OPTION_VALUES) * OPTION_SWEEP_POSITIONS >= 1_000_000


@pytest.mark.nightly
@pytest.mark.parametrize(("name", "value"), OPTION_VALUES, ids=str)
def test_lockstep_every_option_sweep(name: str, value: Any) -> None:
    """The differential over every option: each value of each option the core plays, set
    alone and in random mixes with the others (seeded by the value), stepped in lockstep
    until :data:`OPTION_SWEEP_POSITIONS` positions agree."""
    rng = random.Random(f"{name}={value}")
    positions = deals = 0
    while positions < OPTION_SWEEP_POSITIONS:
        mixed: dict[str, Any] = {}
        if deals % 2:  # every other deal: the option among random values of the others
            for other in rng.sample(sorted(NATIVE_GAME_OPTIONS), 6):
                mixed[other] = rng.choice([v for n, v in OPTION_VALUES if n == other])
        mixed.update(OPTION_NEEDS.get(name, {}), **{name: value})
        rules = Rules(**consistent(mixed))
        if getattr(rules, name) != value:  # the mix overrode it: the option alone
            rules = Rules(**consistent({**OPTION_NEEDS.get(name, {}), name: value}))
        assert getattr(rules, name) == value
        positions += lockstep(rules, rng.randrange(2**32))
        deals += 1
    assert positions >= OPTION_SWEEP_POSITIONS


def test_house_rule_games_match_on_the_native_engine() -> None:
    """House-rule hooks run in Game over the native engine as over the Python one."""
    rules = Rules.preset("philippines", three_threes=True, last_card=False)
    for seed in range(10):
        with python_engine():
            ref = Game(rules, seed=seed)
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not ref.is_over():
            assert game.legal_masks() == ref.legal_masks()
            play = rng.choice(ref.legal_masks())
            ref.play(play)
            game.play(play)
        assert game.outcome() == ref.outcome()


# -- the core's own deal and loop ----------------------------------------------------------

@pytest.mark.parametrize("options", [
    {}, {"players": 3}, {"players": 3, "spare_to": "highest"}, {"players": 3, "spare_to": "aside"},
    {"players": 2}, {"players": 2, "deal": "13-each"}, {"deal": "13-each", "players": 3},
    {"suit_order": "CSHD", "direction": "clockwise", "players": 3},
], ids=str)
def test_core_deal(options: dict[str, Any]) -> None:
    rules = Rules(**options)
    v = variant(rules)
    tables = v.engine.tables  # type: ignore[attr-defined]
    deck = v.deck
    for seed in range(50):
        dealer = seed % rules.players
        hands, seat, must = _native.deal(tables, seed, dealer)
        seen = 0
        for h in hands:
            assert not h & seen
            seen |= h
        sizes = sorted(h.bit_count() for h in hands)
        spare_held = deck.left_over and not deck.thirteen_each and deck.spare_to != "aside"
        assert sizes[:-1] == [deck.per_seat] * (rules.players - 1)
        assert sizes[-1] == deck.per_seat + (deck.left_over if spare_held else 0)
        if spare_held:
            big = next(h for h in hands if h.bit_count() > deck.per_seat)
            ranked = [c for c in deck.by_strength if seen >> c & 1]
            card = ranked[0] if deck.spare_to == "lowest" else ranked[-1]
            assert big >> card & 1
        assert (seat, must) == deck.opening(hands, v.turns.after[dealer])
        core = _native.State(tables, hands, seat, must)
        while core.to_move is not None:
            core.play(random.Random(seed).choice(core.legal()))
        assert core.scores is not None and len(core.scores) == rules.players


def test_random_deals_loop() -> None:
    tables = variant(Rules()).engine.tables  # type: ignore[attr-defined]
    steps, deals, _ = _native.random_deals(tables, 200, 7)
    assert deals == 200 and steps > 200 * 13
    assert _native.random_deals(tables, 200, 7) == _native.random_deals(tables, 200, 7)


# -- bad input raises, never crashes -----------------------------------------------------------

@pytest.fixture(scope="module")
def tables() -> Any:
    return variant(Rules()).engine.tables  # type: ignore[attr-defined]


@pytest.mark.parametrize(("mask", "error"), [
    (-1, ValueError), (1 << 52, ValueError), (1 << 200, ValueError), (-(1 << 200), ValueError),
    ("3D", TypeError), (1.0, TypeError), (None, TypeError), (True, TypeError), ([1], TypeError),
])
def test_bad_masks_raise(tables: Any, mask: object, error: type[Exception]) -> None:
    for call in (lambda: _native.classify(tables, mask), lambda: _native.hand_plays(tables, mask),
                 lambda: _native.follows(tables, mask, 1), lambda: _native.follows(tables, 1, mask),
                 lambda: _native.bombs_held(tables, mask)):
        with pytest.raises(error):
            call()


def test_bad_calls_raise(tables: Any) -> None:
    with pytest.raises(TypeError):
        _native.classify("not tables", 1)
    with pytest.raises(ValueError, match="not a play"):
        _native.follows(tables, 0xFF, 0b11 << 8 | 1)  # three cards of two ranks
    with pytest.raises(ValueError, match="dealer"):
        _native.deal(tables, 1, 4)
    with pytest.raises(TypeError):
        _native.random_deals(tables, -1, 0)
    with pytest.raises(ValueError, match="4 hands"):
        _native.State(tables, [1, 2], 0, 1)
    with pytest.raises(ValueError, match="two hands"):
        _native.State(tables, [3, 2, 4, 8], 0, 1)
    with pytest.raises(ValueError, match="to_move"):
        _native.State(tables, [1, 2, 4, 8], 7, 1)
    with pytest.raises(ValueError, match="must"):
        _native.State(tables, [1, 2, 4, 8], 0, 2)
    with pytest.raises(TypeError):
        _native.State(tables, "hands", 0, 1)
    with pytest.raises(TypeError):
        _native.State(tables, [1, 2, 4, "8"], 0, 1)
    held = _native.State(tables, [0b11, 4, 8, 16], 0, 1)
    with pytest.raises(ValueError, match="play: not a legal play now"):
        held.play(0b10)  # held, but the first play must contain 3♦
    state = _native.State(tables, [1, 2, 4, 8], 0, 1)
    with pytest.raises(ValueError, match="play: seat 0 does not hold card 1"):
        state.play(2)
    with pytest.raises(ValueError, match="not a legal play"):
        state.play(0)  # the leader cannot pass
    state.play(1)
    assert state.to_move is None and state.scores is not None
    with pytest.raises(ValueError, match="over"):
        state.play(0)


def test_bad_tables_raise() -> None:
    good = variant(Rules()).engine
    with pytest.raises(ValueError, match="missing"):
        _native.Tables(players=4)
    with pytest.raises(ValueError, match="sub_power"):
        _native.Tables(sub_power=[0, 1])
    with pytest.raises(TypeError):
        _native.Tables(sub_power="abc")
    assert native.compile_tables(Rules(), good).players == 4  # type: ignore[arg-type]


def test_build_info_says_how_the_core_was_built() -> None:
    """Issue 43: the hot loops are built for several x86-64 levels (or, with
    BIG2_NATIVE_MARCH, for one CPU), and build_info says which one runs here."""
    import platform

    info = _native.build_info()
    assert set(info) == {"march", "clones", "level"}
    if info["march"]:  # a BIG2_NATIVE_MARCH build: one copy for that CPU
        assert not info["clones"] and info["level"] == "single"
    elif info["clones"]:
        assert info["level"] in ("x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64")
        assert platform.machine() in ("x86_64", "AMD64")
    else:
        assert info["level"] == "single"


def _errors(engine: str) -> list[str]:
    """What each bad call on a Game of the given engine raises: type and words."""
    rules = Rules.preset("classic")
    with python_engine() if engine == "python" else contextlib.nullcontext():
        g = Game(rules, seed=3)
        assert g.variant.native == (engine == "native")
        held = g.hands[g.to_move]  # type: ignore[index]
        foreign = next(m for m in (1 << c for c in range(52)) if not m & held)
        calls: list[Any] = [
            lambda: g.play(foreign),                          # a card not held
            lambda: g.play("2S 2H 2C 2D 3D"),                 # cards not held, or not a play
            lambda: g.play(sum(1 << c for c in cards_of(held)[1:3])),  # no 3♦, or no play
            lambda: g.play(sum(1 << c for c in cards_of(held)[-5:])),  # five cards, no 3♦
            lambda: g.play(1 << 60),                          # no card of the deck
            lambda: g.play(-1),                               # not a mask
            lambda: g.play(1.5),                              # not cards at all
            lambda: g.play("XX"),                             # not card text
            lambda: g.pass_turn(),                            # the opening lead cannot pass
            lambda: g.play(0),
        ]
        out = []
        for call in calls:
            try:
                call()
            except Exception as exc:  # noqa: BLE001 -- the type and words are compared
                out.append(f"{type(exc).__name__}: {exc}")
            else:
                out.append("no error")
        return out


def test_bad_input_to_a_game_raises_the_same_on_both_engines() -> None:
    """A card not held, a foreign or malformed play, a pass when leading: the same
    exception with the same words whether the core or the Python engine plays."""
    native_errors, python_errors = _errors("native"), _errors("python")
    assert native_errors == python_errors
    assert "no error" not in native_errors
    assert any("do not hold" in e for e in native_errors)
