"""Every house-rule choice is offered at the terminal: the weak-hand throw-in,
the face-up spare and its swap, the President titles and the cards you give
back, your partner; played through the real match loop."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from big2.bots import make_bot
from big2.cards import cards_of, parse_cards
from big2.house.redeal import hand_points
from big2.match import Match
from big2.rules import Rules
from big2.terminal import TerminalGame


class Typist(io.StringIO):
    """Standard input that answers each prompt by looking at what was printed."""

    def __init__(self, out: io.StringIO, answer: Callable[[str], str | None]) -> None:
        super().__init__()
        self.out, self.answer = out, answer

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        line = self.answer(self.out.getvalue())
        return "" if line is None else line + "\n"


def play(match: Match, answers: str | Callable[[str], str | None]) -> str:
    """Run the terminal game on *match* (greedy bots) with the answers typed."""
    out = io.StringIO()
    stdin = Typist(out, answers) if callable(answers) else io.StringIO(answers)
    bots = [make_bot("greedy", seed=s) for s in range(1, match.rules.players)]
    TerminalGame(match, bots, stdin=stdin, stdout=out).run()
    return out.getvalue()


@pytest.fixture(autouse=True)
def plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def hand_line(out: str) -> str:
    return next(ln for ln in out.splitlines() if ln.startswith("Your hand"))


def test_a_weak_hand_may_be_thrown_in() -> None:
    rules = Rules(redeal=("weak",), match_deals=1)
    dealt = Match(rules, seed=0).new_game().hands[0]
    assert hand_points(dealt) <= 3
    out = play(Match(rules, seed=0), "y\nn\nq\n")
    assert "  redeal=weak: a hand worth 3 points or less may be thrown in" in out
    assert f"It is worth {hand_points(dealt)} points (J1 Q2 K3 A4 2=5): throw it in for a " \
           "new deal? [y/N]" in out
    assert "  You throw in your hand: the cards are dealt again." in out
    first = out.split("Your hand: ", 1)[1].splitlines()[0]
    assert sorted(first.split()) == sorted(str(parse_cards(first)).split())  # the dealt hand
    again = hand_line(out.split("dealt again.")[1]).split(":", 1)[1].split()
    assert sorted(again) != sorted(first.split())
    # no: the hand is kept and play starts
    kept = play(Match(rules, seed=0), "n\nq\n")
    assert "throw it in" in kept and "dealt again" not in kept and "-- Your turn --" in kept


def test_the_spare_is_shown_and_its_swap_offered() -> None:
    rules = Rules(players=3, spare_to="aside", spare_swap=True, match_deals=1)
    game = Match(rules, seed=2).new_game()
    assert len(cards_of(int(game.spare))) == 1
    out = play(Match(rules, seed=2), "y\nq\n")
    shown = str(game.spare)
    assert f"Spare card, face up in the middle: {shown}" in out
    assert f"You hold the lowest card, 3♦: swap it for the spare {shown}? [y/N]" in out
    assert f"  You swap 3♦ for {shown}." in out
    after = out.split("You swap")[1]
    assert shown in hand_line(after) and "3♦" not in hand_line(after)
    # bots never swap; a holder who says no keeps the card
    out = play(Match(rules, seed=2), "\nq\n")
    assert "You swap" not in out


def president_match() -> Match:
    """A two-deal exchange match whose first deal seat 0 won (greedy play all round)."""
    rules = Rules(exchange="after", match_deals=2)
    for seed in range(100):
        match = Match(rules, seed=seed)
        game = match.new_game()
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        while not game.is_over():
            assert game.to_move is not None
            game.play(bots[game.to_move].choose(game.view(game.to_move)))
        if game.winner == 0:
            match.record(game)
            return match
    raise AssertionError("no seed in 100 where seat 0 goes out first")


def ascii_cards(text: str) -> str:
    """Shown cards typed back in ASCII, without spaces (10♥ -> 10h)."""
    table = str.maketrans({"♦": "d", "♣": "c", "♥": "h", "♠": "s"})
    return "".join(text.split()).translate(table)


def test_titles_and_the_presidents_gift_are_chosen_at_the_terminal() -> None:
    match = president_match()
    titles = match.titles
    asked: list[str] = []

    def answer(out: str) -> str | None:
        last = out.splitlines()[-1] if out else ""
        if last.startswith("Cards to give") and not asked:
            lines = out.splitlines()
            at = max(i for i, ln in enumerate(lines) if ln.startswith("You are"))
            asked.extend(lines[at:at + 2])
            for more in lines[at + 2:]:
                if not more.startswith(" "):
                    break
                asked[1] += more  # the hand goes on over the next line
            return "zz"  # refused, asked again
        if last.startswith("Cards to give"):
            hand = asked[1].split(": ", 1)[1].split()
            return ascii_cards(" ".join(hand[-2:]))  # the two best
        return "q"

    out = play(match, answer)
    scum = titles.index("Scum")
    assert asked[0] == f"You are President: choose 2 cards to give Bot {scum} (Scum)."
    assert asked[1].startswith("Your hand (after receiving): ")
    assert "Not allowed: not a card: 'zz'" in out
    chosen = parse_cards(" ".join(asked[1].split(": ", 1)[1].split()[-2:]))
    assert "Titles: You President · " in out
    assert f"  You (President) give Bot {scum} (Scum): {chosen}" in out
    gift = match.exchanges[1]
    assert gift.giver == 0 and gift.receiver == scum and gift.cards == chosen


def test_enter_gives_the_lowest_cards() -> None:
    match = president_match()
    out = play(match, "\nq\n")
    assert "Cards to give (Enter: " in out
    assert match.exchanges[1].giver == 0


def test_your_partner_is_shown_under_teams() -> None:
    out = play(Match(Rules(teams=True, match_deals=1), seed=1), "1\np\n" * 100)
    assert "  Teams: you and Bot 2 hold " in out and " cards, Bot 1 and Bot 3 " in out
    assert "  teams: you and Bot 2 (opposite) against Bot 1 and Bot 3" in out
    counts = next(ln for ln in out.splitlines() if ln.startswith("Cards left: "))
    assert " · Bot 2 (partner) " in counts and counts.count("partner") == 1


def test_go_fish_shows_the_stock_and_the_card_you_draw() -> None:
    import re

    rules = Rules(players=2, deal="13-each", go_fish=True, match_deals=1)
    out = play(Match(rules, seed=3), "1\n" + "p\n" * 6 + "q\n")
    assert "Cards left: You 13 · Bot 1 13 · stock 26" in out
    drawn = re.findall(r"You pass and draw (\S+)", out)
    assert drawn and all(parse_cards(c) for c in drawn)
    hands = [ln for ln in out.splitlines() if ln.startswith("Your hand")]
    assert any(drawn[0] in h for h in hands[1:])  # the drawn card is then in your hand
