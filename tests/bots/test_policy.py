"""CallableBot: a policy(observation, plays) -> index plays as a bot.

It plays only legal plays under every preset and the house rules the
observation holds, 2–4 players; what it hands the policy is the seat's view
encoded (equal to the environment's ``encode_game`` at every step) and the
legal plays as card rows; bad returns are a clear ValueError; a registered
policy plays by name through ``make_bot``, the arena and the bot protocol;
the same seed replays the same deal. Also ``card_vectors`` and the
``big2.env.observation`` re-export."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from house_options import HOUSE_RULE_OPTION_SETS, for_players, option_id

import big2.bots.base
import big2.env.observation
import big2.observation
from big2 import Game, Rules
from big2.arena import run_arena
from big2.bots import BOT_LEVELS, CallableBot, make_bot, register_policy
from big2.cards import cards_of, parse_cards
from big2.combos import engine
from big2.env.core import unsupported_options
from big2.observation import OBS_SIZE, card_vectors, encode_game
from big2.protocol import BotSession
from big2.variant.kinds import Kind
from big2.view import PlayerView

Array = np.ndarray[Any, np.dtype[np.int8]]


def most_cards(observation: Array, plays: Array) -> int:
    """The first legal play with the most cards (deterministic)."""
    return int(plays.sum(axis=1).argmax())


def seeded_random(seed: int) -> Callable[[Array, Array], Any]:
    """A stochastic policy owning its seeded generator (returns NumPy integers)."""
    rng = np.random.default_rng(seed)

    def policy(observation: Array, plays: Array) -> Any:
        return rng.integers(len(plays))

    return policy


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Registrations made in a test are undone after it."""
    monkeypatch.setattr(big2.bots.base, "_REGISTRY", dict(big2.bots.base._REGISTRY))
    yield


def mover(game: Game) -> PlayerView:
    """The view of the seat to move."""
    assert game.to_move is not None
    return game.view(game.to_move)


def rows_of(masks: tuple[int, ...]) -> list[list[int]]:
    """card_vectors' rows written out the slow way."""
    return [[c for c in range(52) if m >> c & 1] for m in masks]


def play_checked(rules: Rules, seed: int, policy: Callable[[Array, Array], Any]) -> Game:
    """One deal of PolicyBots; at every step the policy's inputs are checked
    against the game: the observation equals encode_game for the seat, the
    plays are view.legal's cards in order."""
    game = Game(rules, seed=seed)
    seen: dict[str, int] = {"seat": -1}

    def watched(observation: Array, plays: Array) -> Any:
        seat = seen["seat"]
        assert observation.dtype == np.int8 and observation.shape == (OBS_SIZE,)
        assert np.array_equal(observation, encode_game(game, seat))
        legal = game.view(seat).legal
        assert plays.dtype == np.int8 and plays.shape == (len(legal), 52)
        assert [list(np.flatnonzero(r)) for r in plays] == rows_of(legal)
        return policy(observation, plays)

    bots = [CallableBot(watched, seed=seed + s) for s in range(game.num_players)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        seen["seat"] = seat
        view = game.view(seat)
        choice = bots[seat].choose(view)
        assert choice in view.legal
        game.play(choice)
    assert game.outcome() is not None
    return game


@pytest.mark.sweep  # over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("preset", Rules.presets())
def test_plays_only_legal_plays_and_sees_the_env_observation_under_every_preset(preset: str) -> None:
    for deal in range(6):
        rules = Rules.preset(preset, players=(4, 3, 2)[deal % 3])
        policy = most_cards if deal % 2 else seeded_random(deal)
        play_checked(rules, 1000 + deal, policy)


ENCODABLE = [o for o in HOUSE_RULE_OPTION_SETS
             if not unsupported_options(Rules(**for_players(o, 4)))]


@pytest.mark.sweep  # over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", ENCODABLE, ids=option_id)
def test_plays_only_legal_plays_under_house_rules(options: dict[str, Any]) -> None:
    for deal in range(3):
        players = (4, 3, 2)[deal]
        play_checked(Rules(**for_players(options, players)), 50 + deal, seeded_random(deal))


def test_the_pass_is_an_all_zero_row_in_legal_order() -> None:
    game = Game(seed=4)
    game.play(game.legal_masks()[0])
    view = mover(game)
    assert 0 in view.legal
    got: list[Array] = []

    def keep(observation: Array, plays: Array) -> int:
        got.append(plays)
        return view.legal.index(0)

    assert CallableBot(keep).choose(view) == 0
    (plays,) = got
    assert not plays[view.legal.index(0)].any()
    assert [r.sum() for r in plays] == [m.bit_count() for m in view.legal]


PAST_END = object()


@pytest.mark.parametrize("value", [-1, PAST_END, 10**20, 1.0, "0", None, True, np.float64(0), [0]])
def test_bad_returns_raise_value_error_naming_policy_and_value(value: object) -> None:
    view = mover(Game(seed=2))
    if value is PAST_END:
        value = len(view.legal)

    def sloppy(observation: Array, plays: Array) -> object:
        return value

    with pytest.raises(ValueError, match=r"policy 'sloppy' returned .*legal plays") as err:
        CallableBot(sloppy).choose(view)
    assert f"returned {value!r};" in str(err.value)


@pytest.mark.parametrize("value", [np.int64(0), np.int32(1), np.uint8(2), np.intp(-0)])
def test_numpy_integers_are_accepted(value: np.integer[Any]) -> None:
    view = mover(Game(seed=2))
    assert CallableBot(lambda o, p: value).choose(view) == view.legal[int(value)]


def test_misuse_is_refused_clearly(registry: None) -> None:
    with pytest.raises(TypeError, match="callable"):
        CallableBot(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        register_policy("three", 3)  # type: ignore[arg-type]
    for level in BOT_LEVELS:
        with pytest.raises(ValueError, match="level"):
            register_policy(level, most_cards)
    game = Game(seed=2)
    idle = next(s for s in range(4) if s != game.to_move)
    with pytest.raises(ValueError, match="no legal play"):
        CallableBot(most_cards).choose(game.view(idle))


def test_rules_the_observation_cannot_hold_are_refused() -> None:
    with pytest.raises(ValueError, match="52-card deck"):
        CallableBot(most_cards).choose(mover(Game(Rules(jokers="wild"), seed=1)))
    # a run of pairs (a smack-down on the 2♠) has no place in last_kind: refused, not mis-encoded
    rules = Rules(smack_down="2S")
    lead, two, run = (int(parse_cards(t)) for t in ("3D", "2S", "4D 4C 5D 5C 6D 6C"))
    rest = [c for c in range(52) if not (lead | two | run) >> c & 1]
    hands = [lead | _mask(rest[:12]), two | _mask(rest[12:24]), run | _mask(rest[24:31]),
             _mask(rest[31:])]
    g = Game(rules, hands=hands)
    g.play(lead)
    g.play(two)
    assert engine(rules).classify(run).kind == Kind.PAIR_RUN  # type: ignore[union-attr]
    g.play(run)
    with pytest.raises(ValueError, match="run of pairs"):
        CallableBot(most_cards).choose(mover(g))


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def test_deterministic_policy_replays_for_a_seed() -> None:
    def history(seed: int, policy_seed: int | None) -> tuple[Any, ...]:
        game = Game(Rules(players=3), seed=seed)
        policy = most_cards if policy_seed is None else seeded_random(policy_seed)
        bots = [CallableBot(policy, seed=s) for s in range(3)]
        while not game.is_over():
            view = mover(game)
            game.play(bots[view.seat].choose(view))
        return tuple(game.history)

    assert history(8, None) == history(8, None)
    assert history(8, 1) == history(8, 1) != history(8, 2)


def test_registered_policy_plays_by_name_everywhere(registry: None) -> None:
    register_policy("most-cards", most_cards)
    bot = make_bot("most-cards", seed=3, temperature=0.5)
    assert isinstance(bot, CallableBot) and bot.name == "most-cards" and bot.seed == 3
    assert bot.options == {"temperature": 0.5}
    assert "most-cards" in big2.bots.base.available_bots()
    # the arena seats it by name (options too) and it never faults
    result = run_arena(["most-cards", "greedy"], deals=3, rules=Rules(players=2), seed=5)
    assert [s.name for s in result.seats] == ["most-cards", "greedy"] and result.games == 6
    assert result.seats[0].faults == 0
    again = run_arena(["most-cards:temperature=1", "greedy"], deals=3, rules=Rules(players=2),
                      seed=5)
    assert again.points == result.points and again.seats[0].name == "most-cards:temperature=1"
    # the bot protocol serves it
    session = BotSession(make_bot("most-cards", seed=1))
    hand = "3D 4D 5S 6H 7C 8C 9D TS JH QH KS AD 2C"
    assert session.handle('{"type": "new_deal", "rules": {"preset": "classic"}, "seat": 0, '
                          f'"hand": "{hand}", "first": 0, "must_contain": "3D"}}') == {"type": "ok"}
    reply = session.handle('{"type": "go"}')
    assert reply["type"] == "play" and len(reply["cards"].split()) == 5  # most cards, with 3♦


def test_card_vectors_match_the_masks() -> None:
    rng = random.Random(3)
    masks = [0, (1 << 52) - 1] + [rng.getrandbits(52) for _ in range(50)]
    v = card_vectors(masks)
    assert v.dtype == np.int8 and v.shape == (52, 52)
    assert [list(np.flatnonzero(r)) for r in v] == [list(cards_of(m)) for m in masks]
    assert card_vectors([]).shape == (0, 52)
    for bad in (1 << 52, 1 << 64, -1):
        with pytest.raises(ValueError, match="outside the 52-card deck"):
            card_vectors([1, bad])


def test_env_observation_reexports_every_name_of_the_encoder() -> None:
    names = [n for n in dir(big2.observation) if not n.startswith("__")]
    assert {"LAYOUT", "OBS_SIZE", "card_vectors", "_BYTE_BITS", "_REL", "_OFF"} <= set(names)
    for name in names:
        assert getattr(big2.env.observation, name) is getattr(big2.observation, name), name
    assert big2.env.observation.__all__ == big2.observation.__all__
    with pytest.raises(AttributeError, match="big2.env.observation"):
        big2.env.observation._no_such_name  # noqa: B018
