"""Poker hand ranking: high, low, wild cards, house rules, names and odds.

Independent of the Big Two rules engine; it shares only :mod:`big2.cards`
(cards are ints 0–51, jokers 52 and up).

Fast plain high poker (values 1–7,462, **higher is better**):

>>> from big2.poker import evaluate, parse_hand
>>> evaluate(parse_hand("KH KS KD QC QS")) > evaluate(parse_hand("AH AS AD KC QS"))
True

Equity of hands and ranges (exact or Monte Carlo), Omaha, split pots, badugi:

>>> [round(h.equity, 3) for h in equity(["AS AH", "KS KH"], board="2C 7D 9H").hands]
[0.916, 0.084]
>>> split_pot(101, high=[0], low=[1, 2])
[51, 25, 25]

Outs by the class they make, and tournament stacks in prize money (ICM):

>>> outs("AH KH", board="QH 7H 2C").count
15
>>> [round(x, 2) for x in icm([5000, 3000, 2000], payouts=[50, 30, 20])]
[38.39, 32.75, 28.86]

Everything else goes through :func:`rank_hand` and :class:`Rules`:

>>> rank_hand("KH KS KD QC QS").name
'Full house, Kings full of Queens'
>>> rank_hand("7S 5D 4H 3C 2D", DEUCE_TO_SEVEN).name
'7-low'
>>> rank_hand("AS 2D 2C KH 9S", DEUCES_WILD).name
'Three of a kind, Aces'
"""

from __future__ import annotations

from big2.poker.badugi import BadugiRank, compare_badugi, rank_badugi
from big2.poker.batch import all_five_card_hands, evaluate5_batch, evaluate7_batch
from big2.poker.cards import (
    JOKER,
    InvalidCardError,
    format_hand,
    is_joker,
    make_card,
    parse_hand,
    poker_rank,
    to_cards,
)
from big2.poker.equity import EquityError, EquityResult, HandEquity, equity
from big2.poker.evaluate import evaluate, evaluate5, evaluate6, evaluate7
from big2.poker.games import GAMES
from big2.poker.icm import IcmError, icm
from big2.poker.names import hand_name
from big2.poker.odds import category_counts, odds_table, probabilities
from big2.poker.omaha import omaha_high, omaha_low
from big2.poker.outs import Outs, OutsError, outs
from big2.poker.pots import Settlement, settle, split_pot
from big2.poker.ranges import RangeError, parse_range
from big2.poker.ranking import (
    HandRank,
    compare,
    qualifies_eight_or_better,
    rank_hand,
    showdown,
)
from big2.poker.rules import (
    ACE_TO_FIVE,
    ACE_TO_SIX,
    DEUCE_TO_SEVEN,
    DEUCES_WILD,
    GREEK,
    ITALIAN,
    STANDARD,
    TWENTY_CARD,
    Rules,
)
from big2.poker.tables import CLASSES, Category

__all__ = [
    "ACE_TO_FIVE",
    "ACE_TO_SIX",
    "CLASSES",
    "DEUCES_WILD",
    "DEUCE_TO_SEVEN",
    "GAMES",
    "GREEK",
    "ITALIAN",
    "JOKER",
    "STANDARD",
    "TWENTY_CARD",
    "BadugiRank",
    "Category",
    "EquityError",
    "EquityResult",
    "HandEquity",
    "HandRank",
    "IcmError",
    "InvalidCardError",
    "Outs",
    "OutsError",
    "RangeError",
    "Rules",
    "Settlement",
    "all_five_card_hands",
    "category_counts",
    "compare",
    "compare_badugi",
    "equity",
    "evaluate",
    "evaluate5",
    "evaluate5_batch",
    "evaluate6",
    "evaluate7",
    "evaluate7_batch",
    "format_hand",
    "hand_name",
    "icm",
    "is_joker",
    "make_card",
    "odds_table",
    "omaha_high",
    "omaha_low",
    "outs",
    "parse_hand",
    "parse_range",
    "poker_rank",
    "probabilities",
    "qualifies_eight_or_better",
    "rank_badugi",
    "rank_hand",
    "settle",
    "showdown",
    "split_pot",
    "to_cards",
]
