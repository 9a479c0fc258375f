"""Draw the README's showcase images: a hand and a table, as SVG and PNG.

Usage: ``python scripts/make_readme_images.py [OUTDIR]`` (default ``docs/img``).
The PNGs are screenshots taken by headless Chromium (``apt-get install
chromium``); without it only the SVGs are written.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from big2 import svg
from big2.cards import CardSet, parse_cards
from big2.view import Action, PlayerView

HAND = parse_cards("3D 4C 5S 7H 8C 8H TD JS QC KH AD 2C 2S")
SELECTED = parse_cards("8C 8H")


def showcase_view() -> PlayerView:
    """Seat 0 mid-deal: Bo played a pair, Cy passed, Di's turn; match totals."""
    pair = parse_cards("6D 6S")
    return PlayerView(
        rules=None,  # type: ignore[arg-type]  # the renderer never reads the rules
        seat=0,
        hand=HAND,
        card_counts=(13, 9, 11, 10),
        to_move=0,
        leading=False,
        last_play=pair,
        last_player=1,
        trick=(Action(1, int(pair)), Action(2, 0), Action(3, 0)),
        history=(),
        passed=(False,) * 4,
        played=CardSet(pair),
        names=("You", "Bo", "Cy", "Di"),
        totals=(12, -4, 7, -15),
    )


def screenshot(image: str, png: Path) -> bool:
    """Render *image* with headless Chromium to *png*; False without Chromium."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
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
    """Write hand.svg, table.svg and their PNG renders."""
    out = Path(argv[1] if len(argv) > 1 else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    images = {
        "hand": svg.hand(HAND, selected=SELECTED, layout="fan", size=90),
        "table": svg.table(showcase_view(), size=800, selected=SELECTED),
    }
    for name, image in images.items():
        svg.save(image, out / f"{name}.svg")
        done = screenshot(image, out / f"{name}.png")
        print(out / f"{name}.svg", "and .png" if done else "(no Chromium: no PNG)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
