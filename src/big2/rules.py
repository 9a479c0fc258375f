"""The rule set: one immutable :class:`Rules` value holding every option.

Every option is declared once, as a field of :class:`Rules`: its type says
which values it takes (a ``Literal`` alias such as :data:`Scoring`, so mypy
refuses ``rules.scoring == "clasic"``; or ``bool``, ``int``, or a tuple of a
``Literal`` for the two multi-valued options), and :func:`option` holds its
default and one line of help. The option table :data:`OPTIONS` is derived from
those fields and drives validation, dict/JSON round trips, ``big2 rules`` and
the server's option form, so a new house rule is one more field plus the code
that plays it.

>>> r = Rules.preset("taiwan")
>>> r.suit_order, r.lowest_card
('CDHS', 1)
>>> Rules.from_dict(r.to_dict()) == r
True

The table entry of an option is read off its field:

>>> scoring = next(o for o in OPTIONS if o.name == "scoring")
>>> scoring.default, scoring.choices == get_args(Scoring)
('classic', True)
>>> Rules(straight_order="zigzag")
Traceback (most recent call last):
...
big2.rules.InvalidRulesError: straight_order: 'zigzag' is not one of: hk, malaysia, indonesia, pagat, ace-low, ace-top, vietnam

Options that cannot be combined are refused when the rule set is made:

>>> Rules(spare_swap=True)
Traceback (most recent call last):
...
big2.rules.InvalidRulesError: spare_swap: needs spare_to=aside (the swap is for the spare card lying face up)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import Field, asdict, dataclass, field, fields, replace
from typing import Any, Final, Literal, TypeVar, get_args, get_origin, get_type_hints

from big2.cards import CARD_SYMBOLS, SUITS, Card
from big2.presets import PRESET_ALIASES, PRESETS

# -- the values of each option -------------------------------------------------

Deal = Literal["even", "13-each"]
"""Deal the whole deck evenly, or 13 cards each."""
SuitOrder = Literal["DCHS", "CDHS", "CDSH", "CSHD"]
"""Suit orders, lowest suit first (D ♦, C ♣, H ♥, S ♠)."""
StraightOrder = Literal["hk", "malaysia", "indonesia", "pagat", "ace-low", "ace-top", "vietnam"]
"""Names of the straight orders (see :mod:`big2.combos` for each sequence)."""
FlushOrder = Literal["ranks", "suit", "top-card"]
"""Flushes compare by ranks, by suit first, or by their top card alone."""
FiveCardCompare = Literal["kind", "same-kind", "top-card"]
"""How five-card plays compare."""
FiveTwoPairs = Literal["no", "any", "sisters"]
"""Two pairs plus an odd card as a five-card hand: no, any pairs, consecutive pairs."""
Passing = Literal["jump-back", "lock-out"]
"""Whether a player who passed may play again in the trick."""
LaterLead = Literal["lowest-card", "winner"]
"""Who leads the deals after the first."""
Opening = Literal["contains", "alone"]
"""The deal's first play: any play containing the lowest card dealt, or that card alone."""
FinishRestriction = Literal["single-2", "pair-2", "any-2", "2S"]
"""Plays a player may be barred from going out on."""
Scoring = Literal["classic", "penalty", "count", "ranking"]
"""The four scoring methods."""
TwosDouble = Literal["each", "once"]
"""Classic scoring: each 2 left doubles, or any 2s double once."""
Direction = Literal["counter-clockwise", "clockwise"]
"""Direction of play."""
TrickEnd = Literal["all-pass", "one-pass"]
"""When a trick ends."""
SmackDown = Literal["off", "2S", "any-2"]
"""Which single 2 a smack-down beats."""
Redeal = Literal["weak", "no-face"]
"""Redeal rules: a weak hand may be thrown in; a hand without face cards is redealt."""
FourTwos = Literal["play", "redeal", "win", "draw"]
"""What a hand dealt all four 2s does."""
SpareTo = Literal["lowest", "highest", "aside"]
"""Where the card left over by an even deal goes."""
Exchange = Literal["off", "before", "after"]
"""President form: no exchange, or the receivers give back from the hand as dealt or after."""
Jokers = Literal["none", "wild", "valueless"]
"""Two jokers per deck, and what they are."""
FiveOfAKind = Literal["off", "below-straight-flush", "above-straight-flush"]
"""Five cards of one rank as a five-card hand, and where it ranks."""

SUIT_ORDERS: Final[tuple[SuitOrder, ...]] = get_args(SuitOrder)
"""Suit orders, lowest suit first (D ♦, C ♣, H ♥, S ♠)."""
STRAIGHT_ORDERS: Final[tuple[StraightOrder, ...]] = get_args(StraightOrder)
"""Names of the straight orders (see :mod:`big2.combos` for each sequence)."""
FINISH_RESTRICTIONS: Final[tuple[FinishRestriction, ...]] = get_args(FinishRestriction)
"""Plays a player may be barred from going out on."""
REDEALS: Final[tuple[Redeal, ...]] = get_args(Redeal)
"""Redeal rules: a weak hand may be thrown in; a hand without face cards is redealt."""


class InvalidRulesError(ValueError):
    """An unknown option, a value an option does not take, or options that
    cannot be combined."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option's table entry: its default, allowed values and a one-line help."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None
    help: str
    minimum: int | None = None
    maximum: int | None = None
    multi: bool = False  # a tuple of distinct choices

    def check(self, value: Any) -> Any:
        """Return *value* normalised, or raise :class:`InvalidRulesError`."""
        if self.multi:
            if isinstance(value, str):
                value = [v for v in value.replace(",", " ").split() if v]
            if not isinstance(value, (list, tuple, set, frozenset)):
                raise InvalidRulesError(f"{self.name}: expected a list of values, got {value!r}")
            assert self.choices is not None
            for v in value:
                if v not in self.choices:
                    raise InvalidRulesError(
                        f"{self.name}: {v!r} is not one of: {', '.join(map(str, self.choices))}"
                    )
            return tuple(c for c in self.choices if c in set(value))
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise InvalidRulesError(f"{self.name}: expected true or false, got {value!r}")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidRulesError(f"{self.name}: expected a whole number, got {value!r}")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise InvalidRulesError(
                    f"{self.name}: {value} is outside {self.minimum}..{self.maximum}"
                )
            return value
        if value is False and self.choices is not None:
            # "off"/"no" read as false by a command line: take the choice meaning it
            value = next((c for c in ("off", "no") if c in self.choices), value)
        if self.choices is not None and value not in self.choices:
            raise InvalidRulesError(
                f"{self.name}: {value!r} is not one of: {', '.join(map(str, self.choices))}"
            )
        return value


T = TypeVar("T")


def option(default: T, help: str, *, minimum: int | None = None,
           maximum: int | None = None) -> T:
    """Declare a :class:`Rules` field: its *default*, one line of *help* and,
    for a whole number, its range (the values of any other option come from
    the field's type)."""
    return field(default=default, metadata={"help": help, "minimum": minimum, "maximum": maximum})


@functools.cache
def _suit_rank(suit_order: str) -> tuple[int, int, int, int]:
    """Strength position of each suit number under *suit_order* (cached: card
    strength asks for it once a card)."""
    return tuple(suit_order.index(s) for s in SUITS)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Rules:
    """An immutable, validated rule set. Construct with keywords or a preset.

    ``Rules()`` is the default game (RULES.md §1). Each field is one option,
    declared once (type, default, help); a bad value raises
    :class:`InvalidRulesError` listing the valid ones, and so do options that
    cannot be combined, with the reason.
    """

    players: int = option(4, "number of players (5 to 8 need decks=2)", minimum=2, maximum=8)
    deal: Deal = option("even", "deal the whole deck evenly (left-over card to the lowest-card "
        "holder), or 13 each")
    suit_order: SuitOrder = option("DCHS", "suits low to high: DCHS ♦<♣<♥<♠, CDHS bridge/Taiwan, "
        "CDSH, CSHD Hawaii/Pusoy Dos")
    suit_ranking: bool = option(True, "suits break ties; when false, equal ranks cannot beat each "
        "other")
    straight_order: StraightOrder = option("hk", "which five-rank sequences are straights and how "
        "they rank")
    flush_order: FlushOrder = option("ranks", "flushes compare by ranks (highest first), by suit "
        "first, then ranks, or by the top card alone (its rank, then its suit; the other four "
        "cards never count)")
    straight_beats_flush: bool = option(False, "a straight ranks above a flush")
    five_card_compare: FiveCardCompare = option("kind", "five-card plays: higher kind beats lower; "
        "'same-kind' = no poker, must match the kind; 'top-card' = any five beats one with a lower "
        "top card")
    triples: bool = option(True, "three of a kind is a play on its own (false: only inside a full "
        "house)")
    two_pairs: bool = option(False, "two pairs are a four-card play")
    four_of_a_kind_alone: bool = option(False, "four of a kind is a four-card play (beats two "
        "pairs)")
    four_kicker: bool = option(True, "four of a kind plus one card is a five-card hand")
    five_two_pairs: FiveTwoPairs = option("no", "two pairs plus an odd card as a five-card hand "
        "below a straight ('any' butterfly; 'sisters': the pairs must be consecutive)")
    five_trips: bool = option(False, "three of a kind plus two odd cards as a five-card hand below "
        "a straight")
    passing: Passing = option("jump-back", "after a pass a player may play again in the trick, or "
        "is out of it")
    later_lead: LaterLead = option("lowest-card", "who leads deals after the first: the "
        "lowest-card holder, or the last winner")
    opening: Opening = option("contains", "the first play of a deal (led by the lowest card's "
        "holder) must contain the lowest card dealt, or be that card alone, as a single")
    finish_restrictions: tuple[FinishRestriction, ...] = option((), "plays a player may not go out "
        "on: single-2, pair-2, any-2, 2S (any play holding 2♠)")
    scoring: Scoring = option("classic", "classic: pay per card with doublings; penalty: card "
        "points to a target, lowest wins; count: a point a card; ranking: play on, score by "
        "finishing order")
    twos_double: TwosDouble = option("each", "classic scoring: each 2 left doubles again, or any "
        "2s double once")
    count_twos_double: bool = option(False, "count scoring: a 2 left counts two")
    penalty_target: int = option(100, "penalty scoring: the match ends when someone reaches it",
                                 minimum=1, maximum=1_000_000)
    match_deals: int = option(4, "deals in a match (0: until the penalty target)", minimum=0,
                              maximum=10_000)
    # -- RULES.md §2 house rules (issue 6); every one is off by default --------
    direction: Direction = option("counter-clockwise", "direction of play: counter-clockwise = "
        "next seat number (default), clockwise = previous")
    trick_end: TrickEnd = option("all-pass", "a trick ends when every other player has passed, or "
        "at the first pass")
    three_threes: bool = option(False, "a lead of three 3s forces the player facing it to play "
        "three 2s when that is the only play")
    bomb_on_small: bool = option(False, "four of a kind (with its card, or alone where allowed) "
        "and straight flushes may be played on a single or a pair")
    four_beats_all: bool = option(False, "four of a kind beats every play without one (a higher "
        "four beats a lower one)")
    smack_down: SmackDown = option("off", "four of a kind alone or three or more consecutive pairs "
        "beat a single 2♠ (or any single 2); a higher one of the same shape smacks back")
    straight_min: int = option(5, "shortest straight (3 or 4: shorter straights play on their own "
        "length only; ranks 3..A)", minimum=3, maximum=5)
    straight_max: int = option(5, "longest straight (6..12: longer straights play on their own "
        "length only; ranks 3..A)", minimum=5, maximum=12)
    dragon: bool = option(False, "the dragon, 3 to 2 in one 13-card play, may be led and beats "
        "everything (suit of the 2 breaks ties)")
    redeal: tuple[Redeal, ...] = option((), "weak: a hand worth 3 points or less (J1 Q2 K3 A4 2=5) "
        "may be thrown in before play (Game.throw_in); no-face: a deal with a hand without J, Q, K "
        "is redealt")
    four_twos: FourTwos = option("play", "a hand dealt all four 2s: is played, forces a redeal, "
        "wins at once, or ends the deal unscored")
    maltese: bool = option(False, "Maltese dragon: six pairs and a single win at once (with a pair "
        "of 3s they lose at once)")
    last_card: bool = option(False, "a player down to one card must announce it "
        "(Game.call_last_card); going out without having announced pays the others instead")
    assist_penalty: bool = option(False, "a player whose single the next player beat to go out, "
        "holding a single that card could not beat, pays for all the losers")
    spare_to: SpareTo = option("lowest", "deal 'even' with a card left over (3 players): it goes "
        "to the lowest card's holder, the 2♠ (highest card's) holder, or lies face up in the "
        "middle")
    spare_swap: bool = option(False, "with spare_to=aside: the lowest card's holder may swap that "
        "card for the spare before play (Game.swap_spare)")
    go_fish: bool = option(False, "Go-Fish: a player who passes draws the top card of the undealt "
        "stock (deal 13-each, or a spare set aside); views show only the stock's size")
    exchange: Exchange = option("off", "President form (matches): finishing titles, and before "
        "each later deal Scum gives President its 2 best cards and Vice-Scum gives Vice-President "
        "its best; the receivers give back cards of their choice from the hand as dealt (before) "
        "or after receiving (after)")
    teams: bool = option(False, "4 players: partners sit opposite; when someone goes out the team "
        "with fewer cards left wins (by the difference); a tie goes to a five-card shoot-out")
    decks: int = option(1, "decks shuffled together: 2 for 5 to 8 players (copies of a card are "
        "equal; of two 3♦ holders the first from the dealer's left leads)", minimum=1, maximum=2)
    jokers: Jokers = option("none", "two jokers per deck: wild (any card; alone, above 2♠, black "
        "over red) or valueless (a single that beats any single and that any single beats)")
    five_of_a_kind: FiveOfAKind = option("off", "five cards of one rank (two decks or wild jokers) "
        "as a five-card hand above four of a kind, below or above a straight flush")
    play_equal: bool = option(False, "a play equal to the last one (such as 3♦ on the other 3♦) "
        "may follow it")

    def __post_init__(self) -> None:
        for f in fields(self):
            value = _BY_NAME[f.name].check(getattr(self, f.name))
            object.__setattr__(self, f.name, value)
        for name, refused, reason in _CONFLICTS:
            if refused(self):
                raise InvalidRulesError(f"{name}: {reason.format(r=self)}")

    @property
    def extended_deck(self) -> bool:
        """Whether the cards go beyond one 52-card deck (jokers or two decks)."""
        return self.decks != 1 or self.jokers != "none"

    # -- construction ------------------------------------------------------

    @classmethod
    def presets(cls) -> list[str]:
        """Names of the presets (aliases such as ``vietnam`` not included)."""
        return list(PRESETS)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset *name* (case-insensitive, or an alias of
        :data:`PRESET_ALIASES`), with *overrides* applied."""
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        key = PRESET_ALIASES.get(key, key)
        if key not in PRESETS:
            raise InvalidRulesError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        return cls.from_dict({**PRESETS[key], **overrides})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build from a plain dict; a ``"preset"`` key names the starting preset."""
        if not isinstance(data, dict):
            raise InvalidRulesError(f"rules must be a mapping, got {type(data).__name__}")
        data = dict(data)
        base: dict[str, Any] = {}
        if "preset" in data:
            preset = data.pop("preset")
            if not isinstance(preset, str):
                raise InvalidRulesError(f"preset: expected a name, got {preset!r}")
            base = dict(cls.preset(preset).to_dict())
        _check_names(data)
        return cls(**{**base, **data})

    @classmethod
    def from_json(cls, text: str) -> Rules:
        """Build from JSON text (an object of options, optionally with ``preset``)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRulesError(f"rules JSON: {exc}") from None
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """Every option as a plain, JSON-friendly dict."""
        d = asdict(self)
        for o in OPTIONS:
            if o.multi:
                d[o.name] = list(d[o.name])
        return d

    def diff(self) -> dict[str, Any]:
        """Only the options that differ from the default game."""
        default = Rules().to_dict()
        return {k: v for k, v in self.to_dict().items() if default[k] != v}

    def to_json(self) -> str:
        """JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(), sort_keys=False)

    def replace(self, **changes: Any) -> Rules:
        """A copy with *changes* applied (validated)."""
        _check_names(changes)
        return replace(self, **changes)

    # -- derived facts -----------------------------------------------------

    @property
    def suit_rank(self) -> tuple[int, int, int, int]:
        """Strength position (0 lowest) of each suit number (♦, ♣, ♥, ♠)."""
        return _suit_rank(self.suit_order)

    @property
    def lowest_card(self) -> Card:
        """The lowest card of the deck: the 3 of the lowest suit."""
        return SUITS.index(self.suit_order[0])

    def strength(self, card: Card) -> int:
        """A card's strength under these rules: rank first, suit breaks ties
        (a joker: above every card, black over red)."""
        card %= 54
        if card >= 52:
            return card
        return (card >> 2) * 4 + self.suit_rank[card & 3]

    @property
    def name(self) -> str:
        """The preset these rules equal, or ``'custom'``."""
        for name in PRESETS:
            if Rules.preset(name) == self:
                return name
        return "custom"

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.diff().items())
        return f"Rules({changed})"


def _table_entry(f: Field[Any], hint: Any) -> Option:
    """The :class:`Option` read off one field of :class:`Rules` and its type."""
    multi = get_origin(hint) is tuple
    if multi:
        hint = get_args(hint)[0]
    choices = (get_args(hint) if get_origin(hint) is Literal
               else (True, False) if hint is bool else None)
    meta = f.metadata
    return Option(f.name, f.default, choices, meta["help"], meta["minimum"], meta["maximum"],
                  multi)


_HINTS: Final = get_type_hints(Rules)
OPTIONS: Final[tuple[Option, ...]] = tuple(_table_entry(f, _HINTS[f.name]) for f in fields(Rules))
"""Every option, in the order ``big2 rules`` lists them (derived from the fields of
:class:`Rules`)."""

_BY_NAME: Final = {o.name: o for o in OPTIONS}


def _check_names(options: dict[str, Any]) -> None:
    unknown = [k for k in options if k not in _BY_NAME]
    if unknown:
        raise InvalidRulesError(f"unknown option {unknown[0]!r}; options: {', '.join(_BY_NAME)}")


_ONE_DECK_ONLY: Final[dict[str, Any]] = {"maltese": False, "four_twos": "play", "go_fish": False,
                                         "spare_swap": False}
"""Options defined for one 52-card deck only (instant hands by the deck's four 2s or six
pairs, Go-Fish's stock and the spare swap); with jokers or two decks they must stay off."""

_CONFLICTS: Final[tuple[tuple[str, Callable[[Rules], bool], str], ...]] = (
    ("players", lambda r: r.players > 4 and r.decks == 1,
     "{r.players} players need decks=2 (one deck is for 2 to 4)"),
    ("five_of_a_kind", lambda r: r.five_of_a_kind != "off" and r.decks == 1 and r.jokers != "wild",
     "needs decks=2 or jokers=wild (one deck has four cards of a rank)"),
    *((name, lambda r, name=name, off=off: r.extended_deck and getattr(r, name) != off,
       ("not available with decks=2 or jokers (it is about one 52-card deck; "
       "see docs/house-rules.md)")) for name, off in _ONE_DECK_ONLY.items()),
    # RULES.md §2: options that would be silently ignored together are refused
    ("teams", lambda r: r.teams and r.players != 4,
     "needs players=4 (partners sit opposite)"),
    ("three_threes", lambda r: r.three_threes and not r.triples,
     "needs triples=true (a lead of three 3s is a triple)"),
    ("flush_order", lambda r: r.flush_order == "suit" and not r.suit_ranking,
     "'suit' needs suit_ranking=true (without it suits never decide)"),
    ("passing", lambda r: r.passing == "lock-out" and r.trick_end == "one-pass",
     "lock-out needs trick_end=all-pass (with one-pass the trick ends at the first pass)"),
    ("twos_double", lambda r: r.twos_double != "each" and r.scoring != "classic",
     "'{r.twos_double}' needs scoring=classic (no other scoring doubles)"),
    ("count_twos_double", lambda r: r.count_twos_double and r.scoring != "count",
     "needs scoring=count"),
    ("penalty_target", lambda r: r.penalty_target != _BY_NAME["penalty_target"].default
     and r.scoring != "penalty",
     "needs scoring=penalty (only penalty scoring plays to a target)"),
    ("spare_to", lambda r: r.spare_to != "lowest" and r.deal == "13-each",
     "'{r.spare_to}' needs deal=even (a 13-each deal leaves no spare card)"),
    ("spare_swap", lambda r: r.spare_swap and r.spare_to != "aside",
     "needs spare_to=aside (the swap is for the spare card lying face up)"),
    ("spare_swap", lambda r: r.spare_swap and r.go_fish,
     "not with go_fish (the card set aside is then the Go-Fish stock)"),
    ("go_fish", lambda r: r.go_fish and r.deal == "even"
     and not (r.players == 3 and r.spare_to == "aside"),
     "needs a stock to draw from: deal=13-each, or 3 players with spare_to=aside"),
)
"""Mixes of options refused when a rule set is made (RULES.md §2): the option
named, the test, and the reason (formatted with the rules as ``r``)."""

def describe_options() -> list[tuple[str, str, str]]:
    """``(name, default and choices, help)`` for every option, for ``big2 rules``."""
    out = []
    for o in OPTIONS:
        if o.multi:
            values = f"none of / any of: {', '.join(map(str, o.choices or ()))}"
        elif isinstance(o.default, bool):
            values = "true|false"
        elif o.choices:
            values = "|".join(map(str, o.choices))
        else:
            values = f"{o.minimum}..{o.maximum}"
        default = ",".join(o.default) if o.multi else o.default
        shown = str(default).lower() if isinstance(default, bool) else default or "-"
        out.append((o.name, f"{values} (default {shown})", o.help))
    return out


def lowest_symbol(rules: Rules) -> str:
    """Display name of the lowest card under *rules* (``'3♦'`` by default)."""
    return CARD_SYMBOLS[rules.lowest_card]


__all__ = [
    "FINISH_RESTRICTIONS", "OPTIONS", "PRESETS", "PRESET_ALIASES", "REDEALS", "STRAIGHT_ORDERS",
    "SUIT_ORDERS", "Deal", "Direction", "Exchange", "FinishRestriction", "FiveCardCompare",
    "FiveOfAKind", "FiveTwoPairs", "FlushOrder", "FourTwos", "InvalidRulesError", "Jokers",
    "LaterLead", "Opening", "Option", "Passing", "Redeal", "Rules", "Scoring", "SmackDown",
    "SpareTo", "StraightOrder", "SuitOrder", "TrickEnd", "TwosDouble", "describe_options",
    "lowest_symbol", "option",
]
