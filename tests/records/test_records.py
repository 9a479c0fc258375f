"""Game records: text and JSON round trips, exact replay, errors with line
numbers, match files, and the svg / replay / play --save commands."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from big2 import Game, Match, Rules
from big2.bots import make_bot
from big2.cards import CARD_NAMES, cards_of
from big2.commands.records import replay_command, svg_command
from big2.records import (
    GameRecord,
    RecordError,
    append,
    append_game,
    from_json,
    load,
    loads,
    read,
    read_one,
    save,
    to_json,
    write,
)

BIG2 = Path(sys.executable).with_name("big2")


def random_game(seed: int, preset: str = "classic", players: int = 4, plies: int | None = None,
                *, names: list[str] | None = None, dealer: int = 0,
                leader: int | None = None, choices: int = 0) -> Game:
    """A deal under *preset* with random legal actions (all, or *plies* of them)."""
    rules = Rules.preset(preset, players=players)
    game = Game(rules, seed=seed, names=names, dealer=dealer, leader=leader)
    rng = random.Random(choices)
    while not game.is_over() and (plies is None or len(game.history) < plies):
        game.play(rng.choice(game.legal_masks()))
    return game


def finished_text(seed: int = 4) -> tuple[Game, str]:
    game = random_game(seed, names=["Ann", "Bo", "Cy", "Di"])
    return game, write(GameRecord.from_game(game, tags={"Date": "2025.01.31"}))


def line_of(text: str, start: str) -> int:
    """1-based number of the first line of *text* starting with *start*."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------- round trips

names_st = st.lists(st.text(max_size=12), min_size=4, max_size=4)


@settings(max_examples=60, deadline=None)
# a free leader holding 3♦ whose first play was more than 3♦ alone under opening="alone"
# (selfplay-2018): the record once dropped the free lead, and the replay refused the play
@example(seed=2, preset="selfplay-2018", players=4, plies=None, names=["a", "b", "c", "d"],
         dealer=2, free_lead=True, choices=195)
@given(seed=st.integers(0, 2**64 - 1), preset=st.sampled_from(Rules.presets()),
       players=st.integers(2, 4), plies=st.none() | st.integers(0, 60),
       names=names_st, dealer=st.integers(0, 3), free_lead=st.booleans(),
       choices=st.integers(0, 1000))
def test_text_and_json_round_trip(seed: int, preset: str, players: int, plies: int | None,
                                  names: list[str], dealer: int, free_lead: bool,
                                  choices: int) -> None:
    leader = seed % players if free_lead else None
    game = random_game(seed, preset, players, plies, names=names[:players],
                       dealer=dealer % players, leader=leader, choices=choices)
    record = GameRecord.from_game(game, tags={"Event": "test", "Round": "3"})
    assert record.leader == leader or (leader is not None and record.leader is None)
    text = write(record)
    back = read_one(text)
    assert back == record
    assert write(back) == text
    assert from_json(to_json(record)) == [record]
    assert loads(to_json([record, record])) == [record, record]
    replayed = back.to_game()
    assert replayed.history == game.history
    assert replayed.hands == game.hands
    assert replayed.scores() == game.scores()
    assert replayed.outcome() == game.outcome()


def test_replay_reproduces_every_position_exactly() -> None:
    game = random_game(21, names=["Ann", "Bo", "Cy", "Di"])
    assert game.is_over()
    record = read_one(write(GameRecord.from_game(game)))
    step = Game(seed=21, names=["Ann", "Bo", "Cy", "Di"])
    for ply in range(len(game.history) + 1):
        at = record.to_game(ply)
        assert at.hands == step.hands and at.history == step.history
        assert at.to_move == step.to_move and at.last_play == step.last_play
        for seat in range(4):
            assert at.view(seat) == step.view(seat)
        if ply < len(game.history):
            step.play(game.history[ply].cards)
    assert record.scores == game.scores() and record.winner == game.winner
    assert record.to_game().outcome() == game.outcome()


def test_free_leader_is_recorded_and_replayed() -> None:
    game = random_game(8, leader=2, plies=6)
    record = GameRecord.from_game(game)
    assert record.leader == 2
    assert "[Leader \"2\"]" in write(record)
    assert read_one(write(record)).to_game().history == game.history
    # The lowest-card rule needs no Leader tag.
    assert GameRecord.from_game(random_game(8, plies=6)).leader is None


def test_deal_from_seed_alone() -> None:
    game, text = finished_text()
    tags, hands, plays = text.split("\n\n")
    assert hands.startswith("S0:")
    seeded = read_one(tags + "\n\n" + plays)
    assert seeded.hands == game.initial_hands
    assert seeded.to_game().scores() == game.scores()


def test_rules_tags_use_nearest_preset_and_set_lines() -> None:
    rules = Rules.preset("philippines", match_deals=2, passing="lock-out", players=3)
    game = Game(rules, seed=1)
    text = write(GameRecord.from_game(game))
    assert '[Rules "philippines"]' in text
    assert '[Set "passing=lock-out"]' in text and '[Set "match_deals=2"]' in text
    assert '[Players "3"]' in text
    assert read_one(text).rules == rules


# ------------------------------------------------------------------ errors

def test_bad_tag_is_rejected_with_its_line() -> None:
    _, text = finished_text()
    n = line_of(text, "[Dealer")
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, "[Dealer 0]"))
    assert info.value.line == n and "bad tag line" in str(info.value)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, '[Dealer "north"]'))
    assert info.value.line == n and "whole number" in str(info.value)
    n = line_of(text, "[Rules")
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, '[Rules "klondike"]'))
    assert info.value.line == n and "unknown preset" in str(info.value)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, '[Set "suit_order=XYZW"]'))
    assert info.value.line == n and "suit_order" in str(info.value)


def test_unknown_card_is_rejected_with_its_line() -> None:
    _, text = finished_text()
    n = line_of(text, "S2:")
    with pytest.raises(RecordError) as info:
        read(text.replace(text.splitlines()[n - 1], text.splitlines()[n - 1] + " XQ"))
    assert info.value.line == n and "'XQ'" in str(info.value)
    n = line_of(text, "2.")
    bad = text.splitlines()[n - 1].replace("pass", "1Z", 1)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, bad))
    assert info.value.line == n and "unknown card '1Z'" in str(info.value)


def test_illegal_play_is_rejected_with_its_line() -> None:
    game, text = finished_text()
    first = game.history[0]
    n = line_of(text, "1.")
    line = text.splitlines()[n - 1]
    # The opening play without the lowest card: some other card of that seat.
    other = next(c for c in cards_of(game.initial_hands[first.seat]) if c != 0)
    bad = line.replace(f"S{first.seat} {_cards(first.cards, game)}",
                       f"S{first.seat} {CARD_NAMES[other]}", 1)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, bad))
    assert info.value.line == n and "must contain 3♦" in str(info.value)
    # A card the seat does not hold, on a later line.
    m = line_of(text, "3.")
    seat = int(text.splitlines()[m - 1].split()[1][1:])
    foreign = next(c for c in range(52) if not game.initial_hands[seat] >> c & 1)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, m, f"3. S{seat} {CARD_NAMES[foreign]}"))
    assert info.value.line == m and "do not hold" in str(info.value)


def _cards(mask: int, game: Game) -> str:
    return " ".join(CARD_NAMES[c] for c in sorted(cards_of(mask), key=game.rules.strength))


def test_play_out_of_turn_is_rejected_with_its_line() -> None:
    _, text = finished_text()
    n = line_of(text, "2.")
    line = text.splitlines()[n - 1]
    other = (int(line.split()[1][1:]) + 1) % 4
    bad = line.replace(line.split()[1], f"S{other}", 1)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, bad))
    assert info.value.line == n and "out of turn" in str(info.value)


def test_missing_or_wrong_result_is_rejected() -> None:
    _, text = finished_text()
    n = line_of(text, "[Result")
    without = "\n".join(line for line in text.splitlines() if not line.startswith("[Result"))
    with pytest.raises(RecordError) as info:
        read(without)
    assert info.value.line == 1 and "no [Result]" in str(info.value)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, '[Result "*"]'))
    assert "Scores" in str(info.value)
    m = line_of(text, "[Scores")
    no_scores = replace_line(replace_line(text, n, '[Result "*"]'), m, "")
    with pytest.raises(RecordError) as info:
        read(no_scores)
    assert info.value.line == n and "no result" in str(info.value)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, m, '[Scores "+1 -1 +0 +0"]'))
    assert info.value.line == n and "scores" in str(info.value)
    # A result for plays that stop early.
    cut = "\n".join(text.splitlines()[:line_of(text, "2.")])
    with pytest.raises(RecordError) as info:
        read(cut)
    assert info.value.line == n and "before anyone goes out" in str(info.value)


def test_other_malformed_records() -> None:
    _, text = finished_text()
    with pytest.raises(RecordError) as info:
        read("S0: 3D\n" + text)
    assert info.value.line == 1
    n = line_of(text, "S3:")
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, ""))
    assert "no hand dealt to S3" in str(info.value)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, n, "S3: " + text.splitlines()[n - 2][4:]))
    assert info.value.line == n and "already dealt" in str(info.value)
    m = line_of(text, "1.")
    with pytest.raises(RecordError) as info:
        read(replace_line(text, m, "1. S9 3D"))
    assert info.value.line == m and "no seat S9" in str(info.value)
    with pytest.raises(RecordError) as info:
        read(replace_line(text, m, "1. S0"))
    assert info.value.line == m and "no play" in str(info.value)
    with pytest.raises(RecordError):
        from_json('{"rules": {}, "hands": ["3D"]}')
    with pytest.raises(RecordError) as info:
        from_json('{\n"rules": }')
    assert info.value.line == 2


# ------------------------------------------------------------------ matches

def play_match(seed: int, deals: int = 3) -> Match:
    match = Match(Rules(match_deals=deals), seed=seed, names=["Ann", "Bo", "Cy", "Di"])
    bots = [make_bot("greedy", seed=seed + i) for i in range(4)]
    while not match.is_over():
        game = match.new_game()
        while not game.is_over():
            assert game.to_move is not None
            game.play(bots[game.to_move].choose(game.view(game.to_move)))
        match.record(game)
    return match


def match_records(match: Match) -> list[GameRecord]:
    totals = [0] * 4
    out = []
    for k, game in enumerate(match.games, 1):
        out.append(GameRecord.from_game(game, totals=totals, tags={"Deal": str(k)}))
        totals = [t + s for t, s in zip(totals, game.scores() or ())]
    return out


def test_match_file_of_several_deals(tmp_path: Path) -> None:
    match = play_match(3)
    records = match_records(match)
    path = tmp_path / "match.txt"
    save(path, records)
    back = load(path)
    assert back == records and len(back) == 3
    assert [r.scores for r in back] == match.results
    assert [r.tags["Deal"] for r in back] == ["1", "2", "3"]
    final = [t + s for t, s in zip(back[-1].totals, back[-1].scores or ())]
    assert final == match.totals
    save(tmp_path / "match.json", records)
    assert load(tmp_path / "match.json") == records
    # An error in the second deal names a line inside the second deal.
    text = path.read_text()
    second = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith("1. ")][1]
    with pytest.raises(RecordError) as info:
        read(replace_line(text, second, "1. S0 pass"))
    assert info.value.line == second


def test_append_keeps_earlier_deals(tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    games = [random_game(s) for s in (1, 2)]
    append_game(path, games[0])
    path.write_text(path.read_text().rstrip("\n"))  # no final newline: still fine
    append(path, GameRecord.from_game(games[1]))
    back = load(path)
    assert [r.to_game().history for r in back] == [g.history for g in games]
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]  # no temp left


# ---------------------------------------------------------------------- CLI

@pytest.fixture()
def match_file(tmp_path: Path) -> Path:
    path = tmp_path / "match.txt"
    save(path, match_records(play_match(5, deals=2)))
    return path


def svg_cards(image: str) -> list[str]:
    return [el.get("data-card", "") for el in ET.fromstring(image).iter() if el.get("data-card")]


def test_svg_command_draws_cards(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(svg_command, ["3D 4D 5D 6D 7D"])
    assert result.exit_code == 0, result.output
    assert svg_cards(result.output) == ["3D", "4D", "5D", "6D", "7D"]
    out = tmp_path / "hand.svg"
    result = runner.invoke(svg_command, ["3D 4D 5D", "--layout", "fan", "--selected", "4D",
                                         "-o", str(out)])
    assert result.exit_code == 0 and svg_cards(out.read_text()) == ["3D", "4D", "5D"]
    result = runner.invoke(svg_command, ["3D ZZ"])
    assert result.exit_code != 0 and "ZZ" in result.output
    assert runner.invoke(svg_command, []).exit_code != 0


def test_svg_command_draws_a_recorded_table(match_file: Path, tmp_path: Path) -> None:
    record = load(match_file)[1]
    runner = CliRunner()
    out = tmp_path / "table.svg"
    result = runner.invoke(svg_command, ["--record", str(match_file), "--deal", "2",
                                         "--seat", "1", "--at", "6", "-o", str(out)])
    assert result.exit_code == 0, result.output
    game = record.to_game(6)
    shown = set(svg_cards(out.read_text()))
    own = {CARD_NAMES[c] for c in cards_of(game.hands[1])}
    table = {CARD_NAMES[c] for c in cards_of(int(game.last_play))}
    assert own <= shown <= own | table
    result = runner.invoke(svg_command, ["--record", str(match_file), "--replay"])
    assert result.exit_code == 0
    first = load(match_file)[0]
    assert ET.fromstring(result.output).get("class", "").endswith("replay")
    assert len(svg_cards(result.output)) == sum(a.cards.bit_count() for a in first.actions)
    bad = runner.invoke(svg_command, ["--record", str(match_file), "--deal", "9"])
    assert bad.exit_code != 0 and "2 deal" in bad.output


def test_replay_command_all_and_stepping(match_file: Path) -> None:
    records = load(match_file)
    runner = CliRunner()
    result = runner.invoke(replay_command, [str(match_file), "--all"])
    assert result.exit_code == 0, result.output
    plays = [line for line in result.output.splitlines() if line[:5].strip().endswith(".")]
    assert len(plays) == sum(r.plies for r in records)
    assert result.output.count("went out. Scores:") == 2
    result = runner.invoke(replay_command, [str(match_file), "--deal", "1", "--seat", "2"],
                           input="n\nn\nb\nq\n")
    assert result.exit_code == 0, result.output
    positions = [line for line in result.output.split("--- Deal 1 · action ")[1:]]
    assert [p.split()[0] for p in positions] == ["0", "1", "2", "1"]
    assert result.output.count("(hidden)") == 3 * 4


def test_bad_record_file_gives_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Rules "classic"]\n[Result "*"]\n\nS0: 3D XX\n')
    result = CliRunner().invoke(replay_command, [str(path), "--all"])
    assert result.exit_code != 0 and "line 4" in result.output and "XX" in result.output


def test_replay_through_a_real_pipe(match_file: Path) -> None:
    proc = subprocess.run([str(BIG2), "replay", str(match_file), "--deal", "2"],
                          input="n\n\n3\nb\n", capture_output=True, text=True, timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    shown = [p.split()[0] for p in proc.stdout.split("--- Deal 2 · action ")[1:]]
    assert shown == ["0", "1", "2", "3", "2"]  # end of input quits


def test_play_save_through_a_real_pipe(tmp_path: Path) -> None:
    answers = "1\np\n" * 300  # a play when one is listed, else a pass
    saved = tmp_path / "one.txt"
    proc = subprocess.run([str(BIG2), "play", "--seed", "1", "--deals", "1", "--save",
                           str(saved)], input=answers, capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    [record] = load(saved)
    assert record.is_finished and record.names[0] == "You"
    assert f"{record.scores[0]:+d}" in proc.stdout  # type: ignore[index]
    used = proc.stdout.count("Your play [")
    # Same seed, a longer match, input that quits as deal 2 starts: deal 1 is kept.
    kept = tmp_path / "kept.txt"
    lines = answers.splitlines()[:used]
    proc = subprocess.run([str(BIG2), "play", "--seed", "1", "--deals", "3", "--save",
                           str(kept)], input="\n".join(lines + ["q"]) + "\n",
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and "Bye." in proc.stdout
    assert load(kept) == [record] or [r.actions for r in load(kept)] == [record.actions]


def test_json_shape_is_documented_keys() -> None:
    game = random_game(2, plies=3)
    data = json.loads(to_json(GameRecord.from_game(game)))
    assert set(data) == {"format", "version", "rules", "names", "dealer", "leader", "seed",
                         "hands", "actions", "winner", "scores", "totals", "tags"}
    assert data["actions"][0][0] == game.history[0].seat
    assert len(data["actions"]) == 3 and data["winner"] is None


# --------------------------------------------------------------------- docs

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_docs_example_is_what_the_code_writes() -> None:
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    example = text.split("## The notation", 1)[1].split("```\n", 2)[1]
    record = load(DOCS / "img" / "table-match.txt")[0]
    assert example == write(record)
    assert read_one(example).scores == record.scores


def test_docs_doctests_run() -> None:
    import doctest

    result = doctest.testfile(str(DOCS / "records.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0


def test_readme_table_redraws_from_its_record(tmp_path: Path) -> None:
    """docs/img/table.svg is a real position: its record redraws it exactly."""
    records = load(DOCS / "img" / "table-match.txt")
    last = records[-1]
    assert not last.is_finished and records[0].is_finished
    view = last.view(0)
    assert view.my_turn
    table = (DOCS / "img" / "table.svg").read_text(encoding="utf-8")
    raised = [el.get("data-card") for el in ET.fromstring(table).iter()
              if el.get("data-card") and "selected" in (el.get("class") or "")]
    out = tmp_path / "table.svg"
    result = CliRunner().invoke(svg_command, [
        "--record", str(DOCS / "img" / "table-match.txt"), "--deal", str(len(records)),
        "--seat", "0", "--selected", " ".join(str(c) for c in raised), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == table


def test_replay_names_bots_once_and_fits_80_columns(tmp_path: Path) -> None:
    names = ["You", *(f"Bot {i} (medium: heuristic)" for i in (1, 2, 3))]
    m = Match(Rules(match_deals=2), seed=8, names=names)
    before = []
    for _ in range(2):
        g = m.new_game()
        before.append(tuple(m.totals))
        while not g.is_over():
            g.play(g.legal_plays()[0] if g.leading else g.legal_plays()[-1])
        m.record(g)
    path = tmp_path / "named.txt"
    save(path, [GameRecord.from_game(g, totals=t) for g, t in zip(m.games, before)])
    result = CliRunner().invoke(replay_command, [str(path), "--all", "--deal", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(ln) <= 80 for ln in lines), max(lines, key=len)
    assert result.output.count("(medium: heuristic)") == 3  # each bot's once, in "Seats:"
    assert next(ln for ln in lines if ln.startswith("Seats: ")).startswith(
        "Seats: S0 You · S1 Bot 1 (medium: heuristic)")
    totals = next(i for i, ln in enumerate(lines) if ln.startswith("Match totals before: "))
    assert "S3 Bot 3 " in lines[totals] + lines[totals + 1]
    assert any(" S1 Bot 1 plays " in ln or " S1 Bot 1 passes" in ln for ln in lines)
    # the match's totals after the deal, each with its place (tied totals share one)
    after = [t + s for t, s in zip(before[1], m.games[1].outcome().scores)]
    text = " ".join(ln.strip() for ln in lines[lines.index(next(
        ln for ln in lines if ln.startswith("Match totals after: "))):])
    for seat, total in enumerate(after):
        place = 1 + sum(x > total for x in after)
        tied = "=" if after.count(total) > 1 else ""
        assert f"S{seat} " in text and f"{total:+d} ({place}" in text and tied in text


def test_replay_places_tied_totals_together() -> None:
    from big2.commands.records import Replay

    g = Game(Rules(), seed=3)
    while not g.is_over():
        g.play(g.legal_plays()[0] if g.leading else g.legal_plays()[-1])
    scores = g.outcome().scores
    before = [36 - scores[0], 36 - scores[1], -scores[2], -scores[3]]  # seats 0 and 1 tie
    shown = Replay(1, GameRecord.from_game(g, totals=before)).table(g)
    assert "S0 Player 1 +36 (1st=)" in shown.replace("\n  ", " ")
    assert "S1 Player 2 +36 (1st=)" in shown.replace("\n  ", " ")
