"""The ``options`` of :meth:`big2.env.vector.VectorEnv.reset`, checked before
any game changes: ``{"hands": ...}`` deals chosen hands.

``hands`` gives one entry per game: ``None`` (that game is dealt as usual) or
a deal, one hand per seat, each hand a card mask (an ``int`` or
:class:`~big2.cards.CardSet`), card text (``"3D 4C"``) or card numbers
(0–51). A ``(N, players)`` unsigned integer NumPy array of masks works too.
Anything else raises a :class:`ValueError` (or :class:`TypeError`) naming the
game, the seat and the problem.

>>> check_options({"hands": [None, ["3D 4C", "5H", "6S", "7S"]]}, 2, 4, 13)
[None, [33, 1024, 32768, 524288]]
>>> check_options({"hands": [["3D 4C", "3D", "6S", "7S"]]}, 1, 4, 13)
Traceback (most recent call last):
...
ValueError: options['hands'][0]: the same card is in two hands: 3♦ (seats 0 and 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import numpy as np

from big2.cards import CARD_SYMBOLS, cards_of, parse_cards

OPTION_KEYS: Final = ("hands",)
"""The keys :meth:`~big2.env.vector.VectorEnv.reset` accepts in *options*."""

_DECK: Final = (1 << 52) - 1

Deal = list[int]
"""One mask per seat."""


def check_options(options: Mapping[str, Any] | None, num_envs: int, players: int,
                  max_cards: int) -> list[Deal | None] | None:
    """The deals *options* ask for, one entry per game (``None``: deal as
    usual), or ``None`` without a ``hands`` option; *max_cards* is the most
    cards a hand of this env may hold."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict, not {type(options).__name__}")
    unknown = sorted(str(k) for k in options if k not in OPTION_KEYS)
    if unknown:
        raise ValueError(f"unknown reset options {unknown}; accepted: {list(OPTION_KEYS)}")
    if "hands" not in options or options["hands"] is None:
        return None
    return check_hands(options["hands"], num_envs, players, max_cards)


def check_hands(hands: Any, num_envs: int, players: int, max_cards: int) -> list[Deal | None]:
    """*hands* (see the module) checked: one entry per game, each ``None`` or a
    list of *players* disjoint, non-empty masks of at most *max_cards* cards."""
    if isinstance(hands, np.ndarray):
        if hands.ndim != 2 or hands.shape != (num_envs, players):
            raise ValueError(f"options['hands']: an array must have shape ({num_envs}, {players}) "
                             f"(games, seats), not {hands.shape}")
        if not np.issubdtype(hands.dtype, np.integer):
            raise TypeError(f"options['hands']: an array must hold integer masks, "
                            f"not {hands.dtype}")
        rows: Sequence[Any] = hands.tolist()
    elif isinstance(hands, Sequence) and not isinstance(hands, (str, bytes)):
        rows = hands
    else:
        raise TypeError(f"options['hands'] must be a list of one deal per game, "
                        f"not {type(hands).__name__}")
    if len(rows) != num_envs:
        raise ValueError(f"options['hands'] must give one deal (or None) per game: "
                         f"{num_envs} games, got {len(rows)}")
    return [None if row is None else _deal(row, f"options['hands'][{i}]", players, max_cards)
            for i, row in enumerate(rows)]


def _deal(row: Any, where: str, players: int, max_cards: int) -> Deal:
    if isinstance(row, (str, bytes, int)) or not isinstance(row, Iterable):
        raise TypeError(f"{where}: a deal is a list of {players} hands, not {type(row).__name__}")
    row = list(row)
    if len(row) != players:
        raise ValueError(f"{where}: expected {players} hands (one per seat), got {len(row)}")
    masks = [_hand(h, f"{where}[{s}]") for s, h in enumerate(row)]
    seen, owner = 0, [0] * 52
    for s, m in enumerate(masks):
        if not m:
            raise ValueError(f"{where}: seat {s} has no cards (every seat must be dealt one)")
        if m.bit_count() > max_cards:
            raise ValueError(f"{where}: seat {s} has {m.bit_count()} cards; this env's hands hold "
                             f"at most {max_cards}")
        both = m & seen
        if both:
            c = cards_of(both)[0]
            raise ValueError(f"{where}: the same card is in two hands: {CARD_SYMBOLS[c]} "
                             f"(seats {owner[c]} and {s})")
        for c in cards_of(m):
            owner[c] = s
        seen |= m
    return masks


def _hand(hand: Any, where: str) -> int:
    """One hand as a mask of cards 0..51."""
    if isinstance(hand, (bool, np.bool_)):
        raise TypeError(f"{where}: a hand is a mask, card text or card numbers, not a bool")
    if isinstance(hand, (int, np.integer)):
        m = int(hand)
        if m < 0:
            raise ValueError(f"{where}: a negative mask ({m})")
        if m & ~_DECK:
            raise ValueError(f"{where}: the mask {m:#x} holds card numbers above 51")
        return m
    if isinstance(hand, str):
        try:
            m = int(parse_cards(hand))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        if m & ~_DECK:
            raise ValueError(f"{where}: {hand!r} names cards outside the 52-card deck")
        return m
    if not isinstance(hand, Iterable):
        raise TypeError(f"{where}: a hand is a mask, card text or card numbers, "
                        f"not {type(hand).__name__}")
    m = 0
    for c in hand:
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)):
            raise TypeError(f"{where}: card numbers are ints 0..51, not {c!r}")
        if not 0 <= int(c) < 52:
            raise ValueError(f"{where}: {int(c)} is not a card number (0..51)")
        if m >> int(c) & 1:
            raise ValueError(f"{where}: lists {CARD_SYMBOLS[int(c)]} twice")
        m |= 1 << int(c)
    return m


__all__ = ["OPTION_KEYS", "Deal", "check_hands", "check_options"]
