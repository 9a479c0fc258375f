"""Server-side tables: seats, tokens, deals, bots and turn timers, with no web.

A :class:`Table` owns one match. It holds the deck (the current
:class:`~big2.game.Game`) and hands each viewer a state built from that
viewer's :class:`~big2.view.PlayerView` only, so a client can never be sent a
card it may not see. Time is passed in (``now``, seconds on any monotonic
clock), so the logic is tested without waiting: :meth:`Table.due` says when
the next automatic step is due and :meth:`Table.step` takes it (a bot's move,
a timed-out or absent player's move made by a bot, the next deal).

>>> t = Table.create(TableSettings(rules=Rules(), seats=(None, "greedy", "greedy", "greedy")),
...                  timing=Timing(bot_delay=0), now=0.0)
>>> token = t.claim(0, "Ann", now=0.0)
>>> t.status
'playing'
>>> t.seat_for_token(token), t.seat_for_token("guess")
(0, None)
>>> "hand" in t.state_for(None)["game"]
False
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from big2.bots import Bot, make_bot
from big2.cards import Mask
from big2.game import Game, IllegalPlayError
from big2.match import Match
from big2.records import GameRecord, from_json
from big2.rules import Rules  # noqa: F401 - the module doctest
from big2.server.settings import (
    AUTO_BOT,
    HINT_BOT,
    TableError,
    TableSettings,
    Timing,
    hint_bot,
    new_id,
)
from big2.server.state import cards_text, deal_end_state, game_state
from big2.variant import variant
from big2.view import PlayerView

__all__ = [
    "AUTO_BOT", "HINT_BOT", "AutoMove", "Seat", "Table", "TableError", "TableSettings", "Timing",
    "cards_text", "hint_bot", "new_id",
]


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat: a bot, a person's claimed seat, or an open one."""

    index: int
    bot: str | None = None
    name: str = ""
    token_hash: str | None = None
    connections: int = 0
    away_since: float | None = None
    ready: bool = False
    _bot: Bot | None = field(default=None, repr=False)

    @property
    def is_bot(self) -> bool:
        """Played by a bot for the whole match."""
        return self.bot is not None

    @property
    def is_open(self) -> bool:
        """A person's seat nobody has taken yet."""
        return self.bot is None and self.token_hash is None

    def player(self) -> Bot:
        """This seat's bot (created on first use)."""
        assert self.bot is not None
        if self._bot is None:
            self._bot = make_bot(self.bot, seed=secrets.randbits(32))
        return self._bot


@dataclass(frozen=True)
class AutoMove:
    """A bot move a table waits for: the seat, the bot that chooses it, the
    seat's view (all the bot may see) and the table's version when asked."""

    seat: int
    bot: str
    view: PlayerView
    version: int


class Table:
    """One table: its seats, its match and the current deal (see the module doc)."""

    def __init__(self, table_id: str, settings: TableSettings, *, timing: Timing | None = None,
                 auto_bot: str | None = None, created: float | None = None) -> None:
        self.id = table_id
        self.settings = settings
        self.rules = settings.rules
        self.timing = timing or Timing()
        self.auto_bot_name = auto_bot
        self.created = time.time() if created is None else created
        self.seats = [Seat(i, bot=b, name=self._bot_label(b, i) if b else "")
                      for i, b in enumerate(settings.seats)]
        # the match sequences the deals (dealer, exchange, shoot-outs, end); its
        # seeds come from secrets, so no client can predict a deal from earlier ones
        self.match = Match(self.rules, deals=settings.deals or None, secure=True)
        self.status = "waiting"  # waiting -> playing <-> between -> over
        self.version = 0
        self.deal_no = 0
        self.last_change = 0.0  # when the last action or deal happened
        self.turn_started = 0.0
        self.finished: list[GameRecord] = []  # finished deals not yet stored
        self._auto: Bot | None = None

    # -- creation and restoring ------------------------------------------------

    @classmethod
    def create(cls, settings: TableSettings, *, timing: Timing | None = None,
               auto_bot: str | None = None, now: float = 0.0, prefix: str = "") -> Table:
        """A new table with a fresh id (after *prefix*); it starts once every
        person's seat is taken."""
        table = cls(new_id(prefix), settings, timing=timing, auto_bot=auto_bot)
        table.last_change = now
        table._maybe_start(now)
        return table

    @staticmethod
    def _bot_label(bot: str, seat: int) -> str:
        return f"{bot.capitalize()} bot {seat + 1}"

    @property
    def game(self) -> Game | None:
        """The current deal (the last one dealt), ``None`` before the first."""
        return self.match.games[-1] if self.match.games else None

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to carry on after a restart, JSON-friendly.
        Holds the deck: for the database only, never for a client."""
        return {
            "id": self.id, "settings": self.settings.to_dict(), "created": self.created,
            "status": self.status, "version": self.version, "deal_no": self.deal_no,
            "seats": [{"bot": s.bot, "name": s.name, "token_hash": s.token_hash}
                      for s in self.seats],
            "match": self.match.snapshot(),
        }

    @classmethod
    def restore(cls, data: dict[str, Any], *, timing: Timing | None = None,
                auto_bot: str | None = None, now: float = 0.0) -> Table:
        """The table saved by :meth:`snapshot`, carrying on from where it was.
        Every recorded action is replayed through the engine (see
        :meth:`Match.restore`). Snapshots written before the match was saved
        whole (totals and the current deal's record) are read too."""
        settings = TableSettings.from_dict(data["settings"])
        table = cls(data["id"], settings, timing=timing, auto_bot=auto_bot,
                    created=data.get("created"))
        for seat, saved in zip(table.seats, data["seats"]):
            seat.bot, seat.name, seat.token_hash = saved["bot"], saved["name"], saved["token_hash"]
            if seat.token_hash is not None:
                seat.away_since = now  # people must reconnect; the grace period runs
        m = data["match"]
        if "format" in m:
            fresh, table.match = table.match, Match.restore(m)
            if (table.match.rules, table.match.deals) != (fresh.rules, fresh.deals):
                raise ValueError("the saved match is not played under the table's settings")
        else:  # the older form: totals and the current deal only
            table.match.totals = [int(t) for t in m["totals"]]
            table.match.results = [tuple(r) for r in m["results"]]
            table.match.dealer = int(m["dealer"])
            table.match.last_winner = m["last_winner"]
            if data.get("game"):
                table.match.games.append(from_json(data["game"])[0].to_game())
        table.status = data["status"]
        table.version = int(data["version"]) + 1
        table.deal_no = int(data["deal_no"])
        table.last_change = table.turn_started = now
        return table

    # -- seats -------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.seats)

    def open_seats(self) -> list[int]:
        """Seats a person may still take."""
        return [s.index for s in self.seats if s.is_open]

    def claim(self, seat: int, name: str, now: float) -> str:
        """Take open *seat* as *name*; return the seat token (shown once).

        The deal starts when the last open seat is taken.
        """
        if not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise TableError(f"no seat {seat!r}: seats are 0..{self.num_players - 1}")
        if self.status == "over":
            raise TableError("the match is over")
        if not self.seats[seat].is_open:
            raise TableError(f"seat {seat} is taken")
        name = " ".join(name.split())[:24] or f"Player {seat + 1}"
        token = secrets.token_urlsafe(24)
        s = self.seats[seat]
        s.name, s.token_hash, s.away_since = name, _hash_token(token), now
        self._changed(now, action=False)
        self._maybe_start(now)
        return token

    def fill_with_bots(self, now: float, bot: str = "greedy") -> None:
        """Give every open seat to *bot* and start (the "start now" button)."""
        if self.status != "waiting":
            raise TableError("the match has already started")
        for s in self.seats:
            if s.is_open:
                s.bot, s.name = bot, self._bot_label(bot, s.index)
        self._changed(now, action=False)
        self._maybe_start(now)

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a token belongs to, or ``None`` (compared in constant time)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        digest = _hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s.index
        return found

    def connect(self, seat: int | None, now: float) -> None:
        """A client for *seat* (``None``: a spectator) is connected."""
        if seat is None:
            return
        s = self.seats[seat]
        s.connections += 1
        s.away_since = None

    def disconnect(self, seat: int | None, now: float) -> None:
        """A client for *seat* went away; after the grace period a bot plays for it."""
        if seat is None:
            return
        s = self.seats[seat]
        s.connections = max(0, s.connections - 1)
        if s.connections == 0:
            s.away_since = now

    # -- deals -------------------------------------------------------------------

    def _maybe_start(self, now: float) -> None:
        if self.status == "waiting" and not self.open_seats():
            self._deal(now)

    def _deal(self, now: float) -> None:
        """Deal the next hand through the match (a President exchange or a
        teams shoot-out included). Seeds come from :mod:`secrets`, so no client
        can predict a deal from earlier ones."""
        self.match.names = tuple(s.name for s in self.seats)
        self.match.new_game()
        self.deal_no += 1
        self.status = "playing"
        for s in self.seats:
            s.ready = False
        self._changed(now)

    def _end_deal(self, now: float) -> None:
        game = self.game
        assert game is not None
        before = tuple(self.match.totals)
        self.match.record(game)
        self.finished.append(GameRecord.from_game(
            game, totals=before,
            tags={"Date": time.strftime("%Y.%m.%d"), "Event": self.settings.name,
                  "Table": self.id, "Deal": str(self.deal_no),
                  # each seat's bot (a person: -), for the duplicate replay
                  "Bots": ",".join(seat.bot or "-" for seat in self.seats)}))
        self.status = "over" if self.match.is_over() else "between"

    def ready(self, seat: int, now: float) -> None:
        """*seat* wants the next deal now (it starts when every connected person does)."""
        if self.status != "between":
            raise TableError("no deal to start: " + ("the match is over" if self.status == "over"
                                                     else "a deal is in progress"))
        self.seats[seat].ready = True
        self._changed(now, action=False)
        if all(s.ready for s in self.seats if not s.is_bot and s.connections):
            self._deal(now)

    # -- play --------------------------------------------------------------------

    def act(self, seat: int, cards: Mask, now: float) -> None:
        """*seat* plays *cards* (``0`` passes). Raises :class:`TableError` with
        the reason when that is not allowed now; nothing changes then."""
        game = self.game
        if self.status != "playing" or game is None:
            raise TableError("no deal is being played")
        if game.to_move != seat:
            raise TableError("it is not your turn")
        try:
            game.play(cards)
        except IllegalPlayError as exc:
            raise TableError(str(exc)) from None
        self._after_action(now)

    def _after_action(self, now: float) -> None:
        assert self.game is not None
        self._changed(now)
        if self.game.is_over():
            self._end_deal(now)

    def _changed(self, now: float, action: bool = True) -> None:
        self.version += 1
        if action:
            self.last_change = self.turn_started = now

    def hint(self, seat: int) -> Mask:
        """The automatic player's choice for *seat* (:func:`hint_bot`), which must
        be to move; the server's hint asks the hint bot instead (:data:`HINT_BOT`)."""
        return self._auto_player().choose(self.hint_view(seat))

    def hint_view(self, seat: int) -> PlayerView:
        """The view a hint for *seat* is chosen from; *seat* must be to move."""
        game = self.game
        if self.status != "playing" or game is None or game.to_move != seat:
            raise TableError("hints are given on your turn")
        return self.view(seat)

    def _auto_player(self) -> Bot:
        if self._auto is None:
            self._auto = hint_bot(self.auto_bot_name, seed=secrets.randbits(32))
        return self._auto

    def view(self, seat: int) -> PlayerView:
        """*seat*'s view of the current deal."""
        assert self.game is not None
        return self.game.view(seat, totals=self.match.totals)

    def turn_deadline(self) -> float | None:
        """When the person to move runs out of time (``None``: no timer)."""
        game = self.game
        if self.status != "playing" or game is None or game.to_move is None:
            return None
        if self.seats[game.to_move].is_bot or not self.settings.turn_time:
            return None
        return self.turn_started + self.settings.turn_time

    def due(self) -> float | None:
        """When the next automatic step is due, or ``None`` if it waits for people."""
        game = self.game
        if self.status == "between":
            return self.last_change + self.timing.deal_pause
        if self.status != "playing" or game is None or game.to_move is None:
            return None
        seat = self.seats[game.to_move]
        paced = self.last_change + self.timing.bot_delay
        if seat.is_bot:
            return paced
        times = []
        if seat.away_since is not None:
            times.append(max(paced, seat.away_since + self.timing.grace))
        deadline = self.turn_deadline()
        if deadline is not None:
            times.append(deadline)
        return min(times) if times else None

    def step(self, now: float) -> bool:
        """Take the automatic step if it is due; return whether anything changed.
        A bot's move is chosen here, in this thread; the server asks
        :meth:`pending` and chooses in a worker process instead."""
        when = self.due()
        if when is None or when > now:
            return False
        if self.status == "between":
            self._deal(now)
            return True
        move = self.pending(now)
        assert move is not None
        seat = self.seats[move.seat]
        player = seat.player() if seat.is_bot else self._auto_player()
        return self.apply(move, player.choose(move.view), now)

    def pending(self, now: float) -> AutoMove | None:
        """The bot move that is due now (a bot's seat, or a person's played for
        them), or ``None``; choose it from its view and :meth:`apply` it."""
        when, game = self.due(), self.game
        if when is None or when > now or self.status != "playing" or game is None:
            return None
        assert game.to_move is not None
        seat = self.seats[game.to_move]
        bot = seat.bot if seat.bot is not None else self.auto_bot_name or AUTO_BOT
        return AutoMove(seat.index, bot, self.view(seat.index), self.version)

    def apply(self, move: AutoMove, choice: Mask, now: float) -> bool:
        """Play *choice* for :meth:`pending`'s *move* unless the table changed
        since (then nothing happens and ``False`` is returned). A choice that is
        not legal is replaced by the first legal play: a bot never stalls a table."""
        game = self.game
        if self.version != move.version or game is None or game.to_move != move.seat:
            return False
        if choice not in game.legal_masks():
            choice = game.legal_masks()[0]
        game.play(choice)
        self._after_action(now)
        return True

    def replay(self, cards: Mask, version: int, now: float) -> None:
        """Apply one stored action of the current deal again (after a restart)."""
        game = self.game
        if self.status != "playing" or game is None:
            raise ValueError(f"stored action {version}: no deal is being played")
        game.play(cards)
        self._after_action(now)
        self.version = version

    # -- what clients see ----------------------------------------------------------

    @functools.cached_property
    def _rules_part(self) -> dict[str, Any]:
        """The rules as clients see them (built once: a table's rules never change)."""
        return {"name": self.rules.name, "options": self.rules.diff(), "all": self.rules.to_dict()}

    def summary(self) -> dict[str, Any]:
        """Public facts for the lobby."""
        return {
            "id": self.id, "name": self.settings.name, "status": self.status,
            "rules": self._rules_part["name"], "players": self.num_players,
            "decks": variant(self.rules).deck.decks, "jokers": self.rules.jokers,
            "deal": self.deal_no, "deals": self.match.deals,
            "turn_time": self.settings.turn_time,
            "seats": [self._seat_public(s) for s in self.seats],
            "open": self.open_seats(),
        }

    def _seat_public(self, s: Seat) -> dict[str, Any]:
        return {"seat": s.index, "name": s.name, "bot": s.bot, "open": s.is_open,
                "connected": bool(s.connections) or s.is_bot,
                "away": s.away_since is not None and not s.is_open, "ready": s.ready}

    def state_for(self, seat: int | None, now: float | None = None) -> dict[str, Any]:
        """The state message for *seat* (``None``: a spectator).

        Built from the seat's :class:`~big2.view.PlayerView` only; a spectator
        gets the public part of a view and no hand at all.
        """
        state: dict[str, Any] = {
            "type": "state", "table": self.summary(), "version": self.version, "you": seat,
            "rules": dict(self._rules_part),
            "totals": list(self.match.totals), "places": self.match.places(),
            "results": [list(r) for r in self.match.results],
            "game": None, "turn_left": None, "next_deal_in": None,
        }
        if self.game is not None:
            state["game"] = game_state(self.view(0 if seat is None else seat),
                                       private=seat is not None)
            state["game"]["end"] = deal_end_state(self.game)  # None until the deal is over
        if now is not None:
            deadline = self.turn_deadline()
            if deadline is not None:
                state["turn_left"] = round(max(0.0, deadline - now), 1)
            if self.status == "between":
                state["next_deal_in"] = round(max(0.0, self.last_change
                                                  + self.timing.deal_pause - now), 1)
        return state
