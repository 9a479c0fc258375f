"""The observation encoding: what one seat may know, as a flat 0/1 vector.

Every entry is 0 or 1 (``int8``), the length is :data:`OBS_SIZE` for every
rule set and player count (2–4), and seats are *relative*: row 0 is the
observing seat, row k the seat numbered (seat + k) mod n (the k-th seat to
play after it under the default direction); rows for seats
a smaller table lacks stay zero. Cards are indexed by card number
(``rank * 4 + suit``, 3♦ = 0 … 2♠ = 51, see :mod:`big2.cards`).

=================  =====  ==================================================
field              size   meaning
=================  =====  ==================================================
``hand``              52  the observing seat's own cards
``played``        4 × 52  the cards each relative seat has played this deal
                          (what its plays showed: a drawn card is no play)
``count``         4 × 40  cards held per relative seat, one-hot over 0..39
                          (13 dealt + 26 drawn is the most, under ``go_fish``)
``passed``             4  seats that passed since the play to beat was made
                          (under ``passing="lock-out"``: passed in this
                          trick, so they are out of it)
``last_play``         52  the play to beat (zero when leading)
``last_kind``         12  its kind, one-hot over ``Kind`` 1..12
``last_player``        4  who made it (relative seat, one-hot)
``leading``            1  the seat to move leads a new trick (may not pass)
``trick_leader``       4  who made the first play of the current trick
``to_move``            4  the seat to move (relative, one-hot; zero once over)
``must_contain``      52  the card the next play must hold (first play only)
``players``            3  number of players, one-hot over 2, 3, 4
``spare``             52  the card lying face up in the middle
                          (``spare_to="aside"``), else zero
``stock``             27  cards left in the Go-Fish stock, one-hot over 0..26
=================  =====  ==================================================

:data:`LAYOUT` maps each field to its ``slice``; reshape ``played`` to
``(4, 52)`` and ``count`` to ``(4, 40)``.

Everything comes from public actions and the seat's own cards: the played
rows are the union of each seat's plays (not dealt minus held, which would
show a Go-Fish draw), and the hidden hands, the stock's order and any ghost
hand are never read.

Two encoders give the same vector: :func:`encode_game` reads a
:class:`~big2.game.Game` (the environment's fast path: one big ``int`` of
bits, unpacked by NumPy in one call) and :func:`encode_view` reads a
:class:`~big2.view.PlayerView` (what a trained policy gets when it plays as
a bot, see :class:`~big2.bots.policy.CallableBot`). :func:`card_vectors` gives
the legal plays the same way, one 52-entry row per play. The module needs
only NumPy; :mod:`big2.env.observation` re-exports it for the environments.

>>> from big2 import Game
>>> g = Game(seed=5)
>>> obs = encode_game(g, g.to_move)
>>> obs.shape, obs.dtype, int(obs[LAYOUT["hand"]].sum()), int(obs[LAYOUT["leading"]][0])
((635,), dtype('int8'), 13, 1)
>>> bool((obs == encode_view(g.view(g.to_move))).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from big2.cards import Mask, cards_of
from big2.house.spare import spare
from big2.variant import variant

if TYPE_CHECKING:
    from big2.game import Game
    from big2.view import Action, PlayerView

MAX_SEATS: Final = 4
"""Rows given to per-seat fields (tables have 2 to 4 seats)."""
MAX_COUNT: Final = 39
"""The most cards one seat can hold (two players, 13 dealt and a Go-Fish stock of 26)."""
MAX_STOCK: Final = 26
"""The largest Go-Fish stock (two players dealt 13 each)."""
NUM_KINDS: Final = 12
"""Kinds the ``last_kind`` field one-hots (``Kind`` 1..12: no pair run, dragon or
five of a kind)."""

_FIELDS: Final = (
    ("hand", 52), ("played", MAX_SEATS * 52), ("count", MAX_SEATS * (MAX_COUNT + 1)),
    ("passed", MAX_SEATS), ("last_play", 52), ("last_kind", NUM_KINDS),
    ("last_player", MAX_SEATS), ("leading", 1), ("trick_leader", MAX_SEATS),
    ("to_move", MAX_SEATS), ("must_contain", 52), ("players", 3),
    ("spare", 52), ("stock", MAX_STOCK + 1),
)


def _layout() -> dict[str, slice]:
    out, at = {}, 0
    for name, size in _FIELDS:
        out[name] = slice(at, at + size)
        at += size
    return out


LAYOUT: Final[dict[str, slice]] = _layout()
"""Field name → its slice of the observation vector."""
OBS_SIZE: Final = sum(size for _, size in _FIELDS)
"""Length of the observation vector (635)."""

_OFF = {name: s.start for name, s in LAYOUT.items()}
_HAND, _PLAYED, _COUNT, _PASSED = _OFF["hand"], _OFF["played"], _OFF["count"], _OFF["passed"]
_LAST, _KIND, _LASTP, _LEADING = _OFF["last_play"], _OFF["last_kind"], _OFF["last_player"], _OFF["leading"]
_TLEAD, _TOMOVE, _MUST, _PLAYERS = (_OFF["trick_leader"], _OFF["to_move"], _OFF["must_contain"],
                                    _OFF["players"])
_SPARE, _STOCK = _OFF["spare"], _OFF["stock"]
_NBYTES: Final = (OBS_SIZE + 7) // 8
_COUNT_W: Final = MAX_COUNT + 1


def _passed_and_leader(trick: tuple[object, ...] | list[object], lock_out: bool) -> tuple[int, int | None]:
    """Seats (bit mask) that passed since the play to beat (or in the trick,
    under lock-out) and the seat of the trick's first play, from the trick's
    actions."""
    passed = 0
    leader = None
    for a in trick:
        cards = a.cards  # type: ignore[attr-defined]
        if cards:
            if leader is None:
                leader = a.seat  # type: ignore[attr-defined]
            if not lock_out:
                passed = 0
        else:
            passed |= 1 << a.seat  # type: ignore[attr-defined]
    if leader is None:
        passed = 0  # passes of a leader with no legal play are no trick passes
    return passed, leader


# byte -> its 8 bits, lowest first: one ``take`` turns the packed bytes into the vector
_BYTE_BITS: Final = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                                  bitorder="little").view(np.int8)
# _REL[n][seat][s]: the relative row of seat s seen from seat, at a table of n
_REL: Final = [[[(s - seat) % n for s in range(n)] for seat in range(n)] for n in range(5)]


def played_by_seat(history: Sequence[Action], n: int) -> list[Mask]:
    """The cards each of *n* seats has played, from the public *history*."""
    played = [0] * n
    for a in history:
        played[a.seat] |= a.cards
    return played


def encode_game(game: Game, seat: int, played: Sequence[Mask] | None = None) -> npt.NDArray[np.int8]:
    """The observation of *seat* in *game* (a new ``int8`` array of
    :data:`OBS_SIZE`). Only what *seat* may know is read. *played* (each
    seat's played cards, as :func:`played_by_seat` gives them) saves a walk
    over the history when the caller keeps it."""
    n = game.num_players
    hands = game.hands
    if played is None:
        played = played_by_seat(game.history, n)
    rel = _REL[n][seat]
    bits = (hands[seat] | 1 << (_PLAYERS + n - 2) | spare(game) << _SPARE
            | 1 << (_STOCK + len(game.stock)))
    for s in range(n):
        k = rel[s]
        bits |= played[s] << (_PLAYED + 52 * k) | 1 << (_COUNT + _COUNT_W * k + hands[s].bit_count())
    to_move = game.to_move
    if to_move is not None:
        bits |= 1 << (_TOMOVE + rel[to_move])
    combo = game.last_combo
    if combo is None:
        if to_move is not None:
            bits |= 1 << _LEADING
            if to_move == seat:  # the first play's card is shown to its holder only
                bits |= int(game.must_contain) << _MUST
    else:
        bits |= combo.cards << _LAST | 1 << (_KIND + combo.kind - 1)
        bits |= 1 << (_LASTP + rel[game.last_player])  # type: ignore[index]
        passed, leader = _passed_and_leader(game.trick, game.variant.turns.lock_out)
        if leader is not None:
            bits |= 1 << (_TLEAD + rel[leader])
        while passed:
            low = passed & -passed
            bits |= 1 << (_PASSED + rel[low.bit_length() - 1])
            passed ^= low
    raw = np.frombuffer(bits.to_bytes(_NBYTES, "little"), dtype=np.uint8)
    return _BYTE_BITS.take(raw, axis=0).reshape(-1)[:OBS_SIZE]


def encode_view(view: PlayerView) -> npt.NDArray[np.int8]:
    """The observation of *view*'s seat, from the view alone (equal to
    :func:`encode_game` for the same seat and moment).

    Raises :class:`ValueError` for what the vector has no place for: cards
    past one 52-card deck (jokers, two decks) and plays of kinds past
    :data:`NUM_KINDS` (a pair run under ``smack_down``, a dragon). The
    environments refuse those rule sets up front."""
    from big2.combos import engine

    if view.rules.extended_deck:
        raise ValueError("the observation covers one 52-card deck; these rules deal jokers or "
                         "two decks")
    n = view.num_players
    seat = view.seat
    out = np.zeros(OBS_SIZE, dtype=np.int8)

    def put(offset: int, mask: int) -> None:
        for c in cards_of(mask):
            out[offset + c] = 1

    def rel(s: int) -> int:
        return (s - seat) % n

    put(_HAND, int(view.hand))
    played = played_by_seat(view.history, n)
    for s in range(n):
        put(_PLAYED + 52 * rel(s), played[s])
        out[_COUNT + _COUNT_W * rel(s) + view.card_counts[s]] = 1
    passed, leader = _passed_and_leader(list(view.trick), variant(view.rules).turns.lock_out)
    for s in range(n):
        if passed >> s & 1:
            out[_PASSED + rel(s)] = 1
    if view.last_player is not None and view.last_play:
        put(_LAST, int(view.last_play))
        combo = engine(view.rules).classify(int(view.last_play))
        assert combo is not None
        if combo.kind > NUM_KINDS:
            raise ValueError(f"the observation has no place for a {combo.kind.label} "
                             f"(kinds 1..{NUM_KINDS} only)")
        out[_KIND + combo.kind - 1] = 1
        out[_LASTP + rel(view.last_player)] = 1
    if view.leading and view.to_move is not None:
        out[_LEADING] = 1
    if leader is not None:
        out[_TLEAD + rel(leader)] = 1
    if view.to_move is not None:
        out[_TOMOVE + rel(view.to_move)] = 1
    put(_MUST, int(view.must_contain))
    out[_PLAYERS + n - 2] = 1
    put(_SPARE, int(view.spare))
    out[_STOCK + view.stock_size] = 1
    return out


def describe(obs: npt.NDArray[np.integer]) -> dict[str, object]:
    """An observation decoded into its fields, for reading and debugging:
    card fields as :class:`~big2.cards.CardSet`, one-hots as their index.

    >>> from big2 import Game
    >>> d = describe(encode_game(Game(seed=5, players=3), 0))
    >>> d["players"], d["count"], len(d["hand"])
    (3, [17, 18, 17], 17)
    """
    from big2.cards import CardSet

    def cards(v: npt.NDArray[np.integer]) -> CardSet:
        return CardSet(sum(1 << int(i) for i in np.flatnonzero(v)))

    def one(v: npt.NDArray[np.integer]) -> int | None:
        hit = np.flatnonzero(v)
        return int(hit[0]) if len(hit) else None

    players = one(obs[LAYOUT["players"]])
    n = (players or 0) + 2
    played = obs[LAYOUT["played"]].reshape(MAX_SEATS, 52)
    count = obs[LAYOUT["count"]].reshape(MAX_SEATS, _COUNT_W)
    kind = one(obs[LAYOUT["last_kind"]])
    return {
        "hand": cards(obs[LAYOUT["hand"]]),
        "played": [cards(played[k]) for k in range(n)],
        "count": [one(count[k]) for k in range(n)],
        "passed": [bool(x) for x in obs[LAYOUT["passed"]][:n]],
        "last_play": cards(obs[LAYOUT["last_play"]]),
        "last_kind": None if kind is None else kind + 1,
        "last_player": one(obs[LAYOUT["last_player"]]),
        "leading": bool(obs[LAYOUT["leading"]][0]),
        "trick_leader": one(obs[LAYOUT["trick_leader"]]),
        "to_move": one(obs[LAYOUT["to_move"]]),
        "must_contain": cards(obs[LAYOUT["must_contain"]]),
        "players": n,
        "spare": cards(obs[LAYOUT["spare"]]),
        "stock": one(obs[LAYOUT["stock"]]),
    }


def card_vectors(masks: Sequence[Mask] | npt.NDArray[np.uint64]) -> npt.NDArray[np.int8]:
    """The 0/1 card vectors of *masks*: a new ``(K, 52)`` ``int8`` array whose
    row ``i`` has a 1 at each card of ``masks[i]`` (column = card number,
    3♦ = 0 … 2♠ = 51, as in the observation's card fields). A pass (``0``)
    is an all-zero row. This is how a policy sees ``view.legal`` (see
    :class:`~big2.bots.policy.CallableBot`).

    >>> from big2.cards import parse_cards
    >>> v = card_vectors([0, int(parse_cards("3D")), int(parse_cards("2S 2H"))])
    >>> v.shape, v.dtype, v.sum(axis=1).tolist()
    ((3, 52), dtype('int8'), [0, 1, 2])
    >>> [int(i) for i in v[2].nonzero()[0]]
    [50, 51]

    Cards past the 52 of one deck (jokers, a second deck) have no column:

    >>> card_vectors([1 << 52])
    Traceback (most recent call last):
    ...
    ValueError: card_vectors: mask 0x10000000000000 holds cards outside the 52-card deck (jokers or a second deck)
    """
    try:
        arr = np.array(masks, dtype="<u8").reshape(-1)
    except OverflowError:  # past 64 bits, or negative
        arr = None
    if arr is None or (arr >> np.uint64(52)).any():
        bad = next(int(m) for m in masks if not 0 <= int(m) < 1 << 52)
        raise ValueError(f"card_vectors: mask {bad:#x} holds cards outside the 52-card deck "
                         "(jokers or a second deck)")
    raw = arr.reshape(-1, 1).view(np.uint8)
    return np.unpackbits(raw, axis=1, count=52, bitorder="little").view(np.int8)


def observe_batch(num: npt.NDArray[np.int64], hands: npt.NDArray[np.uint64],
                  mover: npt.NDArray[np.int64], mover_hand: npt.NDArray[np.uint64],
                  spares: npt.NDArray[np.uint64]) -> npt.NDArray[np.int8]:
    """The observation of the seat to move in each of N games, equal to
    :func:`~big2.observation.encode_game` for that seat, built for all games
    at once.

    *num* is ``(N, 8 + 2n)``: :meth:`~big2.game.Game.numbers`, then the n
    hands, then the cards each seat has played; *hands* its hands columns
    as ``uint64``; *mover* the seat to move; *mover_hand* its hand;
    *spares* the face-up spare card of each game (or zeros).
    """
    n_env, n = hands.shape
    o = _OFF
    rows = np.arange(n_env)[:, None]
    rel_seats = (mover[:, None] + np.arange(n)) % n  # (N, n): absolute seat of relative k
    played = num[:, 8 + n:8 + 2 * n].astype(np.uint64)[rows, rel_seats]
    words = np.zeros((n_env, 8), dtype=np.uint64)
    words[:, 0] = mover_hand
    words[:, 1:1 + n] = played
    words[:, 5] = num[:, 2].astype(np.uint64)  # the play to beat
    words[:, 6] = num[:, 6].astype(np.uint64)  # the mover's must-contain card
    words[:, 7] = spares
    bits = card_vectors(words.reshape(-1)).reshape(n_env, 8, 52)
    out = np.zeros((n_env, OBS_SIZE), dtype=np.int8)
    out[:, o["hand"]:o["hand"] + 52] = bits[:, 0]
    out[:, o["played"]:o["played"] + 52 * 4] = bits[:, 1:5].reshape(n_env, 208)
    out[:, o["last_play"]:o["last_play"] + 52] = bits[:, 5]
    out[:, o["must_contain"]:o["must_contain"] + 52] = bits[:, 6]
    out[:, o["spare"]:o["spare"] + 52] = bits[:, 7]
    r = rows[:, 0]
    k = np.arange(n)
    counts = np.bitwise_count(hands[rows, rel_seats]).astype(np.int64)  # (N, n)
    out[rows, o["count"] + _COUNT_W * k + counts] = 1
    passed = (num[:, 4:5] >> rel_seats) & 1
    out[:, o["passed"]:o["passed"] + n] = passed
    last_player, kind, leader = num[:, 1], num[:, 3], num[:, 5]
    following = last_player >= 0
    f = r[following]
    out[f, o["last_kind"] + kind[following] - 1] = 1
    out[f, o["last_player"] + (last_player[following] - mover[following]) % n] = 1
    out[r[~following], o["leading"]] = 1
    led = leader >= 0
    out[r[led], o["trick_leader"] + (leader[led] - mover[led]) % n] = 1
    out[:, o["to_move"]] = 1  # the observer is the seat to move
    out[:, o["players"] + n - 2] = 1
    out[r, o["stock"] + num[:, 7]] = 1
    return out


__all__ = [
    "LAYOUT",
    "MAX_COUNT",
    "MAX_SEATS",
    "MAX_STOCK",
    "NUM_KINDS",
    "OBS_SIZE",
    "card_vectors",
    "describe",
    "encode_game",
    "encode_view",
    "observation_layout",
    "observe_batch",
    "played_by_seat",
]


def observation_layout() -> dict[str, int]:
    """The offsets of the fields by name, with ``size`` and ``count_width``:
    what the compiled core's ``Batch.observe_into`` writes by."""
    out = {name: s.start for name, s in LAYOUT.items()}
    out.update(size=OBS_SIZE, count_width=MAX_COUNT + 1)
    return out

