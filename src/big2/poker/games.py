"""The games the equity calculator deals: hole cards, board, deck and hand values.

Every game turns a batch of deals into per-player **high values** (higher is
better) and, for the split games, **low values** (higher is better, 0 when a
hand has no qualifying low):

========== ===== ===== ====== ===============================================
game       hole  board deck   best hand
========== ===== ===== ====== ===============================================
holdem     2     5     52     best five of the seven
shortdeck  2     5     36     six to ace; flush over full house; A-6-7-8-9
omaha      4     5     52     exactly two hole cards and three board cards
omaha8     4     5     52     omaha high, and an eight-or-better low half
stud       7     0     52     best five of the player's seven
stud8      7     0     52     stud high, and an eight-or-better low half
razz       7     0     52     the lowest five of seven, ace-to-five, no qualifier
badugi     4     0     52     badugi (:mod:`~big2.poker.badugi`), no draws left
========== ===== ===== ====== ===============================================

Omaha hands of five or six cards play as five- or six-card Omaha (still
exactly two).  The low of omaha8 and stud8 is ace-to-five (straights and
flushes ignored) from five different ranks eight or lower.  Razz and badugi
values come from :mod:`big2.poker.lowball` (higher is the better low).

>>> import numpy as np
>>> from big2.poker.cards import parse_hand
>>> board = np.array([parse_hand("AH KH QH 2C 3D")])
>>> hole = np.array([parse_hand("JH TH 4S 5S")])
>>> g = GAMES["omaha8"]
>>> g.highs(board, [hole]).tolist(), g.lows(board, [hole]).tolist()   # royal flush; 5-4-3-2-A
([[7462]], [[225]])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from big2.poker.evaluate import FIVE_TABLE, FLUSH_BEST, RANK_BITS, RANK_KEYS5
from big2.poker.lookup import LOW_BITS, best_low7, tables
from big2.poker.lowball import badugi_values, razz_values

__all__ = ["GAMES", "Game", "omaha_values"]

Cards = npt.NDArray[np.integer]
Values = npt.NDArray[np.int16]

_RK5 = np.array(RANK_KEYS5, dtype=np.int32)
_SB5 = np.array([1 << (c & 3) for c in range(52)], dtype=np.uint8)
_RB5 = np.array(RANK_BITS, dtype=np.int16)
_NF5 = np.abs(np.array(FIVE_TABLE, dtype=np.int32)).astype(np.int16)
_FL5 = np.array(FLUSH_BEST, dtype=np.int16)
_POP = np.array([m.bit_count() for m in range(1 << 9)], dtype=np.int8)
_POP[256:] = 0  # a card above eight disqualifies


def _columns(cards: Cards, picks: tuple[int, ...]) -> tuple[
        npt.NDArray[np.int32], npt.NDArray[np.uint8], npt.NDArray[np.int16],
        npt.NDArray[np.int16]]:
    """Rank-key sum, common suit bits, rank bits and low bits of some columns."""
    cols = [cards[:, i] for i in picks]
    rk = _RK5[cols[0]].copy()
    su = _SB5[cols[0]].copy()
    rb = _RB5[cols[0]].copy()
    lb = LOW_BITS[cols[0]].copy()
    for c in cols[1:]:
        rk += _RK5[c]
        su &= _SB5[c]
        rb |= _RB5[c]
        lb |= LOW_BITS[c]
    return rk, su, rb, lb


def omaha_values(board: Cards, hole: Cards, low: bool = False) -> Values:
    """Best Omaha high (or eight-or-better low) of exactly two of *hole* and three of *board*.

    *board* is ``(n, 5)``; *hole* is ``(n, h)`` or ``(1, h)``, 4 ≤ h ≤ 6.
    """
    triples = [_columns(board, t) for t in combinations(range(5), 3)]
    pairs = [_columns(hole, p) for p in combinations(range(hole.shape[1]), 2)]
    n = max(len(board), len(hole))
    best = np.zeros(n, dtype=np.int16)
    for rk3, su3, rb3, lb3 in triples:
        for rk2, su2, rb2, lb2 in pairs:
            if low:
                lo = lb3 | lb2
                v = np.where(_POP[lo] == 5, 256 - lo, 0).astype(np.int16)
            else:
                v = _NF5[rk3 + rk2]
                flush = (su3 & su2) != 0
                if flush.any():
                    v = np.where(flush, _FL5[rb3 | rb2], v)
            np.maximum(best, v, out=best)
    return best


@dataclass(frozen=True)
class Game:
    """One game: how many hole and board cards, the deck, and how hands are valued."""

    name: str
    hole: int
    board: int
    deck: tuple[int, ...]
    split: bool = False
    cost: int = 1
    """Relative work of valuing one player's hand on one deal (for choosing exact or Monte Carlo)."""

    def highs(self, board: Cards, holes: Sequence[Cards]) -> Values:
        """High values, shape ``(players, n)``, of each player's *holes* on each deal.

        *board* is ``(n, board)`` (or ``(1, board)``), each hole ``(n, h)`` or ``(1, h)``.
        """
        if self.name.startswith("omaha"):
            return np.stack(np.broadcast_arrays(*[omaha_values(board, h) for h in holes]))
        if self.name == "razz":
            return np.stack(np.broadcast_arrays(*[razz_values(h) for h in holes]))
        if self.name == "badugi":
            return np.stack(np.broadcast_arrays(*[badugi_values(h) for h in holes]))
        t = tables("shortdeck" if self.name == "shortdeck" else "standard")
        if not self.board:
            return np.stack(np.broadcast_arrays(*[t.values((h,)) for h in holes]))
        base = t.keys((board,))
        return np.stack(np.broadcast_arrays(
            *[t.values((board, h), base + t.keys((h,))) for h in holes]))

    def lows(self, board: Cards, holes: Sequence[Cards]) -> Values | None:
        """Low values (0 = no qualifying low) like :meth:`highs`, or ``None`` if high only."""
        if not self.split:
            return None
        if self.name.startswith("omaha"):
            return np.stack(np.broadcast_arrays(
                *[omaha_values(board, h, low=True) for h in holes]))
        out = []
        for hole in holes:
            bits = LOW_BITS[hole[:, 0]].copy()
            for i in range(1, hole.shape[1]):
                bits |= LOW_BITS[hole[:, i]]
            out.append(best_low7(bits))
        return np.stack(np.broadcast_arrays(*out))

    def hole_size(self, given: int) -> int:
        """Hole cards of a player who showed *given* cards (Omaha: 4, or 5–6 when given)."""
        if self.name.startswith("omaha") and 4 < given <= 6:
            return given
        return self.hole


_FULL = tuple(range(52))
_SHORT = tuple(c for c in range(52) if c >> 2 not in (12, 0, 1, 2))  # no 2, 3, 4, 5

GAMES: dict[str, Game] = {
    "holdem": Game("holdem", 2, 5, _FULL),
    "shortdeck": Game("shortdeck", 2, 5, _SHORT),
    "omaha": Game("omaha", 4, 5, _FULL, cost=60),
    "omaha8": Game("omaha8", 4, 5, _FULL, split=True, cost=120),
    "stud": Game("stud", 7, 0, _FULL),
    "stud8": Game("stud8", 7, 0, _FULL, split=True, cost=2),
    "razz": Game("razz", 7, 0, _FULL),
    "badugi": Game("badugi", 4, 0, _FULL, cost=4),
}
"""The games by name."""
