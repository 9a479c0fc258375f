"""The fast legal-play generator agrees with the brute-force reference.

Each sweep is split in two: a share that ``make test`` runs and the rest,
under the ``nightly`` marker (``make test-nightly``; CI runs a slice of it), so that
together they check every position the sweep always checked, in the same
order. The share is sized to what it catches, measured as the branches of
src/big2 (the scorer left out) that a sweep's positions reach (coverage.py's
arcs; remeasured on 2026-12-07):

- 500 positions of a preset (of 10,000) reach every branch that the first 1,000
  reach under each of the 12 presets; 1,000 of 10,000 once reached all but one
  loop step (a four of a kind above its kicker) under classic, and under
  philippines all but the lead whose only play is a barred going-out (a forced
  pass, first met past 5,000; test_game.py checks it directly).
- 250 positions of an option set (of 2,000) reach every branch that 500 reach,
  under each of the 11 sets. The three-player finish-restriction set, whose 17- and
  18-card hands give the reference 16 times the subsets to try, checks 125,
  which reach what 250 reach.
- A quarter of a house-rule set's positions: an eighth misses branches a quarter
  reaches under 7 of the 26 sets (bombs, smack-downs, long straights, four twos,
  the assist penalty).
"""

from __future__ import annotations

import itertools
import random
import zlib

import pytest
from house_options import HOUSE_RULE_OPTION_SETS, LONG_PLAY_OPTION_SETS, option_id, rich_hands
from reference import ref_classify, ref_legal

from big2 import Game, Rules
from big2.cards import cards_of
from big2.combos import engine
from big2.variant.keys import PLAY_MASK

POSITIONS_PER_PRESET = 10_000
PRESET_SHARE = 500
"""Positions per preset that ``make test`` checks; the rest are ``nightly``."""

REST_PARTS = 3
"""The nightly rest of a sweep comes in this many parts (a preset's whole rest took up to
a minute and a half, more than its share of CI's nightly slice)."""

PARTS = [pytest.param("share", id="share", marks=pytest.mark.sweep),
         *(pytest.param(f"rest{k}", id=f"rest{k}", marks=pytest.mark.nightly)
           for k in range(REST_PARTS))]
"""A sweep's parts: the share ``make test`` runs (``make test-fast`` skips
it: marker ``sweep``) and the ``nightly`` rest in :data:`REST_PARTS` parts."""


SCALES = [pytest.param(0.5, id="share", marks=pytest.mark.sweep),
          pytest.param(1.0, id="whole", marks=pytest.mark.nightly)]
"""The comparison sweeps' sizes: half of each (``make test``; it reaches every branch
of src/big2 that the whole reaches but a cleared cache, and under ``dragon=True`` a four
alone refused, which the other sets' halves reach) and the whole (``nightly``)."""


def part_of(items, part: str, share: int, total: int):
    """The *part* of the sweep *items*: the first *share* of *total*, or part ``restK``
    of the rest (the rest cut in :data:`REST_PARTS` runs, in order)."""
    if part == "share":
        return itertools.islice(items, 0, share)
    k = int(part.removeprefix("rest"))
    rest = total - share
    return itertools.islice(items, share + rest * k // REST_PARTS,
                            share + rest * (k + 1) // REST_PARTS)

EXTRA_OPTION_SETS = [
    {"two_pairs": True, "four_of_a_kind_alone": True},
    {"five_two_pairs": "any", "five_trips": True, "straight_beats_flush": True},
    {"five_two_pairs": "sisters", "suit_ranking": False},
    {"five_card_compare": "same-kind", "triples": False, "four_kicker": False},
    {"five_card_compare": "top-card", "flush_order": "suit"},
    {"finish_restrictions": ["any-2", "2S"], "passing": "lock-out", "players": 3},
    # issue 14: flushes by the top card, the lowest card led alone (also where a
    # 13-each deal may leave 3♦ undealt: the lowest card dealt is led alone)
    {"flush_order": "top-card", "opening": "alone", "straight_order": "indonesia"},
    {"flush_order": "top-card", "suit_ranking": False, "two_pairs": True,
     "four_of_a_kind_alone": True, "four_kicker": False},
    {"flush_order": "top-card", "suit_order": "CSHD", "straight_beats_flush": True},
    {"opening": "alone", "players": 3, "deal": "13-each", "suit_order": "CDHS"},
    {"opening": "alone", "players": 2, "deal": "13-each", "finish_restrictions": ["single-2"]},
]


def positions(rules: Rules, count: int, seed: int, rich: bool = False):
    """Random positions from random-play deals (leads and follows mixed);
    *rich*: every other deal from :func:`rich_hands` (bombs, runs, straights)."""
    rng = random.Random(seed)
    made = 0
    deals = 0
    while made < count:
        deals += 1
        if rich and deals % 2:
            g = Game(rules, hands=rich_hands(rng, rules.players))
        else:
            g = Game(rules, seed=rng.getrandbits(32))
        while not g.is_over() and made < count:
            if rng.random() < 0.35:
                yield g
                made += 1
            g.play(rng.choice(g.legal_masks()))


def check_position(g: Game) -> None:
    seat = g.to_move
    hand = cards_of(g.hands[seat])
    last = tuple(cards_of(g.last_play)) if not g.leading else None
    must = g.must_contain.bit_length() - 1 if g.must_contain else None
    led = last is not None and g.trick[0].cards == int(g.last_play)
    expected = ref_legal(hand, g.rules, last, must, waive=g.waive, led=led)
    got = g.legal_masks()
    assert len(got) == len(set(got)), "duplicate legal plays"
    assert set(got) == expected


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("preset", Rules.presets())
def test_legal_plays_match_reference_for_every_preset(preset: str, part: str) -> None:
    rules = Rules.preset(preset)
    total = POSITIONS_PER_PRESET
    for g in part_of(positions(rules, total, seed=zlib.crc32(preset.encode())), part,
                     PRESET_SHARE, total):
        check_position(g)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("options", EXTRA_OPTION_SETS, ids=lambda o: ",".join(o))
def test_legal_plays_match_reference_with_options(options: dict, part: str) -> None:
    rules = Rules(**options)
    long_hands = rules.players == 3 and rules.deal != "13-each"  # 17 and 18 cards: 16x the
    share = 125 if long_hands else 250  # subsets for the reference to try
    for g in part_of(positions(rules, 2_000, seed=len(str(options))), part, share, 2_000):
        check_position(g)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("options", HOUSE_RULE_OPTION_SETS, ids=option_id)
def test_legal_plays_match_reference_with_house_rules(options: dict, part: str) -> None:
    """Every house rule of RULES.md §2, switched on, against the reference."""
    rules = Rules(**options)
    count = 250 if options in LONG_PLAY_OPTION_SETS else 600
    sweep = positions(rules, count, seed=zlib.crc32(option_id(options).encode()), rich=True)
    for g in part_of(sweep, part, count // 4, count):
        check_position(g)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("options", [{}, *EXTRA_OPTION_SETS, {"straight_order": "pagat"},
                                     {"straight_order": "ace-top", "suit_order": "CSHD"}],
                         ids=lambda o: ",".join(o) or "default")
def test_comparison_matches_reference_on_random_pairs(options: dict, scale: float) -> None:
    """Classify random sets and compare random pairs of plays both ways."""
    rules = Rules(**options)
    eng = engine(rules)
    rng = random.Random(99)
    by_size: dict[int, list[tuple[int, ...]]] = {k: [] for k in range(1, 6)}
    for _ in range(int(20_000 * scale)):
        k = rng.randint(1, 5)
        cards = tuple(sorted(rng.sample(range(52), k)))
        ref = ref_classify(cards, rules)
        fast = eng.classify(sum(1 << c for c in cards))
        assert (ref is None) == (fast is None), cards
        if ref is not None:
            by_size[k].append(cards)
    # ensure rarer kinds are present: add plays from hands' generated lists
    for _ in range(int(300 * scale)):
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        plays = eng.hand_plays(hand)
        for k in range(1, 6):
            group = plays.sized(k)
            for p in group[:: max(1, len(group) // 5)]:
                by_size[k].append(tuple(cards_of(p)))
    from reference import ref_beats
    for k, plays in by_size.items():
        for _ in range(int(3_000 * scale) if plays else 0):
            a, b = rng.choice(plays), rng.choice(plays)
            fa = eng.classify(sum(1 << c for c in a))
            fb = eng.classify(sum(1 << c for c in b))
            assert fa is not None and fb is not None
            ra, rb = ref_classify(a, rules), ref_classify(b, rules)
            assert ra is not None and rb is not None
            assert eng.beats(fa, fb) == ref_beats(ra, rb, k, rules), (a, b)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("options", HOUSE_RULE_OPTION_SETS, ids=option_id)
def test_house_rule_comparison_matches_reference(options: dict, scale: float) -> None:
    """Classify random subsets of bomb-rich hands (every size up to 13) and
    compare random pairs of their plays both ways, bombs on singles included."""
    from reference import ref_beats_any
    rules = Rules(**options)
    eng = engine(rules)
    rng = random.Random(zlib.crc32(option_id(options).encode()))
    plays: list[tuple[int, ...]] = []
    for _ in range(int(150 * scale)):
        for hand in rich_hands(rng):
            cards = cards_of(hand)
            for _ in range(20):
                sub = tuple(sorted(rng.sample(cards, rng.randint(1, 13))))
                ref = ref_classify(sub, rules)
                fast = eng.classify(sum(1 << c for c in sub))
                assert (ref is None) == (fast is None), sub
            for group in eng.hand_plays(hand).groups[1:]:
                plays += [tuple(cards_of(p & PLAY_MASK)) for p in group[:: max(1, len(group) // 4)]]
    assert len({len(p) for p in plays}) >= 4
    for _ in range(int(6_000 * scale)):
        a, b = rng.choice(plays), rng.choice(plays)
        fa = eng.classify(sum(1 << c for c in a))
        fb = eng.classify(sum(1 << c for c in b))
        assert fa is not None and fb is not None
        assert eng.beats(fa, fb) == ref_beats_any(a, b, rules), (a, b)
