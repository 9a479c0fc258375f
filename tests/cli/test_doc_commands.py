"""Every shell command in README.md and docs/*.md runs (issue #17).

The fenced blocks tagged ``sh``, ``bash``, ``shell`` or ``console``, and the
untagged ones whose lines start with a command (``big2``, ``python``,
``make``, ``pip``, or a ``$`` prompt), are read command by command (``\\``
continuations joined, ``#`` comments dropped, a ``console`` block's output
lines skipped). Each block runs in a fresh folder holding copies of docs/,
examples/ and benchmarks/, with HOME there too, so a command may write what
it likes and nothing in the checkout changes; its commands run in order
(``big2 replay match.txt`` reads what ``big2 play --save match.txt`` wrote).
``big2`` is this checkout's command and ``python`` the suite's interpreter.

A command runs exactly as written unless :data:`SHORTENED` gives it a
shorter form, with the reason. The forms are kept few: the ones that run for
minutes or hours run for seconds (fewer deals, a smaller budget), the
synopses with ``[OPTIONS]`` run with their options filled in, and the
interactive ones get their answers on standard input. The blocks that stay
costly even so (training, the bot benchmark, most expert arenas) run under
the ``nightly`` marker; README's expert arena stays in ``make test``. Every entry must still
match a command in the docs, so none outlives its command; a new command
that runs too long fails here until it gets an entry.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_TAGS = {"sh", "bash", "shell", "console"}
COMMAND_WORDS = ("big2", "python", "make", "pip")
TIMEOUT = 300.0
"""Seconds one command may take (generous: CI shares two cores)."""

PLAY_A_MATCH = "1\n" * 3000
"""Answers that play a whole match (play number 1 every turn)."""
HAS_TORCH = importlib.util.find_spec("torch") is not None
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
IN_MAKE_VENV = Path(sys.prefix).resolve() == (ROOT / ".venv").resolve()
EXPERT = "expert:budget=2:candidates=2"
"""The expert with the smallest search (two candidates, one sample each): seconds a deal."""


@dataclass(frozen=True)
class Form:
    """How a documented command runs here: *run* (``None``: as written),
    the *stdin* it gets, and *why* it differs, if it does."""

    run: str | None = None
    why: str = ""
    stdin: str = ""
    needs: tuple[str, ...] = ()
    """Optional extras it needs ("torch", "matplotlib", "make-venv"), skipped without."""
    nightly: bool = False
    """Its block runs under the ``nightly`` marker (``make test-nightly``; CI runs a
    slice of it), even shortened."""



EXIT_ROUND = ("python -m research.exit --out training/exit --hours 2 --start "
              f"{ROOT}/training/ppo/checkpoint.pt --families classic --deals 2 --gate-deals 2 --gate-h2h-deals 2 "
              "--budget 2 --gate-budget 2 --rounds 1 --workers 1")
"""One round of expert iteration as small as it goes: two deals, a 2-play-out search."""

SHORTENED: dict[str, Form] = {
    # README.md
    "make play": Form(stdin="q\n", needs=("make-venv",),
                      why="interactive: the game starts, then q quits it"),
    "apt-get install python3-venv g++ chromium-headless-shell fonts-liberation fonts-noto-cjk "
    "postgresql nginx tmux": Form(
        run="""sh -c 'python3 -c "import venv, ensurepip" && command -v g++ >/dev/null """
            """&& command -v chromium-headless-shell >/dev/null && fc-list | grep -qi "liberation sans" """
            """&& fc-list | grep -qi "noto sans cjk" && ls /usr/lib/postgresql/*/bin/initdb """
            """&& dpkg -s nginx >/dev/null && command -v tmux >/dev/null'""",
        why="installs system packages as root: the test checks instead that what they bring "
            "is here (as scripts/system-packages.sh checks before it installs them)"),
    "make test": Form(run="make -n test", needs=("make-venv",),
                      why="this suite is what it runs: the dry run checks the target and its "
                          "command without running the suite inside itself"),
    "big2 arena --seats expert,hard,hard,hard --deals 300 --scoring count --workers 2": Form(
        run=f"big2 arena --seats {EXPERT},hard,hard,hard --deals 1 --scoring count --workers 1 "
            "--quiet",
        why="300 duplicate deals with the expert take an hour: one deal, a small budget"),
    # docs/league.md
    "python benchmarks/bench_dmc.py --iterations 20 --rounds 3 --settings "
    "0:fp32,0:bf16,1:bf16,2:bf16": Form(
        run="python benchmarks/bench_dmc.py --iterations 1 --rounds 1 --settings 0:fp32,2:bf16",
        needs=("torch",), nightly=True,
        why="three rounds of four settings take minutes: one iteration of two (PyTorch)"),
    # docs/env.md
    "python benchmarks/bench_env_openspiel.py --seconds 2 --rounds 5": Form(
        run="python benchmarks/bench_env_openspiel.py --seconds 0.2 --rounds 1 --envs 64",
        why="a benchmark of 20 s and more: one short round (OpenSpiel only where installed)"),
    "python benchmarks/bench_env.py --seconds 1 --rounds 3 --envs 1024 "
    "--setups classic:4,classic:3,classic:2": Form(
        run="python benchmarks/bench_env.py --seconds 0.2 --rounds 1 --envs 64 "
            "--setups classic:4",
        why="a benchmark of half a minute: one short round of one setup"),
    "python benchmarks/bench_native_env.py --seconds 1 --rounds 3": Form(
        run="python benchmarks/bench_native_env.py --seconds 0.2 --rounds 1 --envs 64",
        why="a benchmark of half a minute: one short round"),
    # docs/bots.md
    "big2 arena --seats policy-net,heuristic,heuristic,heuristic --deals 200 --scoring count "
    "--seed 7 --workers 1": Form(
        run="big2 arena --seats policy-net,heuristic,heuristic,heuristic --deals 2 "
            "--scoring count --seed 7 --workers 1 --quiet", nightly=True,
        why="200 duplicate deals take minutes: two"),
    "big2 arena --seats policy-search,heuristic,heuristic,heuristic --deals 100 --scoring count "
    "--seed 5 --workers 1": Form(
        run="big2 arena --seats policy-search:samples=4,heuristic,heuristic,heuristic --deals 1 "
            "--scoring count --seed 5 --workers 1 --quiet",
        why="100 duplicate deals with the search take several minutes: one, a small search"),
    "python -m big2.learn train --out training/ppo --hours 2": Form(
        run="python -m big2.learn train --out training/ppo --hours 0.001 --batch 256 "
            "--self-play 8 --pool 2 --bots 1 --eval-minutes 0 --eval-deals 4 --threads 1",
        needs=("torch",), nightly=True,
        why="two hours of training: a few seconds of it, evaluated at once, in a fresh "
            "directory (the committed run is not touched)"),
    "python -m big2.learn train-dmc --out training/dmc --hours 2": Form(
        run="python -m big2.learn train-dmc --out training/dmc --hours 0.0005 --games 4 "
            "--hidden 16 --eval-deals 4 --threads 1 --families classic",
        needs=("torch",), nightly=True,
        why="two hours of training: a second of it, a small network, evaluated at once, "
            "in a fresh directory"),
    "python -m big2.learn slim training/dmc/checkpoint.pt training/dmc/checkpoint.npz": Form(
        needs=("torch",), nightly=True, why="slims the run above (nightly with it)"),
    "big2 gauntlet dmc:weights=training/dmc/checkpoint.npz --against greedy,heuristic": Form(
        run="big2 gauntlet dmc:weights=training/dmc/checkpoint.npz --against greedy "
            "--rules classic --deals 1 --workers 1 --quiet",
        needs=("torch",), nightly=True,
        why="400 duplicate deals a cell take minutes: one, one opponent, one rule set"),
    "python -m big2.learn export-policy training/ppo src/big2/bots/policy/weights/policy.npz "
    "--critic src/big2/bots/policy/weights/value.npz": Form(
        run="python -m big2.learn export-policy training/ppo policy.npz --critic value.npz",
        needs=("torch",), why="written here, not over the weights the package ships"),
    "python -m big2.learn plot training/ppo -o docs/img/training.png": Form(
        run="python -m big2.learn plot training/ppo -o training.png",
        needs=("torch", "matplotlib"),
        why="the run trained above; the docs' image is not redrawn"),
    "big2 arena --seats expert,heuristic,heuristic,heuristic --deals 2000 --rules classic "
    "--seed 1 '[--workers' 'N]' '[--scoring' 'count]' '[--json' 'FILE]' '[--ray' "
    "'[ADDRESS]]'": Form(
        run=f"big2 arena --seats {EXPERT},heuristic,heuristic,heuristic --deals 1 "
            "--rules classic --seed 1 --workers 1 --scoring count --json result.json --quiet",
        nightly=True, why="a synopsis: run with its options filled in (not --ray, which starts a Ray "
            "cluster), one deal and a small budget"),
    "python -m research.exit --out training/exit --hours 2": Form(
        run=EXIT_ROUND,
        needs=("torch",), nightly=True,
        why="hours of search self-play: one round of two deals with a 2-play-out search, "
            "from the committed PPO checkpoint, in a fresh directory"),
    "python -m research.exit --out training/exit --hours 2 --ray auto": Form(
        run=EXIT_ROUND,
        needs=("torch",), nightly=True,
        why="joins a running Ray cluster: run without --ray (test_exit's nightly Ray test "
            "plays a round on local actors), the run above resumed"),
    "python -m big2.learn export-policy training/exit policy.npz": Form(
        needs=("torch",), nightly=True, why="exports the run above (nightly with it)"),
    "python benchmarks/bench_bots.py --deals 2000 --expert-deals 40 --workers 2 "
    "--timing-deals 4": Form(
        run="python benchmarks/bench_bots.py --deals 1 --expert-deals 1 --workers 1 "
            "--timing-deals 1 --budget 2", nightly=True,
        why="hours of arena runs: one deal each, a small expert budget"),
    # docs/env.md
    "python examples/train_vec.py --minutes 2 --eval-deals 500": Form(
        run="python examples/train_vec.py --minutes 0.05 --eval-deals 20", needs=("torch",),
        nightly=True, why="two minutes of training: three seconds, a short evaluation"),
    "python examples/train_pg.py --minutes 4 --eval-deals 1000": Form(
        run="python examples/train_pg.py --minutes 0.05 --eval-deals 20", needs=("torch",),
        nightly=True, why="four minutes of training: three seconds, a short evaluation"),
    # docs/poker.md
    "big2 poker compare 'AS AD 8C 8H 3S' 'KS KD QC QH 2S' '[--low' 'a5|27|a6]' "
    "'[--wild' 'deuces,bug]'": Form(
        run="big2 poker compare 'AS AD 8C 8H 3S' 'KS KD QC QH 2S' --low a5 --wild deuces,bug",
        why="a synopsis: run with its options filled in"),
    # docs/protocol.md
    "big2 bot --level expert '[--budget' '240]' '[--seconds' '0.5]' '[--seed' '7]'": Form(
        run="big2 bot --level expert --budget 240 --seconds 0.5 --seed 7",
        stdin='{"type": "hello"}\n{"type": "quit"}\n',
        why="a synopsis, and a program that talks on stdin: hello, then quit"),
    # docs/records.md
    "big2 play --seed 1 --save match.txt": Form(
        stdin=PLAY_A_MATCH, why="interactive: answers that play the whole match"),
    "big2 replay match.txt": Form(stdin="q\n", why="interactive: q quits"),
    "big2 replay match.txt --seat 0": Form(stdin="\n\nq\n", why="interactive: two steps, q"),
    # docs/server.md
    "big2 serve": Form(
        run="big2 serve --port {port}",
        why="a server runs until stopped: it starts on a free port (8000 may be taken), "
            "answers on it, and is stopped"),
}
"""Documented command (as ``shlex.join`` of its words) -> how it runs here."""


@dataclass
class Block:
    """One fenced block's commands."""

    path: Path
    line: int
    commands: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _is_command(line: str) -> bool:
    word = line.split(maxsplit=1)[0] if line.split() else ""
    return word in COMMAND_WORDS


def commands_of(body: str, prompt: bool) -> list[str]:
    """The commands of a block's text (*prompt*: only ``$`` lines are)."""
    out: list[str] = []
    current = ""
    for raw in body.splitlines():
        line = raw.rstrip()
        if not current:
            if prompt:
                if not line.startswith("$ "):
                    continue  # output shown in the docs
                line = line[2:]
            if not line.strip():
                continue
        current += line
        if current.endswith("\\"):
            current = current[:-1] + " "
            continue
        words = shlex.split(current, comments=True)
        if words:
            out.append(shlex.join(words))
        current = ""
    return out


def shell_blocks() -> list[Block]:
    blocks = []
    fence = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
    for path in DOC_FILES:
        text = path.read_text(encoding="utf-8")
        for m in fence.finditer(text):
            tag, body = m.group(1).lower(), m.group(2)
            first = next((ln for ln in body.splitlines() if ln.strip()), "")
            prompt = tag == "console" or first.startswith("$ ")
            if tag not in SHELL_TAGS and not (tag == "" and (
                    prompt or _is_command(first))):
                continue
            line = text.count("\n", 0, m.start()) + 1
            blocks.append(Block(path, line, commands_of(body, prompt)))
    return blocks


BLOCKS = shell_blocks()


def test_the_docs_have_shell_blocks_and_every_shortened_form_is_used() -> None:
    documented = {c for b in BLOCKS for c in b.commands}
    assert len(BLOCKS) >= 10 and len(documented) >= 25
    unused = sorted(set(SHORTENED) - documented)
    assert not unused, f"SHORTENED entries whose command left the docs: {unused}"
    for form in SHORTENED.values():
        assert form.why, "every shortened form says why"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def argv_of(command: str) -> list[str]:
    words = shlex.split(command)
    if words[0] == "big2":
        return [sys.executable, "-m", "big2.cli", *words[1:]]
    if words[0] == "python":
        return [sys.executable, *words[1:]]
    if words[0] == "pip":
        return [sys.executable, "-m", "pip", *words[1:]]
    return words


def run_server(argv: list[str], cwd: Path, env: dict[str, str], port: int) -> None:
    """Start the server, wait until it answers on *port*, then stop it as
    Ctrl-C in a terminal would (SIGINT to its process group)."""
    log = cwd / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("the server did not answer within 60 s")
                time.sleep(0.2)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        with contextlib.suppress(ProcessLookupError):  # its helpers, if any stayed behind
            os.killpg(proc.pid, signal.SIGKILL)
    text = log.read_text()
    assert "Traceback" not in text, text
    assert f"127.0.0.1:{port}" in text, text


def _param(block: Block) -> object:
    nightly = any(SHORTENED.get(c, Form()).nightly for c in block.commands)
    return pytest.param(block, id=block.id, marks=[pytest.mark.nightly] if nightly else [])


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS])
def test_doc_block_runs(block: Block, tmp_path: Path) -> None:
    for folder in ("docs", "examples", "benchmarks"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}  # research/ too
    for command in block.commands:
        form = SHORTENED.get(command, Form())
        missing = [n for n in form.needs if not {"torch": HAS_TORCH, "matplotlib": HAS_MATPLOTLIB,
                                                 "make-venv": IN_MAKE_VENV}[n]]
        if missing:
            pytest.skip(f"{command!r} needs {', '.join(missing)} (the rl extra, or the suite "
                        "run from make's .venv)")
        text = form.run or command
        if "{port}" in text:
            port = free_port()
            run_server(argv_of(text.format(port=port)), tmp_path, env, port)
            continue
        argv = argv_of(text)
        cwd = ROOT if argv[0] == "make" else tmp_path
        r = subprocess.run(argv, input=form.stdin, capture_output=True, text=True, cwd=cwd,
                           env=env, timeout=TIMEOUT, check=False)
        both = r.stdout + r.stderr
        assert r.returncode == 0, f"{block.id}: {text!r} exited {r.returncode}:\n{both[-3000:]}"
        assert "Traceback" not in both, f"{block.id}: {text!r}:\n{both[-3000:]}"
