"""Big Two puzzles: late positions of self-play deals where one play goes out first.

**What a puzzle is** (the one definition; the page, the terminal and the docs say
it in these words): a position where **exactly one legal play lets the seat to
move go out first, whatever the others do** (the other seats may play together
against it), and the natural play (the ``easy`` bot's: the cheapest play that
beats the table, or the lowest lead) does not. :func:`is_puzzle` states it in
code, on :class:`big2.puzzles.solve.FirstOutSolver`'s answers.

An open-hand puzzle shows every hand (like a bridge double-dummy problem). A
*hidden-hand* puzzle (:attr:`Puzzle.hidden`) shows the seat only what it may
know (its own hand, the others' counts, the plays made): its answer goes out
first in every deal of the unseen cards that fits the position, whatever the
others do, and no other play does (:mod:`big2.puzzles.hidden`).

The set shipped with the package (``puzzles/data/puzzles.json``) spans the rule
sets of :data:`PRESET_RULES` and three bands from measured difficulty
(:func:`big2.puzzles.mine.band_of`: how often the ``medium`` and ``hard`` bots
find the answer, the line's length, an answer that passes or breaks a pair).

>>> from big2.puzzles import load
>>> puzzles = load()
>>> len(puzzles) >= 500, sorted({p.band for p in puzzles})
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

from big2.cards import CARD_NAMES, Mask, parse_cards
from big2.game import Game
from big2.puzzles.solve import FirstOutSolver, ReferenceSolver, names, solver_for
from big2.rules import Rules

__all__ = ["BANDS", "DATA", "DEFINITION", "PRESET_RULES", "Puzzle", "Verdict", "breaks_combination",
           "daily", "from_dict", "is_puzzle", "load", "names", "seat_name"]

DATA = Path(__file__).parent / "data" / "puzzles.json"
"""The puzzle set shipped with the package."""
BANDS = ("easy", "medium", "hard")
"""The difficulty bands, easiest first."""
FORMAT = "big2-puzzles"
"""The ``format`` field of a puzzle file (``version`` 1)."""
DEFINITION = ("Exactly one legal play lets you go out first, whatever the others do (they may "
              "play together against you); the natural play does not.")
"""What a puzzle is, in the words the terminal, the page and the docs say it."""
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
        line: the winning line after the answer, ``(seat, cards)`` to the seat going
            out (the others holding out longest).
        refutation: the line after the natural play, to another seat going out.
        band: ``easy``, ``medium`` or ``hard``.
        choices: the legal plays the seat had.
        options: rule options over the preset (``{"players": 3}``).
        medium, hard: how often those bots found the answer when it was banded.
        hidden: a hidden-hand puzzle (the seat sees only its own hand).
        deals: for a hidden-hand puzzle, the deals of the unseen cards it was verified on.
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
    medium: float | None = None
    hard: float | None = None
    hidden: bool = False
    deals: int = 0

    @property
    def label(self) -> str:
        """The rule set's label in :data:`PRESET_RULES` (``taiwan:3``: three players)."""
        players = self.options.get("players")
        return self.preset + (f":{players}" if players else "")

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
        return Verdict(False, "it loses: " + self._said(play, self.line_after(play)))

    def why(self) -> str:
        """The answer's reason: the line it starts, to your going out."""
        return (f"{self._play(self.seat, names(self.answer))}, then "
                + self._said(self.answer, self.line))

    def line_after(self, play: Mask) -> tuple[tuple[int, str], ...]:
        """The line after *play* (a legal play or ``0``, the pass) to the first seat
        going out, played on :meth:`hands_after`'s hands: the answer's winning line, or
        for any other play the other seats' refutation (they play together; the seat
        holds out longest)."""
        if play == self.answer:
            return self.line
        if play == self.natural and self.refutation:
            return self.refutation
        return _refutation(self, play)

    def hands_after(self, play: Mask) -> tuple[Mask, ...]:
        """Every seat's hand in the position that :meth:`line_after` plays *play*'s line
        on: the puzzle's own, except for a wrong play of a hidden-hand puzzle that
        would go out first against the hands as dealt, where it is the first deal of
        the unseen cards (fitting what the seat sees) in which it does not."""
        g = self.game()
        return _counter_deal(self, play) or tuple(int(h) for h in g.hands)

    def hint(self) -> str:
        """A nudge: the kind of play the answer is and how many plays it takes."""
        from big2.game import kind_name

        mine = sum(1 for s, c in self.line if s == self.seat and c) + 1
        kind = kind_name(self.answer, self.rules) if self.answer else "pass"
        return (f"the answer is a {kind}; you go out in {mine} play{'s' * (mine != 1)} of "
                "your own, whatever the others do")

    def first_out(self, play: Mask) -> int | None:
        """The seat that goes out first in :meth:`line_after`'s line after *play*
        (``None`` when the line stops short of it)."""
        return self._winner(play, self.line_after(play))

    def _winner(self, play: Mask, line: tuple[tuple[int, str], ...]) -> int | None:
        g = _position_on(self, self.hands_after(play))
        g.play(play)
        for seat, cards in line:
            g.play(int(parse_cards(cards)) if cards else 0)
        return g.finished[0] if g.finished else g.winner

    def _play(self, seat: int, cards: str) -> str:
        who = "you" if seat == self.seat else seat_name(seat)
        if not cards:
            return f"{who} pass" + ("" if seat == self.seat else "es")
        shown = " ".join(_symbol(c) for c in cards.split())
        return f"{who} play{'' if seat == self.seat else 's'} {shown}"

    def _said(self, play: Mask, line: tuple[tuple[int, str], ...]) -> str:
        if not line:
            return "the deal ends"
        winner = self._winner(play, line)
        steps = "; ".join(self._play(s, c) for s, c in line)
        end = ("you go out first" if winner == self.seat
               else f"{seat_name(winner)} goes out first" if winner is not None
               else "the deal goes on")
        return f"{steps}: {end}"

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-friendly data (:func:`from_dict` reads it back)."""
        return {"id": self.id, "preset": self.preset, "options": self.options,
                "hands": list(self.hands), "dealer": self.dealer, "leader": self.leader,
                "actions": [list(a) for a in self.actions], "seat": self.seat,
                "answer": names(self.answer), "natural": names(self.natural),
                "line": [list(a) for a in self.line],
                "refutation": [list(a) for a in self.refutation],
                "band": self.band, "choices": self.choices, "medium": self.medium,
                "hard": self.hard, "hidden": self.hidden, "deals": self.deals}


def seat_name(seat: int) -> str:
    """A seat as the table names it, numbered from 1: ``seat_name(0) == "Seat 1"``."""
    return f"Seat {seat + 1}"


def _symbol(name: str) -> str:
    from big2.cards import CARD_SYMBOLS

    return CARD_SYMBOLS[CARD_NAMES.index(name)]


@cache
def _rules(preset: str, options: str) -> Rules:
    return Rules.preset(preset, **json.loads(options))


@cache
def _solver(rules: Rules) -> FirstOutSolver | ReferenceSolver:
    return solver_for(rules, table_bits=16)


def _counter_deal(p: Puzzle, play: Mask) -> tuple[Mask, ...] | None:
    """For a hidden-hand puzzle's wrong *play*: the first fitting deal in which it does
    not go out first, when the hands as dealt do not show it (else ``None``)."""
    if not p.hidden or play == p.answer:
        return None
    g = p.game()
    solver = _solver(p.rules)
    after = g.copy()
    after.play(play)
    if after.finished or not solver.wins(after, {p.seat}):
        return None
    assert isinstance(solver, FirstOutSolver)  # hidden puzzles' rule sets play in the core
    from big2.puzzles.hidden import settle
    deal = settle(g, solver).counters.get(play)
    if deal is None:
        raise ValueError(f"puzzle {p.id}: {names(play) or 'the pass'} is its answer")
    return deal


def _position_on(p: Puzzle, hands: tuple[Mask, ...]) -> Game:
    """The puzzle's position with *hands* in the seats' hands now (the same counts)."""
    g = p.game()
    if hands == tuple(int(h) for h in g.hands):
        return g
    return Game.from_view(g.view(p.seat), list(hands))


def _refutation(p: Puzzle, play: Mask) -> tuple[tuple[int, str], ...]:
    g = p.game()
    if play not in g.legal_masks():
        raise ValueError(f"puzzle {p.id}: {names(play) or 'the pass'} is not legal here")
    g = _position_on(p, p.hands_after(play))
    g.play(play)
    if g.is_over() or g.finished:
        return ()
    solver = _solver(p.rules)
    others = set(range(g.num_players)) - {p.seat}
    if isinstance(solver, ReferenceSolver):  # (no line from the reference: the first
        return ()                              # of the set's rule sets all play in the core)
    return tuple((s, names(m)) for s, m in solver.line(g, others))


def breaks_combination(rules: Rules, hand: Mask, play: Mask) -> bool:
    """Whether *play* takes some but not all of a rank of which *hand* holds two or
    more (it breaks a pair, a triple or four of a kind).

    >>> from big2.cards import parse_cards
    >>> hand = int(parse_cards("3D 3S 5H"))
    >>> breaks_combination(Rules(), hand, int(parse_cards("3S"))), breaks_combination(
    ...     Rules(), hand, int(parse_cards("3D 3S")))
    (True, False)
    """
    del rules  # (ranks are the same in every one-deck rule set: card // 4)
    for rank in range(13):
        held = (hand >> (4 * rank)) & 15
        took = (play >> (4 * rank)) & 15
        if held.bit_count() >= 2 and took and took != held:
            return True
    return False


def is_puzzle(game: Game, natural: Mask, solver: FirstOutSolver | ReferenceSolver
              ) -> Mask | None:
    """The answer when *game*'s position is a puzzle (see the module doc: exactly one
    legal play lets the seat to move go out first whatever the others do, and
    *natural* is not it), else ``None``."""
    wins = [m for m, won in solver.after_each(game) if won]
    return wins[0] if len(wins) == 1 and wins[0] != natural else None


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
                      band=str(d["band"]), choices=int(d["choices"]),
                      medium=None if d.get("medium") is None else float(d["medium"]),
                      hard=None if d.get("hard") is None else float(d["hard"]),
                      hidden=bool(d.get("hidden", False)), deals=int(d.get("deals", 0)))
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
