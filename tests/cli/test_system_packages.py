"""``scripts/system-packages.sh``, which ``make play`` and ``make test`` run first: on a
machine that lacks a Debian package it installs it when it may (root, or sudo without a
password), and otherwise stops with one line naming the exact command to run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "system-packages.sh"


def fake_machine(tmp_path: Path, have: list[str], fakes: dict[str, str]) -> Path:
    """A folder for PATH with the real *have* commands and *fakes* (name → shell body)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name in have:
        real = sys.executable if name == "python3" else shutil.which(name)
        assert real, name
        (bindir / name).symlink_to(real)
    for name, body in fakes.items():
        (bindir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bindir / name).chmod(0o755)
    return bindir


def run(bindir: Path, want: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/sh", str(SCRIPT), want], capture_output=True, text=True,
                          env={"PATH": str(bindir)}, timeout=60, check=False)


BASICS = ["python3"]
NO_POSTGRES = "exit 1"  # `ls /usr/lib/postgresql/*/bin/initdb` fails: no PostgreSQL
HAS_POSTGRES = "exit 0"


def test_a_user_without_sudo_is_told_the_exact_command(tmp_path: Path) -> None:
    bindir = fake_machine(tmp_path, BASICS + ["g++"], {
        "id": "echo 1000", "dpkg": "exit 1", "apt-get": "echo apt-get ran >&2; exit 0",
        "ls": NO_POSTGRES})
    r = run(bindir, "test")
    assert r.returncode == 1 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].endswith("run: sudo apt-get install -y chromium-headless-shell fonts-liberation "
                             "fonts-noto-cjk postgresql nginx tmux"), lines[0]
    assert "chromium-headless-shell: renders the svg tests" in lines[0]
    assert "apt-get ran" not in r.stderr


def test_root_installs_what_is_missing_and_says_why(tmp_path: Path) -> None:
    log = tmp_path / "apt.log"
    bindir = fake_machine(tmp_path, BASICS + ["g++"], {
        "id": "echo 0", "dpkg": 'case "$2" in fonts-liberation|nginx) exit 0;; *) exit 1;; esac',
        "apt-get": f'echo "$@" >> {log}', "ls": HAS_POSTGRES, "chromium-headless-shell": "exit 0",
        "tmux": "exit 0"})
    r = run(bindir, "test")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("make: installing fonts-noto-cjk with apt-get (fonts-noto-cjk: draws "
                        "the Chinese labels the browser tests check)\n")
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq fonts-noto-cjk"]


def test_sudo_without_a_password_is_used(tmp_path: Path) -> None:
    log = tmp_path / "sudo.log"
    bindir = fake_machine(tmp_path, BASICS, {
        "id": "echo 1000", "sudo": f'printf "%s\\n" "$*" >> {log}', "apt-get": "exit 0"})
    r = run(bindir, "play")  # no C++ compiler on this PATH
    assert r.returncode == 0, r.stderr
    assert "g++" in r.stdout and "builds the compiled core" in r.stdout
    calls = log.read_text().splitlines()
    assert calls == ["-n true", "apt-get update -qq", "apt-get install -y -qq g++"]


def test_nothing_to_do_on_a_machine_that_has_everything(tmp_path: Path) -> None:
    bindir = fake_machine(tmp_path, BASICS + ["g++"], {"id": "echo 1000"})
    r = run(bindir, "play")
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
