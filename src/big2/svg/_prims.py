"""The drawing primitives under :mod:`big2.svg`'s card faces and court figures:
the card's size, the font, numbers for attributes, a suit pip and a text line.
``_draw`` and ``_courts`` both build on this module (it imports neither)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

CARD_WIDTH = 250
"""Width of a card in its own drawing units (poker cards are 2.5 × 3.5 in)."""
CARD_HEIGHT = 350
"""Height of a card in its own drawing units."""

FONT = "Arial, 'Liberation Sans', Helvetica, 'DejaVu Sans', sans-serif"
"""Font stack of all text (Liberation Sans has Arial's metrics)."""

_SUIT_IDS = ("big2-diamond", "big2-club", "big2-heart", "big2-spade")


def _fmt(x: float) -> str:
    """A number for an attribute, without needless digits."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _pip(parent: ET.Element, suit: int, x: float, y: float, size: float,
         fill: str, flip: bool = False) -> None:
    s = size / 100
    transform = f"translate({_fmt(x)} {_fmt(y)}) scale({_fmt(s)})"
    if flip:
        transform += " rotate(180)"
    ET.SubElement(parent, "use", {
        "xlink:href": "#" + _SUIT_IDS[suit], "transform": transform, "fill": fill,
    })


def _text(parent: ET.Element, x: float, y: float, text: str, *, size: float,
          fill: str, anchor: str = "middle", weight: str = "bold",
          **extra: str) -> ET.Element:
    attrs = {
        "x": _fmt(x), "y": _fmt(y), "font-family": FONT, "font-size": _fmt(size),
        "font-weight": weight, "text-anchor": anchor, "fill": fill,
    }
    attrs.update({k.replace("_", "-"): v for k, v in extra.items()})
    el = ET.SubElement(parent, "text", attrs)
    el.text = text
    return el
