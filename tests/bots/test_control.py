"""big2.bots.rules_based.control's fast path for the sampler: a single's beaters as a card
mask agree with :func:`beaten_by_unseen` on random hands under every preset."""

from __future__ import annotations

import random

import pytest

from big2 import Rules
from big2.bots.rules_based.control import beaten_by_unseen, single_beaters
from big2.cards import FULL_DECK
from big2.combos import engine


@pytest.mark.parametrize("preset", Rules.presets())
def test_single_beaters_agree_with_beaten_by_unseen(preset: str) -> None:
    eng = engine(Rules.preset(preset))
    rng = random.Random(preset)
    for card in range(52):
        beat = single_beaters(eng, 1 << card)
        assert beat is not None and not beat >> card & 1
        for _ in range(40):
            held = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 13))) & FULL_DECK
            assert bool(held & beat) == beaten_by_unseen(eng, 1 << card, held)
    pair = next(m for m in eng.hand_plays(FULL_DECK) if m.bit_count() == 2)
    assert single_beaters(eng, pair) is None
