"""Tests of big2.svg: well-formed SVG, the right elements, no hidden cards, and
a real render in headless Chromium."""

from __future__ import annotations

import random
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from big2 import svg
from big2.cards import (
    BLACK_JOKER,
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    MAX_CARDS,
    RED_JOKER,
    CardSet,
    base_of,
    cards_of,
    parse_cards,
)
from big2.view import Action, PlayerView

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(image: str) -> ET.Element:
    return ET.fromstring(image)


def data_cards(image: str) -> list[str]:
    return [el.get("data-card", "") for el in parse(image).iter() if el.get("data-card")]


def make_view(seat: int = 0, n: int = 4, *, seed: int = 1, **changes: Any) -> tuple[
        PlayerView, list[CardSet]]:
    """A mid-deal view for *seat*, built by hand, and every seat's real hand."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    per = 13 if n == 4 else 17 if n == 3 else 13
    hands = [CardSet(deck[i * per:(i + 1) * per]) for i in range(n)]
    prev = (seat - 1) % n
    play = CardSet(cards_of(hands[prev])[:2])
    hands[prev] = hands[prev] - play
    fields: dict[str, Any] = {
        "rules": None, "seat": seat, "hand": hands[seat],
        "card_counts": tuple(len(h) for h in hands), "to_move": seat, "leading": False,
        "last_play": play, "last_player": prev, "trick": (Action(prev, int(play)),),
        "history": (Action(prev, int(play)),), "passed": (False,) * n, "played": play,
        "names": tuple(f"P{i}" for i in range(n)),
    }
    fields.update(changes)
    return PlayerView(**fields), hands


# ------------------------------------------------------------------ cards

def test_every_card_is_well_formed_and_distinct() -> None:
    images = [svg.card(c) for c in range(52)]
    assert len(set(images)) == 52
    for c, image in enumerate(images):
        root = parse(image)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert data_cards(image) == [CARD_NAMES[c]]


def test_card_is_poker_shaped_and_sized() -> None:
    root = parse(svg.card(0, size=60))
    assert float(root.get("width", 0)) == 60
    assert float(root.get("height", 0)) == pytest.approx(84)


def test_pips_as_on_real_cards() -> None:
    # Ranks 3..10 carry that many pips, the ace one, the two two; the court
    # cards a framed figure. Index pips sit inside <g class="index">.
    values = (3, 4, 5, 6, 7, 8, 9, 10, None, None, None, 1, 2)
    for c in range(52):
        face = parse(svg.card(c)).find(".//svg:g[@class='card']", NS)
        assert face is not None
        pips = face.findall("svg:use", NS)
        court = face.findall("svg:g[@class='court']", NS)
        indices = face.findall("svg:g[@class='index']", NS)
        assert len(indices) == 2
        expected = values[c >> 2]
        if expected is None:
            assert len(court) == 1 and not pips
        else:
            assert len(pips) == expected and not court


def test_lower_pips_are_upside_down() -> None:
    # Pips below the middle are turned: five of the ten's, four of the
    # nine's, the bottom one of the three and of the two, none of the ace's.
    for rank_char, turned in (("T", 5), ("9", 4), ("3", 1), ("2", 1), ("A", 0), ("8", 3)):
        c = parse_cards(rank_char + "S").mask.bit_length() - 1
        face = parse(svg.card(c)).find(".//svg:g[@class='card']", NS)
        assert face is not None
        pips = face.findall("svg:use", NS)
        assert sum("rotate(180)" in u.get("transform", "") for u in pips) == turned


def test_suit_shapes_defined_once_and_used() -> None:
    image = svg.card(parse_cards("7H").mask.bit_length() - 1)
    root = parse(image)
    paths = root.findall("svg:defs/svg:path", NS)
    assert sorted(p.get("id", "") for p in paths) == [
        "big2-club", "big2-diamond", "big2-heart", "big2-spade"]
    hrefs = {u.get("{http://www.w3.org/1999/xlink}href") for u in root.iter(
        "{http://www.w3.org/2000/svg}use")}
    assert hrefs == {"#big2-heart"}


def test_face_down_reveals_nothing() -> None:
    image = svg.card(51, face_down=True)
    assert data_cards(image) == []
    assert image == svg.card(0, face_down=True)
    assert parse(image).find(".//svg:g[@class='back']", NS) is not None
    assert parse(svg.back()).find(".//svg:g[@class='back']", NS) is not None


def test_four_colour_deck() -> None:
    diamond = parse_cards("5D").mask.bit_length() - 1
    club = parse_cards("5C").mask.bit_length() - 1
    blue, green = svg.DEFAULT_COLORS["diamonds 4c"], svg.DEFAULT_COLORS["clubs 4c"]
    assert blue in svg.card(diamond, four_color=True)
    assert blue not in svg.card(diamond)
    assert green in svg.card(club, four_color=True)
    assert svg.DEFAULT_COLORS["hearts"] in svg.card(diamond)


def test_colors_merge_over_defaults() -> None:
    image = svg.card(0, colors={"diamonds": "#abcdef"})
    assert "#abcdef" in image and svg.DEFAULT_COLORS["face"] in image
    assert "#123456" in svg.back(colors={"back": "#123456"})
    assert svg.DEFAULT_COLORS["diamonds"] != "#abcdef"  # defaults untouched


def test_back_pattern_id_depends_on_colours() -> None:
    def pattern_id(image: str) -> str | None:
        el = parse(image).find(".//svg:pattern", NS)
        return None if el is None else el.get("id")

    assert pattern_id(svg.back()) != pattern_id(svg.back(colors={"back": "#800000"}))


def test_svg_image_shows_in_notebooks() -> None:
    image = svg.card(0)
    assert isinstance(image, str) and isinstance(image, svg.SvgImage)
    assert image._repr_svg_() == image


def test_bad_card_is_refused() -> None:
    for bad in (108, -1, 200, True, "3D"):
        with pytest.raises(ValueError, match="0–107"):
            svg.card(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        svg.hand([0, 108])
    with pytest.raises(ValueError):
        svg.hand(1 << 108)


# ---------------------------------------------------- jokers and two decks

def test_every_card_of_two_decks_with_jokers_is_well_formed() -> None:
    images = [svg.card(c, size=40) for c in range(MAX_CARDS)]
    for c, image in enumerate(images):
        root = parse(image)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert data_cards(image) == [CARD_NAMES[c]]
        # a second deck's card is drawn exactly as its first-deck copy
        assert image == images[base_of(c)]
    first = images[:DECK_SIZE]
    assert len(set(first)) == DECK_SIZE  # 52 cards and two different jokers


@pytest.mark.parametrize("joker", [RED_JOKER, BLACK_JOKER, RED_JOKER + DECK_SIZE])
def test_joker_faces(joker: int) -> None:
    root = parse(svg.card(joker))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "JOKER" in texts  # the word across the middle
    assert "".join(texts).count("JOKER") == 3  # and spelt down both corners
    colours = {el.get("fill") for el in root.iter("{http://www.w3.org/2000/svg}text")}
    red = svg.DEFAULT_COLORS["hearts"]
    assert colours == ({red} if base_of(joker) == RED_JOKER else {svg.DEFAULT_COLORS["spades"]})
    assert not list(root.iter("{http://www.w3.org/2000/svg}use"))  # no suit pips on a joker
    stars = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("d", "").count("L") == 9]
    assert len(stars) >= 3  # one in each corner and the large one


def test_hand_of_two_decks_keeps_copies_together() -> None:
    cards = parse_cards("2S BJ 3D 3D RJ 3S RJ", copies=2)
    assert len(cards) == 7
    for layout in ("row", "fan"):
        image = svg.hand(cards, layout=layout, selected=[54])  # type: ignore[arg-type]
        assert data_cards(image) == ["3D", "3D", "3S", "2S", "RJ", "RJ", "BJ"]
        raised = [g.get("data-card") for g in parse(image).iter()
                  if g.get("class") == "card selected"]
        assert raised == ["3D"]
    assert data_cards(svg.hand(cards, sort="suit")) == ["3D", "3D", "3S", "2S", "RJ", "RJ", "BJ"]
    assert data_cards(svg.combination([107, 54, 0])) == ["3D", "3D", "BJ"]
    with pytest.raises(ValueError):
        svg.hand([54, 54])


# ------------------------------------------------------------ hands, plays

HAND = parse_cards("3D 5S 7H 8C 9D TS JH QC KD AS 2H 4C 6D")


@pytest.mark.parametrize("layout", ["row", "fan"])
def test_hand_draws_each_card_once(layout: str) -> None:
    image = svg.hand(HAND, layout=layout)  # type: ignore[arg-type]
    assert sorted(data_cards(image)) == sorted(HAND.text().split())
    assert ET.fromstring(image).get("class") == "big2 big2-hand"


def test_hand_raises_selected_cards() -> None:
    chosen = parse_cards("7H TS")
    root = parse(svg.hand(HAND, selected=chosen))
    selected = [g.get("data-card", "") for g in root.iter()
                if g.get("class") == "card selected"]
    assert sorted(selected) == ["7H", "TS"]
    ys = {}
    for g in root.iter():
        if g.get("data-card"):
            ys[g.get("data-card")] = float(g.get("transform", "").split()[1].rstrip(")"))
    assert ys["7H"] < ys["3D"] and ys["TS"] < ys["3D"]
    with pytest.raises(ValueError):
        svg.hand(HAND, selected=parse_cards("3S"))


def test_hand_sorting() -> None:
    cards = [51, 0, 20]  # 2S 3D 8D
    assert data_cards(svg.hand(cards)) == ["3D", "8D", "2S"]
    assert data_cards(svg.hand(cards, sort=None)) == ["2S", "3D", "8D"]
    assert data_cards(svg.hand(parse_cards("3S 4D 4S 3D"), sort="suit")) == [
        "3D", "4D", "3S", "4S"]
    with pytest.raises(ValueError):
        svg.hand(cards, layout="pile")  # type: ignore[arg-type]


def test_empty_hand_and_combination() -> None:
    assert data_cards(svg.hand(0)) == []
    assert data_cards(svg.combination([])) == []


def test_combination() -> None:
    play = parse_cards("9D 9S 9H KC KD")
    image = svg.combination(play, size=60)
    assert data_cards(image) == ["9D", "9H", "9S", "KD", "KC"]
    assert parse(image).get("class") == "big2 big2-combination"


def test_a_full_deck_in_one_image() -> None:
    assert len(set(data_cards(svg.hand(FULL_DECK, size=40)))) == 52


# ------------------------------------------------------------------ table

@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seat", [0, 1])
def test_table_shows_only_what_the_seat_may_see(n: int, seat: int) -> None:
    view, hands = make_view(seat, n)
    image = svg.table(view)
    shown = set(data_cards(image))
    own = set(view.hand.text().split())
    last = set(view.last_play.text().split())
    assert own <= shown and last <= shown
    assert shown == own | last
    for other, h in enumerate(hands):
        if other != seat:
            assert not shown & set(h.text().split())
    root = parse(image)
    opponents = [g for g in root.iter() if g.get("class") == "seat opponent"]
    assert sorted(int(g.get("data-seat", -1)) for g in opponents) == sorted(
        s for s in range(n) if s != seat)
    for g in opponents:
        s = int(g.get("data-seat", -1))
        backs = [b for b in g.iter() if b.get("class") == "back"]
        assert len(backs) == min(view.card_counts[s], 13)
        counts = [t.text for t in g.iter("{http://www.w3.org/2000/svg}text")]
        assert str(view.card_counts[s]) in counts
        assert f"P{s}" in " ".join(str(t) for t in counts)


def test_table_marks_turn_play_and_passes() -> None:
    view, _ = make_view(0, 4, to_move=0,
                        trick=(Action(2, 1 << 40), Action(3, 0)),
                        last_play=CardSet(1 << 40), last_player=2)
    root = parse(svg.table(view))
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "P2 played" in texts
    turn = [g for g in root.iter() if g.get("class") == "plate turn"]
    assert len(turn) == 1
    passes = [g for g in root.iter() if g.get("class") == "pass"]
    assert len(passes) == 1
    own = next(g for g in root.iter() if g.get("class") == "seat own")
    assert any(g.get("class") == "plate turn" for g in own.iter())


def test_table_when_leading_and_scores() -> None:
    view, _ = make_view(1, 4, to_move=3, leading=True, last_play=CardSet(0),
                        last_player=None, trick=(), totals=(1, 2, 3, 4))
    image = svg.table(view)
    texts = [t.text or "" for t in parse(image).iter("{http://www.w3.org/2000/svg}text")]
    assert "P3 to lead" in texts
    assert parse(image).find(".//svg:g[@class='scores']", NS) is not None
    assert set(data_cards(image)) == set(view.hand.text().split())
    # no scores box when no scores are known
    quiet, _ = make_view(1, 4)
    assert parse(svg.table(quiet)).find(".//svg:g[@class='scores']", NS) is None


def test_table_at_the_end_of_a_deal() -> None:
    view, _ = make_view(0, 4, to_move=None, winner=2, scores=(-5, -3, 8, 0),
                        totals=(0, 0, 0, 0), card_counts=(5, 3, 0, 0))
    texts = [t.text or "" for t in parse(svg.table(view)).iter(
        "{http://www.w3.org/2000/svg}text")]
    assert "P2 wins" in texts and "+8" in texts


def test_table_selected_must_be_own() -> None:
    view, hands = make_view(0, 4)
    mine = cards_of(view.hand)[:2]
    root = parse(svg.table(view, selected=mine))
    assert len([g for g in root.iter() if g.get("class") == "card selected"]) == 2
    with pytest.raises(ValueError):
        svg.table(view, selected=cards_of(hands[2])[:1])


def test_tables_of_a_real_game_hide_other_hands() -> None:
    import big2.game as game_mod
    rng = random.Random(5)
    g = game_mod.Game(seed=11, names=["Ann", "Bo", "Cy", "Di"])
    for _ in range(400):
        for seat in range(g.num_players):
            view = g.view(seat)
            shown = set(data_cards(svg.table(view)))
            assert shown == set(view.hand.text().split()) | set(view.last_play.text().split())
            for other in range(g.num_players):
                if other != seat:
                    assert not shown & set(g.hand(other).text().split())
        if g.is_over():
            break
        move = rng.choice(g.legal_masks())
        if move:
            g.play(move)
        else:
            g.pass_turn()
    assert g.is_over()
    texts = [t.text or "" for t in parse(svg.table(g.view(0))).iter(
        "{http://www.w3.org/2000/svg}text")]
    assert f"{g.names[g.winner]} wins" in texts
    strip = parse(svg.replay(g.history, names=g.names))
    assert len([el for el in strip.iter() if el.get("class") == "action"]) == len(g.history)


# ----------------------------------------------------------------- replay

def test_replay_strip() -> None:
    actions: list[Action | tuple[int, int]] = [Action(0, 1), Action(1, 0), (2, 1 << 8 | 1 << 9), (3, 0), (0, 0), (1, 0),
               Action(2, 1 << 51)]
    image = svg.replay(actions, names=["Ann", "Bo", "Cy", "Di"])
    root = parse(image)
    rows = [g for g in root.iter() if g.get("class") == "action"]
    assert [int(g.get("data-seat", -1)) for g in rows] == [0, 1, 2, 3, 0, 1, 2]
    assert data_cards(image) == ["3D", "5D", "5C", "2S"]
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("pass") == 4 and "Cy" in texts
    # Cy's second play starts a new trick: everyone else passed
    assert len([el for el in root.iter() if el.get("class") == "trick-start"]) == 1


def test_replay_of_nothing() -> None:
    assert parse(svg.replay([])).get("class") == "big2 big2-replay"


def test_save(tmp_path: Path) -> None:
    path = tmp_path / "c.svg"
    svg.save(svg.card(5), path)
    assert path.read_text(encoding="utf-8") == svg.card(5)


# ------------------------------------------------------ headless Chromium

def _chromium() -> str:
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("Chromium is not installed (apt-get install chromium-headless-shell); "
                "the render test needs it")


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path: Path) -> np.ndarray:
    """Decode an 8-bit RGB or RGBA PNG with zlib and struct."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 1:
            cur = line.reshape(width, bpp).cumsum(axis=0).reshape(-1) % 256
        elif kind == 2:
            cur = (line + prev) % 256
        else:
            cur = line.copy()
            up = prev.tolist()
            vals = cur.tolist()
            for i in range(stride):
                left = vals[i - bpp] if i >= bpp else 0
                if kind == 3:
                    vals[i] = (vals[i] + (left + up[i]) // 2) % 256
                else:
                    upleft = up[i - bpp] if i >= bpp else 0
                    vals[i] = (vals[i] + _paeth(left, up[i], upleft)) % 256
            cur = np.array(vals, dtype=np.int32)
        out[y] = cur
        prev = cur
    return out.reshape(height, width, bpp)[:, :, :3]


def render(html: str, tmp_path: Path, width: int, height: int) -> np.ndarray:
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    png = tmp_path / "shot.png"
    cmd = [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}",
        f"--window-size={width},{height}", page.as_uri(),
    ]
    subprocess.run(cmd, timeout=120, capture_output=True, check=False)
    assert png.exists(), "Chromium wrote no screenshot"
    return read_png(png)


def near(pixels: np.ndarray, colour: str, tol: int = 40) -> int:
    """How many pixels are close to *colour* (``#rrggbb``)."""
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(pixels.astype(int) - rgb).sum(axis=2) < tol).sum())


def test_chromium_renders_cards_and_a_table(tmp_path: Path) -> None:
    cards = [parse_cards(t).mask.bit_length() - 1 for t in ("AS", "TH", "KD", "7C", "QH")]
    html = (
        "<html><body style='margin:0;background:#808080'>"
        + "".join(svg.card(c, size=60) for c in cards)
        + "".join(svg.card(c, size=60, four_color=True) for c in cards)
        + svg.back(size=60)
        + svg.card(RED_JOKER + DECK_SIZE, size=60)  # a second deck's red joker
        + "<br>"
        + svg.table(make_view(0, 4)[0], size=600)
        + "</body></html>"
    )
    pixels = render(html, tmp_path, 760, 560)
    assert pixels.shape == (560, 760, 3)
    assert pixels.std() > 30, "the render is blank"
    top = pixels[:90]
    assert near(top, "#ffffff", 10) > 2000  # card faces
    assert near(top, svg.DEFAULT_COLORS["hearts"]) > 100  # red pips
    assert near(top, svg.DEFAULT_COLORS["diamonds 4c"]) > 50  # four-colour blue
    assert near(top, svg.DEFAULT_COLORS["clubs 4c"]) > 50  # four-colour green
    assert near(top, svg.DEFAULT_COLORS["back"]) > 200  # the back
    joker = pixels[:84, 660:720]
    assert near(joker, svg.DEFAULT_COLORS["hearts"]) > 150  # the red joker's star and letters
    assert near(joker, svg.DEFAULT_COLORS["court"], 12) > 300  # its panel
    table = pixels[90:]
    assert near(table, svg.DEFAULT_COLORS["table"], 10) > 50_000  # felt
    assert near(table, "#ffffff", 10) > 5_000  # own cards face up
    assert near(table, svg.DEFAULT_COLORS["back"]) > 2_000  # opponents' backs


# --------------------------------------------- tables of five to eight seats

def _box(el: ET.Element) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a plate rect or of a card placed by ``translate() scale()``."""
    if el.tag.endswith("rect"):
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        return x, y, x + float(el.get("width", 0)), y + float(el.get("height", 0))
    parts = el.get("transform", "").replace("(", " ").replace(")", " ").split()
    x, y, s = float(parts[1]), float(parts[2]), float(parts[4])
    return x, y, x + s * svg.CARD_WIDTH, y + s * svg.CARD_HEIGHT


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _seat_boxes(image: str) -> dict[int, list[tuple[float, float, float, float]]]:
    out: dict[int, list[tuple[float, float, float, float]]] = {}
    for g in parse(image).iter():
        if g.get("class", "").startswith("seat"):
            boxes = out.setdefault(int(g.get("data-seat", -1)), [])
            for el in g.iter():
                cls = el.get("class", "")
                if cls in ("back", "card", "card selected") or (
                        el.tag.endswith("rect") and el.get("rx") == "17"):
                    boxes.append(_box(el))
    return out


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_tables_of_many_seats_lay_seats_apart(n: int) -> None:
    """Each seat's cards and plate lie on the table and clear of every other seat's."""
    from big2 import Game, Rules
    g = Game(Rules(decks=2, players=n, jokers="wild" if n % 2 else "none"), seed=n)
    image = svg.table(g.view(1), selected=g.hand(1).cards()[:2])
    root = parse(image)
    w, h = (float(v) for v in root.get("viewBox", "").split()[2:])
    boxes = _seat_boxes(image)
    assert sorted(boxes) == list(range(n))
    for seat, own in boxes.items():
        assert own
        for b in own:
            assert 0 <= b[0] and b[2] <= w and 0 <= b[1] and b[3] <= h, (seat, b)
        for other, theirs in boxes.items():
            if other < seat:
                assert not any(_overlap(a, b) for a in own for b in theirs), (seat, other)
    # the next seat in turn sits on the viewer's right, the one before on the left
    def centre(seat: int) -> float:
        return sum(b[0] + b[2] for b in boxes[seat]) / (2 * len(boxes[seat]))
    assert centre(2 % n) > w / 2 > centre(0)


def test_table_of_an_eight_player_two_deck_game_hides_other_hands() -> None:
    from big2 import Game, Rules
    rng = random.Random(8)
    g = Game(Rules(decks=2, players=8, jokers="wild"), seed=21, names=[f"N{i}" for i in range(8)])
    for ply in range(60):
        if g.is_over():
            break
        for seat in range(8) if ply % 6 == 0 else (g.to_move or 0,):
            view = g.view(seat)
            image = svg.table(view, size=500)
            shown = Counter(data_cards(image))
            # exactly the seat's own cards and the play to beat, copies counted
            assert shown == Counter(view.hand.text().split()) + Counter(
                view.last_play.text().split())
            seat_cards = [el.get("data-card") for g_ in parse(image).iter()
                          if g_.get("class") == "seat opponent" for el in g_.iter()
                          if el.get("data-card")]
            assert seat_cards == []
            assert len(parse(image).findall(".//*[@class='seat opponent']")) == 7
        move = rng.choice(g.legal_masks())
        g.play(move) if move else g.pass_turn()
    strip = svg.replay(g.history, names=g.names)
    played = Counter(CARD_NAMES[c] for a in g.history for c in cards_of(int(a.cards)))
    assert Counter(data_cards(strip)) == played
