"""Cards, hands and tables as SVG, drawn in code with no image assets.

Every function returns an :class:`SvgImage`, a ``str`` that Jupyter shows as a
picture. Options are keyword-only; ``size`` is a width in pixels (of one card,
or of the whole table), ``colors`` overrides entries of :data:`DEFAULT_COLORS`
and ``four_color`` switches to a four-colour deck (♠ black, ♥ red, ♦ blue,
♣ green) for colour-blind players.

>>> import xml.etree.ElementTree as ET
>>> from big2.cards import parse_card
>>> svg = card(parse_card("TS"), size=60)
>>> ET.fromstring(svg).find(".//*[@data-card]").get("data-card")
'TS'
>>> svg[:4], svg._repr_svg_() == svg
('<svg', True)

A table is drawn from a :class:`big2.view.PlayerView` only, so nothing the
seat may not see can be drawn.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from big2.cards import Card, mask_of
from big2.svg._draw import (
    DEFAULT_COLORS,
    SUIT_PATHS,
    CardsArg,
    Layout,
    Sort,
    SvgImage,
    _as_list,
    _as_mask,
    _check_card,
    _colors,
    _defs,
    _draw_back,
    _draw_face,
    _draw_row,
    _place,
    _svg_root,
    _to_string,
)
from big2.svg._prims import CARD_HEIGHT, CARD_WIDTH, FONT, _fmt
from big2.svg._table import replay, table

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "DEFAULT_COLORS",
    "FONT",
    "SUIT_PATHS",
    "SvgImage",
    "back",
    "card",
    "combination",
    "hand",
    "replay",
    "save",
    "table",
]

# --------------------------------------------------------------- public API

def card(card: Card, *, size: int = 120, colors: Mapping[str, str] | None = None,
         four_color: bool = False, face_down: bool = False) -> SvgImage:
    """One card, *size* pixels wide (poker proportions, 2.5 × 3.5).

    *card* is a number 0–107: 52 and 53 are the red and black jokers, and a
    second deck's card (``card + 54``) looks like its first-deck copy.

    ``face_down=True`` draws the back and says nothing of the card.

    >>> "data-card" in card(51, face_down=True)
    False
    """
    _check_card(card)
    c = _colors(colors)
    root = _svg_root(size, size * CARD_HEIGHT / CARD_WIDTH, CARD_WIDTH, CARD_HEIGHT, "card")
    pid = _defs(root, c)
    if face_down:
        _draw_back(root, c, pid)
    else:
        _draw_face(root, card, c, four_color)
    return _to_string(root)


def back(*, size: int = 120, colors: Mapping[str, str] | None = None) -> SvgImage:
    """The back of a card, *size* pixels wide."""
    c = _colors(colors)
    root = _svg_root(size, size * CARD_HEIGHT / CARD_WIDTH, CARD_WIDTH, CARD_HEIGHT, "back")
    _draw_back(root, c, _defs(root, c))
    return _to_string(root)


def hand(cards: CardsArg, *, selected: CardsArg = 0, layout: Layout = "row",
         size: int = 80, four_color: bool = False,
         colors: Mapping[str, str] | None = None, sort: Sort = "rank") -> SvgImage:
    """A hand of cards, each *size* pixels wide; *selected* cards are raised.

    *cards* and *selected* are masks or iterables of card numbers. ``layout``
    is ``"row"`` (overlapping so every corner index shows) or ``"fan"``.
    ``sort`` orders the cards by ``"rank"`` (card number), ``"suit"`` or not
    at all (``None`` keeps an iterable's order).

    >>> import xml.etree.ElementTree as ET
    >>> svg = hand(0b1011, selected=[1], layout="fan")
    >>> [g.get("data-card") for g in ET.fromstring(svg).iter() if g.get("data-card")]
    ['3D', '3C', '3S']
    """
    if layout not in ("row", "fan"):
        raise ValueError(f"layout must be 'row' or 'fan', not {layout!r}")
    order = _as_list(cards, sort)
    sel = _as_mask(selected)
    if sel & ~mask_of(order):
        raise ValueError("selected cards must be in the hand")
    c = _colors(colors)
    w, h = float(CARD_WIDTH), float(CARD_HEIGHT)
    lift = 0.16 * h
    n = len(order)
    if layout == "row" or n <= 1:
        step = 0.3 * w
        vb_w = w + max(n - 1, 0) * step
        vb_h = h + lift
        root = _svg_root(size * vb_w / w, size * vb_h / w, vb_w, vb_h, "hand")
        _defs(root, c)
        _draw_row(root, order, sel, x=0, y=0, width=w, step=step, lift=lift,
                  colors=c, four_color=four_color)
        return _to_string(root)
    # Fan: cards turn about a point below them; corners bound the picture.
    radius = 3.2 * w
    delta = min(6.5, 84.0 / (n - 1))
    angles = [(i - (n - 1) / 2) * delta for i in range(n)]
    px, py = 0.0, radius  # pivot, with card tops at y = 0 before turning
    xs: list[float] = []
    ys: list[float] = []
    for a in angles:
        t = math.radians(a)
        for cx, cy in ((-w / 2, -lift), (w / 2, -lift), (-w / 2, h), (w / 2, h)):
            rx, ry = cx - px, cy - py
            xs.append(px + rx * math.cos(t) - ry * math.sin(t))
            ys.append(py + rx * math.sin(t) + ry * math.cos(t))
    min_x, min_y = min(xs), min(ys)
    vb_w, vb_h = max(xs) - min_x, max(ys) - min_y
    root = _svg_root(size * vb_w / w, size * vb_h / w, vb_w, vb_h, "hand")
    _defs(root, c)
    group = ET.SubElement(root, "g", {"transform": f"translate({_fmt(-min_x)} {_fmt(-min_y)})"})
    for a, card_ in zip(angles, order):
        up = bool(sel >> card_ & 1)
        _draw_face(group, card_, c, four_color,
                   _place(-w / 2, -lift if up else 0.0, w, a, px, py), selected=up)
    return _to_string(root)


def combination(cards: CardsArg, *, size: int = 80, four_color: bool = False,
                colors: Mapping[str, str] | None = None, sort: Sort = "rank") -> SvgImage:
    """One play as a tight row of cards, each *size* pixels wide.

    >>> combination(0).count("data-card")
    0
    """
    order = _as_list(cards, sort)
    c = _colors(colors)
    w, h = float(CARD_WIDTH), float(CARD_HEIGHT)
    step = 0.6 * w
    vb_w = w + max(len(order) - 1, 0) * step
    root = _svg_root(size * vb_w / w, size * h / w, vb_w, h, "combination")
    _defs(root, c)
    _draw_row(root, order, 0, x=0, y=0, width=w, step=step, lift=0, colors=c,
              four_color=four_color)
    return _to_string(root)


def save(image: str, path: str | os.PathLike[str]) -> None:
    """Write an SVG image (any function's result) to *path* as UTF-8."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(image)
