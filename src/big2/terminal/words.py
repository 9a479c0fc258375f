"""The terminal's words in the language asked for: ``--lang``, or the locale.

The sentences come from :mod:`big2.i18n`'s catalogue, the one the browser's pages read;
this module holds the few helpers the terminal's commands share: the ``--lang`` option,
a seat's and a play's name, and padding by display width (a Chinese character takes two
columns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from big2.cards import Mask
from big2.i18n import LANGUAGES, current, detect, kind_label, normalize, set_language, t, width
from big2.rules import Rules
from big2.variant.kinds import Kind

__all__ = ["kind_text", "kind_word", "lang_option", "pad", "seat_label"]

F = TypeVar("F", bound=Callable[..., object])


def _choose(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str:
    if value is None:
        chosen = detect()
    else:
        found = normalize(value)
        if found is None:
            raise click.BadParameter(f"{value!r}: choose from {', '.join(LANGUAGES)} "
                                     "(zh-TW and zh-CN serve too)")
        chosen = found
    set_language(chosen)
    return chosen


def lang_option(command: F) -> F:
    """The ``--lang`` option: English, 繁體中文 (``zh-Hant``) or 简体中文 (``zh-Hans``);
    without it, the locale's language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)."""
    decorate = click.option(
        "--lang", callback=_choose, expose_value=False, is_eager=True, metavar="LANG",
        help="en, zh-Hant (繁體中文) or zh-Hans (简体中文); default: from LANG / LC_ALL")
    return decorate(command)


def seat_label(seat: int) -> str:
    """Seat *seat* (from 0) as the table names it, numbered from 1: ``Seat 1``, ``1 號位``."""
    return t("seatN", seat + 1)


def kind_text(play: Mask, rules: Rules) -> str:
    """The kind of *play* (a non-empty legal play) in the current language."""
    from big2.variant import kind_name, variant

    english = kind_name(play, rules)
    if current() == "en":
        return english
    combo = variant(rules).engine.classify(play)
    return kind_word(combo.kind) if combo is not None else english


def kind_word(kind: Kind) -> str:
    """*kind*'s name in the current language (its English label in English)."""
    if current() == "en":
        return kind.label
    return kind_label(kind.name) or kind.label


def pad(text: str, columns: int) -> str:
    """*text* with spaces after it up to *columns* display columns."""
    return text + " " * max(0, columns - width(text))
