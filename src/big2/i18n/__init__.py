"""The words of the terminal and the browser in English, 繁體中文 and 简体中文.

One catalogue, ``catalogue.json`` beside this module, holds every sentence in the three
languages; the server serves that file to the pages (``/i18n/catalogue.json``, read by
``static/i18n.js``) and the terminal reads it here, so a sentence is written once. The
terminal's language comes from ``--lang`` or the locale (``LC_ALL``, ``LC_MESSAGES``,
``LANG``, in POSIX's order), as the browser's comes from its languages.

>>> detect({"LANG": "zh_TW.UTF-8"}), detect({"LC_ALL": "zh_CN.UTF-8"}), detect({})
('zh-Hant', 'zh-Hans', 'en')
>>> with language("zh-Hans"):
...     t("puzzleYou"), t("seatN", 2)
('你', '2 号位')
>>> width("大老二 ok")
9
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from typing import Any, Protocol, Self

__all__ = ["LANGUAGES", "Refusal", "card_name", "catalogue", "current", "detect", "kind_label",
           "language", "normalize", "reason", "said", "set_language", "t", "width", "wrap"]

LANGUAGES: tuple[str, ...] = ("en", "zh-Hant", "zh-Hans")
"""The languages' codes, in the catalogue's column order (BCP 47, as the pages use)."""

_current = "en"


@cache
def catalogue() -> dict[str, Any]:
    """The catalogue: ``languages`` ([code, name] pairs) and ``strings``, ``suits``,
    ``jokers``, ``kinds``, ``whys``, ``whyGroups`` and ``refusals`` (each key to its
    [English, 繁體, 简体] words; :func:`reason` fills the whys, :class:`Refusal` the
    refusals)."""
    text = files("big2.i18n").joinpath("catalogue.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def normalize(code: str) -> str | None:
    """A language code (``--lang``'s value or a locale such as ``zh_TW.UTF-8``) as one of
    :data:`LANGUAGES`, or ``None`` for a language the catalogue lacks. Taiwan, Hong Kong,
    Macau and ``Hant`` read traditional characters, other Chinese simplified."""
    low = code.strip().lower().replace("_", "-").split(".")[0].split("@")[0]
    if low.startswith("zh"):
        traditional = any(m in low for m in ("hant", "-tw", "-hk", "-mo"))
        return "zh-Hant" if traditional else "zh-Hans"
    if low.startswith("en") or low in ("c", "posix"):
        return "en"
    return None


def detect(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set decides; English when it names no language of the catalogue."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return normalize(value) or "en"
    return "en"


def set_language(code: str) -> None:
    """Speak *code* (one of :data:`LANGUAGES`) from now on."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; choose from {', '.join(LANGUAGES)}")
    _current = code


def current() -> str:
    """The language spoken now."""
    return _current


@contextmanager
def language(code: str) -> Iterator[None]:
    """Speak *code* inside the ``with`` block, then the language spoken before."""
    before = _current
    set_language(code)
    try:
        yield
    finally:
        set_language(before)


def _column() -> int:
    return LANGUAGES.index(_current)


def t(key: str, *args: object) -> str:
    """The sentence *key* in the current language, with ``{0}``, ``{1}``… filled in by
    *args* (as the pages' ``t()`` does). An unknown key is a programming error."""
    text: str = catalogue()["strings"][key][_column()]
    for i, arg in enumerate(args):
        text = text.replace(f"{{{i}}}", str(arg))
    return text


def kind_label(kind: str) -> str:
    """A kind of play (a :class:`big2.combos.Kind` name such as ``FULL_HOUSE``) in the
    current language; ``""`` for one the catalogue does not name."""
    row = catalogue()["kinds"].get(kind)
    return str(row[_column()]) if row else ""


def card_name(name: str) -> str:
    """A card (``QH``, ``TS``, ``RJ``) as the current language writes it: ``Q♥`` in
    English (the terminal's symbols), ``紅心Q`` / ``红心Q`` in Chinese."""
    col = _column()
    joker = catalogue()["jokers"].get(name)
    if joker:
        return str(joker[col])
    rank = "10" if name[0] == "T" else name[0]
    if col == 0:
        return rank + {"D": "♦", "C": "♣", "H": "♥", "S": "♠"}[name[1]]
    return str(catalogue()["suits"][name[1]][col]) + rank


_BLANK = re.compile(r"\{(\w+)(?:\.(\w+)|\|([^|}]*)\|([^}]*))?\}")
"""A blank of a ``whys`` row: ``{name}``, ``{name.field}`` or ``{name|one|many}``."""


def reason(key: str, args: Mapping[str, Any], *, play: Callable[[Mapping[str, str]], str],
           cards: Callable[[str], str], lang: str | None = None) -> str:
    """The sentence of why *key* (a ``whys`` row of the catalogue: the keys and arguments
    of :class:`big2.bots.rules_based.reasons.Why`) in *lang* (default: the language spoken
    now), its blanks filled from *args*:

    - ``{group}``: the broken group (``args["group"]`` and ``args["rank"]``), from the
      ``whyGroups`` row: ``a pair of 7s``, ``一對 7``;
    - ``{x}`` where ``args[x]`` is a play (``{"cards": …, "kind": …}``): ``play(args[x])``;
      ``{x.cards}``: its cards alone, ``cards(args[x]["cards"])``;
    - ``{cards}``: ``cards(args["cards"])`` (card names such as ``"7C 7S"``);
    - ``{x|one|many}``: *one* when ``args[x]`` is 1, else *many* (English plurals);
    - any other ``{x}``: ``args[x]`` as it is (a seat's name, a count).

    The pages' ``static/whys.js`` fills the same rows the same way.

    >>> plain = dict(play=lambda p: p["kind"].lower() + " " + p["cards"], cards=str)
    >>> reason("blocks", {"name": "Bob", "left": 1}, lang="en", **plain)
    'blocks Bob, who holds 1 card'
    >>> reason("breaks", {"group": "pair", "rank": "7"}, lang="zh-Hans", **plain)
    '拆了一对 7'
    """
    col = LANGUAGES.index(lang or _current)
    data = catalogue()
    text: str = data["whys"][key][col]

    def fill(m: re.Match[str]) -> str:
        name, field, one, many = m.groups()
        if one is not None:
            return one if args.get(name) == 1 else many
        if name == "group":
            groups = data["whyGroups"]
            row = groups.get(str(args.get("group")), groups["group"])
            return str(row[col]).replace("{rank}", str(args.get("rank", "")))
        value = args[name]
        if field is not None:
            return cards(str(value[field]))
        if isinstance(value, Mapping):
            return play(value)
        if name == "cards":
            return cards(str(value))
        return str(value)

    return _BLANK.sub(fill, text)


class _Kind(Protocol):
    """A kind of play as :class:`Refusal` reads it (a :class:`big2.variant.Kind`)."""

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str: ...


def _refusal(key: str, args: Mapping[str, Any], col: int) -> str:
    def fill(m: re.Match[str]) -> str:
        name, _field, one, many = m.groups()
        value = args[name]
        if one is not None:
            return one if value == 1 else many
        if hasattr(value, "label") and hasattr(value, "name"):  # a kind of play
            kind: _Kind = value
            return kind.label if col == 0 else str(catalogue()["kinds"].get(
                kind.name, [kind.label] * 3)[col])
        return str(value)

    return _BLANK.sub(fill, str(catalogue()["refusals"][key][col]))


class Refusal(str):
    """Why a play or a text is refused, in English (the catalogue's ``refusals`` row
    *key* filled from *args*), keeping its ``key`` and ``args`` so that the terminal
    says it in its language (:meth:`said`). An argument is said as it is (card symbols,
    counts, option names), a kind of play (a :class:`big2.variant.Kind`) by its label in
    English and by the catalogue's ``kinds`` row in Chinese; ``{x|one|many}`` is an
    English plural.

    >>> no = Refusal("notBeat", cards="7♣ 7♠")
    >>> no, no.key
    ('does not beat 7♣ 7♠', 'notBeat')
    >>> with language("zh-Hans"):
    ...     no.said()
    '压不过 7♣ 7♠'
    """

    key: str
    args: dict[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Self:
        out = super().__new__(cls, _refusal(key, args, 0))
        out.key, out.args = key, args
        return out

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:
        return (self.key,), dict(self.args)  # pickles whole (the server's process pools)

    def said(self) -> str:
        """The refusal in the language spoken now."""
        return _refusal(self.key, self.args, _column())


def said(message: object) -> str:
    """*message* in the language spoken now: a :class:`Refusal` (or an exception whose
    message is one) said by :meth:`Refusal.said`, anything else as its ``str``."""
    if isinstance(message, BaseException) and len(message.args) == 1:
        message = message.args[0]
    return message.said() if isinstance(message, Refusal) else str(message)


def width(text: str) -> int:
    """*text*'s width on a terminal: two columns for a wide (East Asian) character, none
    for a combining mark, one for the rest."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def wrap(text: str, columns: int, indent: str = "") -> list[str]:
    """*text* in lines of at most *columns* display columns (:func:`width`), later lines
    starting with *indent*. Lines break at spaces, and between wide characters too (Chinese
    runs without spaces); a word longer than a line is cut."""
    lines: list[str] = []
    line, space = "", False
    for token in _tokens(text):
        if token == " ":
            space = bool(line.strip())
            continue
        joined = line + (" " if space else "") + token
        space = False
        if width(joined) <= columns:
            line = joined
            continue
        if line.strip():
            lines.append(line)
            line = indent
        while width(line + token) > columns and len(token) > 1:
            cut = len(token) - 1
            while cut > 1 and width(line + token[:cut]) > columns:
                cut -= 1
            lines.append(line + token[:cut])
            token, line = token[cut:], indent
        line += token
    if line.strip():
        lines.append(line)
    return lines


def _tokens(text: str) -> Iterator[str]:
    """Words, single spaces and single wide characters (each a place a line may break).
    Punctuation that may not start a line (，。：；！？）」、) stays with the character
    before it, and an opening bracket (（「) with the one after it."""
    word = ""
    for ch in text:
        if ch.isspace():
            if word:
                yield word
                word = ""
            yield " "
        elif unicodedata.east_asian_width(ch) in ("W", "F") and ch not in "，。：；！？）」、":
            if word and word[-1] not in "（「":
                yield word
                word = ""
            word += ch
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            word += ch
        else:
            if word and unicodedata.east_asian_width(word[-1]) in ("W", "F") and \
                    word[-1] not in "（「":
                yield word
                word = ""
            word += ch
    if word:
        yield word
