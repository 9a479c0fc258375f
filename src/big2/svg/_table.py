"""The table seen from one seat, and a deal's replay strip."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence

from big2.svg._draw import (
    ActionLike,
    CardsArg,
    SvgImage,
    _as_mask,
    _colors,
    _defs,
    _draw_back,
    _draw_row,
    _ordered,
    _place,
    _svg_root,
    _to_string,
)
from big2.svg._prims import CARD_HEIGHT, CARD_WIDTH, _fmt, _text
from big2.view import Action, PlayerView

# -------------------------------------------------------------------- table

_TABLE_W, _TABLE_H = 1000.0, 760.0
_TALL_H = 960.0
"""Height of a table of 5 to 8 seats: two seats a side need the room."""
# Where each opponent sits, by seats after the viewer in turn order (play runs
# anticlockwise, so the next seat is on the viewer's right).
_SEAT_SPOTS: dict[int, tuple[str, ...]] = {
    2: ("top",),
    3: ("right", "left"),
    4: ("right", "top", "left"),
    5: ("right low", "top right", "top left", "left low"),
    6: ("right low", "right high", "top", "left high", "left low"),
    7: ("right low", "right high", "top right", "top left", "left high", "left low"),
    8: ("right low", "right high", "top right", "top", "top left", "left high", "left low"),
}
_SPOT_CENTRES = {
    "top": (500.0, 92.0), "left": (118.0, 300.0), "right": (882.0, 300.0),
    # tall tables (5 to 8 seats)
    "top left": (270.0, 92.0), "top right": (730.0, 92.0),
    "left high": (118.0, 300.0), "left low": (118.0, 530.0),
    "right high": (882.0, 300.0), "right low": (882.0, 530.0),
}


def _plate(parent: ET.Element, cx: float, y: float, name: str, detail: str,
           turn: bool, colors: Mapping[str, str], width: float = 200) -> None:
    """A name plate centred at *cx* with its top at *y*."""
    g = ET.SubElement(parent, "g", {"class": "plate turn" if turn else "plate"})
    ET.SubElement(g, "rect", {
        "x": _fmt(cx - width / 2), "y": _fmt(y), "width": _fmt(width), "height": "34",
        "rx": "17", "fill": colors["turn"] if turn else colors["plate"],
        "stroke": colors["turn"], "stroke-width": "3" if turn else "0",
    })
    text = colors["turn text"] if turn else colors["text"]
    label = f"{name} · {detail}" if detail else name
    _text(g, cx, y + 24, label, size=19, fill=text)


def _seat_name(view: PlayerView, seat: int) -> str:
    if seat < len(view.names) and view.names[seat]:
        return view.names[seat]
    return f"Seat {seat}"


def table(view: PlayerView, *, size: int = 800, colors: Mapping[str, str] | None = None,
          four_color: bool = False, selected: CardsArg = 0) -> SvgImage:
    """The table as *view*'s seat sees it, *size* pixels wide.

    The seat's own hand is face up at the bottom (with *selected* cards
    raised); the other seats are card backs with their counts, the play to
    beat lies in the middle labelled with who made it, the seat to act is
    highlighted, and scores show once the view has any. Only what the view
    holds is drawn, so no hidden card can appear.

    Two to eight seats: with five or more (two decks) the table is taller,
    two seats sit on each side and up to three across the top, and the
    scores sit below the play in the middle.
    """
    c = _colors(colors)
    n = view.num_players
    if n not in _SEAT_SPOTS:
        raise ValueError(f"a table has 2 to 8 seats, not {n}")
    sel = _as_mask(selected)
    if sel & ~int(view.hand):
        raise ValueError("selected cards must be in the seat's own hand")
    W, H = _TABLE_W, (_TABLE_H if n <= 4 else _TALL_H)
    root = _svg_root(size, size * H / W, W, H, "table")
    pid = _defs(root, c)
    ET.SubElement(root, "rect", {
        "x": "4", "y": "4", "width": _fmt(W - 8), "height": _fmt(H - 8), "rx": "40",
        "fill": c["table"], "stroke": c["table edge"], "stroke-width": "8",
    })

    # What each seat did last in the current trick (public).
    last_action: dict[int, Action] = {a.seat: a for a in view.trick}

    # Opponents: a stack of backs, the count, the name and a pass marker.
    for rel, spot in enumerate(_SEAT_SPOTS[n], start=1):
        seat = (view.seat + rel) % n
        cx, cy = _SPOT_CENTRES[spot]
        count = view.card_counts[seat]
        g = ET.SubElement(root, "g", {"class": "seat opponent", "data-seat": str(seat)})
        bw, bh = 62.0, 62.0 * CARD_HEIGHT / CARD_WIDTH
        max_span = 130.0
        shown = min(count, 13)
        step = min(10.0, max_span / max(shown - 1, 1))
        span = bw + step * max(shown - 1, 0)
        x0, y0 = cx - span / 2, cy - bh / 2
        for i in range(shown):
            _draw_back(g, c, pid, _place(x0 + i * step, y0, bw))
        badge = ET.SubElement(g, "g", {"class": "count"})
        bx, by = x0 + span + 4, y0 + bh - 6
        ET.SubElement(badge, "circle", {
            "cx": _fmt(bx), "cy": _fmt(by), "r": "20", "fill": c["face"],
            "stroke": c["ink"], "stroke-width": "2",
        })
        _text(badge, bx, by + 7, str(count), size=20, fill=c["ink"])
        turn = view.to_move == seat
        _plate(g, cx, cy + bh / 2 + 12, _seat_name(view, seat),
               "to play" if turn else "", turn, c)
        act = last_action.get(seat)
        if (act is not None and act.is_pass) or (seat < len(view.passed) and view.passed[seat]):
            _bubble(g, cx, y0 - 14, "pass", c)

    # The play to beat, or who leads.
    mid = ET.SubElement(root, "g", {"class": "trick"})
    last = int(view.last_play)
    if last and view.last_player is not None:
        order = _ordered(last)
        cw = 96.0
        step = cw * 0.62
        span = cw + step * (len(order) - 1)
        x0, y0 = 500 - span / 2, 300.0
        _text(mid, 500, y0 - 16, f"{_seat_name(view, view.last_player)} played",
              size=20, fill=c["text"], class_="label")
        _draw_row(mid, order, 0, x=x0, y=y0, width=cw, step=step, lift=0, colors=c,
                  four_color=four_color)
    elif view.is_over:
        pass
    elif view.to_move is not None:
        _text(mid, 500, 370, f"{_seat_name(view, view.to_move)} to lead",
              size=24, fill=c["text"], class_="label")

    if view.is_over and view.winner is not None:
        _text(mid, 500, 236, f"{_seat_name(view, view.winner)} wins", size=36,
              fill=c["turn"], class_="label winner")

    # Scores, when the view has any.
    if view.scores is not None or any(view.totals):
        _scores(root, view, c)

    # Own hand, face up.
    me = ET.SubElement(root, "g", {"class": "seat own", "data-seat": str(view.seat)})
    own = _ordered(int(view.hand))
    cw = 100.0
    ch = cw * CARD_HEIGHT / CARD_WIDTH
    lift = 22.0
    avail = 760.0
    step = min(54.0, (avail - cw) / max(len(own) - 1, 1))
    span = cw + step * max(len(own) - 1, 0)
    y0 = H - 80 - ch - lift
    _draw_row(me, own, sel, x=500 - span / 2, y=y0, width=cw, step=step, lift=lift,
              colors=c, four_color=four_color)
    turn = view.to_move == view.seat
    detail = ("to lead" if view.leading else "to play") if turn else f"{len(own)} cards"
    _plate(me, 500, H - 64, _seat_name(view, view.seat), detail, turn, c, width=260)
    act = last_action.get(view.seat)
    if (act is not None and act.is_pass) or (view.seat < len(view.passed)
                                             and view.passed[view.seat]):
        _bubble(me, 500 + span / 2 + 50, y0 + 40, "pass", c)
    return _to_string(root)


def _bubble(parent: ET.Element, cx: float, cy: float, text: str,
            colors: Mapping[str, str]) -> None:
    g = ET.SubElement(parent, "g", {"class": "pass"})
    ET.SubElement(g, "rect", {
        "x": _fmt(cx - 36), "y": _fmt(cy - 17), "width": "72", "height": "30", "rx": "15",
        "fill": colors["pass"], "stroke": colors["ink"], "stroke-width": "1.5",
    })
    _text(g, cx, cy + 5, text, size=18, fill=colors["ink"], font_style="italic")


def _scores(root: ET.Element, view: PlayerView, c: Mapping[str, str]) -> None:
    g = ET.SubElement(root, "g", {"class": "scores"})
    n = view.num_players
    rows = n + 1
    x, y, w = 24.0, 24.0, 230.0
    if n > 4:  # the corners are taken by seats: below the play in the middle
        x, y = 500 - w / 2, 455.0
    ET.SubElement(g, "rect", {
        "x": _fmt(x), "y": _fmt(y), "width": _fmt(w), "height": _fmt(14 + 26 * rows),
        "rx": "10", "fill": c["plate"], "fill-opacity": "0.85",
    })
    has_deal = view.scores is not None
    _text(g, x + 14, y + 28, "Score", size=17, fill=c["text"], anchor="start")
    if has_deal:
        _text(g, x + 160, y + 28, "deal", size=15, fill=c["text"], anchor="end", weight="normal")
    if view.totals:
        _text(g, x + w - 12, y + 28, "total", size=15, fill=c["text"], anchor="end",
              weight="normal")
    for seat in range(n):
        ty = y + 28 + 26 * (seat + 1)
        weight = "bold" if seat == view.seat else "normal"
        _text(g, x + 14, ty, _seat_name(view, seat), size=17, fill=c["text"], anchor="start",
              weight=weight)
        if view.scores is not None:
            _text(g, x + 160, ty, f"{view.scores[seat]:+d}", size=17, fill=c["text"],
                  anchor="end", weight=weight)
        if view.totals:
            total = view.totals[seat] + (view.scores[seat] if view.scores is not None else 0)
            _text(g, x + w - 12, ty, str(total), size=17, fill=c["text"], anchor="end",
                  weight=weight)


# ------------------------------------------------------------------- replay

def replay(actions: Iterable[ActionLike], *, names: Sequence[str] | None = None,
           size: int = 60, four_color: bool = False,
           colors: Mapping[str, str] | None = None) -> SvgImage:
    """Every play of a deal in order, one row each, as one tall strip.

    *actions* are :class:`big2.view.Action` records or ``(seat, mask)``
    pairs (mask 0 is a pass); *names* label the seats. *size* is the width
    of a card in pixels. A rule marks where a new trick begins (when the seat
    that made the last play acts again).

    >>> svg = replay([(0, 1), (1, 0), (2, 1 << 51)], names=["Ann", "Bo", "Cy"])
    >>> svg.count('class="card"'), svg.count(">pass<")
    (2, 1)
    """
    acts = [a if isinstance(a, Action) else Action(int(a[0]), int(a[1])) for a in actions]
    c = _colors(colors)
    w, h = float(CARD_WIDTH), float(CARD_HEIGHT)
    scale = w / size  # drawing units per pixel, so text is sized in pixels
    step = 0.62 * w
    name_w = 150 * scale
    row_h = h + 16 * scale
    most = max((int(a.cards).bit_count() for a in acts), default=1) or 1
    vb_w = name_w + w + step * (most - 1) + 24 * scale
    pass_h = 30 * scale
    vb_h = sum(pass_h if a.is_pass else row_h for a in acts) + 8 * scale
    root = _svg_root(vb_w / scale, vb_h / scale, vb_w, vb_h, "replay")
    _defs(root, c)
    ET.SubElement(root, "rect", {
        "width": _fmt(vb_w), "height": _fmt(vb_h), "fill": c["strip"],
    })
    last_player: int | None = None
    font = 15 * scale
    y = 4 * scale
    for i, a in enumerate(acts):
        rh = pass_h if a.is_pass else row_h
        row = ET.SubElement(root, "g", {"class": "action", "data-seat": str(a.seat)})
        if i % 2:
            ET.SubElement(row, "rect", {
                "x": "0", "y": _fmt(y), "width": _fmt(vb_w), "height": _fmt(rh),
                "fill": c["strip alt"],
            })
        if i and a.seat == last_player:
            ET.SubElement(row, "line", {
                "x1": "0", "y1": _fmt(y), "x2": _fmt(vb_w), "y2": _fmt(y),
                "stroke": c["border"], "stroke-width": _fmt(2 * scale), "class": "trick-start",
            })
        name = names[a.seat] if names and a.seat < len(names) else f"Seat {a.seat}"
        ty = y + rh / 2 + font * 0.35
        _text(row, 10 * scale, ty, f"{i + 1}.", size=font, fill=c["strip text"],
              anchor="start", weight="normal")
        _text(row, 42 * scale, ty, name, size=font, fill=c["strip text"], anchor="start")
        if a.is_pass:
            _text(row, name_w, ty, "pass", size=font, fill=c["strip text"], anchor="start",
                  weight="normal", font_style="italic")
        else:
            last_player = a.seat
            _draw_row(row, _ordered(int(a.cards)), 0, x=name_w, y=y + 8 * scale, width=w,
                      step=step, lift=0, colors=c, four_color=four_color)
        y += rh
    return _to_string(root)
