"""The bot protocol: JSON lines over stdin/stdout, in the spirit of UCI.

The host writes one JSON object per line; the bot answers every message with
exactly one JSON line, so a host always knows when to read and can time out.
Full description and an example exchange: ``docs/protocol.md``.

Bot side: :class:`BotSession` (one message in, one reply out) and
:func:`serve`, which ``big2 bot`` runs. Host side (:mod:`big2.protocol_host`):
:class:`ExternalBot`, a
:class:`~big2.bots.Bot` that drives an external program, so the arena can
seat it (``--seats 'cmd:python mybot.py',expert,...``).

>>> s = BotSession(make_bot("greedy", seed=1))
>>> s.handle('{"type": "new_deal", "rules": {"preset": "classic"}, "seat": 0, '
...          '"hand": "3D 4D 5S 6H 7C 8C 9D TS JH QH KS AD 2C", "first": 0, "must_contain": "3D"}')
{'type': 'ok'}
>>> s.handle('{"type": "go"}')
{'type': 'play', 'cards': '3D 4D 5S 6H 7C'}
>>> s.handle('{"type": "action", "seat": 1, "cards": "4S"}')['type']
'error'
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

import click

from big2.bots import Bot, make_bot
from big2.cards import (
    CardSet,
    Mask,
    cards_of,
    match_copies,
)
from big2.game import Game, IllegalPlayError
from big2.protocol_host import ExternalBot, ExternalBotError
from big2.protocol_wire import PROTOCOL_VERSION, ProtocolError, format_play, parse_play
from big2.rules import InvalidRulesError, Rules
from big2.variant import variant
from big2.view import Action, PlayerView


def _every_copy(rules: Rules) -> Mask:
    """The lowest card in each deck of *rules* (two decks: both copies; with
    one in each of two hands, the first holder from the dealer's left leads)."""
    return variant(rules).deck.copies(1 << rules.lowest_card)


def _rules_of(value: Any) -> Rules:
    try:
        if isinstance(value, str):
            return Rules.preset(value)
        if isinstance(value, dict):
            return Rules.from_dict(value)
    except InvalidRulesError as exc:
        raise ProtocolError(f"rules: {exc}") from None
    raise ProtocolError("rules must be a preset name or an object of options")


def _seat(value: Any, n: int, what: str = "seat") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise ProtocolError(f"{what} must be a seat number 0..{n - 1}, got {value!r}")
    return value


class BotSession:
    """The bot side: keeps one seat's knowledge of a deal and answers messages.

    It rebuilds the position after every action with :meth:`Game.from_view`
    (its own hand plus placeholders for the hidden ones), checks each action
    against the rules, and hands its bot a real :class:`PlayerView`.
    """

    def __init__(self, bot: Bot, name: str = "big2") -> None:
        self.bot = bot
        self.name = name
        self._deal: dict[str, Any] | None = None

    # -- message handling ---------------------------------------------------

    def handle(self, line: str) -> dict[str, Any]:
        """Answer one message line; never raises."""
        try:
            try:
                msg = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ProtocolError(f"not JSON: {exc.msg} at column {exc.colno}") from None
            if not isinstance(msg, dict):
                raise ProtocolError("a message must be a JSON object")
            kind = msg.get("type")
            handler = getattr(self, f"_on_{kind}", None) if isinstance(kind, str) else None
            if handler is None:
                raise ProtocolError(
                    f"unknown message type {kind!r}; expected one of: "
                    "hello, new_deal, action, go, end, quit")
            reply: dict[str, Any] = handler(msg)
            return reply
        except ProtocolError as exc:
            return {"type": "error", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug must not kill the session
            return {"type": "error", "message": f"internal error: {type(exc).__name__}: {exc}"}

    def _on_hello(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "ready", "name": self.name, "protocol": PROTOCOL_VERSION}

    def _on_quit(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "bye"}

    def _on_new_deal(self, msg: dict[str, Any]) -> dict[str, Any]:
        rules = _rules_of(msg.get("rules", "classic"))
        v = variant(rules)
        n = v.players
        seat = _seat(msg.get("seat"), n)
        hand = parse_play(msg.get("hand", ""), v.deck.decks)
        if not hand:
            raise ProtocolError("hand: at least one card needed")
        deck = v.deck.cards
        if hand & ~deck:
            raise ProtocolError("hand: not in this game's deck: " + format_play(hand & ~deck))
        size = deck.bit_count()
        counts = msg.get("counts")
        if counts is None:
            counts = list(v.deal_counts)  # the deal the rules make (26 a seat: 4 players, 2 decks)
            counts[seat] = hand.bit_count()
        if (not isinstance(counts, list) or len(counts) != n
                or not all(isinstance(c, int) and not isinstance(c, bool) and c > 0
                           for c in counts)):
            raise ProtocolError(f"counts must be a list of {n} positive card counts")
        if counts[seat] != hand.bit_count():
            raise ProtocolError(f"counts[{seat}] is {counts[seat]} but the hand has "
                                f"{hand.bit_count()} cards")
        if sum(counts) > size:
            raise ProtocolError(f"counts add up to more than {size} cards")
        if "first" in msg:
            first = _seat(msg["first"], n, "first")
        elif hand & _every_copy(rules) == _every_copy(rules):
            first = seat  # with two decks only a seat holding both copies surely leads
        else:
            raise ProtocolError("first: say which seat acts first")
        must = parse_play(msg.get("must_contain", ""))
        if must.bit_count() > 1:
            raise ProtocolError("must_contain: one card at most")
        if must and v.deck.two_decks:  # the copy the first player holds
            must = match_copies(must, hand if first == seat else deck & ~hand) or must
        if must and first == seat and not hand & must:
            raise ProtocolError("must_contain: the first player must hold that card")
        self._deal = {"rules": rules, "seat": seat, "hand": hand, "counts": list(counts),
                      "first": first, "must": must, "history": [],
                      "names": tuple(f"Player {i + 1}" for i in range(n))}
        self._game()  # validates the whole position
        return {"type": "ok"}

    def _on_action(self, msg: dict[str, Any]) -> dict[str, Any]:
        d = self._need_deal()
        deck = variant(d["rules"]).deck
        seat = _seat(msg.get("seat"), deck.players)
        cards = self._copies(seat, parse_play(msg.get("cards"), deck.decks))
        game = self._game(acting=(seat, cards))
        if game.to_move is None:
            raise ProtocolError("the deal is already over")
        if game.to_move != seat:
            raise ProtocolError(f"seat {game.to_move} is to act, not seat {seat}")
        try:
            game.check_play(cards)
        except IllegalPlayError as exc:
            raise ProtocolError(f"illegal action: {exc}") from None
        if seat == d["seat"]:
            d["hand"] &= ~cards
        d["history"].append(Action(seat, cards))
        return {"type": "ok"}

    def _on_go(self, msg: dict[str, Any]) -> dict[str, Any]:
        d = self._need_deal()
        game = self._game()
        if game.to_move != d["seat"]:
            who = "nobody (the deal is over)" if game.to_move is None else f"seat {game.to_move}"
            raise ProtocolError(f"not this bot's turn: {who} is to act")
        view = game.view(d["seat"])
        choice = self.bot.choose(view)
        if choice not in view.legal:
            choice = view.legal[0]
        return {"type": "play", "cards": format_play(choice)}

    def _on_end(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._deal = None
        return {"type": "ok"}

    # -- position ------------------------------------------------------------

    def _copies(self, seat: int, cards: Mask) -> Mask:
        """Two decks: *cards* as the copies *seat* can hold (this bot's own, or
        ones neither in its hand nor played)."""
        d = self._need_deal()
        deck = variant(d["rules"]).deck
        if not deck.two_decks or not cards:
            return cards
        if seat == d["seat"]:
            return match_copies(cards, d["hand"]) or cards
        played = 0
        for a in d["history"]:
            played |= a.cards
        free = deck.cards & ~d["hand"] & ~played
        return match_copies(cards, free) or cards

    def _need_deal(self) -> dict[str, Any]:
        if self._deal is None:
            raise ProtocolError("no deal in progress: send new_deal first")
        return self._deal

    def _game(self, acting: tuple[int, Mask] | None = None) -> Game:
        """The position now, hidden hands filled with placeholder cards (the
        *acting* seat's placeholder holds the cards it is about to play)."""
        d = self._need_deal()
        rules: Rules = d["rules"]
        v = variant(rules)
        n = v.players
        seat: int = d["seat"]
        history: list[Action] = d["history"]
        played_by = [0] * n
        for a in history:
            played_by[a.seat] |= a.cards
        played = 0
        for m in played_by:
            played |= m
        counts = [d["counts"][s] - played_by[s].bit_count() for s in range(n)]
        if any(c < 0 for c in counts):
            raise ProtocolError("a seat played more cards than it was dealt")
        counts[seat] = d["hand"].bit_count()
        free = v.deck.cards & ~d["hand"] & ~played
        hands = [0] * n
        hands[seat] = d["hand"]
        if acting is not None and acting[1]:
            s, cards = acting
            if s == seat:
                if cards & ~d["hand"]:
                    raise ProtocolError("this bot does not hold "
                                        + format_play(cards & ~d["hand"]))
            else:
                if cards & ~free:
                    raise ProtocolError(f"seat {s} cannot hold " + format_play(cards & ~free)
                                        + " (played already, or in this bot's hand)")
                if cards.bit_count() > counts[s]:
                    raise ProtocolError(f"seat {s} holds only {counts[s]} cards")
                hands[s] = cards
                free &= ~cards
        pool = cards_of(free)
        for s in range(n):
            if s == seat:
                continue
            need = counts[s] - hands[s].bit_count()
            if need > len(pool):
                raise ProtocolError("more cards in play than the deck holds")
            hands[s] |= sum(1 << c for c in pool[:need])
            pool = pool[need:]
        over = bool(history) and any(c == 0 for c in counts) and (
            v.scorer.first_out_ends or sum(1 for c in counts if c) <= 1)
        view = PlayerView(
            rules=rules, seat=seat, hand=CardSet(d["hand"]), card_counts=tuple(counts),
            to_move=None if over else d["first"], leading=True, last_play=CardSet(0),
            last_player=None, trick=(), history=tuple(history), passed=(False,) * n,
            played=CardSet(played), names=d["names"], must_contain=CardSet(d["must"]))
        try:
            return Game.from_view(view, hands)
        except (ValueError, IllegalPlayError) as exc:
            raise ProtocolError(f"inconsistent position: {exc}") from None


def serve(bot: Bot, stdin: IO[str], stdout: IO[str], name: str = "big2") -> None:
    """Answer messages from *stdin* on *stdout* until ``quit`` or end of input."""
    session = BotSession(bot, name)
    for line in stdin:
        if not line.strip():
            continue
        reply = session.handle(line)
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
        if reply.get("type") == "bye":
            return


@click.command(name="bot")
@click.option("--level", default="expert", show_default=True,
              help="bot name or level: easy, medium, hard, expert, random, greedy, heuristic")
@click.option("--budget", type=click.IntRange(1), default=None,
              help="expert: play-outs per decision")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="expert: time cap per decision")
@click.option("--seed", type=int, default=None, help="seed for reproducible play")
def bot_command(level: str, budget: int | None, seconds: float | None, seed: int | None) -> None:
    """Speak the JSON-lines bot protocol on stdin/stdout (see docs/protocol.md)."""
    options: dict[str, Any] = {}
    if budget is not None:
        options["budget"] = budget
    if seconds is not None:
        options["seconds"] = seconds
    try:
        bot = make_bot(level, seed=seed, **options)
    except (ValueError, TypeError) as exc:
        raise click.UsageError(str(exc)) from None
    serve(bot, sys.stdin, sys.stdout, name=f"big2 {level}")


__all__ = ["PROTOCOL_VERSION", "BotSession", "ExternalBot", "ExternalBotError", "ProtocolError",
           "bot_command", "format_play", "parse_play", "serve"]
