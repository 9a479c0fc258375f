"""What the terminal game's helpers read of it: :class:`Console`.

:class:`big2.terminal.loop.TerminalGame` imports :mod:`big2.terminal.house` and
:mod:`big2.terminal.summary`; those type their argument with this protocol
instead of importing the loop back, so the imports go one way.
"""

from __future__ import annotations

from typing import Protocol

from big2.bots import Bot
from big2.match import Match


class Console(Protocol):
    """The terminal game as its helpers see it (a :class:`~big2.terminal.loop.TerminalGame`)."""

    match: Match
    bots: list[Bot]
    names: list[str]
    short: list[str]
    by_suit: bool
    quit: bool

    def say(self, text: str = "") -> None:
        """Write one line."""

    def ask(self, prompt: str) -> str | None:
        """Prompt and read one line; ``None`` at end of input."""

    def say_list(self, head: str, parts: list[str], joiner: str = " ·", first: str = "",
                 indent: str = "  ") -> None:
        """*head* and *parts* joined by *joiner*, wrapped to the terminal's width."""

    def verb(self, seat: int, word: str) -> str:
        """*word* for *seat*: "play" for you, "plays" for the others."""
