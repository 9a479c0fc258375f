"""One version (issue 56): pyproject.toml's, as ``big2.__version__``, ``big2 --version``
and the changelog's newest release."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import big2

ROOT = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    found: str = data["project"]["version"]
    return found


def test_package_version_is_pyproject_version() -> None:
    assert big2.__version__ == version("big2") == pyproject_version()


def test_command_prints_the_same_version() -> None:
    out = subprocess.run([sys.executable, "-m", "big2.cli", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert out.split()[-1] == pyproject_version()


def test_version_is_written_once_in_the_source() -> None:
    """No module spells the version out: it comes from the metadata alone."""
    literal = re.compile(r"__version__\s*=\s*['\"]\d+\.\d+")
    hits = [p for p in (ROOT / "src" / "big2").rglob("*.py") if literal.search(p.read_text("utf-8"))]
    assert hits == []


def test_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert text.startswith("# Changelog")
    assert "## [Unreleased]" in text
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", text, re.MULTILINE)
    assert releases, "no released version in CHANGELOG.md"
    # a release bumps pyproject's version and names the Unreleased changes after it at once
    assert releases[0][0] == pyproject_version()
