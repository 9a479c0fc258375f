"""The ``poker`` command group: ``rank``, ``compare`` and ``odds``.

Registered in the main CLI with ``main.add_command(poker)``::

    big2 poker rank "KH KS KD QC QS"
    big2 poker compare "AS AD 8C 8H 3S" "KS KD QC QH 2S" --low a5 --wild deuces
    big2 poker odds --decks 2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from big2.poker.cards import InvalidCardError
from big2.poker.odds import odds_table
from big2.poker.ranking import HandRank, compare, rank_hand
from big2.poker.rules import LOW_MODES, SUIT_TIEBREAKS, Rules

__all__ = ["poker", "rules_from_options"]

_WILD_ALIASES = {"deuces": "2", "treys": "3", "jacks": "J"}


def rules_from_options(
    low: str | None = None,
    wild: tuple[str, ...] = (),
    deck: int = 52,
    eight_or_better: bool = False,
    double_ace_flush: bool = False,
    natural_beats_wild: bool = False,
    suit_tiebreak: str | None = None,
    suit_order: str = "SHDC",
) -> Rules:
    """Build :class:`Rules` from command-line style options.

    *wild* items may be comma-separated: ``jokers`` (always wild), ``bug``,
    ``deuces`` or any rank, ``one-eyed-jacks``, ``lowest``.

    >>> rules_from_options(wild=("deuces,bug",)).wild, rules_from_options(wild=("bug",)).bug
    (('2',), True)
    """
    kinds: list[str] = []
    bug = False
    for item in wild:
        for w in filter(None, (x.strip() for x in item.split(","))):
            lw = w.lower()
            if lw in ("joker", "jokers"):
                continue
            if lw == "bug":
                bug = True
                continue
            kinds.append(_WILD_ALIASES.get(lw, lw if lw in ("one-eyed-jacks", "lowest") else w))
    return Rules(
        low=low, wild=tuple(kinds), bug=bug, lowest=13 - deck // 4,
        eight_or_better=eight_or_better, double_ace_flush=double_ace_flush,
        wild_tiebreak="natural" if natural_beats_wild else None,
        suit_tiebreak=suit_tiebreak, suit_order=suit_order,
    )


def _rule_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--low", type=click.Choice(LOW_MODES), default=None,
                     help="Lowball order: a5 (ace-to-five), 27 (deuce-to-seven), a6."),
        click.option("--wild", multiple=True, metavar="KIND",
                     help="Wild cards: deuces (or any rank), one-eyed-jacks, lowest, bug; "
                          "jokers (JK) are always wild."),
        click.option("--deck", type=click.Choice(["52", "48", "44", "40", "36", "32", "28",
                                                   "24", "20"]), default="52",
                     help="Stripped deck size (flush beats full house below 52)."),
        click.option("--eight-or-better", is_flag=True, help="Low hands must be 8 or better."),
        click.option("--double-ace-flush", is_flag=True,
                     help="Wild cards may duplicate a card held."),
        click.option("--natural-beats-wild", is_flag=True,
                     help="A natural hand beats an equal one with wild cards."),
        click.option("--suit-tiebreak", type=click.Choice(SUIT_TIEBREAKS), default=None,
                     help="Break ties by the suit of this card."),
        click.option("--suit-order", default="SHDC", show_default=True,
                     help="Suits high to low, for --suit-tiebreak."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def _rules(opts: dict[str, Any]) -> Rules:
    try:
        return rules_from_options(
            low=opts["low"], wild=opts["wild"], deck=int(opts["deck"]),
            eight_or_better=opts["eight_or_better"], double_ace_flush=opts["double_ace_flush"],
            natural_beats_wild=opts["natural_beats_wild"],
            suit_tiebreak=opts["suit_tiebreak"], suit_order=opts["suit_order"],
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _rank(text: str, rules: Rules) -> HandRank:
    try:
        return rank_hand(text, rules)
    except (InvalidCardError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint=repr(text)) from None


@click.group(name="poker")
def poker() -> None:
    """Rank poker hands (high, low, wild cards, house rules) and show odds."""


@poker.command()
@click.argument("hand")
@_rule_options
def rank(hand: str, **opts: Any) -> None:
    """Name HAND (1-9 cards, e.g. "KH KS KD QC QS"; JK for a joker)."""
    rules = _rules(opts)
    h = _rank(hand, rules)
    click.echo(h.name)
    click.echo(f"  cards:    {h.text()}")
    if h.kickers:
        click.echo("  kickers:  " + " ".join("23456789TJQKA"[r] for r in h.kickers))
    if h.wilds:
        click.echo("  plays as: " + " ".join("23456789TJQKA"[r] for r in h.played_as))
    if h.value is not None and not rules.low and not rules.lowest:
        click.echo(f"  value:    {h.value} of 7462")
    if rules.eight_or_better:
        click.echo(f"  qualifies for low: {'yes' if h.qualifies else 'no'}")


@poker.command(name="compare")
@click.argument("first")
@click.argument("second")
@_rule_options
def compare_cmd(first: str, second: str, **opts: Any) -> None:
    """Say which of FIRST and SECOND wins."""
    rules = _rules(opts)
    a, b = _rank(first, rules), _rank(second, rules)
    result = compare(a, b)
    if result > 0:
        click.echo(f"First wins: {a} beats {b}")
    elif result < 0:
        click.echo(f"Second wins: {b} beats {a}")
    else:
        click.echo(f"Tie: {a} equals {b}")


@poker.command()
@click.option("--decks", type=click.IntRange(1, 8), default=1, show_default=True,
              help="Number of 52-card decks shuffled together.")
@click.option("--all-rows", is_flag=True, help="Also show categories impossible here.")
def odds(decks: int, all_rows: bool) -> None:
    """Exact counts and probabilities of five-card hands."""
    click.echo(odds_table(decks, all_rows=all_rows))
