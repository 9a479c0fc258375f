"""Pointers that guard code kept in two languages (issue 54, item 4): every
``big2.*`` module or name that src/native and the docs mention exists, and every C++
file that src/native, src/big2 and the docs name is in the tree. docs/research.md is
left out: it is a dated record, naming what existed on its dates."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"\bbig2(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
CPP = re.compile(r"\b([a-z][a-z0-9_]*\.(?:hpp|cpp))\b")
NOT_NAMES = (".conf", ".org", ".sqlite3", ".json", ".txt", ".db", ".md")
"""Endings of file and host names that read like ``big2.x`` but name no module."""


def texts(*globs: str) -> dict[str, str]:
    out = {}
    for pattern in globs:
        for path in sorted(ROOT.glob(pattern)):
            if path.name != "research.md" and path.is_file():
                out[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return out


def resolves(name: str) -> bool:
    """Whether *name* is an importable module or an attribute path under one."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_big2_name_mentioned_exists() -> None:
    missing = {}
    for where, text in texts("src/native/*", "docs/*.md", "README.md").items():
        for found in NAME.finditer(text):
            name = found.group(0)
            if name.endswith(NOT_NAMES) or resolves(name):
                continue
            missing.setdefault(name, []).append(where)
    assert not missing, missing


def test_every_cpp_file_mentioned_exists() -> None:
    present = {p.name for p in (ROOT / "src" / "native").iterdir()}
    present |= {p.name for p in (ROOT / "benchmarks").glob("*.cpp")}
    missing = {}
    for where, text in texts("src/native/*", "src/big2/**/*.py", "docs/*.md",
                             "README.md", "CMakeLists.txt").items():
        for found in CPP.finditer(text):
            if found.group(1) not in present:
                missing.setdefault(found.group(1), []).append(where)
    assert not missing, missing
