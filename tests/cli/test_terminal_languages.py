"""`big2 puzzle`, `big2 play` and `big2 replay` in English, 繁體中文 and 简体中文 (issue 56
item 4), as a person sees them: each runs in a real terminal (tmux, 80 columns), the keys
are typed, and the screen is read back. The language comes from the locale or from
--lang; every line fits 80 columns by display width (a Chinese character takes two). The
hint's and the review's reasons and a refused play's reason are checked against the
catalogue's rows filled in by hand here (the rows the browser's whys.js reads too)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from big2.i18n import language, t, width

BIG2 = str(Path(sys.executable).with_name("big2"))
ROOT = Path(__file__).resolve().parents[2]
WORDS = json.loads((ROOT / "src" / "big2" / "i18n" / "catalogue.json").read_text("utf-8"))
"""The catalogue, read here as the server serves it (not through big2.i18n)."""
COLUMN = {"en": 0, "zh-Hant": 1, "zh-Hans": 2}


class Screen:
    """A command in a detached tmux session of its own (its own server socket)."""

    def __init__(self, tmp: Path, command: list[str], env: dict[str, str]) -> None:
        self.socket = str(tmp / "tmux.sock")
        self.env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "TERM": "xterm-256color"}
        self.env.pop("NO_COLOR", None)
        for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
            self.env.pop(name, None)
        self.env["LANG"] = "C.UTF-8"
        inner = " ".join(f"{k}={v}" for k, v in env.items())
        line = f"env {inner} NO_COLOR=1 " + " ".join(command) + "; sleep 30"
        self.tmux("new-session", "-d", "-x", "80", "-y", "50", "-s", "big2", line)
        self.tmux("set-option", "-t", "big2", "history-limit", "5000")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-u", "-S", self.socket, *args], env=self.env,
                              capture_output=True, text=True, check=True, timeout=30).stdout

    def text(self) -> str:
        """Everything printed so far, wrapped lines joined (-J): one line as printed."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "big2")

    def wait_for(self, words: str, count: int = 1, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.text()
            if seen.count(words) >= count:
                return seen
            time.sleep(0.2)
        raise AssertionError(f"{words!r} not shown {count} times:\n{self.text()}")

    def type(self, keys: str) -> None:
        self.tmux("send-keys", "-t", "big2", keys, "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], env=self.env,
                       capture_output=True, check=False, timeout=30)


def fits(screen: str) -> None:
    for line in screen.splitlines():
        assert width(line.rstrip()) <= 80, f"{width(line.rstrip())} columns: {line}"


LOCALES = {"en": "en_US.UTF-8", "zh-Hant": "zh_TW.UTF-8", "zh-Hans": "zh_CN.UTF-8"}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_puzzle_speaks_the_locales_language(tmp_path: Path, lang: str) -> None:
    screen = Screen(tmp_path, [BIG2, "puzzle", "--id", "3"], {"LANG": LOCALES[lang]})
    try:
        with language(lang):
            prompt = t("termPuzzlePrompt").strip()
            screen.wait_for(prompt)
            screen.type("h")
            screen.wait_for(prompt, 2)
            screen.type("1")  # a wrong play: the line that beats it, played out
            screen.wait_for(prompt, 3)
            screen.type("q")
            seen = screen.wait_for(t("termPuzzleBye", 0, 0))
            assert t("termYouAre", t("seatN", 2)) in seen
            assert t("termStreakRetry") in seen
            assert t("termPuzzleHint", "")[:3] in seen
            assert t("puzzleRulesOf", "pagat") in seen
    finally:
        screen.close()
    english = ("You are", "Legal plays", "Streak", "Table:", "Rules:")
    if lang == "en":
        assert all(w in seen for w in english)
    else:
        assert not any(w in seen for w in english), seen
        assert ("號位" if lang == "zh-Hant" else "号位") in seen
    fits(seen)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_play_speaks_the_asked_language(tmp_path: Path, lang: str) -> None:
    """--lang wins over the locale (here a locale of another language)."""
    other = "zh_CN.UTF-8" if lang != "zh-Hans" else "en_US.UTF-8"
    screen = Screen(tmp_path, [BIG2, "play", "--seed", "3", "--deals", "1", "--delay", "0",
                               "--lang", lang], {"LANG": other})
    try:
        with language(lang):
            prompt = t("termPrompt", "").strip()[:12]
            screen.wait_for(prompt)
            screen.type("1")
            screen.wait_for(prompt, 2)
            screen.type("h")
            screen.wait_for(prompt, 3)
            screen.type("q")
            screen.wait_for("[y/N]")
            screen.type("y")
            seen = screen.wait_for(t("termBye"))
            assert t("termYourTurn") in seen
            assert t("termLegalHead") in seen
            assert t("termHandByRank") in seen
            assert t("termHelp").splitlines()[0] in seen
            assert t("termYouPlay", t("termStepYou")) in seen
    finally:
        screen.close()
    if lang != "en":
        assert "Your turn" not in seen and "Legal plays" not in seen
        assert ("單張" if lang == "zh-Hant" else "单张") in seen
    fits(seen)


def test_an_unknown_language_is_refused() -> None:
    r = subprocess.run([BIG2, "puzzle", "--lang", "tlh"], capture_output=True, text=True,
                       timeout=60, check=False)
    assert r.returncode == 2 and "zh-Hant" in r.stderr


@pytest.mark.parametrize(("lang", "extra"), [
    ("zh-Hant", ["--set", "decks=2", "--players", "6", "--set", "jokers=wild"]),
    ("zh-Hans", ["--players", "2"]),
])
def test_whole_matches_in_chinese_fit_80_columns(lang: str, extra: list[str]) -> None:
    """Whole matches through a pipe (the scores, the trick, the list of every play): no
    line is wider than 80 columns by display width (the prompt left out: through a pipe
    what follows it shares its line)."""
    with language(lang):
        prompts = (t("termPrompt", "").split("［")[0], t("termQuitAsk"), t("termNextDeal"))
    r = subprocess.run([BIG2, "play", "--lang", lang, "--seed", "5", "--deals", "2",
                        "--bot", "easy", *extra], input="1\np\nm\nt\nh\n" * 400,
                       capture_output=True, text=True, timeout=300, check=False,
                       env={**os.environ, "COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    with language(lang):
        assert t("termWinner", "", "")[:4] in r.stdout or "並列" in r.stdout \
            or "并列" in r.stdout
        assert t("termWhyHead") in r.stdout and t("termThisTrick") in r.stdout
        assert t("sCollects", "\0").split("\0")[0] in r.stdout  # the score's why lines
    assert "cards left" not in r.stdout and "collects" not in r.stdout
    for line in r.stdout.splitlines():
        for prompt in prompts:
            line = line.split(prompt)[0] if prompt.strip() and prompt in line else line
        assert width(line) <= 80, (extra, width(line), line)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_replay_review_speaks_the_locales_language(tmp_path: Path, lang: str) -> None:
    record = Path(__file__).resolve().parents[2] / "docs" / "img" / "table-match.txt"
    screen = Screen(tmp_path, [BIG2, "replay", str(record), "--review", "--deal", "1",
                               "--budget", "2"], {"LANG": LOCALES[lang]})
    try:
        with language(lang):
            last = t("termReviewForced", "\0", "\1").split("\0")[1].split("\1")[0]
            seen = screen.wait_for(last.strip(), timeout=120)
            assert t("termReviewHead", 1, 0, "You") in seen
            assert t("termReviewValues") in seen and t("reviewBestFound") in seen
    finally:
        screen.close()
    # ply 11's why: the single 9♣ breaks a pair of 9s, in the catalogue's words
    col = COLUMN[lang]
    group = WORDS["whyGroups"]["pair"][col].replace("{rank}", "9")
    why = WORDS["whys"]["breaks"][col].replace("{group}", group)
    assert WORDS["strings"]["termReviewWhy"][col].replace("{0}", why) in seen, seen
    if lang != "en":
        assert "Review of" not in seen and "best found" not in seen and "breaks" not in seen
        assert ("單張" if lang == "zh-Hant" else "单张") in seen
    fits(seen)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_hints_reason_and_a_refused_play_in_the_catalogues_words(tmp_path: Path,
                                                                     lang: str) -> None:
    """Seed 23's first hint is a pass that keeps the 2♦ (the reason ``keepsTwo``), and
    ``zz`` is refused as no card (``notACard``): each shown as its catalogue row filled
    in by hand, in the language asked for."""
    col = COLUMN[lang]
    reason = WORDS["whys"]["keepsTwo"][col].replace("{cards}", "2♦")
    refusal = WORDS["refusals"]["notACard"][col].replace("{text}", "'zz'")
    screen = Screen(tmp_path, [BIG2, "play", "--seed", "23", "--deals", "1", "--delay", "0",
                               "--lang", lang], {"LANG": "en_US.UTF-8"})
    try:
        with language(lang):
            prompt = t("termPrompt", "").strip()[:12]
            screen.wait_for(prompt)
            screen.type("a")
            screen.wait_for(reason)
            screen.type("zz")
            screen.wait_for(refusal)
            screen.type("q")
            screen.wait_for("[y/N]")
            screen.type("y")
            seen = screen.wait_for(t("termBye"))
    finally:
        screen.close()
    strings = WORDS["strings"]
    assert strings["hintWhy"][col].replace("{0}", reason) in seen  # ": keeps…", "：留住…"
    assert strings["termNotAllowed"][col].replace("{0}", refusal) in seen
    if lang != "en":
        assert "keeps" not in seen and "not a card" not in seen and "Not allowed" not in seen
    fits(seen)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_house_rules_question_and_replays_stepping(tmp_path: Path, lang: str) -> None:
    """spare_swap's question (seed 2: you hold the 3♦, the spare is the 9♠) and big2
    replay's stepping prompt and positions, in the language asked for."""
    screen = Screen(tmp_path, [BIG2, "play", "--players", "3", "--set", "spare_to=aside",
                               "--set", "spare_swap=true", "--seed", "2", "--deals", "1",
                               "--delay", "0", "--lang", lang], {"LANG": "en_US.UTF-8"})
    try:
        with language(lang):
            screen.wait_for(t("termYesNo", t("termSwapAsk", "3♦", "9♠")).strip())
            screen.type("y")
            screen.wait_for(t("termSwapped", "3♦", "9♠"))
            screen.wait_for(t("termPrompt", "").strip()[:12])  # typed before it, q would echo early
            screen.type("q")
            screen.wait_for("[y/N]", 2)
            screen.type("y")
            seen = screen.wait_for(t("termBye"))
            assert t("termSpareSwapNote") in seen and t("termSpareUp", "9♠") in seen
    finally:
        screen.close()
    if lang != "en":
        assert "swap" not in seen.replace("spare_swap", "") and "Spare" not in seen
    fits(seen)
    record = ROOT / "docs" / "img" / "table-match.txt"
    (tmp_path / "replay").mkdir()
    screen = Screen(tmp_path / "replay", [BIG2, "replay", str(record), "--deal", "1", "--lang",
                                          lang], {"LANG": "en_US.UTF-8"})
    try:
        with language(lang):
            prompt = t("replayPrompt").strip()
            screen.wait_for(prompt)
            screen.type("")
            screen.wait_for(t("replayPosition", 1, 1, 41))
            screen.type("999")
            screen.wait_for(t("replayHasActions", 41))
            screen.type("zz")
            screen.wait_for(t("replayAnswer"))
            screen.type("q")
            seen = screen.wait_for(prompt, 4)
            assert t("replayPosition", 1, 0, 41) in seen and t("replayDealt") in seen
            assert t("replayLead", "S2 Cy", t("replayMust", "3♦")) in seen
    finally:
        screen.close()
    if lang != "en":
        assert not any(w in seen for w in ("Deal 1", "action", "Table", "Enter/n next"))
    fits(seen)
