"""The one catalogue of words (issue 56 item 4): every sentence in English, 繁體中文 and
简体中文 with the same blanks, read by the terminal (big2.i18n) and by the pages (static/
i18n.js fetches it from the server), with no second copy of its sentences in the pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from big2 import i18n

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "src" / "big2" / "i18n" / "catalogue.json"


def test_every_row_has_three_languages_with_the_same_blanks() -> None:
    data = json.loads(CATALOGUE.read_text("utf-8"))
    assert [code for code, _name in data["languages"]] == list(i18n.LANGUAGES)
    for section in ("strings", "suits", "jokers", "kinds"):
        for key, row in data[section].items():
            assert len(row) == 3 and all(isinstance(w, str) and w for w in row), key
            if key == "placeN":  # English says the name, Chinese the place
                continue
            blanks = [sorted(set(re.findall(r"\{\d\}", w))) for w in row]
            assert blanks[0] == blanks[1] == blanks[2], (key, row)


def test_the_pages_read_the_catalogue_and_hold_no_copy_of_it() -> None:
    script = (ROOT / "src" / "big2" / "server" / "static" / "i18n.js").read_text("utf-8")
    assert "../i18n/catalogue.json" in script
    # a row of the old table: three quoted strings in brackets
    assert not re.search(r'\[\s*"[^"]*",\s*"[^"]*",\s*"[^"]*"\s*\]', script)
    data = json.loads(CATALOGUE.read_text("utf-8"))
    for row in data["strings"].values():  # no sentence written out in the scripts either
        if len(row[1]) > 6:
            for js in (ROOT / "src" / "big2" / "server" / "static").glob("*.js"):
                assert row[1] not in js.read_text("utf-8"), (js.name, row[1])


def test_the_server_serves_the_same_file() -> None:
    from big2.server import app

    assert app.CATALOGUE.resolve() == CATALOGUE.resolve()


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"), ({"LANG": "zh_HK.UTF-8"}, "zh-Hant"),
    ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"), ({"LANG": "zh_SG"}, "zh-Hans"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "fr_FR.UTF-8"}, "en"), ({}, "en"),
    ({"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_TW.UTF-8"}, "zh-Hant"),
    ({"LANG": "zh_TW.UTF-8", "LC_MESSAGES": "C"}, "en"),
])
def test_the_locale_picks_the_language(environ: dict[str, str], expected: str) -> None:
    assert i18n.detect(environ) == expected


def test_lang_codes_are_normalised() -> None:
    assert i18n.normalize("zh-Hant") == "zh-Hant"
    assert i18n.normalize("zh-tw") == "zh-Hant"
    assert i18n.normalize("zh_Hans_CN") == "zh-Hans"
    assert i18n.normalize("EN") == "en"
    assert i18n.normalize("de") is None


def test_sentences_fill_their_blanks_in_each_language() -> None:
    with i18n.language("zh-Hant"):
        assert i18n.t("seatN", 3) == "3 號位"
        assert i18n.kind_label("FULL_HOUSE") == "葫蘆"
        assert i18n.card_name("QH") == "紅心Q"
    with i18n.language("zh-Hans"):
        assert i18n.kind_label("FULL_HOUSE") == "葫芦"
        assert i18n.card_name("RJ") == "大王"
    assert i18n.current() == "en"
    assert i18n.t("seatN", 3) == "Seat 3" and i18n.card_name("TS") == "10♠"
    with pytest.raises(ValueError, match="unknown language"):
        i18n.set_language("fr")


def test_display_width_and_wrapping() -> None:
    assert i18n.width("大老二") == 6 and i18n.width("3♦") == 2 and i18n.width("e\u0301") == 1
    text = "你是 1 號位。所有手牌都攤開。只有一種合法出法能讓你最先出完，不論別人怎樣出（他們可以聯手對付你）。"
    lines = i18n.wrap(text, 30, "  ")
    assert all(i18n.width(line) <= 30 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
    assert not any(line.lstrip().startswith(("，", "。", "）")) for line in lines)
    assert not any(line.endswith("（") for line in lines)
    english = "one two three four five six seven eight nine ten"
    assert i18n.wrap(english, 20, "  ") == ["one two three four", "  five six seven", "  eight nine ten"]
