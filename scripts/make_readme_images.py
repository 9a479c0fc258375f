"""Draw the README's showcase images: a hand and a table, as SVG and PNG.

The table is a real position: a seeded match of greedy bots, two deals in,
saved beside the images as a record (``table-match.txt``) so that
``big2 svg --record`` redraws it.

Usage: ``python scripts/make_readme_images.py [OUTDIR]`` (default ``docs/img``).
The PNGs are screenshots taken by headless Chromium (``apt-get install
chromium-headless-shell``, or ``chromium``); without it only the SVGs are written.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from big2 import Match, Rules, svg
from big2.bots import make_bot
from big2.cards import CardSet, parse_cards
from big2.records import GameRecord, save
from big2.view import PlayerView

HAND = parse_cards("3D 4C 5S 7H 8C 8H TD JS QC KH AD 2C 2S")
SELECTED = parse_cards("8C 8H")

# The table: a real match (seed 6, greedy bots in every seat) played through
# deal 1 and into deal 2 until seat 0 must answer Cy's straight.
SEED, DEAL, PLY = 6, 2, 19
NAMES = ("You", "Bo", "Cy", "Di")


def showcase_records() -> list[GameRecord]:
    """The match's deals up to the showcase position, as records."""
    match = Match(Rules(), seed=SEED, names=NAMES)
    bots = [make_bot("greedy", seed=SEED * 10 + i) for i in range(4)]
    records = []
    for number in range(1, DEAL + 1):
        before = tuple(match.totals)
        game = match.new_game()
        while not game.is_over() and (number < DEAL or len(game.history) < PLY):
            seat = game.to_move
            assert seat is not None
            game.play(bots[seat].choose(game.view(seat)))
        records.append(GameRecord.from_game(game, totals=before, tags={"Deal": str(number)}))
        if game.is_over():
            match.record(game)
    return records


def showcase_view(records: list[GameRecord]) -> tuple[PlayerView, int]:
    """Seat 0's view at the showcase position and the play its bot would make."""
    view = records[-1].view(0)
    assert view.my_turn and not view.leading, "the showcase position moved: pick another PLY"
    choice = make_bot("greedy", seed=SEED * 10).choose(view)
    return view, choice


def screenshot(image: str, png: Path) -> bool:
    """Render *image* with headless Chromium to *png*; False without Chromium."""
    chromium = (shutil.which("chromium-headless-shell") or shutil.which("chromium")
                or shutil.which("chromium-browser"))
    if chromium is None:
        return False
    root = ET.fromstring(image)
    width = round(float(root.get("width", "800")))
    height = round(float(root.get("height", "600")))
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(
            "<html><body style='margin:0;background:transparent'>" + image + "</body></html>",
            encoding="utf-8",
        )
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars",
             "--default-background-color=00000000", f"--user-data-dir={tmp}/profile",
             f"--screenshot={png.resolve()}", f"--window-size={width},{height}",
             page.as_uri()],
            timeout=120, capture_output=True, check=True,
        )
    return png.exists()


def main(argv: list[str]) -> int:
    """Write hand.svg, table.svg, their PNG renders and the table's match record."""
    out = Path(argv[1] if len(argv) > 1 else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    records = showcase_records()
    view, choice = showcase_view(records)
    save(out / "table-match.txt", records)
    print(out / "table-match.txt", f"(redraw the table: big2 svg --record {out}/table-match.txt "
          f"--deal {DEAL} --at {PLY} --selected '{CardSet(choice).text()}')")
    images = {
        "hand": svg.hand(HAND, selected=SELECTED, layout="fan", size=90),
        "table": svg.table(view, size=800, selected=choice),
    }
    for name, image in images.items():
        svg.save(image, out / f"{name}.svg")
        done = screenshot(image, out / f"{name}.png")
        print(out / f"{name}.svg", "and .png" if done else "(no Chromium: no PNG)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
