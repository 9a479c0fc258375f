"""Each option is declared once, as a typed field of ``Rules`` (issue 12): the
option table, its choices, help and defaults are read off the fields; the
``vietnam`` preset alias; option mixes that cannot play are refused with the
reason (RULES.md §2, §3)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from valid_options import consistent

import big2.rules as rules_module
from big2.rules import (
    FINISH_RESTRICTIONS,
    OPTIONS,
    PRESET_ALIASES,
    PRESETS,
    REDEALS,
    STRAIGHT_ORDERS,
    SUIT_ORDERS,
    InvalidRulesError,
    Rules,
    describe_options,
)

ALIASES = {
    "Deal": "deal", "SuitOrder": "suit_order", "StraightOrder": "straight_order",
    "FlushOrder": "flush_order", "FiveCardCompare": "five_card_compare",
    "FiveTwoPairs": "five_two_pairs", "Passing": "passing", "LaterLead": "later_lead",
    "FinishRestriction": "finish_restrictions", "Scoring": "scoring",
    "TwosDouble": "twos_double", "Direction": "direction", "TrickEnd": "trick_end",
    "SmackDown": "smack_down", "Redeal": "redeal", "FourTwos": "four_twos",
    "SpareTo": "spare_to", "Exchange": "exchange", "Jokers": "jokers",
    "FiveOfAKind": "five_of_a_kind", "Opening": "opening",
}
"""Each exported Literal alias and the option whose values it lists."""

HINTS = get_type_hints(Rules)
FIELDS = dataclasses.fields(Rules)


def values_type(name: str) -> Any:
    """The type of one value of option *name* (the element type for a tuple)."""
    hint = HINTS[name]
    return get_args(hint)[0] if get_origin(hint) is tuple else hint


# -- one declaration -------------------------------------------------------------


def test_every_alias_is_exported_and_types_its_option() -> None:
    for alias, option in ALIASES.items():
        assert alias in rules_module.__all__
        declared = getattr(rules_module, alias)
        assert get_origin(declared) is Literal
        assert values_type(option) == declared


def test_every_option_is_a_literal_bool_int_or_tuple_of_a_literal() -> None:
    for f in FIELDS:
        t = values_type(f.name)
        assert t in (bool, int) or get_origin(t) is Literal, f.name
    assert {f.name for f in FIELDS if get_origin(HINTS[f.name]) is tuple} == {
        "finish_restrictions", "redeal"}


def test_the_option_table_is_read_off_the_fields() -> None:
    assert [o.name for o in OPTIONS] == [f.name for f in FIELDS]
    assert [o.default for o in OPTIONS] == [f.default for f in FIELDS]
    assert [o.help for o in OPTIONS] == [f.metadata["help"] for f in FIELDS]
    for o in OPTIONS:
        t = values_type(o.name)
        assert o.multi == (get_origin(HINTS[o.name]) is tuple)
        if t is bool:
            assert o.choices == (True, False)
        elif t is int:
            assert o.choices is None and o.minimum is not None and o.maximum is not None
            assert o.minimum <= o.default <= o.maximum
        else:
            assert o.choices == get_args(t), o.name
        assert o.check(o.default) == o.default and o.help


def test_the_listing_order_and_the_defaults() -> None:
    names = [name for name, _, _ in describe_options()]
    assert names[:4] == ["players", "deal", "suit_order", "suit_ranking"]
    assert names[-3:] == ["jokers", "five_of_a_kind", "play_equal"]
    assert len(names) == len(set(names)) == 46
    d = Rules().to_dict()
    assert d == {o.name: list(o.default) if o.multi else o.default for o in OPTIONS}
    assert list(d) == names


def test_the_value_lists_come_from_the_aliases() -> None:
    assert SUIT_ORDERS == ("DCHS", "CDHS", "CDSH", "CSHD")
    assert STRAIGHT_ORDERS == ("hk", "malaysia", "indonesia", "pagat", "ace-low", "ace-top",
                               "vietnam")
    assert FINISH_RESTRICTIONS == ("single-2", "pair-2", "any-2", "2S")
    assert REDEALS == ("weak", "no-face")


# -- wrong values: the messages stay word for word --------------------------------


@pytest.mark.parametrize("options,message", [
    ({"straight_order": "zigzag"},
     ("straight_order: 'zigzag' is not one of: hk, malaysia, indonesia, pagat, ace-low, "
     "ace-top, vietnam")),
    ({"scoring": "clasic"}, "scoring: 'clasic' is not one of: classic, penalty, count, ranking"),
    ({"suit_order": "SHCD"}, "suit_order: 'SHCD' is not one of: DCHS, CDHS, CDSH, CSHD"),
    ({"deal": False}, "deal: False is not one of: even, 13-each"),
    ({"players": 9}, "players: 9 is outside 2..8"),
    ({"players": "4"}, "players: expected a whole number, got '4'"),
    ({"players": True}, "players: expected a whole number, got True"),
    ({"triples": "yes"}, "triples: expected true or false, got 'yes'"),
    ({"finish_restrictions": ["any-3"]},
     "finish_restrictions: 'any-3' is not one of: single-2, pair-2, any-2, 2S"),
    ({"redeal": 3}, "redeal: expected a list of values, got 3"),
    ({"players": 5}, "players: 5 players need decks=2 (one deck is for 2 to 4)"),
    ({"five_of_a_kind": "below-straight-flush"},
     "five_of_a_kind: needs decks=2 or jokers=wild (one deck has four cards of a rank)"),
    ({"jokers": "wild", "maltese": True},
     ("maltese: not available with decks=2 or jokers (it is about one 52-card deck; "
     "see docs/house-rules.md)")),
    ({"decks": 2, "spare_swap": True},
     ("spare_swap: not available with decks=2 or jokers (it is about one 52-card deck; "
     "see docs/house-rules.md)")),
    ({"jokers_wild": True}, "unknown option 'jokers_wild'; options: players, deal, suit_order, "
     + ", ".join(o.name for o in OPTIONS[3:])),
])
def test_a_wrong_value_is_refused_with_the_same_message(options: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(InvalidRulesError) as exc:
        Rules.from_dict(options)
    assert str(exc.value) == message


def test_command_line_off_and_lists_still_read() -> None:
    assert Rules.from_dict({"smack_down": False}).smack_down == "off"
    assert Rules.from_dict({"five_two_pairs": False}).five_two_pairs == "no"
    assert Rules.from_dict({"finish_restrictions": "2S,single-2"}).finish_restrictions == (
        "single-2", "2S")


# -- presets ---------------------------------------------------------------------


def test_vietnam_names_the_vietnam_straights_preset() -> None:
    r = Rules.preset("vietnam-straights")
    assert Rules.preset("vietnam") == r == Rules.preset(" Vietnam ")
    assert Rules.from_dict({"preset": "vietnam"}) == r
    assert Rules.from_json('{"preset": "vietnam", "players": 3}') == r.replace(players=3)
    assert r.name == "vietnam-straights" and r.straight_order == "vietnam"
    assert "vietnam" not in Rules.presets()
    assert Rules.presets() == list(PRESETS) and len(PRESETS) == 12
    assert all(target in PRESETS and alias not in PRESETS
               for alias, target in PRESET_ALIASES.items())


def test_an_unknown_preset_lists_the_real_names_only() -> None:
    with pytest.raises(InvalidRulesError) as exc:
        Rules.preset("nowhere")
    assert str(exc.value) == ("unknown preset 'nowhere'; presets: classic, pagat, hong-kong, "
                              "singapore, malaysia, indonesia, taiwan, philippines, "
                              "vietnam-straights, hawaii, president, selfplay-2018")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_builds_for_two_to_four_players(name: str) -> None:
    for players in (2, 3, 4):
        assert Rules.preset(name, players=players).players == players


# -- option mixes refused when the rule set is made (RULES.md §2) -----------------


REFUSED = [
    ({"three_threes": True, "triples": False},
     "three_threes: needs triples=true (a lead of three 3s is a triple)"),
    ({"flush_order": "suit", "suit_ranking": False},
     "flush_order: 'suit' needs suit_ranking=true (without it suits never decide)"),
    ({"passing": "lock-out", "trick_end": "one-pass"},
     ("passing: lock-out needs trick_end=all-pass (with one-pass the trick ends at the first "
     "pass)")),
    ({"twos_double": "once", "scoring": "count"},
     "twos_double: 'once' needs scoring=classic (no other scoring doubles)"),
    ({"count_twos_double": True}, "count_twos_double: needs scoring=count"),
    ({"penalty_target": 50, "scoring": "ranking"},
     "penalty_target: needs scoring=penalty (only penalty scoring plays to a target)"),
    ({"players": 3, "deal": "13-each", "spare_to": "highest"},
     "spare_to: 'highest' needs deal=even (a 13-each deal leaves no spare card)"),
    ({"players": 3, "spare_swap": True},
     "spare_swap: needs spare_to=aside (the swap is for the spare card lying face up)"),
    ({"players": 3, "spare_to": "aside", "spare_swap": True, "go_fish": True},
     "spare_swap: not with go_fish (the card set aside is then the Go-Fish stock)"),
    ({"players": 2, "go_fish": True},
     "go_fish: needs a stock to draw from: deal=13-each, or 3 players with spare_to=aside"),
    ({"players": 3, "go_fish": True},
     "go_fish: needs a stock to draw from: deal=13-each, or 3 players with spare_to=aside"),
]


@pytest.mark.parametrize("options,message", REFUSED, ids=lambda v: str(v)[:40])
def test_a_mix_that_cannot_play_is_refused_with_the_reason(options: dict[str, Any],
                                                           message: str) -> None:
    with pytest.raises(InvalidRulesError) as exc:
        Rules.from_dict(options)
    assert str(exc.value) == message
    with pytest.raises(InvalidRulesError):
        Rules(**options)


def test_a_change_that_makes_a_mix_unplayable_is_refused() -> None:
    r = Rules(players=3, spare_to="aside", spare_swap=True)
    with pytest.raises(InvalidRulesError, match="spare_swap: needs spare_to=aside"):
        r.replace(spare_to="lowest")
    with pytest.raises(InvalidRulesError, match="count_twos_double: needs scoring=count"):
        Rules(scoring="count", count_twos_double=True).replace(scoring="classic")


@pytest.mark.parametrize("options", [
    {"three_threes": True}, {"flush_order": "suit"}, {"passing": "lock-out"},
    {"trick_end": "one-pass"}, {"twos_double": "once"},
    {"scoring": "count", "count_twos_double": True},
    {"scoring": "penalty", "penalty_target": 50, "match_deals": 0},
    {"players": 3, "spare_to": "highest"}, {"players": 3, "spare_to": "aside", "spare_swap": True},
    {"players": 2, "deal": "13-each", "go_fish": True},
    {"players": 3, "deal": "13-each", "go_fish": True},
    {"players": 3, "spare_to": "aside", "go_fish": True},
    # combinations the tests play on purpose stay accepted
    {"five_card_compare": "top-card", "flush_order": "suit"},
    {"five_card_compare": "top-card", "flush_order": "top-card"},
    {"flush_order": "top-card", "suit_ranking": False},
    {"opening": "alone", "players": 3, "deal": "13-each"},
    {"suit_ranking": False, "five_card_compare": "same-kind", "straight_beats_flush": True},
    {"last_card": True, "assist_penalty": True, "scoring": "ranking"},
], ids=lambda o: ",".join(o))
def test_the_playable_neighbours_are_accepted(options: dict[str, Any]) -> None:
    r = Rules.from_dict(options)
    assert Rules.from_dict(r.diff()) == r


# -- round trips over random valid rule sets ---------------------------------------


def _value(f: dataclasses.Field[Any]) -> st.SearchStrategy[Any]:
    """Any value the field's type allows (a list for the multi-valued options)."""
    t = values_type(f.name)
    if get_origin(HINTS[f.name]) is tuple:
        return st.lists(st.sampled_from(get_args(t)), unique=True)
    if t is bool:
        return st.booleans()
    if t is int:
        return st.integers(f.metadata["minimum"], f.metadata["maximum"])
    return st.sampled_from(get_args(t))


RULE_SETS = st.fixed_dictionaries({}, optional={f.name: _value(f) for f in FIELDS}).map(consistent)


@settings(max_examples=300, deadline=None)
@given(RULE_SETS)
def test_dict_and_json_round_trip(options: dict[str, Any]) -> None:
    r = Rules.from_dict(options)
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_json(r.to_json()) == r
    assert Rules.from_dict(r.diff()) == r
    assert Rules().replace(**r.diff()) == r
    assert json.loads(r.to_json()) == r.to_dict()


def test_president_preset_plays_the_president_form() -> None:
    """Issue 23 / RULES.md §2 "Other forms": the ``president`` preset plays on
    until every title is settled, and from the second deal on the Scum and
    Vice-Scum hand their best cards up, the receivers giving back from the hand
    as dealt."""
    from big2.bots import make_bot
    from big2.match import Match

    r = Rules.preset("president")
    assert r.diff() == {"scoring": "ranking", "exchange": "before"} and r.name == "president"
    assert Rules(scoring="ranking", exchange="before") == r
    match = Match(r, seed=3)
    bot = make_bot("greedy")
    for deal_no in range(2):
        game = match.new_game()
        if deal_no:
            assert len(match.exchanges) == 4  # two cards up and back, one card up and back
        while not game.is_over():
            game.play(bot.choose(game.view(game.to_move)))  # type: ignore[arg-type]
        assert sum(1 for h in game.hands if h) == 1  # played on until one seat is left
        match.record(game)
        assert sorted(match.titles) == sorted(
            ("President", "Vice-President", "Vice-Scum", "Scum"))
