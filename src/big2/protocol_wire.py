"""The bot protocol's wire format, shared by both sides: cards as protocol text
(:func:`format_play`, :func:`parse_play`), the version, and the error a bad
message raises. The bot side (:mod:`big2.protocol`) and the host side
(:mod:`big2.protocol_host`) both build on this module; it imports neither.
"""

from __future__ import annotations

from typing import Any

from big2.cards import CARD_NAMES, DECK_SIZE, InvalidCardError, Mask, cards_of, parse_cards

PROTOCOL_VERSION = 1
"""Bumped when a message changes incompatibly."""


class ProtocolError(ValueError):
    """A message the bot side cannot act on; the reply says why."""


def format_play(mask: Mask) -> str:
    """Cards as protocol text: ASCII names by rank, ``"pass"`` for no cards.

    Both copies of a card (two decks) have the same name, so it appears twice.

    >>> format_play(0), format_play(int(parse_cards("10h 3d")))
    ('pass', '3D TH')
    >>> format_play(int(parse_cards("BJ 4C 3D 3D", copies=2)))
    '3D 3D 4C BJ'
    """
    if not mask:
        return "pass"
    return " ".join(CARD_NAMES[c] for c in sorted(cards_of(mask), key=lambda c: (c % DECK_SIZE, c)))


def parse_play(value: Any, copies: int = 1) -> Mask:
    """Protocol cards (text like ``"3D 3S"``, ``"pass"``, or a list of names) as a mask.

    With ``copies=2`` (two decks) a card named twice is both copies; which
    copy a name means is settled against a hand by :func:`big2.cards.match_copies`.
    """
    if isinstance(value, list):
        value = " ".join(map(str, value))
    if not isinstance(value, str):
        raise ProtocolError(f"cards must be text like '3D 3S' or 'pass', got {value!r}")
    if value.strip().lower() in ("", "pass", "p"):
        return 0
    try:
        return int(parse_cards(value, copies))
    except InvalidCardError as exc:
        raise ProtocolError(str(exc)) from None


__all__ = ["PROTOCOL_VERSION", "ProtocolError", "format_play", "parse_play"]
