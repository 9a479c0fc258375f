"""The rule set: one immutable :class:`Rules` value holding every option.

Every option is declared once in :data:`OPTIONS` (name, default, the values it
may take, and one line of explanation); validation, dict/JSON round trips,
``big2 rules`` and the presets are all driven by that table, so a new house
rule is one more entry there plus the code that plays it.

>>> r = Rules.preset("taiwan")
>>> r.suit_order, r.lowest_card
('CDHS', 1)
>>> Rules.from_dict(r.to_dict()) == r
True
>>> Rules(straight_order="zigzag")
Traceback (most recent call last):
...
big2.rules.InvalidRulesError: straight_order: 'zigzag' is not one of: hk, malaysia, indonesia, pagat, ace-low, ace-top, vietnam
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

from big2.cards import CARD_SYMBOLS, SUITS, Card


class InvalidRulesError(ValueError):
    """An unknown option or a value an option does not take."""


@dataclass(frozen=True, slots=True)
class Option:
    """One declared option: its default, allowed values and a one-line help."""

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


SUIT_ORDERS: Final = ("DCHS", "CDHS", "CDSH", "CSHD")
"""Suit orders, lowest suit first (D ♦, C ♣, H ♥, S ♠)."""
STRAIGHT_ORDERS: Final = ("hk", "malaysia", "indonesia", "pagat", "ace-low", "ace-top", "vietnam")
"""Names of the straight orders (see :mod:`big2.combos` for each sequence)."""
FINISH_RESTRICTIONS: Final = ("single-2", "pair-2", "any-2", "2S")
"""Plays a player may be barred from going out on."""
REDEALS: Final = ("weak", "no-face")
"""Redeal rules: a weak hand may be thrown in; a hand without face cards is redealt."""

OPTIONS: Final[tuple[Option, ...]] = (
    Option("players", 4, None, "number of players (5 to 8 need decks=2)", 2, 8),
    Option("deal", "even", ("even", "13-each"),
           "deal the whole deck evenly (left-over card to the lowest-card holder), or 13 each"),
    Option("suit_order", "DCHS", SUIT_ORDERS,
           "suits low to high: DCHS ♦<♣<♥<♠, CDHS bridge/Taiwan, CDSH, CSHD Hawaii/Pusoy Dos"),
    Option("suit_ranking", True, (True, False),
           "suits break ties; when false, equal ranks cannot beat each other"),
    Option("straight_order", "hk", STRAIGHT_ORDERS,
           "which five-rank sequences are straights and how they rank"),
    Option("flush_order", "ranks", ("ranks", "suit"),
           "flushes compare by ranks (highest first) or by suit first, then ranks"),
    Option("straight_beats_flush", False, (True, False), "a straight ranks above a flush"),
    Option("five_card_compare", "kind", ("kind", "same-kind", "top-card"),
           "five-card plays: higher kind beats lower; 'same-kind' = no poker, "
           "must match the kind; 'top-card' = any five beats one with a lower top card"),
    Option("triples", True, (True, False),
           "three of a kind is a play on its own (false: only inside a full house)"),
    Option("two_pairs", False, (True, False), "two pairs are a four-card play"),
    Option("four_of_a_kind_alone", False, (True, False),
           "four of a kind is a four-card play (beats two pairs)"),
    Option("four_kicker", True, (True, False),
           "four of a kind plus one card is a five-card hand"),
    Option("five_two_pairs", "no", ("no", "any", "sisters"),
           "two pairs plus an odd card as a five-card hand below a straight "
           "('any' butterfly; 'sisters': the pairs must be consecutive)"),
    Option("five_trips", False, (True, False),
           "three of a kind plus two odd cards as a five-card hand below a straight"),
    Option("passing", "jump-back", ("jump-back", "lock-out"),
           "after a pass a player may play again in the trick, or is out of it"),
    Option("later_lead", "lowest-card", ("lowest-card", "winner"),
           "who leads deals after the first: the lowest-card holder, or the last winner"),
    Option("finish_restrictions", (), FINISH_RESTRICTIONS,
           "plays a player may not go out on: single-2, pair-2, any-2, 2S (any play holding 2♠)",
           multi=True),
    Option("scoring", "classic", ("classic", "penalty", "count", "ranking"),
           "classic: pay per card with doublings; penalty: card points to a target, lowest wins; "
           "count: a point a card; ranking: play on, score by finishing order"),
    Option("twos_double", "each", ("each", "once"),
           "classic scoring: each 2 left doubles again, or any 2s double once"),
    Option("count_twos_double", False, (True, False), "count scoring: a 2 left counts two"),
    Option("penalty_target", 100, None, "penalty scoring: the match ends when someone reaches it",
           1, 1_000_000),
    Option("match_deals", 4, None, "deals in a match (0: until the penalty target)", 0, 10_000),
    # -- RULES.md §2 house rules (issue 6); every one is off by default --------
    Option("direction", "counter-clockwise", ("counter-clockwise", "clockwise"),
           "direction of play: counter-clockwise = next seat number (default), clockwise = previous"),
    Option("trick_end", "all-pass", ("all-pass", "one-pass"),
           "a trick ends when every other player has passed, or at the first pass"),
    Option("three_threes", False, (True, False),
           "a lead of three 3s forces the player facing it to play three 2s when that is the only play"),
    Option("bomb_on_small", False, (True, False),
           "four of a kind (with its card, or alone where allowed) and straight flushes may be played "
           "on a single or a pair"),
    Option("four_beats_all", False, (True, False),
           "four of a kind beats every play without one (a higher four beats a lower one)"),
    Option("smack_down", "off", ("off", "2S", "any-2"),
           "four of a kind alone or three or more consecutive pairs beat a single 2♠ (or any single 2); "
           "a higher one of the same shape smacks back"),
    Option("straight_min", 5, None, "shortest straight (3 or 4: shorter straights play on their own "
           "length only; ranks 3..A)", 3, 5),
    Option("straight_max", 5, None, "longest straight (6..12: longer straights play on their own "
           "length only; ranks 3..A)", 5, 12),
    Option("dragon", False, (True, False),
           "the dragon, 3 to 2 in one 13-card play, may be led and beats everything (suit of the 2 breaks ties)"),
    Option("redeal", (), REDEALS,
           "weak: a hand worth 3 points or less (J1 Q2 K3 A4 2=5) may be thrown in before play "
           "(Game.throw_in); no-face: a deal with a hand without J, Q, K is redealt", multi=True),
    Option("four_twos", "play", ("play", "redeal", "win", "draw"),
           "a hand dealt all four 2s: is played, forces a redeal, wins at once, or ends the deal unscored"),
    Option("maltese", False, (True, False),
           "Maltese dragon: six pairs and a single win at once (with a pair of 3s they lose at once)"),
    Option("last_card", False, (True, False),
           "a player down to one card must announce it (Game.call_last_card); "
           "going out without having announced pays the others instead"),
    Option("assist_penalty", False, (True, False),
           "a player whose single the next player beat to go out, holding a single that card could "
           "not beat, pays for all the losers"),
    Option("spare_to", "lowest", ("lowest", "highest", "aside"),
           "deal 'even' with a card left over (3 players): it goes to the lowest card's holder, "
           "the 2♠ (highest card's) holder, or lies face up in the middle"),
    Option("spare_swap", False, (True, False),
           "with spare_to=aside: the lowest card's holder may swap that card for the spare "
           "before play (Game.swap_spare)"),
    Option("go_fish", False, (True, False),
           "Go-Fish: a player who passes draws the top card of the undealt stock (deal 13-each, "
           "or a spare set aside); views show only the stock's size"),
    Option("exchange", "off", ("off", "before", "after"),
           "President form (matches): finishing titles, and before each later deal Scum gives "
           "President its 2 best cards and Vice-Scum gives Vice-President its best; the receivers "
           "give back cards of their choice from the hand as dealt (before) or after receiving (after)"),
    Option("teams", False, (True, False),
           "4 players: partners sit opposite; when someone goes out the team with fewer cards left "
           "wins (by the difference); a tie goes to a five-card shoot-out"),
    Option("decks", 1, None, "decks shuffled together: 2 for 5 to 8 players (copies of a card "
           "are equal; of two 3♦ holders the first from the dealer's left leads)", 1, 2),
    Option("jokers", "none", ("none", "wild", "valueless"),
           "two jokers per deck: wild (any card; alone, above 2♠, black over red) or valueless "
           "(a single that beats any single and that any single beats)"),
    Option("five_of_a_kind", "off", ("off", "below-straight-flush", "above-straight-flush"),
           "five cards of one rank (two decks or wild jokers) as a five-card hand above four of "
           "a kind, below or above a straight flush"),
    Option("play_equal", False, (True, False),
           "a play equal to the last one (such as 3♦ on the other 3♦) may follow it"),
)
"""Every option, in the order ``big2 rules`` lists them."""

_BY_NAME: Final = {o.name: o for o in OPTIONS}

_ONE_DECK_ONLY: Final[dict[str, Any]] = {"maltese": False, "four_twos": "play", "go_fish": False,
                                         "spare_swap": False}
"""Options defined for one 52-card deck only (instant hands by the deck's four 2s or six
pairs, Go-Fish's stock and the spare swap); with jokers or two decks they must stay off."""

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
}
"""Named rule sets: options over the defaults. A preset is only data."""


@dataclass(frozen=True, slots=True)
class Rules:
    """An immutable, validated rule set. Construct with keywords or a preset.

    ``Rules()`` is the default game (RULES.md §1). Every field is an option
    of :data:`OPTIONS`; a bad value raises :class:`InvalidRulesError` listing
    the valid ones.
    """

    players: int = 4
    deal: str = "even"
    suit_order: str = "DCHS"
    suit_ranking: bool = True
    straight_order: str = "hk"
    flush_order: str = "ranks"
    straight_beats_flush: bool = False
    five_card_compare: str = "kind"
    triples: bool = True
    two_pairs: bool = False
    four_of_a_kind_alone: bool = False
    four_kicker: bool = True
    five_two_pairs: str = "no"
    five_trips: bool = False
    passing: str = "jump-back"
    later_lead: str = "lowest-card"
    finish_restrictions: tuple[str, ...] = ()
    scoring: str = "classic"
    twos_double: str = "each"
    count_twos_double: bool = False
    penalty_target: int = 100
    match_deals: int = 4
    direction: str = "counter-clockwise"
    trick_end: str = "all-pass"
    three_threes: bool = False
    bomb_on_small: bool = False
    four_beats_all: bool = False
    smack_down: str = "off"
    straight_min: int = 5
    straight_max: int = 5
    dragon: bool = False
    redeal: tuple[str, ...] = ()
    four_twos: str = "play"
    maltese: bool = False
    last_card: bool = False
    assist_penalty: bool = False
    spare_to: str = "lowest"
    spare_swap: bool = False
    go_fish: bool = False
    exchange: str = "off"
    teams: bool = False
    decks: int = 1
    jokers: str = "none"
    five_of_a_kind: str = "off"
    play_equal: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = _BY_NAME[f.name].check(getattr(self, f.name))
            object.__setattr__(self, f.name, value)
        if self.players > 4 and self.decks == 1:
            raise InvalidRulesError(f"players: {self.players} players need decks=2 "
                                    "(one deck is for 2 to 4)")
        if self.five_of_a_kind != "off" and self.decks == 1 and self.jokers != "wild":
            raise InvalidRulesError("five_of_a_kind: needs decks=2 or jokers=wild "
                                    "(one deck has four cards of a rank)")
        if self.extended_deck:
            for name, default in _ONE_DECK_ONLY.items():
                if getattr(self, name) != default:
                    raise InvalidRulesError(
                        f"{name}: not available with decks=2 or jokers (it is about one "
                        f"52-card deck; see docs/house-rules.md)")

    @property
    def extended_deck(self) -> bool:
        """Whether the cards go beyond one 52-card deck (jokers or two decks)."""
        return self.decks != 1 or self.jokers != "none"

    # -- construction ------------------------------------------------------

    @classmethod
    def presets(cls) -> list[str]:
        """Names of the presets."""
        return list(PRESETS)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset *name* (case-insensitive), with *overrides* applied."""
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
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
        unknown = [k for k in data if k not in _BY_NAME]
        if unknown:
            raise InvalidRulesError(
                f"unknown option {unknown[0]!r}; options: {', '.join(_BY_NAME)}"
            )
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
        unknown = [k for k in changes if k not in _BY_NAME]
        if unknown:
            raise InvalidRulesError(
                f"unknown option {unknown[0]!r}; options: {', '.join(_BY_NAME)}"
            )
        return replace(self, **changes)

    # -- derived facts -----------------------------------------------------

    @property
    def suit_rank(self) -> tuple[int, int, int, int]:
        """Strength position (0 lowest) of each suit number (♦, ♣, ♥, ♠)."""
        return tuple(self.suit_order.index(s) for s in SUITS)  # type: ignore[return-value]

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
        out.append((o.name, f"{values} (default {str(default).lower() if isinstance(default, bool) else default or '-'})", o.help))
    return out


def lowest_symbol(rules: Rules) -> str:
    """Display name of the lowest card under *rules* (``'3♦'`` by default)."""
    return CARD_SYMBOLS[rules.lowest_card]
