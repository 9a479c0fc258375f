"""The :class:`GameRecord`: one whole deal as data, built from and into games.

A record holds what is needed to replay a deal exactly (rules, seat names,
the hands dealt, the dealer and any free leader, every action in order) and
what the deal came to (winner and scores), plus free-form tags such as the
date. It is a plain value: two records of the same deal compare equal.

>>> from big2 import Game
>>> g = Game(seed=1)
>>> g.play(g.legal_masks()[0]); g.pass_turn()
>>> rec = GameRecord.from_game(g)
>>> rec.plies, rec.winner, rec.is_finished
(2, None, False)
>>> rec.to_game().history == g.history
True
>>> rec.to_game(ply=1).to_move == rec.actions[1].seat
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from big2.cards import CARD_NAMES, DECK_SIZE, Mask, match_copies
from big2.game import Game, IllegalPlayError, free_leader
from big2.rules import Rules
from big2.variant import variant
from big2.view import Action, PlayerView


class RecordError(ValueError):
    """A record that cannot be read or replayed. ``line`` is the 1-based line
    of the text it came from (``None`` when unknown, as for JSON input)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass(eq=True)
class GameRecord:
    """One deal of Big Two, replayable.

    Attributes:
        rules: the rule set (``rules.players`` is the number of seats).
        hands: each seat's cards as dealt (masks).
        actions: every play and pass in order (``Action(seat, mask)``, mask 0
            passes).
        names: seat names.
        dealer: the dealer's seat.
        leader: the seat that led freely (e.g. the last deal's winner under
            ``later_lead="winner"``); ``None`` when the lowest card leads.
        seed: the shuffle seed, when the deal came from one (information only:
            ``hands`` decide).
        winner: the seat that went out first, ``None`` if unfinished.
        scores: the deal's scores per seat, ``None`` if unfinished.
        totals: match totals before this deal (empty outside a match).
        tags: any other tags, such as ``Date`` or ``Deal``, as text.
    """

    rules: Rules
    hands: tuple[Mask, ...]
    actions: tuple[Action, ...] = ()
    names: tuple[str, ...] = ()
    dealer: int = 0
    leader: int | None = None
    seed: int | None = None
    winner: int | None = None
    scores: tuple[int, ...] | None = None
    totals: tuple[int, ...] = ()
    tags: dict[str, str] = field(default_factory=dict)
    # Where each part came from in a text, for error messages (not compared).
    action_lines: tuple[int | None, ...] = field(default=(), compare=False, repr=False)
    line: int | None = field(default=None, compare=False, repr=False)
    result_line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        v = variant(self.rules)
        n = v.players
        if len(self.hands) != n:
            raise RecordError(f"{n} hands needed, got {len(self.hands)}", self.line)
        if not self.names:
            self.names = tuple(f"Player {i + 1}" for i in range(n))
        if len(self.names) != n:
            raise RecordError(f"{n} seat names needed, got {len(self.names)}", self.line)
        if not 0 <= self.dealer < n:
            raise RecordError(f"dealer must be a seat 0..{n - 1}", self.line)
        if self.totals and len(self.totals) != n:
            raise RecordError(f"{n} match totals needed, got {len(self.totals)}", self.line)
        if v.deck.two_decks:
            self.hands, self.actions = _canonical_copies(self.hands, self.actions)

    # -- facts ---------------------------------------------------------------

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return variant(self.rules).players

    @property
    def plies(self) -> int:
        """Number of actions (plays and passes) recorded."""
        return len(self.actions)

    @property
    def is_finished(self) -> bool:
        """Whether the record reaches the end of the deal."""
        return self.winner is not None

    # -- games -----------------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game, *, totals: Sequence[int] = (),
                  tags: dict[str, str] | None = None) -> GameRecord:
        """The record of *game* as played so far (finished or not).

        *totals* are the match totals before this deal; *tags* are extra
        tags such as ``{"Date": "2025.01.31", "Deal": "2"}``.
        """
        outcome = game.outcome()
        return cls(
            rules=game.rules,
            hands=tuple(game.initial_hands),
            actions=tuple(game.history),
            names=tuple(game.names),
            dealer=game.dealer,
            leader=free_leader(game),
            seed=game.seed,
            winner=outcome.winner if outcome else None,
            scores=tuple(outcome.scores) if outcome else None,
            totals=tuple(totals),
            tags=dict(tags or {}),
        )

    def new_game(self) -> Game:
        """The deal before its first action."""
        try:
            return Game(self.rules, hands=list(self.hands), dealer=self.dealer,
                        leader=self.leader, names=self.names, seed=self.seed)
        except ValueError as exc:
            raise RecordError(f"bad deal: {exc}", self.line) from None

    def to_game(self, ply: int | None = None) -> Game:
        """The game after the first *ply* actions (all of them by default).

        Every action goes through the engine's public :meth:`Game.play`, so a
        play out of turn or against the rules raises :class:`RecordError`
        naming its line.
        """
        if ply is None:
            ply = len(self.actions)
        if not 0 <= ply <= len(self.actions):
            raise ValueError(f"ply must be 0..{len(self.actions)}, not {ply}")
        game = self.new_game()
        for i, action in enumerate(self.actions[:ply]):
            line = self.action_lines[i] if i < len(self.action_lines) else self.line
            who = f"S{action.seat}"
            if game.to_move is None:
                raise RecordError(f"{who} acts after the deal is over", line)
            if action.seat != game.to_move:
                raise RecordError(f"{who} acts out of turn: S{game.to_move} is to move", line)
            try:
                game.play(action.cards)
            except IllegalPlayError as exc:
                raise RecordError(f"illegal action by {who} (action {i + 1}): {exc}", line) from None
        return game

    def view(self, seat: int, ply: int | None = None) -> PlayerView:
        """What *seat* saw after *ply* actions, with the record's match totals."""
        return self.to_game(ply).view(seat, totals=self.totals)

    def check(self) -> Game:
        """Replay every action and check the recorded result against it;
        return the final game. Raises :class:`RecordError` on any mismatch."""
        game = self.to_game()
        outcome = game.outcome()
        result_line = self.result_line or self.line
        if outcome is None:
            if self.winner is not None or self.scores is not None:
                raise RecordError("a result is recorded but the plays end before anyone "
                                  "goes out", result_line)
            return game
        if self.winner is None:
            raise RecordError(f"the deal is over (S{outcome.winner} went out) but the "
                              "record has no result", result_line)
        if self.winner != outcome.winner:
            raise RecordError(f"the recorded winner S{self.winner} is wrong: "
                              f"S{outcome.winner} went out first", result_line)
        if self.scores is None or tuple(self.scores) != tuple(outcome.scores):
            got = " ".join(f"{s:+d}" for s in outcome.scores)
            raise RecordError(f"the recorded scores do not match the deal: it scores {got}",
                              result_line)
        return game


def _swap(mask: Mask, swap: Mask) -> Mask:
    """*mask* with the two copies of each card in *swap* (first-deck bits) exchanged."""
    both = swap | swap << DECK_SIZE
    return mask & ~both | (mask & swap) << DECK_SIZE | (mask >> DECK_SIZE) & swap


def _canonical_copies(hands: Sequence[Mask], actions: Sequence[Action]
                      ) -> tuple[tuple[Mask, ...], tuple[Action, ...]]:
    """Two decks: the same deal with the copies of each card numbered one way.

    Card names do not tell two copies apart, so a record of a two-deck deal
    numbers them as reading its text would: each play takes the copies its
    player holds (as :meth:`Game.play` does); a card dealt to two seats has
    its first deck's copy with the lower seat; a card dealt once is the first
    deck's copy; a seat holding both plays the first deck's copy first. Copies
    play alike, and who leads follows from the card names (of two holders of
    the lowest card, the first from the dealer's left), so the deal is unchanged.
    """
    held = list(hands)
    mapped = []
    for a in actions:
        cards = a.cards
        if cards and 0 <= a.seat < len(held):
            cards = match_copies(cards, held[a.seat]) or cards
            held[a.seat] &= ~cards
        mapped.append(Action(a.seat, cards))
    swap = 0
    for b in range(DECK_SIZE):
        first = [s for s, h in enumerate(hands) if h >> b & 1]
        second = [s for s, h in enumerate(hands) if h >> (b + DECK_SIZE) & 1]
        if not second:
            continue
        if not first:
            swap |= 1 << b
        elif first != second:
            if first[0] > second[0]:
                swap |= 1 << b
        else:
            pair = 1 << b | 1 << (b + DECK_SIZE)
            single = next((a.cards for a in mapped if (a.cards & pair).bit_count() == 1), 0)
            if single & pair == 1 << (b + DECK_SIZE):
                swap |= 1 << b
    if not swap:
        return tuple(hands), tuple(mapped)
    return (tuple(_swap(h, swap) for h in hands),
            tuple(Action(a.seat, _swap(a.cards, swap)) for a in mapped))


def allocate_copies(rules: Rules, named: Sequence[Mask],
                    line: int | None = None) -> tuple[Mask, ...]:
    """Hands as read from card names, each parsed on its own with
    ``copies=rules.decks``, numbered so that no copy is dealt twice.

    A card named by two seats is the first deck's copy for the lower seat.
    Raises :class:`RecordError` for a card named more often than there are
    decks.
    """
    decks = variant(rules).deck.decks
    if decks == 1:
        return tuple(named)
    out = [int(h) for h in named]
    for b in range(DECK_SIZE):
        single = [s for s, h in enumerate(out) if h >> b & 1 and not h >> (b + DECK_SIZE) & 1]
        count = sum((h >> b & 1) + (h >> (b + DECK_SIZE) & 1) for h in out)
        if count > decks:
            raise RecordError(f"{CARD_NAMES[b]} is dealt {count} times: there are only "
                              f"{decks} copies", line)
        if len(single) == 2:
            out[single[1]] ^= 1 << b | 1 << (b + DECK_SIZE)
    return tuple(out)


__all__ = ["GameRecord", "RecordError", "allocate_copies"]
