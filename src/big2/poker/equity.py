"""Equity: how often each hand wins, ties and what share of the pot it takes.

:func:`equity` deals out everything not yet known (board cards, missing hole
cards, the hands of a range) and values every deal with the NumPy tables of
:mod:`big2.poker.lookup` and :mod:`big2.poker.games`.  It enumerates every
deal when that is cheap (at most :data:`EXACT_LIMIT` hand valuations) and
samples otherwise, reporting a 95 % confidence interval.  Hold'em deals whose
hole cards are all given (cards or ranges) run in the compiled core
(:mod:`big2.poker.native`: the same enumeration, and Monte Carlo with its own
generator, so a seed repeats the core's sample, not NumPy's), and so do exact
Omaha (high) deals with every hole card given; the core's enumeration values each
class of boards that give every player the same hand once (``src/native/poker_exact.hpp``),
with the same counts.  ``engine="python"`` or ``BIG2_ENGINE=python`` keeps them in
NumPy, the reference.

Per hand: ``win`` is the share of deals it takes the whole pot alone,
``tie`` the share where it takes part of it (a split high, or one half of a
hi/lo pot), and ``equity`` its expected share of the pot.  Every
combination of the ranges that does not clash with the others, the board or
the dead cards counts equally.

>>> r = equity(["AS AH", "KS KH"], board="2C 7D 9H")
>>> r.exact, r.deals, [round(h.equity, 4) for h in r.hands]
(True, 990, [0.9162, 0.0838])
>>> r = equity(["AKs", "QQ"], trials=20_000, seed=1)
>>> r.exact, round(r.hands[0].equity, 2), r.hands[0].ci is not None
(False, 0.46, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from math import comb, factorial, sqrt

import numpy as np
import numpy.typing as npt

from big2.cards import InvalidCardError
from big2.poker.cards import Hand, format_hand, is_joker, to_cards
from big2.poker.games import GAMES, Game
from big2.poker.lookup import combinations_array
from big2.poker.native import CORE, native_reason
from big2.poker.ranges import is_range, parse_range

__all__ = ["EXACT_LIMIT", "EquityError", "EquityResult", "HandEquity", "equity"]

EXACT_LIMIT = 30_000_000
"""Most hand valuations (deals × players × the game's cost) enumerated when ``exact=None``."""
DEFAULT_TRIALS = 200_000
"""Monte Carlo deals when neither exact nor *trials* is asked for."""

Progress = Callable[[int, int], None]
"""Called with (deals done, deals in all) after each batch."""


class EquityError(ValueError):
    """Hands, board or options that cannot be dealt (the message never echoes the input)."""


@dataclass(frozen=True)
class HandEquity:
    """One hand's result: shares of deals won outright and tied, and pot equity."""

    hand: str
    combos: int
    win: float
    tie: float
    equity: float
    ci: float | None = None
    """Half-width of the 95 % confidence interval of ``equity`` (Monte Carlo only)."""
    low: float | None = None
    """Split games (``omaha8``, ``stud8``): its expected share of the low half, counting
    0 on deals where no hand makes a qualifying low (``None`` in high-only games)."""


@dataclass(frozen=True)
class EquityResult:
    """The result of :func:`equity`: one :class:`HandEquity` per hand, in order."""

    game: str
    exact: bool
    deals: int
    hands: tuple[HandEquity, ...]
    low_made: float | None = None
    """Split games: the share of deals on which some hand makes a qualifying low."""

    def table(self) -> str:
        """A text table of the results."""
        how = "exact" if self.exact else "Monte Carlo"
        lines = [f"{self.game}, {how}, {self.deals:,} deals",
                 f"{'hand':<24}{'win':>9}{'tie':>9}{'equity':>9}" + ("" if self.exact else
                                                                  "    ± (95%)")]
        if self.low_made is not None:
            lines[1] += f"{'low half':>10}"
        for h in self.hands:
            row = f"{h.hand[:24]:<24}{h.win:>9.2%}{h.tie:>9.2%}{h.equity:>9.2%}"
            if h.ci is not None:
                row += f"   ±{h.ci:.2%}"
            if h.low is not None:
                row += f"{h.low:>10.2%}"
            lines.append(row)
        if self.low_made is not None:
            lines.append(f"a qualifying low is made on {self.low_made:.2%} of deals")
        return "\n".join(lines)


@dataclass
class _Player:
    label: str
    combos: npt.NDArray[np.uint8]  # (C, L)
    masks: npt.NDArray[np.uint64]  # (C,)
    missing: int


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _cards(hand: Hand, what: str, game: Game) -> tuple[int, ...]:
    try:
        cards = to_cards(hand)
    except InvalidCardError as exc:
        raise EquityError(f"{what}: {_plain(exc)}") from None
    if any(is_joker(c) for c in cards):
        raise EquityError(f"{what}: jokers are not dealt in {game.name}")
    if len(set(cards)) != len(cards):
        raise EquityError(f"{what}: a card given twice")
    if any(c not in game.deck for c in cards):
        raise EquityError(f"{what}: a card not in the {len(game.deck)}-card deck")
    return cards


def _plain(exc: Exception) -> str:
    """An error message without the quoted input it may carry."""
    text = str(exc)
    return text.split(":")[0] if "'" in text else text


def _player(i: int, hand: Hand | Sequence[int], game: Game, used: int) -> _Player:
    what = f"hand {i + 1}"
    if isinstance(hand, str) and is_range(hand):
        if game.hole != 2:
            raise EquityError(f"{what}: ranges are for hold'em games (2 hole cards)")
        try:
            combos = [c for c in parse_range(hand)
                      if all(x in game.deck for x in c) and not _mask(c) & used]
        except ValueError as exc:
            raise EquityError(f"{what}: {exc}") from None
        if not combos:
            raise EquityError(f"{what}: no combination of the range is left to deal")
        label = ", ".join(hand.replace(",", " ").split())
        arr = np.array(combos, dtype=np.uint8)
        return _Player(label, arr, np.array([_mask(c) for c in combos], dtype=np.uint64), 0)
    cards = _cards(hand, what, game)
    hole = game.hole_size(len(cards))
    if len(cards) > hole:
        raise EquityError(f"{what}: {len(cards)} cards, {game.name} deals {hole}")
    arr = np.array([cards], dtype=np.uint8).reshape(1, len(cards))
    return _Player(format_hand(cards) or "(random)", arr,
                   np.array([_mask(cards)], dtype=np.uint64), hole - len(cards))


Shares = tuple[npt.NDArray[np.float64], npt.NDArray[np.float64] | None]
"""Pot share of each player (rows) on each deal (columns), and for split games the
share of the low half (0 on deals without a qualifying low)."""


def _shares(high: npt.NDArray[np.int16], low: npt.NDArray[np.int16] | None) -> Shares:
    """Pot shares, and low-half shares for split games (see :data:`Shares`)."""
    best = high == high.max(axis=0)
    share: npt.NDArray[np.float64] = best / best.sum(axis=0)
    if low is None:
        return share, None
    top = low.max(axis=0)
    lw = (low == top) & (top > 0)
    has = top > 0
    lshare: npt.NDArray[np.float64] = lw / np.maximum(lw.sum(axis=0), 1)
    return np.where(has, 0.5 * share + 0.5 * lshare, share), lshare


class _Tally:
    def __init__(self, players: int) -> None:
        self.n = 0
        self.win = np.zeros(players)
        self.tie = np.zeros(players)
        self.eq = np.zeros(players)
        self.sq = np.zeros(players)
        self.low = np.zeros(players)
        self.low_made = 0

    def add(self, shares: Shares) -> None:
        share, low = shares
        if low is not None:
            self.low += low.sum(axis=1)
            self.low_made += int(np.count_nonzero(low.sum(axis=0)))
        self.n += share.shape[1]
        self.win += (share == 1).sum(axis=1)
        self.tie += ((share > 0) & (share < 1)).sum(axis=1)
        self.eq += share.sum(axis=1)
        self.sq += (share * share).sum(axis=1)

    def add_ties(self, ties: npt.NDArray[np.int64], deals: int) -> None:
        """Add the core's counts: ``ties[i, k]`` deals on which player *i* was one of *k*
        with the best hand (so its share was ``1 / k``)."""
        inv = np.zeros(ties.shape[1])
        inv[1:] = 1.0 / np.arange(1, ties.shape[1])
        self.n += deals
        self.win += ties[:, 1]
        self.tie += ties[:, 2:].sum(axis=1)
        self.eq += ties @ inv
        self.sq += ties @ (inv * inv)


def _deal_values(game: Game, board: npt.NDArray[np.uint8],
                 holes: Sequence[npt.NDArray[np.uint8]], dealt: npt.NDArray[np.uint8],
                 players: Sequence[_Player], layout: Sequence[int]) -> Shares:
    """Shares for deals whose unknown cards are the columns of *dealt*, assigned by *layout*
    (-1 for the board, else the player's index)."""
    n = len(dealt)
    cols = {g: [j for j, x in enumerate(layout) if x == g] for g in range(-1, len(players))}
    full_board = np.concatenate(
        [np.broadcast_to(board, (n, board.shape[1])), dealt[:, cols[-1]]], axis=1)
    full = [np.concatenate([np.broadcast_to(h, (n, h.shape[1])), dealt[:, cols[i]]], axis=1)
            if cols[i] else h for i, h in enumerate(holes)]
    return _shares(game.highs(full_board, full), game.lows(full_board, full))


def _labels(players: Sequence[_Player], board_missing: int) -> tuple[int, ...]:
    """Who gets each dealt card in order: -1 for the board, else the player's index."""
    return (-1,) * board_missing + tuple(i for i, p in enumerate(players) for _ in range(p.missing))


def _layouts(labels: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct way to hand a set of dealt cards to the board and the players."""
    return sorted(set(permutations(labels)))


def _layout_count(labels: tuple[int, ...]) -> int:
    count = factorial(len(labels))
    for who in set(labels):
        count //= factorial(labels.count(who))
    return count


def equity(
    hands: Sequence[Hand | Sequence[int]],
    board: Hand = (),
    dead: Hand = (),
    game: str = "holdem",
    exact: bool | None = None,
    trials: int | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
    engine: str = "auto",
) -> EquityResult:
    """Win, tie and equity of two or more *hands* (cards, or hold'em ranges like ``"QQ+"``).

    *board*: community cards known so far; *dead*: cards out of play.
    *game*: one of :data:`~big2.poker.games.GAMES`.  ``exact=True`` enumerates
    every deal, ``False`` samples *trials* deals (default 200,000), ``None``
    enumerates when at most :data:`EXACT_LIMIT` valuations are needed.
    *engine*: ``"auto"`` (the compiled core where it plays the deal, unless
    ``BIG2_ENGINE=python``), ``"native"`` (the same) or ``"python"`` (NumPy only).

    >>> [round(h.equity, 3) for h in equity(["AS KD", "2C 2H"]).hands]   # a coin flip
    [0.47, 0.53]
    """
    g = GAMES.get(game)
    if g is None:
        raise EquityError(f"unknown game (use one of {', '.join(GAMES)})")
    if len(hands) < 2:
        raise EquityError("equity needs two or more hands")
    board_cards = _cards(board, "board", g)
    dead_cards = _cards(dead, "dead cards", g)
    if len(board_cards) > g.board:
        raise EquityError(f"the board has {len(board_cards)} cards, {g.name} deals {g.board}")
    fixed = _mask(board_cards) | _mask(dead_cards)
    if fixed.bit_count() != len(board_cards) + len(dead_cards):
        raise EquityError("the board and the dead cards share a card")
    explicit = 0
    players = []
    for i, h in enumerate(hands):
        p = _player(i, h, g, fixed)
        if len(p.combos) == 1:
            m = int(p.masks[0])
            if m & (fixed | explicit):
                raise EquityError(f"hand {i + 1} shares a card with another hand or the board")
            explicit |= m
        players.append(p)
    board_missing = g.board - len(board_cards)
    need = board_missing + sum(p.missing for p in players)
    left = len(g.deck) - fixed.bit_count() - sum(p.combos.shape[1] for p in players)
    if need > left:
        raise EquityError(f"{need} cards to deal but only {left} left in the deck")
    if trials is not None and trials < 1:
        raise EquityError("trials must be positive")
    labels = _labels(players, board_missing)
    tuples = int(np.prod([len(p.combos) for p in players], dtype=np.float64))
    work = tuples * comb(left, need) * _layout_count(labels) * len(players) * g.cost
    if exact is None:
        exact = trials is None and work <= EXACT_LIMIT
    bc = np.array([board_cards], dtype=np.uint8).reshape(1, len(board_cards))
    try:
        core = native_reason(engine) is None and all(p.missing == 0 for p in players)
    except ValueError as exc:
        raise EquityError(str(exc)) from None
    native = core and g.name == "holdem"
    if exact:
        if work > 1000 * EXACT_LIMIT:
            raise EquityError("too many deals to enumerate: use Monte Carlo (trials)")
        if core and g.name in ("holdem", "omaha"):
            tally = _exact_native(g, players, bc, fixed, need, progress)
        else:
            tally = _exact(g, players, bc, fixed, need, _layouts(labels), progress)
    elif native:
        tally = _monte_carlo_native(players, bc, fixed, trials or DEFAULT_TRIALS, seed, progress)
    else:
        tally = _monte_carlo(g, players, bc, fixed, need, labels,
                             trials or DEFAULT_TRIALS, seed, progress)
    if not tally.n:
        raise EquityError("no deal is possible: the ranges clash")
    n = tally.n
    out = []
    for i, p in enumerate(players):
        mean = float(tally.eq[i] / n)
        ci = None if exact else 1.96 * sqrt(max(tally.sq[i] / n - mean * mean, 0.0) / n)
        low = float(tally.low[i] / n) if g.split else None
        out.append(HandEquity(p.label, len(p.combos), float(tally.win[i] / n),
                              float(tally.tie[i] / n), mean, ci, low))
    return EquityResult(g.name, exact, n, tuple(out),
                        tally.low_made / n if g.split else None)


_CHUNK = 1 << 18


def _picks(players: Sequence[_Player], fixed: int) -> list[tuple[tuple[int, ...], int]]:
    """Every choice of one combination per player that clashes with nothing, and the
    cards it takes together with *fixed*."""
    picks = []
    for idx in product(*[range(len(p.combos)) for p in players]):
        total = fixed
        for p, j in zip(players, idx):
            m = int(p.masks[j])
            if total & m:
                break
            total |= m
        else:
            picks.append((idx, total))
    return picks


def _exact_native(g: Game, players: Sequence[_Player], board: npt.NDArray[np.uint8],
                  fixed: int, need: int, progress: Progress | None) -> _Tally:
    """:func:`_exact` for hold'em or Omaha with every hole card given, in the compiled
    core (which values each class of boards alike for every player once)."""
    tally = _Tally(len(players))
    picks = _picks(players, fixed)
    grand = comb(52 - g.hole * len(players) - fixed.bit_count(), need) * len(picks)
    run = CORE.holdem_exact if g.name == "holdem" else CORE.omaha_exact
    for idx, used in picks:
        holes = np.concatenate([p.combos[j] for p, j in zip(players, idx)])
        ties, deals, _ = run(board[0], holes.reshape(len(players), g.hole), used)
        tally.add_ties(ties, deals)
        if progress:
            progress(tally.n, grand)
    return tally


def _monte_carlo_native(players: Sequence[_Player], board: npt.NDArray[np.uint8], fixed: int,
                        trials: int, seed: int | None, progress: Progress | None) -> _Tally:
    """:func:`_monte_carlo` for hold'em with every hole card given, in the compiled core
    (its own generator, seeded from *seed*; batches of :data:`_CHUNK` × 4 deals)."""
    rng = np.random.default_rng(seed)
    tally = _Tally(len(players))
    combos = [p.combos for p in players]
    attempts = 0
    while tally.n < trials:
        b = min(4 * _CHUNK, trials - tally.n)
        # like _monte_carlo: give up after 50 draws per trial only while nothing was dealt
        budget = 50 * trials + 1 - attempts if tally.n == 0 else 1 << 62
        ties, deals, tries = CORE.holdem_monte_carlo(
            board[0], combos, fixed, b, max(budget, 0), int(rng.integers(1 << 63)))
        attempts += tries
        tally.add_ties(ties, deals)
        if progress:
            progress(tally.n, trials)
        if deals < b:
            break
    return tally


def _exact(g: Game, players: Sequence[_Player], board: npt.NDArray[np.uint8], fixed: int,
           need: int, layouts: Sequence[tuple[int, ...]], progress: Progress | None) -> _Tally:
    tally = _Tally(len(players))
    picks = _picks(players, fixed)
    if not picks:
        return tally
    rest_count = len(g.deck) - picks[0][1].bit_count()
    per_pick = comb(rest_count, need) * len(layouts)
    grand, done = per_pick * len(picks), 0
    ids = combinations_array(rest_count, need)
    for idx, used in picks:
        holes = [p.combos[j:j + 1] for p, j in zip(players, idx)]
        rest = np.array([c for c in g.deck if not used >> c & 1], dtype=np.uint8)
        for start in range(0, len(ids), _CHUNK):
            dealt = rest[ids[start:start + _CHUNK]]
            for layout in layouts:
                tally.add(_deal_values(g, board, holes, dealt, players, layout))
                done += len(dealt)
            if progress:
                progress(done, grand)
    return tally


_BIT64 = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))


def _deck_mask(deck: npt.NDArray[np.uint8]) -> np.uint64:
    return np.uint64(_mask(int(c) for c in deck))


def _deal(rng: np.random.Generator, deck: npt.NDArray[np.uint8], used: npt.NDArray[np.uint64],
          need: int) -> npt.NDArray[np.uint8]:
    """*need* distinct cards of *deck* per row, none in that row's *used* mask, in random order.

    Each row draws uniformly with replacement and draws again while a card repeats
    or is taken, which leaves every ordered choice of free cards equally likely.
    """
    out = np.empty((len(used), need), dtype=np.uint8)
    if not len(used) or not need:
        return out
    free = len(deck) - int(np.bitwise_count(used[0] & _deck_mask(deck)))
    if np.prod([(free - i) / len(deck) for i in range(need)]) < 0.2:
        # too many redraws: order random keys instead, the taken cards last
        taken = ((used[:, None] >> deck.astype(np.uint64)) & np.uint64(1)).astype(bool)
        r = rng.random((len(used), len(deck)), dtype=np.float32)
        r[taken] = 2.0
        sel = np.argpartition(r, need - 1, axis=1)[:, :need]
        order = np.argsort(np.take_along_axis(r, sel, axis=1), axis=1)
        out[:] = deck[np.take_along_axis(sel, order, axis=1)]
        return out
    todo = np.arange(len(used))
    while todo.size:
        cards = deck[rng.integers(len(deck), size=(todo.size, need), dtype=np.uint8)]
        bits = _BIT64[cards]
        drawn = np.bitwise_or.reduce(bits, axis=1)
        ok = ((drawn & used[todo]) == 0) & (np.bitwise_count(drawn) == need)
        out[todo[ok]] = cards[ok]
        todo = todo[~ok]
    return out


def _monte_carlo(g: Game, players: Sequence[_Player], board: npt.NDArray[np.uint8],
                 fixed: int, need: int, layout: tuple[int, ...], trials: int,
                 seed: int | None, progress: Progress | None) -> _Tally:
    rng = np.random.default_rng(seed)
    tally = _Tally(len(players))
    deck = np.array(g.deck, dtype=np.uint8)
    # the dealt cards come in random order, so one layout suffices
    batch = max(1000, min(_CHUNK // (1 + g.cost // 20), trials))
    attempts = 0
    while tally.n < trials:
        b = min(batch, trials - tally.n)
        acc = np.full(b, fixed, dtype=np.uint64)
        bad = np.zeros(b, dtype=bool)
        holes = []
        for p in players:
            if len(p.combos) == 1:
                holes.append(p.combos)
                acc |= p.masks[0]
                continue
            j = rng.integers(len(p.combos), size=b)
            m = p.masks[j]
            bad |= (acc & m) != 0
            acc |= m
            holes.append(p.combos[j])
        attempts += b
        keep = np.flatnonzero(~bad)
        if attempts > 50 * trials and tally.n == 0:
            break
        if not keep.size:
            continue
        holes = [h if len(h) == 1 else h[keep] for h in holes]
        dealt = _deal(rng, deck, acc[keep], need)
        tally.add(_deal_values(g, board, holes, dealt, players, layout))
        if progress:
            progress(tally.n, trials)
    return tally
