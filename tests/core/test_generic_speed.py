"""The generic (jokers and two decks) engine lists a big hand's plays at once
(RULES.md §2: every accepted option mix must play; issue 12, bug 4), once per
play (:meth:`GenericEngine.play_key`), and every play it lists is legal.

How long the first listing takes is measured by
``benchmarks/bench_big_hands.py``, not here: a timed test fails on a busy
machine for no fault of the code.
"""

from __future__ import annotations

import random
import zlib
from itertools import combinations

import pytest

from big2 import Rules
from big2.cards import DECK_SIZE, Mask, cards_of, deck_mask
from big2.variant.generic import GenericEngine
from big2.variant.keys import PLAY_MASK
from big2.variant.kinds import TOP_RUN_RANK as _TOP_RUN_RANK

pytestmark = pytest.mark.sweep  # checked against references over many hands: make test, not
                                # make test-fast

BIG_MIXES = [{}, {"dragon": True}, {"straight_max": 12}, {"smack_down": "2S"}, {"jokers": "wild"},
             {"jokers": "wild", "dragon": True, "straight_max": 12, "smack_down": "any-2"}]
"""Two players on two decks: 52-card hands (54 with jokers)."""

LONG_MIXES = [
    {"decks": 2, "players": 5, "smack_down": "any-2", "straight_min": 3, "straight_max": 7},
    {"decks": 2, "players": 5, "jokers": "wild", "dragon": True, "straight_max": 12,
     "smack_down": "2S"},
    {"jokers": "wild", "smack_down": "2S", "straight_max": 8, "dragon": True, "players": 2},
    {"decks": 2, "players": 6, "jokers": "wild", "straight_max": 10, "smack_down": "any-2",
     "suit_ranking": False, "straight_order": "ace-top"},
    {"decks": 2, "players": 5, "dragon": True, "straight_max": 9, "suit_order": "CSHD"},
]
"""Rule sets with plays of more than five cards."""


def _id(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "two-decks"


def _hand(rng: random.Random, rules: Rules, size: int, jokers: int = -1) -> Mask:
    cards = cards_of(deck_mask(rules.decks, rules.jokers != "none"))
    if jokers < 0:
        return sum(1 << c for c in rng.sample(cards, size))
    wild = [c for c in cards if c % DECK_SIZE >= 52]
    jokers = min(jokers, len(wild))
    nat = [c for c in cards if c % DECK_SIZE < 52]
    return sum(1 << c for c in rng.sample(wild, jokers) + rng.sample(nat, size - jokers))


def _check_listing(eng: GenericEngine, hand: Mask) -> list[Mask]:
    """Every listed play is held, legal in its group, and listed once."""
    groups = [[p & PLAY_MASK for p in g] for g in eng.hand_plays(hand).groups]
    keys = set()
    for i, group in enumerate(groups):
        for m in group:
            assert m and m & ~hand == 0
            combo = eng.classify(m)
            assert combo is not None
            if i == 7:
                assert not eng.leadable(combo)  # smack-downs only follow
            else:
                assert eng.leadable(combo) and i == min(m.bit_count(), 6)
            key = eng.play_key(m)
            assert key not in keys, f"listed twice: {m:#x}"
            keys.add(key)
    return [m for g in groups for m in g]


@pytest.mark.parametrize("options", BIG_MIXES, ids=_id)
def test_a_52_card_hand_lists_its_plays_at_once(options: dict) -> None:
    rules = Rules(decks=2, players=2, **options)
    rng = random.Random(zlib.crc32(_id(options).encode()))
    cards = deck_mask(2, rules.jokers != "none").bit_count()
    eng = GenericEngine(rules)  # nothing cached
    plays = _check_listing(eng, _hand(rng, rules, cards // 2))
    assert sum(1 for m in plays if m.bit_count() == 5) > 1000


def _random_long(rng: random.Random, eng: GenericEngine, hand: Mask) -> Mask | None:
    """A random straight longer than five cards, dragon or run of pairs from
    *hand*, any copies and suits, with some wild jokers standing in."""
    by_rank: list[list[int]] = [[] for _ in range(13)]
    jokers = []
    for c in cards_of(hand):
        b = c % DECK_SIZE
        (jokers if b >= 52 else by_rank[b >> 2]).append(c)
    shapes = [(lo, k, 1) for k in eng.straight_lengths if k > 5
              for lo in range(_TOP_RUN_RANK - k + 2)]
    if eng.rules.dragon:
        shapes.append((0, 13, 1))
    if eng.smack:
        shapes += [(lo, k, 2) for k in range(3, 12) for lo in range(_TOP_RUN_RANK - k + 2)]
    lo, k, need = rng.choice(shapes)
    free = list(jokers) if eng.wild else []
    rng.shuffle(free)
    mask = 0
    for r in range(lo, lo + k):
        for c in rng.sample(by_rank[r], min(need, len(by_rank[r]))):
            if free and rng.random() < 0.15:
                c = free.pop()
            mask |= 1 << c
        for _ in range(need - min(need, len(by_rank[r]))):
            if not free:
                return None
            mask |= 1 << free.pop()
    return mask if eng.classify(mask) is not None else None


@pytest.mark.parametrize("options", LONG_MIXES, ids=_id)
def test_every_long_play_a_hand_holds_is_listed_by_its_key(options: dict) -> None:
    rules = Rules(**options)
    rng = random.Random(zlib.crc32(_id(options).encode()))
    eng = GenericEngine(rules)
    size = deck_mask(rules.decks, rules.jokers != "none").bit_count() // rules.players
    tried = 0
    for i in range(12):
        hand = _hand(rng, rules, max(size, 26), jokers=i % 5)
        keys = {eng.play_key(m) for m in _check_listing(eng, hand)}
        for _ in range(60):
            m = _random_long(rng, eng, hand)
            if m is not None:
                tried += 1
                assert eng.play_key(m) in keys, f"{m:#x} is not listed under its key"
    assert tried > 100


@pytest.mark.parametrize("options", LONG_MIXES, ids=_id)
def test_small_hands_list_every_long_play_once(options: dict) -> None:
    """On 13-card hands every set of more than five cards can be tried: the
    listing holds exactly one set per play key."""
    rules = Rules(**options)
    rng = random.Random(zlib.crc32(_id(options).encode()) + 1)
    eng = GenericEngine(rules)
    for i in range(4):
        hand = _hand(rng, rules, 13, jokers=i)
        cards = cards_of(hand)
        every = {eng.play_key(sum(1 << c for c in sub)) for n in range(6, 14)
                 for sub in combinations(cards, n) if eng.classify(sum(1 << c for c in sub))}
        listed = [m for m in _check_listing(eng, hand) if m.bit_count() > 5]
        assert {eng.play_key(m) for m in listed} == every


def test_play_key_names_copies_alike_and_long_plays_by_strength() -> None:
    eng = GenericEngine(Rules(decks=2, players=5, straight_max=7, jokers="wild"))
    assert eng.play_key(1 << 0 | 1 << 5) == eng.play_key(1 << 54 | 1 << 5)  # 3♦ either copy
    assert eng.play_key(1 << 0) != eng.play_key(1 << 1)
    # 3♦ 4♦ 5♣ 6♣ 7♥ 8♠ and 3♣ 4♥ 5♦ 6♦ 7♣ 8♠ are one play; with 8♥ on top,
    # another
    a = sum(1 << c for c in (0, 4, 9, 13, 18, 23))
    b = sum(1 << c for c in (1, 6, 8, 12, 17, 23))
    c = sum(1 << c for c in (1, 6, 8, 12, 17, 22))
    assert eng.play_key(a) == eng.play_key(b) != eng.play_key(c)
    # a joker in place of a card is another play (the player keeps the card)
    d = a & ~(1 << 9) | 1 << 52
    e = a & ~(1 << 13) | 1 << 53
    assert eng.play_key(d) != eng.play_key(a) and eng.play_key(d) == eng.play_key(e)


@pytest.mark.parametrize("options", LONG_MIXES[:3], ids=_id)
def test_plays_after_a_play_equal_a_fresh_listing(options: dict) -> None:
    """After a play the plays of more than five cards are listed again, so the
    kept-up list is the fresh one (its weakest cards may have changed)."""
    rules = Rules(**options)
    rng = random.Random(zlib.crc32(_id(options).encode()) + 2)
    eng = GenericEngine(rules)
    for _ in range(8):
        hand = _hand(rng, rules, 30, jokers=rng.randint(0, 3))
        hp = eng.hand_plays(hand)
        for _ in range(4):
            plays = list(hp)
            if not plays:
                break
            played = rng.choice(plays)
            if rules.decks > 1 and rng.random() < 0.5:  # name the other copy where held
                played = sum(1 << (c + DECK_SIZE) if c < DECK_SIZE and (hand & ~played) >> (
                    c + DECK_SIZE) & 1 else 1 << c for c in cards_of(played))
            hand &= ~played
            hp = hp.after(played, hand)
            fresh = GenericEngine(rules).hand_plays(hand)
            assert [sorted(g) for g in hp.groups] == [sorted(g) for g in fresh.groups]


FOLLOW_MIXES = [{"decks": 2, "players": 5}, {"jokers": "wild", "play_equal": True},
                {"jokers": "wild", "five_card_compare": "same-kind"}, LONG_MIXES[1],
                {"jokers": "valueless", "decks": 2, "players": 6}]


@pytest.mark.parametrize("options", FOLLOW_MIXES, ids=_id)
def test_follows_are_the_listed_plays_that_beat(options: dict) -> None:
    """:meth:`GenericEngine.follows_from` skips the plays too weak to beat by
    bisection: it must find every listed play that has a reading that beats."""
    rules = Rules(**options)
    rng = random.Random(zlib.crc32(_id(options).encode()) + 3)
    eng = GenericEngine(rules)
    for _ in range(6):
        hand, other = _hand(rng, rules, 20), _hand(rng, rules, 20)
        hp = eng.hand_plays(hand)
        plays = list(eng.hand_plays(other))
        for m in rng.sample(plays, min(20, len(plays))):
            for last in eng.readings(m):
                want = [p for p in hp if eng.as_played(p, last) is not None]
                assert sorted(eng.follows_from(hp, last)) == sorted(want)


def test_long_plays_match_the_reference_by_key() -> None:
    """The brute-force reference lists every set of cards; the engine one set
    per play key. Hands built to hold long straights and runs of pairs with
    two cards of most ranks (leads, and smack-downs on a single 2♠)."""
    from reference_wild import ref_legal_wild

    rules = Rules(decks=2, players=5, smack_down="any-2", straight_min=3, straight_max=7)
    eng = GenericEngine(rules)
    key = eng.play_key
    rng = random.Random(12)
    longs = 0
    for _ in range(4):
        lo = rng.randint(0, 5)
        hand = 0
        for r in range(lo, lo + 7):
            for c in rng.sample([4 * r + s + d * DECK_SIZE for s in range(4) for d in range(2)], 2):
                hand |= 1 << c
        hand = sum(1 << c for c in cards_of(hand)[:13])
        hp = eng.hand_plays(hand)
        two = eng.classify(1 << 51)
        assert two is not None
        for trick, got in (([], hp.leads()), ([(51,)], eng.follows_from(hp, two) + [0])):
            want = ref_legal_wild(cards_of(hand), rules, trick, None)
            longs += sum(1 for p in want if p.bit_count() > 5)
            assert {key(p) for p in got} == {key(p) for p in want}
            assert {p for p in got if p.bit_count() <= 5} == {p for p in want if p.bit_count() <= 5}
    assert longs > 100
