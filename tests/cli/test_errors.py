"""Errors a user meets, through real ``big2`` processes: one line saying what
is wrong, a non-zero exit, never a traceback, and every path and option
checked before any work starts (issue #17). Then the library calls a new user
gets wrong first, and the mode of the record files written."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import big2
from big2 import Game, Match, Rules
from big2.records import GameRecord, append, save

BIG2 = [sys.executable, "-m", "big2.cli"]
NOT_UTF8 = b"[Rules \"classic\"]\n\xff\xfe\x00 not text\n"


def big2_cmd(args: list[str], cwd: Path, stdin: str = "", timeout: float = 120
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(BIG2 + args, input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, check=False)


def assert_one_line_error(r: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """A non-zero exit whose stderr has one ``Error:`` line holding
    *fragments*, and no traceback anywhere; returns that line."""
    both = r.stdout + r.stderr
    assert r.returncode != 0, both
    assert "Traceback" not in both, both
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1, r.stderr
    for fragment in fragments:
        assert fragment in errors[0], errors[0]
    return errors[0]


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "latin1.txt"
    path.write_bytes(NOT_UTF8)
    return path


def test_replay_of_a_file_that_is_not_utf8(tmp_path: Path, bad_file: Path) -> None:
    r = big2_cmd(["replay", str(bad_file), "--all"], tmp_path)
    assert_one_line_error(r, "latin1.txt", "not UTF-8")


def test_svg_of_a_record_that_is_not_utf8(tmp_path: Path, bad_file: Path) -> None:
    r = big2_cmd(["svg", "--record", str(bad_file)], tmp_path)
    assert_one_line_error(r, "latin1.txt", "not UTF-8")
    assert r.stdout == ""


# Root reads any file through the capabilities CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, and CI
# runs as root: there the command runs with both dropped from its bounding set (util-linux's
# setpriv), so that the kernel refuses the read as it would for any other user.
AS_A_USER = (["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
             if os.geteuid() == 0 else [])


def test_replay_of_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "secret.txt"
    path.write_text("[Rules \"classic\"]\n")
    path.chmod(0)
    r = subprocess.run(AS_A_USER + BIG2 + ["replay", str(path)], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path, check=False)
    assert_one_line_error(r, "secret.txt", "is not readable")  # click's check of FILE


@pytest.mark.parametrize("target,why", [("/nonexistent/x.svg", "does not exist"),
                                        (".", "is a folder")])
def test_svg_to_a_path_that_cannot_be_written(tmp_path: Path, target: str, why: str) -> None:
    r = big2_cmd(["svg", "-o", target, "3D"], tmp_path)
    assert_one_line_error(r, "--output", why)
    assert r.stdout == ""


def test_svg_to_a_writable_path_still_works(tmp_path: Path) -> None:
    r = big2_cmd(["svg", "-o", "hand.svg", "3D 4D"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "hand.svg").read_text().startswith("<svg")


@pytest.mark.parametrize("seats,fragments", [
    ("expert:budget=abc,greedy,greedy,greedy", ["budget must be a whole number", "'abc'"]),
    ("expert:budget=0,greedy,greedy,greedy", ["budget must be at least 1"]),
    ("expert:bugdet=50,greedy,greedy,greedy", ["no option bugdet", "budget"]),
    ("greedy:depth=3,greedy,greedy,greedy", ["greedy takes no options", "depth"]),
    ("heuristic:low_cards=many,greedy,greedy,greedy", ["low_cards must be a whole number"]),
    ("hard:weights=missing.npz,greedy,greedy,greedy", ["weights must be an existing file"]),
    ("wizard,greedy,greedy,greedy", ["unknown bot 'wizard'"]),
    ("greedy,greedy", ["4 seats needed"]),
    ("cmd:nonexistent-program,greedy,greedy,greedy",
     ["could not start", "nonexistent-program"]),
])
def test_arena_refuses_bad_seats_before_any_deal(tmp_path: Path, seats: str,
                                                 fragments: list[str]) -> None:
    r = big2_cmd(["arena", "--seats", seats, "--deals", "1", "--quiet", "--workers", "1"],
                 tmp_path)
    assert_one_line_error(r, "--seats", *fragments)
    assert "duplicate deals" not in r.stdout


def test_arena_reports_a_program_that_starts_and_dies(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.exit(3)\n")
    r = big2_cmd(["arena", "--seats", f"cmd:{sys.executable} {script},greedy,greedy,greedy",
                  "--deals", "1", "--quiet", "--workers", "1"], tmp_path)
    assert_one_line_error(r, "could not start", "exited")


def test_arena_checks_the_json_path_before_the_run(tmp_path: Path) -> None:
    """The path is refused at once: a long run's results are never lost to it."""
    # 100,000 expert deals would run for hours: big2_cmd's time-out would fail the test
    r = big2_cmd(["arena", "--seats", "expert,expert,expert,expert", "--deals", "100000",
                  "--quiet", "--workers", "1", "--json", "/nonexistent/x.json"], tmp_path)
    assert_one_line_error(r, "--json", "/nonexistent", "does not exist")
    assert r.stdout == ""


def test_arena_with_good_seats_and_json_still_works(tmp_path: Path) -> None:
    r = big2_cmd(["arena", "--seats", "greedy,random", "--rules", "classic", "--set",
                  "players=2", "--deals", "2", "--quiet", "--workers", "1", "--json",
                  "out.json"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert '"games": 4' in (tmp_path / "out.json").read_text()


@pytest.mark.parametrize("target,why", [
    ("/nonexistent/dir/m.txt", "no such folder"),
    (".", "is a "),  # folder (or click's "directory")
    ("notes.txt", "not a record file"),
    ("latin1.txt", "not UTF-8"),
])
def test_play_refuses_a_save_path_before_the_first_deal(tmp_path: Path, target: str,
                                                        why: str) -> None:
    (tmp_path / "notes.txt").write_text("shopping: eggs, milk\n")
    (tmp_path / "latin1.txt").write_bytes(NOT_UTF8)
    r = big2_cmd(["play", "--seed", "1", "--save", target], tmp_path, stdin="1\np\n" * 200)
    assert_one_line_error(r, "--save", why)
    assert "Deal 1" not in r.stdout and "Your hand" not in r.stdout


def test_play_appends_to_an_existing_record_file(tmp_path: Path) -> None:
    g = Game(seed=5)
    while not g.is_over():
        g.play(g.legal_masks()[-1])
    save(tmp_path / "m.txt", GameRecord.from_game(g))
    r = big2_cmd(["play", "--seed", "1", "--save", "m.txt"], tmp_path, stdin="q\n")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


def test_an_os_error_that_no_check_foresaw_is_one_line(tmp_path: Path) -> None:
    """The ``big2`` group turns an OSError that no check caught (a disk that
    fills, a folder removed mid-run) into ``Error: …``, exit status 1."""
    from click.testing import CliRunner

    from big2.cli import main

    @main.command(name="_oserror_probe", hidden=True)
    def probe() -> None:
        open(tmp_path / "no" / "such" / "file.txt", "w")  # noqa: SIM115

    try:
        res = CliRunner().invoke(main, ["_oserror_probe"])
    finally:
        main.commands.pop("_oserror_probe", None)
    assert res.exit_code == 1
    assert res.output.startswith("Error: ") and "file.txt" in res.output
    assert "No such file or directory" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


# --------------------------------------------------------- the library's first calls


def test_beats_takes_card_text_like_game_play() -> None:
    assert big2.beats("4D", "3D") and not big2.beats("3D", "4D")
    assert big2.beats("KS KC", "KH KD")
    assert big2.classify("3D 4D") is None
    with pytest.raises(ValueError, match="not a combination under these rules: 3♦ 4♦"):
        big2.beats("3D 4D", "5D")
    with pytest.raises(big2.InvalidCardError, match="not a card: 'XX'"):
        big2.beats("XX", "3D")
    with pytest.raises(TypeError, match="the first play must be cards.*not float"):
        big2.beats(3.5, "3D")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not NoneType"):
        big2.classify(None)  # type: ignore[arg-type]
    # two decks: a card named twice is both copies
    rules = Rules(decks=2, players=6)
    assert big2.classify("3D 3D", rules) is not None


def test_parse_cards_of_a_non_string_is_a_clear_type_error() -> None:
    with pytest.raises(TypeError, match="parse_cards takes card text such as '3D 3S', not int"):
        big2.parse_cards(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not list"):
        big2.parse_cards(["3D"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_card takes card text"):
        big2.parse_card(0)  # type: ignore[arg-type]


def test_match_refuses_bad_deal_counts() -> None:
    with pytest.raises(ValueError, match="deals must be 0 or more, not -1"):
        Match(Rules(), deals=-1)
    with pytest.raises(TypeError, match="deals must be a whole number"):
        Match(Rules(), deals="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unless scoring is 'penalty'"):
        Match(Rules(), deals=0)


# ---------------------------------------------------------- record files' mode


def _record() -> GameRecord:
    g = Game(seed=2)
    while not g.is_over():
        g.play(g.legal_masks()[-1])
    return GameRecord.from_game(g)


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_records_are_written_with_the_users_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        save(tmp_path / "one.txt", _record())
        append(tmp_path / "two.txt", _record())
        save(tmp_path / "three.json", _record())
    finally:
        os.umask(old)
    for name in ("one.txt", "two.txt", "three.json"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask, name
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_rewriting_a_record_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "m.txt"
    save(path, _record())
    path.chmod(0o640)
    append(path, _record())
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.read_text().count("[Rules") == 2


def test_play_save_file_gets_the_umask_mode(tmp_path: Path) -> None:
    """Through the command: a deal saved by ``big2 play`` is 0644 under umask 022."""
    code = ("import os, sys; os.umask(0o022); from big2.cli import main; "
            "sys.argv = ['big2'] + sys.argv[1:]; main()")
    r = subprocess.run([sys.executable, "-c", code, "play", "--seed", "4", "--deals", "1",
                        "--bot", "easy", "--save", "m.txt"],
                       input="1\np\n" * 200, capture_output=True, text=True, timeout=120,
                       cwd=tmp_path, check=False)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE((tmp_path / "m.txt").stat().st_mode) == 0o644
