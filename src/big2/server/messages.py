"""The WebSocket messages: their schemas, validation and rate limits.

Every client message is one JSON object with a ``type``; anything else is
refused with an ``error`` reply and changes nothing. An optional integer
``id`` is echoed in the reply, so a client can match answers to requests.

Client → server:

- ``{"type": "hello", "token": "…"}`` first; the token of a seat (from
  joining) makes the connection that seat's, none makes it a spectator.
- ``{"type": "play", "cards": ["3D", "3S"]}`` play those cards. Jokers are
  ``RJ`` and ``BJ``. At a two-deck table a name given twice plays both copies
  (``["3D", "3D"]``); which deck each copy came from does not matter, the
  server plays the copies the seat holds. A one-deck table refuses a name
  given twice.
- ``{"type": "pass"}`` pass.
- ``{"type": "hint"}`` ask for the hint bot's suggestion.
- ``{"type": "next"}`` ready for the next deal.
- ``{"type": "start"}`` fill the open seats with bots and start now.
- ``{"type": "react", "reaction": "gg"}`` a quick reaction from a fixed set
  (:data:`REACTIONS`: never free text), rate-limited, at a table with friends.
- ``{"type": "ping"}``.

Server → client: ``state`` (after every change, built for that viewer),
``hint``, ``error``, ``pong``.

>>> parse('{"type": "play", "cards": ["3D", "4D"], "id": 7}')
Play(id=7, type='play', cards=['3D', '4D'])
>>> parse('{"type": "play", "cards": ["3X"]}')
Traceback (most recent call last):
...
big2.server.messages.MessageError: card 1 in cards is not a card name (a rank 3-9, T, J, Q, K, A or 2, then a suit D, C, H or S; RJ or BJ for a joker)
>>> cards_mask(["3D", "3D"], copies=2) == 1 | 1 << 54
True
>>> cards_mask(["3D", "3D"], copies=1)
Traceback (most recent call last):
...
big2.server.messages.MessageError: 3D is named twice in cards, but this table plays with one deck (one copy of each card)
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from big2.cards import CARD_NAMES, DECK_SIZE, Mask

__all__ = [
    "CARD_NAME_HELP",
    "MAX_COPIES",
    "MAX_MESSAGE_BYTES",
    "ClientMessage",
    "Hello",
    "Hint",
    "MessageError",
    "Next",
    "Pass",
    "Ping",
    "Play",
    "RateLimiter",
    "Start",
    "cards_mask",
    "error",
    "parse",
]

MAX_MESSAGE_BYTES = 2048
"""Longer client messages are refused unread."""
CARD_NAME_HELP = "a rank 3-9, T, J, Q, K, A or 2, then a suit D, C, H or S; RJ or BJ for a joker"
"""How card names are written, for error replies (fixed text: it names no one's cards)."""
MAX_COPIES = 2
"""The most copies of one card a table can hold (two decks)."""

_CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES[:DECK_SIZE])}


class MessageError(ValueError):
    """A message that is not valid JSON or does not fit any schema."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: int | None = Field(default=None, ge=0, le=2**31)


class Hello(_Message):
    """Identify the connection: a seat token, or none to watch."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200)


class Play(_Message):
    """Play these cards (by name, e.g. ``3D``; a name twice for both copies at a
    two-deck table, checked against the table's decks by :func:`cards_mask`)."""

    type: Literal["play"]
    cards: list[str] = Field(min_length=1, max_length=13)

    @field_validator("cards")
    @classmethod
    def _names(cls, cards: list[str]) -> list[str]:
        for i, c in enumerate(cards):
            if c not in _CARD_INDEX:
                raise ValueError(f"{i}: not a card name ({CARD_NAME_HELP})")
        if any(cards.count(c) > MAX_COPIES for c in set(cards)):
            raise ValueError(f"a card is named more than {MAX_COPIES} times "
                             f"(at most {MAX_COPIES} decks)")
        return cards


class Pass(_Message):
    """Pass."""

    type: Literal["pass"]


class Hint(_Message):
    """Ask for a suggested play."""

    type: Literal["hint"]


class Next(_Message):
    """Ready for the next deal."""

    type: Literal["next"]


class Start(_Message):
    """Fill open seats with bots and start."""

    type: Literal["start"]


REACTIONS = ("thumbs", "wow", "laugh", "gg")  # 👍 😮 😂 GG: the whole set, no free text


class React(_Message):
    """A quick reaction from :data:`REACTIONS`, sent to everyone at the table."""

    type: Literal["react"]
    reaction: Literal["thumbs", "wow", "laugh", "gg"]


class Ping(_Message):
    """Keep-alive."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Play | Pass | Hint | Next | Start | React | Ping,
                          Field(discriminator="type")]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse(text: str | bytes) -> Hello | Play | Pass | Hint | Next | Start | React | Ping:
    """Validate one client message. Raises :class:`MessageError` with a short
    reason that never echoes the input back (nor a field name it does not know).

    >>> parse('{"type": "pass", "<b>": 1}')
    Traceback (most recent call last):
    ...
    big2.server.messages.MessageError: a pass message takes no other fields than type and id
    """
    if len(text) > MAX_MESSAGE_BYTES:
        raise MessageError(f"the message is longer than {MAX_MESSAGE_BYTES} bytes")
    try:
        msg: Hello | Play | Pass | Hint | Next | Start | React | Ping = _ADAPTER.validate_json(
            text)
        return msg
    except ValidationError as exc:
        err = exc.errors(include_input=False, include_url=False)[0]
        raise MessageError(_reason(err)) from None


_MODELS: dict[str, type[_Message]] = {
    "hello": Hello, "play": Play, "pass": Pass, "hint": Hint, "next": Next, "start": Start,
    "react": React, "ping": Ping}
_FIELD_RULES = {
    "id": "the id must be a whole number from 0 to 2147483648",
    "token": "the token must be text of at most 200 characters, or null",
    "cards": "cards must be a list of 1 to 13 card names",
    "reaction": f"reaction must be one of: {', '.join(REACTIONS)}",
}


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _reason(err: Any) -> str:
    """Why a message failed, in words of the protocol only: the message type and
    field names named are the server's own, never the client's."""
    kind, loc = err.get("type", ""), [str(p) for p in err.get("loc", ())]
    if kind == "json_invalid":
        return "the message is not valid JSON"
    if kind == "dict_type" and not loc:
        return "a message must be a JSON object with a type"
    if kind in ("union_tag_invalid", "union_tag_not_found") or not loc or loc[0] not in _MODELS:
        return f"the message type is missing or unknown; types: {_and(list(_MODELS))}"
    name, model = loc[0], _MODELS[loc[0]]
    fields = sorted(model.model_fields, key=lambda f: f != "type")  # type first
    known = loc[1] if len(loc) > 1 and loc[1] in fields else None
    if kind == "extra_forbidden" or known is None:
        return f"a {name} message takes no other fields than {_and(fields)}"
    if kind == "missing":
        return f"a {name} message needs {known}"
    text = str(err.get("msg", "")).removeprefix("Value error, ")
    if known == "cards" and kind == "value_error":
        if text[:1].isdigit():  # from Play._names: "<index>: not a card name (...)"
            index, why = text.split(": ", 1)
            return f"card {int(index) + 1} in cards is {why}"
        return text
    return _FIELD_RULES.get(known, f"{known} is not valid")


def cards_mask(names: list[str], copies: int = 1) -> Mask:
    """The mask of validated card names at a table of *copies* decks: a name
    given twice is the first deck's card and the second's (the engine then plays
    the copies the seat holds). Raises :class:`MessageError` for a name given
    more often than there are decks."""
    mask = 0
    for name in names:
        card = _CARD_INDEX[name]
        for _ in range(copies - 1):
            if not mask >> card & 1:
                break
            card += DECK_SIZE
        if mask >> card & 1:
            if copies == 1:
                raise MessageError(f"{name} is named twice in cards, but this table plays "
                                    "with one deck (one copy of each card)")
            raise MessageError(f"{name} is named more than {copies} times in cards, but "
                                f"this table plays with {copies} decks")
        mask |= 1 << card
    return mask


def error(message: str, msg_id: int | None = None) -> dict[str, Any]:
    """An ``error`` reply."""
    return {"type": "error", "message": message, "id": msg_id}


class RateLimiter:
    """A token bucket: *rate* messages a second, bursts up to *burst*.

    >>> r = RateLimiter(rate=1, burst=2, clock=lambda: 0.0)
    >>> [r.allow() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: float = 10.0, burst: float = 30.0,
                 clock: Any = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()
        self.refused = 0

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False
