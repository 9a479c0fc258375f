"""Scoring a finished deal under each scoring rule (see :mod:`big2.variant.scorer`,
where the methods live; these functions take a rule set and ask its scorer).

All scores are "higher is better": a loser's payment or penalty is negative.

>>> from big2.rules import Rules
>>> from big2.cards import parse_cards as p
>>> east, west = p("3D 4D 5D"), p("3C 4S 5C 6S 7C 8C 9S TC JS QC KS")
>>> south = p("3H 4H 6H 7H 9H JH QH KD")        # 8 cards, nothing doubling
>>> score(Rules(), [0, east, west, south], winner=0, last_play=p("AD"))   # RULES.md example 1
(33, -3, -22, -8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from big2.cards import Mask
from big2.rules import Rules
from big2.variant import variant
from big2.variant.explain import ScoreLine, explain_score

if TYPE_CHECKING:
    from big2.position import Position

__all__ = ["ScoreLine", "card_multiplier", "doubling_count", "explain", "score",
           "winning_play_doubles"]


def card_multiplier(left: int, dealt: int) -> int:
    """Points per card for *left* cards against a whole hand of *dealt*: 1, 2 (from
    70% of it: 10 of 13, 12 of 17) or 3 (all of them)."""
    if left >= dealt:
        return 3
    return 2 if left >= -(-dealt * 7 // 10) else 1


def doubling_count(hand: Mask, rules: Rules) -> int:
    """How many times a loser's figure doubles for what *hand* still holds."""
    return variant(rules).scorer.doubling_count(hand)


def winning_play_doubles(last_play: Mask, rules: Rules) -> bool:
    """Whether going out with *last_play* doubles every loser once."""
    return variant(rules).scorer.winning_play_doubles(last_play)


def score(rules: Rules, hands_left: Sequence[Mask | int], winner: int, last_play: Mask, *,
          dealt: Sequence[int] | None = None, finished: Sequence[int] = ()) -> tuple[int, ...]:
    """Score a finished deal.

    Args:
        rules: the rule set (its ``scoring`` option decides the method).
        hands_left: each seat's remaining cards as a mask (the winner's is 0).
        winner: the seat that went out first.
        last_play: the winner's final play.
        dealt: ignored, kept so older calls still work: the ×2 / ×3 thresholds
            count the cards left against the deal's whole hand (13, or 17 with
            three players), whatever one seat was dealt (RULES.md §1).
        finished: for ``ranking`` scoring, the seats in the order they went out.

    >>> r = Rules()
    >>> from big2.cards import parse_cards as p
    >>> west = p("3H 4H 5H 6H 7H 9C 9D JS QS")        # 9 cards, a straight flush
    >>> south = p("2C 4S 5S 6C 8C 8D TC KD")            # 8 cards, a 2
    >>> score(r, [0, p("4D 5D 6D"), west, south], winner=0, last_play=p("2S"))
    (74, -6, -36, -32)
    """
    return variant(rules).scorer.score([int(h) for h in hands_left], winner, last_play, finished)


def explain(game: Position) -> tuple[ScoreLine, ...]:
    """Each seat's :class:`~big2.variant.explain.ScoreLine` for *game*'s finished
    deal: cards left, multipliers and doublings (``line.describe(name)`` says it
    in English). Where a house rule changed the scores (teams, a penalty, a
    dealt instant win), the lines carry the final points and ``adjusted``.

    >>> from big2.game import Game
    >>> from big2.bots import make_bot
    >>> g = Game(seed=3)
    >>> bots = [make_bot("greedy", seed=s) for s in range(4)]
    >>> while not g.is_over():
    ...     _ = g.play(bots[g.to_move].choose(g.view(g.to_move)))
    >>> [line.points for line in explain(g)] == list(g.outcome().scores)
    True
    """
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the deal is not over yet: there is no score to explain")
    last_play = next((a.cards for a in reversed(game.history)
                      if a.seat == outcome.winner and a.cards), 0)
    lines = explain_score(game.variant.scorer, game.hands, outcome.winner, last_play,
                          outcome.finished)
    if tuple(line.points for line in lines) == tuple(outcome.scores):
        return lines
    why = str(outcome.termination) if outcome.termination != "normal" else "house rule"
    return tuple(replace(line, points=s, adjusted=why)
                 for line, s in zip(lines, outcome.scores, strict=True))
