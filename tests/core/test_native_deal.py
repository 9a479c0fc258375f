"""A Game whose deal the core keeps (:mod:`big2.native_deal`) against the Python
trick loop, the reference.

The same deal is played in lockstep by a :class:`~big2.Game` on the Python
engine and one on the default engine (the core keeps its turn, trick, passes,
finishing order and history); after every action every piece of state a caller
can read must be equal: hands, history, log, the trick, the play to beat, the
legal plays, the numbers, each seat's view and the outcome. Along the way
copies branch off and go on alike, actions are undone and replayed, games are
pickled and rebuilt from views. Bad input must raise the same exception with the
same words on both. A share of deals runs in ``make test``; the sweep over every
preset is nightly.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
from collections.abc import Callable

import pytest
from python_engine import python_engine

from big2 import Game, IllegalPlayError, Rules
from big2.cards import CardSet, cards_of, parse_cards
from big2.variant import Outcome, native

pytestmark = pytest.mark.skipif(not native.available(), reason="big2._native is not built")

PRESETS = [Rules.preset(n) for n in Rules.presets() if not Rules.preset(n).extended_deck]
"""Every preset of the standard family (philippines with its finish restrictions)."""

TABLES = [Rules(players=3), Rules(players=2), Rules.preset("taiwan", players=3),
          Rules(scoring="ranking", players=3), Rules(trick_end="one-pass"),
          Rules(passing="lock-out", players=3), Rules(players=3, spare_to="aside"),
          Rules(finish_restrictions=("single-2", "pair-2", "any-2", "2S"), players=3)]
"""Other table sizes and turn rules the core plays."""

WIDE = [Rules(decks=2, players=6), Rules(decks=2, players=8, scoring="ranking"),
        Rules(decks=2, players=5, passing="lock-out", direction="clockwise"),
        Rules(decks=2, players=4, trick_end="one-pass", spare_to="aside", scoring="count"),
        Rules(jokers="valueless", players=3), Rules(decks=2, players=7, jokers="valueless"),
        Rules(jokers="wild"), Rules(jokers="wild", players=3, five_of_a_kind="below-straight-flush",
                                    five_card_compare="same-kind"),
        Rules(decks=2, players=6, jokers="wild", scoring="classic"),
        Rules(decks=2, players=5, finish_restrictions=("any-2",))]
"""Two decks or jokers, valueless or wild (``WideState``: up to 108 cards, 2-8 seats)."""


def state(g: Game) -> tuple[object, ...]:
    """Everything a caller reads of a game, as plain values."""
    views = tuple(g.view(s) for s in range(g.num_players))
    return (g.hands, g.history, g.log, g.to_move, g.last_play, g.last_combo, g.last_player,
            g.leading, g.trick, g.trick_start, g.must_contain, g.waive, g.outcome(), g.winner,
            g.scores(), g.legal_masks(), list(g.legal_plays()), g.finished, g.numbers(),
            g.card_counts(), g.played(), g.stock_size, g.spare, g.aside, g.is_over(), views,
            g.initial_hands, repr(g), g.announced, g.instant_result, g.penalty, g.shootout)


def pair(rules: Rules, seed: int) -> tuple[Game, Game]:
    """The deal of *seed* on the Python engine and in the core."""
    with python_engine():
        ref = Game(rules, seed=seed)
    game = Game(rules, seed=seed)
    assert not ref.variant.native and ref._core is None
    assert game._core is not None, native.native_game_reason(rules)
    return ref, game


def pair_of(rules: Rules, hands: list[str]) -> tuple[Game, Game]:
    """A deal of chosen *hands* (card text) on the Python engine and in the core."""
    cards = [parse_cards(h, copies=rules.decks) for h in hands]
    with python_engine():
        ref = Game(rules, hands=cards)
    game = Game(rules, hands=cards)
    assert ref._core is None and game._core is not None
    return ref, game


def act(g: Game, how: int, play: int) -> None:
    """Play *play* by one of the public API's ways, picked by *how*."""
    if how == 0:
        g.play(play)
    elif how == 1:
        g.play(CardSet(play))
    elif how == 2:
        g.play(str(CardSet(play)) if play else "pass")
    elif how == 3 and not play:
        g.pass_turn()
    else:
        g.play(cards_of(play))


def lockstep(rules: Rules, seed: int, hands: list[str] | None = None) -> int:
    """Play a random deal on both (of *seed*, or of *hands*), checking everything after
    every action; return its steps."""
    ref, game = pair(rules, seed) if hands is None else pair_of(rules, hands)
    rng = random.Random(seed)
    assert state(game) == state(ref)
    branches: list[tuple[Game, Game]] = []
    steps = 0
    while not ref.is_over():
        play = rng.choice(ref.legal_masks())
        how = rng.randrange(5)
        for g in (ref, game):
            act(g, how, play)
        steps += 1
        assert state(game) == state(ref)
        r = rng.random()
        if r < 0.1:  # take it back, compare, and play it again
            assert game.undo() == ref.undo()
            assert state(game) == state(ref)
            for g in (ref, game):
                g.play(play)
        elif r < 0.15:
            branches.append((ref.copy(), game.copy()))
        elif r < 0.18:
            game = pickle.loads(pickle.dumps(game))
            assert game._core is not None
        elif r < 0.2:
            game = copy.deepcopy(game)
        assert state(game) == state(ref)
    for a, b in branches:  # each copy goes on alike, untouched by the original's moves
        assert state(b) == state(a)
        while not a.is_over():
            play = rng.choice(a.legal_masks())
            a.play(play)
            b.play(play)
        assert state(b) == state(a)
    while ref.history:  # all the way back
        assert game.undo() == ref.undo()
    assert state(game) == state(ref)
    for g in (ref, game):
        with pytest.raises(IndexError, match="nothing to undo"):
            g.undo()
    return steps


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("rules", PRESETS[::3] + TABLES[:3] + [WIDE[0], WIDE[6]], ids=repr)
def test_lockstep_with_the_python_trick_loop(rules: Rules) -> None:
    lockstep(rules, 11)


@pytest.mark.nightly
@pytest.mark.parametrize("rules", PRESETS + TABLES + WIDE, ids=repr)
def test_lockstep_sweep(rules: Rules) -> None:
    assert sum(lockstep(rules, seed) for seed in range(40)) > 40 * 20


@pytest.mark.parametrize(("rules", "hands"), [
    (Rules(finish_restrictions=("single-2",)), ["2D", "2C", "2H", "2S"]),
    (Rules(finish_restrictions=("any-2",), players=3), ["3D 2S", "4C 2H", "5H 2C"]),
    (Rules(finish_restrictions=("pair-2", "2S")), ["3D 2S", "2D 2C", "4C 4D", "5S 2H"]),
    (Rules(decks=2, players=5, finish_restrictions=("any-2",)),
     ["3D 2S", "2S", "2D 2D", "4C 2H", "2C"]),
], ids=repr)
def test_finish_restrictions_in_the_core(rules: Rules, hands: list[str]) -> None:
    """A leader whose only play would go out on a barred play passes the lead on; once
    every seat holding cards has, the restriction is waived until the next play
    (``Game.waive``): the core keeps the deal through it as the Python trick loop does,
    undo, copies and pickles included, and refuses the barred play in the same words."""
    assert native.native_deal_reason(rules) is None
    assert native.native_game_reason(rules) in ("finish_restrictions", "decks")
    for seed in range(12):
        lockstep(rules, seed, hands)
    ref, game = pair_of(rules, hands)
    passes = waived = 0
    while not ref.is_over():
        legal = ref.legal_masks()
        assert game.legal_masks() == legal
        hand = ref.hands[ref.to_move]  # type: ignore[index]
        if ref.leading and legal == [0]:  # only the barred whole hand: pass the lead
            passes += 1
            outcomes = []
            for g in (ref, game):
                with pytest.raises(IllegalPlayError) as err:
                    g.play(hand)
                outcomes.append(str(err.value))
            assert outcomes[0] == outcomes[1]
            assert "may not go out" in outcomes[0] or "first play must contain" in outcomes[0]
        for g in (ref, game):
            g.play(legal[-1] if legal != [0] else 0)
        waived += ref.waive
        assert state(game) == state(ref)
    assert passes
    assert waived or len(hands[0].split()) > 1  # one 2 each: every seat passes, then waived


def test_games_rebuilt_from_views_match() -> None:
    """A search's game from a view (the true hands as the guess) is the same game on
    both, and plays on alike."""
    rng = random.Random(3)
    for rules in (Rules(), Rules(players=3), Rules.preset("selfplay-2018"), WIDE[0]):
        ref, game = pair(rules, rng.randrange(1000))
        for _ in range(rng.randrange(1, 30)):
            play = rng.choice(ref.legal_masks())
            ref.play(play)
            game.play(play)
        for seat in range(rules.players):
            with python_engine():
                a = Game.from_view(ref.view(seat), ref.hands)
            b = Game.from_view(game.view(seat), game.hands)
            assert b._core is not None and state(b) == state(a)
            while not a.is_over():
                play = rng.choice(a.legal_masks())
                a.play(play)
                b.play(play)
            assert state(b) == state(a)
            while a.history:  # undo goes back to the view's start, not the dealt one
                assert b.undo() == a.undo()
            assert state(b) == state(a)
    fresh = Game(seed=2)  # no play yet: the opening card is the must-contain card
    b = Game.from_view(fresh.view(fresh.to_move), fresh.hands)  # type: ignore[arg-type]
    assert b._core is not None and b.must_contain == fresh.must_contain


def test_a_game_ended_from_outside_leaves_the_core() -> None:
    """end() and setting a piece of state take the game out of the core: its state
    becomes plain attributes and the Python trick loop goes on from there."""
    ref, game = pair(Rules(), 5)
    for _ in range(9):
        play = ref.legal_masks()[-1]
        ref.play(play)
        game.play(play)
    twin = game.copy()
    twin.hands = list(twin.hands)  # setting state: out of the core, nothing lost
    assert twin._core is None and type(twin) is Game and state(twin) == state(ref)
    play = ref.legal_masks()[0]
    for g in (ref, twin):
        g.play(play)
    assert state(twin) == state(ref)
    assert twin.undo() == ref.undo() and state(twin) == state(ref)
    ended = Outcome(0, (0,) * 4, (0,))
    for g in (ref, game):
        g.end(ended)
    assert game._core is None and type(game) is Game and game.outcome() == ended
    assert state(game) == state(ref)


def bad_calls(g: Game) -> list[Callable[[], object]]:
    """Bad input of every kind for the position *g* is in."""
    seat = g.to_move if g.to_move is not None else 0
    held = g.hands[seat]
    foreign = next(m for m in (1 << c for c in range(52)) if not m & held)
    mine = cards_of(held)
    return [
        lambda: g.play(foreign), lambda: g.play(CardSet(foreign)),
        lambda: g.play(held | foreign), lambda: g.play(str(CardSet(foreign))),
        lambda: g.play("2S 2H 2C 2D 3D"),
        lambda: g.play(sum(1 << c for c in mine[1:3])),
        lambda: g.play(sum(1 << c for c in mine[-5:])),
        lambda: g.play(sum(1 << c for c in mine[:4])),
        lambda: g.play(1 << 60), lambda: g.play(1 << 200), lambda: g.play(-1),
        lambda: g.play(foreign << 54), lambda: g.play(1 << 52), lambda: g.play(1 << 107),
        lambda: g.play(held & -held | 1 << 106), lambda: g.play(held << 54 & ~held),
        lambda: g.play(1.5), lambda: g.play(None), lambda: g.play(True),  # type: ignore[arg-type]
        lambda: g.play("XX"), lambda: g.play(["3D"]), lambda: g.play([99]),  # type: ignore[list-item]
        lambda: g.play(object()),  # type: ignore[arg-type]
        lambda: g.play([mine[0], mine[0]]), lambda: g.play([*mine[:2], mine[1]]),
        lambda: g.play(1 << 54 | held & -held),
        lambda: g.pass_turn(), lambda: g.play(0), lambda: g.play("pass"),
        lambda: g.is_legal(foreign), lambda: g.is_legal("XX"), lambda: g.check_play(foreign),
        lambda: foreign in g.legal_plays(), lambda: "XX" in g.legal_plays(),
        lambda: 1.5 in g.legal_plays(), lambda: g.legal_plays()[99],
        lambda: g.view(g.num_players),
    ]


def outcomes(g: Game) -> list[str]:
    """What each bad call does to a copy of *g*: its result, or its exception's type and words."""
    out = []
    for i in range(len(bad_calls(g))):
        h = g.copy()
        try:
            got = bad_calls(h)[i]()
        except Exception as exc:  # noqa: BLE001 -- the type and words are compared
            out.append(f"{type(exc).__name__}: {exc}")
        else:
            out.append(f"ok {got!r} {h.history}")
    return out


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
def test_bad_input_raises_the_same_on_both_at_every_kind_of_position() -> None:
    """A card not held, a foreign or malformed play, a wrong type, a pass when
    leading, a play after the deal: the same exception with the same words."""
    rng = random.Random(8)
    for rules in (Rules(), Rules.preset("taiwan", players=3), WIDE[0], Rules(jokers="valueless"),
                  Rules(jokers="wild")):
        ref, game = pair(rules, 21)
        seen: list[str] = []
        while True:
            a, b = outcomes(ref), outcomes(game)
            assert a == b
            seen += [o for o in a if "Error" in o]
            if ref.is_over():
                break
            play = rng.choice(ref.legal_masks())
            ref.play(play)
            game.play(play)
        assert len(seen) > 100
        for words in ("do not hold", "not a combination", "over", "cannot pass", "not a set",
                      "TypeError", "no seat", "given twice", "is not in this game's deck"):
            assert any(words in o for o in seen), words


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(jokers="valueless"),
                                   Rules(decks=2, players=6)], ids=repr)
def test_a_repeated_or_missing_card_number_is_named_alike(rules: Rules) -> None:
    """A card number given twice is refused by name (not played once), and a card
    number the deck lacks (a second copy with one deck) is said to be missing, not
    "not held": the same words on both engines, at every position of a deal."""
    ref, game = pair(rules, 5)
    deck = game.variant.deck
    missing = next(c for c in range(108) if not deck.cards >> c & 1)
    rng = random.Random(5)
    while not ref.is_over():
        seat = ref.to_move
        assert seat is not None
        low = cards_of(ref.hands[seat])[0]
        for g in (ref, game):
            with pytest.raises(IllegalPlayError) as twice:
                g.play([low, low])
            assert str(twice.value) == f"card {CardSet(1 << low)} given twice (card number {low})"
            with pytest.raises(IllegalPlayError) as absent:
                g.play(1 << missing)
            assert str(absent.value).startswith(f"card number {missing} is not in this game's deck")
            assert not g.is_legal([low, low]) and [low, low] not in g.legal_plays()
        play = rng.choice(ref.legal_masks())
        ref.play(play)
        game.play(play)
        assert state(ref) == state(game)


def test_legal_plays_read_alike() -> None:
    ref, game = pair(Rules(), 4)
    for g in (ref, game):
        g.play(g.legal_masks()[0])
    a, b = ref.legal_plays(), game.legal_plays()
    assert type(a) is type(b) and a == b and b == list(a) and b == ref.legal_masks()
    assert [b[i] for i in range(-len(b), len(b))] == [a[i] for i in range(-len(a), len(a))]
    assert b[1:4] == a[1:4] and b[::-1] == a[::-1] and list(b) == list(a)
    assert all(type(x) is CardSet for x in (*b, *b[:2]))
    assert repr(b) == repr(a) and len(b) == len(a)
    with contextlib.suppress(TypeError):
        hash(b)
        raise AssertionError("legal plays are not hashable, like a list")


def test_the_python_plays_base_reads_as_the_cores() -> None:
    """Where the core is not built, LegalPlays stands on a Python base that reads the same."""
    from big2.native_deal import _PlaysBase

    class Plain(_PlaysBase):
        __slots__ = ()

    game = Game(seed=6)
    core = game.legal_plays()
    plain = Plain()
    plain._masks = game.legal_masks()
    assert len(plain) == len(core) and list(plain) == list(core)
    assert [plain[i] for i in range(-len(core), len(core))] == [core[i] for i in
                                                                  range(-len(core), len(core))]
    assert plain[1:3] == core[1:3] and all(type(x) is CardSet for x in (*plain, *plain[:2]))
    with pytest.raises(IndexError):
        plain[len(core)]
    with pytest.raises(IndexError):
        core[len(core)]
