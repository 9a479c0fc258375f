"""The heuristic bot in the compiled core (:mod:`big2.bots.rules_based.native`) against its
Python reference (:mod:`big2.bots.rules_based.planning`, :mod:`big2.bots.rules_based.control`,
:func:`big2.bots.search.evaluators.rollout`): the same play on every position, the same
final scores from every play-out.

Positions come from deals played a random number of steps by a mix of random,
heuristic and greedy seats, under the classic rules, every named preset the
engine plays natively and random combinations of the options it plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from big2 import Game, Rules
from big2.bots import Bot, make_bot
from big2.bots.rules_based import native
from big2.bots.rules_based.heuristic import HeuristicBot
from big2.bots.rules_based.planning import DEFAULT_STYLE, V1, Style, heuristic_play, plan
from big2.bots.search.configs import expert_v1 as ExpertBot
from big2.bots.search.evaluators import greedy_play, play_out, rollout
from big2.cards import FULL_DECK
from big2.combos import engine
from big2.env.vector import VectorEnv
from big2.presets import PRESETS
from big2.variant import variant
from big2.variant.native import available, native_game_reason, native_reason

pytestmark = pytest.mark.skipif(not available(), reason="big2._native is not built")

_CHOICES: dict[str, tuple[object, ...]] = {
    "players": (2, 3, 3, 4, 4, 4),
    "deal": ("even", "13-each"),
    "suit_order": ("DCHS", "CDHS", "CDSH", "CSHD"),
    "suit_ranking": (True, True, False),
    "straight_order": ("hk", "malaysia", "indonesia", "pagat", "ace-low", "ace-top", "vietnam"),
    "flush_order": ("ranks", "suit", "top-card"),
    "straight_beats_flush": (False, True),
    "five_card_compare": ("kind", "same-kind", "top-card"),
    "triples": (True, True, False),
    "two_pairs": (False, True),
    "four_of_a_kind_alone": (False, True),
    "four_kicker": (True, False),
    "five_two_pairs": ("no", "any", "sisters"),
    "five_trips": (False, True),
    "passing": ("jump-back", "lock-out"),
    "opening": ("contains", "alone"),
    "scoring": ("classic", "penalty", "count", "ranking"),
    "twos_double": ("each", "once"),
    "direction": ("counter-clockwise", "clockwise"),
    "trick_end": ("all-pass", "one-pass"),
    "spare_to": ("lowest", "highest", "aside"),
    "play_equal": (False, False, True),
}
"""Options the native engine plays, and values to draw (repeats weight a value)."""
_HOUSE: dict[str, tuple[object, ...]] = {
    "finish_restrictions": ((), (), ("single-2", "pair-2"), ("any-2",), ("2S",)),
    "go_fish": (False, False, False, True),
}
"""House rules the heuristic meets on native engines (the game lists the legal plays)."""


def random_rules(rng: random.Random, house: bool = True) -> Rules:
    """A valid rule set of random native options (with house rules when *house*).

    Two players with ``play_equal`` and extra five-card kinds are left out: their
    26-card hands take the Python reference most of a second a decision (its
    non-plain follows classify every listed play of the unseen cards)."""
    while True:
        opts = {k: rng.choice(v) for k, v in _CHOICES.items()}
        if opts["players"] == 2 and opts["play_equal"]:
            opts["five_trips"], opts["five_two_pairs"] = False, "no"
        if house:
            opts.update({k: rng.choice(v) for k, v in _HOUSE.items()})
        try:
            rules = Rules(**opts)  # type: ignore[arg-type]
        except ValueError:
            continue
        if native_reason(rules) is None and (house or native_game_reason(rules) is None):
            return rules


def _unseen(game: Game, seat: int) -> int:
    return FULL_DECK & ~game.hands[seat] & ~game.played()


def positions(rules: Rules, count: int, seed: int) -> Iterator[tuple[Game, int]]:
    """*count* positions (a game, with a seat to move and two legal plays at least),
    from deals played by random, heuristic and greedy seats (a mix per deal)."""
    rng = random.Random(seed)
    eng = engine(rules)
    made = 0
    while made < count:
        g = Game(rules, seed=rng.getrandbits(32), dealer=rng.randrange(rules.players))
        kinds = [rng.choice("rhg") for _ in range(g.num_players)]
        keep = rng.random() * 0.6 + 0.2
        while g.to_move is not None and made < count:
            seat = g.to_move
            legal = g.legal_masks()
            if len(legal) > 1 and rng.random() < keep:
                made += 1
                yield g, seat
            if g.to_move is None:
                break
            kind = kinds[seat]
            if kind == "r":
                choice = rng.choice(legal)
            elif kind == "g":
                choice = greedy_play(eng, g.hands[seat], legal, g.leading)
            else:
                last = g.last_combo
                choice = heuristic_play(eng, seat, g.hands[seat], legal, last.cards if last else 0,
                                        g.card_counts(), _unseen(g, seat))
            g.play(choice)


def agreement(rules: Rules, count: int, seed: int, styles: tuple[Style, ...]) -> int:
    """How many decisions were compared; asserts each one agrees."""
    eng = engine(rules)
    assert native.config(eng) is not None, rules
    n = 0
    for g, seat in positions(rules, count, seed):
        legal = list(g.legal_masks())
        last = g.last_combo
        args = (eng, seat, g.hands[seat], legal, last.cards if last else 0, g.card_counts(),
                _unseen(g, seat))
        for style in styles:
            want = heuristic_play(*args, style)
            got = native.heuristic_play(*args, style)
            assert got == want, (rules, style, args[1:], got, want)
            n += 1
    return n


NAMED = [name for name in PRESETS if native_reason(Rules.preset(name)) is None]
"""The presets the engine plays natively (``classic`` and ``selfplay-2018`` among them)."""


def named_rule_sets() -> list[Rules]:
    return [Rules.preset(name) for name in NAMED]


@pytest.mark.parametrize("name", NAMED)
def test_same_choice_as_python_under_each_preset(name: str) -> None:
    assert agreement(Rules.preset(name), 250, 11, (DEFAULT_STYLE, V1)) == 500


def test_same_choice_as_python_under_random_options() -> None:
    rng = random.Random(2024)
    total = 0
    for i in range(12):  # 150 more option sets in the nightly sweep below
        total += agreement(random_rules(rng), 80, 100 + i, (DEFAULT_STYLE, V1))
    assert total == 12 * 80 * 2


def test_same_choice_with_other_styles() -> None:
    rng = random.Random(7)
    styles = (Style(hold_two_above=3, hold_two_plays=2, break_limit=0.5, low_cards=6),
              Style(go_out=False, break_limit_danger=1.0), Style(all_kinds=False, low_cards=2))
    for i in range(3):
        agreement(random_rules(rng), 40, 300 + i, styles)


def test_same_plans_as_python() -> None:
    rng = random.Random(5)
    for i in range(8):
        rules = random_rules(rng)
        eng = engine(rules)
        for g, seat in positions(rules, 60, 500 + i):
            for all_kinds in (True, False):
                want = plan(eng, g.hands[seat], all_kinds)
                got = native.plan(eng, g.hands[seat], all_kinds)
                assert got == (want.combos, want.cost), (rules, g.hands[seat])


SWEEP_PARTS = 32
"""The large sweeps below run in this many parts, which the workers (and CI's nightly
slices) share; together the parts check what the whole sweep checks."""

CHUNKS = 5
"""A named rule set's positions in a large sweep come in this many chunks (each from its
own seed), so that no part holds a whole preset: parts of 8 took up to 8 minutes."""


def share(work: list[tuple[Rules, int, int]], part: int) -> list[tuple[Rules, int, int]]:
    """Part *part* of a large sweep's *work* (rule set, positions, seed), dealt round."""
    return work[part::SWEEP_PARTS]


@pytest.mark.nightly
@pytest.mark.parametrize("part", range(SWEEP_PARTS))
def test_same_choice_as_python_large_sweep(part: int) -> None:
    rng = random.Random(99)
    option_sets = [random_rules(rng) for _ in range(150)]  # drawn whole: the same sets
    work = [(rules, 2500 // CHUNKS, 21 + 100_000 * c)
            for rules in named_rule_sets() for c in range(CHUNKS)]
    work += [(rules, 200, 1000 + i) for i, rules in enumerate(option_sets)]
    for rules, count, seed in share(work, part):
        agreement(rules, count, seed, (DEFAULT_STYLE, V1))


def test_unsupported_rule_sets_fall_back() -> None:
    assert native.config(engine(Rules(smack_down="2S"))) is None
    assert native.config(engine(Rules(straight_max=6))) is None
    assert native.config(variant(Rules(), engine="python").engine) is None
    eng = engine(Rules(dragon=True))
    g = Game(Rules(dragon=True), seed=3)
    seat = g.to_move
    assert seat is not None
    assert native.heuristic_play(eng, seat, g.hands[seat], g.legal_masks(), 0,
                                 g.card_counts(), _unseen(g, seat)) is None
    assert native.plan(eng, g.hands[seat]) is None


# -- the expert's play-outs ------------------------------------------------------


GAME_LOOP = [name for name in PRESETS if native_game_reason(Rules.preset(name)) is None]
"""The presets whose deals the core steps (no house-rule hooks)."""


def playout_agreement(rules: Rules, count: int, seed: int) -> int:
    """How many play-outs were compared; asserts each ends with the Python scores."""
    eng = engine(rules)
    rng = random.Random(seed)
    n = 0
    for g, _ in positions(rules, count, seed):
        greedy_seats = rng.randrange(1 << g.num_players) if rng.random() < 0.6 else 0
        hands = list(g.hands)
        got = native.rollout(g, eng, greedy_seats)
        assert g.hands == hands and g.to_move is not None  # left as it was
        ref = g.copy()
        rollout(ref, eng, greedy_seats)
        outcome = ref.outcome()
        assert outcome is not None
        assert got == outcome.scores, (rules, g.numbers(), hands, greedy_seats)
        n += 1
    return n


@pytest.mark.parametrize("name", GAME_LOOP)
def test_play_out_scores_as_python_under_each_preset(name: str) -> None:
    assert playout_agreement(Rules.preset(name), 60, 41) == 60


def test_play_out_scores_as_python_under_random_options() -> None:
    rng = random.Random(77)
    for i in range(6):  # 100 more option sets in the nightly sweep below
        playout_agreement(random_rules(rng, house=False), 25, 700 + i)


@pytest.mark.nightly
@pytest.mark.parametrize("part", range(SWEEP_PARTS))
def test_play_out_scores_as_python_large_sweep(part: int) -> None:
    rng = random.Random(78)
    option_sets = [random_rules(rng, house=False) for _ in range(100)]
    work = [(Rules.preset(name), 800 // CHUNKS, 42 + 100_000 * c)
            for name in GAME_LOOP for c in range(CHUNKS)]
    work += [(rules, 60, 900 + i) for i, rules in enumerate(option_sets)]
    for rules, count, seed in share(work, part):
        playout_agreement(rules, count, seed)


def test_play_out_falls_back_with_house_rules() -> None:
    rules = Rules.preset("philippines")  # finish restrictions: a hook
    g = Game(rules, seed=4)
    assert native.rollout(g, engine(rules)) is None
    assert play_out(g, engine(rules)) == g.outcome().scores  # type: ignore[union-attr]


def test_bots_choose_as_before() -> None:
    """The heuristic bot and expert-v1 make the choices the Python code makes."""
    rules = Rules()
    bot = HeuristicBot()
    for g, seat in positions(rules, 200, 9):
        view = g.view(seat)
        last = g.last_combo
        want = heuristic_play(engine(rules), seat, g.hands[seat], g.legal_masks(),
                              last.cards if last else 0, g.card_counts(), _unseen(g, seat))
        assert bot.choose(view) == want
    views = [g.view(seat) for g, seat in positions(Rules.preset("selfplay-2018"), 12, 10)]
    fast = [ExpertBot(seed=3, budget=60).choose(v) for v in views]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(native, "config", lambda eng: None)
        slow = [ExpertBot(seed=3, budget=60).choose(v) for v in views]
    assert fast == slow


@pytest.mark.parametrize("name", ["classic", "selfplay-2018", "pagat", "hawaii"])
def test_expert_search_values_as_python(name: str) -> None:
    """expert-v1's search gives every candidate the same value through the core's
    play-outs (a frame per decision, a sample's candidates at once) as through Python's."""
    rules = Rules.preset(name)
    views = [g.view(seat) for g, seat in positions(rules, 8, 12)]
    fast = [ExpertBot(seed=5, budget=48).analyse(v) for v in views]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(native, "config", lambda eng: None)
        slow = [ExpertBot(seed=5, budget=48).analyse(v) for v in views]
    assert fast == slow


def test_choose_in_is_choose_of_the_view() -> None:
    """The vector environment's opponents read the game directly: the same play."""
    bots = [HeuristicBot(), make_bot("heuristic-v1")]
    for name in ("classic", "selfplay-2018", "philippines"):
        for g, seat in positions(Rules.preset(name), 150, 13):
            for bot in bots:
                assert bot.choose_in(g, seat) == bot.choose(g.view(seat))


def test_env_against_the_heuristic_as_before() -> None:
    """A vector env seating heuristics steps as it did through views and Python."""
    def run() -> list[np.ndarray]:
        venv = VectorEnv(6, "selfplay-2018", seed=4, opponents="heuristic", learners=(0,))
        obs, _ = venv.reset()
        rng = np.random.default_rng(1)
        out = []
        for _ in range(60):
            acts = np.array([rng.choice(np.flatnonzero(row)) for row in obs["action_mask"]])
            obs, reward, _, _, _ = venv.step(acts)
            out += [obs["observation"].copy(), reward.copy()]
        return out

    fast = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(native, "config", lambda eng: None)
        mp.setattr(HeuristicBot, "choose_in", Bot.choose_in)
        slow = run()
    assert all((a == b).all() for a, b in zip(fast, slow, strict=True))
