"""The observation leaks no hidden card: two deals that differ only in cards a
seat cannot see give that seat the same observation vector at every step, under
every rule set the environment accepts (each preset and each option switched
on alone, 2, 3 and 4 players).

A pair is made from one deal played out at random (game A): for an observing
seat s, game B keeps every card whose place s can know (its own hand and its
draws, every card played by anyone, the face-up spare, the lowest card dealt
and those below it, the card that tells who took the left-over card) and deals
the other cards at random over the places they could be (the other hands, the
ghost hand of a short deal, the Go-Fish stock), with the same counts; A's
public actions are then replayed in B. B is kept only when the replay is legal
and the public record (turn, counts, stock size, result) stays A's, so both
deals are the same game to s, and s's two observations must be equal.

The issue this guards: with the played rows taken as dealt XOR held, Go-Fish
draws showed to every seat ("in 197 of 289 test games the observations
differed when only hidden cards differed").
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from big2 import Game, Rules
from big2.cards import Mask, cards_of
from big2.env.core import EnvTable, unsupported_options
from big2.env.observation import LAYOUT, encode_game
from big2.house.spare import spare
from big2.rules import OPTIONS, PRESETS, InvalidRulesError, Option
from big2.variant import must_redeal, variant
from big2.view import Action, LastCardCall, Record, SpareSwap

# -- the rule sets ---------------------------------------------------------------------

NEEDS: dict[str, dict[str, Any]] = {
    "go_fish": {"deal": "13-each"},
    "spare_swap": {"spare_to": "aside"},
    "count_twos_double": {"scoring": "count"},
    "penalty_target": {"scoring": "penalty"},
    "five_of_a_kind": {"jokers": "wild"},
}
"""What an option needs beside it to be a valid rule set (RULES.md §2 refusals)."""

REFUSED_BY_ENV = {"straight_min", "straight_max", "dragon", "smack_down", "decks", "jokers",
                  "five_of_a_kind"}
"""Options whose plays fall outside the fixed action space (``core.unsupported_options``)."""

SHAPE_OPTIONS = {"deal", "spare_to", "spare_swap", "go_fish", "teams", "later_lead", "passing",
                 "trick_end", "direction", "redeal", "four_twos", "maltese", "last_card",
                 "finish_restrictions", "three_threes", "exchange"}
"""Options that change what is hidden or who learns what when (the deal, the
stock, the spare, turns, instant results, forced plays): tested at 2, 3 and 4
players; every other option (orders, kinds of play, scoring) at one size."""

EXTRA: list[dict[str, Any]] = [
    {"go_fish": True, "spare_to": "aside"},  # three players: the card set aside is the stock
    {"go_fish": True, "deal": "13-each", "passing": "lock-out", "last_card": True},
    {"deal": "13-each", "later_lead": "winner"},  # a ghost hand and no lowest-card lead
    {"spare_to": "aside", "spare_swap": True, "finish_restrictions": ("any-2",)},
]
"""Mixes where what is hidden changes shape (stock, ghost, face-up spare)."""


def _values(o: Option) -> list[Any]:
    """Values other than the default to switch *o* to."""
    if o.multi:
        assert o.choices is not None
        return [(c,) for c in o.choices] + [tuple(o.choices)]
    if o.choices is not None:
        return [c for c in o.choices if c != o.default]
    assert o.minimum is not None and o.maximum is not None
    return [o.maximum if o.default == o.minimum else o.minimum]


def _option_sets() -> tuple[list[tuple[str, Rules]], set[str], set[str]]:
    """``(id, rules)`` for every accepted rule set, and the options accepted
    and refused by the environment."""
    cases: list[tuple[str, Rules]] = []
    accepted: set[str] = set()
    refused: set[str] = set()
    sets: list[tuple[str, dict[str, Any]]] = [(f"preset={p}", dict(PRESETS[p])) for p in PRESETS]
    for o in OPTIONS:
        if o.name == "players":
            continue
        for value in _values(o):
            sets.append((o.name, {o.name: value, **NEEDS.get(o.name, {})}))
    sets += [("mix", options) for options in EXTRA]
    seen: set[Rules] = set()
    for i, (name, options) in enumerate(sets):
        every_size = name in SHAPE_OPTIONS or name.startswith(("preset", "mix"))
        for players in (2, 3, 4) if every_size else (2 + i % 3, 2 + (i + 1) % 3, 2 + (i + 2) % 3):
            try:
                rules = Rules(**{**options, "players": players})
            except InvalidRulesError:
                continue
            if unsupported_options(rules):
                refused.add(name)
                continue
            accepted.add(name)
            if rules not in seen:  # a preset may be one option switched on
                seen.add(rules)
                label = ",".join(f"{k}={v}" for k, v in rules.diff().items() if k != "players")
                cases.append((f"{label or 'classic'},p{players}", rules))
            if not every_size:
                break  # the first size that takes it
    return cases, accepted, refused


CASES, ACCEPTED, REFUSED = _option_sets()


def test_every_option_is_covered_or_refused_by_the_env() -> None:
    names = {o.name for o in OPTIONS} - {"players"}
    assert names - ACCEPTED - REFUSED == set()
    assert REFUSED - ACCEPTED == REFUSED_BY_ENV
    # what is hidden changes with these: each runs at every size it allows
    sizes = {(r.deal, r.spare_to, r.go_fish, r.players) for _, r in CASES}
    for shape in [("13-each", "lowest", True, 2), ("13-each", "lowest", True, 3),
                  ("13-each", "lowest", False, 3), ("even", "aside", False, 3),
                  ("even", "aside", True, 3), ("even", "highest", False, 3)]:
        assert shape in sizes


# -- one deal, played out, and a deal hiding other cards from one seat ---------------------


@dataclass
class Deal:
    """A deal before any action: the hands, the stock (next card last), the leader."""

    rules: Rules
    hands: list[Mask]
    stock: list[int]
    leader: int | None = None

    def game(self) -> Game:
        g = Game(self.rules, hands=self.hands, leader=self.leader)
        g.stock[:] = self.stock  # Go-Fish: this order, not the one from the game's stream
        return g


Public = tuple[Any, ...]


def public(g: Game) -> Public:
    """What every seat sees of the table (besides the actions): turn, counts, stock, result."""
    out = g.outcome()
    return (g.to_move, g.card_counts(), len(g.stock), g.leading, tuple(g.finished),
            None if out is None else (out.winner, out.termination))


@dataclass
class Run:
    """Game A: its deal, its log, and per step what the table showed and each seat saw."""

    deal: Deal
    log: list[Record] = field(default_factory=list)
    public: list[Public] = field(default_factory=list)
    obs: list[list[npt.NDArray[np.int8]]] = field(default_factory=list)  # [step][seat]
    drawn: dict[int, int] = field(default_factory=dict)  # stock index -> the seat that drew it
    played: Mask = 0
    known: Mask = 0  # cards whose place every seat knows (spare, lowest cards, ...)


Encoder = Callable[[Game, int], npt.NDArray[np.int8]]


def _see(run: Run, g: Game, encode: Encoder) -> None:
    run.public.append(public(g))
    run.obs.append([encode(g, s) for s in range(g.num_players)])


def _public_cards(g: Game, leader: int | None) -> Mask:
    """Cards whose place is public at the deal: the face-up spare; unless a leader
    is named, the lowest card dealt (its holder leads) and every weaker card (not
    dealt, since the first play holds the lowest card dealt); with a left-over card
    given to the lowest or highest card's holder, those two cards."""
    deck = g.variant.deck
    dealt = 0
    for h in g.initial_hands:
        dealt |= h
    out = spare(g)
    ranked = [c for c in deck.by_strength if dealt >> c & 1]
    if leader is None:
        for c in deck.by_strength:
            out |= 1 << c
            if c == ranked[0]:
                break
    if deck.left_over and not deck.thirteen_each and not deck.spare_aside:
        out |= 1 << ranked[0] | 1 << ranked[-1]
    return out


def play_out(rules: Rules, rng: random.Random, steps: int = 300,
             encode: Encoder = encode_game) -> Run:
    """Deal and play at random (a spare swap and last-card calls now and then)."""
    dealt = Game(rules, seed=rng.getrandbits(32))
    leader = rng.randrange(rules.players) if rules.later_lead == "winner" else None
    run = Run(Deal(rules, list(dealt.initial_hands), list(dealt.stock), leader))
    g = run.deal.game()
    run.known = _public_cards(g, leader)
    _see(run, g, encode)
    n = g.num_players
    swapper = next((s for s in range(n) if g.can_swap_spare(s)), None)
    if swapper is not None and rng.random() < 0.7:
        g.swap_spare(swapper)
        run.log.append(g.log[-1])
        _see(run, g, encode)
    while not g.is_over() and len(run.log) < steps:
        for s in range(n):
            if g.can_call_last_card(s) and rng.random() < 0.5:
                g.call_last_card(s)
                run.log.append(g.log[-1])
                _see(run, g, encode)
        seat = g.to_move
        assert seat is not None
        left = len(g.stock)
        cards = rng.choice(g.legal_masks())
        g.play(cards)
        run.played |= cards
        if len(g.stock) < left:
            assert left - len(g.stock) == 1 and not cards
            run.drawn[len(g.stock)] = seat
        run.log.append(g.log[-1])
        _see(run, g, encode)
    return run


def hidden_from(run: Run, seat: int, rng: random.Random) -> Deal:
    """A deal that *seat* cannot tell from *run*'s: every card whose place it may
    know stays, the others are dealt at random over the same places."""
    d = run.deal
    deck_cards = variant(d.rules).deck.cards
    fixed = run.played | run.known | d.hands[seat]
    for i, s in run.drawn.items():
        if s == seat:
            fixed |= 1 << d.stock[i]
    hands = [h if s == seat else h & fixed for s, h in enumerate(d.hands)]
    stock = list(d.stock)
    slots: list[tuple[str, int]] = []
    free: list[int] = []
    for s, h in enumerate(d.hands):
        if s != seat:
            for c in cards_of(h & ~fixed):
                slots.append(("hand", s))
                free.append(c)
    for i, c in enumerate(d.stock):
        if not fixed >> c & 1:
            slots.append(("stock", i))
            free.append(c)
    placed = 0
    for h in d.hands:
        placed |= h
    for c in d.stock:
        placed |= 1 << c
    for c in cards_of(deck_cards & ~placed & ~fixed):  # the ghost hand
        slots.append(("ghost", 0))
        free.append(c)
    rng.shuffle(free)
    for (where, i), c in zip(slots, free):
        if where == "hand":
            hands[i] |= 1 << c
        elif where == "stock":
            stock[i] = c
    return Deal(d.rules, hands, stock, d.leader)


def _redo(g: Game, r: Record) -> bool:
    """Make log record *r* in *g*; False if *g* does not allow it."""
    if type(r) is Action:
        if g.to_move != r.seat or not g.is_legal(r.cards):
            return False
        g.play(r.cards)
    elif type(r) is LastCardCall:
        if not g.can_call_last_card(r.seat):
            return False
        g.call_last_card(r.seat)
    elif type(r) is SpareSwap:
        if not g.can_swap_spare(r.seat):
            return False
        g.swap_spare(r.seat)
    else:
        raise AssertionError(f"no replay for {r!r}")
    return True


def _fields(a: npt.NDArray[np.int8], b: npt.NDArray[np.int8]) -> list[str]:
    return [name for name, sl in LAYOUT.items() if not np.array_equal(a[sl], b[sl])]


@dataclass
class Report:
    pairs: int = 0  # pairs compared
    hidden: int = 0  # pairs whose hidden cards differ
    leaks: list[str] = field(default_factory=list)  # pairs whose observations differ

    def add(self, other: Report) -> None:
        self.pairs += other.pairs
        self.hidden += other.hidden
        self.leaks += other.leaks


def compare(run: Run, seat: int, rng: random.Random, tries: int = 12,
            encode: Encoder = encode_game) -> Report:
    """Find a deal hiding other cards from *seat* with *run*'s public record, and
    compare *seat*'s observations step by step."""
    rules = run.deal.rules
    for _ in range(tries):
        deal = hidden_from(run, seat, rng)
        if any(must_redeal(rules, h) for h in deal.hands):
            continue  # a deal that would have been dealt again: not one the table could see
        g = deal.game()
        seen = [encode(g, seat)]
        ok = public(g) == run.public[0]
        for step, r in enumerate(run.log, 1):
            if not ok:
                break
            ok = _redo(g, r) and public(g) == run.public[step]
            seen.append(encode(g, seat))
        if not ok:
            continue
        report = Report(pairs=1, hidden=int(deal.hands != run.deal.hands
                                            or deal.stock != run.deal.stock))
        for step, (mine, theirs) in enumerate(zip(seen, run.obs)):
            if mine.tobytes() != theirs[seat].tobytes():
                diff = ", ".join(_fields(mine, theirs[seat]))
                report.leaks.append(f"seat {seat}, step {step}: {diff} differ")
                break
        return report
    return Report()


def leak_report(rules: Rules, rng: random.Random, deals: int = 3,
                encode: Encoder = encode_game) -> Report:
    """Pairs for every seat of one deal, and of up to *deals* deals until one
    pair has hidden cards that differ (a deal played out may leave too few
    cards out of sight to move); under Go-Fish, of *deals* deals (the draws
    are the hidden cards that move most)."""
    report = Report()
    for deal in range(deals):
        # the first deal is played out; a later one stops early, with more cards unseen
        run = play_out(rules, rng, 300 if deal == 0 else rng.randint(4, 60), encode)
        for seat in range(rules.players):
            report.add(compare(run, seat, rng, encode=encode))
        if report.hidden and not rules.go_fish:
            break
    return report


def _rng(label: str) -> random.Random:
    return random.Random(zlib.crc32(label.encode()))


@pytest.mark.parametrize("rules", [r for _, r in CASES], ids=[i for i, _ in CASES])
def test_hidden_cards_do_not_change_observations(rules: Rules) -> None:
    report = leak_report(rules, _rng(repr(rules)))
    assert not report.leaks, (f"{len(report.leaks)} of {report.pairs} pairs differ: "
                              + "; ".join(report.leaks[:3]))
    assert report.pairs >= rules.players - 1  # the replay was legal for (almost) every seat
    hides = rules.players > 2 or rules.deal == "13-each"
    assert report.hidden > 0 or not hides  # something hidden did move


def test_teams_shootout_hides_the_cards_left_out() -> None:
    """The five-card shoot-out of a tied teams deal leaves 32 cards out (a ghost)."""
    rules = Rules(teams=True)
    rng = _rng("shoot-out")
    report = Report()
    for _ in range(3):
        cards = rng.sample(range(52), 20)
        hands = [sum(1 << c for c in cards[5 * s: 5 * s + 5]) for s in range(4)]
        dealt = Game(rules, hands=hands)
        run = Run(Deal(rules, hands, []))
        run.known = _public_cards(dealt, None)
        _see(run, dealt, encode_game)
        while not dealt.is_over():
            cards_ = rng.choice(dealt.legal_masks())
            dealt.play(cards_)
            run.played |= cards_
            run.log.append(dealt.log[-1])
            _see(run, dealt, encode_game)
        for seat in range(4):
            report.add(compare(run, seat, rng))
    assert not report.leaks and report.pairs == 12 and report.hidden == 12


def _dealt_xor_held(game: Game, seat: int) -> npt.NDArray[np.int8]:
    """The encoding before the fix: played rows as dealt XOR held (a draw shows)."""
    return encode_game(game, seat, [d ^ h for d, h in zip(game.initial_hands, game.hands)])


def _ghost_as_spare(game: Game, seat: int) -> npt.NDArray[np.int8]:
    """A leak to catch: every card out of the hands and not played as the spare."""
    out = encode_game(game, seat)
    for c in cards_of(int(game.aside)):
        out[LAYOUT["spare"].start + c] = 1
    return out


@pytest.mark.parametrize(("encode", "rules"), [
    (_dealt_xor_held, Rules(go_fish=True, deal="13-each", players=2)),
    (_dealt_xor_held, Rules(go_fish=True, deal="13-each", players=3)),
    (_ghost_as_spare, Rules(deal="13-each", players=3)),
    (_ghost_as_spare, Rules(go_fish=True, spare_to="aside", players=3)),
], ids=["dealt-xor-held,go_fish,p2", "dealt-xor-held,go_fish,p3", "ghost,13-each,p3",
        "stock,go_fish,aside,p3"])
def test_the_pairs_catch_a_leak(encode: Encoder, rules: Rules) -> None:
    """The check has teeth: leaky encoders (the one before the fix among them) fail it."""
    report = leak_report(rules, _rng(repr(rules)), encode=encode)
    assert report.leaks, report


# -- Go-Fish: a draw shows only the drawer's count and the stock size ------------------------


@pytest.mark.parametrize("rules", [Rules(go_fish=True, deal="13-each", players=2),
                                   Rules(go_fish=True, deal="13-each", players=3),
                                   Rules(go_fish=True, spare_to="aside", players=3)],
                         ids=["13-each,p2", "13-each,p3", "aside,p3"])
def test_a_draw_changes_only_the_drawers_count_and_the_stock(rules: Rules) -> None:
    """The same pass with and without a draw (the stock emptied in a copy):
    every other seat's observations differ only in the drawer's count and the
    stock size; the drawer's also in its hand, by the drawn card."""
    rng = _rng(repr(rules))
    n, draws = rules.players, 0
    count = LAYOUT["count"]
    width = (count.stop - count.start) // 4
    for _ in range(30):  # deals until enough draws (one stock card only, when set aside)
        if draws >= 8:
            break
        g = Game(rules, seed=rng.getrandbits(32))
        while not g.is_over():
            legal = g.legal_masks()
            seat = g.to_move
            assert seat is not None
            if 0 in legal and g.stock and rng.random() < 0.5:
                dry = g.copy()
                dry.stock.clear()
                dry.play(0)
                drawn = 1 << g.stock[-1]
                g.play(0)
                draws += 1
                stock = ["stock"] if g.stock else []  # else both are empty now
                for s in range(n):
                    wet, no = encode_game(g, s), encode_game(dry, s)
                    diff = _fields(wet, no)
                    assert diff == (["hand", "count", *stock] if s == seat else ["count", *stock])
                    rel = (seat - s) % n
                    changed = np.flatnonzero(wet[count] != no[count]) // width
                    assert set(changed.tolist()) == {rel}
                    if s == seat:
                        hand = LAYOUT["hand"]
                        assert np.flatnonzero(wet[hand] != no[hand]).tolist() == cards_of(drawn)
            else:
                g.play(rng.choice([m for m in legal if m] or legal))
    assert draws >= 8


# -- the environment's own path ------------------------------------------------------------


@pytest.mark.parametrize("options", [{"go_fish": True, "deal": "13-each", "players": 2},
                                     {"exchange": "before"}, {"teams": True}],
                         ids=["go_fish", "exchange", "teams"])
def test_table_observation_is_the_games_encoding(options: dict[str, Any]) -> None:
    """The environment keeps each seat's played cards as the history grows, over
    several deals of a match (exchanges, shoot-outs): the same vector as
    :func:`encode_game` working from the history."""
    rng = _rng(repr(options))
    table = EnvTable(Rules(**options), seed=3)
    for _ in range(4):
        table.reset()
        while not table.game.is_over():
            for s in range(table.num_players):
                assert np.array_equal(table.observe(s), encode_game(table.game, s))
            table.play(rng.choice(table.legal_actions()))
