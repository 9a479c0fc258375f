"""Thousands of random deals under every preset, checking invariants at every step.

Each sweep is split in two: a fifth (a third for the option sets) that
``make test`` runs and the rest, under the ``nightly`` marker (``make
test-nightly``; CI runs a slice of it), together the same deals as always. Sized to what
it catches: measured with branch coverage of src/big2, 100 deals of a preset
reach every branch that 500 reach but the scorer's whole-hand ×3 (a seat
that never played), which random play first meets past 200 deals and
test_scoring.py checks on RULES.md's examples.
"""

from __future__ import annotations

import random
import zlib

import pytest
from house_options import HOUSE_RULE_OPTION_SETS, for_players, option_id
from reference import ref_beats_any, ref_classify, ref_leadable

from big2 import Game, Rules
from big2.cards import cards_of

DEALS_PER_PRESET = 500
PARTS = [pytest.param("share", id="share", marks=pytest.mark.sweep),
         pytest.param("rest", id="rest", marks=pytest.mark.nightly)]
"""A sweep's two parts: the share ``make test`` runs (``make test-fast`` skips
it: marker ``sweep``) and the ``nightly`` rest."""


def part_of(part: str, share: int, total: int) -> range:
    """The deal numbers of *part*: the first *share* of *total*, or the rest."""
    return range(share) if part == "share" else range(share, total)


def play_and_check(rules: Rules, seed: int) -> Game:
    rng = random.Random(seed)
    g = Game(rules, seed=seed)
    n = g.num_players
    full = 0
    for h in g.initial_hands:
        full |= h
    stock0 = g.stock_size
    stock = g.aside  # the Go-Fish stock is drawn from the cards not dealt
    while not g.is_over():
        seat = g.to_move
        assert g.hands[seat], "a seat without cards is to move"
        legal = g.legal_masks()
        assert legal, "no legal action"
        play = rng.choice(legal)
        before_last, before_player = g.last_play, g.last_player
        leading = g.leading
        if play:
            assert play & ~g.hands[seat] == 0
            mine = ref_classify(tuple(cards_of(play)), rules)
            assert mine is not None
            if not leading:
                assert before_player != seat
                assert ref_beats_any(tuple(cards_of(play)), tuple(cards_of(before_last)), rules)
            else:
                assert ref_leadable(mine, rules)
        else:
            assert not leading or legal == [0]
        g.play(play)
        played = g.played()
        total = played
        for h in g.hands:
            assert h & played == 0
            total |= h
        drawn = stock0 - g.stock_size  # Go-Fish draws join the hands
        assert total & ~(full | stock) == 0 and total & full == full, "cards not conserved"
        assert total.bit_count() == full.bit_count() + drawn
        if not g.is_over() and g.leading and g.history[-1].cards == 0 and not leading:
            # the trick just ended: every other seat with cards passed since the last play
            assert g.to_move == before_player or not g.hands[before_player]
    out = g.outcome()
    assert out is not None
    if g.instant_result is not None:  # a dealt hand ended the deal before any play
        assert not g.history and sum(out.scores) == 0 or rules.scoring in ("penalty", "ranking")
        return g
    assert g.hands[out.winner] == 0
    scores = out.scores
    if rules.teams and n == 4:  # partners opposite score alike; a tie scores nothing
        assert scores[0] == scores[2] == -scores[1] == -scores[3]
        assert g.shootout == (scores[0] == 0)
        return g
    if g.penalty is not None:  # last-card or assistance penalty: someone else pays
        assert g.penalty in ("last-card", "assist") and rules.last_card or rules.assist_penalty
        if rules.scoring in ("classic", "count"):
            assert sum(scores) == 0
        return g
    if rules.scoring in ("classic", "count"):
        assert sum(scores) == 0 and scores[out.winner] == max(scores) > 0
    elif rules.scoring == "penalty":
        assert scores[out.winner] == 0 and all(s <= 0 for s in scores)
        assert all(s < 0 for i, s in enumerate(scores) if i != out.winner)
    else:
        assert sorted(scores) == list(range(n))
        assert sum(1 for h in g.hands if h) == 1
    return g


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("preset", Rules.presets())
def test_random_deals_hold_invariants(preset: str, part: str) -> None:
    base = zlib.crc32(preset.encode())
    for i in part_of(part, DEALS_PER_PRESET // 5, DEALS_PER_PRESET):
        rules = Rules.preset(preset, players=(4, 4, 3, 2)[i % 4])
        play_and_check(rules, base + i)


@pytest.mark.parametrize("options", [
    {"passing": "lock-out"}, {"scoring": "count", "count_twos_double": True},
    {"deal": "13-each", "players": 3}, {"finish_restrictions": ["any-2"]},
    {"two_pairs": True, "four_of_a_kind_alone": True, "five_trips": True,
     "five_two_pairs": "any"},
    {"suit_ranking": False, "five_card_compare": "same-kind"},
], ids=lambda o: ",".join(o))
@pytest.mark.parametrize("part", PARTS)
def test_random_deals_with_options(options: dict, part: str) -> None:
    for i in part_of(part, 50, 150):
        play_and_check(Rules(**options), 1000 + i)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("options", HOUSE_RULE_OPTION_SETS, ids=option_id)
def test_random_deals_with_house_rules(options: dict, part: str) -> None:
    """Every house rule of RULES.md §2, switched on, for 2, 3 and 4 players."""
    for i in part_of(part, 40, 120):
        play_and_check(Rules(**for_players(options, (4, 4, 3, 2)[i % 4])), 5000 + i)
