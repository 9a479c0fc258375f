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


STATIC = ROOT / "src" / "big2" / "server" / "static"


@pytest.mark.parametrize("name", ["i18n.js", "whys.js"])
def test_the_pages_read_the_catalogue_and_hold_no_copy_of_it(name: str) -> None:
    script = (STATIC / name).read_text("utf-8")
    assert "../i18n/catalogue.json" in script
    # a row of an old table: three quoted strings in brackets (i18n.js's), or two (whys.js's
    # [繁體, 简体] rows)
    assert not re.search(r'\[\s*"[^"]*",\s*"[^"]*",\s*"[^"]*"\s*\]', script)
    assert not re.search(r'\[\s*"[^"]*[^\x00-\x7f][^"]*",\s*"[^"]*"\s*\]', script)
    # no Chinese written out in the script at all (the words are the catalogue's)
    assert not re.search(r"[\u4e00-\u9fff]", re.sub(r"//.*", "", script)), name
    data = json.loads(CATALOGUE.read_text("utf-8"))
    for section in ("strings", "whys", "whyGroups"):
        for row in data[section].values():  # no sentence written out in the scripts either
            for words in row[1:]:
                if len(words) > 6 or section != "strings":
                    for js in STATIC.glob("*.js"):
                        assert words not in js.read_text("utf-8"), (js.name, words)


def test_every_reason_is_in_the_catalogue_with_the_blanks_it_is_sent() -> None:
    """Each key :mod:`big2.bots.rules_based.reasons` makes has a ``whys`` row in three
    languages, and every blank of the row is an argument the key is sent with (a play's
    ``{x.cards}`` and an English plural ``{x|one|many}`` name theirs)."""
    import ast

    from big2.bots.rules_based import reasons

    sent: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(Path(reasons.__file__).read_text("utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_why":
            given = node.args[1]
            assert isinstance(given, ast.Constant) and isinstance(given.value, str)
            sent[given.value] = {k.arg or "group" for k in node.keywords}  # **broken: a group
    data = json.loads(CATALOGUE.read_text("utf-8"))
    assert len(sent) >= 20 and set(sent) == set(data["whys"]), set(sent) ^ set(data["whys"])
    for key, args in sent.items():
        row = data["whys"][key]
        assert len(row) == 3 and all(isinstance(w, str) and w for w in row), key
        for text in row:
            assert {m.group(1) for m in i18n._BLANK.finditer(text)} <= args, (key, text)
            assert "{" not in i18n._BLANK.sub("", text), (key, text)  # no blank misspelt
    for group, row in data["whyGroups"].items():
        assert len(row) == 3 and all("{rank}" in w for w in row), group


def test_a_reason_reads_the_same_in_each_language_as_the_catalogue_says() -> None:
    """:meth:`Why.said` at the terminal: English as the server sends it, Chinese the
    catalogue's row filled in by hand here (a play: its kind's words and its cards)."""
    from big2 import Game, Rules
    from big2.bots.rules_based.reasons import why_better, why_play
    from big2.cards import parse_cards

    g = Game(Rules(), hands=["3D 7C 7S 2S", "4D 9D", "5D 9H", "6D 9S"], leader=0)
    view = g.view(0)
    data = json.loads(CATALOGUE.read_text("utf-8"))
    breaks = why_better(view, int(parse_cards("3D")), int(parse_cards("3D 7C")))
    winning = why_better(view, int(parse_cards("2S")), 0)
    keeps = why_play(view, 0)
    assert breaks is not None and winning is not None and keeps is not None
    assert (breaks.key, winning.key, keeps.key) == ("breaks", "passWinning", "keepsTwo")
    assert str(winning) == "passes with a winning play in hand (single 2♠)" == winning.said()
    for col, lang in ((1, "zh-Hant"), (2, "zh-Hans")):
        with i18n.language(lang):
            group = data["whyGroups"]["pair"][col].replace("{rank}", "7")
            assert breaks.said() == data["whys"]["breaks"][col].replace("{group}", group)
            single = data["kinds"]["SINGLE"][col] + " 2♠"
            assert winning.said() == data["whys"]["passWinning"][col].replace("{best}", single)
            assert keeps.said() == data["whys"]["keepsTwo"][col].replace("{cards}", "2♠")


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


def test_every_refusal_is_in_the_catalogue_with_the_blanks_it_is_sent() -> None:
    """Each ``Refusal(key, …)`` of the package (why a play or a text is refused) has a
    ``refusals`` row in three languages naming only the arguments it is made with, and
    every row is used."""
    import ast

    made: dict[str, set[str]] = {}
    for path in (ROOT / "src" / "big2").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Refusal":
                for part in ast.walk(node.args[0]):  # a key, or a choice of two (a ? b : c)
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        made.setdefault(part.value, set()).update(k.arg or "" for k in
                                                                  node.keywords)
    rows = json.loads(CATALOGUE.read_text("utf-8"))["refusals"]
    assert set(made) == set(rows), set(made) ^ set(rows)
    for key, args in made.items():
        assert len(rows[key]) == 3 and all(isinstance(w, str) and w for w in rows[key]), key
        for text in rows[key]:
            assert {m.group(1) for m in i18n._BLANK.finditer(text)} <= args, (key, text)


def test_a_refusal_is_said_in_each_language_and_pickles_whole() -> None:
    import pickle

    from big2 import Game, IllegalPlayError, Rules
    from big2.cards import InvalidCardError, parse_cards

    g = Game(Rules(), hands=["3D 7C 7S 2S", "4D 4C", "5D 9H", "6D 9S"], leader=0)
    g.play("3D")
    with pytest.raises(IllegalPlayError) as played:
        g.play("4D 4C")  # seat 1 answers a single with a pair
    assert str(played.value) == "a pair cannot be played on a single: play 1 card or pass"
    with pytest.raises(InvalidCardError) as typed:
        parse_cards("3D zz")
    rows = json.loads(CATALOGUE.read_text("utf-8"))
    for col, lang in enumerate(i18n.LANGUAGES):
        with i18n.language(lang):
            if col:
                kinds = rows["kinds"]
                assert i18n.said(played.value) == rows["refusals"]["wrongSize"][col].replace(
                    "{kind}", kinds["PAIR"][col]).replace("{beaten}", kinds["SINGLE"][col]
                                                          ).replace("{size}", "1")
            else:
                assert i18n.said(played.value) == str(played.value)
            assert i18n.said(typed.value) == rows["refusals"]["notACard"][col].replace(
                "{text}", "'zz'")
    copy = pickle.loads(pickle.dumps(played.value.args[0]))
    assert isinstance(copy, i18n.Refusal) and copy == played.value.args[0]
    assert (copy.key, copy.args["size"]) == ("wrongSize", 1)
    assert i18n.said("plain words") == "plain words"
