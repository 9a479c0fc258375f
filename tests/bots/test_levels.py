"""The levels: every level plays only legal plays under every preset (and
falls back where the network cannot read the rules), sees nothing hidden, and
is reproducible for a seed."""

from __future__ import annotations

import bot_games
import pytest
from bot_games import same_view_different_hidden_cards

from big2 import Game, Rules
from big2.bots import BOT_LEVELS, make_bot

LEVEL_OPTIONS = {"expert": {"budget": 8}, "hard": {"budget": 8}}


def play_deal(rules: Rules, seed: int, names: list[str]) -> Game:
    return bot_games.play_deal(rules, seed, names, LEVEL_OPTIONS)


@pytest.mark.parametrize("preset", Rules.presets())
def test_every_level_plays_legal_plays_under_every_preset(preset: str) -> None:
    levels = [*BOT_LEVELS, "random"]
    for players in (4, 3, 2):
        rules = Rules.preset(preset, players=players)
        names = [levels[(players + k) % len(levels)] for k in range(players)]
        play_deal(rules, seed=players * 31 + len(preset), names=names)


def test_a_rule_set_the_network_cannot_read_falls_back() -> None:
    play_deal(Rules(jokers="wild", players=3), 4, ["hard", "expert", "hard"])


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_choices_depend_only_on_what_the_seat_sees(level: str) -> None:
    differ = 0
    for seed in range(6):
        g, twin = same_view_different_hidden_cards(seed)
        seat = g.to_move
        assert seat is not None
        differ += g.hands != twin.hands
        a = make_bot(level, seed=3, **LEVEL_OPTIONS.get(level, {})).choose(g.view(seat))
        b = make_bot(level, seed=3, **LEVEL_OPTIONS.get(level, {})).choose(twin.view(seat))
        assert a == b
    assert differ  # the pairs really hid different cards


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_levels_are_reproducible_for_a_seed(level: str) -> None:
    first = play_deal(Rules(), 11, [level, "medium", level, "easy"]).history
    again = play_deal(Rules(), 11, [level, "medium", level, "easy"]).history
    assert first == again
