"""The league's shipped members (big2.bots.policy.league, issue 53 item 3): each is a bot
of its name on a small weights file of the package, trained as long as the issue asks,
plays only legal plays in whole deals of the families it learnt, repeats for a seed, and
is among the gauntlet's default opponents."""

from __future__ import annotations

import pytest
from bot_games import play_deal

from big2 import Rules
from big2.arena.gauntlet import DEFAULT_OPPONENTS
from big2.bots import available_bots, make_bot
from big2.bots.policy.dmc import DMCBot, load_qnet
from big2.bots.policy.league import LEAGUE_WEIGHTS
from big2.bots.policy.net import PolicyNetBot
from big2.bots.policy.pnet import WEIGHTS_DIR

MEMBERS = sorted(LEAGUE_WEIGHTS)


def test_the_league_ships_a_member_and_the_gauntlet_plays_against_it() -> None:
    assert MEMBERS, "no league member is shipped"
    assert DEFAULT_OPPONENTS[:len(MEMBERS)] == tuple(LEAGUE_WEIGHTS)
    assert set(MEMBERS) <= set(available_bots(ready=True))


@pytest.mark.parametrize("name", MEMBERS)
def test_a_member_is_small_and_trained_as_long_as_the_issue_asks(name: str) -> None:
    kind, file = LEAGUE_WEIGHTS[name]
    path = WEIGHTS_DIR / file
    assert path.stat().st_size <= 3_000_000, "a member's weights stay small (≤ 3 MB)"
    if kind == "dmc":
        meta = load_qnet(path).meta
        assert int(meta["steps"]) >= 200_000_000
        assert meta["families"] == "classic,selfplay-2018" and meta["scoring"] == "count"


@pytest.mark.parametrize("name", MEMBERS)
@pytest.mark.parametrize("family", ["classic", "selfplay-2018"])
def test_a_member_plays_whole_deals_legally_and_repeats_for_a_seed(name: str,
                                                                    family: str) -> None:
    kind, _ = LEAGUE_WEIGHTS[name]
    bot = make_bot(name, seed=3)
    assert isinstance(bot, DMCBot if kind == "dmc" else PolicyNetBot)
    rules = Rules.preset(family)
    seats = [name, "heuristic", name, "greedy"]
    first = play_deal(rules, 11, seats)  # play_deal checks every choice is legal
    again = play_deal(rules, 11, seats)
    assert first.is_over() and first.history == again.history
