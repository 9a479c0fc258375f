"""Court figures and joker faces, drawn in code for :mod:`big2.svg` (split from
``_draw`` to keep modules small; the primitives they use are in ``_prims``)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping

import big2.svg._prims as _d
from big2.cards import RANK_LABELS


def _draw_figure(g: ET.Element, rank: int, suit: int, fill: str,
                 colors: Mapping[str, str]) -> None:
    """Upper half of a court figure, centre of the card at the origin."""
    ink = colors["ink"]
    gold = colors["gold"]
    letter = RANK_LABELS[rank]
    # robe with a gold band and collar
    ET.SubElement(g, "path", {
        "d": "M-56 0 L-56 -36 Q-54 -54 -30 -58 L-12 -63 L12 -63 L30 -58"
             " Q54 -54 56 -36 L56 0Z",
        "fill": fill, "stroke": ink, "stroke-width": "2",
    })
    ET.SubElement(g, "path", {
        "d": "M-9 -62 L9 -62 L9 0 L-9 0Z", "fill": gold, "stroke": ink, "stroke-width": "1.5",
    })
    ET.SubElement(g, "path", {
        "d": "M-24 -59 L0 -38 L24 -59 L12 -64 L0 -52 L-12 -64Z",
        "fill": colors["face"], "stroke": ink, "stroke-width": "1.5",
    })
    # emblem on the chest and what the figure holds
    ET.SubElement(g, "circle", {
        "cx": "-32", "cy": "-26", "r": "15", "fill": colors["face"],
        "stroke": ink, "stroke-width": "1.5",
    })
    _d._pip(g, suit, -32, -26, 21, fill)
    _held(g, letter, fill, colors)
    if letter == "Q":  # long hair behind the head
        ET.SubElement(g, "path", {
            "d": "M-23 -84 Q-25 -60 -32 -56 L32 -56 Q25 -60 23 -84"
                 " A23 23 0 0 0 -23 -84Z",
            "fill": colors["hair"], "stroke": ink, "stroke-width": "1.5",
        })
    # head
    ET.SubElement(g, "circle", {
        "cx": "0", "cy": "-86", "r": "21", "fill": colors["skin"],
        "stroke": ink, "stroke-width": "2",
    })
    for ex in (-7, 7):
        ET.SubElement(g, "circle", {"cx": str(ex), "cy": "-88", "r": "2.2", "fill": ink})
    if letter == "K":  # beard
        ET.SubElement(g, "path", {
            "d": "M-17 -80 Q-14 -58 0 -56 Q14 -58 17 -80 Q8 -72 0 -74 Q-8 -72 -17 -80Z",
            "fill": colors["hair"], "stroke": ink, "stroke-width": "1.5",
        })
    else:
        ET.SubElement(g, "path", {
            "d": "M-6 -77 Q0 -73 6 -77", "fill": "none", "stroke": ink, "stroke-width": "2",
        })
    if letter == "K":  # crown of three points
        ET.SubElement(g, "path", {
            "d": "M-20 -99 L-23 -130 L-11 -113 L0 -134 L11 -113 L23 -130 L20 -99Z",
            "fill": gold, "stroke": ink, "stroke-width": "2", "stroke-linejoin": "round",
        })
    elif letter == "Q":  # tiara with pearls
        ET.SubElement(g, "path", {
            "d": "M-17 -100 L-18 -116 L-9 -108 L0 -122 L9 -108 L18 -116 L17 -100Z",
            "fill": gold, "stroke": ink, "stroke-width": "2", "stroke-linejoin": "round",
        })
        for px, py in ((-18, -118), (0, -124), (18, -118)):
            ET.SubElement(g, "circle", {
                "cx": str(px), "cy": str(py), "r": "3.5", "fill": colors["face"],
                "stroke": ink, "stroke-width": "1.2",
            })
    else:  # jack: a beret with a feather
        ET.SubElement(g, "path", {
            "d": "M10 -106 Q30 -118 40 -134 Q26 -126 6 -112Z",
            "fill": gold, "stroke": ink, "stroke-width": "1.5",
        })
        ET.SubElement(g, "path", {
            "d": "M-24 -100 Q-26 -118 0 -119 Q26 -118 24 -100 Q0 -106 -24 -100Z",
            "fill": fill, "stroke": ink, "stroke-width": "2",
        })
    # suit and letter beside the head
    _d._pip(g, suit, -44, -116, 26, fill)
    _d._text(g, 44, -100, letter, size=36, fill=fill)


def _held(g: ET.Element, letter: str, fill: str, colors: Mapping[str, str]) -> None:
    """The king's sceptre, the queen's flower or the jack's halberd."""
    ink, gold = colors["ink"], colors["gold"]
    if letter == "K":
        ET.SubElement(g, "path", {
            "d": "M24 -4 L42 -70", "stroke": ink, "stroke-width": "7", "stroke-linecap": "round",
        })
        ET.SubElement(g, "path", {
            "d": "M24 -4 L42 -70", "stroke": gold, "stroke-width": "4", "stroke-linecap": "round",
        })
        ET.SubElement(g, "circle", {
            "cx": "43", "cy": "-76", "r": "8", "fill": gold, "stroke": ink, "stroke-width": "1.5",
        })
    elif letter == "Q":
        ET.SubElement(g, "path", {
            "d": "M26 -6 Q30 -40 40 -64", "fill": "none", "stroke": "#2e7d32",
            "stroke-width": "4", "stroke-linecap": "round",
        })
        for k in range(5):
            t = math.radians(72 * k - 90)
            ET.SubElement(g, "circle", {
                "cx": _d._fmt(40 + 7 * math.cos(t)), "cy": _d._fmt(-70 + 7 * math.sin(t)), "r": "6",
                "fill": colors["face"], "stroke": ink, "stroke-width": "1.2",
            })
        ET.SubElement(g, "circle", {"cx": "40", "cy": "-70", "r": "4.5", "fill": gold})
    else:
        ET.SubElement(g, "path", {
            "d": "M26 -4 L42 -78", "stroke": "#7a4a21", "stroke-width": "4",
            "stroke-linecap": "round",
        })
        ET.SubElement(g, "path", {
            "d": "M40 -70 Q54 -72 58 -58 Q48 -62 38 -60Z M42 -78 L44 -90 L38 -80Z",
            "fill": "#c9ced6", "stroke": ink, "stroke-width": "1.5",
        })


def _draw_court(g: ET.Element, rank: int, suit: int, fill: str,
                colors: Mapping[str, str]) -> None:
    court = ET.SubElement(g, "g", {"class": "court", "transform": "translate(125 175)"})
    ET.SubElement(court, "rect", {
        "x": "-66", "y": "-138", "width": "132", "height": "276", "rx": "6",
        "fill": colors["court"], "stroke": fill, "stroke-width": "3",
    })
    clip = ET.SubElement(court, "g")
    for rotate in (False, True):
        half = ET.SubElement(clip, "g", {"transform": "rotate(180)"} if rotate else {})
        _draw_figure(half, rank, suit, fill, colors)
    ET.SubElement(court, "line", {
        "x1": "-66", "y1": "0", "x2": "66", "y2": "0", "stroke": fill, "stroke-width": "2",
    })


def _star(cx: float, cy: float, radius: float) -> str:
    """Path data of a five-pointed star, one point up."""
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.4
        t = math.radians(36 * k - 90)
        points.append(f"{_d._fmt(cx + r * math.cos(t))} {_d._fmt(cy + r * math.sin(t))}")
    return "M" + " L".join(points) + "Z"


def _draw_joker(g: ET.Element, black: bool, fill: str, colors: Mapping[str, str]) -> None:
    """A joker's face: JOKER down both corners, a large star and the word across.

    The red joker's star is hollow and the black joker's solid, so the two
    differ in shape as well as colour.
    """
    for corner in range(2):
        idx = ET.SubElement(g, "g", {"class": "index"} if not corner else {
            "class": "index", "transform": f"rotate(180 {_d.CARD_WIDTH / 2} {_d.CARD_HEIGHT / 2})"})
        for i, letter in enumerate("JOKER"):
            _d._text(idx, 31, 50 + 37 * i, letter, size=38, fill=fill)
        ET.SubElement(idx, "path", {"d": _star(31, 238, 17), "fill": fill})
    panel = ET.SubElement(g, "g", {"class": "joker"})
    ET.SubElement(panel, "rect", {
        "x": "58", "y": "40", "width": "134", "height": "270", "rx": "6",
        "fill": colors["court"], "stroke": fill, "stroke-width": "3",
    })
    ET.SubElement(panel, "path", {
        "d": _star(125, 150, 60), "fill": fill, "stroke": colors["ink"], "stroke-width": "2",
        "stroke-linejoin": "round",
    })
    if not black:
        ET.SubElement(panel, "path", {"d": _star(125, 150, 30), "fill": colors["face"]})
    _d._text(panel, 125, 262, "JOKER", size=34, fill=fill, textLength="118",
          lengthAdjust="spacingAndGlyphs")


