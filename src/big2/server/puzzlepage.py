"""The puzzles in the browser: ``/puzzles`` and its JSON.

``GET /api/puzzles`` lists the set (``id``, ``band``, ``preset``, ``choices``)
with the puzzle of the day's id; ``GET /api/puzzles/{id}`` is one puzzle as the
page draws it: every hand now, the seat to move, the table, the legal plays,
and the solution (the answer, the natural play, both lines to the deal's end,
the answer's kind): the page keeps it until the player checks a play or asks,
and says every sentence itself, in its own language. Progress (solved, streak)
lives in the browser.
"""

from __future__ import annotations

from typing import Any

from big2.cards import CARD_NAMES, Mask, cards_of
from big2.combos import engine
from big2.puzzles import Puzzle, daily, load

__all__ = ["puzzle_list", "puzzle_view"]


def _names(mask: Mask) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def puzzle_list() -> dict[str, Any]:
    """Every puzzle's id, band, preset and number of choices, and today's."""
    return {"daily": daily().id,
            "puzzles": [{"id": p.id, "band": p.band, "preset": p.preset, "choices": p.choices}
                        for p in load()]}


def _kind(p: Puzzle, mask: Mask) -> str:
    """*mask*'s kind as a ``Kind`` name (``""``: a pass), for the page to name."""
    got = engine(p.rules).classify(mask) if mask else None
    return got.kind.name if got is not None else ""


def puzzle_view(number: int) -> dict[str, Any] | None:
    """Puzzle *number* as the page draws it (see the module doc), or ``None``."""
    found = [p for p in load() if p.id == number]
    if not found:
        return None
    p = found[0]
    g = p.game()
    return {
        "id": p.id, "band": p.band, "preset": p.preset, "seat": p.seat,
        "players": g.num_players, "count": len(load()),
        "hands": [_names(h) for h in g.hands],
        "leading": g.leading, "last_play": _names(g.last_play), "last_player": g.last_player,
        "last_kind": _kind(p, int(g.last_play)),
        "legal": [" ".join(_names(m)) for m in g.legal_masks()],
        "answer": " ".join(_names(p.answer)), "answer_kind": _kind(p, p.answer),
        "natural": " ".join(_names(p.natural)),
        "line": [list(a) for a in p.line], "refutation": [list(a) for a in p.refutation],
        "own_plays": 1 + sum(1 for s, c in p.line if s == p.seat and c),
    }
