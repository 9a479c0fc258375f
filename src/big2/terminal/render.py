"""How the terminal game draws: colour, cards in the rule set's order, the rules header.

Colour goes through :func:`click.style` and out through :func:`click.echo`,
which drops it when the output is no terminal; ``NO_COLOR`` (any value but
empty) turns it off everywhere (https://no-color.org).

>>> from big2.rules import Rules
>>> rules_header(Rules.preset("taiwan", players=3))
'custom: taiwan with players=3'
>>> rules_header(Rules(finish_restrictions=("single-2", "pair-2"), suit_order="CSHD"))
'philippines'
>>> rules_header(Rules(redeal=("weak",), last_card=True))
'custom: classic with last_card=true redeal=weak'
>>> rules_header(Rules(suit_order="CSHD"), base="philippines")
'custom: philippines with finish_restrictions=none'
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Sequence
from typing import Any

import click

from big2.cards import CARD_SYMBOLS, DECK_SIZE, is_joker
from big2.i18n import width as display_width
from big2.rules import PRESETS, Rules

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def colour_wanted() -> bool | None:
    """``False`` under ``NO_COLOR``; else ``None`` (colour when the output is a terminal)."""
    return False if os.environ.get("NO_COLOR") else None


def width() -> int:
    """The terminal's width in columns (80 when it cannot be told), at least 40."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def visible(text: str) -> int:
    """The printed width of *text* (colour codes take none, a Chinese character two)."""
    return display_width(_ANSI.sub("", text))


def card(c: int) -> str:
    """One card's name, red for ♦ and ♥ (and the red joker)."""
    name = CARD_SYMBOLS[c]
    red = c % DECK_SIZE & 3 in (0, 2) if not is_joker(c) else c % DECK_SIZE == 52
    # end the red with the default colour, not a full reset, so a bold line stays bold
    return click.style(name, fg="red", reset=False) + "\x1b[39m" if red else name


def cards(order: Iterable[int], readings: dict[int, int] | None = None) -> str:
    """Cards in the order given; a wild joker with its reading (``RJ=9♠``)."""
    out = []
    for c in order:
        text = card(c)
        if readings and c in readings:
            text += "=" + card(readings[c])
        out.append(text)
    return " ".join(out) or "-"


def hand_order(mask_cards: Sequence[int], rules: Rules, by_suit: bool) -> list[int]:
    """A hand's cards by strength under *rules*, or by suit in the suit order
    (jokers after the four suits; copies of a card side by side)."""
    if by_suit:
        return sorted(mask_cards, key=lambda c: (4 if is_joker(c) else
                                                 rules.suit_rank[c % DECK_SIZE & 3],
                                                 c % DECK_SIZE >> 2, c))
    return sorted(mask_cards, key=lambda c: (rules.strength(c), c))


def strong(text: str) -> str:
    """Text in bold (the play to beat, your turn)."""
    return click.style(text, bold=True)


def marked(text: str) -> str:
    """Text that must catch the eye: bold yellow."""
    return click.style(text, fg="yellow", bold=True)


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value)) or "none"
    return str(value)


def rules_header(rules: Rules, base: str | None = None) -> str:
    """The rule set as a person reads it: a preset's name, or ``custom:`` the
    preset *base* (by default the nearest one) with the options that differ
    from it as ``option=value``."""
    exact = rules.name
    if exact != "custom":
        return exact
    mine = rules.to_dict()
    best: tuple[int, str, dict[str, Any]] | None = None
    names = [base] if base is not None and base in PRESETS else list(PRESETS)
    for name in names:
        theirs = Rules.preset(name).to_dict()
        diff = {k: v for k, v in mine.items() if theirs[k] != v}
        if best is None or len(diff) < best[0]:
            best = (len(diff), name, diff)
    assert best is not None
    _, name, diff = best
    return f"custom: {name} with " + " ".join(f"{k}={_word(v)}" for k, v in sorted(diff.items()))


def wrap(items: Sequence[str], indent: str, limit: int, sep: str = "  ") -> list[str]:
    """*items* on lines of at most *limit* columns, each line starting with *indent*."""
    lines, line = [], indent
    for item in items:
        if visible(line) + visible(item) > limit and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += item + sep
    if line.strip():
        lines.append(line.rstrip())
    return lines
