"""The compiled core stepped in lockstep with the Python reference engine: the
helpers of ``tests/core/test_native.py`` and ``tests/core/test_native_wide.py``.

:func:`lockstep` plays one random deal through three players of the same deal: a
:class:`~big2.Game` on the Python engine, a :class:`~big2.Game` on the native engine
(what users get by default) and the core's own state (``State``, or ``WideState``
for two decks); at every step the legal-play lists, the transition (turn, hands,
play to beat, passes) and at the end the scores must be identical.
:func:`engines_agree` compares the two engines' listing and reading of random hands.
:data:`CORE_OPTION_VALUES` and :data:`WIDE_OPTION_VALUES` are the options each core plays,
with every value (:func:`option_strategies` draws from them).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st
from python_engine import python_engine

from big2 import Game, Rules
from big2.cards import cards_of
from big2.rules import STRAIGHT_ORDERS, SUIT_ORDERS
from big2.variant import native, variant

_native = native._native

CORE_OPTION_VALUES: dict[str, list[Any]] = {
    "players": [2, 3, 4], "deal": ["even", "13-each"], "suit_order": list(SUIT_ORDERS),
    "suit_ranking": [False, True], "straight_order": list(STRAIGHT_ORDERS),
    "flush_order": ["ranks", "suit", "top-card"], "straight_beats_flush": [False, True],
    "five_card_compare": ["kind", "same-kind", "top-card"], "triples": [False, True],
    "two_pairs": [False, True], "four_of_a_kind_alone": [False, True],
    "four_kicker": [False, True], "five_trips": [False, True],
    "five_two_pairs": ["no", "any", "sisters"], "play_equal": [False, True],
    "passing": ["jump-back", "lock-out"], "trick_end": ["all-pass", "one-pass"],
    "opening": ["contains", "alone"], "scoring": ["classic", "penalty", "count", "ranking"],
    "twos_double": ["each", "once"], "count_twos_double": [False, True],
    "direction": ["counter-clockwise", "clockwise"], "spare_to": ["lowest", "highest", "aside"],
}
"""Every option the one-deck core's own deal loop plays, with every value."""

WIDE_OPTION_VALUES: dict[str, list[Any]] = {
    **{name: values for name, values in CORE_OPTION_VALUES.items() if name != "deal"},
    "players": list(range(2, 9)),
    "five_of_a_kind": ["off", "below-straight-flush", "above-straight-flush"],
    "jokers": ["none", "valueless", "wild"],
}
"""Every option the wide core (two decks, jokers valueless or wild) plays, with every value."""


OPTION_NEEDS: dict[str, dict[str, Any]] = {
    "count_twos_double": {"scoring": "count"}, "spare_to": {"players": 3},
}
"""What an option needs beside it to mean anything (``consistent`` drops it otherwise)."""


def option_strategies(values: dict[str, list[Any]]) -> dict[str, st.SearchStrategy[Any]]:
    """A strategy per option drawing from its *values*."""
    return {name: st.sampled_from(v) for name, v in values.items()}


def lockstep(rules: Rules, seed: int) -> int:
    """Play one random deal through the three players in lockstep; return its steps."""
    assert native.native_deal_reason(rules) is None, native.native_deal_reason(rules)
    with python_engine():
        ref = Game(rules, seed=seed)
    assert not ref.variant.native
    game = Game(rules, seed=seed)
    assert game.variant.native and game.initial_hands == ref.initial_hands
    assert game._core is not None  # the deal is in the core
    core = native.deal_state(game.variant.engine, list(ref.hands),  # type: ignore[arg-type]
                             ref.to_move, int(ref.must_contain))
    rng = random.Random(seed)
    steps = 0
    while not ref.is_over():
        legal = ref.legal_masks()
        assert game.legal_masks() == legal
        assert core.legal() == legal
        play = rng.choice(legal)
        for g in (ref, game):
            g.play(play)
        core.play(play)
        steps += 1
        assert game.numbers() == ref.numbers()
        assert game.hands == ref.hands and core.hands == ref.hands
        assert core.to_move == ref.to_move
        last = ref.last_combo
        assert game.last_combo == last
        assert core.last == (None if last is None else (last.cards, int(last.kind), last.power))
        assert core.last_player == ref.last_player
        if last is not None:
            assert core.passed == ref.numbers()[4]
    assert core.to_move is None and game.is_over()
    assert game.outcome() == ref.outcome()
    assert core.scores == ref.scores()
    assert tuple(core.finished) == tuple(ref.finished)
    return steps


def deck_cards(rules: Rules) -> list[int]:
    """The card numbers of *rules*' deck (one deck or two, jokers included)."""
    return cards_of(variant(rules).deck.cards)


def engines_agree(rules: Rules, rng: random.Random, hands: int) -> None:
    """The two engines list, read and follow identically on random hands."""
    ref = variant(rules, engine="python").engine
    eng = variant(rules, engine="native").engine
    tables = eng.tables  # type: ignore[attr-defined]
    cards_in = deck_cards(rules)
    wide = rules.decks == 2 or rules.jokers != "none"
    for _ in range(hands):
        cards = rng.sample(cards_in, rng.choice((1, 4, 5, 7, 13, 17, 26, 52)))
        hand = sum(1 << c for c in cards)
        mine, theirs = eng.hand_plays(hand), ref.hand_plays(hand)
        assert mine.groups == theirs.groups
        for size in range(1, 6):
            for enc in theirs.groups[size][:8]:
                mask = enc & ((1 << 108) - 1)
                assert eng.classify(mask) == ref.classify(mask)
                last = ref.classify(mask)
                assert last is not None
                if wide:
                    assert _native.wide_classify(tables, mask) == (int(last.kind), last.power)
                    wide_follows_agree(ref, tables, rng.sample(cards_in, 13), mask)
                    continue
                other = sum(1 << c for c in rng.sample(cards_in, 13))
                assert _native.follows(tables, other, mask) == ref.follows(other, last)
        some = sum(1 << c for c in rng.sample(cards, min(len(cards), rng.randint(1, 6))))
        assert eng.classify(some) == ref.classify(some)
        if wide:
            got = ref.classify(some)
            assert _native.wide_classify(tables, some) == (
                None if got is None else (int(got.kind), got.power))
            assert _native.wide_readings(tables, some) == [
                (int(c.kind), c.power) for c in ref.readings(some)]


def wide_follows_agree(ref: Any, tables: Any, cards: list[int], mask: int) -> None:
    """The wide core follows *mask*, read each way it may be played, from the hand of
    *cards* as the Python engine *ref* does: the same plays in the same order, each
    played as the same reading (with wild jokers a set may be played as several plays)."""
    hand = sum(1 << c for c in cards)
    for last in ref.readings(mask):
        want = [(m, int(c.kind), c.power) for m in ref.follows(hand, last)
                if (c := ref.as_played(m, last)) is not None]
        got = [tuple(x) for x in _native.wide_follows(tables, hand, mask, int(last.kind), last.power)]
        assert got == want, (mask, last)
