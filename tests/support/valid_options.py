"""Random option sets made valid: what the round-trip property tests feed to ``Rules``."""

from __future__ import annotations

from typing import Any


def consistent(o: dict[str, Any]) -> dict[str, Any]:
    """Adjust random options to a combination every check accepts."""
    if o.get("players", 4) > 4:
        o["decks"] = 2
    if o.get("five_of_a_kind", "off") != "off" and o.get("decks", 1) == 1:
        o["jokers"] = "wild"
    if o.get("decks", 1) == 2 or o.get("jokers", "none") != "none":
        for name in ("maltese", "four_twos", "go_fish", "spare_swap"):
            o.pop(name, None)
    if not o.get("triples", True):
        o.pop("three_threes", None)
    if not o.get("suit_ranking", True) and o.get("flush_order") == "suit":
        o.pop("flush_order")
    if o.get("trick_end") == "one-pass":
        o.pop("passing", None)
    scoring = o.get("scoring", "classic")
    for name, needs in (("twos_double", "classic"), ("count_twos_double", "count"),
                        ("penalty_target", "penalty")):
        if scoring != needs:
            o.pop(name, None)
    if o.get("deal") == "13-each":
        o.pop("spare_to", None)
    if o.get("spare_to") != "aside" or o.get("go_fish"):
        o.pop("spare_swap", None)
    if o.get("players", 4) != 4:
        o.pop("teams", None)
    if o.get("go_fish") and o.get("deal", "even") == "even" and not (
            o.get("players", 4) == 3 and o.get("spare_to") == "aside"):
        o.pop("go_fish")
    return o
