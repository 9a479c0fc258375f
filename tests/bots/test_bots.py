"""Bots: only legal plays under every preset and many option mixes, never a
hidden card, deterministic by seed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from big2 import Game, Rules
from big2.bots import BOT_LEVELS, make_bot
from big2.bots.rules_based.planning import plan
from big2.bots.search.configs import expert_v1 as ExpertBot
from big2.bots.search.worlds import leader_pass_seats, sample_worlds
from big2.cards import BB_RANKS, FULL_DECK, TWO, parse_cards
from big2.combos import engine

MIXES = [
    {"players": 2}, {"players": 3}, {"players": 3, "deal": "13-each"},
    {"players": 2, "deal": "13-each"}, {"passing": "lock-out"},
    {"two_pairs": True, "four_of_a_kind_alone": True},
    {"five_two_pairs": "sisters", "five_trips": True},
    {"five_two_pairs": "any", "triples": False},
    {"five_card_compare": "same-kind"}, {"five_card_compare": "top-card"},
    {"suit_ranking": False}, {"straight_beats_flush": True, "four_kicker": False},
    {"finish_restrictions": ("single-2", "pair-2", "any-2", "2S")},
    {"finish_restrictions": ("2S",), "players": 2, "passing": "lock-out"},
    {"scoring": "ranking", "players": 3}, {"flush_order": "suit", "suit_order": "CSHD"},
]
RULESETS = [Rules.preset(p) for p in Rules.presets()] + [Rules.from_dict(m) for m in MIXES]
FAST_BOTS = ["random", "greedy", "heuristic"]


def play_out(rules: Rules, seed: int, names: list[str], **options: object) -> Game:
    """Play one deal, asserting every choice is one of ``view.legal``."""
    game = Game(rules, seed=seed)
    bots = [make_bot(names[s % len(names)], seed=seed + s, **options)
            for s in range(rules.players)]
    while not game.is_over():
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        choice = bots[seat].choose(view)
        assert choice in view.legal, (rules, seed, seat, choice)
        game.play(choice)
    return game


@pytest.mark.sweep  # over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: r.name + repr(r.diff())[:40])
def test_fast_bots_play_only_legal_plays(rules: Rules) -> None:
    for seed in range(12):
        game = play_out(rules, seed, FAST_BOTS)
        assert game.outcome() is not None


@pytest.mark.parametrize("rules", RULESETS[::2], ids=lambda r: r.name + repr(r.diff())[:40])
def test_expert_plays_only_legal_plays(rules: Rules) -> None:
    game = Game(rules, seed=3)
    bots = [ExpertBot(seed=1, budget=6) if s % 2 == 0 else make_bot("heuristic")
            for s in range(rules.players)]
    while not game.is_over():
        view = game.view(game.to_move)  # type: ignore[arg-type]
        choice = bots[game.to_move].choose(view)  # type: ignore[index]
        assert choice in view.legal
        game.play(choice)


options_strategy = st.fixed_dictionaries({
    "players": st.integers(2, 4),
    "deal": st.sampled_from(["even", "13-each"]),
    "suit_order": st.sampled_from(["DCHS", "CDHS", "CDSH", "CSHD"]),
    "suit_ranking": st.booleans(),
    "straight_order": st.sampled_from(["hk", "malaysia", "indonesia", "pagat", "ace-low",
                                       "ace-top", "vietnam"]),
    "five_card_compare": st.sampled_from(["kind", "same-kind", "top-card"]),
    "triples": st.booleans(), "two_pairs": st.booleans(),
    "four_of_a_kind_alone": st.booleans(), "four_kicker": st.booleans(),
    "five_two_pairs": st.sampled_from(["no", "any", "sisters"]),
    "five_trips": st.booleans(),
    "passing": st.sampled_from(["jump-back", "lock-out"]),
    "finish_restrictions": st.lists(st.sampled_from(["single-2", "pair-2", "any-2", "2S"]),
                                    unique=True),
    "scoring": st.sampled_from(["classic", "count", "ranking", "penalty"]),
})


@settings(max_examples=60, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32))
def test_heuristic_legal_under_random_option_mixes(options: dict, seed: int) -> None:
    play_out(Rules.from_dict(options), seed, ["heuristic", "greedy", "random"])


def test_levels_map_to_bots() -> None:
    assert BOT_LEVELS == {"easy": "greedy", "medium": "heuristic", "hard": "guided-search",
                          "expert": "guided-search"}
    assert type(make_bot("easy")).__name__ == "GreedyBot"
    assert type(make_bot("medium")).__name__ == "HeuristicBot"
    hard = make_bot("hard")
    assert hard.name == "guided-search" and hard.budget == 200  # type: ignore[attr-defined]
    assert make_bot("hard", budget=7).budget == 7  # type: ignore[attr-defined]
    assert make_bot("guided-search").budget == ExpertBot().budget  # type: ignore[attr-defined]
    expert = make_bot("expert")
    assert expert.name == "guided-search" and expert.budget == 2000  # type: ignore[attr-defined]
    assert expert.search.margin == hard.search.margin == 1  # type: ignore[attr-defined]
    # both levels play heuristic play-outs (the policy play-out is an option: playout=policy)
    assert type(expert.search.evaluator).__name__ == "HeuristicPlayout"  # type: ignore[attr-defined]
    assert type(hard.search.evaluator).__name__ == "HeuristicPlayout"  # type: ignore[attr-defined]
    assert type(make_bot("policy-net")).__name__ == "PolicyNetBot"
    assert make_bot("policy-search").name == "policy-search"
    assert make_bot("expert-v1").name == "expert-v1"
    assert type(make_bot("random")).__name__ == "RandomBot"


def test_greedy_beats_with_lowest_and_leads_lowest_card_shedding_most() -> None:
    hand = "3D 4C 5H 6S 7D 9C 9D KH KS 2S"
    game = Game(hands=[hand, "3C 4D 5D 6D 7C 8C 8D TC JC QC",
                       "3H 4H 5S 6H 7H 8H 9H TH JH QH", "3S 4S 5C 6C 7S 8S 9S TS JS QS"])
    view = game.view(0)
    choice = make_bot("greedy").choose(view)
    assert choice == int(parse_cards("3D 4C 5H 6S 7D"))   # holds 3♦, sheds five
    game.play("3D")
    view = game.view(1)
    assert make_bot("greedy").choose(view) == int(parse_cards("3C"))   # lowest that beats 3♦


def _alt_game(game: Game, seat: int, rng: random.Random) -> Game:
    """The same public position with the other seats' hidden cards reshuffled."""
    view = game.view(seat)
    pool = [c for c in range(52) if (FULL_DECK & ~int(view.hand) & ~int(view.played)) >> c & 1]
    rng.shuffle(pool)
    hands = []
    for s, n in enumerate(view.card_counts):
        if s == seat:
            hands.append(int(view.hand))
        else:
            hands.append(sum(1 << c for c in pool[:n]))
            pool = pool[n:]
    return Game.from_view(view, hands)


@pytest.mark.parametrize("name", ["heuristic", "expert"])
def test_choice_depends_on_the_view_only(name: str) -> None:
    """Two positions that differ only in cards the seat cannot see give equal
    views and the same choice: nothing hidden reaches the bot."""
    rng = random.Random(4)
    game = Game(seed=21)
    for _ in range(9):
        game.play(make_bot("greedy").choose(game.view(game.to_move)))  # type: ignore[arg-type]
    seat = game.to_move
    assert seat is not None
    alt = _alt_game(game, seat, rng)
    assert [alt.hand(s) for s in range(4)] != [game.hand(s) for s in range(4)]
    assert alt.view(seat) == game.view(seat)
    opts = {"budget": 30} if name == "expert" else {}
    a = make_bot(name, seed=5, **opts).choose(game.view(seat))
    b = make_bot(name, seed=5, **opts).choose(alt.view(seat))
    assert a == b


def test_expert_is_deterministic_for_a_seed_and_validates_options() -> None:
    game = Game(seed=8)
    view = game.view(game.to_move)  # type: ignore[arg-type]
    picks = {ExpertBot(seed=3, budget=40).choose(view) for _ in range(3)}
    assert len(picks) == 1
    with pytest.raises(ValueError):
        ExpertBot(budget=0)
    with pytest.raises(ValueError):
        ExpertBot(seconds=-1)


def test_expert_samples_are_consistent_with_the_view() -> None:
    game = Game(seed=2)
    for _ in range(12):
        game.play(make_bot("greedy").choose(game.view(game.to_move)))  # type: ignore[arg-type]
    view = game.view(game.to_move)  # type: ignore[arg-type]
    for hands in sample_worlds(view, 20, seed=0):
        assert hands[view.seat] == int(view.hand)
        assert [h.bit_count() for h in hands] == list(view.card_counts)
        union = 0
        for h in hands:
            assert not union & h
            union |= h
        assert not union & int(view.played)


def test_leader_pass_reveals_a_barred_single() -> None:
    """Under 'single-2', a leader holding only a 2 must pass; the expert
    infers that the passer holds a 2 and samples accordingly."""
    rules = Rules(finish_restrictions=("single-2",), players=3)
    game = Game(rules, hands=["3D 4D 6D", "2S 5C", "7C 8C 9C"])
    game.play("3D")
    game.play("5C")      # seat 1 is left with 2♠
    game.pass_turn()     # seat 2
    game.pass_turn()     # seat 0; seat 1 leads with only 2♠ and may not go out on it
    assert game.leading and game.to_move == 1 and game.legal_masks() == [0]
    game.pass_turn()
    view = game.view(game.to_move)  # type: ignore[arg-type]
    assert leader_pass_seats(view) == {1}
    for world in sample_worlds(view, 10, seed=0):
        hidden = world[1]
        assert hidden.bit_count() == 1 and hidden & BB_RANKS[TWO]


def test_plan_partitions_the_hand() -> None:
    eng = engine(Rules())
    rng = random.Random(0)
    for _ in range(30):
        cards = rng.sample(range(52), rng.randint(1, 13))
        hand = sum(1 << c for c in cards)
        p = plan(eng, hand)
        union = 0
        for m in p.combos:
            assert eng.classify(m) is not None
            assert not union & m
            union |= m
        assert union == hand


def test_pass_events_record_what_each_pass_was_on() -> None:
    from big2.bots.search.worlds import pass_events

    game = Game(hands=["3D 9S", "4D 8C", "5D 7H", "6D 2S"])
    game.play("3D")
    game.play("4D")
    game.pass_turn()      # seat 2 passes on 4♦
    game.play("2S")       # seat 3
    game.pass_turn()      # seat 0 passes on 2♠
    view = game.view(game.to_move)  # type: ignore[arg-type]
    events = pass_events(view)
    assert (2, int(parse_cards("4D")), 0) in events
    assert (0, int(parse_cards("2S")), 0) in events
    assert all(seat != view.seat for seat, _, _ in events)


def _house_sets() -> list[dict]:
    from house_options import HOUSE_RULE_OPTION_SETS

    return HOUSE_RULE_OPTION_SETS


@pytest.mark.sweep  # against a reference or over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", _house_sets(), ids=lambda o: ",".join(map(str, o.items())))
def test_heuristic_and_expert_legal_under_house_rules_on_rich_hands(options: dict) -> None:
    """Deals rich in bombs, runs of pairs and long straights, so the rare
    plays of each house rule reach the planning code and the search."""
    from house_options import for_players, rich_hands

    for i, players in enumerate((4, 3)):
        rules = Rules(**for_players(options, players))
        rng = random.Random(50 + i)
        game = Game(rules, hands=rich_hands(rng, players, 13))
        bots = [ExpertBot(seed=i, budget=6) if s == 0 else make_bot("heuristic")
                for s in range(players)]
        while not game.is_over():
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            choice = bots[seat].choose(view)
            assert choice in view.legal
            game.play(choice)


def test_every_name_is_reachable_once_and_says_what_it_is() -> None:
    import numpy as np

    from big2.bots import available_bots, describe_bots, register_bot
    from big2.bots.policy.dmc import QNet
    from big2.bots.simple import RandomBot

    about = describe_bots()
    assert list(about) == [*BOT_LEVELS, *sorted(set(about) - set(BOT_LEVELS))]
    assert sorted(available_bots()) == sorted(about)
    assert len(available_bots()) == len(set(available_bots()))  # no name twice
    for name, text in about.items():
        assert text, name
        small = name in ("hard", "expert", "expert-v1", "guided-search", "policy-search")
        options: dict[str, object] = {"budget": 4} if small else {}
        if name == "dmc":  # no network ships under the bare name: it plays the one given
            options = {"weights": QNet.random(np.random.default_rng(0), hidden=(4,))}
        bot = make_bot(name, seed=1, **options)
        assert bot.name == BOT_LEVELS.get(name, name), name  # the bot says which it is
    with pytest.raises(ValueError, match="is a bot level"):
        register_bot("expert", RandomBot)
