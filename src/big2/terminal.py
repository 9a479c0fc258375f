"""Terminal play: you against bots, through a terminal or a plain pipe.

The loop reads one line per prompt from a text stream, so tests can drive it
with a pipe; end of input quits cleanly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from big2.bots import Bot
from big2.cards import (
    CARD_SYMBOLS,
    DECK_SIZE,
    InvalidCardError,
    Mask,
    is_joker,
    ordered,
    parse_cards,
)
from big2.game import Game, IllegalPlayError, kind_name
from big2.match import Match
from big2.rules import Rules

HELP = """Answer with:
  a number      play that legal play from the list
  cards         type the cards, e.g. "3D 3S" or "10h jh qh kh ah" (jokers: RJ, BJ;
                with two decks name a card twice for both copies: "3D 3D")
  p             pass
  s             toggle sorting your hand by rank / by suit
  h             show the whole legal-play list again
  l             announce your last card (last_card rule)
  q             quit"""


def _cards(mask: Mask, by_suit: bool = False, rules: Rules | None = None) -> str:
    cards = ordered(mask)
    if rules is not None:
        if by_suit:  # the jokers after the four suits; copies of a card side by side
            cards.sort(key=lambda c: (4 if is_joker(c) else rules.suit_rank[c % DECK_SIZE & 3],
                                      c % DECK_SIZE >> 2, c))
        else:
            cards.sort(key=lambda c: (rules.strength(c), c))
    return " ".join(CARD_SYMBOLS[c] for c in cards) or "-"


def _kind(game: Game, play: Mask) -> str:
    """How *play* reads on the table (with wild jokers, the reading it was played as)."""
    last = game.last_combo
    if last is not None and last.cards == play:
        return last.kind.label
    return kind_name(play, game.rules)


class TerminalGame:
    """Plays a match with one human seat (seat 0) against *bots*."""

    def __init__(self, match: Match, bots: Sequence[Bot], *, stdin: TextIO | None = None,
                 stdout: TextIO | None = None, human_name: str = "You",
                 on_deal_end: Callable[[Game], None] | None = None) -> None:
        self.match = match
        self.bots = list(bots)
        self.inp = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.by_suit = False
        self.quit = False
        self.on_deal_end = on_deal_end
        n = match.rules.players
        if len(self.bots) != n - 1:
            raise ValueError(f"{n - 1} bots needed for {n} players")
        self.names = [human_name] + [f"Bot {i} ({b.name})" for i, b in enumerate(self.bots, 1)]

    def say(self, text: str = "") -> None:
        """Write one line."""
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """Prompt and read one line; ``None`` at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def run(self) -> int:
        """Play until the match ends or the player quits; return an exit code."""
        rules = self.match.rules
        self.say(f"Big Two · rules: {rules.name} {rules.diff() or ''}".rstrip())
        self.match.names = tuple(self.names)  # every deal the match deals carries them
        number = 0
        while not self.match.is_over() and not self.quit:
            shootout = self.match.next_is_shootout
            game = self.match.new_game()
            if shootout:  # teams: the tied deal is decided by five cards each
                self.say(f"\n=== Deal {number}: shoot-out ===")
            else:
                number += 1
                total = f" of {self.match.deals}" if self.match.deals else ""
                self.say(f"\n=== Deal {number}{total} ===")
            self.show_exchanges()
            self.play_deal(game)
            if self.quit:
                break
            self.match.record(game)
            if self.on_deal_end:
                self.on_deal_end(game)
            self.show_scores(game)
        if self.quit:
            self.say("Bye.")
            return 0
        best = self.match.standings()[0]
        self.say(f"\nMatch over. Winner: {self.names[best]} with {self.match.totals[best]:+d}.")
        return 0

    def show_exchanges(self) -> None:
        """Tell the President exchange that opened this deal (``exchange`` rule)."""
        titles = self.match.titles
        for ex in self.match.exchanges:
            give = "give" if ex.giver == 0 and self.names[0] == "You" else "gives"
            self.say(f"  {self.names[ex.giver]} ({titles[ex.giver]}) {give} "
                     f"{self.names[ex.receiver]} ({titles[ex.receiver]}): {_cards(ex.cards)}")

    def play_deal(self, game: Game) -> None:
        """Play one deal to its end (or until the player quits)."""
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            if seat == 0:
                if not self.human_turn(game):
                    self.quit = True
                    return
            else:
                play = self.bots[seat - 1].choose(game.view(seat))
                game.play(play)
                self.report(game, seat, play)

    def report(self, game: Game, seat: int, play: Mask) -> None:
        """Tell what *seat* just did."""
        who = self.names[seat]
        you = seat == 0 and who == "You"
        if not play:
            self.say(f"  {who} pass{'' if you else 'es'}")
        else:
            left = game.hands[seat].bit_count()
            warn = "  << ONE CARD LEFT" if left == 1 else ""
            self.say(f"  {who} play{'' if you else 's'} {_kind(game, play)} {_cards(play)}"
                     f"  ({left} left){warn}")

    def show_table(self, game: Game) -> None:
        """Print the state the player needs to choose a play."""
        rules = game.rules
        counts = " · ".join(f"{self.names[s]} {c}" for s, c in enumerate(game.card_counts()))
        self.say(f"\nCards left: {counts}")
        if game.leading:
            must = f" (must contain {game.must_contain})" if game.must_contain else ""
            self.say(f"Table: empty, you lead{must}")
        else:
            lp = game.last_player
            assert lp is not None
            self.say(f"Table: {self.names[lp]} played {_kind(game, int(game.last_play))} "
                     f"{_cards(game.last_play)}")
        order = "suit" if self.by_suit else "rank"
        self.say(f"Your hand (by {order}): {_cards(game.hands[0], self.by_suit, rules)}")

    def show_legal(self, legal: list[Mask]) -> None:
        """Print the numbered legal plays."""
        items = [f"{i}) {_cards(p)}" for i, p in enumerate(legal, 1) if p]
        if not items:
            self.say("No play beats the table: you must pass (p).")
            return
        self.say("Legal plays:")
        line = "  "
        for item in items:
            if len(line) + len(item) > 78:
                self.say(line.rstrip())
                line = "  "
            line += item + "   "
        self.say(line.rstrip())
        if 0 in legal:
            self.say("  p) pass")

    def human_turn(self, game: Game) -> bool:
        """Read the player's answer until a legal one; ``False`` to quit."""
        self.show_table(game)
        legal = [p for p in game.legal_masks() if p] + ([0] if 0 in game.legal_masks() else [])
        self.show_legal(legal)
        while True:
            answer = self.ask("Your play [number, cards, p=pass, s=sort, h=help, q=quit]: ")
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                return False
            low = answer.lower()
            if not low:
                continue
            if low in ("s", "sort"):
                self.by_suit = not self.by_suit
                self.show_table(game)
                continue
            if low in ("l", "last"):
                try:
                    game.call_last_card(0)
                    self.say("  You announce: last card!")
                except IllegalPlayError as exc:
                    self.say(f"Not allowed: {exc}")
                continue
            if low in ("h", "help", "?"):
                self.say(HELP)
                self.show_legal(legal)
                continue
            try:
                if low in ("p", "pass"):
                    play = 0
                elif answer.isdigit():
                    i = int(answer)
                    if not 1 <= i <= len(legal) or not legal[i - 1]:
                        self.say(f"No play number {i}; choose 1..{sum(1 for p in legal if p)}.")
                        continue
                    play = legal[i - 1]
                else:
                    # two decks: "3D 3D" is both copies, and a name the copy held
                    play = int(parse_cards(answer, game.rules.decks))
                game.play(play)
                play = game.history[-1].cards
            except (IllegalPlayError, InvalidCardError) as exc:
                self.say(f"Not allowed: {exc}")
                continue
            self.report(game, 0, play)
            return True

    def show_scores(self, game: Game) -> None:
        """The deal's score table and match totals."""
        outcome = game.outcome()
        assert outcome is not None
        self.say(f"\n{self.names[outcome.winner]} went out first.")
        width = max(len(n) for n in self.names)
        self.say(f"{'':{width}}  cards left  this deal  total")
        for s, name in enumerate(self.names):
            self.say(f"{name:{width}}  {game.hands[s].bit_count():10d}  {outcome.scores[s]:+9d}"
                     f"  {self.match.totals[s]:+5d}")
