"""``big2 puzzle`` in the terminal (issue 52): any wrong play is answered with the
line that beats it, printed step by step on the cards, and so is the answer; an
input naming no play you hold (a typo) keeps the streak; seats are numbered from
1 as at the table, in the board and in ``Puzzle.check``'s sentences; a
hidden-hand puzzle shows only your hand until a try."""

from __future__ import annotations

import io
import re

from puzzle_sets import a_hidden_puzzle, a_puzzle_of, a_three_player_puzzle

from big2.cards import CARD_NAMES, CARD_SYMBOLS
from big2.puzzles import Puzzle, load, names, seat_name
from big2.puzzles.cli import solve


def _typed(p: Puzzle, *plays: int) -> str:
    return "".join(f"{names(m) or 'p'}\n" for m in plays)


def test_a_typo_keeps_the_streak() -> None:
    p = next(p for p in load() if not p.hidden)
    g = p.game()
    held = int(g.hands[p.seat])
    not_held = CARD_NAMES[next(c for c in range(52) if not held >> c & 1)]
    typed = (_typed(p, p.answer) + f"{not_held}\nzz\n{len(list(g.legal_masks())) + 1}\n"
             + _typed(p, p.answer) + "q\n")
    out = io.StringIO()
    assert solve([p, p], io.StringIO(typed), out) == 2
    text = out.getvalue()
    assert "You do not hold " in text and "Answer with a number" in text
    assert "Streak: 2." in text and "Streak: 0" not in text


def test_any_wrong_play_is_refuted_step_by_step() -> None:
    p = next(p for p in load() if not p.hidden and p.choices >= 4)
    g = p.game()
    wrong = [m for m in g.legal_masks() if m != p.answer]
    assert len(wrong) >= 3  # not only the natural play
    out = io.StringIO()
    solve([p], io.StringIO(_typed(p, *wrong) + "a\n"), out)
    text = out.getvalue()
    tries = text.split("Not this one: ")[1:]
    assert len(tries) == len(wrong)
    for m, said in zip(wrong, tries, strict=True):
        steps = re.findall(r"^ +(\d+)\. (You|Seat \d): (.*)$", said, re.MULTILINE)
        line = p.line_after(m)
        if not line:
            continue
        assert [int(n) for n, _w, _d in steps][:len(line) + 1] == list(range(1, len(line) + 2))
        first = p.first_out(m)
        assert first is not None and first != p.seat
        out_step = next(s for s in steps if s[2].endswith("(out!)"))
        assert out_step[1] == seat_name(first), (said, first)
        words = " ".join(said.split())  # (the sentence wraps at 80 columns)
        assert said.startswith("it loses: ") and f"{seat_name(first)} goes out first" in words
    # the answer shown plays its line on the cards too, to you going out
    shown = text.split("Answer: ")[1]
    assert re.search(r"^ +\d+\. You: play .*\(out!\)$", shown, re.MULTILINE), shown


def test_seats_are_numbered_as_at_the_table() -> None:
    p = next(p for p in load() if not p.hidden)
    out = io.StringIO()
    solve([p], io.StringIO("a\n"), out)
    text = out.getvalue()
    assert f"You are Seat {p.seat + 1}." in text
    assert "Seat 0" not in text and not re.search(r"\bS\d\b", text)
    for m in p.game().legal_masks():
        said = p.check(m).reason
        assert "Seat 0" not in said and not re.search(r"\bS\d\b", said), said


def test_a_hidden_hand_puzzle_in_the_terminal() -> None:
    p = a_hidden_puzzle()
    g = p.game()
    wrong = next(m for m in g.legal_masks() if m != p.answer)
    out = io.StringIO()
    solve([p], io.StringIO(_typed(p, wrong) + "q\n"), out)
    text = out.getvalue()
    board = text.split("Your play")[0]
    assert "Only your hand is shown" in board and board.count("(unseen)") == g.num_players - 1
    others = {CARD_SYMBOLS[c] for s, h in enumerate(g.hands) if s != p.seat
              for c in range(52) if int(h) >> c & 1}
    played = {CARD_SYMBOLS[c] for _s, cards in p.actions for c in
              (CARD_NAMES.index(n) for n in cards.split())}
    hand_rows = [r for r in board.splitlines() if r.startswith("  Seat ")]
    assert not {w for r in hand_rows for w in r.split()} & (others - played)
    tried = text.split("Your play")[1]
    assert "The unseen cards could lie so: " in tried or "The hands were: " in tried


def test_the_rules_that_decide_are_shown() -> None:
    three, hidden = a_three_player_puzzle(), a_hidden_puzzle()
    for p in (three, hidden, next(p for p in load() if not p.hidden)):
        out = io.StringIO()
        solve([p], io.StringIO("q\n"), out)
        text = " ".join(out.getvalue().split())  # (wrapped to the width)
        players = p.game().num_players
        assert f"Rules: {p.preset} · {players} players · suits " in text, text
        assert f"(big2 rules {p.preset})" in text
    out = io.StringIO()
    solve([three], io.StringIO("q\n"), out)
    assert "suits ♣ < ♦ < ♥ < ♠" in " ".join(out.getvalue().split())  # taiwan's order
    out = io.StringIO()
    solve([a_puzzle_of("philippines")], io.StringIO("q\n"), out)
    assert "no going out on a single 2 or a pair of 2s" in " ".join(out.getvalue().split())
