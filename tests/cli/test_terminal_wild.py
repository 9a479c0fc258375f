"""Terminal play with jokers and two decks, through a real pipe: hands with
jokers and copies show, typed cards name copies and jokers, a deal plays out."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

from big2.cards import CARD_SYMBOLS, DECK_SIZE, JOKERS, cards_of
from big2.match import Match
from big2.rules import Rules

BIG2 = [str(Path(sys.executable).with_name("big2"))]


def run(args: list[str], stdin: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(BIG2 + args, input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=Path(__file__).parent, check=False)


def first_deal(rules: Rules, seed: int) -> list[int]:
    """The hands of the first deal `big2 play --seed SEED` deals under *rules*."""
    return list(Match(rules, seed=seed).new_game().hands)


def shown_hand(out: str, head: str = "Your hand") -> list[str]:
    """The cards of the first hand shown (a long hand goes on over indented lines)."""
    lines = out.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith(head))
    cards = lines[i].split(":", 1)[1].split()
    for more in lines[i + 1:]:
        if not more.startswith("    "):
            break
        cards += more.split()
    return cards


def find_seed(rules: Rules, want: object) -> int:
    """The first seed whose first deal satisfies *want(game)*."""
    for seed in range(200):
        game = Match(rules, seed=seed).new_game()
        if want(game):  # type: ignore[operator]
            return seed
    raise AssertionError("no such deal in 200 seeds")


def test_a_two_deck_deal_with_jokers_plays_out_by_numbers() -> None:
    args = ["play", "--set", "decks=2", "--players", "5", "--set", "jokers=wild",
            "--seed", "3", "--deals", "1"]
    r = run(args, "1\np\n" * 400)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("=== Deal") == 1 and "went out first." in r.stdout
    assert "Match over. Winner:" in r.stdout
    hands = first_deal(Rules(decks=2, players=5, jokers="wild"), 3)
    # the hand shows every card dealt, copies twice, jokers by name
    assert Counter(shown_hand(r.stdout)) == Counter(CARD_SYMBOLS[c] for c in cards_of(hands[0]))
    assert "left   deal  total  cards held" in r.stdout


def test_typed_copies_play_both() -> None:
    rules = Rules(decks=2, players=6)
    # seat 0 leads (it holds the first 3D) and holds the second 3D too
    seed = find_seed(rules, lambda g: g.to_move == 0
                     and g.hands[0] & (1 | 1 << DECK_SIZE) == 1 | 1 << DECK_SIZE)
    args = ["play", "--set", "decks=2", "--set", "players=6", "--seed", str(seed),
            "--deals", "1"]
    r = run(args, "3d 3d 3d\n3d 3d\nq\n")
    assert r.returncode == 0, r.stderr
    assert "Not allowed: card given more than 2 times: '3d'" in r.stdout
    assert "You play pair 3♦ 3♦" in r.stdout
    assert r.stdout.rstrip().endswith("Bye.")


def test_typed_jokers_and_their_display() -> None:
    rules = Rules(jokers="wild")
    seed = find_seed(rules, lambda g: g.to_move == 0 and g.hands[0] >> 52 & 1)
    hand = first_deal(rules, seed)[0]
    args = ["play", "--set", "jokers=wild", "--seed", str(seed), "--deals", "1"]
    r = run(args, "s\nrj\n3d rj\nq\n")
    assert r.returncode == 0, r.stderr
    by_rank = shown_hand(r.stdout)
    assert Counter(by_rank) == Counter(CARD_SYMBOLS[c] for c in cards_of(hand))
    assert "RJ" in by_rank and by_rank.index("RJ") >= len(by_rank) - (hand & JOKERS).bit_count()
    assert shown_hand(r.stdout, "Your hand (by suit)")[-1] in ("RJ", "BJ")  # jokers last
    # leading, the first play must hold 3♦: a joker alone is refused, a wild pair played
    assert "Not allowed: the first play must contain 3♦" in r.stdout
    assert "You play pair 3♦ RJ=3♠" in r.stdout  # the joker with the card it stands for
