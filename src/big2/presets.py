"""The named rule sets (RULES.md §3): each preset is the options it sets over
the defaults of :class:`big2.rules.Rules`, and nothing else. ``Rules.preset(name)``
builds one; ``big2 rules NAME`` shows it.

>>> PRESETS["taiwan"]
{'suit_order': 'CDHS'}
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["PRESETS", "PRESET_ALIASES"]

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "pagat": {"flush_order": "suit", "straight_order": "pagat", "scoring": "penalty",
              "match_deals": 0},
    "hong-kong": {"straight_order": "hk", "scoring": "classic"},
    "singapore": {"straight_order": "hk", "later_lead": "winner"},
    "malaysia": {"straight_order": "malaysia"},
    "indonesia": {"straight_order": "indonesia"},
    "taiwan": {"suit_order": "CDHS"},
    "philippines": {"suit_order": "CSHD", "finish_restrictions": ("single-2", "pair-2")},
    "vietnam-straights": {"straight_order": "vietnam"},
    "hawaii": {"suit_order": "CSHD", "scoring": "ranking"},
    # Big Two president variation (RULES.md §2 "Other forms"): play on until the titles are
    # settled (ranking), and before each later deal the President and Vice-President get the
    # Scum's two and the Vice-Scum's one best cards and give back from the hand as dealt
    "president": {"scoring": "ranking", "exchange": "before"},
    # the rule set of a public 2018 self-play PPO agent's engine (issue 14)
    "selfplay-2018": {"deal": "13-each", "straight_order": "indonesia", "flush_order": "top-card",
                      "two_pairs": True, "four_of_a_kind_alone": True, "four_kicker": False,
                      "scoring": "count", "opening": "alone"},
}
"""Named rule sets: options over the defaults. A preset is only data."""

PRESET_ALIASES: Final[dict[str, str]] = {"vietnam": "vietnam-straights"}
"""Other names accepted for a preset (RULES.md §3); :meth:`Rules.presets` lists
only the real names."""
