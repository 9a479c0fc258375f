"""What a client is sent of a deal: built from one seat's
:class:`~big2.view.PlayerView` only, so no card the seat may not see can
reach it; once the deal is over, :func:`deal_end_state` adds every seat's
remaining cards and the score's reasons (the hands are public then, as in
the deal's record).

>>> cards_text(0b11)
'3D 3C'
>>> from big2.game import Game
>>> g = Game(seed=3)
>>> deal_end_state(g) is None   # the deal is not over: nothing is revealed
True
>>> from big2.bots import make_bot
>>> bots = [make_bot("greedy", seed=s) for s in range(4)]
>>> while not g.is_over():
...     _ = g.play(bots[g.to_move].choose(g.view(g.to_move)))
>>> end = deal_end_state(g)
>>> end["hands"][0], end["lines"][0]["left"], end["lines"][0]["text"]
(['TS', 'JC', 'AC'], 3, '-3: 3 cards')
>>> end["lines"][3]["text"]
'+14: went out first and collects 3 + 7 + 4'
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from big2.cards import CARD_NAMES, Mask, cards_of, ordered
from big2.game import Game
from big2.scoring import explain
from big2.variant import variant
from big2.view import PlayerView

__all__ = ["cards_text", "deal_end_state", "game_state", "kind_of"]


def cards_text(mask: Mask) -> str:
    """Card names of *mask*, space-separated, by card number with copies of a
    card side by side (``""`` for a pass): the form plays take in the protocol."""
    return " ".join(CARD_NAMES[c] for c in ordered(mask))


def kind_of(view: PlayerView, cards: Mask) -> str | None:
    """The kind of the play *cards* as a :class:`~big2.variant.Kind` name
    (``"FULL_HOUSE"``), for the page to name in its language; ``None`` for a pass."""
    if not cards:
        return None
    combo = variant(view.rules).engine.classify(cards)
    return combo.kind.name if combo else None


def game_state(view: PlayerView, *, private: bool) -> dict[str, Any]:
    """The ``game`` part of a state message, from *view* alone; *private*
    adds the seat's hand and legal plays (never for a spectator)."""
    strength = view.rules.strength
    out: dict[str, Any] = {
        "counts": list(view.card_counts),
        "to_move": view.to_move,
        "leading": view.leading,
        "last_play": cards_text(view.last_play),
        "last_player": view.last_player,
        "last_kind": kind_of(view, view.last_play),
        "trick": [[a.seat, cards_text(a.cards)] for a in view.trick],
        "log": [[a.seat, cards_text(a.cards)] for a in view.history[-12:]],
        "plies": len(view.history),
        "passed": list(view.passed),
        "must_contain": cards_text(view.must_contain),
        "winner": view.winner,
        "scores": None if view.scores is None else list(view.scores),
        "finished": list(view.finished),
        "end": None,
    }
    if private:
        out["hand"] = [CARD_NAMES[c] for c in sorted(cards_of(view.hand), key=strength)]
        out["legal"] = [cards_text(m) for m in view.legal]
    return out


def deal_end_state(game: Game) -> dict[str, Any] | None:
    """Every seat's remaining cards (weakest first) and the score's reasons
    (one :class:`~big2.variant.explain.ScoreLine` per seat, as a dict) for
    the ``end`` part of a state message; ``None`` while the deal is being
    played, so no hand is revealed before its end."""
    if not game.is_over():
        return None
    strength = game.rules.strength
    hands = [[CARD_NAMES[c] for c in sorted(cards_of(h), key=strength)] for h in game.hands]
    lines = [asdict(line) | {"collects": list(line.collects), "text": line.describe("")[1:]}
             for line in explain(game)]
    return {"hands": hands, "lines": lines}
