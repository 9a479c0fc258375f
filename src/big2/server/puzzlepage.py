"""The puzzles in the browser: ``/puzzles`` and its JSON.

``GET /api/puzzles`` lists the set (``id``, ``band``, ``preset``, ``label``,
``choices``, ``hidden``) with the puzzle of the day's id. ``GET /api/puzzles/{id}``
is one puzzle as the page draws it: the seat to move, the hands now (for a
hidden-hand puzzle only the seat's own, the others as counts), the cards each
seat has played, the table, the legal plays, the answer and its kind (the page
keeps them until the player tries a play or asks), and the rules that decide
(suit order, the straights, the players, the plays one may not go out on).

``GET /api/puzzles/{id}/after?play=3D+3S`` (``play=pass`` for the pass) is what a
legal play comes to: whether it is the answer, the line after it to the first
seat going out (the answer's winning line, or the other seats' refutation) and
every seat's hand that line is played on (for a wrong play of a hidden-hand
puzzle, a deal of the unseen cards in which it loses, ``other_deal``), and the
cards on the table after each step (``tables``: none once a trick is won). The page
steps that line on the cards and says every sentence itself, in its own
language. Progress (solved, streak) lives in the browser.

A puzzle id that is not a canonical number in the set is :class:`NoSuchPuzzle`
(404), a play that is not cards the seat holds making a legal play is
:class:`BadPlay` (400), each with a message.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from big2.cards import CARD_NAMES, Mask, cards_of, parse_cards
from big2.combos import engine
from big2.game import Game
from big2.puzzles import Puzzle, daily, load
from big2.server.guide import guide

__all__ = ["BadPlay", "NoSuchPuzzle", "find", "puzzle_after", "puzzle_list", "puzzle_view",
           "read_play"]

MAX_PLAY_TEXT = 64
"""The longest ``play`` text read (13 cards and their spaces fit in 38)."""
_NUMBER = re.compile(r"[1-9][0-9]{0,8}")


class NoSuchPuzzle(LookupError):
    """A puzzle id that names no puzzle of the set (its message says so)."""


class BadPlay(ValueError):
    """A play the puzzle cannot take: not card names, a card the seat does not hold,
    or not a legal play here (its message says which)."""


def _names(mask: Mask) -> list[str]:
    return [CARD_NAMES[c] for c in cards_of(mask)]


def puzzle_list() -> dict[str, Any]:
    """Every puzzle's id, band, preset, label, choices and whether its hands are
    hidden, and today's."""
    return {"daily": daily().id,
            "puzzles": [{"id": p.id, "band": p.band, "preset": p.preset, "label": p.label,
                         "choices": p.choices, "hidden": p.hidden} for p in load()]}


def find(number: str) -> Puzzle:
    """The puzzle whose id *number* is, written as the set writes it (``"12"``, not
    ``"+12"``, ``"012"`` or ``"12.0"``); :class:`NoSuchPuzzle` otherwise."""
    puzzles = load()
    if _NUMBER.fullmatch(number):
        for p in puzzles:
            if p.id == int(number):
                return p
    raise NoSuchPuzzle(f"no such puzzle: puzzles are numbered 1 to {len(puzzles)}")


def _kind(p: Puzzle, mask: Mask) -> str:
    """*mask*'s kind as a ``Kind`` name (``""``: a pass), for the page to name."""
    got = engine(p.rules).classify(mask) if mask else None
    return got.kind.name if got is not None else ""


def _played(p: Puzzle, players: int) -> list[list[str]]:
    """The cards each seat has played before the position (everyone saw them)."""
    played: list[list[str]] = [[] for _ in range(players)]
    for seat, cards in p.actions:
        played[seat].extend(cards.split())
    return played


def rules_facts(p: Puzzle) -> dict[str, Any]:
    """The rules that decide *p*: its preset and label, the players, suits weakest
    first, the straights allowed weakest first, the five-card comparison, the plays
    one may not go out on (the page names each in its language)."""
    facts = guide(p.rules)
    return {"preset": p.preset, "label": p.label, "players": facts["players"],
            "suits": facts["suits"], "ranks": facts["ranks"],
            "straights": facts["straights"], "five_compare": facts["five_compare"],
            "finish": list(p.rules.finish_restrictions)}


def puzzle_view(p: Puzzle) -> dict[str, Any]:
    """Puzzle *p* as the page draws it (see the module doc): a hidden-hand puzzle
    sends no card of another seat's hand."""
    g = p.game()
    return {
        "id": p.id, "band": p.band, "preset": p.preset, "label": p.label, "seat": p.seat,
        "hidden": p.hidden, "players": g.num_players, "count": len(load()),
        "hands": [_names(h) if s == p.seat or not p.hidden else []
                  for s, h in enumerate(g.hands)],
        "counts": [int(h).bit_count() for h in g.hands],
        "played": _played(p, g.num_players),
        "leading": g.leading, "last_play": _names(g.last_play), "last_player": g.last_player,
        "last_kind": _kind(p, int(g.last_play)),
        "legal": [" ".join(_names(m)) for m in g.legal_masks()],
        "answer": " ".join(_names(p.answer)), "answer_kind": _kind(p, p.answer),
        "own_plays": 1 + sum(1 for s, c in p.line if s == p.seat and c),
        "rules": rules_facts(p),
    }


def read_play(p: Puzzle, text: str) -> Mask:
    """The play *text* names at *p*'s position: ``pass``, or card names (``3D 3S``)
    each once, all in the seat's hand, together a legal play; :class:`BadPlay`
    saying what is wrong otherwise."""
    if len(text) > MAX_PLAY_TEXT:
        raise BadPlay("the play is too long")
    g = p.game()
    if text == "pass":
        play = 0
    else:
        words = text.split(" ")
        if not text or any(w not in CARD_NAMES for w in words):
            raise BadPlay("name the play as cards (3D 3S) or pass")
        if len(set(words)) != len(words):
            raise BadPlay("a card is named twice")
        play = sum(1 << CARD_NAMES.index(w) for w in words)
        hand = int(g.hands[p.seat])
        if play & ~hand:
            raise BadPlay(f"you do not hold {' '.join(_names(play & ~hand))}")
    if play not in g.legal_masks():
        raise BadPlay("that play is not legal here")
    return play


def puzzle_after(p: Puzzle, text: str) -> dict[str, Any]:
    """What the play *text* comes to at *p*'s position (see the module doc);
    :class:`BadPlay` for a play it cannot take."""
    return _after(p, read_play(p, text))


def _after(p: Puzzle, play: Mask) -> dict[str, Any]:
    """(A wrong play's refutation is searched for: asked again, it is remembered.)"""
    key = (p.id, p.label, p.hands, p.actions, p.hidden, play)
    with _LOCK:  # (one search at a time: the solvers are shared)
        return _AFTER[key] if key in _AFTER else _remember(key, p, play)


def _remember(key: tuple[Any, ...], p: Puzzle, play: Mask) -> dict[str, Any]:
    hands = p.hands_after(play)
    shown = tuple(int(h) for h in p.game().hands)
    if len(_AFTER) >= MAX_REMEMBERED:
        _AFTER.pop(next(iter(_AFTER)))
    line = p.line_after(play)
    _AFTER[key] = {"id": p.id, "play": " ".join(_names(play)), "correct": play == p.answer,
                   "hands": [_names(h) for h in hands], "other_deal": hands != shown,
                   "line": [list(a) for a in line], "winner": p.first_out(play),
                   "tables": _tables(p, hands, play, line)}
    return _AFTER[key]


def _tables(p: Puzzle, hands: tuple[Mask, ...], play: Mask,
            line: tuple[tuple[int, str], ...]) -> list[list[str]]:
    """The cards on the table after each step of *play* and its *line* (``[]``: the
    trick is over, the next seat leads), played on *hands*."""
    g = p.game()
    if hands != tuple(int(h) for h in g.hands):
        g = Game.from_view(g.view(p.seat), list(hands))
    tables = []
    for cards in (play, *(int(parse_cards(c)) if c else 0 for _s, c in line)):
        g.play(cards)
        tables.append([] if g.leading else _names(g.last_play))
    return tables


MAX_REMEMBERED = 512
"""The most plays' lines :func:`puzzle_after` keeps."""
_AFTER: dict[tuple[Any, ...], dict[str, Any]] = {}
_LOCK = threading.Lock()
