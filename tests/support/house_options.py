"""The house-rule option sets (RULES.md §2, issue 6) that the random-deal,
reference and bot tests run under, one entry per option (or small group)."""

from __future__ import annotations

import random
from typing import Any

HOUSE_RULE_OPTION_SETS: list[dict[str, Any]] = [
    {"direction": "clockwise"},
    {"trick_end": "one-pass"},
    {"three_threes": True},
    {"bomb_on_small": True},
    {"bomb_on_small": True, "four_of_a_kind_alone": True},
    {"four_beats_all": True},
    {"four_beats_all": True, "four_of_a_kind_alone": True, "two_pairs": True},
    {"smack_down": "2S"},
    {"smack_down": "any-2", "four_of_a_kind_alone": True},
    {"straight_min": 3},
    {"straight_max": 12},
    {"straight_min": 4, "straight_max": 7, "suit_ranking": False},
    {"dragon": True},
    {"redeal": ("weak", "no-face"), "four_twos": "redeal"},
    {"maltese": True, "four_twos": "win"},
    {"four_twos": "draw", "scoring": "penalty"},
    {"last_card": True},
    {"assist_penalty": True, "scoring": "count"},
    {"last_card": True, "assist_penalty": True, "scoring": "ranking"},
    {"spare_to": "highest"},
    {"spare_to": "aside", "spare_swap": True},
    {"go_fish": True, "deal": "13-each"},
    {"go_fish": True, "deal": "13-each", "passing": "lock-out", "smack_down": "2S"},
    {"exchange": "after"},
    {"teams": True, "last_card": True},
    {"opening": "alone", "flush_order": "top-card"},
]

LONG_PLAY_OPTION_SETS = [o for o in HOUSE_RULE_OPTION_SETS
                         if o.get("straight_max", 5) > 5 or o.get("dragon")
                         or o.get("smack_down", "off") != "off"]
"""Option sets with plays longer than five cards: the brute-force reference
is slower there, so fewer positions are checked."""


def for_players(options: dict[str, Any], players: int) -> dict[str, Any]:
    """*options* with *players* seats, less what that many seats cannot play
    (teams need four: :class:`big2.Rules` refuses them otherwise)."""
    out = {"players": players, **options}
    if players != 4:
        out.pop("teams", None)
    return out


def option_id(options: dict[str, Any]) -> str:
    """A short test id for an option set."""
    return ",".join(f"{k}={v}" for k, v in options.items())


def rich_hands(rng: random.Random, players: int = 4, size: int = 13) -> list[int]:
    """Hands (masks) dealt to hold the shapes house rules are about: each seat
    gets, where the cards are still free, a four of a kind, a run of pairs,
    a run of one card per rank (a straight of 3 to 13 cards) and maybe 2♠, then
    random cards up to *size*. Used so that rare plays (bombs, smack-downs,
    long straights, the dragon) turn up in tests often."""
    free = set(range(52))
    hands = []
    for _ in range(players):
        hand: set[int] = set()

        quad = rng.randrange(13)
        lo = rng.randint(0, 9)
        pairs = [c for r in range(lo, lo + rng.randint(3, 4))
                 for c in rng.sample(range(r * 4, r * 4 + 4), 2)]
        length = rng.choice([3, 4, 5, 6, 7, 8, 12, 13])
        lo = rng.randint(0, 13 - length)
        run = [r * 4 + rng.randrange(4) for r in range(lo, lo + length)]
        shapes = [[quad * 4 + s for s in range(4)], pairs, run]
        rng.shuffle(shapes)
        for shape in shapes:
            if len(hand) + len(shape) <= size and all(c in free for c in shape):
                hand.update(shape)
                free.difference_update(shape)
        if rng.random() < 0.5 and 51 in free and len(hand) < size:
            hand.add(51)
            free.discard(51)
        rest = rng.sample(sorted(free), size - len(hand))
        hand.update(rest)
        free.difference_update(rest)
        hands.append(sum(1 << c for c in hand))
    return hands


EXTENDED_DECK_OPTION_SETS: list[dict[str, Any]] = [
    {"jokers": "wild"},
    {"jokers": "valueless"},
    {"decks": 2, "players": 6},
    {"decks": 2, "players": 8, "play_equal": True},
    {"decks": 2, "players": 5, "jokers": "wild", "five_of_a_kind": "above-straight-flush",
     "deal": "13-each"},
    {"decks": 2, "players": 7, "five_of_a_kind": "below-straight-flush", "scoring": "count"},
    {"jokers": "wild", "five_of_a_kind": "below-straight-flush", "two_pairs": True,
     "four_of_a_kind_alone": True, "five_card_compare": "same-kind"},
    {"jokers": "wild", "five_card_compare": "top-card", "five_trips": True,
     "five_two_pairs": "sisters", "suit_ranking": False},
    {"jokers": "wild", "bomb_on_small": True, "four_beats_all": True, "five_two_pairs": "any",
     "straight_beats_flush": True, "flush_order": "suit"},
    {"decks": 2, "players": 5, "deal": "13-each", "smack_down": "any-2", "straight_min": 3,
     "straight_max": 7},
    {"jokers": "valueless", "players": 3, "last_card": True, "assist_penalty": True,
     "redeal": ("weak", "no-face")},
    {"decks": 2, "teams": True, "three_threes": True, "play_equal": True, "deal": "13-each"},
    {"decks": 2, "players": 8, "jokers": "wild", "dragon": True, "smack_down": "2S",
     "straight_max": 8, "finish_restrictions": ("2S",)},
    {"jokers": "wild", "flush_order": "top-card", "opening": "alone", "two_pairs": True,
     "four_of_a_kind_alone": True, "four_kicker": False, "straight_order": "indonesia"},
    {"decks": 2, "players": 6, "flush_order": "top-card", "opening": "alone"},
]
"""Jokers, two decks, five of a kind and equal plays (RULES.md §2, 29 and 34), alone
and with other house rules."""

REFERENCE_EXTENDED_SETS = [o for o in EXTENDED_DECK_OPTION_SETS
                           if not (o.get("jokers") == "wild" and (o.get("dragon") or o.get(
                               "straight_max", 5) > 5 or o.get("smack_down", "off") != "off"))]
"""The sets the brute-force reference can check in reasonable time (it tries every
card for each joker, which is too slow for plays of up to 13 cards)."""
