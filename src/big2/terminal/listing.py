"""The legal plays as a person reads them: labelled and grouped by kind, each
play's cards in the order players lay them out (straights in sequence, a full
house triple first, suits in the rule set's order), wild jokers with the card
they stand for.

>>> from big2 import Game, Rules
>>> g = Game(Rules(), hands=["AS 2D 3D 4C 5H 7D 7C 7H 4D", "8D", "9D", "TD"], leader=0)
>>> groups = group_plays(g)
>>> [(grp.label, len(grp.plays)) for grp in groups]
[('single', 9), ('pair', 4), ('triple', 1), ('straight', 2), ('full house', 1)]
>>> import click
>>> click.unstyle(show(groups[3].plays[0])), click.unstyle(show(groups[4].plays[0]))
('A♠ 2♦ 3♦ 4♦ 5♥', '7♦ 7♣ 7♥ 4♦ 4♣')
>>> g = Game(Rules(jokers="wild"), hands=["7D 8C RJ TS JS", "8D", "9D", "TD"], leader=0)
>>> click.unstyle(show(group_plays(g)[-1].plays[0]))
'7♦ 8♣ RJ=9♠ 10♠ J♠'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from big2.cards import CARD_SYMBOLS, DECK_SIZE, RANKS, Mask, cards_of, is_joker
from big2.game import Game
from big2.rules import Rules
from big2.terminal import render
from big2.terminal.words import kind_word
from big2.variant import Combo, Kind, variant

_RUNS = frozenset({Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.DRAGON, Kind.PAIR_RUN})


class Play:
    """One legal play: its number in the list, its cards, how it reads. The
    jokers' readings and the order of the cards are worked out when first shown."""

    def __init__(self, number: int, combo: Combo, rules: Rules) -> None:
        self.number = number
        self.combo = combo
        self.rules = rules
        self.mask: Mask = combo.cards
        self.label = kind_word(combo.kind)

    @cached_property
    def readings(self) -> dict[int, int]:
        """Each wild joker's card as this play reads it."""
        return joker_readings(self.combo, self.rules)

    @cached_property
    def order(self) -> tuple[int, ...]:
        """The cards in the order shown."""
        return lay_out(self.combo, self.rules, self.readings)


@dataclass(frozen=True)
class Group:
    """The legal plays of one kind, weakest first."""

    label: str
    plays: tuple[Play, ...]


def joker_readings(combo: Combo, rules: Rules) -> dict[int, int]:
    """Which card each wild joker of *combo* stands for: a natural card that,
    put in the joker's place, keeps the play's kind and power (the strongest
    such card). Empty for a joker alone, without wild jokers, or where no
    natural card fits (five of a kind from one deck)."""
    jokers = [c for c in cards_of(combo.cards) if is_joker(c)]
    v = variant(rules)
    if not jokers or combo.size == 1 or not v.deck.wild:
        return {}
    eng = v.engine
    readings_of = getattr(eng, "readings", None)
    if readings_of is None:
        return {}
    target = (combo.kind, combo.power)
    naturals = sorted((c for c in range(52)), key=lambda c: -rules.strength(c))
    mask, out = combo.cards, {}
    for joker in jokers:
        for c in naturals:
            sub = c if not mask >> c & 1 else c + DECK_SIZE
            if mask >> sub & 1 or (sub >= DECK_SIZE and not v.deck.two_decks):
                continue
            trial = mask & ~(1 << joker) | 1 << sub
            if any((r.kind, r.power) == target for r in readings_of(trial)):
                out[joker], mask = c, trial
                break
        else:
            return out
    return out


def lay_out(combo: Combo, rules: Rules, readings: dict[int, int]) -> tuple[int, ...]:
    """*combo*'s cards in the order players lay them out (see the module docstring)."""
    v = variant(rules)
    strength = v.keys.strength
    cards = cards_of(combo.cards)
    eff = [readings.get(c, c % DECK_SIZE) for c in cards]  # a joker as the card it reads as
    rank = [13 if e >= 52 else e >> 2 for e in eff]
    power = [strength[e] for e in eff]
    idx = range(len(cards))
    if combo.kind in _RUNS:
        seq = None
        if combo.size == 5:
            present = {RANKS[r] for r in rank if r < 13}
            seq = next((q for q, _ in v.straight_sequences
                        if present <= set(q)), None)
        if seq is not None:
            place = [seq.index(RANKS[r]) if r < 13 else 5 for r in rank]
            return tuple(cards[i] for i in sorted(idx, key=lambda i: (place[i], power[i])))
        return tuple(cards[i] for i in sorted(idx, key=lambda i: (rank[i], power[i], cards[i])))
    count = Counter(rank)
    return tuple(cards[i] for i in sorted(idx, key=lambda i: (-count[rank[i]], power[i],
                                                              cards[i])))


def describe(game: Game, mask: Mask, combo: Combo | None = None, number: int = 0) -> Play:
    """*mask* as a :class:`Play` (read as played on the table now, unless *combo* is given)."""
    eng = variant(game.rules).engine
    combo = combo or eng.as_played(mask, game.last_combo) or eng.classify(mask)
    if combo is None:
        raise ValueError(f"not a play: {mask:#x}")
    return Play(number, combo, game.rules)


def show(play: Play) -> str:
    """A play's cards, coloured, jokers with their reading."""
    return render.cards(play.order, play.readings)


def group_plays(game: Game) -> list[Group]:
    """The legal plays now (the pass left out), grouped by kind: kinds by size
    then as they rank, plays weakest first, numbered 1… in that order."""
    eng = variant(game.rules).engine
    kind_order = variant(game.rules).keys.kind_order
    last = game.last_combo
    combos: list[Combo] = []
    for mask in game.legal_masks():
        if mask:
            combo = eng.as_played(mask, last) or eng.classify(mask)
            if combo is not None:
                combos.append(combo)

    def kind_key(k: Kind, size: int) -> tuple[int, int]:
        return (size, kind_order.get(k, int(k)) if size == 5 else int(k))

    rules = game.rules
    strength = variant(rules).keys.strength

    def key(c: Combo) -> tuple[object, ...]:  # same power: the weaker cards first
        return (kind_key(c.kind, c.size), c.power,
                tuple(strength[x] for x in lay_out(c, rules, {})))

    combos.sort(key=key)
    groups: list[Group] = []
    current: list[Play] = []
    for i, combo in enumerate(combos):
        current.append(Play(i + 1, combo, rules))
        nxt = combos[i + 1] if i + 1 < len(combos) else None
        if nxt is None or kind_key(nxt.kind, nxt.size) != kind_key(combo.kind, combo.size):
            groups.append(Group(kind_word(combo.kind), tuple(current)))
            current = []
    return groups


def compact(group: Group, room: int) -> tuple[list[Play], int]:
    """The plays of *group* that fit in *room* columns: the weakest few and the
    strongest one; with how many are left out. Widths are reckoned before the
    jokers' readings are worked out (a reading is allowed four columns)."""
    plays = group.plays
    total = 0
    for p in plays:
        total += _width(p) + 2
        if total > room:
            break
    else:
        return list(plays), 0
    shown = [plays[-1]]
    used = _width(plays[-1]) + 12  # the last play and "… +N (m)"
    for p in plays[:-1]:
        used += _width(p) + 2
        if used > room:
            break
        shown.insert(len(shown) - 1, p)
    return shown, len(plays) - len(shown)


def item(play: Play) -> str:
    """One numbered entry of the list: ``12) 3♦ 4♣ 5♥ 6♠ 7♦``."""
    return f"{play.number}) {show(play)}"


def _width(play: Play) -> int:
    """The columns :func:`item` takes at most for *play*."""
    cards = cards_of(play.mask)
    return (len(str(play.number)) + 2 + sum(len(CARD_SYMBOLS[c]) + 1 for c in cards) - 1
            + 4 * sum(1 for c in cards if is_joker(c)))
