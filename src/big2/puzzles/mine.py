"""Mining puzzles from self-play deals (``big2 puzzle --mine``).

Four ``medium`` bots (the heuristic) play deals of the chosen presets from a
seed. Once :data:`LEFT` cards or fewer remain in all hands together, each
decision with :data:`MIN_CHOICES` legal plays or more is solved exactly by
:class:`~big2.bots.search.endgame.EndgameSolver` (every legal play of the seat to
move, each searched to the deal's end under max^n). A position is a puzzle
when exactly one play lets that seat go out first and the ``easy`` bot's
natural play is not it; the winning line and the natural play's refutation
are the solver's own lines. Two puzzles at most a deal (at different
decisions), so the set is varied.

Mining is a benchmark, not a test: ``python -m big2.puzzles.mine`` or
``big2 puzzle --mine`` prints the deals played, the positions solved and the
time each took.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from big2.bots import make_bot
from big2.bots.search.endgame import EndgameSolver, Values, cards_left
from big2.cards import Mask
from big2.game import Game
from big2.puzzles import BANDS, FORMAT, Puzzle, names
from big2.rules import Rules

__all__ = ["LEFT", "MIN_CHOICES", "PER_DEAL", "PRESETS", "band_of", "mine", "principal_line",
           "save", "winner_of"]

LEFT = 12
"""Cards left in all hands together from which positions are solved (exactly)."""
MIN_CHOICES = 3
"""The fewest legal plays a puzzle position offers."""
PRESETS = ("classic", "taiwan", "hong-kong", "pagat", "vietnam-straights")
"""The presets mined by default (four players, one deck, first out wins the deal)."""
BUDGET = 200_000
"""The solver's node budget a position (a larger tree is skipped)."""
PER_DEAL = 2
"""Puzzles taken from one deal at most (at different decisions), so the set is varied."""
SHORT = 8
"""A winning line of at most this many actions after the answer is a short one
(two more rounds: you play, the others answer, twice)."""


def winner_of(values: Values) -> int | None:
    """The seat that goes out first in a solved line: the one best score
    (``None`` when two share it)."""
    best = max(values)
    top = [s for s, v in enumerate(values) if v == best]
    return top[0] if len(top) == 1 else None


def principal_line(solver: EndgameSolver, game: Game) -> list[tuple[int, Mask]]:
    """The solver's line from *game* to the deal's end: each seat's max^n play
    (the first of equals, as the solver breaks ties)."""
    g = game.copy()
    line = []
    while g.to_move is not None:
        seat = g.to_move
        moves = solver.move_values(g)
        if moves is None:
            raise RuntimeError("the line left the solver's budget")
        best = max(v[seat] for _, v in moves)
        move = next(m for m, v in moves if v[seat] == best)
        line.append((seat, move))
        g.play(move)
    return line


def band_of(medium_finds: bool, line: Sequence[tuple[int, Mask]], answer: Mask) -> str:
    """``easy`` when the medium bot finds the answer and the winning line is
    short; ``hard`` when it misses it and the line is long or the answer is to
    pass; ``medium`` otherwise."""
    short = len(line) <= SHORT
    if medium_finds and short:
        return BANDS[0]
    if not medium_finds and (not short or not answer):
        return BANDS[2]
    return BANDS[1]


def _position(game: Game, solver: EndgameSolver, natural: Mask, medium: Mask
              ) -> tuple[Mask, list[tuple[int, Mask]], list[tuple[int, Mask]], str] | None:
    """``(answer, line, refutation, band)`` when *game*'s position is a puzzle."""
    seat = game.to_move
    moves = solver.move_values(game)
    if seat is None or moves is None:
        return None
    wins = [m for m, v in moves if winner_of(v) == seat]
    if len(wins) != 1 or wins[0] == natural:
        return None
    answer = wins[0]
    after = game.copy()
    after.play(answer)
    line = principal_line(solver, after)
    refuted = game.copy()
    refuted.play(natural)
    refutation = principal_line(solver, refuted)
    return answer, line, refutation, band_of(medium == answer, line, answer)


def mine(seed: int, count: int, presets: Sequence[str] = PRESETS, *,
         say: Callable[[str], None] = print, first_id: int = 1,
         per_deal: int = PER_DEAL) -> Iterator[Puzzle]:
    """Puzzles from deals seeded from *seed* upward, presets in turn, until
    *count* are found (*per_deal* at most from one deal); *say* gets a progress
    line each 50 deals."""
    found = deals = solved = 0
    start = time.perf_counter()
    solver = EndgameSolver(budget=BUDGET)
    while found < count:
        preset = presets[deals % len(presets)]
        rules = Rules.preset(preset)
        deal_seed = seed + deals
        deals += 1
        game = Game(rules, seed=deal_seed)
        bots = [make_bot("medium", seed=deal_seed * 4 + s) for s in range(4)]
        easy = make_bot("easy")
        solver.clear()
        taken = 0
        while not game.is_over() and found < count:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            medium = bots[seat].choose(view)
            if cards_left(game) <= LEFT and len(view.legal) >= MIN_CHOICES:
                solved += 1
                natural = easy.choose(view)
                got = _position(game, solver, natural, medium)
                if got is not None:
                    answer, line, refutation, band = got
                    found += 1
                    yield Puzzle(
                        id=first_id + found - 1, preset=preset,
                        hands=tuple(names(h) for h in game.initial_hands), dealer=game.dealer,
                        leader=None, actions=tuple((a.seat, names(a.cards)) for a in game.history),
                        seat=seat, answer=answer, natural=natural,
                        line=tuple((s, names(m)) for s, m in line),
                        refutation=tuple((s, names(m)) for s, m in refutation),
                        band=band, choices=len(view.legal))
                    taken += 1
                    if taken >= per_deal:
                        break
            game.play(medium)
        if deals % 50 == 0:
            say(f"{deals} deals, {solved} positions solved, {found} puzzles, "
                f"{time.perf_counter() - start:.0f} s")
    say(f"{deals} deals, {solved} positions solved, {found} puzzles, "
        f"{time.perf_counter() - start:.0f} s")


def save(puzzles: Sequence[Puzzle], path: Path | str) -> None:
    """Write *puzzles* as a puzzle file (:func:`big2.puzzles.load` reads it)."""
    data = {"format": FORMAT, "version": 1, "puzzles": [p.to_dict() for p in puzzles]}
    Path(path).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                          .replace('},{"id"', '},\n{"id"') + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - the mining benchmark
    import sys

    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    out = sys.argv[3] if len(sys.argv) > 3 else "puzzles.json"
    got: list[Puzzle] = []
    for p in mine(seed, count):
        got.append(p)
        print(f"#{p.id} {p.preset} {p.band} ({p.choices} choices)", flush=True)
        save(got, out)
