"""What a client is sent of a deal: built from one seat's
:class:`~big2.view.PlayerView` only, so no card the seat may not see can
reach it.

>>> cards_text(0b11)
'3D 3C'
"""

from __future__ import annotations

from typing import Any

from big2.cards import CARD_NAMES, Mask, cards_of, ordered
from big2.view import PlayerView

__all__ = ["cards_text", "game_state"]


def cards_text(mask: Mask) -> str:
    """Card names of *mask*, space-separated, by card number with copies of a
    card side by side (``""`` for a pass): the form plays take in the protocol."""
    return " ".join(CARD_NAMES[c] for c in ordered(mask))


def game_state(view: PlayerView, *, private: bool) -> dict[str, Any]:
    """The ``game`` part of a state message, from *view* alone; *private*
    adds the seat's hand and legal plays (never for a spectator)."""
    out: dict[str, Any] = {
        "counts": list(view.card_counts),
        "to_move": view.to_move,
        "leading": view.leading,
        "last_play": cards_text(view.last_play),
        "last_player": view.last_player,
        "trick": [[a.seat, cards_text(a.cards)] for a in view.trick],
        "log": [[a.seat, cards_text(a.cards)] for a in view.history[-12:]],
        "plies": len(view.history),
        "passed": list(view.passed),
        "must_contain": cards_text(view.must_contain),
        "winner": view.winner,
        "scores": None if view.scores is None else list(view.scores),
        "finished": list(view.finished),
    }
    if private:
        strength = view.rules.strength
        out["hand"] = [CARD_NAMES[c] for c in sorted(cards_of(view.hand), key=strength)]
        out["legal"] = [cards_text(m) for m in view.legal]
    return out
