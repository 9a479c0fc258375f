"""A deal of Big Two: dealing, turns, legal plays, tricks, the end and scores.

>>> from big2 import Game, Rules
>>> g = Game(seed=7)
>>> g.to_move, str(g.hand(g.to_move))[:2]
(3, '3♦')
>>> g.play("3D")
>>> g.to_move
0
>>> g.play("3D")
Traceback (most recent call last):
...
big2.game.IllegalPlayError: you do not hold 3♦
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cache
from typing import NamedTuple

from big2.cards import (
    ALL_CARDS,
    BB_RANKS,
    CARD_SYMBOLS,
    DECK_SIZE,
    FULL_DECK,
    RANK_MASKS,
    TWO,
    CardSet,
    Mask,
    cards_of,
    deck_mask,
    mask_of,
    match_copies,
    parse_cards,
)
from big2.combos import Combo, Engine, Kind, engine
from big2.rules import Rules
from big2.scoring import score
from big2.view import Action, PlayerView

PASS = CardSet(0)
"""The pass, as a play: the empty card set."""

_TWO_SPADES = 1 << (TWO * 4 + 3) | 1 << (TWO * 4 + 3 + DECK_SIZE)  # either deck's
_DEFAULT_RULES = Rules()


class IllegalPlayError(ValueError):
    """A play or pass that the rules do not allow now; the message says why."""


class Outcome(NamedTuple):
    """How a deal ended: who went out first, the scores, the finishing order."""

    winner: int
    scores: tuple[int, ...]
    finished: tuple[int, ...]


def _to_mask(cards: Mask | str | Iterable[int], copies: int = 1) -> Mask:
    if isinstance(cards, str):
        if cards.strip().lower() in ("", "p", "pass"):
            return 0
        return int(parse_cards(cards, copies))
    if isinstance(cards, int):
        if cards < 0 or cards > ALL_CARDS:
            raise IllegalPlayError(f"not a set of cards: {cards!r}")
        return int(cards)
    return mask_of(cards)


_POINTS = {8: 1, 9: 2, 10: 3, 11: 4, 12: 5}  # J Q K A 2


def hand_points(hand: Mask) -> int:
    """A hand's worth for the weak-hand redeal: J=1, Q=2, K=3, A=4, 2=5.

    >>> hand_points(int(parse_cards("3D 4C JH 9S")))
    1
    """
    return sum(_POINTS.get(r, 0) * (hand & RANK_MASKS[r]).bit_count() for r in _POINTS)


def must_redeal(rules: Rules, hand: Mask) -> bool:
    """Whether *hand* forces a redeal: no face cards (``redeal`` no-face) or
    all four 2s (``four_twos="redeal"``); a weak hand is the holder's choice."""
    face = RANK_MASKS[8] | RANK_MASKS[9] | RANK_MASKS[10]
    return (("no-face" in rules.redeal and not hand & face)
            or (rules.four_twos == "redeal" and (hand & RANK_MASKS[TWO]).bit_count() >= 4))


def deal(rules: Rules, rng: random.Random, dealer: int = 0) -> list[Mask]:
    """Shuffle and deal one hand per seat, starting left of *dealer*.

    Dealt evenly, the left-over cards go to the holder of the lowest card
    (the next-lowest if the lowest is left over); ``13-each`` sets the rest
    aside. Under the ``redeal`` rules a deal with a hand that forces a redeal
    is dealt again from the same random stream.
    """
    hands = _deal_once(rules, rng, dealer)
    if rules.redeal or rules.four_twos == "redeal":
        for _ in range(10_000):
            if not any(must_redeal(rules, h) for h in hands):
                break
            hands = _deal_once(rules, rng, dealer)
    return hands


def _deal_once(rules: Rules, rng: random.Random, dealer: int) -> list[Mask]:
    n = rules.players
    step = -1 if rules.direction == "clockwise" else 1
    # a uniform shuffle: sort the cards by independent random keys (several
    # times faster than random.shuffle in pure Python; ties have probability ~0)
    cards = cards_of(deck_mask(rules.decks, rules.jokers != "none"))
    keys = [rng.random() for _ in cards]
    deck = [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]
    per = 13 if rules.deal == "13-each" else len(cards) // n
    hands = [0] * n
    for i in range(n):
        seat = (dealer + step * (1 + i)) % n
        h = 0
        for c in deck[i : per * n : n]:
            h |= 1 << c
        hands[seat] = h
    if rules.deal == "even" and per * n < len(cards):
        dealt = [c for c in engine(rules).by_strength if any(h >> c & 1 for h in hands)]
        if rules.spare_to != "aside":
            card = dealt[0] if rules.spare_to == "lowest" else dealt[-1]
            # with two decks, of two holders the first from the dealer's left
            holder = next(s for s in _seats_after(n, rules.direction)[dealer % n]
                          if hands[s] & _copies(1 << card))
            for c in deck[per * n:]:
                hands[holder] |= 1 << c
    return hands


def _copies(card: Mask) -> Mask:
    """A one-card mask with the card's copy in the other deck added."""
    return card | card << DECK_SIZE | card >> DECK_SIZE


@cache
def _seats_after(n: int, direction: str) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats after it in the direction of play (itself last)."""
    step = -1 if direction == "clockwise" else 1
    return tuple(tuple((s + step * k) % n for k in range(1, n + 1)) for s in range(n))


class Game:
    """One deal. Mutable, with a history that :meth:`undo` walks back.

    Args:
        rules: the rule set (default: the classic game).
        players: number of seats, overriding ``rules.players``.
        seed: seeds the shuffle, so a deal replays exactly.
        hands: deal these hands instead (masks, card text or card lists).
        dealer: the dealer's seat (the deal starts on its left).
        leader: the seat that leads freely; by default the holder of the
            lowest dealt card leads and must play that card.
        names: seat names.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        players: int | None = None,
        *,
        seed: int | None = None,
        hands: Sequence[Mask | str | Iterable[int]] | None = None,
        dealer: int = 0,
        leader: int | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        rules = rules or _DEFAULT_RULES
        if players is not None and players != rules.players:
            rules = rules.replace(players=players)
        if hands is not None:
            rules = rules if len(hands) == rules.players else rules.replace(players=len(hands))
        self.rules = rules
        self._eng: Engine = engine(rules)
        self._wild = rules.extended_deck
        n = self.num_players = rules.players
        self._rng = random.Random(seed)
        self.redeals = 0
        """How many times a weak hand was thrown in (:meth:`throw_in`)."""
        if hands is None:
            dealt = deal(rules, self._rng, dealer)
        else:
            dealt = [_to_mask(h, rules.decks) for h in hands]
            outside = [c for h in dealt for c in cards_of(h & ~self._eng.deck_cards)]
            if outside:
                raise ValueError("not in this game's deck: "
                                 + " ".join(CARD_SYMBOLS[c] for c in outside))
            seen = 0
            for i, h in enumerate(dealt):
                if h & seen and rules.decks > 1:  # a card in two hands: the second deck's copy
                    for c in cards_of(h & seen & ((1 << DECK_SIZE) - 1)):
                        h ^= 1 << c | 1 << (c + DECK_SIZE)
                    dealt[i] = h
                if h & seen:
                    raise ValueError("the same card is in two hands: "
                                     + " ".join(CARD_SYMBOLS[c] for c in cards_of(h & seen)))
                seen |= h
        if not all(dealt):
            raise ValueError("every seat must be dealt at least one card")
        if leader is not None and not 0 <= leader < n:
            raise ValueError(f"leader must be a seat 0..{n - 1}")
        self.seed = seed
        self.dealer = dealer % n
        self.names = tuple(names) if names else tuple(f"Player {i + 1}" for i in range(n))
        if len(self.names) != n:
            raise ValueError(f"{n} names needed, got {len(self.names)}")
        self.initial_hands: tuple[Mask, ...] = tuple(dealt)
        self._stock0: tuple[int, ...] = self._make_stock() if rules.go_fish else ()
        self._jump_back = rules.passing == "jump-back"
        self._plain_follow = rules.five_card_compare != "same-kind" and self._eng.plain
        self._ranking = rules.scoring == "ranking"
        self._after = _seats_after(n, rules.direction)
        self._one_pass = rules.trick_end == "one-pass"
        # house rules checked on a pass (one-pass trick end, Go-Fish draw), and
        # those that change the listed legal plays (finish restrictions, three 3s)
        self._pass_rules = self._one_pass or rules.go_fish
        self._post_legal = self._eng.restrictions or rules.three_threes
        self.dealt = tuple(h.bit_count() for h in dealt)
        self._leader_arg = leader
        self._reset()

    # -- state ---------------------------------------------------------------

    def _reset(self) -> None:
        self.hands: list[Mask] = list(self.initial_hands)
        self.history: list[Action] = []
        self.finished: list[int] = []
        self._last: Combo | None = None
        self._last_player: int | None = None
        self._passed = 0
        self._trick_start = 0
        self._lead_passes = 0
        self._waive = False
        self._legal: list[Mask] | None = None
        self._outcome: Outcome | None = None
        # each seat's plays (Engine.hand_plays), kept up to date by filtering
        self._hp: list[tuple[list[int], ...] | None] = [None] * self.num_players
        self._calls: list[tuple[int, int]] = []  # last-card calls: (seat, actions before it)
        self._stock: list[int] = list(self._stock0)  # Go-Fish: drawn from the end
        self.penalty: str | None = None
        self.shootout = False
        """Teams: the deal ended in a tie and a five-card shoot-out decides it."""
        """Set when a house-rule penalty changed the scores: ``'last-card'`` or ``'assist'``."""
        if self._leader_arg is None:
            self._must = low = self._low_card_mask()
            if self.rules.decks > 1:  # both copies dealt: the first holder from the dealer's left
                low = _copies(low)
            self.to_move: int | None = next(s for s in self._after[self.dealer]
                                            if self.hands[s] & low)
            self._must = self.hands[self.to_move] & low
            self._must &= -self._must
        else:
            self._must = 0
            self.to_move = self._leader_arg
        self.instant_result: str | None = None
        """Set when a dealt hand ended the deal at once: ``'maltese'``,
        ``'maltese-loss'``, ``'four-twos'`` or ``'draw'``."""
        if self.rules.maltese or self.rules.four_twos in ("win", "draw"):
            self._check_instant()

    def _check_instant(self) -> None:
        """End the deal before any play if a hand is an instant result."""
        rules = self.rules
        first = self.to_move or 0
        for seat in (first, *self._after[first][:-1]):  # the leader first, then in turn
            hand = self.hands[seat]
            counts = sorted((((hand >> (4 * r)) & 15).bit_count() for r in range(13)), reverse=True)
            if rules.maltese and hand.bit_count() == 13 and counts[:7] == [2] * 6 + [1]:
                if hand & BB_RANKS[0] and ((hand & BB_RANKS[0]).bit_count() == 2):
                    self._instant_finish(seat, "maltese-loss")
                else:
                    self._instant_finish(seat, "maltese")
                return
            if hand & BB_RANKS[TWO] == BB_RANKS[TWO] and rules.four_twos in ("win", "draw"):
                self._instant_finish(seat, "four-twos" if rules.four_twos == "win" else "draw")
                return

    def _instant_finish(self, seat: int, result: str) -> None:
        """Score an instant result (see docs/house-rules.md) and end the deal."""
        n = self.num_players
        self.instant_result = result
        others = [s for s in self._after[seat] if s != seat]
        if result == "draw":
            self._outcome = Outcome(seat, (0,) * n, ())
        elif result == "maltese-loss":
            # the holder pays every other player what its whole hand would pay a winner
            alone = [0] * n
            alone[seat] = self.hands[seat]
            paid = -score(self.rules, alone, others[0], 0, dealt=self.dealt)[seat]
            if self.rules.scoring == "ranking":
                scores = tuple(n - 1 - (others + [seat]).index(s) for s in range(n))
            elif self.rules.scoring == "penalty":
                scores = tuple(-paid if s == seat else 0 for s in range(n))
            else:
                scores = tuple(-paid * (n - 1) if s == seat else paid for s in range(n))
            self._outcome = Outcome(others[0], scores, tuple(others))
        else:  # the holder wins as if it went out at once
            hands = list(self.hands)
            hands[seat] = 0
            scores = score(self.rules, hands, seat, 0, dealt=self.dealt, finished=[seat])
            self._outcome = Outcome(seat, scores, (seat,))
        self.to_move = None

    @property
    def announced(self) -> tuple[bool, ...]:
        """Per seat, whether it has announced its last card (``last_card`` rule)."""
        called = {s for s, _ in self._calls}
        return tuple(s in called for s in range(self.num_players))

    def can_call_last_card(self, seat: int) -> bool:
        """Whether *seat* may announce its last card now: the ``last_card`` rule
        is on, the deal goes on, the seat holds one card and has not announced."""
        return (self.rules.last_card and self.to_move is not None
                and self.hands[seat].bit_count() == 1 and not self.announced[seat])

    def call_last_card(self, seat: int) -> None:
        """Announce that *seat* has one card left (any time while it holds one).

        Under the ``last_card`` rule a player who goes out without having
        announced pays the others instead of being paid. Drivers that ignore
        the rule are never affected while it is off.
        """
        if not self.can_call_last_card(seat):
            raise IllegalPlayError("a last card may be announced only under the last_card rule, "
                                   "by a player holding one card who has not announced yet")
        self._calls.append((seat, len(self.history)))

    def _make_stock(self) -> tuple[int, ...]:
        """Go-Fish: the undealt cards, in the order they will be drawn."""
        left = [c for c in range(52) if not any(h >> c & 1 for h in self.initial_hands)]
        # its own stream, from the seed: the same whether the game dealt the
        # hands or was given them (records replay by hands and seed)
        rng = self._rng if self.seed is None else random.Random(f"stock:{self.seed}:{self.redeals}")
        rng.shuffle(left)
        return tuple(left)

    @property
    def stock_size(self) -> int:
        """Cards left in the Go-Fish stock (0 without the rule)."""
        return len(self._stock)

    @property
    def aside(self) -> CardSet:
        """Cards in no hand and not played: a ghost hand, a spare, the stock
        (for the game's owner; views show only :attr:`spare` and the stock size)."""
        held = self.played()
        for h in self.hands:
            held |= h
        return CardSet(self._eng.deck_cards & ~held)

    @property
    def spare(self) -> CardSet:
        """The spare card lying face up in the middle (``spare_to="aside"``), else empty."""
        if self.rules.spare_to != "aside" or self.rules.go_fish or self.rules.deal != "even":
            return CardSet(0)
        return self.aside

    def can_swap_spare(self, seat: int) -> bool:
        """Whether *seat* may swap the lowest card for the face-up spare now."""
        spare = self.spare
        return (self.rules.spare_swap and bool(spare) and not self.history
                and self.to_move is not None and bool(self.hands[seat] & self._low_card_mask()))

    def swap_spare(self, seat: int) -> None:
        """Swap *seat*'s lowest card (3♦) for the face-up spare; the lowest card
        then lies in the middle and the lowest card still dealt leads."""
        if not self.can_swap_spare(seat):
            raise IllegalPlayError("only the lowest card's holder may swap it for the face-up "
                                   "spare, before play, under spare_to=aside and spare_swap")
        low = self._low_card_mask()
        hands = list(self.initial_hands)
        hands[seat] = hands[seat] & ~low | int(self.spare)
        self.initial_hands = tuple(hands)
        self._reset()

    def can_throw_in(self, seat: int) -> bool:
        """Whether *seat* may throw in its hand now: the ``weak`` redeal rule
        is on, no one has acted yet and the hand is worth 3 points or less."""
        return ("weak" in self.rules.redeal and not self.history and self.to_move is not None
                and hand_points(self.hands[seat]) <= 3)

    def throw_in(self, seat: int) -> None:
        """Throw in *seat*'s weak hand: the cards are dealt again (from the
        game's random stream) and the deal starts over. The holder's choice;
        drivers that never call it simply play the hand."""
        if not self.can_throw_in(seat):
            raise IllegalPlayError(
                "a hand may be thrown in only under the weak-hand redeal rule, before the first "
                "play, when it is worth 3 points or less (J=1 Q=2 K=3 A=4 2=5)")
        self.initial_hands = tuple(deal(self.rules, self._rng, self.dealer))
        self.dealt = tuple(h.bit_count() for h in self.initial_hands)
        self.redeals += 1
        if self.rules.go_fish:
            self._stock0 = self._make_stock()
        self._reset()

    @property
    def leading(self) -> bool:
        """Whether the player to move leads a new trick."""
        return self._last is None

    @property
    def last_play(self) -> CardSet:
        """The play to beat (empty when leading)."""
        return CardSet(self._last.cards if self._last else 0)

    @property
    def must_contain(self) -> CardSet:
        """The card the next play must contain (the lowest card, first play only)."""
        return CardSet(self._must)

    @property
    def last_combo(self) -> Combo | None:
        """The classified play to beat, or ``None`` when leading."""
        return self._last

    @property
    def last_player(self) -> int | None:
        """Who made the play to beat."""
        return self._last_player

    def hand(self, seat: int) -> CardSet:
        """The cards *seat* holds (for the game's owner; players get :meth:`view`)."""
        return CardSet(self.hands[seat])

    def card_counts(self) -> tuple[int, ...]:
        """Cards left per seat."""
        return tuple(h.bit_count() for h in self.hands)

    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.to_move is None

    @property
    def winner(self) -> int | None:
        """The seat that went out first, once the deal is over."""
        return self._outcome.winner if self._outcome else None

    def outcome(self) -> Outcome | None:
        """Winner, scores and finishing order, or ``None`` while playing."""
        return self._outcome

    def scores(self) -> tuple[int, ...] | None:
        """Each seat's score for this deal, or ``None`` while playing."""
        return self._outcome.scores if self._outcome else None

    # -- legal plays -----------------------------------------------------------

    def _restricted(self, play: Mask) -> bool:
        """Whether going out with *play* is barred by ``finish_restrictions``."""
        res = self.rules.finish_restrictions
        twos = play & RANK_MASKS[TWO]
        n = play.bit_count()
        return (("any-2" in res and twos != 0)
                or ("single-2" in res and n == 1 and twos != 0)
                or ("pair-2" in res and n == 2 and twos.bit_count() == 2)
                or ("2S" in res and play & _TWO_SPADES != 0))

    def legal_masks(self) -> list[Mask]:
        """Every legal play now as a plain mask; ``0`` is the pass.

        The returned list is shared; do not change it.
        """
        if self._legal is not None:
            return self._legal
        if self.to_move is None:
            self._legal = []
            return self._legal
        seat = self.to_move
        hand = self.hands[seat]
        hp = self._hp[seat]
        if hp is None:
            hp = self._hp[seat] = self._eng.hand_plays(hand)
        last = self._last
        if last is None:
            plays = self._eng.leads_from(hp)
            if self._must:
                must = self._must
                plays = [p for p in plays if p & must]
        elif self._plain_follow:
            # inline Engine.follows_from: the plays of that size above the last one
            group = hp[self._last_size]
            plays = [p & FULL_DECK for p in group[bisect_right(group, self._follow_key):]]
        else:
            plays = self._eng.follows_from(hp, last)
        if self._post_legal:
            plays = self._house_legal(plays, hand)
        elif last is not None or not plays:
            plays.append(0)  # every list above is freshly built
        self._legal = plays
        return plays

    def _house_legal(self, plays: list[Mask], hand: Mask) -> list[Mask]:
        """Finish restrictions, the pass, and the three-3s rule on a fresh list."""
        if self._eng.restrictions and not self._waive and hand.bit_count() <= 5:
            plays = [p for p in plays if p != hand or not self._restricted(p)]
        if self._last is not None or not plays:
            plays.append(0)
        if self.rules.three_threes:
            self._extra_legal(plays)
        return plays

    def _extra_legal(self, plays: list[Mask]) -> None:
        """Apply the house rules that change a listed set of legal plays in place."""
        last = self._last
        if (self.rules.three_threes and last is not None and plays[-1] == 0 and len(plays) > 1
                and last.cards & RANK_MASKS[0] == last.cards and last.kind == Kind.TRIPLE
                and self.history[self._trick_start].cards == last.cards
                and all(p & RANK_MASKS[TWO] == p for p in plays[:-1])):
            plays.pop()  # three 2s are the only play on the led three 3s: no pass

    def legal_plays(self) -> list[CardSet]:
        """Every distinct legal play now as a :class:`CardSet`; the pass is
        :data:`PASS` (empty) and is included when passing is allowed."""
        return [CardSet(m) for m in self.legal_masks()]

    def is_legal(self, cards: Mask | str | Iterable[int]) -> bool:
        """Whether *cards* (``0``/``"pass"`` for a pass) may be played now."""
        try:
            self.check_play(cards)
        except (IllegalPlayError, ValueError):
            return False
        return True

    def check_play(self, cards: Mask | str | Iterable[int]) -> Combo | None:
        """Raise :class:`IllegalPlayError` with a reason if *cards* may not be
        played now; return its combination (``None`` for a legal pass)."""
        if self.to_move is None:
            raise IllegalPlayError("the deal is over")
        mask = _to_mask(cards, self.rules.decks)
        seat = self.to_move
        hand = self.hands[seat]
        if mask & ~hand and self.rules.decks > 1:
            mask = match_copies(mask, hand) or mask
        if mask == 0:
            legal = self.legal_masks()
            if legal and legal[-1] == 0:
                return None
            if self._last is None:
                raise IllegalPlayError("the leader cannot pass: play any combination")
            raise IllegalPlayError("you may not pass: three 2s are your only play on the led "
                                   "three 3s (three_threes rule)")
        if mask & ~hand:
            raise IllegalPlayError(
                "you do not hold " + " ".join(CARD_SYMBOLS[c] for c in cards_of(mask & ~hand)))
        combo = self._eng.classify(mask)
        if combo is not None and self._wild and self._last is not None:
            combo = self._eng.as_played(mask, self._last) or combo
        if combo is None:
            raise IllegalPlayError("not a combination under these rules: "
                                   + " ".join(CARD_SYMBOLS[c] for c in cards_of(mask)))
        if self._must and not mask & _copies(self._must):
            low = CARD_SYMBOLS[self._must.bit_length() - 1]
            raise IllegalPlayError(f"the first play must contain {low}")
        last = self._last
        if last is None and not self._eng.leadable(combo):
            raise IllegalPlayError(f"a {combo.kind.label} may only be played as a smack-down, "
                                   "on a single 2 or on another smack-down")
        if last is not None and not self._eng.beats(combo, last):
            if combo.size != last.size:
                raise IllegalPlayError(
                    f"a {combo.kind.label} cannot be played on a {last.kind.label}: "
                    f"play {last.size} card{'s' if last.size > 1 else ''} or pass")
            what = " ".join(CARD_SYMBOLS[c] for c in cards_of(last.cards))
            if (last.size == 5 and self.rules.five_card_compare == "same-kind"
                    and combo.kind != last.kind):
                raise IllegalPlayError(f"no poker: only a {last.kind.label} may follow {what}")
            raise IllegalPlayError(f"does not beat {what}")
        if mask == hand and self.rules.finish_restrictions and not self._waive and self._restricted(mask):
            raise IllegalPlayError("you may not go out on that play under these rules ("
                                   + ", ".join(self.rules.finish_restrictions) + ")")
        return combo

    # -- actions ---------------------------------------------------------------

    def play(self, cards: Mask | str | Iterable[int]) -> None:
        """Play *cards* (a mask, :class:`CardSet`, card text or card numbers).

        An empty play (``0``, ``""``, ``"pass"``) passes. Raises
        :class:`IllegalPlayError` with a reason if the play is not allowed.
        """
        legal = self._legal
        if cards == 0 and legal and legal[-1] == 0:
            assert self.to_move is not None
            self._do_pass(self.to_move)
            return
        if legal is not None and type(cards) is int and cards in legal:
            # fast path: one of the listed legal plays (bots, self-play)
            assert self.to_move is not None
            if cards:
                combo = (self._eng.as_played(cards, self._last) if self._wild
                         else self._eng.classify(cards))
                self._do_play(self.to_move, cards, combo)  # type: ignore[arg-type]
            else:
                self._do_pass(self.to_move)
            return
        mask = _to_mask(cards, self.rules.decks)
        if mask == 0:
            self.pass_turn()
            return
        if self.rules.decks > 1 and self.to_move is not None:
            mask = match_copies(mask, self.hands[self.to_move]) or mask
        combo = self.check_play(mask)
        assert combo is not None and self.to_move is not None
        self._do_play(self.to_move, mask, combo)

    def pass_turn(self) -> None:
        """Pass. Raises :class:`IllegalPlayError` for a leader who can play."""
        self.check_play(0)
        assert self.to_move is not None
        self._do_pass(self.to_move)

    def _do_pass(self, seat: int) -> None:
        self.history.append(Action(seat, 0))
        self._legal = None
        if self._pass_rules and self._stock:  # Go-Fish: the passing player draws
            self.hands[seat] |= 1 << self._stock.pop()
            self._hp[seat] = None
        if self._last is None:  # a leader with no legal play (finish restrictions)
            self._lead_passes += 1
            if self._lead_passes >= sum(1 for h in self.hands if h):
                self._waive = True
            self.to_move = self._next_active(seat)
            return
        self._passed |= 1 << seat
        if self._pass_rules and self._one_pass:
            self._end_trick()
            return
        self._advance(seat)

    def _do_play(self, seat: int, mask: Mask, combo: Combo) -> None:
        self.hands[seat] &= ~mask
        hp = self._hp[seat]
        if hp is not None:
            # with two decks a play may move onto the other copy of a played card
            self._hp[seat] = (self._eng.after_play(hp, mask, self.hands[seat])
                              if self._wild else Engine.without(hp, mask))
        self.history.append(Action(seat, mask))
        self._legal = None
        self._last = combo
        self._last_player = seat
        size = mask.bit_count()
        self._last_size = size if size <= 5 else 0
        self._follow_key = (combo.power << 52) | FULL_DECK
        self._must = 0
        self._lead_passes = 0
        self._waive = False
        if self._jump_back:
            self._passed = 0
        if not self.hands[seat]:
            self.finished.append(seat)
            active = sum(1 for h in self.hands if h)
            if not self._ranking or active <= 1:
                self._finish(mask)
                return
        self._advance(seat)

    def _next_active(self, seat: int) -> int:
        for s in self._after[seat]:
            if self.hands[s]:
                return s
        raise AssertionError("no seat has cards")

    def _advance(self, seat: int) -> None:
        """Give the turn to the next seat still in the trick, or end the trick."""
        last = self._last_player
        assert last is not None
        passed = self._passed
        hands = self.hands
        for s in self._after[seat]:
            if s != last and hands[s] and not passed >> s & 1:
                self.to_move = s
                return
        # every other seat with cards has passed: the trick ends
        self._end_trick()

    def _end_trick(self) -> None:
        """End the trick: its last player (or the next seat with cards) leads."""
        last = self._last_player
        assert last is not None
        hands = self.hands
        self._last = None
        self._last_player = None
        self._passed = 0
        self._trick_start = len(self.history)
        self.to_move = last if hands[last] else self._next_active(last)

    def _finish(self, last_play: Mask) -> None:
        winner = self.finished[0]
        scores = score(self.rules, self.hands, winner, last_play,
                       dealt=self.dealt, finished=self.finished)
        if self.rules.last_card or self.rules.assist_penalty:
            scores = self._house_penalties(winner, last_play, scores)
        if self.rules.teams and self.num_players == 4:
            scores = self._team_scores(winner)
        self._outcome = Outcome(winner, scores, tuple(self.finished))
        self.to_move = None

    def _team_scores(self, winner: int) -> tuple[int, ...]:
        """Teams: partners opposite; the team with fewer cards left wins by the
        difference (each partner scores it); a tie scores 0 and calls for a
        five-card shoot-out (:attr:`shootout`, :meth:`shootout_game`)."""
        left = [h.bit_count() for h in self.hands]
        diff = (left[1] + left[3]) - (left[0] + left[2])  # > 0: seats 0 and 2 win
        self.shootout = diff == 0
        return (diff, -diff, diff, -diff)

    def shootout_game(self) -> Game:
        """Teams: the five-card shoot-out that decides a tied deal: five fresh
        cards each (from this game's random stream), lowest card leads, same
        teams; a tie there calls for another."""
        if not self.shootout:
            raise ValueError("no shoot-out: the deal is not a tie between the teams")
        keys = [self._rng.random() for _ in range(52)]
        deck = sorted(range(52), key=keys.__getitem__)
        hands = [sum(1 << c for c in deck[5 * s : 5 * s + 5]) for s in range(4)]
        return Game(self.rules, seed=self._rng.getrandbits(64), hands=hands, dealer=self.dealer,
                    names=self.names)

    def _house_penalties(self, winner: int, last_play: Mask,
                         scores: tuple[int, ...]) -> tuple[int, ...]:
        """Apply the last-card and assistance penalties to a deal's *scores*."""
        rules = self.rules
        n = self.num_players
        out_play = next(a.cards for a in reversed(self.history) if a.seat == winner and a.cards)
        if rules.last_card and out_play.bit_count() == 1 and not self.announced[winner]:
            self.penalty = "last-card"
            if rules.scoring == "ranking":
                order = [s for s in self.finished if s != winner]
                order += sorted((s for s in range(n) if s not in order and s != winner),
                                key=lambda s: self.hands[s].bit_count())
                order.append(winner)
                return tuple(n - 1 - order.index(s) for s in range(n))
            if rules.scoring == "penalty":
                return tuple(sum(scores) if s == winner else 0 for s in range(n))
            return tuple(-x for x in scores)  # the winner pays each loser its figure
        if rules.assist_penalty and out_play == last_play and last_play.bit_count() == 1 \
                and rules.scoring != "ranking" and len(self.history) >= 2:
            before = self.history[-2]
            if before.cards.bit_count() == 1 and before.seat != winner:
                strength = self._eng.strength
                top = strength[last_play.bit_length() - 1]
                if any(strength[c] > top for c in cards_of(self.hands[before.seat])):
                    self.penalty = "assist"
                    owed = sum(x for s, x in enumerate(scores) if s != winner)
                    return tuple(scores[winner] if s == winner else owed if s == before.seat
                                 else 0 for s in range(n))
        return scores

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self.history:
            raise IndexError("nothing to undo")
        actions = self.history[:-1]
        undone = self.history[-1]
        calls = [c for c in self._calls if c[1] < len(self.history)]
        self._reset()
        for seat, ply in calls:
            if ply == 0:
                self._calls.append((seat, ply))
        for i, a in enumerate(actions):
            self._replay((a,))
            self._calls += [c for c in calls if c[1] == i + 1]
        return undone

    def _replay(self, actions: Iterable[Action]) -> None:
        """Apply recorded actions without re-checking them."""
        for a in actions:
            if a.cards:
                combo = (self._eng.as_played(a.cards, self._last) if self._wild
                         else self._eng.classify(a.cards))
                if combo is None:
                    raise IllegalPlayError(f"not a combination: {a}")
                self._do_play(a.seat, a.cards, combo)
            else:
                self._do_pass(a.seat)

    @classmethod
    def from_view(cls, view: PlayerView, hands: Sequence[Mask]) -> Game:
        """A game in *view*'s position with *hands* as every seat's current
        cards (``hands[view.seat]`` must be the view's own hand): the way a
        search bot plays out one guess of the hidden cards.

        The deal is rebuilt by giving each seat back the cards it played and
        replaying the public history.
        """
        if len(hands) != view.num_players:
            raise ValueError(f"{view.num_players} hands needed")
        if int(hands[view.seat]) != int(view.hand):
            raise ValueError("hands[view.seat] must be the view's own hand")
        for s, h in enumerate(hands):
            if int(h).bit_count() != view.card_counts[s]:
                raise ValueError(f"seat {s} must hold {view.card_counts[s]} cards")
        start = [int(h) for h in hands]
        for a in view.history:
            start[a.seat] |= a.cards
        if view.history:
            first = view.history[0].seat
        else:
            first = view.to_move if view.to_move is not None else 0
        g = cls(view.rules, hands=start, leader=first, names=view.names)
        if not view.history and view.must_contain:
            g._must = int(view.must_contain)
        elif view.history and view.history[0].cards & _copies(g._low_card_mask()):
            g._must = view.history[0].cards & _copies(g._low_card_mask())
            g._must &= -g._must
        g._stock = []  # the drawn cards are in the guessed hands already
        g._replay(view.history)
        if view.stock_size:  # Go-Fish: guess the stock from the unseen cards
            unseen = FULL_DECK & ~int(view.played) & ~int(view.spare)
            for h in hands:
                unseen &= ~int(h)
            left = cards_of(unseen)
            random.shuffle(left)
            g._stock = left[:view.stock_size]
        g._calls = [(s, len(view.history)) for s, called in enumerate(view.announced) if called]
        return g

    def _low_card_mask(self) -> Mask:
        dealt = 0
        for h in self.initial_hands:
            dealt |= h
        for c in self._eng.by_strength:
            if dealt >> c & 1:
                return 1 << c
        raise AssertionError("no card dealt")

    def copy(self) -> Game:
        """An independent copy of this game in its current position."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.hands = list(self.hands)
        g.history = list(self.history)
        g.finished = list(self.finished)
        g._stock = list(self._stock)
        g._calls = list(self._calls)
        g._hp = list(self._hp)
        g._legal = None
        return g

    # -- views -------------------------------------------------------------------

    @property
    def trick(self) -> tuple[Action, ...]:
        """The actions of the current trick."""
        return tuple(self.history[self._trick_start:])

    def played(self) -> Mask:
        """Every card played so far."""
        out = 0
        for a in self.history:
            out |= a.cards
        return out

    def view(self, seat: int, *, totals: Sequence[int] = ()) -> PlayerView:
        """What *seat* may know now: its hand, counts, the table and history."""
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat}")
        locked = self._passed if self.rules.passing == "lock-out" else 0
        return PlayerView(
            rules=self.rules,
            seat=seat,
            hand=CardSet(self.hands[seat]),
            card_counts=self.card_counts(),
            to_move=self.to_move,
            leading=self._last is None,
            last_play=self.last_play,
            last_player=self._last_player,
            trick=self.trick,
            history=tuple(self.history),
            passed=tuple(bool(locked >> s & 1) for s in range(self.num_players)),
            played=CardSet(self.played()),
            names=self.names,
            winner=self.winner,
            scores=self.scores(),
            totals=tuple(totals) or (0,) * self.num_players,
            finished=tuple(self.finished),
            legal=tuple(self.legal_masks()) if seat == self.to_move else (),
            must_contain=CardSet(self._must),
            announced=self.announced,
            stock_size=len(self._stock),
            spare=self.spare,
            can_announce=self.can_call_last_card(seat),
        )

    def __repr__(self) -> str:
        state = "over" if self.is_over() else f"seat {self.to_move} to move"
        return f"<Game {self.rules!r} {state}, {len(self.history)} actions>"


def kind_name(cards: Mask, rules: Rules) -> str:
    """A play's kind as players say it (``'pair'``), or ``'pass'``."""
    if not cards:
        return "pass"
    combo = engine(rules).classify(cards)
    return combo.kind.label if combo else "not a play"


__all__ = ["PASS", "Game", "IllegalPlayError", "Kind", "Outcome", "deal", "hand_points",
           "kind_name", "must_redeal"]
