"""A deal's position: its state and its legal plays (:class:`Position`, the base
of :class:`big2.Game`), the legal plays as a :class:`LegalPlays`, why a play is
refused (:class:`IllegalPlayError`), the accessors the game offers its owner
and the :class:`~big2.view.PlayerView` it fills for one seat.

The position reads the state (hands, history, log, the trick) from its deal
(:mod:`big2.python_deal`, the reference; :mod:`big2.native_deal`, the compiled
core's, for a rule set the core plays whole) and answers what may be played now
(:meth:`Position.legal_masks`, one source of legality); the game
(:mod:`big2.game`, which imports this module, never the other way round) moves it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from big2.cards import (
    ALL_CARDS,
    CARD_SYMBOLS,
    MAX_CARDS,
    CardSet,
    Mask,
    cards_of,
    mask_of,
    parse_cards,
)
from big2.house.last_card import LastCard, announced
from big2.house.spare import spare
from big2.i18n import Refusal
from big2.native_deal import CoreDeal, PlaysBase, register_plays
from big2.native_deal import start as start_core
from big2.python_deal import Deal, PythonDeal
from big2.rules import Rules
from big2.variant import Combo, Outcome, Termination, Variant
from big2.variant.engine import Engine
from big2.variant.handplays import HandPlays
from big2.variant.hooks import INSTANT, PENALTIES
from big2.view import Action, PlayerView, Record


class IllegalPlayError(ValueError):
    """A play or pass that the rules do not allow now; the message says why."""

    __module__ = "big2.game"  # where users import it from (and tracebacks name it)


PASS_TEXT = frozenset({"", "p", "pass"})
"""The texts that name the pass (after stripping, in any case)."""


def to_mask(cards: Mask | str | Iterable[int], copies: int = 1) -> Mask:
    """A play as a mask, from a mask (:class:`CardSet`), card text (``""``, ``"p"``
    or ``"pass"`` for the pass) or card numbers; *copies*: the rule set's decks."""
    if isinstance(cards, str):
        if cards.strip().lower() in PASS_TEXT:
            return 0
        return int(parse_cards(cards, copies))
    if isinstance(cards, int):
        if cards < 0 or cards > ALL_CARDS:
            raise IllegalPlayError(f"not a set of cards: {cards!r}")
        return int(cards)
    if not isinstance(cards, Iterable):
        raise TypeError("a play is a mask (an int or CardSet), card text or card numbers, "
                        f"not a {type(cards).__name__}")
    numbers = list(cards)
    mask = mask_of(numbers)
    if mask.bit_count() != len(numbers):  # a card number given twice is one card, not two
        twice = next(c for i, c in enumerate(numbers) if c in numbers[:i])
        raise IllegalPlayError(f"card {CARD_SYMBOLS[twice]} given twice (card number {twice})")
    return mask


def not_in_deck(mask: Mask, cards: Mask) -> str:
    """Why *mask* names a card number that the deck *cards* does not have (a second
    copy with one deck, a joker in a game without): the first such number, and the
    numbers the deck has.

    >>> not_in_deck(1 << 54, (1 << 52) - 1)
    "card number 54 is not in this game's deck (its cards are numbers 0-51)"
    """
    first = cards_of(mask & ~cards)[0]
    runs: list[str] = []
    c = 0
    while c < MAX_CARDS:
        if cards >> c & 1:
            end = c
            while end + 1 < MAX_CARDS and cards >> (end + 1) & 1:
                end += 1
            runs.append(str(c) if c == end else f"{c}-{end}")
            c = end + 1
        else:
            c += 1
    return (f"card number {first} is not in this game's deck "
            f"(its cards are numbers {', '.join(runs)})")


def _names(mask: Mask) -> str:
    return " ".join(CARD_SYMBOLS[c] for c in cards_of(mask))


class _FromDeal:
    """A piece of a game's state, read from its deal (:attr:`Position._deal`); set from
    outside, it takes the game's deal out of the core first."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, game: Position | None, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(game._deal, self.name)

    def __set__(self, game: Position, value: object) -> None:
        setattr(game._in_python(), self.name, value)


class Position:
    """A deal's state, its legal plays and the accessors over them (the base of
    :class:`big2.Game`). The state is its deal's (:attr:`_deal`, a
    :class:`~big2.python_deal.Deal`: the Python reference, or the core's for a rule
    set it plays whole), read by name."""

    _deal: Deal
    """The deal in progress: a :class:`~big2.python_deal.PythonDeal` or a
    :class:`~big2.native_deal.CoreDeal`, chosen when the deal starts."""
    hands: list[Mask] = _FromDeal("hands")  # type: ignore[assignment]
    history: list[Action] = _FromDeal("history")  # type: ignore[assignment]
    """The plays and passes, in order."""
    log: list[Record] = _FromDeal("log")  # type: ignore[assignment]
    """Every action in order: plays and passes, and house-rule actions (records of
    :mod:`big2.log`); :attr:`history` holds the plays and passes alone."""
    finished: list[int] = _FromDeal("finished")  # type: ignore[assignment]
    stock: list[int] = _FromDeal("stock")  # type: ignore[assignment]
    """Cards to draw, the next one last (the Go-Fish stock)."""
    trick_start: int = _FromDeal("trick_start")  # type: ignore[assignment]
    """Where the current trick starts in :attr:`history`."""
    waive: bool = _FromDeal("waive")  # type: ignore[assignment]
    """Every seat passed the lead (finish restrictions): the restriction is waived."""
    _last: Combo | None = _FromDeal("_last")  # type: ignore[assignment]
    _last_player: int | None = _FromDeal("_last_player")  # type: ignore[assignment]
    _passed: int = _FromDeal("_passed")  # type: ignore[assignment]
    _must: Mask = _FromDeal("_must")  # type: ignore[assignment]
    _outcome: Outcome | None = _FromDeal("_outcome")  # type: ignore[assignment]
    _hp: list[HandPlays | None] = _FromDeal("_hp")  # type: ignore[assignment]

    rules: Rules
    variant: Variant
    num_players: int
    dealer: int
    seed: int | None
    rng: random.Random
    redeals: int
    names: tuple[str, ...]
    initial_hands: tuple[Mask, ...]
    to_move: int | None
    _after: tuple[tuple[int, ...], ...]
    _eng: Engine
    _inline: bool
    _filters: tuple[Callable[..., object], ...]
    _leader_arg: int | None

    # -- state -----------------------------------------------------------------

    def restart(self, hands: Sequence[Mask]) -> None:
        """Start the deal over from *hands* (house rules' redeals and swaps use it)."""
        self.initial_hands: tuple[Mask, ...] = tuple(hands)
        self.dealt = tuple(h.bit_count() for h in hands)
        if self._leader_arg is None:
            to_move, must = self.variant.deck.opening(hands, self._after[self.dealer])
        else:
            to_move, must = self._leader_arg, 0
        core = start_core(self, hands, to_move, must)
        if core is not None:
            self._use(core)
            return
        old = self.__dict__.get("_deal")
        kept = [r for r in old.log if type(r) is not Action] if old is not None else []
        deal = PythonDeal(self, hands, to_move, must, kept)
        self._use(deal)
        for start in self.variant.starters:
            start(self)
        deal.snapshot()

    def _in_python(self) -> PythonDeal:
        """The game's deal as a :class:`~big2.python_deal.PythonDeal`: a deal in the core
        is swapped for one in Python in the same state, which goes on from there."""
        deal = self._deal
        if isinstance(deal, CoreDeal):
            deal = deal.to_python()
            self._use(deal)
        return deal  # type: ignore[return-value]

    def _use(self, deal: Deal) -> None:
        """Make *deal* the game's deal, with its listing methods bound on the game itself
        (:meth:`legal_plays` and :meth:`legal_masks` are then the deal's own, a call
        made without a Python frame of the game's: they are a random player's hot calls)."""
        self._deal = deal
        # set as attributes (not through __dict__, which would make the game's attributes
        # a dict of their own: every attribute read of a game slower)
        object.__setattr__(self, "legal_plays", deal.legal_plays)
        object.__setattr__(self, "legal_masks", deal.legal_masks)

    def __getstate__(self) -> dict[str, object]:
        """The game's attributes without the deal's methods bound on it (:meth:`_use`)."""
        state = dict(self.__dict__)
        state.pop("legal_plays", None)
        state.pop("legal_masks", None)
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._use(self._deal)

    @property
    def _core(self) -> Any:
        """The core's state of the deal while the core keeps it, else ``None``."""
        deal = self._deal
        return deal.core if isinstance(deal, CoreDeal) else None

    def end(self, outcome: Outcome) -> None:
        """End the deal with *outcome*."""
        self._in_python().end(outcome)

    def plays_changed(self, seat: int) -> None:
        """*seat*'s hand changed other than by playing (a draw): list its plays afresh."""
        self._in_python().hand_changed(seat)

    # -- legal plays -------------------------------------------------------------

    def legal_masks(self) -> list[Mask]:
        """Every legal play now as a plain mask; ``0`` is the pass. Two decks:
        each set of card names once (compare with :meth:`is_legal`, or
        membership in :meth:`legal_plays`). The list is shared; do not change it.
        (A game answers this with its deal's own method, bound on it by :meth:`_use`.)"""
        return self._deal.legal_masks()

    def legal_plays(self) -> LegalPlays:
        """Every distinct legal play now as a :class:`CardSet` (the pass is
        :data:`PASS`, included when passing is allowed); ``in`` tests legality.
        (A game answers this with its deal's own method, bound on it by :meth:`_use`.)"""
        return self._deal.legal_plays()  # type: ignore[return-value]

    def is_legal(self, cards: Mask | str | Iterable[int]) -> bool:
        """Whether *cards* (``0``/``"pass"`` for a pass) may be played now."""
        try:
            self.check_play(cards)
        except (IllegalPlayError, ValueError):
            return False
        return True

    def check_play(self, cards: Mask | str | Iterable[int]) -> Combo | None:
        """Raise :class:`IllegalPlayError` with a reason if *cards* may not be
        played now; return its combination (``None`` for a legal pass). The one
        source of legality: membership in :meth:`legal_masks` by play."""
        return self._check(cards)[1]

    def _check(self, cards: Mask | str | Iterable[int]) -> tuple[Mask, Combo | None]:
        if self.to_move is None:
            raise IllegalPlayError("the deal is over")
        deck = self.variant.deck
        mask = deck.match(to_mask(cards, deck.decks), self.hands[self.to_move])
        if mask & ~deck.cards:  # a card number of no card here (a second copy of one deck)
            raise IllegalPlayError(not_in_deck(mask, deck.cards))
        keys = self._deal.play_keys()
        if self._eng.play_key(mask) in keys:
            return mask, (self._eng.as_played(mask, self._last) if mask else None)
        raise IllegalPlayError(self.refusal(mask))

    @property
    def announced(self) -> tuple[bool, ...]:
        """Per seat, whether it has announced its last card (``last_card`` rule)."""
        return announced(self)

    def can_call_last_card(self, seat: int) -> bool:
        """Whether *seat* may announce its last card now (``last_card`` rule)."""
        rule = self.variant.house_rule(LastCard)
        return rule is not None and rule.can_call(self, seat)

    def refusal(self, mask: Mask) -> str:
        """Why *mask* is not a legal play now, as a player reads it (in English; a
        :class:`~big2.i18n.Refusal` that the terminal says in its language)."""
        assert self.to_move is not None
        hand, last, eng = self.hands[self.to_move], self._last, self._eng
        if mask and mask & ~hand:
            return Refusal("notHeld", cards=_names(mask & ~hand))
        combo = eng.as_played(mask, last) or eng.classify(mask) if mask else None
        if mask and combo is None:
            return Refusal("notCombination", cards=_names(mask))
        if combo is not None and self._must and self.variant.deck.breaks_opening(mask, self._must):
            return self.variant.deck.opening_rule(self._must)
        if combo is not None and last is None and not eng.leadable(combo):
            return Refusal("smackOnly", kind=combo.kind)
        if combo is not None and last is not None and not eng.beats(combo, last):
            return self.variant.compare.reason(combo, last)
        for reason in self.variant.reasons:
            why = reason(self, mask)
            if why:
                return why if isinstance(why, str) else str(why)
        if not mask and last is None:
            return Refusal("leaderPass")
        return Refusal("notLegal")

    @property
    def leading(self) -> bool:
        """Whether the player to move leads a new trick."""
        return self._last is None

    @property
    def last_play(self) -> CardSet:
        """The play to beat (empty when leading)."""
        return CardSet(self._last.cards if self._last else 0)

    @property
    def last_combo(self) -> Combo | None:
        """The classified play to beat, or ``None`` when leading."""
        return self._last

    @property
    def last_player(self) -> int | None:
        """Who made the play to beat."""
        return self._last_player

    @property
    def must_contain(self) -> CardSet:
        """The card the next play must contain (the lowest card, first play only;
        under ``opening="alone"`` the play must be that card alone)."""
        return CardSet(self._must)

    @property
    def trick(self) -> tuple[Action, ...]:
        """The actions of the current trick."""
        return tuple(self.history[self.trick_start:])

    def hand(self, seat: int) -> CardSet:
        """The cards *seat* holds (for the game's owner; players get :meth:`view`)."""
        return CardSet(self.hands[seat])

    def card_counts(self) -> tuple[int, ...]:
        """Cards left per seat."""
        return tuple(h.bit_count() for h in self.hands)

    def played(self) -> Mask:
        """Every card played so far."""
        out = 0
        for a in self.history:
            out |= a.cards
        return out

    @property
    def aside(self) -> CardSet:
        """Cards in no hand and not played: a ghost hand, a spare, the stock
        (for the game's owner; views show only :attr:`spare` and the stock size)."""
        held = self.played()
        for h in self.hands:
            held |= h
        return CardSet(self.variant.deck.cards & ~held)

    @property
    def spare(self) -> CardSet:
        """The spare card lying face up in the middle (``spare_to="aside"``), else empty."""
        return CardSet(spare(self))

    @property
    def stock_size(self) -> int:
        """Cards left in the Go-Fish stock (0 without the rule)."""
        return len(self.stock)

    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.to_move is None

    def outcome(self) -> Outcome | None:
        """Winner, scores, finishing order and termination, or ``None`` while playing."""
        return self._outcome

    @property
    def winner(self) -> int | None:
        """The seat that went out first, once the deal is over."""
        return self._outcome.winner if self._outcome else None

    def scores(self) -> tuple[int, ...] | None:
        """Each seat's score for this deal, or ``None`` while playing."""
        return self._outcome.scores if self._outcome else None

    @property
    def instant_result(self) -> str | None:
        """How a dealt hand ended the deal at once (``'maltese'``, ``'maltese-loss'``,
        ``'four-twos'``, ``'draw'``), else ``None``."""
        t = self._outcome.termination if self._outcome else None
        return t.value if t in INSTANT else None

    @property
    def penalty(self) -> str | None:
        """``'last-card'`` or ``'assist'`` when a house-rule penalty moved the payment."""
        t = self._outcome.termination if self._outcome else None
        return t.value if t in PENALTIES else None

    @property
    def shootout(self) -> bool:
        """Teams: the deal ended in a tie and a five-card shoot-out decides it."""
        return self._outcome is not None and self._outcome.termination == Termination.SHOOTOUT

    def view(self, seat: int, *, totals: Sequence[int] = ()) -> PlayerView:
        """What *seat* may know now: its hand, counts, the table and history."""
        return self.observe(seat, totals=totals, legal=self.legal_masks() if seat == self.to_move
                            else ())

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"seat {self.to_move} to move"
        return f"<Game {self.rules!r} {state}, {len(self.history)} actions>"

    def observe(self, seat: int, *, totals: Sequence[int] = (),
                legal: Sequence[Mask] = ()) -> PlayerView:
        """Fill *seat*'s view: its hand, counts, the table and the public history.
        Another seat's cards are never named (the first play's card is shown only
        to its holder; the others see :attr:`PlayerView.opening`)."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat}")
        locked = self._passed if self.variant.turns.lock_out else 0
        return PlayerView(
            rules=self.rules, seat=seat, hand=CardSet(self.hands[seat]),
            card_counts=self.card_counts(), to_move=self.to_move, leading=self._last is None,
            last_play=self.last_play, last_player=self._last_player, trick=self.trick,
            history=tuple(self.history),
            passed=tuple(bool(locked >> s & 1) for s in range(self.num_players)),
            played=CardSet(self.played()), names=self.names, winner=self.winner,
            scores=self.scores(), totals=tuple(totals) or (0,) * self.num_players,
            finished=tuple(self.finished),
            legal=tuple(legal),
            must_contain=CardSet(self._must if seat == self.to_move else 0),
            opening=bool(self._must), announced=self.announced, stock_size=len(self.stock),
            spare=self.spare, can_announce=self.can_call_last_card(seat))

    def numbers(self) -> tuple[int, int, int, int, int, int, int, int]:
        """The table's public state as plain numbers, for batched encoders (the
        vector environment): ``(to_move, last_player, last play's cards, its
        kind, passed seats, trick leader, must-contain mask, stock size)``,
        ``-1`` or ``0`` where there is none. *passed* is a bit per seat that
        passed since the play to beat (under lock-out: in this trick); the
        trick leader made the trick's first play. The must-contain card is the
        mover's to see only.

        >>> from big2 import Game
        >>> Game(seed=5).numbers()  # seat 3 leads, and must play the 3♦ (card 0)
        (3, -1, 0, 0, 0, -1, 1, 0)
        """
        return self._deal.numbers()


class LegalPlays(PlaysBase, Sequence[CardSet]):
    """The legal plays of a position, in order, each a :class:`CardSet` (made when
    read: listing the plays costs no more than :meth:`big2.Game.legal_masks`; the
    length and the reading are C slots of the core's ``PlaysBase``).
    ``in`` is a legality test: a play is found when it is the same play as a
    listed one (with two decks, the same card names whichever copies are named).
    Compares equal to a list of the same plays."""

    __slots__ = ()

    def __init__(self, masks: Sequence[Mask], variant: Variant, hand: Mask) -> None:
        self._masks = masks
        self._variant = variant
        self._hand = hand
        self._keys = None

    def __contains__(self, cards: object) -> bool:
        if type(cards) is int or type(cards) is CardSet:
            if cards in self._masks:
                return True
        elif not isinstance(cards, (int, str)):
            return False
        deck = self._variant.deck
        try:
            mask = to_mask(cards, deck.decks)
        except ValueError:
            return False
        key = self._variant.engine.play_key
        if self._keys is None:
            self._keys = frozenset(key(m) for m in self._masks)
        return key(deck.match(mask, self._hand)) in self._keys

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalPlays):
            return list(self._masks) == list(other._masks)
        if isinstance(other, (list, tuple)):
            return list(self._masks) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return repr(list(self))


register_plays(LegalPlays)
