"""Reading what a person types at the terminal game's prompts.

Cards may be typed with or without spaces, in any case:

>>> spaced("3d3s")
'3d 3s'
>>> spaced("10hJhQH kh,AH")
'10h Jh QH kh AH'
>>> spaced("rj3D")
'rj 3D'
>>> spaced("zz 3d")  # a word that is not all cards is left for the card parser to refuse
'zz 3d'
"""

from __future__ import annotations

import re

_CARD = re.compile(r"RJ|BJ|JR|JB|(?:10|[2-9TJQKA])[DCHS♦♣♥♠♢♧♡♤]", re.IGNORECASE)

YES = frozenset({"y", "yes"})
NO = frozenset({"", "n", "no"})
QUIT = frozenset({"q", "quit", "exit"})


def split_word(word: str) -> list[str]:
    """*word* cut into card names, or ``[word]`` when it is not all cards."""
    out, pos = [], 0
    while pos < len(word):
        m = _CARD.match(word, pos)
        if m is None:
            return [word]
        out.append(m.group())
        pos = m.end()
    return out


def spaced(text: str) -> str:
    """Card text with one space between card names (see the module docstring)."""
    return " ".join(t for w in text.replace(",", " ").split() for t in split_word(w))
