"""A hand-coded policy for jokers and two decks.

The heuristic bot's planner and the expert's search are built on one 52-card
deck (a rank's four cards in one nibble, hidden cards sampled from the rest
of that deck). Under ``jokers`` or ``decks=2`` both play this policy instead:
go out when possible; lead the lowest card in the play that sheds the most
cards; follow with the weakest play that beats the table, among the few
weakest preferring one that keeps pairs and triples whole; keep jokers and 2s
back unless a seat is close to going out or the hand is nearly gone.

>>> from big2 import Game, Rules
>>> g = Game(Rules(jokers="wild"), seed=4)
>>> g.play(wild_play(g.view(g.to_move)))
>>> len(g.history)
1
"""

from __future__ import annotations

from big2.cards import JOKERS, RANK_MASKS, TWO, Mask, cards_of, rank_of
from big2.combos import engine
from big2.view import PlayerView

_PRECIOUS = JOKERS | RANK_MASKS[TWO]


def _breaks(play: Mask, hand: Mask) -> bool:
    """Whether *play* (of at most two cards) leaves a lone card of a rank it takes from."""
    if play.bit_count() > 2:
        return False
    for c in cards_of(play):
        r = rank_of(c)
        if r < 13 and (hand & RANK_MASKS[r]).bit_count() > (play & RANK_MASKS[r]).bit_count():
            return True
    return False


def wild_play(view: PlayerView) -> Mask:
    """The policy's choice: always one of ``view.legal``."""
    legal = view.legal
    plays = [p for p in legal if p]
    if not plays:
        return 0
    hand = int(view.hand)
    if hand in plays:
        return hand  # going out
    others = [c for s, c in enumerate(view.card_counts) if s != view.seat and c]
    danger = bool(others) and min(others) <= 2
    cheap = [p for p in plays if not p & _PRECIOUS]
    if not view.leading:
        if cheap and not (danger and min(others) <= 1 and cheap[0].bit_count() == 1):
            # the weakest play (legal plays come weakest first) that keeps pairs and
            # triples whole, among the few weakest
            whole = [p for p in cheap[:4] if not _breaks(p, hand)]
            return whole[0] if whole else cheap[0]
        if danger or hand.bit_count() <= 4 or 0 not in legal:
            return plays[-1] if danger else plays[0]
        return 0
    strength = engine(view.rules).strength
    low = min(cards_of(hand), key=lambda c: (strength[c], c))
    pool = [p for p in (cheap or plays) if p >> low & 1] or cheap or plays
    if danger and min(others) == 1:
        multi = [p for p in plays if p.bit_count() > 1]
        if multi:
            pool = multi
        else:  # only singles: lead the strongest so the last card cannot beat it
            return max(plays, key=lambda p: strength[p.bit_length() - 1])
    return max(pool, key=lambda p: (p.bit_count(), -pool.index(p)))
