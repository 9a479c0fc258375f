"""ICM: what tournament chip stacks are worth in prize money (Malmuth–Harville).

A player finishes first with probability stack / all chips; given who has
finished above, a player takes the next place with probability its stack /
the chips of the players still unplaced.  A player's equity is the sum over
places of the chance to finish there times that place's payout.

:func:`icm` sums over the sets of players placed above, not over orders: the
chance that a set *S* of players takes the top ``|S|`` places (in any order)
is carried forward, so the work is ``sum(C(n, j) for j < places) × n`` rather
than ``n! / (n - places)!``.

>>> [round(x, 4) for x in icm([50, 30, 20], [50, 30, 20])]
[38.3929, 32.75, 28.8571]
>>> icm([3000, 1000], [100])        # winner takes all: chips are money
[75.0, 25.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, isfinite

__all__ = ["MAX_STATES", "IcmError", "icm"]

MAX_STATES = 5_000_000
"""Most (set of players placed, next player) steps :func:`icm` takes before refusing."""


class IcmError(ValueError):
    """Stacks or payouts that ICM cannot value."""


def _check(values: Sequence[float], what: str) -> list[float]:
    out = []
    for i, v in enumerate(values, 1):
        try:
            x = float(v)
        except (TypeError, ValueError):
            raise IcmError(f"{what} {i} is not a number") from None
        if not isfinite(x) or x < 0:
            raise IcmError(f"{what} {i} is negative or not finite")
        out.append(x)
    return out


def icm(stacks: Sequence[float], payouts: Sequence[float]) -> list[float]:
    """Each player's prize equity under the Malmuth–Harville model.

    *stacks*: chips per player (a player with no chips finishes below every
    player with chips and, among the busted, shares the places left alike);
    *payouts*: prize of first place, second, … (at most one per player).

    >>> icm([5000, 5000], [70, 30])
    [50.0, 50.0]
    >>> icm([100, -5], [1])
    Traceback (most recent call last):
    ...
    big2.poker.icm.IcmError: stack 2 is negative or not finite
    """
    s = _check(stacks, "stack")
    p = _check(payouts, "payout")
    n, k = len(s), len(p)
    if n < 1:
        raise IcmError("no players")
    if k > n:
        raise IcmError(f"{k} payouts for {n} players: give at most one payout a player")
    total = sum(s)
    if total <= 0:
        raise IcmError("no chips in play")
    alive = [i for i in range(n) if s[i] > 0]
    busted = [i for i in range(n) if s[i] == 0]
    work = sum(comb(len(alive), j) for j in range(min(k, len(alive)))) * len(alive)
    if work > MAX_STATES:
        raise IcmError(f"{len(alive)} players and {k} payouts take {work:,} steps "
                       f"(more than {MAX_STATES:,}): pay fewer places")
    equity = [0.0] * n
    # the chance that the players in each set (bit mask over alive) took the top places
    layer: dict[int, float] = {0: 1.0}
    for place in range(min(k, len(alive))):
        nxt: dict[int, float] = {}
        for placed, chance in layer.items():
            left = total - sum(s[alive[j]] for j in range(len(alive)) if placed >> j & 1)
            for j, i in enumerate(alive):
                if placed >> j & 1:
                    continue
                q = chance * s[i] / left
                equity[i] += q * p[place]
                key = placed | 1 << j
                nxt[key] = nxt.get(key, 0.0) + q
        layer = nxt
    rest = p[len(alive):]
    if busted and rest:
        share = sum(rest[:len(busted)]) / len(busted)
        for i in busted:
            equity[i] = share
    return equity
