"""Drawing of card faces and backs, shared by every picture of :mod:`big2.svg`.

Cards are drawn in their own 250 × 350 units (a poker card's 2.5 × 3.5 in) and
scaled into place. The four suit shapes are path data in ``<defs>``, reused
with ``<use>`` and filled at the point of use.
"""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, TypeAlias

from big2.cards import (
    ALL_CARDS,
    CARD_NAMES,
    MAX_CARDS,
    RANK_LABELS,
    Card,
    Mask,
    base_of,
    cards_of,
    is_joker,
    mask_of,
    suit_of,
)
from big2.svg._courts import _draw_court, _draw_joker
from big2.svg._prims import _SUIT_IDS, CARD_HEIGHT, CARD_WIDTH, _fmt, _pip, _text
from big2.view import Action

SVG_NS = "http://www.w3.org/2000/svg"
"""The SVG namespace."""
XLINK_NS = "http://www.w3.org/1999/xlink"
"""The XLink namespace (``xlink:href`` on ``<use>``, for older renderers)."""

_RADIUS = 14

DEFAULT_COLORS: dict[str, str] = {
    "face": "#ffffff",
    "border": "#6b6b6b",
    "diamonds": "#d0021b",
    "clubs": "#111111",
    "hearts": "#d0021b",
    "spades": "#111111",
    "diamonds 4c": "#0b5cc6",
    "clubs 4c": "#12813a",
    "hearts 4c": "#d0021b",
    "spades 4c": "#111111",
    "court": "#fbf3dc",
    "gold": "#e2b33c",
    "skin": "#f6d5b3",
    "hair": "#6b3f1d",
    "ink": "#2b2b2b",
    "back": "#1f4f9e",
    "back pattern": "#ffffff",
    "back margin": "#ffffff",
    "selected": "#ffbf00",
    "table": "#1c6b3c",
    "table edge": "#0f4526",
    "text": "#ffffff",
    "plate": "#0f3d22",
    "turn": "#ffd23f",
    "turn text": "#222222",
    "pass": "#f2f2f2",
    "strip": "#ffffff",
    "strip alt": "#f1f4f1",
    "strip text": "#222222",
}
"""Default colours; any CSS colour works. Keys ending in ``4c`` are used by the
four-colour deck. ``colors=`` merges a mapping over these."""

Layout: TypeAlias = Literal["row", "fan"]
Sort: TypeAlias = Literal["rank", "suit"] | None
CardsArg: TypeAlias = Mask | Iterable[Card]
ActionLike: TypeAlias = Action | tuple[int, Mask]


class SvgImage(str):
    """An SVG document as a ``str``; notebooks display it as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return self


# ---------------------------------------------------------------- suit shapes

# Each suit is drawn in a 100 × 100 box centred on the origin, filled at use.
SUIT_PATHS: tuple[str, ...] = (
    # diamonds
    "M0 -50 Q16 -24 38 0 Q16 24 0 50 Q-16 24 -38 0 Q-16 -24 0 -50Z",
    # clubs: three leaves, a filled heart between them and a flared stem
    ("M0 -50 a23 23 0 1 0 0.01 0Z"
    "M-25 -6 a23 23 0 1 0 0.01 0Z"
    "M25 -6 a23 23 0 1 0 0.01 0Z"
    "M0 -16 L-16 12 L16 12Z"
    "M-5 5 Q-3 36 -20 50 L20 50 Q3 36 5 5Z"),
    # hearts
    ("M0 46 C-12 30 -48 10 -48 -16 C-48 -36 -36 -46 -24 -46"
    " C-12 -46 -3 -38 0 -28 C3 -38 12 -46 24 -46"
    " C36 -46 48 -36 48 -16 C48 10 12 30 0 46Z"),
    # spades
    ("M0 -50 C14 -30 48 -14 48 10 C48 28 36 36 24 36 C14 36 7 31 4 24"
    " Q5 40 20 50 L-20 50 Q-5 40 -4 24 C-7 31 -14 36 -24 36"
    " C-36 36 -48 28 -48 10 C-48 -14 -14 -30 0 -50Z"),
)
"""SVG path data of the four suit shapes, by suit number."""

_SUIT_NAMES = ("diamonds", "clubs", "hearts", "spades")

# Pip positions for 2–10 as on real cards: column (-1, 0, 1) and height (0 top,
# 1 bottom); pips below the middle are drawn upside down.
_PIPS: dict[int, tuple[tuple[int, float], ...]] = {
    2: ((0, 0), (0, 1)),
    3: ((0, 0), (0, 0.5), (0, 1)),
    4: ((-1, 0), (1, 0), (-1, 1), (1, 1)),
    5: ((-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    6: ((-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    7: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    8: ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)),
    9: ((-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5),
        (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)),
    10: ((-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3),
         (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)),
}
_PIP_COLUMNS = (78.0, 125.0, 172.0)
_PIP_TOP, _PIP_BOTTOM = 64.0, 286.0
_PIP_SIZE = 44.0
# Face value of each Big Two rank (3 … 10, J, Q, K, A, 2).
_FACE_VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2)


# ------------------------------------------------------------------- helpers

def _colors(colors: Mapping[str, str] | None) -> dict[str, str]:
    merged = dict(DEFAULT_COLORS)
    if colors:
        merged.update(colors)
    return merged


def _suit_color(suit: int, colors: Mapping[str, str], four_color: bool) -> str:
    name = _SUIT_NAMES[suit]
    return colors[name + " 4c"] if four_color else colors[name]


def _check_card(card: object) -> Card:
    """*card* if it is a card number (0–107: two decks with their jokers), else a ValueError."""
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < MAX_CARDS:
        raise ValueError(f"not a card number: {card!r} (cards are 0–{MAX_CARDS - 1}: "
                         "0–51 a deck, 52/53 its jokers, +54 the second deck's copies)")
    return card


def _rank_key(card: Card) -> tuple[int, int]:
    """Sort key by rank: copies of a card side by side, the jokers last."""
    return base_of(card), card


def _suit_key(card: Card) -> tuple[int, int, int]:
    """Sort key by suit, then rank; the jokers last."""
    return (4 if is_joker(card) else suit_of(card)), base_of(card), card


def _ordered(mask: Mask) -> list[Card]:
    """The cards of *mask* in rank order, copies of a card side by side."""
    return sorted(cards_of(mask), key=_rank_key)


def _as_mask(cards: CardsArg) -> Mask:
    if isinstance(cards, int):
        if not 0 <= cards <= ALL_CARDS:
            raise ValueError(f"not a card mask: {cards!r}")
        return int(cards)
    return mask_of(cards)


def _as_list(cards: CardsArg, sort: Sort) -> list[Card]:
    if isinstance(cards, int):
        out = cards_of(_as_mask(cards))
    else:
        out = [_check_card(c) for c in cards]
        if len(set(out)) != len(out):
            raise ValueError("a card is given twice")
    if sort == "rank":
        out.sort(key=_rank_key)
    elif sort == "suit":
        out.sort(key=_suit_key)
    elif sort is not None:
        raise ValueError(f"sort must be 'rank', 'suit' or None, not {sort!r}")
    return out


def _svg_root(width: float, height: float, vb_w: float, vb_h: float,
              kind: str) -> ET.Element:
    return ET.Element("svg", {
        "xmlns": SVG_NS,
        "xmlns:xlink": XLINK_NS,
        "version": "1.1",
        "class": f"big2 big2-{kind}",
        "width": _fmt(width),
        "height": _fmt(height),
        "viewBox": f"0 0 {_fmt(vb_w)} {_fmt(vb_h)}",
    })


def _defs(root: ET.Element, colors: Mapping[str, str]) -> str:
    """Add the suit shapes and the back pattern; return the pattern's id."""
    defs = ET.SubElement(root, "defs")
    for sid, d in zip(_SUIT_IDS, SUIT_PATHS):
        ET.SubElement(defs, "path", {"id": sid, "d": d})
    # The pattern holds colours, so its id depends on them: several images in
    # one HTML page then never borrow each other's pattern.
    key = "|".join((colors["back"], colors["back pattern"])).encode()
    pid = "big2-back-" + hashlib.sha1(key).hexdigest()[:8]
    pattern = ET.SubElement(defs, "pattern", {
        "id": pid, "width": "24", "height": "24",
        "patternUnits": "userSpaceOnUse",
    })
    ET.SubElement(pattern, "rect", {"width": "24", "height": "24", "fill": colors["back"]})
    ET.SubElement(pattern, "path", {
        "d": "M12 0 L24 12 L12 24 L0 12Z M12 6 L18 12 L12 18 L6 12Z",
        "fill": "none", "stroke": colors["back pattern"], "stroke-width": "2",
        "stroke-opacity": "0.45",
    })
    return pid


def _to_string(root: ET.Element) -> SvgImage:
    return SvgImage(ET.tostring(root, encoding="unicode"))


# --------------------------------------------------------------- card faces

def _draw_index(g: ET.Element, rank: int, suit: int, fill: str) -> None:
    label = RANK_LABELS[rank]
    idx = ET.SubElement(g, "g", {"class": "index"})
    extra = {"textLength": "46", "lengthAdjust": "spacingAndGlyphs"} if len(label) > 1 else {}
    _text(idx, 30, 60, label, size=56, fill=fill, **extra)
    _pip(idx, suit, 30, 86, 38, fill)
    # The same index upside down in the opposite corner.
    copy = ET.SubElement(g, "g", {
        "class": "index", "transform": f"rotate(180 {CARD_WIDTH / 2} {CARD_HEIGHT / 2})",
    })
    _text(copy, 30, 60, label, size=56, fill=fill, **extra)
    _pip(copy, suit, 30, 86, 38, fill)


def _draw_pips(g: ET.Element, rank: int, suit: int, fill: str) -> None:
    value = _FACE_VALUES[rank]
    if value == 1:
        size = 120 if suit == 3 else 100
        if suit == 3:
            ET.SubElement(g, "circle", {
                "cx": "125", "cy": "175", "r": "78", "fill": "none",
                "stroke": fill, "stroke-width": "2.5",
            })
        _pip(g, suit, 125, 175, size, fill)
        return
    span = _PIP_BOTTOM - _PIP_TOP
    for col, height in _PIPS[value]:
        y = _PIP_TOP + span * height
        _pip(g, suit, _PIP_COLUMNS[col + 1], y, _PIP_SIZE, fill, flip=height > 0.5)


def _draw_face(parent: ET.Element, c: Card, colors: Mapping[str, str],
               four_color: bool, transform: str | None = None,
               selected: bool = False) -> ET.Element:
    """Draw card *c* face up (a second-deck copy exactly like its first-deck card)."""
    _check_card(c)
    base = base_of(c)
    rank, suit = base >> 2, base & 3
    joker = is_joker(c)
    fill = _suit_color((3 if suit else 2) if joker else suit, colors, four_color)
    attrs = {"class": "card selected" if selected else "card", "data-card": CARD_NAMES[c]}
    if transform:
        attrs["transform"] = transform
    g = ET.SubElement(parent, "g", attrs)
    ET.SubElement(g, "rect", {
        "x": "1.5", "y": "1.5", "width": str(CARD_WIDTH - 3), "height": str(CARD_HEIGHT - 3),
        "rx": str(_RADIUS), "fill": colors["face"],
        "stroke": colors["selected"] if selected else colors["border"],
        "stroke-width": "9" if selected else "3",
    })
    if joker:
        _draw_joker(g, bool(suit), fill, colors)
        return g
    if rank in (8, 9, 10):  # J, Q, K
        _draw_court(g, rank, suit, fill, colors)
    else:
        _draw_pips(g, rank, suit, fill)
    _draw_index(g, rank, suit, fill)
    return g


def _draw_back(parent: ET.Element, colors: Mapping[str, str], pattern_id: str,
               transform: str | None = None, **attrs: str) -> ET.Element:
    a = {"class": "back"}
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    if transform:
        a["transform"] = transform
    g = ET.SubElement(parent, "g", a)
    ET.SubElement(g, "rect", {
        "x": "1.5", "y": "1.5", "width": str(CARD_WIDTH - 3), "height": str(CARD_HEIGHT - 3),
        "rx": str(_RADIUS), "fill": colors["back margin"], "stroke": colors["border"],
        "stroke-width": "3",
    })
    ET.SubElement(g, "rect", {
        "x": "16", "y": "16", "width": str(CARD_WIDTH - 32), "height": str(CARD_HEIGHT - 32),
        "rx": "8", "fill": f"url(#{pattern_id})", "stroke": colors["back"], "stroke-width": "3",
    })
    ET.SubElement(g, "ellipse", {
        "cx": "125", "cy": "175", "rx": "62", "ry": "78", "fill": colors["back"],
        "stroke": colors["back pattern"], "stroke-width": "5",
    })
    for suit, (dx, dy) in enumerate(((0, -34), (-28, 0), (28, 0), (0, 34))):
        _pip(g, suit, 125 + dx, 175 + dy, 34, colors["back pattern"])
    return g


def _place(x: float, y: float, width: float, rotate: float = 0.0,
           cx: float = 0.0, cy: float = 0.0) -> str:
    """Transform putting a card of *width* units with its top left at (x, y)."""
    s = width / CARD_WIDTH
    out = ""
    if rotate:
        out = f"rotate({_fmt(rotate)} {_fmt(cx)} {_fmt(cy)}) "
    return out + f"translate({_fmt(x)} {_fmt(y)}) scale({_fmt(s)})"



def _draw_row(parent: ET.Element, cards: Sequence[Card], selected: Mask, *, x: float,
              y: float, width: float, step: float, lift: float,
              colors: Mapping[str, str], four_color: bool) -> None:
    for i, c in enumerate(cards):
        up = bool(selected >> c & 1)
        _draw_face(parent, c, colors, four_color,
                   _place(x + i * step, y + (0 if up else lift), width), selected=up)


