"""Hand planning for the heuristic and expert bots.

A hand is planned as a *partition* into combinations: the fewest plays to go
out, with weak cards tucked into multi-card plays and control cards (2s,
unbeatable plays) kept. :func:`plan` finds a cheap partition by choosing
disjoint five-card hands and grouping what is left by rank; its :attr:`Plan.cost`
is roughly "plays still needed", a low single costing more than a 2.

:func:`heuristic_play` is the heuristic bot's whole decision as a function of
plain values, so the expert bot can use it to play out sampled deals fast.

>>> from big2 import Rules
>>> from big2.cards import parse_cards, CardSet
>>> from big2.combos import engine
>>> p = plan(engine(Rules()), int(parse_cards("3D 4C 5H 6S 7D 9C 9D KH KS KC 2S")))
>>> [str(CardSet(m)) for m in p.combos]
['3♦ 4♣ 5♥ 6♠ 7♦', '9♦ 9♣ K♣ K♥ K♠', '2♠']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from big2.cards import BB_RANKS, TWO, Mask
from big2.variant import Engine, Kind

# cost weights: a play costs 1, plus a liability for how weak it is
_W_SINGLE = 0.7
_W_PAIR = 0.45
_W_TRIPLE = 0.3
_W_FIVE = 0.25
_TWO_BONUS = 0.45
_MAX_NODES = 600
_BREAK_LIMIT = 1.2  # play a card outside the plan unless it costs more than this
_BREAK_LIMIT_DANGER = 3.0
_HOLD_TWOS = True
_LEAD_BONUS = {1: 0.0, 2: 0.5, 3: 0.6, 4: 0.7, 5: 1.3}


class Plan(NamedTuple):
    """A partition of a hand into plays, weakest-cost first, with its cost."""

    combos: tuple[Mask, ...]
    cost: float


class _Tables:
    """Per-engine tables: cost and plays of each rank's leftover cards."""

    def __init__(self, eng: Engine) -> None:
        self.eng = eng
        rules = eng.rules
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
                if n == 4 and rules.four_of_a_kind_alone:
                    groups = [sum(cards)]
                elif n == 4:
                    groups = [cards[0] | cards[1], cards[2] | cards[3]]
                elif n == 3 and rules.triples:
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

    def five_cost(self, mask: Mask) -> float:
        combo = self.eng.classify(mask)
        assert combo is not None
        top = (mask.bit_length() - 1) >> 2
        strength = 0.7 * self.kind_index.get(combo.kind, 0.0) + 0.3 * top / 12
        return 1 + _W_FIVE * (1 - strength)


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


def plan(eng: Engine, hand: Mask) -> Plan:
    """A cheap partition of *hand* into plays under *eng*'s rules (cached)."""
    t = tables(eng)
    got = t.cache.get(hand)
    if got is not None:
        return got
    if len(t.cache) > 200_000:
        t.cache.clear()
    fives = _distinct_fives(eng, hand) if hand.bit_count() >= 5 else []
    fcost = [t.five_cost(f) for f in fives]
    rank_cost = t.rank_cost
    best_cost = float("inf")
    best: tuple[int, ...] = ()
    nodes = 0

    def rest_cost(rest: Mask) -> float:
        c = 0.0
        for r in range(13):
            nib = (rest >> (4 * r)) & 15
            if nib:
                c += rank_cost[r][nib]
        return c

    stack: list[tuple[int, Mask, float, tuple[int, ...]]] = [(0, 0, 0.0, ())]
    while stack:
        start, used, cost, chosen = stack.pop()
        nodes += 1
        total = cost + rest_cost(hand & ~used)
        if total < best_cost:
            best_cost, best = total, chosen
        if nodes > _MAX_NODES:
            continue
        for k in range(start, len(fives)):
            f = fives[k]
            if not f & used:
                stack.append((k + 1, used | f, cost + fcost[k], (*chosen, k)))
    used = 0
    combos: list[Mask] = []
    for k in best:
        combos.append(fives[k])
        used |= fives[k]
    rest = hand & ~used
    for r in range(13):
        nib = (rest >> (4 * r)) & 15
        if nib:
            combos.extend(t.rank_plays[r][nib])
    result = Plan(tuple(combos), round(best_cost, 6))
    t.cache[hand] = result
    return result


# -- reading the table ---------------------------------------------------------


def beaten_by_unseen(eng: Engine, combo_mask: Mask, unseen: Mask) -> bool:
    """Whether some play made of *unseen* cards could beat *combo_mask*.

    Exact for singles, pairs and triples; for larger plays it asks the engine
    when few cards are unseen and otherwise assumes yes (below a straight
    flush).
    """
    combo = eng.classify(combo_mask)
    if combo is None:
        return True
    size = combo.size
    if size == 1:
        return _top_single(eng, unseen) > _top_single(eng, combo_mask)
    if size in (2, 3):
        r0 = (combo_mask.bit_length() - 1) >> 2
        for r in range(12, r0 - 1, -1):
            nib = (unseen >> (4 * r)) & 15
            if nib.bit_count() < size:
                continue
            if r > r0:
                return True
            if size == 2 and eng.suited:
                top = max(eng.suit_rank[s] for s in range(4) if nib >> s & 1)
                mine = max(eng.suit_rank[s] for s in range(4) if (combo_mask >> (4 * r0)) >> s & 1)
                return top > mine
            return False
        return False
    if combo.kind == Kind.STRAIGHT_FLUSH and eng.rules.five_card_compare == "kind":
        return bool(eng.follows(unseen, combo)) if unseen.bit_count() <= 20 else True
    if unseen.bit_count() <= 16:
        return bool(eng.follows(unseen, combo))
    return True


def _top_single(eng: Engine, mask: Mask) -> int:
    """Strength of the strongest card of *mask* (-1 if empty); without suit
    ranking, only the rank counts."""
    if not mask:
        return -1
    r = (mask.bit_length() - 1) >> 2
    if not eng.suited:
        return r * 4
    nib = (mask >> (4 * r)) & 15
    return r * 4 + max(eng.suit_rank[s] for s in range(4) if nib >> s & 1)


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
    """
    plays = [p for p in legal if p]
    if not plays:
        return 0
    if len(plays) == 1 and not last:
        return plays[0]
    n = len(counts)
    opp = [counts[s] for s in range(n) if s != seat and counts[s]]
    opp_min = min(opp) if opp else 13
    nxt = next((s for s in ((seat + k) % n for k in range(1, n)) if counts[s]), seat)
    pl = plan(eng, hand)
    legal_set = set(plays)
    if not last:
        return _lead(eng, hand, pl, plays, legal_set, opp_min, counts[nxt], unseen)
    return _follow(eng, hand, pl, plays, last, opp_min, unseen)


def _lead(eng: Engine, hand: Mask, pl: Plan, plays: list[Mask], legal_set: set[Mask],
          opp_min: int, next_count: int, unseen: Mask) -> Mask:
    options = [c for c in pl.combos if c in legal_set]
    if not options:
        # a forced card (the first lead) or a barred finish: the legal play
        # that leaves the cheapest plan
        cand = sorted(plays, key=_lead_key)[:40]
        return min(cand, key=lambda p: (plan(eng, hand & ~p).cost, _lead_key(p)))
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
            opp_min: int, unseen: Mask) -> Mask:
    size = last.bit_count()
    in_plan = [p for p in plays if p in set(pl.combos)]
    danger = opp_min <= max(2, size) and opp_min <= 5
    if danger and size <= 2 and opp_min <= size + 1:
        # someone is about to go out: block with the strongest play we have
        return plays[-1]
    if in_plan:
        choice = in_plan[0]
        if (_HOLD_TWOS and choice & BB_RANKS[TWO] and size == 1 and opp_min > 6
                and len(pl.combos) > 4):
            # keep a 2 for when it matters
            return 0
        return choice
    # breaking the plan: only when it costs little
    base = pl.cost
    limit = _BREAK_LIMIT if not danger else _BREAK_LIMIT_DANGER
    scored = [(plan(eng, hand & ~p).cost - base, i, p) for i, p in enumerate(plays[:16])]
    ok = [t for t in scored if t[0] <= limit]
    return min(ok)[2] if ok else 0
