"""The ``poker`` command group: ``rank``, ``compare``, ``equity``, ``outs``, ``icm``, ``odds``.

Registered in the main CLI with ``main.add_command(poker)``::

    big2 poker rank "KH KS KD QC QS"
    big2 poker compare "AS AD 8C 8H 3S" "KS KD QC QH 2S" --low a5 --wild deuces
    big2 poker rank "8S 5H 3D 2C" --game badugi
    big2 poker equity "AS AH" "KS KH" --board "2C 7D KH"
    big2 poker outs "AH KH" --board "QH 7H 2C"
    big2 poker icm 5000 3000 2000 --payouts 50 30 20
    big2 poker odds --decks 2

Bad input gives one ``Error: …`` line and exit status 2; the message says
which argument and which card is wrong without repeating the text given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from big2.poker.badugi import BadugiRank, compare_badugi, rank_badugi
from big2.poker.cards import InvalidCardError, is_joker, parse_hand
from big2.poker.equity import EquityError, EquityResult, equity
from big2.poker.games import GAMES
from big2.poker.icm import IcmError, icm
from big2.poker.odds import MAX_DECKS, odds_table
from big2.poker.outs import OutsError, outs
from big2.poker.ranking import HandRank, compare, rank_hand
from big2.poker.rules import LOW_MODES, SUIT_TIEBREAKS, WILD_TIEBREAKS, Rules

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
    wild_tiebreak: str | None = None,
    no_straights: bool = False,
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
        wild_tiebreak=wild_tiebreak or ("natural" if natural_beats_wild else None),
        suit_tiebreak=suit_tiebreak, suit_order=suit_order,
        straights_and_flushes=not no_straights,
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
        click.option("--wild-tiebreak", type=click.Choice(WILD_TIEBREAKS), default=None,
                     help="Between equal hands: natural wins, fewer or more wild cards win."),
        click.option("--no-straights", is_flag=True,
                     help="Straights and flushes do not count (the historical 20-card game)."),
        click.option("--game", type=click.Choice(["poker", "badugi"]), default="poker",
                     show_default=True, help="badugi: four cards, different ranks and suits."),
        click.option("--suit-tiebreak", type=click.Choice(SUIT_TIEBREAKS), default=None,
                     help="Break ties by the suit of this card."),
        click.option("--suit-order", default="SHDC", show_default=True,
                     help="Suits high to low, for --suit-tiebreak."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


class InputError(click.ClickException):
    """Bad input: one ``Error:`` line, exit status 2 (like a usage error)."""

    exit_code = 2


MAX_CARDS = 9
"""Most cards ``rank`` and ``compare`` take (best five of up to nine)."""
MAX_JOKERS = 2
"""Jokers in one deck."""


def _rules(opts: dict[str, Any]) -> Rules:
    try:
        return rules_from_options(
            low=opts["low"], wild=opts["wild"], deck=int(opts["deck"]),
            eight_or_better=opts["eight_or_better"], double_ace_flush=opts["double_ace_flush"],
            natural_beats_wild=opts["natural_beats_wild"],
            suit_tiebreak=opts["suit_tiebreak"], suit_order=opts["suit_order"],
            wild_tiebreak=opts["wild_tiebreak"], no_straights=opts["no_straights"],
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None


def read_cards(text: str, what: str, most: int = MAX_CARDS) -> tuple[int, ...]:
    """Cards of a command-line argument, or an :class:`InputError` naming *what* is wrong.

    >>> read_cards("KH KS JK", "HAND")
    (42, 43, 52)
    >>> read_cards("KH ZZ", "HAND")
    Traceback (most recent call last):
    ...
    big2.poker.cli.InputError: HAND: card 2 is not a card (write rank then suit: 3D, 10S, A♠; JK for a joker)
    """
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InputError(f"{what}: no cards")
    if len(tokens) > most:
        raise InputError(f"{what}: {len(tokens)} cards; a hand has 1 to {most}")
    for i, token in enumerate(tokens, 1):
        try:
            parse_hand(token)
        except InvalidCardError:
            raise InputError(f"{what}: card {i} is not a card (write rank then suit: 3D, 10S, "
                             "A\u2660; JK for a joker)") from None
    try:
        cards = parse_hand(text)
    except InvalidCardError:
        raise InputError(f"{what}: a card is given twice (one deck)") from None
    jokers = sum(map(is_joker, cards))
    if jokers > MAX_JOKERS:
        raise InputError(f"{what}: {jokers} jokers; one deck has {MAX_JOKERS}")
    return cards


def _rank(text: str, rules: Rules, what: str) -> HandRank:
    cards = read_cards(text, what)
    try:
        return rank_hand(cards, rules)
    except (InvalidCardError, ValueError) as exc:
        raise InputError(f"{what}: {exc}") from None


def _badugi(text: str, what: str) -> BadugiRank:
    cards = read_cards(text, what, most=4)
    try:
        return rank_badugi(cards)
    except ValueError as exc:
        raise InputError(f"{what}: {exc}") from None


@click.group(name="poker")
def poker() -> None:
    """Rank poker hands (high, low, wild cards, house rules) and show odds."""


@poker.command()
@click.argument("hand")
@_rule_options
def rank(hand: str, **opts: Any) -> None:
    """Name HAND (1-9 cards, e.g. "KH KS KD QC QS"; JK for a joker; badugi: 1-4 cards)."""
    rules = _rules(opts)
    if opts["game"] == "badugi":
        b = _badugi(hand, "HAND")
        click.echo(b.name)
        click.echo(f"  cards:    {b.text()}")
        return
    h = _rank(hand, rules, "HAND")
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
    a: HandRank | BadugiRank
    b: HandRank | BadugiRank
    if opts["game"] == "badugi":
        a, b = _badugi(first, "FIRST"), _badugi(second, "SECOND")
        result = compare_badugi(a, b)
    else:
        a, b = _rank(first, rules, "FIRST"), _rank(second, rules, "SECOND")
        result = compare(a, b)
    if result > 0:
        click.echo(f"First wins: {a} beats {b}")
    elif result < 0:
        click.echo(f"Second wins: {b} beats {a}")
    else:
        click.echo(f"Tie: {a} equals {b}")


@poker.command()
@click.option("--decks", type=click.IntRange(min=1), default=1, show_default=True,
              help=f"Number of 52-card decks shuffled together (1 to {MAX_DECKS:,}).")
@click.option("--all-rows", is_flag=True, help="Also show categories impossible here.")
def odds(decks: int, all_rows: bool) -> None:
    """Exact counts and probabilities of five-card hands."""
    try:
        click.echo(odds_table(decks, all_rows=all_rows))
    except ValueError as exc:
        raise InputError(f"--decks: {exc}") from None


@poker.command(name="outs")
@click.argument("hand")
@click.option("--board", default="", help='Community cards so far, e.g. "QH 7H 2C".')
@click.option("--dead", default="", help="Cards seen elsewhere, which cannot come.")
def outs_cmd(hand: str, board: str, dead: str) -> None:
    """List the cards that lift HAND to a better category on the next card, by category."""
    cards = read_cards(hand, "HAND", most=8)
    board_cards = read_cards(board, "--board", most=7) if board.strip() else ()
    dead_cards = read_cards(dead, "--dead", most=52) if dead.strip() else ()
    try:
        click.echo(outs(cards, board=board_cards, dead=dead_cards).text())
    except OutsError as exc:
        raise InputError(str(exc)) from None


def _numbers(values: tuple[str, ...], what: str) -> list[float]:
    out = []
    for item in values:
        for token in item.replace(",", " ").split():
            try:
                out.append(float(token.rstrip("%")))
            except ValueError:
                raise InputError(f"{what}: item {len(out) + 1} is not a number") from None
    return out


@poker.command(name="icm", context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="STACKS --payouts P1 P2 ...")
def icm_cmd(args: tuple[str, ...]) -> None:
    """Prize equity of tournament chip STACKS under the Malmuth-Harville ICM.

    STACKS and the payouts (first place first) are numbers, separated by
    spaces or commas: big2 poker icm 5000 3000 2000 --payouts 50 30 20
    """
    args = tuple(x for a in args
                 for x in (("--payouts", a[10:]) if a.startswith("--payouts=") else (a,)))
    if "--payouts" not in args:
        raise InputError("give the payouts: STACKS --payouts P1 P2 ...")
    if args.count("--payouts") > 1:
        raise InputError("--payouts given twice: list every payout after one --payouts")
    at = args.index("--payouts")
    stacks = _numbers(args[:at], "STACKS")
    payouts = _numbers(args[at + 1:], "--payouts")
    if not stacks:
        raise InputError("STACKS: no stacks")
    if not payouts:
        raise InputError("--payouts: no payouts")
    try:
        values = icm(stacks, payouts)
    except IcmError as exc:
        raise InputError(str(exc)) from None
    total = sum(stacks)
    click.echo(f"{'player':<8}{'stack':>14}{'chips':>9}{'equity':>14}{'of prizes':>11}")
    prizes = sum(payouts)
    for i, (s, v) in enumerate(zip(stacks, values), 1):
        click.echo(f"{i:<8}{s:>14,g}{s / total:>9.2%}{v:>14,.2f}"
                   f"{v / prizes if prizes else 0:>11.2%}")


PROGRESS_FROM = 1_000_000
"""Deals from which ``equity`` shows a progress bar (on a terminal, or with --progress)."""


@poker.command(name="equity")
@click.argument("hands", nargs=-1, required=True)
@click.option("--board", default="", help='Community cards so far, e.g. "2C 7D KH".')
@click.option("--dead", default="", help="Cards out of play.")
@click.option("--game", type=click.Choice(list(GAMES)), default="holdem", show_default=True)
@click.option("--exact", "exact", flag_value=True, default=None,
              help="Enumerate every deal (default: when it is cheap).")
@click.option("--trials", type=click.IntRange(1, 100_000_000), default=None,
              help="Monte Carlo deals (default 200,000 when not exact).")
@click.option("--seed", type=int, default=None, help="Random seed (Monte Carlo).")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: on a terminal, for long runs).")
def equity_cmd(hands: tuple[str, ...], board: str, dead: str, game: str, exact: bool | None,
               trials: int | None, seed: int | None, progress: bool | None) -> None:
    """Win, tie and equity of HANDS: cards ("AS AH") or hold'em ranges ("QQ+, AKs")."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    if exact and trials:
        raise InputError("--exact and --trials exclude each other")
    bar: list[Any] = []

    def report(done: int, total: int) -> None:
        if not bar and total >= PROGRESS_FROM and progress is not False:
            bar.append(tqdm(total=total, unit="deal", unit_scale=True, leave=False,
                            disable=None if progress is None else False))
        if bar:
            bar[0].update(done - bar[0].n)

    try:
        result: EquityResult = equity(list(hands), board=board, dead=dead, game=game,
                                      exact=exact, trials=trials, seed=seed, progress=report)
    except (EquityError, InvalidCardError) as exc:
        raise InputError(str(exc)) from None
    finally:
        if bar:
            bar[0].close()
    click.echo(result.table())
