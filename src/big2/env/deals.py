"""The vector environment's one stream of deals: :class:`DealStream`.

``VectorEnv(..., seed=s)`` deals game *i* from one stream whatever steps it: the
compiled core's (``src/native/deal.hpp``: xoshiro256** seeded by splitmix64 from
``s * 0x9E3779B97F4A7C15 + i``, a Fisher–Yates shuffle of the 52 cards, the cards
dealt round the table from the dealer's left, the dealer moving one seat a deal).
The core deals it natively; this module deals the same stream in Python for the
games the Python engine steps, so ``reset(seed=s)`` deals the same hands on every
backend and any number of workers (``tests/env/test_vector_backends.py``).

It covers the rule sets the core can deal (one deck, no jokers, no house rule
that changes a deal: :func:`core_dealt`); the others are dealt by the Python
:class:`~big2.match.Match`, which only the Python engine plays.

>>> from big2.rules import Rules
>>> s = DealStream(Rules(), seed=1, game=0)
>>> hands = s.deal()
>>> len(hands), [h.bit_count() for h in hands], s.dealer
(4, [13, 13, 13, 13], 1)
"""

from __future__ import annotations

from big2.cards import Mask
from big2.rules import Rules
from big2.variant import native, variant

_M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
"""The multiplier of the seed in each game's stream (as the core's ``Batch``)."""


def core_dealt(rules: Rules) -> bool:
    """Whether the core deals *rules* (the deals of :class:`DealStream`): every option
    native, no house-rule hook, and every deal a fresh one (no winner's lead, no
    President exchange), whatever engine the environment variable asks for."""
    if native.native_game_reason(rules) is not None:
        return False
    plan = variant(rules).plan
    return not plan.winner_leads and not plan.exchange


class CoreRng:
    """The core's random stream (``Rng`` in ``deal.hpp``), in Python: the reference
    its deals are tested against."""

    def __init__(self, seed: int) -> None:
        seed &= _M64
        state = []
        for _ in range(4):
            seed = (seed + GOLDEN) & _M64
            z = seed
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
            state.append(z ^ (z >> 31))
        self.s = state

    def next(self) -> int:
        """The next 64 bits."""
        s0, s1, s2, s3 = self.s
        x = (s1 * 5) & _M64
        r = ((((x << 7) | (x >> 57)) & _M64) * 9) & _M64
        t = (s1 << 17) & _M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = ((s3 << 45) | (s3 >> 19)) & _M64
        self.s = [s0, s1, s2, s3]
        return r

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` (Lemire's multiply-shift on the high 32 bits)."""
        return ((self.next() >> 32) * n) >> 32


class DealStream:
    """Game *game*'s deals of seed *seed* under *rules*, as the core deals them: each
    :meth:`deal` shuffles, deals from the left of :attr:`dealer`, and moves the dealer
    on (a deal ended by an illegal action moves it too, as in the core)."""

    def __init__(self, rules: Rules, seed: int, game: int) -> None:
        v = variant(rules)
        self.players = v.players
        self._after = v.turns.after
        d = v.deck
        self._per = d.per_seat
        self._left_over = not d.thirteen_each and d.left_over and d.spare_to != "aside"
        self._lowest = d.spare_to == "lowest"
        self._by_strength = list(d.by_strength)
        self.rng = CoreRng(((seed & _M64) * GOLDEN + game) & _M64)
        self.dealer = 0
        """The dealer of the next deal."""

    def deal(self) -> list[Mask]:
        """The next deal's hands, one mask a seat (its dealer: :attr:`dealer` before the
        call)."""
        deck = list(range(52))
        below = self.rng.below
        for i in range(51, 0, -1):
            j = below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        n, per = self.players, self._per
        order = self._after[self.dealer]
        hands = [0] * n
        for i in range(n):
            h = 0
            for c in deck[i:per * n:n]:
                h |= 1 << c
            hands[order[i]] = h
        if self._left_over:
            dealt = 0
            for h in hands:
                dealt |= h
            ranked = [c for c in self._by_strength if dealt >> c & 1]
            card = ranked[0] if self._lowest else ranked[-1]
            holder = next(s for s in order if hands[s] >> card & 1)
            for c in deck[per * n:]:
                hands[holder] |= 1 << c
        self.dealer = (self.dealer + 1) % n
        return hands


__all__ = ["GOLDEN", "CoreRng", "DealStream", "core_dealt"]
