"""The terminal game's turn, driven through its real loop with typed answers:
the legal-play list (kinds, order, the compact view), typed cards, forced
passes, the end of a trick, `t`, `u` and the score explanations."""

from __future__ import annotations

import io

import pytest

from big2.bots import Bot, make_bot
from big2.cards import Mask, parse_cards
from big2.game import Game
from big2.match import Match
from big2.rules import Rules
from big2.scoring import explain
from big2.terminal import TerminalGame
from big2.terminal.summary import score_why
from big2.view import PlayerView


class Script(Bot):
    """A bot that plays what the script names for each point of the deal
    (by the number of actions so far), so an undone deal replays the same."""

    name = "script"

    def __init__(self, script: dict[int, str]) -> None:
        super().__init__()
        self.script = script

    def choose(self, view: PlayerView) -> Mask:
        text = self.script[len(view.history)]
        return 0 if text == "p" else int(parse_cards(text))


def drive(game: Game, answers: str, bots: list[Bot] | None = None) -> tuple[str, TerminalGame]:
    """Play *game* at the terminal with *answers* typed; the output and the terminal game."""
    n = game.num_players
    out = io.StringIO()
    tg = TerminalGame(Match(game.rules, seed=1),
                      bots or [make_bot("greedy", seed=s) for s in range(1, n)],
                      stdin=io.StringIO(answers), stdout=out)
    tg.play_deal(game)
    if game.is_over():
        tg.show_scores(game)
    return out.getvalue(), tg


def block(out: str) -> list[str]:
    """The lines of the first legal-play list, its header through the hand."""
    lines = out.splitlines()
    start = lines.index("Legal plays:")
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Your hand"))
    return lines[start:end + 1]


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_plays_are_labelled_grouped_and_laid_out_as_players_read_them() -> None:
    game = Game(Rules(), hands=["AS 2D 3D 4C 5H 7D 7C 7H 4D", "8D", "9D", "TD"], leader=0)
    out, _ = drive(game, "q\n")
    lines = block(out)
    kinds = [ln.split(")")[0].rsplit(" ", 1)[0].strip() for ln in lines[1:-1]]
    assert kinds == ["single", "pair", "triple", "straight", "full house"]
    straight = next(ln for ln in lines if ln.lstrip().startswith("straight"))
    assert "A♠ 2♦ 3♦ 4♦ 5♥" in straight  # in sequence, not by rank (3♦ 4♦ 5♥ A♠ 2♦)
    full = next(ln for ln in lines if ln.lstrip().startswith("full house"))
    assert "7♦ 7♣ 7♥ 4♦ 4♣" in full  # the triple first
    assert lines[-1] == "Your hand (by rank): 3♦ 4♦ 4♣ 5♥ 7♦ 7♣ 7♥ A♠ 2♦"  # after the list
    # numbered 1… down the list, singles weakest first
    assert lines[1].split()[1:3] == ["1)", "3♦"]


def test_cards_follow_the_rule_sets_suit_order() -> None:
    hands = ["3C 3D 4D 4C 5S", "6D", "7D", "8D"]
    taiwan, _ = drive(Game(Rules(suit_order="CDHS"), hands=hands, leader=0), "q\n")
    classic, _ = drive(Game(Rules(), hands=hands, leader=0), "q\n")
    assert "1) 3♣  2) 3♦" in taiwan and "3♣ 3♦" in taiwan and "4♣ 4♦" in taiwan
    assert "1) 3♦  2) 3♣" in classic and "3♦ 3♣" in classic


def test_a_long_list_shows_the_weakest_few_and_the_strongest_and_m_shows_all() -> None:
    hand = "3D 3C 3H 4D 4S 5C 5H 6D 6S 7C 7H 8D 9S"
    game = Game(Rules(), hands=[hand, "TD", "JD", "QD"], leader=0)
    total = len([p for p in game.legal_masks() if p])
    out, _ = drive(game, "m\nq\n")
    lines = block(out)
    assert len(lines) <= 2 + 7 and all(len(ln) <= 80 for ln in lines)  # a line a kind
    straight = next(ln for ln in lines if ln.lstrip().startswith("straight"))
    assert "(m)" in straight and "… +" in straight
    hidden = int(straight.split("… +")[1].split()[0])
    numbers = [int(w[:-1]) for w in straight.split() if w.endswith(")") and w[:-1].isdigit()]
    assert numbers == sorted(numbers) and hidden == numbers[-1] - numbers[-2] - 1
    assert hidden > 10
    # m lists every play, numbered 1..total
    full = out.split("Your play", 1)[1]
    assert all(f" {i}) " in full for i in range(1, total + 1))
    # a number not shown in the short list still plays
    missing = numbers[-2] + 1
    game2 = Game(Rules(), hands=[hand, "TD", "JD", "QD"], leader=0)
    out2, _ = drive(game2, f"{missing}\nq\n")
    assert "You play straight" in out2 and game2.history[0].seat == 0


def test_jokers_show_their_reading_and_cards_typed_without_spaces_play() -> None:
    rules = Rules(jokers="wild")
    game = Game(rules, hands=["7D 8C RJ TS JS 3D 3S", "4D", "5D", "6D"], leader=0)
    out, _ = drive(game, "7d8crjtsjs\nq\n")
    lines = block(out)
    straight = next(ln for ln in lines if ln.lstrip().startswith("straight"))
    assert "7♦ 8♣ RJ=9♠ 10♠ J♠" in straight
    assert "You play straight 7♦ 8♣ RJ=9♠ 10♠ J♠  (2 left)" in out
    game = Game(Rules(), hands=["3D 3S 9C", "4D", "5D", "6D"])
    out, _ = drive(game, "3D3s\nq\n")
    assert "You play pair 3♦ 3♠" in out


# the deal the next tests play: you lead 3♦, Bot 1 tops it with 2♠, and so on
HANDS = ["3D 5D 9D", "2S 4C 6C", "4H 8C TC", "4S JC QC"]
SCRIPT = {1: "2S", 2: "p", 3: "p", 5: "4C", 6: "8C", 7: "p", 9: "p", 10: "p", 11: "p"}


def scripted() -> list[Bot]:
    return [Script(SCRIPT) for _ in range(3)]


def test_forced_pass_trick_end_trick_summary_undo_and_scores() -> None:
    game = Game(Rules(), hands=HANDS)
    out, _ = drive(game, "1\nt\nu\n1\n9d\n5d\n", scripted())
    # nothing beats the 2♠: you pass without being asked, and are told why
    assert "  You pass (nothing beats single 2♠)" in out
    assert "  -- Bot 1 takes the trick --" in out and "  -- You take the trick --" in out
    assert out.count("Your play [") == 6  # 1; t, u; 1 again; 9d; 5d
    assert "This trick: Bot 1 single 4♣ · Bot 2 single 8♣ · Bot 3 pass" in out
    assert "Played so far: 4 cards · 2s out: 2♠ (1 of 4) · aces out: none (0 of 4)" in out
    assert "  Taken back: your 3♦ and the 7 actions after it." in out
    after_undo = out.split("Taken back")[1]
    assert "Your hand (by rank): 3♦ 5♦ 9♦" in after_undo  # back to the first turn
    assert game.is_over() and game.winner == 0
    assert "You play single 5♦  (out!)" in out
    # the scores, and why
    assert "You went out first." in out
    why = out.split("Why:\n", 1)[1].splitlines()
    names = ["You", "Bot 1", "Bot 2", "Bot 3"]
    said = [f"{names[line.seat]} {line.points:+d}: {score_why(line)}" for line in explain(game)]
    assert [w.strip() for w in why] == said  # the browser's words (its result panel's)
    assert "  You +6: went out first: collects 1 + 2 + 3 from the others" in out
    assert "  Bot 3 -3: 3 cards left" in out
    assert "Bot 3     3     -3     +0  4♠ J♣ Q♣" in out  # every seat's cards left


def test_undo_with_nothing_to_undo_says_so() -> None:
    out, _ = drive(Game(Rules(), hands=HANDS), "u\nq\n", scripted())
    assert "Nothing to undo in this deal." in out


def test_doubled_scores_are_explained() -> None:
    # you go out on a 2: every loser's figure doubles, and a 2 held doubles again
    game = Game(Rules(), hands=["3D 2H", "4D 5D 2C", "6D 7D", "8D 9D"])
    script = {1: "p", 2: "p", 3: "p", 5: "p", 6: "p", 7: "p"}
    out, _ = drive(game, "3d\n2h\n", [Script(script) for _ in range(3)])
    assert "  Bot 1 -12: 3 cards left · doubled for holding a 2 · doubled: the winner went\n" \
           "      out on a 2" in out  # wrapped at 80 columns
    assert "  Bot 2 -4: 2 cards left · doubled: the winner went out on a 2" in out


def test_a_number_when_only_a_pass_is_possible_is_answered_sensibly() -> None:
    # last_card: with one card you are asked (to announce), though you can only pass
    game = Game(Rules(last_card=True), hands=["3D 5D", *HANDS[1:]])
    script = {1: "2S", 2: "p", 3: "p", 5: "4C", 6: "p", 7: "p"}
    out, _ = drive(game, "1\n1\nl\np\nq\n", [Script(script) for _ in range(3)])
    assert "choose 1..0" not in out
    assert "No play to choose: nothing beats the table; p passes." in out
    assert "l last card" in out.split("Your play [")[1].split("]")[0]
    assert "You hold one card: announce it with l" in out
    assert "  You announce: last card!" in out and "  You pass" in out
    assert game.announced[0]


def test_bad_answers_keep_the_turn() -> None:
    game = Game(Rules(), hands=HANDS)
    out, _ = drive(game, "zz\n99\n3dzz\n5d\nq\n", scripted())
    assert "Not allowed: not a card: 'zz'" in out
    assert "No play number 99; choose 1..1." in out
    assert "Not allowed: not a card: '3dzz'" in out
    assert "Not allowed: the first play must contain 3♦" in out
    assert not game.history


def test_a_dealt_instant_win_is_told_as_such() -> None:
    # six pairs and a card: the Maltese dragon wins before any play
    hands = ["4D 4C 5D 5C 6D 6C 7D 7C 8D 8C 9D 9C KS", "3D TS 5H 6H 7H 8H 9H TD JD QD KD AD 2D",
             "3C JS 5S 6S 7S 8S 9S TC JC QC KC AC 2C", "3H 3S TH 4H JH 4S QH QS KH AH AS 2H 2S"]
    game = Game(Rules(maltese=True), hands=hands)
    assert game.is_over()
    out, _ = drive(game, "")
    assert "The deal ended at once on a dealt hand (maltese): You first." in out
    assert "Your play" not in out and "Why:" in out


@pytest.mark.parametrize(("order", "hand", "shown"), [
    ("hk", "2D 3C 4D 5H 6S", "2♦ 3♣ 4♦ 5♥ 6♠"),
    ("pagat", "AD 2C 3D 4H 5S", "A♦ 2♣ 3♦ 4♥ 5♠"),
    ("indonesia", "JD QC KD AH 2S", "J♦ Q♣ K♦ A♥ 2♠"),
    ("ace-top", "TD JC QD KH AS", "10♦ J♣ Q♦ K♥ A♠"),
])
def test_straights_read_in_the_rule_sets_sequence(order: str, hand: str, shown: str) -> None:
    game = Game(Rules(straight_order=order), hands=[hand, "7D", "8D", "9D"], leader=0)
    out, _ = drive(game, "q\n")
    straight = next(ln for ln in block(out) if ln.lstrip().startswith("straight"))
    assert straight.split(") ", 1)[1] == shown
