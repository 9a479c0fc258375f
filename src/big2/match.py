"""A match: a series of deals with running totals and a moving dealer.

:class:`Match` is the one place that sequences deals: the dealer's rotation,
``later_lead="winner"``, the President exchange, the teams shoot-out, the end
condition and the totals. The server, the terminal and the RL environment
all deal through it. :meth:`Match.snapshot` and :meth:`Match.restore` carry a
match over a restart exactly.

>>> from big2 import Match, Rules
>>> m = Match(Rules(match_deals=2), seed=5)
>>> g = m.new_game()
>>> g.dealer
0
>>> import json
>>> Match.restore(json.loads(json.dumps(m.snapshot()))).games[0].initial_hands == g.initial_hands
True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from big2.cards import Mask, cards_of
from big2.game import Game, deal, free_leader
from big2.rules import Rules
from big2.variant import variant
from big2.view import Action, LastCardCall

TITLES = {
    **{n: ("President", "Vice-President", *("Citizen",) * (n - 4), "Vice-Scum", "Scum")
       for n in range(4, 9)},
    3: ("President", "Citizen", "Scum"),
    2: ("President", "Scum"),
}
"""Finishing titles by number of players, best first (President form; with five
to eight players, two decks, the middle seats are Citizens and exchange nothing)."""

SNAPSHOT_FORMAT = "big2-match"
"""The ``format`` field of :meth:`Match.snapshot` data (``version`` 1)."""

Chooser = Callable[[int, Mask, int], Mask]
"""``choose(seat, hand, count) -> cards``: the cards a President or
Vice-President gives back (a mask of *count* cards from *hand*)."""


class Exchange(NamedTuple):
    """Cards handed over before a deal in the President form."""

    giver: int
    receiver: int
    cards: Mask


def finishing_order(game: Game) -> list[int]:
    """Seats from first out to last: the finishing order, then the rest by
    fewest cards left (ties in turn order after the winner)."""
    outcome = game.outcome()
    if outcome is None:
        raise RuntimeError("the deal is not over")
    return game.variant.scorer.finishing_order(list(outcome.finished) or [outcome.winner],
                                               game.hands)


def lowest_cards(seat: int, hand: Mask, count: int, *, rules: Rules | None = None) -> Mask:
    """The default giver's choice: the *count* lowest cards of *hand*."""
    strength = variant(rules or Rules()).keys.strength
    out = 0
    for c in sorted(cards_of(hand), key=strength.__getitem__)[:count]:
        out |= 1 << c
    return out


class Match:
    """Deals in sequence. Call :meth:`new_game`, play it out, then
    :meth:`record`; :meth:`is_over` says when the end condition is met
    (``rules.match_deals`` deals, or a penalty total reaching
    ``rules.penalty_target`` under penalty scoring).

    Args:
        rules: the rule set (default: the classic game).
        seed: seeds the stream of deals, so a match replays exactly.
        names: seat names given to every deal.
        deals: deals in the match, overriding ``rules.match_deals`` (``0``:
            until the penalty target, penalty scoring only).
        secure: draw each deal's seed from :mod:`secrets` instead of the
            seeded stream, so nobody can work out a deal from the seeds of
            earlier ones (records show seeds); not with *seed*.
    """

    def __init__(self, rules: Rules | None = None, *, seed: int | None = None,
                 names: Sequence[str] | None = None, deals: int | None = None,
                 secure: bool = False) -> None:
        self.rules = rules or Rules()
        self.variant = variant(self.rules)
        """The compiled rule set (:func:`big2.variant.variant`)."""
        self.plan = plan = self.variant.plan
        """How the match runs (the variant's :class:`~big2.variant.MatchPlan`)."""
        if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool)):
            raise TypeError(f"deals must be a whole number or None, not {type(deals).__name__}")
        self.deals = plan.deals if deals is None else deals
        if self.deals < 0:
            raise ValueError(f"deals must be 0 or more, not {self.deals}")
        if self.deals == 0 and plan.penalty_target is None:
            raise ValueError("a match needs a number of deals unless scoring is 'penalty'")
        if secure and seed is not None:
            raise ValueError("a secure match draws its seeds from secrets: give no seed")
        self.names = tuple(names) if names else None
        self.secure = secure
        """Whether deal seeds come from :mod:`secrets` (unpredictable, not replayable)."""
        self._rng = random.Random(seed)
        self.totals: list[int] = [0] * self.variant.players
        self.results: list[tuple[int, ...]] = []
        self.games: list[Game] = []
        self.dealer = 0
        self.last_winner: int | None = None
        self.titles: tuple[str, ...] = ()
        """Each seat's title after the last recorded deal (``exchange`` rule)."""
        self.exchanges: list[Exchange] = []
        """The cards handed over before the current deal (``exchange`` rule)."""
        self._order: list[int] = []
        self._shootout: Game | None = None
        self._leaders: dict[int, int | None] = {}  # id(game) -> the leader it was dealt with
        self._seeded: set[int] = set()  # id(game) of games dealt from their seed alone

    @property
    def order(self) -> tuple[int, ...]:
        """Seats from first out to last in the last recorded deal (``exchange`` rule)."""
        return tuple(self._order)

    @property
    def next_is_shootout(self) -> bool:
        """Whether :meth:`new_game` deals a teams shoot-out (the last deal was a tie)."""
        return self._shootout is not None

    def new_game(self, choose: Chooser | None = None) -> Game:
        """Deal the next game (the dealer moves one seat each deal).

        Under the ``exchange`` rule (President form), deals after the first
        start with the card exchange: the low titles' best cards go up
        automatically, and *choose* (default: the lowest cards) picks what each
        high title gives back, from the hand as dealt (``before``) or after
        receiving (``after``). The exchange is listed in :attr:`exchanges`.
        Under ``teams`` a tied deal is followed by its five-card shoot-out
        (:attr:`next_is_shootout`), with the same dealer.
        """
        if self.is_over():
            raise RuntimeError("the match is over")
        if self.games and not self.games[-1].is_over():
            raise RuntimeError("finish the current deal first")
        leader = None
        if self.plan.winner_leads and self.last_winner is not None:
            leader = self.last_winner
        if self._shootout is not None:  # teams: a tied deal is decided by a shoot-out
            game, self._shootout = self._shootout, None
            self._add(game, self._leaders.pop(id(game), None), seeded=False)
            return game
        seed = secrets.randbits(64) if self.secure else self._rng.getrandbits(64)
        self.exchanges = []
        if self.plan.exchange and self._order:
            hands = self._exchange(deal(self.rules, random.Random(seed), self.dealer), choose)
            game = Game(self.rules, seed=seed, hands=hands, dealer=self.dealer, leader=leader,
                        names=self.names)
            self._add(game, leader, seeded=False)
        else:
            game = Game(self.rules, seed=seed, dealer=self.dealer, leader=leader, names=self.names)
            self._add(game, leader, seeded=True)
        return game

    def _add(self, game: Game, leader: int | None, *, seeded: bool) -> None:
        self.games.append(game)
        self._leaders[id(game)] = leader
        if seeded:
            self._seeded.add(id(game))

    def _exchange(self, hands: list[Mask], choose: Chooser | None) -> list[Mask]:
        """Hand cards over between the titles of the last deal."""
        rules = self.rules
        order = self._order
        strength = variant(rules).keys.strength
        pairs = [(order[0], order[-1], 2 if len(order) > 2 else 1)]
        if len(order) >= 4:
            pairs.append((order[1], order[-2], 1))
        choose = choose or (lambda seat, hand, count: lowest_cards(seat, hand, count, rules=rules))
        dealt = list(hands)
        for high, low, count in pairs:
            best = 0
            for c in sorted(cards_of(hands[low]), key=strength.__getitem__)[-count:]:
                best |= 1 << c
            pool = dealt[high] if self.plan.exchange_from_dealt else hands[high] | best
            back = int(choose(high, pool, count))
            if back & ~pool or back.bit_count() != count:
                raise ValueError(f"seat {high} must give back {count} card(s) of its own hand")
            hands[low] &= ~best
            hands[high] |= best
            hands[high] &= ~back
            hands[low] |= back
            self.exchanges += [Exchange(low, high, best), Exchange(high, low, back)]
        return hands

    def record(self, game: Game | None = None) -> tuple[int, ...]:
        """Add a finished deal's scores to the totals and move the dealer.

        A tied teams deal scores nothing yet: its shoot-out is dealt next."""
        game = game or self.games[-1]
        scores = self._tally(game)
        if game.shootout:
            self._shootout = game.shootout_game()
            self._leaders[id(self._shootout)] = None
        return scores

    def _tally(self, game: Game) -> tuple[int, ...]:
        """:meth:`record` without dealing the shoot-out."""
        outcome = game.outcome()
        if outcome is None:
            raise RuntimeError("the deal is not over")
        if game.shootout:  # teams tied: the next "deal" is the shoot-out, same dealer
            return outcome.scores
        self.results.append(outcome.scores)
        self.totals = [t + s for t, s in zip(self.totals, outcome.scores)]
        self.last_winner = outcome.winner
        if self.plan.exchange:
            self._order = finishing_order(game)
            names = TITLES[len(self._order)]
            self.titles = tuple(names[self._order.index(s)] for s in range(len(self._order)))
        self.dealer = variant(self.rules).turns.next_dealer(self.dealer)
        return outcome.scores

    def is_over(self) -> bool:
        """Whether the end condition is met."""
        return self.plan.ends(len(self.results), self.totals, self.deals)

    def places(self) -> list[int]:
        """Each seat's place by total, 1 for the best; tied totals share a place
        and the next place is skipped (``+36, +36, -20, -52`` → ``1, 1, 3, 4``)."""
        return [1 + sum(t > mine for t in self.totals) for mine in self.totals]

    def leaders(self) -> list[int]:
        """The seats in first place, in seat order: the winner, or every seat
        that shares the best total (a tied match has no single winner)."""
        return [s for s, place in enumerate(self.places()) if place == 1]

    # -- snapshot and restore ------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The whole match as JSON-friendly data (it holds every deal's cards:
        keep it from players). :meth:`restore` rebuilds it exactly."""
        rng = None
        if not self.secure:
            version, state, gauss = self._rng.getstate()
            rng = [version, list(state), gauss]
        return {
            "format": SNAPSHOT_FORMAT, "version": 1,
            "rules": self.rules.to_dict(), "deals": self.deals,
            "names": None if self.names is None else list(self.names),
            "secure": self.secure, "rng": rng,
            "totals": list(self.totals), "results": [list(r) for r in self.results],
            "dealer": self.dealer, "last_winner": self.last_winner,
            "titles": list(self.titles), "order": list(self._order),
            "exchanges": [list(e) for e in self.exchanges],
            "games": [self._game_data(g) for g in self.games],
            "shootout": None if self._shootout is None else self._game_data(self._shootout),
        }

    def _game_data(self, game: Game) -> dict[str, Any]:
        if id(game) in self._leaders:
            leader = self._leaders[id(game)]
        else:  # a game added to games by hand: find its leader from its play
            leader = free_leader(game)
        return {"hands": list(game.initial_hands), "seed": game.seed, "dealer": game.dealer,
                "leader": leader, "names": list(game.names), "seeded": id(game) in self._seeded,
                "history": [[a.seat, a.cards] for a in game.history],
                "calls": _calls(game)}

    @classmethod
    def restore(cls, data: Any) -> Match:
        """The match saved by :meth:`snapshot` (after a JSON round trip or
        not), carrying on as the original would: the same next deals and
        the same plays. Every game is rebuilt from its cards and its actions
        replayed through :meth:`Game.play` / :meth:`Game.pass_turn`.

        Raises :class:`ValueError` saying what is wrong with bad data."""
        d = _Fields(data, "match snapshot")
        if d.get("format") != SNAPSHOT_FORMAT or d.get("version") != 1:
            raise ValueError(f"not a match snapshot: format must be {SNAPSHOT_FORMAT!r}, "
                             "version 1")
        try:
            rules = Rules.from_dict(d.get("rules", dict))
        except ValueError as exc:
            raise ValueError(f"match snapshot rules: {exc}") from None
        n = variant(rules).players
        names = d.get("names", list, optional=True)
        if names is not None and (len(names) != n or not all(isinstance(x, str) for x in names)):
            raise ValueError(f"match snapshot names: {n} names (text) needed")
        secure = d.get("secure", bool)
        try:
            match = cls(rules, names=names, deals=d.int("deals", 0), secure=secure)
        except ValueError as exc:
            raise ValueError(f"match snapshot: {exc}") from None
        rng = d.get("rng", list, optional=True)
        if (rng is None) != secure:
            raise ValueError("match snapshot rng: a random state is needed unless secure "
                             "(and none then)")
        if rng is not None:
            _set_rng(match._rng, rng)
        match.totals = _ints(d.get("totals", list), "totals", n)
        match.results = [tuple(_ints(r, "results", n)) for r in d.get("results", list)]
        if match.totals != [sum(r[s] for r in match.results) for s in range(n)]:
            raise ValueError("match snapshot totals are not the sums of its results")
        match.dealer = d.int("dealer", 0, n - 1)
        match.last_winner = d.opt_int("last_winner", 0, n - 1)
        order = d.get("order", list)
        if order and sorted(_ints(order, "order", n)) != list(range(n)):
            raise ValueError(f"match snapshot order: every seat 0..{n - 1} once, got {order!r}")
        match._order = list(order)
        titles = tuple(d.get("titles", list))
        if titles != (tuple(TITLES[n][order.index(s)] for s in range(n)) if order else ()):
            raise ValueError("match snapshot titles do not follow its finishing order")
        match.titles = titles
        for e in d.get("exchanges", list):
            giver, receiver, cards = _ints(e, "exchanges", 3, lo=0)
            if giver >= n or receiver >= n:
                raise ValueError(f"match snapshot exchanges: seats are 0..{n - 1}, got {e!r}")
            match.exchanges.append(Exchange(giver, receiver, cards))
        games = d.get("games", list)
        for i, item in enumerate(games):
            game, leader, seeded = _rebuild(rules, item, f"game {i + 1}")
            if i < len(games) - 1 and not game.is_over():
                raise ValueError(f"match snapshot game {i + 1}: only the last game may be "
                                 "unfinished")
            match._add(game, leader, seeded=seeded)
        shootout = d.get("shootout", dict, optional=True)
        if shootout is not None:
            if not (match.games and match.games[-1].shootout):
                raise ValueError("match snapshot shootout: the last game is not a tied deal")
            match._shootout, leader, _ = _rebuild(rules, shootout, "shootout")
            match._leaders[id(match._shootout)] = leader
        return match


class _Fields:
    """Typed reading of one mapping of snapshot data, with error messages."""

    def __init__(self, data: Any, what: str) -> None:
        if not isinstance(data, dict):
            # a saved match of the wrong shape is bad data, refused as the others are
            raise ValueError(f"{what}: expected a mapping, got {type(data).__name__}")  # noqa: TRY004
        self.data, self.what = data, what

    def get(self, key: str, kind: type[Any] | None = None, *, optional: bool = False) -> Any:
        """The value at *key*, of type *kind* (or ``None`` if *optional*)."""
        if key not in self.data:
            raise ValueError(f"{self.what}: {key!r} is missing")
        value = self.data[key]
        if value is None and optional:
            return None
        if kind is not None and not isinstance(value, kind):
            raise ValueError(f"{self.what}: {key!r} must be {kind.__name__}, got {value!r}"[:200])
        return value

    def opt_int(self, key: str, lo: int | None = None, hi: int | None = None) -> int | None:
        """The whole number at *key*, in ``lo..hi`` when given, or ``None``."""
        value = self.get(key)
        if value is None:
            return None
        if type(value) is not int or (lo is not None and value < lo) \
                or (hi is not None and value > hi):
            span = f" {lo}..{hi}" if hi is not None else f" {lo} or more" if lo is not None else ""
            raise ValueError(f"{self.what}: {key!r} must be a whole number{span}, "
                             f"got {value!r}"[:200])
        return value

    def int(self, key: str, lo: int | None = None, hi: int | None = None) -> int:
        """The whole number at *key*, in ``lo..hi`` when given."""
        value = self.opt_int(key, lo, hi)
        if value is None:
            raise ValueError(f"{self.what}: {key!r} must be a whole number, got None")
        return value


def _set_rng(rng: random.Random, state: list[Any]) -> None:
    """Put *rng* in the saved *state* (``[version, [625 numbers], gauss]``)."""
    ok = (len(state) == 3 and state[0] == 3 and isinstance(state[1], list)
          and len(state[1]) == 625 and all(type(x) is int and 0 <= x < 2**32 for x in state[1])
          and (state[2] is None or type(state[2]) is float))
    try:
        if ok:
            rng.setstate((3, tuple(state[1]), state[2]))
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ValueError("match snapshot rng: not a saved random state")


def _ints(value: Any, what: str, count: int, *, lo: int | None = None,
          hi: int | None = None) -> list[int]:
    """*value* as *count* whole numbers (in ``lo..hi`` when given)."""
    if not isinstance(value, list) or len(value) != count \
            or not all(type(x) is int for x in value) \
            or lo is not None and min(value) < lo or hi is not None and max(value) > hi:
        raise ValueError(f"match snapshot {what}: {count} whole numbers needed, "
                         f"got {value!r}"[:200])
    return list(value)


def _calls(game: Game) -> list[list[int]]:
    """The game's last-card calls as ``[seat, plays and passes before it]``."""
    out, ply = [], 0
    for r in game.log:
        if isinstance(r, Action):
            ply += 1
        elif isinstance(r, LastCardCall):
            out.append([r.seat, ply])
    return out


def _rebuild(rules: Rules, data: Any, what: str) -> tuple[Game, int | None, bool]:
    """One game from its snapshot data, its actions replayed; with the leader
    it was dealt with and whether it was dealt from its seed alone."""
    d = _Fields(data, f"match snapshot {what}")
    hands = d.get("hands", list)
    if not all(type(h) is int and h > 0 for h in hands):
        raise ValueError(f"match snapshot {what}: hands must be card masks")
    seed = d.opt_int("seed")
    seats = variant(rules).players
    dealer = d.int("dealer", 0, seats - 1)
    leader = d.opt_int("leader", 0, seats - 1)
    names = d.get("names", list)
    if not all(isinstance(x, str) for x in names):
        raise ValueError(f"match snapshot {what}: names must be text")
    seeded = d.get("seeded", bool)
    try:
        game = None
        if seeded and seed is not None:  # dealt the same way: the game's own stream
            game = Game(rules, seed=seed, dealer=dealer, leader=leader, names=names)
            if list(game.initial_hands) != hands:  # a hand thrown in or a spare swapped
                game = None
        if game is None:
            game = Game(rules, seed=seed, hands=hands, dealer=dealer, leader=leader,
                        names=names)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"match snapshot {what}: bad deal: {exc}") from None
    calls: dict[int, list[int]] = {}
    for call in d.get("calls", list) if "calls" in d.data else []:
        seat, ply = _ints(call, f"{what} calls", 2, lo=0)
        calls.setdefault(ply, []).append(seat)
    history = d.get("history", list)
    for i, action in enumerate([*history, None]):
        for seat in calls.get(i, ()):  # last-card calls made before this action
            try:
                game.call_last_card(seat)
            except ValueError as exc:
                raise ValueError(f"match snapshot {what}, call before action {i + 1}: "
                                 f"{exc}") from None
        if action is None:
            break
        try:
            seat, cards = _ints(action, f"{what} history", 2, lo=0)
        except ValueError:
            raise ValueError(f"match snapshot {what}, action {i + 1}: expected "
                             f"[seat, cards], got {action!r}"[:200]) from None
        if seat != game.to_move:
            raise ValueError(f"match snapshot {what}, action {i + 1}: seat {seat} acts but "
                             + ("the deal is over" if game.to_move is None
                                else f"seat {game.to_move} is to move"))
        try:
            if cards:
                game.play(cards)
            else:
                game.pass_turn()
        except ValueError as exc:
            raise ValueError(f"match snapshot {what}, action {i + 1}: {exc}") from None
    return game, leader, seeded
