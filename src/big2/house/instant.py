"""Instant results decided by a dealt hand (shared by :mod:`~big2.house.maltese` and
:mod:`~big2.house.four_twos`; rulings in docs/house-rules.md)."""

from __future__ import annotations

from big2.variant.hooks import DealState, Outcome, Termination


def seats_in_turn(game: DealState) -> tuple[int, ...]:
    """The seats from the first leader on, in turn order (who is checked first)."""
    first = game.to_move or 0
    return (first, *game.variant.turns.after[first][:-1])


def finish(game: DealState, seat: int, result: Termination) -> None:
    """End the deal at once: *seat*'s dealt hand is an instant *result*."""
    v = game.variant
    n = game.num_players
    others = [s for s in v.turns.after[seat] if s != seat]
    if result == Termination.DRAW:
        game.end(Outcome(seat, (0,) * n, (), result))
        return
    if result == Termination.MALTESE_LOSS:
        # the holder pays every other player what its whole hand would pay a winner
        alone = [0] * n
        alone[seat] = game.hands[seat]
        paid = -v.scorer.score(alone, others[0], 0)[seat]
        if v.scorer.method == "ranking":
            scores = tuple(n - 1 - (others + [seat]).index(s) for s in range(n))
        elif v.scorer.method == "penalty":
            scores = tuple(-paid if s == seat else 0 for s in range(n))
        else:
            scores = tuple(-paid * (n - 1) if s == seat else paid for s in range(n))
        game.end(Outcome(others[0], scores, tuple(others), result))
        return
    hands = list(game.hands)  # the holder wins as if it went out at once
    hands[seat] = 0
    game.end(Outcome(seat, v.scorer.score(hands, seat, 0, [seat]), (seat,), result))
