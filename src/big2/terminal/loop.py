"""The terminal game's loop: deals, turns, the prompt and its commands.

It reads one line per prompt from a text stream, so tests drive it with a pipe;
end of input quits cleanly.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

import click

from big2.bots import BOT_LEVELS, STRONGEST_LEVEL, Bot, bot_label, make_bot
from big2.cards import InvalidCardError, Mask, cards_of, parse_cards
from big2.game import Game, IllegalPlayError
from big2.i18n import said, t, width
from big2.match import Match
from big2.terminal import advice, house, listing, parse, render, summary
from big2.terminal.words import kind_text, kind_word


def help_text() -> str:
    """The answers the prompt takes (``h``), in the current language."""
    return t("termHelp")

DEFAULT_DELAY = 0.5
"""Seconds between bots' plays at a terminal (``big2 play --delay`` changes it)."""

HINT_BOTS = {"medium": "heuristic", "expert": STRONGEST_LEVEL}
"""The hint's bots: the heuristic, or the strongest bot (:data:`big2.bots.STRONGEST_LEVEL`,
the ``expert`` level's search, with expected points)."""

_SHORT = {"four of a kind and a card": "four + one", "three of a kind and two cards": "three + two",
          "two pairs and a card": "two pairs + one"}


def _kind(game: Game, play: Mask) -> str:
    """How *play* reads on the table (with wild jokers, the reading it was played as)."""
    last = game.last_combo
    if last is not None and last.cards == play:
        return kind_word(last.kind)
    return kind_text(play, game.rules) if play else t("termPass")


class TerminalGame:
    """Plays a match with one human seat (seat 0) against *bots*."""

    def __init__(self, match: Match, bots: Sequence[Bot], *, stdin: TextIO | None = None,
                 stdout: TextIO | None = None, human_name: str | None = None,
                 on_deal_end: Callable[[Game], None] | None = None,
                 color: bool | None = None, preset: str | None = None,
                 delay: float | None = None, hint: str = "medium") -> None:
        self.match = match
        self.preset = preset
        """The preset the rules started from, for the header (else the nearest one)."""
        self.bots = list(bots)
        self.inp = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.color = render.colour_wanted() if color is None else color
        self.by_suit = False
        self.quit = False
        self.on_deal_end = on_deal_end
        n = match.variant.players
        if len(self.bots) != n - 1:
            raise ValueError(f"{n - 1} bots needed for {n} players")
        self._you = t("termStepYou")
        """The person at the terminal's name when none is given ("You", 你)."""
        human = self._you if human_name is None else human_name
        self.names = [human] + [f"{t('termBot', i)} ({b.name})" for i, b in enumerate(self.bots, 1)]
        self.short = [human] + [t("termBot", i) for i in range(1, n)]
        self._decisions: dict[int, list[int]] = {}  # id(game) -> history lengths before yours
        if delay is not None and delay < 0:
            raise ValueError("delay must be 0 or more seconds")
        self.delay = (DEFAULT_DELAY if self.interactive() and self.to_terminal() else 0.0
                      ) if delay is None else float(delay)
        """Seconds to wait before each bot's play: :data:`DEFAULT_DELAY` when a person
        plays at a terminal, none through a pipe."""
        self._hinter: Bot | None = None
        if hint not in HINT_BOTS:
            raise ValueError(f"hint is one of {', '.join(HINT_BOTS)}, not {hint!r}")
        self.hint_bot = hint
        """Who gives the hint (``a``): ``medium`` (the heuristic) or ``expert`` (the
        strongest bot's search, with the expected points)."""

    # -- input and output ------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """Write one line (colour dropped when the output is no terminal, or under NO_COLOR)."""
        click.echo(text, file=self.out, color=self.color)

    def ask(self, prompt: str) -> str | None:
        """Prompt and read one line; ``None`` at end of input."""
        click.echo(prompt, file=self.out, nl=False, color=self.color)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def say_list(self, head: str, parts: list[str], joiner: str = " ·", first: str = "",
                 indent: str = "  ") -> None:
        """*head* and *parts* joined by *joiner*, wrapped to the terminal's width
        (the first line starts with *first*, the others with *indent*)."""
        items = [*([head] if head else []), *(p + joiner for p in parts[:-1]), *parts[-1:]]
        for i, line in enumerate(render.wrap(items, indent, render.width() - 1, sep=" ")):
            self.say(first + line.strip() if i == 0 else line)

    def interactive(self) -> bool:
        """Whether a person types at a terminal (then the game waits between deals)."""
        isatty = getattr(self.inp, "isatty", None)
        return bool(isatty and isatty())

    def to_terminal(self) -> bool:
        """Whether the output goes to a terminal."""
        isatty = getattr(self.out, "isatty", None)
        return bool(isatty and isatty())

    def you(self, seat: int) -> bool:
        """Whether *seat* is the person at the terminal, named "You" (你)."""
        return seat == 0 and self.names[0] == self._you

    def said(self, seat: int, you: str, other: str, *args: object) -> str:
        """Sentence *you* (for you) or *other* (for another seat) with *seat*'s name first:
        English conjugates ("you play", "Bot 1 plays"), Chinese does not."""
        return t(you if self.you(seat) else other, self.short[seat], *args)

    def verb(self, seat: int, word: str) -> str:
        """*word* for *seat*: "play" for you, "plays" for the others."""
        if self.you(seat):
            return word
        return word + ("es" if word.endswith(("s", "sh")) else "s")

    # -- the match -------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends or the player quits; return an exit code.
        Ctrl-C ends the match as ``q`` does: the totals so far, then 0."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.say()
            self.say(advice.totals_line(self))
            self.say(t("termBye"))
            return 0

    def _run(self) -> int:
        rules = self.match.rules
        self.say(render.strong(t("termHeader", render.rules_header(rules, self.preset))))
        house.introduce(self)
        self.match.names = tuple(self.names)  # every deal the match deals carries them
        number = 0
        while not self.match.is_over() and not self.quit:
            shootout = self.match.next_is_shootout
            if shootout:  # teams: the tied deal is decided by five cards each
                self.say(render.strong("\n" + t("termDealShootout", number)))
            else:
                number += 1
                head = (t("termDealOf", number, self.match.deals) if self.match.deals
                        else t("termDeal", number))
                self.say(render.strong("\n" + head))
            game = self.match.new_game(house.gift_chooser(self))
            if self.quit:
                break
            house.show_exchanges(self)
            if not house.offer_before_play(self, game):
                self.quit = True
                break
            self.play_deal(game)
            if self.quit:
                break
            self.match.record(game)
            if self.on_deal_end:
                self.on_deal_end(game)
            self.show_scores(game)
            while not self.match.is_over() and self.interactive():
                answer = self.ask(t("termNextDeal"))
                if answer is None or answer.lower() in parse.QUIT and self.confirm_quit():
                    self.quit = True
                if answer is None or answer.lower() not in parse.QUIT or self.quit:
                    break
        if self.quit:
            self.say(t("termBye"))
            return 0
        self.say(render.strong("\n" + advice.match_result(self)))
        return 0

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
                if self.delay:
                    self.out.flush()
                    time.sleep(self.delay)
                stock = game.stock_size
                play = self.bots[seat - 1].choose(game.view(seat))
                game.play(play)
                self.after(game, seat, play, stock)

    def after(self, game: Game, seat: int, play: Mask, stock: int, why: str = "",
              held: Mask = 0) -> None:
        """Tell what *seat* did (*why*: the reason it had to), the bots' last-card
        calls, and the end of a trick."""
        drew = game.stock_size < stock
        self.report(game, seat, play, drew=game.hands[seat] & ~held if drew and held else drew,
                    why=why)
        if game.variant.announces_last_card:
            for s in range(1, game.num_players):
                if game.can_call_last_card(s):
                    game.call_last_card(s)
                    self.say("  " + self.said(s, "termYouCallLast", "termSeatCallsLast"))
        hist = game.history
        if not game.is_over() and game.leading and hist and game.trick_start == len(hist):
            taker = next((a.seat for a in reversed(hist) if a.cards), None)
            if taker is not None:
                self.say("  " + self.said(taker, "termYouTake", "termSeatTakes"))

    def report(self, game: Game, seat: int, play: Mask, drew: Mask | bool = False,
               why: str = "") -> None:
        """Tell what *seat* just did."""
        if not play:
            card = t("termACard") if drew is True else render.cards(cards_of(int(drew)))
            draw = t("termYouDraw" if self.you(seat) else "termSeatDraws", card) if drew else ""
            self.say("  " + self.said(seat, "termYouPass", "termSeatPasses") + draw  # Go-Fish
                     + (t("termWhy", why) if why else ""))
            return
        last = game.last_combo
        shown = listing.describe(game, play, last if last is not None and last.cards == play
                                 else None)
        left = game.hands[seat].bit_count()
        warn = "  " + render.marked(t("termOneLeft")) if left == 1 else ""
        out = "  " + (t("termOutShort") if left == 0 else t("termNLeft", left))
        self.say("  " + self.said(seat, "termYouPlay", "termSeatPlays")
                 + f" {shown.label} {listing.show(shown)}{out}{warn}")

    # -- your turn -------------------------------------------------------------------

    def show_table(self, game: Game) -> None:
        """Print the state the player needs to choose a play."""
        counts = []
        for s, c in enumerate(game.card_counts()):
            tag = f"{self.short[s]}{house.partner_tag(game, s)} {c}"
            counts.append(render.marked(tag) if c == 1 and s else tag)
        self.say("\n" + render.marked(t("termYourTurn")))
        if game.stock_size:  # Go-Fish: a passing player draws from it
            counts.append(t("termStock", game.stock_size))
        self.say(t("termCardsLeft", " · ".join(counts)))
        if game.leading:
            must = ""
            if game.must_contain:
                must = t("termMustContain", render.cards(cards_of(game.must_contain)))
            self.say(t("termTableLead", must))
        else:
            lp = game.last_player
            assert lp is not None and game.last_combo is not None
            shown = listing.describe(game, game.last_combo.cards, game.last_combo)
            self.say(t("termTableHead") + render.strong(t("termSeatPlayed", self.short[lp],
                                                          shown.label))
                     + render.strong(listing.show(shown)))

    def show_hand(self, game: Game) -> None:
        """The player's hand, by rank or by suit."""
        order = render.hand_order(cards_of(game.hands[0]), game.rules, self.by_suit)
        head = t("termHandBySuit" if self.by_suit else "termHandByRank")
        lines = render.wrap([render.card(c) for c in order], "",
                            render.width() - width(head) - 1, sep=" ")
        self.say(f"{head} {lines[0] if lines else '-'}")
        for rest in lines[1:]:
            self.say(" " * (width(head) + 1) + rest)

    def show_legal(self, game: Game, groups: list[listing.Group], full: bool = False) -> None:
        """Print the numbered legal plays, a line a kind (``full``: every play)."""
        can_pass = 0 in game.legal_masks()
        if not groups:
            self.say(t("termMustPass"))
            return
        self.say(t("termLegalHead"))
        label_w = max(width(_SHORT.get(g.label, g.label)) for g in groups)
        limit = render.width() - 1
        for g in groups:
            label = _SHORT.get(g.label, g.label)
            head = f"  {label}{' ' * (label_w - width(label))}  "
            if full:
                for i, line in enumerate(render.wrap([listing.item(p) for p in g.plays],
                                                     " " * width(head), limit)):
                    self.say(head + line.lstrip() if i == 0 else line)
                continue
            shown, hidden = listing.compact(g, limit - width(head))
            items = [listing.item(p) for p in shown]
            if hidden:
                items.insert(len(items) - 1, f"… +{hidden} (m)")
            self.say((head + "  ".join(items)).rstrip())
        if can_pass:
            self.say("  p) " + t("termPass"))

    def prompt(self, game: Game) -> str:
        """The question at your turn, with the commands that apply."""
        extra = t("termPromptLast") if game.variant.announces_last_card else ""
        return t("termPrompt", extra)

    def show_turn(self, game: Game, full: bool = False) -> list[listing.Group]:
        """Table, legal plays and hand; the groups listed."""
        self.show_table(game)
        groups = listing.group_plays(game)
        self.show_legal(game, groups, full)
        self.show_hand(game)
        if game.can_call_last_card(0):
            self.say(render.marked(t("termAnnounceOne")))
        return groups

    def human_turn(self, game: Game) -> bool:
        """Read the player's answer until a legal one; ``False`` to quit."""
        legal = game.legal_masks()
        if legal == [0] and not game.can_call_last_card(0):
            self.forced_pass(game)
            return True
        groups = self.show_turn(game)
        while True:
            answer = self.ask(self.prompt(game))
            if answer is None:
                return False
            low = answer.lower()
            if low in parse.QUIT:
                if self.confirm_quit():
                    return False
                continue
            if low in ("a", "hint"):
                self.hint(game)
                continue
            if not low:
                continue
            if low in ("s", "sort"):
                self.by_suit = not self.by_suit
                self.show_hand(game)
                continue
            if low in ("l", "last"):
                self.last_card(game)
                continue
            if low in ("h", "help", "?", "m", "more"):
                if low[0] in "h?":
                    self.say(help_text())
                self.show_legal(game, groups, full=True)
                self.show_hand(game)
                continue
            if low in ("t", "trick"):
                self.show_trick(game)
                continue
            if low in ("u", "undo"):
                if self.undo(game):
                    groups = self.show_turn(game)
                continue
            if self.try_play(game, answer, groups):
                return True

    def try_play(self, game: Game, answer: str, groups: list[listing.Group]) -> bool:
        """Play what *answer* names; ``False`` (with the reason said) if it is not legal."""
        plays = [p for g in groups for p in g.plays]
        low = answer.lower()
        try:
            if low in ("p", "pass"):
                play = 0
            elif answer.isdigit():
                i = int(answer)
                if not plays:
                    self.say(t("termNoPlayToChoose"))
                    return False
                if not 1 <= i <= len(plays):
                    self.say(t("termNoPlayNumber", i, len(plays)))
                    return False
                play = plays[i - 1].mask
            else:
                # two decks: "3D 3D" is both copies, and a name the copy held
                play = int(parse_cards(parse.spaced(answer), game.variant.deck.decks))
            before, stock, held = len(game.history), game.stock_size, game.hands[0]
            game.play(play)
        except (IllegalPlayError, InvalidCardError) as exc:
            self.say(t("termNotAllowed", said(exc)))
            return False
        self._decisions.setdefault(id(game), []).append(before)
        self.after(game, 0, game.history[-1].cards, stock, held=held)
        return True

    def forced_pass(self, game: Game) -> None:
        """Pass for the player who has no other choice, saying so."""
        if game.leading:
            why = t("termForcedLead")
        else:
            assert game.last_combo is not None
            shown = listing.describe(game, game.last_combo.cards, game.last_combo)
            why = t("termNothingBeats", shown.label, listing.show(shown))
        stock, held = game.stock_size, game.hands[0]
        game.play(0)
        self.after(game, 0, 0, stock, why, held)

    def undo(self, game: Game) -> bool:
        """Take back your last decision and everything since; ``False`` if there is none."""
        marks = self._decisions.get(id(game), [])
        if not marks or marks[-1] > len(game.history):
            self.say(t("termNothingToUndo"))
            return False
        target = marks.pop()
        mine = game.history[target]
        later = len(game.history) - target - 1
        while len(game.history) > target:
            game.undo()
        what = (t("termPass") if not mine.cards
                else listing.show(listing.describe(game, mine.cards)))
        key = "termTakenBack" if not later else "termTakenBackOne" if later == 1 \
            else "termTakenBackMore"
        self.say("  " + t(key, what, later))
        return True

    def confirm_quit(self) -> bool:
        """Ask before quitting, with the match totals so far; ``True`` to quit."""
        return advice.confirm_quit(self)

    def hint(self, game: Game) -> None:
        """The hint bot's play for you, with its reason (``a``)."""
        if self._hinter is None:
            self._hinter = make_bot(HINT_BOTS[self.hint_bot], seed=0)
        name = HINT_BOTS[self.hint_bot]
        advice.hint(self, game, self._hinter, bot_label(name) if name in BOT_LEVELS
                    else f"{name} bot")

    def last_card(self, game: Game) -> None:
        """Announce your last card (``l``), or say why it cannot be announced now."""
        advice.last_card(self, game)

    def show_trick(self, game: Game) -> None:
        """The current trick, and the high cards played so far (``t``)."""
        summary.show_trick(self, game)

    def show_scores(self, game: Game) -> None:
        """The deal's score table, match totals, and why each seat scored what it did."""
        summary.show_scores(self, game)
