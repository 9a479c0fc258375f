"""Every house-rule option is listed by ``big2 rules`` and accepted by
``big2 play --set`` (the terminal game plays a turn and quits)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from house_options import HOUSE_RULE_OPTION_SETS, for_players, option_id

from big2.cli import main
from big2.rules import OPTIONS


def test_every_house_option_is_listed_with_help() -> None:
    out = CliRunner().invoke(main, ["rules"]).output
    names = {k for options in HOUSE_RULE_OPTION_SETS for k in options}
    for name in names:
        option = next(o for o in OPTIONS if o.name == name)
        assert name in out and option.help.split()[0] in out


def as_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


@pytest.mark.parametrize("options", HOUSE_RULE_OPTION_SETS, ids=option_id)
def test_terminal_game_accepts_house_option(options: dict) -> None:
    args = ["play", "--seed", "3"]
    for k, v in options.items():
        args += ["--set", f"{k}={as_text(v)}"]
    res = CliRunner().invoke(main, args, input="1\np\n1\nq\n")
    assert res.exit_code == 0, res.output
    assert "rules: custom" in res.output
    for k in options:
        assert k in res.output  # the changed options are shown


def test_off_reads_as_the_off_choice() -> None:
    res = CliRunner().invoke(main, ["play", "--set", "smack_down=off", "--seed", "1"], input="q\n")
    assert res.exit_code == 0, res.output


def test_terminal_announces_the_last_card() -> None:
    import io

    from big2 import Game, Match, Rules
    from big2.bots import make_bot
    from big2.terminal import TerminalGame
    rules = Rules(last_card=True, match_deals=1)
    match = Match(rules, seed=1)
    out = io.StringIO()
    tg = TerminalGame(match, [make_bot("greedy", seed=s) for s in (1, 2, 3)],
                      stdin=io.StringIO("l\nq\n"), stdout=out)
    g = Game(rules, hands=["3D 2S", "4D 4C 8C", "5D 5C 8D", "6D 6C 8H"])
    g.play("3D")
    for _ in range(3):
        g.play(g.legal_masks()[0])
    assert g.to_move == 0
    assert not tg.human_turn(g)  # announces, then quits
    assert g.announced[0] and "last card!" in out.getvalue()


@pytest.mark.sweep  # over many rule sets: make test, not make test-fast
@pytest.mark.parametrize("options", HOUSE_RULE_OPTION_SETS, ids=option_id)
def test_records_replay_under_house_option(options: dict) -> None:
    """A deal played under the option is written, read back and replayed
    through the engine to the same scores (Go-Fish draws included)."""
    import random

    from big2 import Game, Rules
    from big2.records import GameRecord, read_one, write
    for seed in range(3):
        g = Game(Rules(**for_players(options, (4, 3, 2)[seed])), seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            g.play(rng.choice(g.legal_masks()))
        back = read_one(write(GameRecord.from_game(g))).check()
        assert back.scores() == g.scores() and back.history == g.history
