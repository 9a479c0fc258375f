"""Seat specs: which bot plays a seat of the arena (:func:`parse_seat`).

A spec is a bot's name or level with options (``expert:budget=50``), a
factory in the user's own module (``mybots:make_bot``, options after it:
``mybots:make_bot:depth=2``), or ``cmd:PROGRAM ARGS``, an external program
speaking the bot protocol. :func:`check_seat` refuses a spec before any deal
is played; :func:`make_player` builds its bot.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from big2.bots import Bot, available_bots, make_bot


def parse_seat(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a seat spec into a bot name and options.

    ``"expert"`` → ``("expert", {})``; ``"expert:budget=50:seconds=0.5"`` →
    options; ``"mybots:make_bot"`` → ``("module", {"factory": "mybots:make_bot"})``,
    a factory in the user's module (:func:`load_factory`), options after it;
    ``"cmd:python mybot.py"`` → ``("cmd", {"command": "python mybot.py"})``,
    an external program speaking the bot protocol (:mod:`big2.protocol`).

    >>> parse_seat("expert:budget=50")
    ('expert', {'budget': 50})
    >>> parse_seat("cmd:python my bot.py")
    ('cmd', {'command': 'python my bot.py'})
    >>> parse_seat("mybots:make_bot:depth=2")
    ('module', {'factory': 'mybots:make_bot', 'depth': 2})
    """
    spec = spec.strip()
    if not spec:
        raise ValueError("empty seat spec")
    if spec.startswith("cmd:"):
        command = spec[4:].strip()
        if not command:
            raise ValueError("cmd: needs a command line, e.g. 'cmd:python mybot.py'")
        return "cmd", {"command": command}
    name, *parts = spec.split(":")
    options: dict[str, Any] = {}
    if parts and "=" not in parts[0]:  # module:factory, then its options
        factory = f"{name.strip()}:{parts.pop(0).strip()}"
        name, options = "module", {"factory": factory}
    for part in parts:
        if "=" not in part:
            raise ValueError(f"seat option {part!r}: expected key=value")
        key, value = part.split("=", 1)
        options[key.strip()] = _value(value.strip())
    return name.strip(), options


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


class SeatError(ValueError):
    """A seat spec that cannot play: an unknown bot, an option it does not
    take or a bad value, or a ``cmd:`` program that could not start."""


def check_seat(spec: str, *, timeout: float = 10.0, start: bool = True) -> None:
    """Refuse *spec* before any deal is played (raises :class:`SeatError`).

    A bot must exist and take every option given, each of the right type
    (a trained policy's bot takes any option: they are its own). A ``cmd:``
    program must exist and, with *start*, answer ``hello`` with ``ready``.

    >>> check_seat("expert:budget=abc")
    Traceback (most recent call last):
    ...
    big2.arena.seats.SeatError: seat 'expert:budget=abc': budget must be a whole number, not 'abc'
    >>> check_seat("greedy:depth=3")
    Traceback (most recent call last):
    ...
    big2.arena.seats.SeatError: seat 'greedy:depth=3': greedy takes no options (got depth)
    """
    try:
        name, options = parse_seat(spec)
    except ValueError as exc:
        raise SeatError(f"seat {spec!r}: {exc}") from None
    if name == "cmd":
        _check_program(spec, options["command"], timeout if start else None)
        return
    if name == "module":
        _check_factory(spec, options)
        return
    try:
        bare = make_bot(name, seed=0)
    except ValueError as exc:
        if not options or name not in available_bots():
            raise SeatError(str(exc)) from None
        try:  # a bot that needs an option (dmc's weights) is made with those given
            bare = make_bot(name, seed=0, **options)
        except (ValueError, TypeError) as again:
            raise SeatError(f"seat {spec!r}: {again}") from None
    from big2.bots.policy import CallableBot

    if not isinstance(bare, CallableBot):
        accepted = _bot_options(bare)
        unknown = [k for k in options if k not in accepted]
        if unknown:
            takes = (f"it takes {', '.join(sorted(accepted))}" if accepted else "")
            raise SeatError(f"seat {spec!r}: {name} takes no option {_words(unknown)}; {takes}"
                            if accepted else
                            f"seat {spec!r}: {name} takes no options (got {_words(unknown)})")
        for key, value in options.items():
            problem = _type_problem(accepted[key], value)
            if problem:
                raise SeatError(f"seat {spec!r}: {key} must be {problem}, not {str(value)!r}")
    try:
        make_bot(name, seed=0, **options)
    except (ValueError, TypeError) as exc:
        raise SeatError(f"seat {spec!r}: {exc}") from None


def _words(names: Sequence[str]) -> str:
    return ", ".join(names)


def _bot_options(bot: Bot) -> dict[str, type | None]:
    """The options a bot's constructors name, each with the type its value
    must have (``None``: any), and its style's fields (the heuristic's)."""
    import dataclasses
    import inspect

    found: dict[str, type | None] = {}
    # a configured bot (a search) names the functions that read its options
    sources = getattr(bot, "option_sources", None) or [
        cls.__dict__["__init__"] for cls in type(bot).__mro__
        if "__init__" in cls.__dict__ and cls is not object]
    for init in sources:
        for p in inspect.signature(init).parameters.values():
            if p.name in ("self", "seed") or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            found.setdefault(p.name, _option_type(p.default, str(p.annotation)))
    style = getattr(bot, "style", None)
    if dataclasses.is_dataclass(style) and not isinstance(style, type):
        found.pop("style", None)  # an object, not something a seat spec can give
        for f in dataclasses.fields(style):
            found[f.name] = _option_type(getattr(style, f.name), str(f.type))
    return found


def _option_type(default: Any, annotation: str) -> type | None:
    if "Path" in annotation.replace("|", " ").split():
        return Path
    for kind in (bool, int, float):
        if isinstance(default, kind):
            return kind
    if default is None:
        for kind in (bool, float, int):
            if kind.__name__ in annotation.replace("|", " ").split():
                return kind
    return None


def _type_problem(kind: type | None, value: Any) -> str | None:
    if kind is bool and not isinstance(value, bool):
        return "true or false"
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        return "a whole number"
    if kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return "a number"
    if kind is Path and not Path(str(value)).is_file():
        return "an existing file"
    return None


def _check_program(spec: str, command: str, timeout: float | None) -> None:
    import os
    import shlex
    import shutil

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise SeatError(f"seat {spec!r}: could not start: {exc}") from None
    program = argv[0]
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise SeatError(f"seat {spec!r}: could not start: {program!r} is not an "
                            "executable file")
    elif shutil.which(program) is None:
        raise SeatError(f"seat {spec!r}: could not start: no program {program!r} on PATH")
    if timeout is None:
        return
    from big2.protocol import ExternalBot, ExternalBotError

    bot = ExternalBot(command, timeout=timeout)
    try:
        bot._start()  # hello, and 'ready' back
    except ExternalBotError as exc:
        raise SeatError(f"seat {spec!r}: could not start: {exc}") from None
    finally:
        bot.close()


def make_player(spec: str, seed: int, timeout: float = 10.0) -> Bot:
    """The bot *spec* seats (:func:`parse_seat`), seeded with *seed*."""
    name, options = parse_seat(spec)
    if name == "module":
        factory = load_factory(options.pop("factory"))
        return factory(seed=seed, **options)
    if name == "cmd":
        from big2.protocol import ExternalBot

        return ExternalBot(options["command"], seed=seed, timeout=timeout)
    return make_bot(name, seed=seed, **options)


def load_factory(ref: str) -> Callable[..., Bot]:
    """The bot factory *ref* names, ``"MODULE:NAME"``: a callable taking
    ``seed=`` (and any options) and returning a :class:`~big2.bots.Bot`, such
    as a bot class. The module is imported as ``python -m`` would, the current
    folder first on the path, so ``mybots.py`` beside you is found.

    Raises:
        ValueError: the module cannot be imported or has no such callable.
    """
    module, _, attr = ref.partition(":")
    if not module or not attr:
        raise ValueError(f"{ref!r}: expected MODULE:FACTORY, e.g. mybots:make_bot")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        found = getattr(importlib.import_module(module), attr, None)
    except ImportError as exc:
        raise ValueError(f"{ref!r}: cannot import {module!r} ({exc})") from None
    if not callable(found):  # a ValueError: a seat spec's words, as every refusal here
        raise ValueError(f"{ref!r}: {module!r} has no bot factory {attr!r}")  # noqa: TRY004
    factory: Callable[..., Bot] = found
    return factory


def _check_factory(spec: str, options: dict[str, Any]) -> None:
    """A module seat: its factory loads and makes a :class:`~big2.bots.Bot` with the options."""
    options = dict(options)
    try:
        bot = load_factory(options.pop("factory"))(seed=0, **options)
    except (ValueError, TypeError) as exc:
        raise SeatError(f"seat {spec!r}: {exc}") from None
    if not isinstance(bot, Bot):
        raise SeatError(f"seat {spec!r}: the factory made a {type(bot).__name__}, not a big2 Bot")


__all__ = ["SeatError", "check_seat", "load_factory", "make_player", "parse_seat"]
