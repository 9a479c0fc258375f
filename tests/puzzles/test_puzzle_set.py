"""The shipped puzzle set (issue 52): every puzzle's data checked (its position rebuilt
from the deal, its lines replayed to the seat the line promises going out first), a
sample settled again by the first-out search (a few by the plain Python reference,
on the Python engine), the hidden-hand puzzles' deal counts worked out independently;
the nightly set settles every one again, hidden ones over every fitting deal."""

from __future__ import annotations

import math
import random

import pytest

from big2 import Game, parse_cards
from big2.puzzles import BANDS, PRESET_RULES, Puzzle, breaks_combination, load
from big2.puzzles.hidden import fitting_deals, settle
from big2.puzzles.mine import HIDDEN_UNSEEN, LEFT, MIN_CHOICES, band_of
from big2.puzzles.solve import FirstOutSolver, ReferenceSolver, first_out


def replay(p: Puzzle, play: int, line: tuple[tuple[int, str], ...]) -> Game:
    g = p.game()
    g.play(play)
    for seat, cards in line:
        assert g.to_move == seat, p.id
        g.play(int(parse_cards(cards)) if cards else 0)
    return g


def test_the_shipped_set() -> None:
    puzzles = load()
    assert len(puzzles) >= 500
    assert [p.id for p in puzzles] == list(range(1, len(puzzles) + 1))
    open_ = [p for p in puzzles if not p.hidden]
    assert len(open_) >= 500 and len(puzzles) - len(open_) >= 50
    labels = {p.label for p in puzzles}
    assert labels <= set(PRESET_RULES) and len(labels) >= 6
    assert any(PRESET_RULES[label].players == 3 for label in labels)
    bands = {b: sum(p.band == b for p in puzzles) for b in BANDS}
    assert all(n >= 50 for n in bands.values()), bands
    for p in puzzles:
        assert p.rules == PRESET_RULES[p.label]
        g = p.game()
        assert g.to_move == p.seat and not g.is_over() and not g.finished
        legal = list(g.legal_masks())
        assert p.answer in legal and p.natural in legal and p.answer != p.natural
        assert len(legal) == p.choices >= MIN_CHOICES
        assert sum(h.bit_count() for h in g.hands) <= LEFT
        assert p.answer != g.hands[p.seat]  # never "go out now"
        won = replay(p, p.answer, p.line)  # the answer's line ends with the seat out
        assert first_out(won) == p.seat, p.id
        if not p.hidden:
            lost = replay(p, p.natural, p.refutation)
            assert first_out(lost) not in (None, p.seat), p.id
        assert p.medium is not None and p.hard is not None
        own = 1 + sum(1 for s, c in p.line if s == p.seat and c)
        broken = breaks_combination(p.rules, g.hands[p.seat], p.answer)
        assert p.band == band_of(p.medium, p.hard, own, p.answer, broken), p.id


def test_hidden_puzzles_count_their_deals() -> None:
    """A hidden-hand puzzle's ``deals`` is every deal of the unseen cards that fits:
    the multinomial count of the unseen cards into the other seats' counts."""
    hidden = [p for p in load() if p.hidden]
    assert hidden
    for p in hidden:
        g = p.game()
        counts = [h.bit_count() for s, h in enumerate(g.hands) if s != p.seat]
        assert sum(counts) <= HIDDEN_UNSEEN and g.num_players == 4
        expected = math.factorial(sum(counts))
        for c in counts:
            expected //= math.factorial(c)
        assert p.deals == expected, p.id


def test_a_sample_is_settled_again() -> None:
    puzzles = load()
    rng = random.Random(52)
    for p in rng.sample([p for p in puzzles if not p.hidden], 40):
        solver = FirstOutSolver(p.rules, table_bits=16)
        assert [m for m, won in solver.after_each(p.game()) if won] == [p.answer], p.id
    for p in rng.sample([p for p in puzzles if p.hidden], 4):
        got = settle(p.game(), FirstOutSolver(p.rules, table_bits=16))
        assert got.winners == (p.answer,) and got.deals == p.deals, p.id


def test_the_reference_agrees_on_a_few(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain Python search, on games of the Python engine, finds the same one
    winning play (open: the smallest of the sample; hidden: over every fitting deal of
    the one with fewest)."""
    puzzles = load()
    monkeypatch.setenv("BIG2_ENGINE", "python")
    small = sorted((p for p in puzzles if not p.hidden),
                   key=lambda p: sum(h.bit_count() for h in p.game().hands))[::60][:4]
    for p in small:
        reference = ReferenceSolver(p.rules)
        assert [m for m, won in reference.after_each(p.game()) if won] == [p.answer], p.id
    fewest = min((p for p in puzzles if p.hidden), key=lambda p: p.deals)
    g = fewest.game()
    reference = ReferenceSolver(fewest.rules)
    alive = set(g.legal_masks())
    deals = 0
    for hands in fitting_deals(g):
        deals += 1
        position = Game.from_view(g.view(fewest.seat), hands)
        alive &= {m for m, won in reference.after_each(position) if won}
    assert alive == {fewest.answer} and deals == fewest.deals


def test_band_of() -> None:
    assert band_of(1.0, 1.0, 2, 1, False) == "easy"
    assert band_of(1.0, 1.0, 2, 0, False) == "easy"  # a pass alone: half a point
    assert band_of(1.0, 0.5, 3, 1, True) == "medium"
    assert band_of(0.0, 1.0, 2, 1, False) == "medium"
    assert band_of(0.0, 0.0, 2, 1, False) == "hard"
    assert band_of(0.5, 0.5, 6, 1, False) == "hard"


@pytest.mark.nightly
def test_every_puzzle_is_settled_again() -> None:
    solvers: dict[str, FirstOutSolver] = {}
    for p in load():
        solver = solvers.setdefault(p.label, FirstOutSolver(p.rules))
        solver.clear()
        if p.hidden:
            got = settle(p.game(), solver)
            assert got.winners == (p.answer,) and got.deals == p.deals, p.id
        else:
            assert [m for m, won in solver.after_each(p.game()) if won] == [p.answer], p.id


def test_one_definition_said_in_its_words() -> None:
    """The docs quote big2.puzzles.DEFINITION word for word, the terminal says it, and
    the catalogue the pages and the terminal share holds it (its Chinese beside it)."""
    import io
    import json
    from pathlib import Path

    from big2.puzzles import DEFINITION
    from big2.puzzles.cli import show

    root = Path(__file__).parents[2]
    docs = (root / "docs" / "puzzles.md").read_text(encoding="utf-8")
    assert f"> {DEFINITION}" in docs
    assert "max^n" not in docs
    for p in (load()[0], next(p for p in load() if p.hidden)):
        out = io.StringIO()
        show(p, 0, out)
        said = " ".join(out.getvalue().replace("\n  ", " ").split())
        assert DEFINITION in said, said
    catalogue = json.loads((root / "src" / "big2" / "i18n" / "catalogue.json").read_text("utf-8"))
    assert catalogue["strings"]["puzzleDefinition"][0] == DEFINITION
