"""Count the places that read a rule option outside the variant (issue 23).

A *read* is an attribute access ``<x>.<option>`` where ``<option>`` is a field
of :class:`big2.rules.Rules` and ``<x>`` is a name or attribute ending in
``rules`` (``rules``, ``self.rules``, ``game.rules``, ``view.rules``,
``eng.rules``) or a subscript (``d["rules"]``). Files where reading options is
their job are not counted: ``rules.py``, ``presets.py``, ``variant/`` and
``house/``; nor ``poker/``, whose ``rules`` is the poker module's own rule type.

Run ``python tests/support/option_reads.py`` from the repository root for the
count and every place.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from big2.rules import Rules

SRC = Path(__file__).resolve().parents[2] / "src" / "big2"
HOME = ("rules.py", "presets.py", "variant", "house", "poker")
"""Top-level entries of ``src/big2`` not counted (see the module docstring)."""
OPTIONS = frozenset(f.name for f in dataclasses.fields(Rules))


def _is_rules(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id.endswith("rules")
    if isinstance(node, ast.Attribute):
        return node.attr.endswith("rules")
    return isinstance(node, ast.Subscript)


def option_reads(src: Path = SRC) -> list[tuple[str, int, str]]:
    """Every option read as ``(path relative to src/big2, line, option)``, sorted."""
    out = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src)
        if rel.parts[0] in HOME:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in OPTIONS
                    and _is_rules(node.value)):
                out.append((rel.as_posix(), node.lineno, node.attr))
    return sorted(out)


def report(reads: list[tuple[str, int, str]]) -> str:
    """The count, then one line a read."""
    lines = [f"{len(reads)} option reads outside rules.py, presets.py, variant/ and house/"]
    lines += [f"  {path}:{line}: {name}" for path, line, name in reads]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(option_reads()))
