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
from dataclasses import dataclass, field

from big2.cards import DECK_SIZE, RANKS, Mask, cards_of, is_joker, rank_of
from big2.game import Game
from big2.rules import Rules
from big2.terminal import render
from big2.variant import Combo, Kind, variant
from big2.variant.kinds import STRAIGHT_SEQUENCES

_RUNS = frozenset({Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.DRAGON, Kind.PAIR_RUN})


@dataclass(frozen=True)
class Play:
    """One legal play: its number in the list, its cards, how it reads."""

    number: int
    mask: Mask
    label: str
    order: tuple[int, ...]
    """The cards in the order shown."""
    readings: dict[int, int] = field(default_factory=dict)
    """Each wild joker's card as this play reads it."""


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
    if not jokers or combo.size == 1 or rules.jokers != "wild":
        return {}
    eng = variant(rules).engine
    readings_of = getattr(eng, "readings", None)
    if readings_of is None:
        return {}
    target = (combo.kind, combo.power)
    naturals = sorted((c for c in range(52)), key=lambda c: -rules.strength(c))
    mask, out = combo.cards, {}
    for joker in jokers:
        for c in naturals:
            sub = c if not mask >> c & 1 else c + DECK_SIZE
            if mask >> sub & 1 or (sub >= DECK_SIZE and rules.decks < 2):
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
    cards = cards_of(combo.cards)

    def eff(c: int) -> int:
        return readings.get(c, c % DECK_SIZE)

    def rank(c: int) -> int:
        return 13 if is_joker(eff(c)) else rank_of(eff(c))

    if combo.kind in _RUNS:
        seq = None
        if combo.size == 5:
            present = {RANKS[rank(c)] for c in cards if rank(c) < 13}
            seq = next((s for s, _ in STRAIGHT_SEQUENCES[rules.straight_order]
                        if present <= set(s)), None)
        if seq is not None:
            return tuple(sorted(cards, key=lambda c: (
                seq.index(RANKS[rank(c)]) if rank(c) < 13 else 5, rules.strength(eff(c)))))
        return tuple(sorted(cards, key=lambda c: (rank(c), rules.strength(eff(c)), c)))
    count = Counter(rank(c) for c in cards)
    return tuple(sorted(cards, key=lambda c: (-count[rank(c)], rules.strength(eff(c)), c)))


def describe(game: Game, mask: Mask, combo: Combo | None = None, number: int = 0) -> Play:
    """*mask* as a :class:`Play` (read as played on the table now, unless *combo* is given)."""
    rules = game.rules
    if combo is None:
        combo = variant(rules).engine.as_played(mask, game.last_combo) \
            or variant(rules).engine.classify(mask)
    if combo is None:
        return Play(number, mask, "not a play", tuple(cards_of(mask)))
    readings = joker_readings(combo, rules)
    return Play(number, mask, combo.kind.label, lay_out(combo, rules, readings), readings)


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

    combos.sort(key=lambda c: (kind_key(c.kind, c.size), c.power, c.cards))
    groups: list[Group] = []
    current: list[Play] = []
    for i, combo in enumerate(combos):
        number = i + 1
        readings = joker_readings(combo, game.rules) if combo.cards >> 52 else {}
        current.append(Play(number, combo.cards, combo.kind.label,
                            lay_out(combo, game.rules, readings), readings))
        nxt = combos[i + 1] if i + 1 < len(combos) else None
        if nxt is None or kind_key(nxt.kind, nxt.size) != kind_key(combo.kind, combo.size):
            groups.append(Group(combo.kind.label, tuple(current)))
            current = []
    return groups


def compact(group: Group, room: int) -> tuple[list[Play], int]:
    """The plays of *group* that fit in *room* columns: the weakest few and the
    strongest one; with how many are left out."""
    plays = list(group.plays)
    if _len(plays) <= room:
        return plays, 0
    shown = [plays[-1]]
    for p in plays[:-1]:
        if _len([*shown, p]) + 12 > room:
            break
        shown.insert(len(shown) - 1, p)
    return shown, len(plays) - len(shown)


def item(play: Play) -> str:
    """One numbered entry of the list: ``12) 3♦ 4♣ 5♥ 6♠ 7♦``."""
    return f"{play.number}) {show(play)}"


def _len(plays: list[Play]) -> int:
    return sum(render.visible(item(p)) + 2 for p in plays)
