"""Hand planning for the heuristic bot and the searches.

A hand is planned as a *partition* into combinations: the fewest plays to go
out, with weak cards tucked into multi-card plays and control cards (2s,
unbeatable plays) kept. :func:`plan` finds a cheap partition by choosing
disjoint plays that span several ranks, of every kind the rule set allows
(five-card hands, two pairs as a four-card play, long straights…), and
grouping what is left by rank; its :attr:`Plan.cost` is roughly "plays still
needed", a low single costing more than a 2. With ``all_kinds=False`` it is
the first heuristic's planner (five-card hands, then ranks).

:func:`heuristic_play` is the heuristic bot's whole decision as a function of
plain values, so the searches can use it to play out sampled deals fast;
its :class:`Style` holds the switches and thresholds (:data:`V1`: the first
version's play).

>>> from big2 import Rules
>>> from big2.cards import parse_cards, CardSet
>>> from big2.combos import engine
>>> two = engine(Rules(two_pairs=True))
>>> [str(CardSet(m)) for m in plan(two, int(parse_cards("5D 5C 8H 8S KD"))).combos]
['5♦ 5♣ 8♥ 8♠', 'K♦']
>>> p = plan(engine(Rules()), int(parse_cards("3D 4C 5H 6S 7D 9C 9D KH KS KC 2S")))
>>> [str(CardSet(m)) for m in p.combos]
['3♦ 4♣ 5♥ 6♠ 7♦', '9♦ 9♣ K♣ K♥ K♠', '2♠']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from big2.bots.rules_based.control import beaten_by_unseen, way_out
from big2.cards import BB_RANKS, BB_SUITS, TWO, Mask
from big2.variant import Engine, Kind, variant

# cost weights: a play costs 1, plus a liability for how weak it is
_W_SINGLE = 0.7
_W_PAIR = 0.45
_W_TRIPLE = 0.3
_W_FIVE = 0.25
_W_FOUR = 0.35  # two pairs as one four-card play
_TWO_BONUS = 0.45
_MAX_NODES = 600
_LEAD_BONUS = {1: 0.0, 2: 0.5, 3: 0.6, 4: 0.7, 5: 1.3}


@dataclass(frozen=True)
class Style:
    """How the heuristic plays: the planner's switches and its passing thresholds.

    The defaults are today's bot; :data:`V1` is the first heuristic's play.

    Attributes:
        all_kinds: plan with every play the rule set allows (two pairs as a
            four-card play, long and short straights…); off: by rank and
            five-card hands only.
        go_out: play the whole hand when it is one legal play, and start a
            run of plays nobody can beat that ends the hand
            (:func:`big2.bots.rules_based.control.way_out`).
        hold_two_above: on a single, hold a planned 2 back while every
            opponent holds more than this many cards…
        hold_two_plays: …and the plan still needs more than this many plays.
        break_limit: follow with a play outside the plan when it raises the
            plan's cost by at most this much…
        break_limit_danger: …or by this much when an opponent is close to out.
        low_cards: an opponent with at most this many cards counts as close
            to out for the break limit (besides the first heuristic's rule:
            at most ``max(2, cards on the table)`` and at most five).
    """

    all_kinds: bool = True
    go_out: bool = True
    hold_two_above: int = 6
    hold_two_plays: int = 4
    break_limit: float = 1.2
    break_limit_danger: float = 3.0
    low_cards: int = 4

    @classmethod
    def from_options(cls, base: Style, options: dict[str, Any]) -> Style:
        """*base* with the options named like a field replaced (the rest ignored)."""
        names = {f.name: f.type for f in fields(cls)}
        changes = {k: v for k, v in options.items() if k in names}
        return cls(**{**{f.name: getattr(base, f.name) for f in fields(cls)}, **changes})


V1 = Style(all_kinds=False, go_out=False, low_cards=0)
"""The first heuristic (``heuristic-v1``): ranks and five-card hands only, no
going out on a run."""
DEFAULT_STYLE = Style()


class Plan(NamedTuple):
    """A partition of a hand into plays, weakest-cost first, with its cost."""

    combos: tuple[Mask, ...]
    cost: float


class _Tables:
    """Per-engine tables: cost and plays of each rank's leftover cards."""

    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        four_alone = eng.compare.four_alone
        triples = Kind.TRIPLE in variant(eng.rules).kinds
        self.rank_cost: list[list[float]] = []
        self.rank_plays: list[list[tuple[Mask, ...]]] = []
        for r in range(13):
            costs: list[float] = []
            plays: list[tuple[Mask, ...]] = []
            weak = 1.0 - r / 12
            for nib in range(16):
                cards = [1 << (4 * r + s) for s in sorted(range(4), key=lambda s: eng.suit_rank[s])
                         if nib >> s & 1]
                groups: list[Mask] = []
                n = len(cards)
                if n == 4 and four_alone:
                    groups = [sum(cards)]
                elif n == 4:
                    groups = [cards[0] | cards[1], cards[2] | cards[3]]
                elif n == 3 and triples:
                    groups = [sum(cards)]
                elif n == 3:
                    groups = [cards[0], cards[1] | cards[2]]
                elif n == 2:
                    groups = [cards[0] | cards[1]]
                elif n == 1:
                    groups = [cards[0]]
                cost = 0.0
                for g in groups:
                    size = g.bit_count()
                    if size == 1:
                        cost += 1 + _W_SINGLE * weak - (_TWO_BONUS if r == TWO else 0)
                    elif size == 2:
                        cost += 1 + _W_PAIR * weak - (_TWO_BONUS if r == TWO else 0)
                    elif size == 3:
                        cost += 1 + _W_TRIPLE * weak
                    else:
                        cost += 0.8
                costs.append(cost)
                plays.append(tuple(groups))
            self.rank_cost.append(costs)
            self.rank_plays.append(plays)
        n_kinds = max(1, len(eng.five_kinds) - 1)
        self.kind_index = {k: i / n_kinds for i, k in enumerate(eng.five_kinds)}
        self.cache: dict[Mask, Plan] = {}
        self.cache_all: dict[Mask, Plan] = {}

    def five_cost(self, mask: Mask) -> float:
        combo = self.eng.classify(mask)
        assert combo is not None
        top = (mask.bit_length() - 1) >> 2
        strength = 0.7 * self.kind_index.get(combo.kind, 0.0) + 0.3 * top / 12
        return 1 + _W_FIVE * (1 - strength)

    def multi_cost(self, mask: Mask) -> float:
        """A play spanning several ranks: five-card hands as :meth:`five_cost`,
        two pairs and other lengths by their top rank."""
        size = mask.bit_count()
        if size == 5:
            return self.five_cost(mask)
        top = (mask.bit_length() - 1) >> 2
        return 1 + (_W_FOUR if size == 4 else _W_FIVE) * (1 - top / 12)


_TABLES: dict[int, _Tables] = {}


def tables(eng: Engine) -> _Tables:
    """The planning tables of *eng* (built once per engine)."""
    t = _TABLES.get(id(eng))
    if t is None or t.eng is not eng:
        t = _TABLES[id(eng)] = _Tables(eng)
    return t


def _distinct_fives(eng: Engine, hand: Mask) -> list[Mask]:
    """The hand's five-card plays, one per rank signature (lowest suits used),
    plus every flush and straight flush; too many near-duplicates would only
    slow the search."""
    seen: dict[tuple[int, ...], Mask] = {}
    out: list[Mask] = []
    for m in eng.hand_plays(hand).sized(5):
        combo = eng.classify(m)
        assert combo is not None
        if combo.kind in (Kind.FLUSH, Kind.STRAIGHT_FLUSH):
            out.append(m)
            continue
        sig = tuple(((m >> (4 * r)) & 15).bit_count() for r in range(13))
        if sig not in seen:
            seen[sig] = m
    out.extend(seen.values())
    return out


def _distinct_multi(eng: Engine, hand: Mask) -> list[Mask]:
    """Every play of the hand that spans two ranks or more (two pairs, five-card
    hands, long and short straights…), one per rank signature (the first
    listed, i.e. the weakest suits), plus every flush and straight flush."""
    hp = eng.hand_plays(hand)
    if variant(eng.rules).odd_straights:
        listed = [m for m in hp.leads() if m.bit_count() >= 3]
    else:
        listed = hp.sized(4) + hp.sized(5)
    seen: dict[int, Mask] = {}
    out: list[Mask] = []
    for m in listed:
        if not m & ~BB_RANKS[(m.bit_length() - 1) >> 2]:
            continue  # one rank: grouped by the rank tables
        if any(m & BB_SUITS[s] == m for s in range(4)):
            out.append(m)  # a flush, straight flush or a suited straight
            continue
        sig = 0
        x = m
        while x:
            low = x & -x
            sig += 1 << (3 * ((low.bit_length() - 1) >> 2))
            x ^= low
        if sig not in seen:
            seen[sig] = m
    out.extend(seen.values())
    return out


def plan(eng: Engine, hand: Mask, all_kinds: bool = True) -> Plan:
    """A cheap partition of *hand* into plays under *eng*'s rules (cached).

    With *all_kinds* every play the rules allow is a candidate (two pairs as
    one four-card play, long straights…); without, only ranks and five-card
    hands (the first heuristic's planner)."""
    t = tables(eng)
    cache = t.cache_all if all_kinds else t.cache
    got = cache.get(hand)
    if got is not None:
        return got
    if len(cache) > 200_000:
        cache.clear()
    result = _plan_all(t, hand) if all_kinds else _plan_v1(t, hand)
    cache[hand] = result
    return result


def _rest_cost(rank_cost: list[list[float]], rest: Mask) -> float:
    c = 0.0
    for r in range(13):
        nib = (rest >> (4 * r)) & 15
        if nib:
            c += rank_cost[r][nib]
    return c


def _finish(t: _Tables, hand: Mask, chosen: Sequence[Mask], cost: float) -> Plan:
    used = 0
    combos: list[Mask] = []
    for m in chosen:
        combos.append(m)
        used |= m
    rest = hand & ~used
    for r in range(13):
        nib = (rest >> (4 * r)) & 15
        if nib:
            combos.extend(t.rank_plays[r][nib])
    return Plan(tuple(combos), round(cost, 6))


def _plan_all(t: _Tables, hand: Mask) -> Plan:
    """Disjoint multi-rank plays chosen by a bounded depth-first search, most
    promising first; what is left is grouped by rank."""
    eng = t.eng
    rank_cost = t.rank_cost
    base = _rest_cost(rank_cost, hand)
    scored = []
    for m in (_distinct_multi(eng, hand) if hand.bit_count() >= 4 else []):
        c = t.multi_cost(m)
        gain = base - _rest_cost(rank_cost, hand & ~m) - c
        scored.append((-gain, m, c))
    scored.sort()
    cands = [m for _, m, _ in scored]
    costs = [c for _, _, c in scored]
    best_cost = base
    best: tuple[int, ...] = ()
    nodes = 0
    stack: list[tuple[int, Mask, float, tuple[int, ...]]] = [(0, 0, 0.0, ())]
    while stack:
        start, used, cost, chosen = stack.pop()
        nodes += 1
        total = cost + _rest_cost(rank_cost, hand & ~used)
        if total < best_cost:
            best_cost, best = total, chosen
        if nodes > _MAX_NODES:
            continue
        for k in range(len(cands) - 1, start - 1, -1):  # the best candidate is popped first
            f = cands[k]
            if not f & used:
                stack.append((k + 1, used | f, cost + costs[k], (*chosen, k)))
    return _finish(t, hand, [cands[k] for k in best], best_cost)


def _plan_v1(t: _Tables, hand: Mask) -> Plan:
    """The first heuristic's planner: disjoint five-card hands, then ranks."""
    eng = t.eng
    fives = _distinct_fives(eng, hand) if hand.bit_count() >= 5 else []
    fcost = [t.five_cost(f) for f in fives]
    rank_cost = t.rank_cost
    best_cost = float("inf")
    best: tuple[int, ...] = ()
    nodes = 0
    stack: list[tuple[int, Mask, float, tuple[int, ...]]] = [(0, 0, 0.0, ())]
    while stack:
        start, used, cost, chosen = stack.pop()
        nodes += 1
        total = cost + _rest_cost(rank_cost, hand & ~used)
        if total < best_cost:
            best_cost, best = total, chosen
        if nodes > _MAX_NODES:
            continue
        for k in range(start, len(fives)):
            f = fives[k]
            if not f & used:
                stack.append((k + 1, used | f, cost + fcost[k], (*chosen, k)))
    return _finish(t, hand, [fives[k] for k in best], best_cost)


# -- reading the table ---------------------------------------------------------


def _lead_key(m: Mask) -> float:
    """Lower leads first: weak tops, and multi-card plays before singles."""
    size = m.bit_count()
    top = ((m.bit_length() - 1) >> 2) / 12
    bonus = _LEAD_BONUS.get(size, _LEAD_BONUS[5])
    return top - bonus


def heuristic_play(
    eng: Engine,
    seat: int,
    hand: Mask,
    legal: Sequence[Mask],
    last: Mask,
    counts: Sequence[int],
    unseen: Mask,
    style: Style = DEFAULT_STYLE,
) -> Mask:
    """The heuristic bot's choice, from plain values.

    Args:
        eng: the rules' engine.
        seat: the seat to move.
        hand: its cards.
        legal: its legal plays (``0`` is the pass), as :attr:`PlayerView.legal`.
        last: the play to beat, ``0`` when leading.
        counts: cards left per seat.
        unseen: cards this seat has not seen (others' hands, set-aside cards).
        style: the planner's switches and thresholds (:data:`V1`: the first
            heuristic's play).
    """
    plays = [p for p in legal if p]
    if not plays:
        return 0
    if len(plays) == 1 and not last:
        return plays[0]
    n = len(counts)
    opp = [counts[s] for s in range(n) if s != seat and counts[s]]
    opp_min = min(opp) if opp else 13
    legal_set = set(plays)
    if style.go_out:
        if hand in legal_set:
            return hand
        # a passing Go-Fish seat draws, so its count says nothing of later plays
        opp_max = max(opp, default=0) if not variant(eng.rules).hands_grow else 52
        first = way_out(eng, hand, plays, unseen, opp_max)
        if first:
            return first
    pl = plan(eng, hand, style.all_kinds)
    if not last:
        return _lead(eng, hand, pl, plays, legal_set, opp_min, unseen, style)
    return _follow(eng, hand, pl, plays, last, opp_min, unseen, style)


def _lead(eng: Engine, hand: Mask, pl: Plan, plays: list[Mask], legal_set: set[Mask],
          opp_min: int, unseen: Mask, style: Style) -> Mask:
    options = [c for c in pl.combos if c in legal_set]
    if not options:
        # a forced card (the first lead) or a barred finish: the legal play
        # that leaves the cheapest plan
        cand = sorted(plays, key=_lead_key)[:40]
        return min(cand, key=lambda p: (plan(eng, hand & ~p, style.all_kinds).cost,
                                        _lead_key(p)))
    if len(pl.combos) == 1:
        return options[0]
    controls = [c for c in options if not beaten_by_unseen(eng, c, unseen)]
    others = [c for c in pl.combos if c not in controls]
    if controls and len(others) <= 1:
        # cash the sure winners, keep the lead, finish with the last play
        return max(controls, key=lambda c: (c.bit_count(), -_lead_key(c)))
    pool = [c for c in options if c not in controls and not c & BB_RANKS[TWO]] or options
    if opp_min == 1:
        multi = [c for c in pool if c.bit_count() > 1]
        if multi:
            pool = multi
        else:
            return max(options, key=lambda c: (c.bit_count() > 1, c.bit_length()))
    elif opp_min == 2:
        safe = [c for c in pool if c.bit_count() != 2]
        if safe:
            pool = safe
    return min(pool, key=_lead_key)


def _follow(eng: Engine, hand: Mask, pl: Plan, plays: list[Mask], last: Mask,
            opp_min: int, unseen: Mask, style: Style) -> Mask:
    size = last.bit_count()
    in_plan = [p for p in plays if p in set(pl.combos)]
    danger = opp_min <= max(2, size) and opp_min <= 5
    if danger and size <= 2 and opp_min <= size + 1:
        # someone is about to go out: block with the strongest play we have
        return plays[-1]
    if in_plan:
        choice = in_plan[0]
        if (choice & BB_RANKS[TWO] and size == 1 and opp_min > style.hold_two_above
                and len(pl.combos) > style.hold_two_plays):
            # keep a 2 for when it matters
            return 0
        return choice
    # breaking the plan: only when it costs little
    base = pl.cost
    low = danger or opp_min <= style.low_cards
    limit = style.break_limit if not low else style.break_limit_danger
    scored = [(plan(eng, hand & ~p, style.all_kinds).cost - base, i, p)
              for i, p in enumerate(plays[:16])]
    ok = [t for t in scored if t[0] <= limit]
    return min(ok)[2] if ok else 0


__all__ = ["DEFAULT_STYLE", "V1", "Plan", "Style", "beaten_by_unseen", "heuristic_play", "plan",
           "tables"]
