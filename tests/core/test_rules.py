"""The rule set: validation, dict/JSON round trips, presets."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from valid_options import consistent

from big2 import InvalidRulesError, Rules
from big2.rules import OPTIONS


def test_defaults_are_the_classic_game() -> None:
    r = Rules()
    assert r == Rules.preset("classic")
    assert (r.players, r.suit_order, r.straight_order, r.scoring) == (4, "DCHS", "hk", "classic")
    assert r.lowest_card == 0 and r.name == "classic"


def test_unknown_option_lists_valid_ones() -> None:
    with pytest.raises(InvalidRulesError, match="options: players, deal"):
        Rules.from_dict({"jokers_wild": True})
    with pytest.raises(TypeError):
        Rules(jokers_wild=True)  # type: ignore[call-arg]


@pytest.mark.parametrize("field,value,msg", [
    ("suit_order", "SHCD", "DCHS, CDHS, CDSH, CSHD"),
    ("straight_order", "x", "hk, malaysia"),
    ("players", 9, "outside 2..8"),
    ("players", 5, "need decks=2"),
    ("players", "4", "whole number"),
    ("triples", "yes", "true or false"),
    ("finish_restrictions", ["any-3"], "single-2, pair-2, any-2, 2S"),
    ("scoring", "golf", "classic, penalty, count, ranking"),
])
def test_bad_values_name_the_valid_ones(field: str, value: object, msg: str) -> None:
    with pytest.raises(InvalidRulesError, match=msg):
        Rules.from_dict({field: value})


def test_rules_are_immutable_and_hashable() -> None:
    r = Rules()
    with pytest.raises(AttributeError):
        r.players = 3  # type: ignore[misc]
    assert hash(r) == hash(Rules())


def _option_values():
    out = {}
    for o in OPTIONS:
        if o.multi:
            out[o.name] = st.lists(st.sampled_from(o.choices), unique=True)
        elif o.choices:
            out[o.name] = st.sampled_from(o.choices)
        else:
            out[o.name] = st.integers(o.minimum, o.maximum)
    return st.fixed_dictionaries({}, optional=out).map(consistent)


@given(_option_values())
def test_dict_and_json_round_trip(options: dict) -> None:
    r = Rules.from_dict(options)
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_json(r.to_json()) == r
    assert Rules.from_dict(r.diff()) == r
    json.dumps(r.to_dict())


@pytest.mark.parametrize("name", Rules.presets())
def test_every_preset_builds_and_round_trips(name: str) -> None:
    r = Rules.preset(name)
    assert Rules.from_dict({"preset": name}) == r
    assert Rules.from_json(r.to_json()) == r


def test_preset_with_overrides_and_bad_name() -> None:
    r = Rules.preset("pagat", players=3)
    assert r.players == 3 and r.scoring == "penalty"
    with pytest.raises(InvalidRulesError, match="presets: classic, pagat"):
        Rules.preset("nowhere")


def test_preset_characteristics() -> None:
    assert Rules.preset("taiwan").lowest_card == 1  # 3♣ leads
    assert Rules.preset("hawaii").suit_order == "CSHD"
    assert Rules.preset("philippines").lowest_card == 1
    assert Rules.preset("pagat").flush_order == "suit"
    assert Rules.preset("malaysia").straight_order == "malaysia"
    assert Rules.preset("indonesia").straight_order == "indonesia"
    assert Rules.preset("vietnam-straights").straight_order == "vietnam"
    assert Rules.preset("selfplay-2018").opening == "alone"  # see test_selfplay_2018.py
