"""Mining puzzles from self-play deals (``big2 puzzle --mine``).

Four ``medium`` bots (the heuristic) play deals of the puzzle rule sets
(:data:`big2.puzzles.PRESET_RULES`, in turn) from a seed. Once :data:`LEFT`
cards or fewer remain in all hands together, each decision with
:data:`MIN_CHOICES` legal plays or more is settled by the first-out search
(:class:`big2.puzzles.solve.FirstOutSolver`) for every legal play. A position
is a puzzle (:func:`big2.puzzles.is_puzzle`'s definition) when exactly one play
lets the seat to move go out first whatever the others do, together, and the
natural play (the ``easy`` bot's) is not it; a play that goes out at once is no
puzzle. Two puzzles at most a deal.

The band comes from measured difficulty (:func:`band_of`): how often the
``medium`` and ``hard`` bots, each seeing only its own hand, find the answer
(:data:`TRIES` tries each), the winning line's length, and whether the answer is
a pass or breaks a combination the seat holds.

Mining is a benchmark, not a test: ``python -m big2.puzzles.mine`` or
``big2 puzzle --mine`` prints the deals played, the positions settled and the
time they took.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from big2.bots import make_bot
from big2.bots.search.endgame import cards_left
from big2.cards import Mask
from big2.game import Game
from big2.puzzles import BANDS, FORMAT, PRESET_RULES, Puzzle, breaks_combination, names
from big2.puzzles.hidden import settle
from big2.puzzles.solve import FirstOutSolver
from big2.variant import variant

__all__ = ["HIDDEN_UNSEEN", "LEFT", "MIN_CHOICES", "PER_DEAL", "TRIES", "band_of", "difficulty",
           "mine", "puzzle_at", "save"]

LEFT = 20
"""Cards left in all hands together from which positions are settled."""
MIN_CHOICES = 3
"""The fewest legal plays a puzzle position offers."""
PER_DEAL = 2
"""Puzzles taken from one deal at most (at different decisions), so the set is varied."""
HIDDEN_UNSEEN = 12
"""The most cards a hidden-hand puzzle's seat may not see (12 cards to three seats:
34,650 fitting deals at most)."""
TRIES = 4
"""Tries of each of ``medium`` and ``hard`` (other seeds) at a puzzle, for its band."""


def difficulty(game: Game, answer: Mask, seed: int, tries: int = TRIES) -> tuple[float, float]:
    """How often ``medium`` and ``hard`` (each seeing only its own hand) play *answer*."""
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    rates = []
    for level in ("medium", "hard"):
        found = sum(make_bot(level, seed=seed * 31 + k).choose(view) == answer
                    for k in range(tries))
        rates.append(found / tries)
    return rates[0], rates[1]


def band_of(medium: float, hard: float, own: int, answer: Mask, broken: bool) -> str:
    """The band from measured difficulty: a score of one point for each bot's miss
    rate, a quarter point for each play of the seat's own past two in the winning
    line (*own*, the answer included), and half a point for an answer that passes or
    breaks a combination; ``easy`` below 0.75, ``hard`` from 1.75, ``medium`` between."""
    score = (1 - medium) + (1 - hard) + max(0, own - 2) / 4 + 0.5 * (not answer or broken)
    if score < 0.75:
        return BANDS[0]
    return BANDS[2] if score >= 1.75 else BANDS[1]


def puzzle_at(game: Game, solver: FirstOutSolver, natural: Mask, *, label: str,
              number: int, seed: int, hidden: bool = False) -> Puzzle | None:
    """The puzzle *game*'s position makes (numbered *number*), or ``None``; *hidden*:
    a hidden-hand puzzle (:mod:`big2.puzzles.hidden`)."""
    seat = game.to_move
    assert seat is not None
    after = solver.after_each(game)
    wins = [m for m, won in after if won]
    hand = game.hands[seat]
    deals = 0
    if hidden:  # the answer must win open-handed too: most positions stop here
        unseen = sum(h.bit_count() for s, h in enumerate(game.hands) if s != seat)
        if not wins or unseen > HIDDEN_UNSEEN:
            return None
        settled = settle(game, solver)
        wins, deals = list(settled.winners), settled.deals
    if len(wins) != 1 or wins[0] == natural or wins[0] == hand:
        return None
    answer = wins[0]
    won = game.copy()
    won.play(answer)
    line = solver.line(won, {seat})
    refutation: list[tuple[int, Mask]] = []
    if not hidden:  # (a hidden one's refutation may be in another deal: made when asked)
        lost = game.copy()
        lost.play(natural)
        refutation = solver.line(lost, set(range(game.num_players)) - {seat})
    medium, hard = difficulty(game, answer, seed)
    broken = breaks_combination(game.rules, hand, answer)
    rules = PRESET_RULES[label]
    return Puzzle(
        id=number, preset=label.split(":")[0],
        options={} if ":" not in label else {"players": variant(rules).players},
        hands=tuple(names(h) for h in game.initial_hands), dealer=game.dealer, leader=None,
        actions=tuple((a.seat, names(a.cards)) for a in game.history), seat=seat,
        answer=answer, natural=natural,
        line=tuple((s, names(m)) for s, m in line),
        refutation=tuple((s, names(m)) for s, m in refutation),
        band=band_of(medium, hard, 1 + sum(1 for s, m in line if s == seat and m), answer,
                     broken), choices=len(after),
        medium=medium, hard=hard, hidden=hidden, deals=deals)


def mine(seed: int, count: int, labels: Sequence[str] = tuple(PRESET_RULES), *,
         say: Callable[[str], None] = print, first_id: int = 1,
         per_deal: int = PER_DEAL, hidden: bool = False) -> Iterator[Puzzle]:
    """Puzzles from deals seeded from *seed* upward, rule sets in turn, until *count*
    are found (*per_deal* at most from one deal); *say* gets a progress line each 50
    deals. *hidden*: hidden-hand puzzles, from the four-player rule sets of *labels*."""
    if hidden:
        labels = [label for label in labels if variant(PRESET_RULES[label]).players == 4]
    found = deals = settled = 0
    start = time.perf_counter()
    solvers = {label: FirstOutSolver(PRESET_RULES[label], table_bits=18) for label in labels}
    while found < count:
        label = labels[deals % len(labels)]
        rules, solver = PRESET_RULES[label], solvers[label]
        deal_seed = seed + deals
        deals += 1
        game = Game(rules, seed=deal_seed)
        bots = [make_bot("medium", seed=deal_seed * 4 + s) for s in range(game.num_players)]
        easy = make_bot("easy")
        solver.clear()
        taken = 0
        while not game.is_over() and found < count and taken < per_deal:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            chosen = bots[seat].choose(view)
            if cards_left(game) <= LEFT and len(view.legal) >= MIN_CHOICES and not game.finished:
                settled += 1
                got = puzzle_at(game, solver, easy.choose(view), label=label,
                                number=first_id + found, seed=deal_seed, hidden=hidden)
                if got is not None:
                    found += 1
                    taken += 1
                    yield got
            game.play(chosen)
        if deals % 50 == 0:
            say(f"{deals} deals, {settled} positions settled, {found} puzzles, "
                f"{time.perf_counter() - start:.0f} s")
    say(f"{deals} deals, {settled} positions settled, {found} puzzles, "
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
        print(f"#{p.id} {p.preset} {p.band} ({p.choices} choices, medium {p.medium:.2f}, "
              f"hard {p.hard:.2f})", flush=True)
        if len(got) % 20 == 0:
            save(got, out)
    save(got, out)
