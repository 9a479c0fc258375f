"""Terminal play: you against bots, through a terminal or a plain pipe.

The package splits by role: :mod:`~big2.terminal.render` (colour, cards,
the rules header), :mod:`~big2.terminal.listing` (the legal plays grouped by
kind), :mod:`~big2.terminal.parse` (what you type), :mod:`~big2.terminal.house`
(the house rules' choices), :mod:`~big2.terminal.summary` (the trick, the scores
explained), :mod:`~big2.terminal.advice` (the hint, ``l``, quitting) and
:mod:`~big2.terminal.loop` (deals, turns and the prompt, :class:`TerminalGame`).
``big2 play`` starts it; docs/terminal.md shows a session.
"""

from __future__ import annotations

from big2.terminal.loop import TerminalGame, help_text
from big2.terminal.loop import _kind as _kind  # how a play on the table reads

__all__ = ["TerminalGame", "help_text"]
