"""House rules for ranking poker hands, as data.

A :class:`Rules` value says which way the hand ranks (high, or one of the
three lowball orders), which cards are wild, how ties between equal hands
break, which deck is in use and whether any hand is unbeatable.  The named
presets cover the common games.

>>> DEUCES_WILD.wild_cards((48, 5, 51))   # 2D, 4C, 2S: the deuces
(48, 51)
>>> Rules.stripped(32).lowest
5
>>> Rules(low="a5").describe()
'ace-to-five low'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from big2.poker.cards import RANK_CHARS, is_joker, poker_rank

__all__ = [
    "ACE_TO_FIVE",
    "ACE_TO_SIX",
    "DEUCES_WILD",
    "DEUCE_TO_SEVEN",
    "GREEK",
    "ITALIAN",
    "LOW_MODES",
    "STANDARD",
    "SUIT_TIEBREAKS",
    "TWENTY_CARD",
    "WILD_TIEBREAKS",
    "Rules",
]

LOW_MODES = ("a5", "27", "a6")
"""Lowball orders: ace-to-five, deuce-to-seven, ace-to-six."""
SUIT_TIEBREAKS = ("highest", "paired", "unpaired")
"""Which card's suit breaks a tie between otherwise equal hands."""
WILD_TIEBREAKS = ("natural", "fewer", "more")
"""``natural``: a natural hand beats an equal one using wild cards;
``fewer``: fewer wild cards beat more; ``more``: more wild cards beat fewer."""

_ONE_EYED_JACKS = (34, 35)  # JH, JS


@dataclass(frozen=True)
class Rules:
    """How hands rank.  The defaults are standard high poker with one 52-card deck.

    * ``low`` — ``None`` (high), ``"a5"``, ``"27"`` or ``"a6"``.
    * ``eight_or_better`` — a low hand must be five different ranks of 8 or
      lower (aces low) to qualify; any qualifying hand beats any that does not.
    * ``wild`` — extra wild cards: rank characters (``"2"`` for deuces wild),
      ``"one-eyed-jacks"`` (J♥ J♠), ``"lowest"`` (each player's lowest rank,
      aces high).  Jokers are always wild.
    * ``bug`` — jokers are bugs: an ace, or any card completing a straight or flush.
    * ``double_ace_flush`` — a wild card may duplicate a card held (A-A flush).
    * ``wild_tiebreak`` — ``"natural"``, ``"fewer"`` or ``"more"`` (see :data:`WILD_TIEBREAKS`).
    * ``lowest`` — poker rank of the deck's lowest card (0 = deuce; 5 = seven
      for a 32-card deck); the ace also plays below it in a straight.
    * ``flush_over_full_house`` — default: only in stripped decks.
    * ``suit_tiebreak`` and ``suit_order`` (high to low, e.g. ``"SHDC"``).
    * ``straights_and_flushes`` — ``False`` for the historical 20-card game
      (A K Q J T): only pairs, two pair, triplets, full houses and fours count.
    * ``italian_straight_flush`` — the minimum straight flush beats the maximum.
    * ``imperial_flush`` — the royal flush in the top suit beats everything
      except four of a kind of the deck's lowest rank.
    """

    low: str | None = None
    eight_or_better: bool = False
    wild: tuple[str, ...] = ()
    bug: bool = False
    double_ace_flush: bool = False
    wild_tiebreak: str | None = None
    lowest: int = 0
    flush_over_full_house: bool | None = None
    suit_tiebreak: str | None = None
    suit_order: str = "SHDC"
    italian_straight_flush: bool = False
    imperial_flush: bool = False
    straights_and_flushes: bool = True
    _wild_ranks: frozenset[int] = field(default=frozenset(), init=False, repr=False,
                                        compare=False)

    def __post_init__(self) -> None:
        if self.low not in (None, *LOW_MODES):
            raise ValueError(f"unknown low mode {self.low!r} (use one of {LOW_MODES})")
        if self.suit_tiebreak not in (None, *SUIT_TIEBREAKS):
            raise ValueError(f"unknown suit tiebreak {self.suit_tiebreak!r}")
        if self.wild_tiebreak not in (None, *WILD_TIEBREAKS):
            raise ValueError(f"unknown wild tiebreak {self.wild_tiebreak!r}")
        if sorted(self.suit_order.upper()) != sorted("SHDC"):
            raise ValueError("the suit order must name each of S H D C once")
        if not 0 <= self.lowest <= 8:
            raise ValueError("the deck must keep at least five ranks (lowest 0-8)")
        ranks = set()
        for w in self.wild:
            key = w.upper().removeprefix("10")
            if w in ("one-eyed-jacks", "lowest"):
                continue
            if w == "10" or (len(key) == 1 and key in RANK_CHARS):
                ranks.add(RANK_CHARS.index("T" if w == "10" else key))
            else:
                raise ValueError(
                    "unknown wild card kind (use a rank like 2, one-eyed-jacks, lowest or bug)")
        object.__setattr__(self, "_wild_ranks", frozenset(ranks))

    @classmethod
    def stripped(cls, deck_size: int, **options: object) -> Rules:
        """Rules for a stripped deck of 20–52 cards (low ranks removed)."""
        if deck_size % 4 or not 20 <= deck_size <= 52:
            raise ValueError("a stripped deck has 20 to 52 cards, a multiple of four")
        return cls(lowest=13 - deck_size // 4, **options)  # type: ignore[arg-type]

    def with_(self, **changes: object) -> Rules:
        """A copy with some options changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def deck_size(self) -> int:
        """Cards in the deck (52 unless stripped)."""
        return (13 - self.lowest) * 4

    @property
    def flush_beats_full_house(self) -> bool:
        """Whether a flush outranks a full house (default: in stripped decks)."""
        if self.flush_over_full_house is None:
            return self.lowest > 0
        return self.flush_over_full_house

    @property
    def ace_low(self) -> bool:
        """Whether aces rank below deuces (ace-to-five and ace-to-six)."""
        return self.low in ("a5", "a6")

    @property
    def straights_count(self) -> bool:
        """Whether straights and flushes count (all but ace-to-five and the 20-card game)."""
        return self.low != "a5" and self.straights_and_flushes

    def suit_strength(self, suit: int) -> int:
        """Strength of a suit number under :attr:`suit_order` (3 = highest)."""
        return 3 - self.suit_order.upper().index("DCHS"[suit])

    def wild_cards(self, cards: Sequence[int]) -> tuple[int, ...]:
        """The cards of a player's *cards* that are wild under these rules."""
        lowest_rank = -1
        if "lowest" in self.wild:
            naturals = [poker_rank(c) for c in cards if not is_joker(c)]
            lowest_rank = min(naturals, default=-1)
        one_eyed = "one-eyed-jacks" in self.wild
        return tuple(
            c for c in cards
            if is_joker(c)
            or poker_rank(c) in self._wild_ranks
            or poker_rank(c) == lowest_rank
            or (one_eyed and c in _ONE_EYED_JACKS)
        )

    def describe(self) -> str:
        """A short description of the ranking: ``'deuce-to-seven low'``."""
        parts = [{None: "high", "a5": "ace-to-five low", "27": "deuce-to-seven low",
                  "a6": "ace-to-six low"}[self.low]]
        if self.lowest:
            parts.append(f"{self.deck_size}-card deck")
        if self.wild:
            parts.append("wild: " + ", ".join(self.wild))
        if self.bug:
            parts.append("jokers are bugs")
        if not self.straights_and_flushes:
            parts.append("no straights or flushes")
        return "; ".join(parts)


STANDARD = Rules()
"""Standard high poker."""
ACE_TO_FIVE = Rules(low="a5")
"""Ace-to-five lowball (California): aces low, straights and flushes ignored."""
DEUCE_TO_SEVEN = Rules(low="27")
"""Deuce-to-seven lowball (Kansas City): aces high, straights and flushes count."""
ACE_TO_SIX = Rules(low="a6")
"""Ace-to-six lowball: aces low, straights and flushes count."""
DEUCES_WILD = Rules(wild=("2",))
"""Deuces wild (plus any jokers)."""
ITALIAN = Rules(lowest=5, italian_straight_flush=True, suit_order="HDCS")
"""Italian poker: 32 cards, flush over full house, minimum straight flush beats maximum."""
TWENTY_CARD = Rules(lowest=8, straights_and_flushes=False)
"""The historical 20-card game (aces to tens): no straights or flushes."""
GREEK = Rules(lowest=4, imperial_flush=True, suit_order="HSDC")
"""Greek rules: 36 cards, hearts high, imperial flush beaten only by four sixes."""
