"""The house-rule option sets (RULES.md §2, issue 6) that the random-deal,
reference and bot tests run under, one entry per option (or small group)."""

from __future__ import annotations

from typing import Any

HOUSE_RULE_OPTION_SETS: list[dict[str, Any]] = [
    {"direction": "clockwise"},
    {"trick_end": "one-pass"},
    {"three_threes": True},
]


def option_id(options: dict[str, Any]) -> str:
    """A short test id for an option set."""
    return ",".join(f"{k}={v}" for k, v in options.items())
