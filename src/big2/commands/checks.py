"""Checks the ``big2`` commands make on their arguments before any work starts.

:func:`build_rules` turns ``--rules``/``--set`` into :class:`~big2.rules.Rules`
with click's errors.

A command that would write a file after minutes of play or an hour of arena
deals checks at once that it can: :class:`OutputFile` is a click parameter
type that refuses, while the command line is parsed, a path whose folder is
missing or is not writable, or that names a folder; with ``records=True`` an
existing file must also be a record file that more deals can be appended to.
Errors are click's usual one-line usage errors (exit status 2).

>>> import click
>>> from click.testing import CliRunner
>>> @click.command()
... @click.option("-o", type=OutputFile())
... def cmd(o): click.echo(f"writing {o}")
>>> print(CliRunner().invoke(cmd, ["-o", "/nonexistent/x.svg"]).output.splitlines()[-1])
Error: Invalid value for '-o': '/nonexistent/x.svg': the folder '/nonexistent' does not exist
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from big2.rules import OPTIONS, InvalidRulesError, Rules


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


_MULTI = frozenset(o.name for o in OPTIONS if o.multi)
"""Options that hold a list of choices (``--set redeal=weak,no-face``, ``=none``)."""


def build_rules(preset: str, options: tuple[str, ...], players: int | None = None) -> Rules:
    """Rules from a preset name plus ``name=value`` overrides (click-friendly errors)."""
    overrides: dict[str, Any] = {}
    for item in options:
        if "=" not in item:
            raise click.BadParameter(f"expected name=value, got {item!r}", param_hint="--set")
        key, value = item.split("=", 1)
        key = key.strip().replace("-", "_")
        if key in _MULTI:  # a list of choices: "a,b"; "none" (or nothing) clears it
            value = value.strip()
            overrides[key] = ([] if value.lower() in ("", "none") else
                              [v.strip() for v in value.split(",")])
        else:
            overrides[key] = _parse_value(value.strip())
    if players is not None:
        overrides["players"] = players
    try:
        return Rules.preset(preset, **overrides)
    except InvalidRulesError as exc:
        raise click.UsageError(str(exc)) from None


def output_problem(path: str, *, replace: bool = False) -> str | None:
    """Why *path* cannot be written, or ``None`` if it can (``"-"``, standard
    output, always can). *replace*: the file is rewritten through a temporary
    file beside it, so its folder must be writable even when it exists."""
    if path == "-":
        return None
    p = Path(path)
    if p.is_dir():
        return "is a folder, not a file"
    folder = p.parent
    if not folder.exists():
        return f"the folder '{folder}' does not exist"
    if not folder.is_dir():
        return f"'{folder}' is not a folder"
    if p.exists():
        if not os.access(p, os.W_OK):
            return "is not writable"
        if replace and not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot write in the folder '{folder}'"
    elif not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot create a file in the folder '{folder}'"
    return None


def record_file_problem(path: str) -> str | None:
    """Why deals cannot be appended to the record file *path*, or ``None``:
    it must be writable (see :func:`output_problem`) and, if it exists, hold
    records already (or nothing), so that appending keeps it readable."""
    problem = output_problem(path, replace=True)
    if problem is not None or not Path(path).exists():
        return problem
    from big2.records import RecordError, load

    try:
        if Path(path).read_bytes().strip():
            load(path)
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    except RecordError as exc:
        return f"is not a record file to append to ({exc})"
    return None


class OutputFile(click.ParamType):  # type: ignore[type-arg]  # generic only in newer click
    """A file a command will write, checked when the command line is parsed.

    Args:
        records: the command appends deal records to it (``big2 play --save``):
            an existing file must already be a record file.
        allow_dash: ``"-"`` means standard output.
    """

    name = "file"

    def __init__(self, records: bool = False, allow_dash: bool = True) -> None:
        self.records = records
        self.allow_dash = allow_dash

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = os.fspath(value)
        if not isinstance(text, str):  # pragma: no cover - click passes str
            text = os.fsdecode(text)
        if text == "-" and not self.allow_dash:
            self.fail("'-' (standard output) is not possible here", param, ctx)
        problem = record_file_problem(text) if self.records else output_problem(text)
        if problem is not None:
            self.fail(f"{text!r}: {problem}", param, ctx)
        return text


def check_output(path: str, param_hint: str, *, records: bool = False) -> None:
    """The same check as :class:`OutputFile`, for a path that arrives some
    other way; raises ``click.BadParameter``."""
    problem = record_file_problem(path) if records else output_problem(path)
    if problem is not None:
        raise click.BadParameter(f"{path!r}: {problem}", param_hint=param_hint)


__all__ = ["OutputFile", "build_rules", "check_output", "output_problem", "record_file_problem"]
