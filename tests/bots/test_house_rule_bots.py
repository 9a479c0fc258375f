"""Every bot plays only legal plays under each RULES.md §2 house rule.

The bots see views only; the game refuses an illegal play with
:class:`~big2.IllegalPlayError`, so finishing the deals proves legality.
The random and greedy bots always run; the heuristic bot runs when its module
is present (it is another developer's, registered on import).
"""

from __future__ import annotations

import importlib.util

import pytest
from house_options import HOUSE_RULE_OPTION_SETS, for_players, option_id

from big2 import Game, Rules
from big2.bots import make_bot

BOTS = ["random", "greedy"]
if importlib.util.find_spec("big2.bots.rules_based.heuristic") is not None:
    importlib.import_module("big2.bots.rules_based.heuristic")
    BOTS.append("heuristic")


def play_deal(rules: Rules, names: list[str], seed: int) -> Game:
    g = Game(rules, seed=seed)
    bots = [make_bot(names[s % len(names)], seed=seed + s) for s in range(g.num_players)]
    play_out(g, bots)
    return g


def play_out(g: Game, bots: list) -> None:
    """Bots play *g* to its end; every choice must be one of the view's legal plays."""
    while not g.is_over():
        seat = g.to_move
        assert seat is not None
        view = g.view(seat)
        choice = bots[seat].choose(view)
        assert choice in view.legal
        g.play(choice)


@pytest.mark.parametrize("options", HOUSE_RULE_OPTION_SETS, ids=option_id)
def test_bots_play_legally_under_house_rule(options: dict) -> None:
    for i in range(12):
        players = (4, 3, 2)[i % 3]
        rules = Rules(**for_players(options, players))
        g = play_deal(rules, BOTS[i % len(BOTS):] + BOTS[: i % len(BOTS)], seed=100 + i)
        assert g.outcome() is not None


@pytest.mark.parametrize("options", [{"exchange": "before"}, {"exchange": "after", "players": 3},
                                     {"teams": True}], ids=option_id)
def test_bots_play_matches_under_match_level_rules(options: dict) -> None:
    """President exchanges and team shoot-outs happen in matches: bots play them through."""
    from big2 import Match
    m = Match(Rules(**{**options, "match_deals": 3}), seed=7)
    while not m.is_over():
        g = m.new_game()
        bots = [make_bot(BOTS[s % len(BOTS)], seed=s) for s in range(g.num_players)]
        play_out(g, bots)
        m.record(g)
    assert len(m.results) == 3
