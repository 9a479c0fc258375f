"""The fixed discrete action space: every play any rule set allows, plus pass.

One enumeration serves every :class:`~big2.rules.Rules`, so an action id
means the same cards under every rule set and player count, and a policy
trained under one rule set can be run under another. It holds every set of
one to five cards that is a play under *some* combination of options:

==================  ==========================  ========
shape (``Kind``)    cards                        actions
==================  ==========================  ========
pass                 (none)                            1
single               any card                         52
pair                 two of one rank                  78
triple               three of one rank                52
two pairs            2 + 2 (``two_pairs``)         2,808
four of a kind       4 (``four_of_a_kind_alone``)     13
two pairs + card     2 + 2 + 1 (``five_two_pairs``) 123,552
trips + two cards    3 + 1 + 1 (``five_trips``)   54,912
straight             any of the 11 sequences of    11,220
                     any straight order, not all
                     one suit
flush                five of one suit, not a        5,104
                     sequence of any order
full house           3 + 2                         3,744
four + kicker        4 + 1                           624
straight flush       a sequence, all one suit         44
**total**                                        **202,204**
==================  ==========================  ========

The 11 sequences are the union of every straight order of
:data:`big2.combos.STRAIGHT_SEQUENCES` (3-7 … 10-A, 2-6, A-5 and J-2).
Listing only these *shapes* instead of every 1–5-card subset of the deck
(3.2 million, 2.6 million of them of five cards) keeps the space 16 times
smaller, and the masks are a NumPy array of 1.6 MB. Which actions a given
rule set can ever use is :func:`rule_actions` (19,899 under the classic
rules); which are legal now is the mask the environment hands out.

Ids: ``0`` is the pass; then actions are sorted by shape (in ``Kind`` order:
singles, pairs, triples, two pairs, four of a kind, two pairs + card, trips +
two cards, straights, flushes, full houses, four + kicker, straight flushes)
and, within a shape, by card mask as an integer. :data:`KIND_RANGES` gives
each shape's id range. A shape is structural: J-Q-K-A-2 of mixed suits has
shape ``STRAIGHT`` although under the classic rules it is no play at all
(:func:`big2.classify` says what a set is under given rules).

>>> NUM_ACTIONS
202204
>>> a = text_to_action("3D 3S")
>>> a, action_to_text(a), action_to_mask(a)
(56, '3♦ 3♠', CardSet.parse('3D 3S'))
>>> action_to_text(PASS_ACTION), text_to_action("pass")
('pass', 0)
>>> Kind(ACTION_KINDS[text_to_action("JD QD KD AD 2D")]).name
'STRAIGHT_FLUSH'
>>> text_to_action("3D 4D")
Traceback (most recent call last):
...
big2.env.actions.InvalidActionError: 3♦ 4♦ is no play under any rule set
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations, product
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from big2.cards import BB_RANKS, CARD_NAMES, CARD_SYMBOLS, FULL_DECK, RANKS, CardSet, Mask, cards_of
from big2.combos import STRAIGHT_SEQUENCES, Kind, engine

if TYPE_CHECKING:
    from big2.game import Game
    from big2.rules import Rules

PASS_ACTION: Final = 0
"""The id of the pass."""


class InvalidActionError(ValueError):
    """An action id out of range, or cards that form no play under any rule set."""


def _rank_mask(rank: int, suits: Iterable[int]) -> Mask:
    return sum(1 << (4 * rank + s) for s in suits)


def _sequences() -> list[tuple[int, ...]]:
    """Every five-rank sequence that is a straight under some straight order."""
    seen: dict[tuple[int, ...], None] = {}
    for order in STRAIGHT_SEQUENCES.values():
        for seq, _ in order:
            seen[tuple(sorted(RANKS.index(ch) for ch in seq))] = None
    return sorted(seen)


def _enumerate() -> dict[Kind, list[Mask]]:
    """Every candidate play, grouped by shape (lists unsorted)."""
    suits4 = range(4)
    groups: dict[Kind, list[Mask]] = {k: [] for k in Kind}
    # the card sets of one rank: n-subsets of the four suits, per rank
    of_rank = [[[_rank_mask(r, sub) for sub in combinations(suits4, n)] for n in range(5)]
               for r in range(13)]
    for r in range(13):
        groups[Kind.SINGLE] += of_rank[r][1]
        groups[Kind.PAIR] += of_rank[r][2]
        groups[Kind.TRIPLE] += of_rank[r][3]
        groups[Kind.FOUR_OF_A_KIND] += of_rank[r][4]
    for lo, hi in combinations(range(13), 2):
        for a, b in product(of_rank[lo][2], of_rank[hi][2]):
            tp = a | b
            groups[Kind.TWO_PAIRS].append(tp)
            rest = FULL_DECK & ~BB_RANKS[lo] & ~BB_RANKS[hi]
            while rest:
                low = rest & -rest
                rest ^= low
                groups[Kind.FIVE_TWO_PAIRS].append(tp | low)
    for t in range(13):
        others = [r for r in range(13) if r != t]
        for trip in of_rank[t][3]:
            for r1, r2 in combinations(others, 2):
                for a, b in product(of_rank[r1][1], of_rank[r2][1]):
                    groups[Kind.FIVE_TRIPS].append(trip | a | b)
            for r in others:
                for pair in of_rank[r][2]:
                    groups[Kind.FULL_HOUSE].append(trip | pair)
        quad = of_rank[t][4][0]
        rest = FULL_DECK & ~quad
        while rest:
            low = rest & -rest
            rest ^= low
            groups[Kind.FOUR_KICKER].append(quad | low)
    seqs = _sequences()
    seq_rank_sets = {sum(1 << r for r in seq) for seq in seqs}
    for seq in seqs:
        for suits in product(suits4, repeat=5):
            m = sum(1 << (4 * r + s) for r, s in zip(seq, suits))
            kind = Kind.STRAIGHT_FLUSH if len(set(suits)) == 1 else Kind.STRAIGHT
            groups[kind].append(m)
    for s in suits4:
        for ranks in combinations(range(13), 5):
            if sum(1 << r for r in ranks) not in seq_rank_sets:
                groups[Kind.FLUSH].append(sum(1 << (4 * r + s) for r in ranks))
    return groups


def _build() -> tuple[list[Mask], npt.NDArray[np.int8], dict[Kind, tuple[int, int]]]:
    groups = _enumerate()
    masks: list[Mask] = [0]
    kinds: list[int] = [0]
    ranges: dict[Kind, tuple[int, int]] = {}
    for kind in Kind:
        group = sorted(groups[kind])
        ranges[kind] = (len(masks), len(masks) + len(group))
        masks += group
        kinds += [int(kind)] * len(group)
    return masks, np.array(kinds, dtype=np.int8), ranges


_MASK_LIST, ACTION_KINDS, KIND_RANGES = _build()
ACTION_KINDS.flags.writeable = False

ACTION_MASK_LIST: Final[list[Mask]] = _MASK_LIST
"""The card mask of each action id as a plain ``int`` (``0`` for the pass);
the fastest way to turn an id into cards. Do not change it."""
NUM_ACTIONS: Final = len(_MASK_LIST)
"""Size of the action space (202,204)."""
ACTION_MASKS: Final = np.array(_MASK_LIST, dtype=np.uint64)
"""The card mask of each action id, as a read-only ``uint64`` array."""
ACTION_MASKS.flags.writeable = False
ACTION_INDEX: Final[dict[Mask, int]] = {m: i for i, m in enumerate(_MASK_LIST)}
"""Card mask → action id. Do not change it."""
# ACTION_KINDS: shape (``Kind`` value) of each action; 0 for the pass.
# KIND_RANGES: ``Kind`` → ``(first id, end id)`` of that shape's block.


def check_action_id(action: int) -> int:
    """*action* as a plain int; :class:`InvalidActionError` if it is no action id."""
    try:
        a = operator.index(action)
    except TypeError:
        raise InvalidActionError(f"not an action id: {action!r}") from None
    if not 0 <= a < NUM_ACTIONS:
        raise InvalidActionError(f"action id {a} is outside 0..{NUM_ACTIONS - 1}")
    return a


def action_to_mask(action: int) -> CardSet:
    """The cards of *action* (empty for the pass)."""
    return CardSet(_MASK_LIST[check_action_id(action)])


def mask_to_action(cards: Mask | Iterable[int] | str) -> int:
    """The id of the play *cards* (a mask, card numbers, or text such as
    ``"3D 3S"``; ``0``/``"pass"`` is the pass).

    Raises :class:`InvalidActionError` if the cards are no play under any rule set.
    """
    if isinstance(cards, str):
        text = cards.strip().lower()
        mask = 0 if text in ("", "p", "pass") else int(CardSet.parse(cards))
    else:
        mask = int(CardSet(cards))
    got = ACTION_INDEX.get(mask)
    if got is None:
        raise InvalidActionError(
            " ".join(CARD_SYMBOLS[c] for c in cards_of(mask)) + " is no play under any rule set")
    return got


text_to_action = mask_to_action


def action_to_text(action: int, *, symbols: bool = True) -> str:
    """The cards of *action* as text (``'pass'`` for the pass); ``symbols=False``
    gives ASCII names (``'3D 3S'``), which :func:`text_to_action` reads back."""
    mask = _MASK_LIST[check_action_id(action)]
    if not mask:
        return "pass"
    names = CARD_SYMBOLS if symbols else CARD_NAMES
    return " ".join(names[c] for c in cards_of(mask))


def actions_of(masks: Iterable[Mask]) -> npt.NDArray[np.int64]:
    """The ids of *masks* (each a play under some rule set), as an array."""
    index = ACTION_INDEX
    try:
        return np.fromiter((index[m] for m in masks), dtype=np.int64)
    except KeyError as exc:
        raise InvalidActionError(f"mask {exc.args[0]:#x} is no play under any rule set") from None


def legal_actions(game: Game) -> npt.NDArray[np.int64]:
    """The ids of the legal plays of the seat to move, weakest first (pass last)."""
    return actions_of(game.legal_masks())


def legal_action_mask(game: Game) -> npt.NDArray[np.int8]:
    """A ``NUM_ACTIONS`` vector with 1 at each legal action of the seat to move."""
    out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    out[legal_actions(game)] = 1
    return out


@lru_cache(maxsize=32)
def rule_actions(rules: Rules) -> npt.NDArray[np.int64]:
    """The ids of every action that is a play under *rules* (the pass included),
    ascending: the sub-space a policy for one rule set needs.

    >>> from big2 import Rules
    >>> len(rule_actions(Rules()))
    19899
    """
    # every play of the whole deck is every play there is
    out = np.sort(actions_of([0, *engine(rules).leads(FULL_DECK)]))
    out.flags.writeable = False
    return out


__all__ = [
    "ACTION_INDEX", "ACTION_KINDS", "ACTION_MASKS", "ACTION_MASK_LIST", "KIND_RANGES",
    "NUM_ACTIONS", "PASS_ACTION", "InvalidActionError", "action_to_mask", "action_to_text",
    "actions_of", "legal_action_mask", "legal_actions", "mask_to_action", "rule_actions",
    "text_to_action",
]
