"""Sampled worlds: deals of the cards a seat has not seen, consistent with its view.

A determinized search guesses the hidden cards many times and plays each guess
out with every hand open. :func:`sample_worlds` makes those guesses: each
:class:`World` gives every seat's hand by seat, the seat's own hand as it is,
the others dealt from :attr:`big2.view.PlayerView.unseen` (so the face-up
spare, every card played, both decks and jokers are accounted for), each with
its card count. What the public history says is honoured:

- **a leader's pass** under finish restrictions fixes that seat's one card to
  a single it may not go out on (:func:`leader_pass_seats`);
- **ordinary passes** are weak evidence (``pass_inference``): a world where a
  seat that passed on a single, pair or triple could have beaten it is kept
  with probability ``(1 - pass_inference) ** count`` (a few draws, keeping
  the most plausible; :func:`pass_events`);
- **the greedy reading** (``model``, :mod:`big2.bots.rules_based.modelling`):
  each other seat is modelled in a world as playing by the greedy rule with
  a probability that grows with how many of its plays that rule explains
  (``greedy_mix`` is the prior); such a seat gets hands consistent with that
  reading, and :attr:`World.greedy_seats` tells a play-out to play it greedily;
- **the policy's likelihood** (``policy`` and ``belief``): each world weighed by
  how likely the policy network makes the other seats' actual plays in it
  (:func:`big2.bots.policy.belief.belief_weights`), in :attr:`World.weight`.

:class:`WorldSampler` draws one world at a time from a seeded stream (a search
interleaves draws with play-outs); :class:`PooledSampler` redraws from a
weighed pool; :class:`WeighedSampler` weighs each batch. All satisfy :class:`Sampler`.

>>> from big2 import Game, Rules
>>> g = Game(Rules(players=3, spare_to="aside"), seed=4)
>>> view = g.view(0)
>>> worlds = sample_worlds(view, 3, seed=1)
>>> all(w[0] == int(view.hand) and not any(h & int(view.spare) for h in w) for w in worlds)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, Protocol, Self

from big2.bots.rules_based.control import single_beaters
from big2.bots.rules_based.modelling import (
    any_consistent_hands,
    greedy_forbidden,
    greedy_posterior,
    public_steps,
)
from big2.bots.rules_based.planning import beaten_by_unseen
from big2.cards import Mask, cards_of
from big2.combos import engine
from big2.game import Game
from big2.house.restrictions import FinishRestrictions
from big2.rules import Rules
from big2.variant import variant
from big2.view import PlayerView

if TYPE_CHECKING:
    from big2.bots.policy.pnet import PolicyNet


class World(tuple[Mask, ...]):
    """One sampled deal: every seat's hand as a card mask, indexed by seat.

    Attributes:
        greedy_seats: bit mask of the seats a play-out should play by the
            greedy rule in this world (the opponent model; 0 without one).
        weight: the world's weight among its fellows (1 unless weighed by
            the policy's likelihood of the history).
    """

    greedy_seats: int
    weight: float

    def __new__(cls, hands: Iterable[Mask], greedy_seats: int = 0,
                weight: float = 1.0) -> Self:
        self = super().__new__(cls, hands)
        self.greedy_seats = greedy_seats
        self.weight = weight
        return self

    def weighed(self, weight: float) -> World:
        """This world with another weight."""
        return World(self, self.greedy_seats, weight)


class Evidence(NamedTuple):
    """What the sampler reads from a view's public history, once a decision."""

    fixed: set[int]
    """Seats whose leader's pass fixed their one card (:func:`leader_pass_seats`)."""
    events: list[tuple[int, Mask, Mask]]
    """Informative passes (:func:`pass_events`); empty when ``pass_inference`` is 0."""
    mix: list[float]
    """Per seat, the probability that a world plays it greedily."""
    forbidden: list[Mask]
    """Per seat, the cards a greedy seat cannot hold now."""


class Sampler(Protocol):
    """A source of sampled worlds for one decision."""

    def draw(self) -> World:
        """The next world."""
        ...

    def draws(self, n: int) -> list[World]:
        """The next *n* worlds, weighed together where the sampler weighs."""
        ...


@lru_cache(maxsize=4096)
def _beaters(rules: Rules, to_beat: Mask) -> Mask | None:
    """:func:`~big2.bots.rules_based.control.single_beaters` under *rules*, cached (a deal's
    passes repeat over decisions)."""
    return single_beaters(engine(rules), to_beat)


_BIT = (1).__lshift__
"""``_BIT(card)``: the card's mask bit (a C-level call, for ``map``)."""


def _barred_single(rules: Rules, card: int) -> bool:
    """Whether going out on the single *card* is barred."""
    barring = variant(rules).house_rule(FinishRestrictions)
    return barring is not None and barring.barred(1 << card)


def leader_pass_seats(view: PlayerView) -> set[int]:
    """Seats that passed while leading and have played nothing since: under
    finish restrictions that means they hold one card they may not go out on.
    """
    if variant(view.rules).house_rule(FinishRestrictions) is None or not view.history:
        return set()
    suspects = {s for s, c in enumerate(view.card_counts) if c == 1}
    if not any(a.seat in suspects and a.is_pass for a in view.history):
        return set()
    # leading status depends only on the public history: replay it backwards
    # on any consistent guess of the hidden cards
    g = Game.from_view(view, any_consistent_hands(view))
    found: set[int] = set()
    played_since: set[int] = set()
    while g.history:
        action = g.undo()
        if action.cards:
            played_since.add(action.seat)
        elif g.leading and action.seat in suspects and action.seat not in played_since:
            found.add(action.seat)
    return found


def pass_events(view: PlayerView) -> list[tuple[int, Mask, Mask]]:
    """The other seats' passes on singles, pairs and triples still informative
    now: ``(seat, play passed on, cards that seat played afterwards)``.

    The play passed on is the last play before the pass (a pass never opens a
    trick, except a leader's barred pass, which is skipped here).
    """
    out: list[tuple[int, Mask, Mask]] = []
    history = view.history
    later = [0] * view.num_players
    last_play = [0] * len(history)
    current = 0
    for i, a in enumerate(history):
        last_play[i] = current
        if a.cards:
            current = a.cards
    for i in range(len(history) - 1, -1, -1):
        a = history[i]
        if a.cards:
            later[a.seat] |= a.cards
            continue
        to_beat = last_play[i]
        if (a.seat != view.seat and view.card_counts[a.seat] and to_beat
                and to_beat.bit_count() <= 3):
            out.append((a.seat, to_beat, later[a.seat]))
    return out


def read_evidence(view: PlayerView, *, pass_inference: float = 0.7, greedy_mix: float = 0.3,
                  model: bool = True) -> Evidence:
    """The :class:`Evidence` a sampler reads from *view* (see the module docstring)."""
    fixed = leader_pass_seats(view)
    events = pass_events(view) if pass_inference > 0 else []
    n = view.num_players
    if model:
        steps = public_steps(view)
        mix = greedy_posterior(view, greedy_mix, steps=steps)
        forbidden = greedy_forbidden(view, steps)
    else:
        mix, forbidden = [greedy_mix] * n, [0] * n
    return Evidence(fixed, events, mix, forbidden)


def _check(pass_inference: float, greedy_mix: float) -> None:
    if not 0 <= pass_inference <= 1:
        raise ValueError("pass_inference must be between 0 and 1")
    if not 0 <= greedy_mix <= 1:
        raise ValueError("greedy_mix must be between 0 and 1")


class WorldSampler:
    """Worlds for *view*, drawn one at a time from *rng* (see the module docstring).

    Args:
        view: the seat's view.
        rng: the random stream (a seeded bot passes its own, so its decisions repeat).
        pass_inference: 0 ignores ordinary passes; towards 1 trusts that a
            seat that passed could not beat the play it passed on.
        greedy_mix: the prior probability that a world plays another seat by
            the greedy rule.
        model: update ``greedy_mix`` per seat from its plays, and give a
            greedy seat hands consistent with the greedy reading.
    """

    def __init__(self, view: PlayerView, rng: random.Random, *, pass_inference: float = 0.7,
                 greedy_mix: float = 0.3, model: bool = True) -> None:
        _check(pass_inference, greedy_mix)
        self.view = view
        self.rng = rng
        self.unseen = int(view.unseen)
        self.pass_inference = pass_inference
        self.evidence = read_evidence(view, pass_inference=pass_inference,
                                      greedy_mix=greedy_mix, model=model)
        # what every draw of this decision reads, worked out once (a search draws
        # a hundred worlds or more a decision; the draws consume the random
        # stream as they always did, so a seed gives the same worlds)
        fixed, events, mix, _forbidden = self.evidence
        self._pool = cards_of(self.unseen)
        self._fixed = sorted(fixed)
        self._mix = [(s, mix[s]) for s in range(view.num_players) if s != view.seat]
        self._hand = int(view.hand)
        self._counts = list(view.card_counts)
        self._spare = self._counts[:]  # the seats dealt from the pool: count, else 0
        self._spare[view.seat] = 0
        self._eng = engine(view.rules) if events else None
        self._events = [(seat, to_beat, later, _beaters(view.rules, to_beat))
                        for seat, to_beat, later in events]

    def draw(self) -> World:
        """One world, and the seats played greedily in it."""
        random_ = self.rng.random
        greedy_seats = 0
        for s, m in self._mix:
            if random_() < m:
                greedy_seats |= 1 << s
        return World(self._sample(greedy_seats), greedy_seats)

    def draws(self, n: int) -> list[World]:
        """The next *n* worlds."""
        return [self.draw() for _ in range(n)]

    def _sample(self, greedy_seats: int) -> list[Mask]:
        """One deal consistent with the view; with pass events, deals where
        passers could have beaten the table are kept with probability
        ``(1 - pass_inference) ** count`` (a few draws), and never for a seat
        in *greedy_seats* (which also avoids its forbidden cards where the
        unseen cards allow)."""
        events = self._events
        if not events:
            return self._deal(greedy_seats)
        eng = self._eng
        assert eng is not None  # made whenever there are events
        keep = 1.0 - self.pass_inference
        best: list[Mask] = []
        best_bad = (1 << 30, 0)
        for _ in range(8):
            hands = self._deal(greedy_seats)
            soft = hard = 0
            for seat, to_beat, later, beat in events:
                held = hands[seat] | later
                if (held & beat if beat is not None
                        else beaten_by_unseen(eng, to_beat, held)):
                    if greedy_seats >> seat & 1:
                        hard += 1
                    else:
                        soft += 1
            if hard == 0 and (soft == 0 or self.rng.random() < keep ** soft):
                return hands
            if (hard, soft) < best_bad:
                best, best_bad = hands, (hard, soft)
        return best

    def _deal(self, greedy_seats: int) -> list[Mask]:
        """The unseen cards shuffled and dealt by the card counts (fixed and greedy seats first)."""
        view = self.view
        pool = self._pool[:]
        self.rng.shuffle(pool)
        hands: list[Mask] = [0] * len(self._counts)
        hands[view.seat] = self._hand
        for s in self._fixed:
            pick = next((c for c in pool if _barred_single(view.rules, c)), None)
            if pick is not None:
                pool.remove(pick)
                hands[s] = 1 << pick
        forbidden = self.evidence.forbidden
        if greedy_seats and forbidden:
            for s in range(view.num_players):  # greedy seats first, from the cards they may hold
                c = view.card_counts[s]
                if not greedy_seats >> s & 1 or s == view.seat or hands[s] or not c:
                    continue
                bar = forbidden[s]
                ok = [x for x in pool if not bar >> x & 1]
                if len(ok) < c:
                    continue
                take = ok[:c]
                hands[s] = sum(1 << x for x in take)
                taken = set(take)
                pool = [x for x in pool if x not in taken]
        i = 0
        bit = _BIT
        for s, c in enumerate(self._spare):
            if not c or hands[s]:
                continue
            hands[s] = sum(map(bit, pool[i:i + c]))
            i += c
        return hands


class PooledSampler:
    """Worlds redrawn (with *rng*) from *worlds* in proportion to their weights."""

    def __init__(self, worlds: Sequence[World], rng: random.Random) -> None:
        if not worlds:
            raise ValueError("a pool needs at least one world")
        self.worlds = list(worlds)
        self.weights = [w.weight for w in self.worlds]
        self.rng = rng

    def draw(self) -> World:
        """A world of the pool, chosen by weight."""
        return self.worlds[self.rng.choices(range(len(self.worlds)), weights=self.weights)[0]]

    def draws(self, n: int) -> list[World]:
        """The next *n* worlds of the pool."""
        return [self.draw() for _ in range(n)]


class WeighedSampler:
    """*base*'s worlds, each batch weighed by the policy's likelihood of the
    history in it (:func:`weigh`); one world alone always weighs 1."""

    def __init__(self, base: Sampler, net: PolicyNet, view: PlayerView, belief: float) -> None:
        self.base, self.net, self.view, self.belief = base, net, view, belief

    def draw(self) -> World:
        """The next world of *base* (alone, unweighed)."""
        return self.base.draw()

    def draws(self, n: int) -> list[World]:
        """The next *n* worlds of *base*, weighed together."""
        return weigh(self.base.draws(n), self.net, self.view, self.belief)


def weigh(worlds: Sequence[World], net: PolicyNet, view: PlayerView,
          belief: float = 1.0) -> list[World]:
    """*worlds* with :attr:`World.weight` set to the policy's likelihood of the
    other seats' actions in each (:func:`~big2.bots.policy.belief.belief_weights`,
    raised to *belief*; the largest weight is 1)."""
    from big2.bots.policy.belief import belief_weights  # NumPy loads with the policy

    if belief < 0:
        raise ValueError("belief must be at least 0")
    w = belief_weights(net, view, worlds, belief).tolist()
    return [world.weighed(float(x)) for world, x in zip(worlds, w)]


def sample_worlds(view: PlayerView, n: int, *, seed: int | None = None,
                  rng: random.Random | None = None, pass_inference: float = 0.7,
                  greedy_mix: float = 0.3, model: bool = True,
                  policy: PolicyNet | None = None, belief: float = 1.0) -> list[World]:
    """*n* worlds for *view* (see the module docstring): the same for a seed.

    Args:
        view: the seat's view.
        n: how many worlds.
        seed: seeds a fresh stream; or pass *rng* to continue one (not both).
        pass_inference, greedy_mix, model: as :class:`WorldSampler`'s.
        policy: weigh each world by this policy's likelihood of the history
            (:func:`weigh`, raised to *belief*); ``None`` leaves every weight 1.

    Raises:
        ValueError: *n* below 1, *seed* and *rng* both given, or an option
            out of its range.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1 world, not {n}")
    if seed is not None and rng is not None:
        raise ValueError("give a seed or a random stream, not both")
    sampler = WorldSampler(view, rng or random.Random(seed), pass_inference=pass_inference,
                           greedy_mix=greedy_mix, model=model)
    worlds = [sampler.draw() for _ in range(n)]
    return worlds if policy is None else weigh(worlds, policy, view, belief)


__all__ = ["Evidence", "PooledSampler", "Sampler", "WeighedSampler", "World", "WorldSampler", "leader_pass_seats",
           "pass_events", "read_evidence", "sample_worlds", "weigh"]
