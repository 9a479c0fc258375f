"""Big Two puzzles: late positions of self-play deals where one play wins the deal.

A puzzle is an open-hand position (every hand shown, as in a bridge double-dummy
problem) from a deal the ``medium`` bots played, a dozen cards or fewer from the
end, where exactly one legal play lets the seat to move go out first whatever
the others do, and the natural play (the ``easy`` bot's: the cheapest play that
beats the table, or the lowest lead) loses. Each was verified exactly: the
whole rest of the deal is searched by :class:`~big2.bots.search.endgame.EndgameSolver`
(max^n: every seat plays for its own score under the deal's own rules), every
legal play of the seat to move with it (:mod:`big2.puzzles.mine`).

The set shipped with the package (``puzzles/data/puzzles.json``) spans several
presets and three bands, from how the solution was found:

- **easy**: the ``medium`` bot finds the answer too, and the winning line is
  short (8 actions or fewer after the answer);
- **hard**: the ``medium`` bot misses it, and the line is longer or the answer
  is to pass;
- **medium**: the others.

>>> from big2.puzzles import load
>>> puzzles = load()
>>> len(puzzles) >= 200, sorted({p.band for p in puzzles})
(True, ['easy', 'hard', 'medium'])
>>> p = puzzles[0]
>>> g = p.game()
>>> g.to_move == p.seat and p.answer in g.legal_masks()
True
>>> p.check(p.answer).correct, p.check(p.natural).correct
(True, False)
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from big2.cards import CARD_NAMES, Mask, cards_of, parse_cards
from big2.game import Game
from big2.rules import Rules

__all__ = ["BANDS", "DATA", "PRESET_RULES", "Puzzle", "Verdict", "daily", "from_dict", "load"]

DATA = Path(__file__).parent / "data" / "puzzles.json"
"""The puzzle set shipped with the package."""
BANDS = ("easy", "medium", "hard")
"""The difficulty bands, easiest first."""
FORMAT = "big2-puzzles"
"""The ``format`` field of a puzzle file (``version`` 1)."""
PRESET_RULES: dict[str, Rules] = {
    "classic": Rules.preset("classic"),
    "taiwan": Rules.preset("taiwan"),
    "hong-kong": Rules.preset("hong-kong"),
    "pagat": Rules.preset("pagat"),
    "vietnam-straights": Rules.preset("vietnam-straights"),
    "philippines": Rules.preset("philippines"),
    "taiwan:3": Rules.preset("taiwan", players=3),
}
"""The rule sets the puzzles are set in, by label (``NAME:3``: the preset for three players)."""


def names(mask: Mask) -> str:
    """``"3D 3S"``: card names, lowest first (``""``: a pass)."""
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


@dataclass(frozen=True)
class Verdict:
    """What a try at a puzzle came to: *correct*, and a sentence of why."""

    correct: bool
    reason: str


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module doc).

    Attributes:
        id: its number in the set (1-based), stable across releases.
        preset: the rule set's preset name.
        hands: each seat's cards as dealt (card names).
        dealer, leader: how the deal began (``leader``: a free leader or ``None``).
        actions: ``(seat, cards)`` of every action before the position (``""``: a pass).
        seat: the seat to move, whose play is the puzzle.
        answer: the one play that wins the deal.
        natural: the easy bot's play here, which loses.
        line: the winning line after the answer, ``(seat, cards)`` to the deal's end.
        refutation: the line after the natural play, to the deal's end.
        band: ``easy``, ``medium`` or ``hard``.
        choices: the legal plays the seat had.
    """

    id: int
    preset: str
    hands: tuple[str, ...]
    dealer: int
    leader: int | None
    actions: tuple[tuple[int, str], ...]
    seat: int
    answer: Mask
    natural: Mask
    line: tuple[tuple[int, str], ...]
    refutation: tuple[tuple[int, str], ...]
    band: str
    choices: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The puzzle's rule set (its preset with any options over it)."""
        return _rules(self.preset, json.dumps(self.options, sort_keys=True))

    def game(self) -> Game:
        """The position: the deal replayed to the seat's decision."""
        g = Game(self.rules, hands=list(self.hands), dealer=self.dealer, leader=self.leader)
        for seat, cards in self.actions:
            if g.to_move != seat:
                raise ValueError(f"puzzle {self.id}: action out of turn")
            g.play(int(parse_cards(cards)) if cards else 0)
        return g

    def check(self, play: Mask) -> Verdict:
        """Whether *play* solves the puzzle, with why (the answer's line, or the
        line that beats *play*)."""
        g = self.game()
        if play not in g.legal_masks():
            return Verdict(False, "that play is not legal here")
        if play == self.answer:
            return Verdict(True, self.why())
        if play == self.natural:
            return Verdict(False, "it loses: " + self._said(self.refutation))
        return Verdict(False, "another seat goes out first after it against best play")

    def why(self) -> str:
        """The answer's reason: the line it starts, to your going out."""
        return f"{self._play(self.seat, names(self.answer))}, then " + self._said(self.line)

    def hint(self) -> str:
        """A nudge: the kind of play the answer is and how many plays it takes."""
        from big2.game import kind_name

        mine = sum(1 for s, c in self.line if s == self.seat and c) + 1
        kind = kind_name(self.answer, self.rules) if self.answer else "pass"
        return (f"the answer is a {kind}; you go out in {mine} play{'s' * (mine != 1)} of "
                "your own, whatever the others do")

    def _play(self, seat: int, cards: str) -> str:
        who = "you" if seat == self.seat else f"S{seat}"
        if not cards:
            return f"{who} pass" + ("" if seat == self.seat else "es")
        shown = " ".join(_symbol(c) for c in cards.split())
        return f"{who} play{'' if seat == self.seat else 's'} {shown}"

    def _said(self, line: tuple[tuple[int, str], ...]) -> str:
        if not line:
            return "the deal ends"
        g = self.game()
        g.play(self.answer if line is self.line else self.natural)
        for seat, cards in line:
            g.play(int(parse_cards(cards)) if cards else 0)
        outcome = g.outcome()
        winner = outcome.winner if outcome is not None else None
        steps = "; ".join(self._play(s, c) for s, c in line)
        end = ("you go out first" if winner == self.seat
               else f"S{winner} goes out first" if winner is not None else "the deal goes on")
        return f"{steps}: {end}"

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-friendly data (:func:`from_dict` reads it back)."""
        return {"id": self.id, "preset": self.preset, "options": self.options,
                "hands": list(self.hands), "dealer": self.dealer, "leader": self.leader,
                "actions": [list(a) for a in self.actions], "seat": self.seat,
                "answer": names(self.answer), "natural": names(self.natural),
                "line": [list(a) for a in self.line],
                "refutation": [list(a) for a in self.refutation],
                "band": self.band, "choices": self.choices}


def _symbol(name: str) -> str:
    from big2.cards import CARD_SYMBOLS

    return CARD_SYMBOLS[CARD_NAMES.index(name)]


@cache
def _rules(preset: str, options: str) -> Rules:
    return Rules.preset(preset, **json.loads(options))


def _pairs(rows: Any) -> tuple[tuple[int, str], ...]:
    return tuple((int(s), str(c)) for s, c in rows)


def from_dict(d: dict[str, Any]) -> Puzzle:
    """A puzzle from :meth:`Puzzle.to_dict`'s data; ``ValueError`` saying what is wrong."""
    try:
        if d["band"] not in BANDS:
            raise ValueError(f"band must be one of {', '.join(BANDS)}")
        return Puzzle(id=int(d["id"]), preset=str(d["preset"]), options=dict(d.get("options", {})),
                      hands=tuple(str(h) for h in d["hands"]), dealer=int(d["dealer"]),
                      leader=None if d["leader"] is None else int(d["leader"]),
                      actions=_pairs(d["actions"]), seat=int(d["seat"]),
                      answer=int(parse_cards(d["answer"])) if d["answer"] else 0,
                      natural=int(parse_cards(d["natural"])) if d["natural"] else 0,
                      line=_pairs(d["line"]), refutation=_pairs(d["refutation"]),
                      band=str(d["band"]), choices=int(d["choices"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a puzzle: {exc}") from None


def load(path: Path | str | None = None) -> tuple[Puzzle, ...]:
    """The puzzles of *path* (default: the set shipped with the package, read once), by id."""
    return _shipped() if path is None else _read(Path(path))


@cache
def _shipped() -> tuple[Puzzle, ...]:
    return _read(DATA)


def _read(path: Path) -> tuple[Puzzle, ...]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT or data.get("version") != 1:
        raise ValueError(f"not a puzzle file: format must be {FORMAT!r}, version 1")
    return tuple(sorted((from_dict(p) for p in data["puzzles"]), key=lambda p: p.id))


def daily(day: _dt.date | None = None, puzzles: tuple[Puzzle, ...] | None = None) -> Puzzle:
    """The puzzle of the day: the same for everyone on *day* (default: today, UTC),
    a different one each day through the set."""
    puzzles = puzzles or load()
    day = day or _dt.datetime.now(_dt.UTC).date()
    return puzzles[(day.toordinal() * 7919) % len(puzzles)]
