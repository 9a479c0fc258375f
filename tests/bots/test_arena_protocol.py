"""The arena's figures are reproducible; the bot protocol round-trips whole
deals between processes and answers bad messages with errors."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

import big2.arena
from big2 import Game, Rules
from big2.arena import parse_seat, play_duplicate, run_arena
from big2.bots import make_bot
from big2.commands.arena import arena_command
from big2.protocol import BotSession, ExternalBot, format_play

BOT_CMD = f"{sys.executable} -m big2.cli bot"


def test_arena_reproducible_and_independent_of_workers() -> None:
    seats = ["heuristic", "greedy", "random", "greedy"]
    a = run_arena(seats, deals=6, seed=11, scoring="count")
    b = run_arena(seats, deals=6, seed=11, scoring="count", workers=2)
    assert a == b
    assert a.points == b.points and len(a.points) == 6
    c = run_arena(seats, deals=6, seed=12, scoring="count")
    assert c.points != a.points
    # count scoring is zero-sum: every deal's points add up to zero
    assert all(sum(p) == 0 for p in a.points)
    assert abs(sum(s.mean for s in a.seats)) < 1e-5  # means are rounded to 6 places
    assert sum(s.win_rate for s in a.seats) == pytest.approx(1.0)
    for s in a.seats:
        assert s.ci_low <= s.mean <= s.ci_high
        assert s.decisions > 0 and 0 <= s.time_median <= s.time_p95


def test_the_workers_start_with_one_numerical_thread_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`run_arena(workers=N)` spawns its workers with one BLAS and OpenMP thread each
    unless the environment says otherwise (threads on a network bot's small products
    only spun), and leaves this process's environment as it was."""
    import multiprocessing as mp
    import os

    from big2.threads import THREAD_VARIABLES, one_thread_each

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    with one_thread_each():
        pool = mp.get_context("spawn").Pool(1)
    with pool:
        seen = [pool.apply(os.getenv, (k,)) for k in THREAD_VARIABLES]
    assert seen == ["1", "1", "3"]  # a variable the user set is theirs
    assert [os.getenv(k) for k in THREAD_VARIABLES] == [None, None, "3"]
    spawned: list[bool] = []

    @contextmanager
    def spy() -> Iterator[None]:
        with one_thread_each():
            yield
            spawned.append(True)

    monkeypatch.setattr(big2.arena, "one_thread_each", spy)
    run_arena(["greedy"] * 4, deals=2, seed=1, workers=2)
    assert spawned == [True]  # the arena's workers were spawned under it


def test_duplicate_deals_rotate_the_same_hands() -> None:
    """A bot against copies of itself is fair: the same deterministic player
    in every seat scores exactly zero over the rotations."""
    r = play_duplicate(["greedy"] * 4, Rules(scoring="count"), seed=5, index=0)
    assert r.points == (0, 0, 0, 0)
    assert sum(r.wins) == 4


def test_arena_rejects_bad_seats() -> None:
    with pytest.raises(ValueError, match="4 seats"):
        run_arena(["greedy"] * 3, deals=1)
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena(["greedy", "greedy", "greedy", "wizard"], deals=1)
    assert parse_seat("expert:budget=20:seconds=0.5") == ("expert",
                                                          {"budget": 20, "seconds": 0.5})


def test_arena_cli_table_and_json(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    res = CliRunner().invoke(arena_command, [
        "--seats", "greedy,random,random,random", "--deals", "3", "--seed", "1",
        "--workers", "1", "--scoring", "count", "--quiet", "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "points/deal" in res.output and "greedy" in res.output
    data = json.loads(out.read_text())
    assert data["deals"] == 3 and data["rules"]["scoring"] == "count"
    assert [s["name"] for s in data["seats"]] == ["greedy", "random", "random", "random"]
    bad = CliRunner().invoke(arena_command, ["--seats", "greedy,nobot,random,random",
                                             "--deals", "1", "--quiet"])
    assert bad.exit_code != 0 and "unknown bot" in bad.output


def test_ray_gives_the_same_results_as_a_local_run() -> None:
    import ray  # optional for users, a test dependency: never skipped
    seats = ["heuristic", "greedy", "greedy", "random"]
    local = run_arena(seats, deals=3, seed=4)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_arena(seats, deals=3, seed=4, use_ray=True)
    finally:
        ray.shutdown()
    assert remote == local


def test_protocol_round_trips_whole_deals_between_processes() -> None:
    """The heuristic bot in another process, over the protocol, plays exactly
    as it does in-process."""
    seats_ext = [f"cmd:{BOT_CMD} --level heuristic", "greedy", "random", "greedy"]
    seats_in = ["heuristic", "greedy", "random", "greedy"]
    for rules in (Rules(), Rules.preset("taiwan", players=3)):
        seats_a, seats_b = seats_ext[:rules.players], seats_in[:rules.players]
        a = run_arena(seats_a, deals=2, rules=rules, seed=9)
        b = run_arena(seats_b, deals=2, rules=rules, seed=9)
        assert a.points == b.points
        assert a.seats[0].faults == 0


def test_external_bot_transcript_is_a_valid_exchange() -> None:
    game = Game(seed=3)
    ext = ExternalBot(f"{BOT_CMD} --level greedy", timeout=20)
    try:
        seat = 0
        while not game.is_over():
            view = game.view(game.to_move)  # type: ignore[arg-type]
            if game.to_move == seat:
                choice = ext.choose(view)
                assert choice == make_bot("greedy").choose(view)
            else:
                choice = make_bot("greedy").choose(view)
            game.play(choice)
        ext.end_deal(game.view(seat))
    finally:
        ext.close()
    sent = [json.loads(line) for who, line in ext.transcript if who == "host"]
    got = [json.loads(line) for who, line in ext.transcript if who == "bot"]
    assert len(sent) == len(got)
    assert sent[0]["type"] == "hello" and got[0]["type"] == "ready"
    assert sent[1]["type"] == "new_deal" and sent[-1]["type"] == "end"
    assert all(r["type"] != "error" for r in got)
    actions = [m for m in sent if m["type"] == "action"]
    assert [(a["seat"], a["cards"]) for a in actions] == [
        (a.seat, format_play(a.cards)) for a in game.history]


@pytest.mark.parametrize("line, needle", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"type": "dance"}', "unknown message type"),
    ('{"type": "go"}', "no deal in progress"),
    ('{"type": "action", "seat": 1, "cards": "3D"}', "no deal"),
])
def test_bad_messages_get_error_replies(line: str, needle: str) -> None:
    reply = BotSession(make_bot("random", seed=0)).handle(line)
    assert reply["type"] == "error" and needle in reply["message"]


def test_illegal_and_out_of_turn_messages_are_refused() -> None:
    s = BotSession(make_bot("greedy"))
    hand = "3D 4D 5S 6H 7C 8C 9D TS JH QH KS AD 2C"
    bad_deals = [
        {"rules": {"preset": "nope"}, "seat": 0, "hand": hand, "first": 0},
        {"rules": "classic", "seat": 7, "hand": hand, "first": 0},
        {"rules": "classic", "seat": 0, "hand": "3D 3D ZZ", "first": 0},
        {"rules": "classic", "seat": 1, "hand": "4C"},
    ]
    for d in bad_deals:
        assert s.handle(json.dumps({"type": "new_deal", **d}))["type"] == "error"
    ok = s.handle(json.dumps({"type": "new_deal", "rules": "classic", "seat": 1,
                              "hand": hand, "first": 0, "must_contain": ""}))
    assert ok == {"type": "ok"}
    assert "not this bot's turn" in s.handle('{"type": "go"}')["message"]
    assert "does not hold" in s.handle('{"type": "action", "seat": 1, "cards": "3C"}')["message"] \
        or "is to act" in s.handle('{"type": "action", "seat": 1, "cards": "3C"}')["message"]
    assert "cannot hold" in s.handle('{"type": "action", "seat": 0, "cards": "3D"}')["message"]
    assert s.handle('{"type": "action", "seat": 0, "cards": "3C 4S"}')["type"] == "error"
    assert s.handle('{"type": "action", "seat": 0, "cards": "3C"}') == {"type": "ok"}
    assert s.handle('{"type": "action", "seat": 2, "cards": "4S"}')["type"] == "error"
    play = s.handle('{"type": "go"}')
    assert play == {"type": "play", "cards": "4D"}


def test_bot_process_survives_garbage_and_quits() -> None:
    lines = ["garbage", '{"type": "hello"}', "{}", '{"type": "go"}', '{"type": "quit"}']
    proc = subprocess.run([sys.executable, "-m", "big2.cli", "bot", "--level", "easy"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0
    replies = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [r["type"] for r in replies] == ["error", "ready", "error", "error", "bye"]


def test_a_hung_external_bot_cannot_hang_the_arena(tmp_path: Path) -> None:
    script = tmp_path / "hang.py"
    script.write_text(textwrap.dedent("""
        import sys, json, time
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "go":
                time.sleep(60)
            print(json.dumps({"type": "ready" if msg["type"] == "hello" else "ok"}), flush=True)
    """))
    r = run_arena([f"cmd:{sys.executable} {script}", "greedy", "greedy", "greedy"],
                  deals=1, seed=1, timeout=1.0)
    assert r.seats[0].faults > 0
    assert r.games == 4


def test_arena_announces_last_cards_under_the_last_card_rule() -> None:
    from big2.arena import announce_last_cards

    rules = Rules(last_card=True, players=2)
    game = Game(rules, hands=["3D 4D", "5D 6D 7D"])
    game.play("3D")
    game.pass_turn()
    announce_last_cards(game)
    assert game.announced == (True, False)
    # with the rule off nothing is announced (and nothing is asked of the game)
    plain = Game(Rules(players=2), hands=["3D 4D", "5D 6D 7D"])
    plain.play("3D")
    announce_last_cards(plain)
    assert plain.announced == (False, False)
