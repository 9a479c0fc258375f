"""Listing a hand's plays for :class:`big2.variant.generic.GenericEngine`, built by shape.

A 52-card two-deck hand holds about 8,000 plays of up to five cards (20,000
or more with wild jokers), so the sets are not found by walking subsets and
classifying each. Each shape (one rank; distinct ranks in a straight window,
in one suit or, with enough jokers, anywhere; rank patterns such as three
and two) is built from per-rank tables, and a set's readings come from a
memo keyed by its *signature*: the part of the cards that
:meth:`big2.variant.generic.GenericEngine._read` looks at (for distinct ranks, the rank
set, the deciding card's suit and the suit if all share one; for a full
house, the ranks and counts). On a miss ``_read`` reads the set itself, so
every set gets exactly the readings it would get alone.

Plays of more than five cards are listed once per
:meth:`~big2.variant.generic.GenericEngine.play_key` (the ruling is in :mod:`big2.variant.generic`):
the weakest cards of every rank but the deciding one, each strength of the
deciding card, and wild jokers in each number that makes a different play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, product
from typing import Protocol

from big2.cards import DECK_SIZE, NUM_CARDS, Mask, cards_of
from big2.rules import Rules
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT
from big2.variant.kinds import TOP_RUN_RANK as _TOP_RUN_RANK
from big2.variant.kinds import Combo, Kind

Reading = tuple[Kind, int, int]
"""One way to read cards: kind, power, and the rank of a four (or five) of a kind, else -1."""


class ListingEngine(Protocol):
    """What the listing reads of its engine (:class:`big2.variant.generic.GenericEngine`
    is the one): the rule set's shapes, the readings of a set, and the caches it fills."""

    @property
    def rules(self) -> Rules:
        """The rule set."""

    @property
    def suit_rank(self) -> tuple[int, ...]:
        """Each suit's rank among the suits."""

    @property
    def strength(self) -> tuple[int, ...]:
        """Each card's strength as a single."""

    @property
    def straight_list(self) -> list[tuple[int, tuple[int, ...], int]]:
        """The five-card straights, weakest first: rank mask, ranks, index."""

    @property
    def straights(self) -> dict[int, tuple[int, int]]:
        """A straight's rank mask: its index and its deciding rank."""

    @property
    def straight_lengths(self) -> frozenset[int]:
        """Straight lengths other than five."""

    @property
    def wild(self) -> bool:
        """The jokers are wild."""

    @property
    def smack(self) -> bool:
        """Runs of pairs smack down."""

    @property
    def extra_leads(self) -> bool:
        """Plays longer than five cards or other straights exist."""

    @property
    def deck_cards(self) -> Mask:
        """Every card of the deck."""

    @property
    def windows(self) -> Windows:
        """The straight windows."""

    @property
    def _readings(self) -> dict[Mask, tuple[Combo, ...]]: ...

    @property
    def _quads(self) -> dict[tuple[Mask, Kind], int]: ...

    @property
    def _sig_memo(self) -> dict[object, tuple[tuple[Reading, ...], bool] | None]: ...

    def _sig_reads(self, sig: object, nat: Mask,
                   jokers: int) -> tuple[tuple[Reading, ...], bool] | None: ...

    def readings(self, mask: Mask) -> tuple[Combo, ...]:
        """Every reading of *mask*, strongest first."""

    def leadable(self, combo: Combo) -> bool:
        """Whether *combo* may be led."""

    def play_key(self, mask: Mask) -> object:
        """What makes two sets of cards the same play."""

Piece = tuple[int, int, int]
"""Cards of one rank: their mask (lowest copies), strongest suit position, suit bits."""
Emit = Callable[[Mask, object, int, int], None]
"""``emit(natural cards, signature, size, jokers)`` files the sets with each joker choice."""
Keyed = list[list[tuple[int, tuple[int, int], Mask]]]
"""Plays by group as ``(power, names, mask)``, sorted into :meth:`~big2.variant.generic.GenericEngine.hand_plays` order."""


_FIRST = (1 << DECK_SIZE) - 1


def by_name(mask: Mask) -> tuple[int, int]:
    """A key that orders plays by their cards' names (copies alike)."""
    first = mask & _FIRST
    second = mask >> DECK_SIZE
    return first | second, first & second


def list_plays(eng: ListingEngine, hand: Mask) -> tuple[list[int], ...]:
    """:meth:`~big2.variant.generic.GenericEngine.hand_plays`, listed afresh, the readings of each play
    cached on *eng*."""
    if len(eng._readings) > 100_000:
        eng._readings.clear()
        eng._quads.clear()
    if len(eng._sig_memo) > 200_000:
        eng._sig_memo.clear()
    h = Hand(eng, hand)
    keyed: Keyed = [[] for _ in range(8)]
    for c in h.joker_singles:  # a joker alone is itself, not a reading of jokers
        keyed[1].append((eng.readings(1 << c)[0].power, by_name(1 << c), 1 << c))
    if eng.extra_leads or eng.smack:
        _file_long(eng, long_plays(eng, h), keyed)
    readings, quads, sig_reads = eng._readings, eng._quads, eng._sig_reads
    joker_sets = h.joker_sets

    def emit(nat: Mask, sig: object, n: int, jn: int) -> None:
        got = sig_reads(sig, nat, jn)
        if got is None:
            return
        reads, lead = got
        group = keyed[n if lead else 7]
        kind, power, quad = reads[0]
        for jm in joker_sets[jn]:
            mask = nat | jm
            first, second = mask & _FIRST, mask >> DECK_SIZE
            group.append((power, (first | second, first & second), mask))  # by_name
            if len(reads) == 1 and quad < 0:  # most sets: one reading, no four
                readings[mask] = (Combo(kind, mask, power),)
                continue
            readings[mask] = tuple([Combo(k, mask, p) for k, p, _ in reads])
            for k, _, q in reads:
                if q >= 0:
                    quads[(mask, k)] = q

    small_plays(eng, h, emit)
    for g in keyed:  # ties by card names, not copy numbers (a bot sees names only)
        g.sort()
    return tuple([p << PLAY_SHIFT | m for p, _, m in g] for g in keyed)


def relist_long(eng: ListingEngine, groups: list[list[int]], hand: Mask) -> None:
    """Put the plays of more than five cards of *hand* into *groups* (where
    there are none), in order."""
    keyed: Keyed = [[] for _ in range(8)]
    _file_long(eng, long_plays(eng, Hand(eng, hand)), keyed)
    for i in (6, 7):
        keyed[i] += [(p >> PLAY_SHIFT, by_name(p & PLAY_MASK), p & PLAY_MASK) for p in groups[i]]
        keyed[i].sort()
        groups[i] = [p << PLAY_SHIFT | m for p, _, m in keyed[i]]


def _file_long(eng: ListingEngine, masks: list[Mask], keyed: Keyed) -> None:
    for mask in masks:
        combo = eng.readings(mask)[0]
        keyed[6 if eng.leadable(combo) else 7].append((combo.power, by_name(mask), mask))


class Windows:
    """Per rule set: the rank sets that fit a straight window of each length."""

    def __init__(self, eng: ListingEngine) -> None:
        self.subsets: dict[tuple[int, int], list[tuple[int, ...]]] = {}
        """``(play size, natural ranks)``: the rank sets inside a straight of that size."""
        self.fits: dict[tuple[int, int], set[int]] = {}
        self.top: dict[tuple[int, int], int] = {}
        """``(size, rank mask)``: the rank whose card decides the straight the set reads as."""
        wins: dict[int, list[tuple[tuple[int, ...], int]]] = {
            5: [(seq, eng.straights[sm][1]) for sm, seq, _ in eng.straight_list]}
        for n in (3, 4):
            if n in eng.straight_lengths:
                wins[n] = [(tuple(range(lo, lo + n)), lo + n - 1)
                           for lo in range(_TOP_RUN_RANK - n + 2)]
        for n, seqs in wins.items():
            for seq, decide in seqs:  # lowest first: a later window wins, as in _read
                for k in range(1, n + 1):
                    for ranks in combinations(sorted(seq), k):
                        rm = sum(1 << r for r in ranks)
                        if rm not in self.fits.setdefault((n, k), set()):
                            self.fits[(n, k)].add(rm)
                            self.subsets.setdefault((n, k), []).append(ranks)
                        self.top[(n, rm)] = decide


class Hand:
    """One hand's tables: its cards by rank and the wild jokers it may use."""

    def __init__(self, eng: ListingEngine, hand: Mask) -> None:
        sr = eng.suit_rank
        by_name: dict[int, list[int]] = {}
        for c in cards_of(hand & eng.deck_cards):
            by_name.setdefault(c % DECK_SIZE, []).append(c)
        self.pieces: list[list[list[Piece]]] = []
        """``pieces[r][t]``: every multiset of *t* card names of rank *r*."""
        self.suited: list[dict[int, Piece]] = []
        """``suited[r][suit]``: the piece of that one card."""
        self.rank_cards: list[list[int]] = []
        """Each rank's cards, weakest first (lowest number first among copies)."""
        for r in range(13):
            names = [(4 * r + s, by_name[4 * r + s]) for s in range(4) if 4 * r + s in by_name]
            per: list[list[Piece]] = [[] for _ in range(6)]
            _multisets(names, 0, 0, 0, -1, 0, per, sr)
            self.pieces.append(per)
            self.suited.append({b & 3: (1 << ids[0], sr[b & 3], 1 << (b & 3)) for b, ids in names})
            self.rank_cards.append(sorted((c for _, ids in names for c in ids),
                                          key=lambda c: (eng.strength[c], c)))
        self.held = [len(cs) for cs in self.rank_cards]
        self.ranks = [r for r in range(13) if self.held[r]]
        red, black = by_name.get(NUM_CARDS, []), by_name.get(NUM_CARDS + 1, [])
        self.joker_singles = [ids[0] for ids in (red, black) if ids]
        self.jokers = sorted(red + black) if eng.wild else []
        self.joker_sets: list[list[Mask]] = [[0]] + [[] for _ in self.jokers]
        """Joker name multisets by size, as masks of the lowest copies."""
        for i in range(len(red) + 1) if eng.wild else ():
            for j in range(len(black) + 1):
                if i + j:
                    self.joker_sets[i + j].append(sum(1 << c for c in red[:i] + black[:j]))


def _multisets(names: list[tuple[int, list[int]]], i: int, mask: Mask, size: int, top: int,
               suits: int, out: list[list[Piece]], sr: tuple[int, ...]) -> None:
    if size:
        out[size].append((mask, top, suits))
    for k in range(i, len(names)):
        b, ids = names[k]
        m = mask
        for take in range(1, min(len(ids), 5 - size) + 1):
            m |= 1 << ids[take - 1]
            _multisets(names, k + 1, m, size + take, max(top, sr[b & 3]), suits | 1 << (b & 3),
                       out, sr)


def small_plays(eng: ListingEngine, h: Hand, emit: Emit) -> None:
    """Every set of up to five cards of *h* that may be a play, natural cards
    and joker count handed to *emit* with their signature."""
    rules = eng.rules
    top_card = rules.five_card_compare == "top-card"
    pieces = h.pieces
    for n in range(1, 6):
        for jn in range(min(len(h.jokers), n) + 1):
            k = n - jn
            if k == 0:
                if n > 1:
                    emit(0, ("O", jn), n, jn)
                continue
            for r in h.ranks:  # one rank (a single card is one suit)
                for m, top, suits in pieces[r][k]:
                    emit(m, ("O", jn, r, k, top, suits if k == 1 else -1), n, jn)
            if k < 2:
                continue
            _distinct(eng, h, n, jn, k, emit, top_card)
            # a pair's suit decides two pairs and two pairs and a card
            keep = top_card or n == 4 or rules.five_two_pairs != "no"
            for pattern in _patterns(eng, n, jn):
                for ranks in _rank_choices(h, pattern):
                    for combo in product(*[pieces[r][c] for r, c in zip(ranks, pattern)]):
                        m = 0
                        parts = []
                        for (pm, top, _), r, c in zip(combo, ranks, pattern):
                            m |= pm
                            parts.append((r, c, top if top_card or (keep and c == 2) else -1))
                        parts.sort()
                        emit(m, ("C", jn, tuple(parts)), n, jn)


def _distinct(eng: ListingEngine, h: Hand, n: int, jn: int, k: int, emit: Emit,
              top_card: bool) -> None:
    """Sets of *k* cards of distinct ranks (with *jn* jokers, *n* cards)."""
    rules = eng.rules
    win = eng.windows
    every = (n == 5 and (k <= 2 or (k == 3 and (rules.five_trips or rules.five_two_pairs != "no")))
             or (n == 4 and k == 2 and rules.two_pairs))  # jokers make shapes of any ranks
    if every:
        rank_sets: list[tuple[int, ...]] | combinations[tuple[int, ...]] = combinations(h.ranks, k)
    elif n == 5 or n in eng.straight_lengths:
        held = h.held
        rank_sets = [rs for rs in win.subsets.get((n, k), ()) if all(held[r] for r in rs)]
    else:
        return
    pieces = h.pieces
    tops = win.top
    for ranks in rank_sets:
        rm = sum(1 << r for r in ranks)
        decide = tops.get((n, rm), -1)
        di = ranks.index(decide) if decide in ranks else -1
        for combo in product(*[pieces[r][1] for r in ranks]):
            m = suits = 0
            for pm, _, sb in combo:
                m |= pm
                suits |= sb
            emit(m, _distinct_sig(n, jn, rm, ranks, combo, di, suits, top_card), n, jn)
    if n == 5 and not every:  # one suit, in no straight window: a flush
        fits = win.fits.get((5, k), set())
        for s in range(4):
            for ranks in combinations([r for r in h.ranks if s in h.suited[r]], k):
                rm = sum(1 << r for r in ranks)
                if rm not in fits:
                    combo = tuple(h.suited[r][s] for r in ranks)
                    m = sum(p[0] for p in combo)
                    emit(m, _distinct_sig(n, jn, rm, ranks, combo, -1, 1 << s, top_card), n, jn)


def _distinct_sig(n: int, jn: int, rm: int, ranks: tuple[int, ...], combo: tuple[Piece, ...],
                  di: int, suits: int, top_card: bool) -> object:
    """What ``_read`` looks at in cards of distinct ranks: in a straight the
    deciding card's suit, for a flush the suit; with ``top-card`` every card."""
    one = suits if not suits & (suits - 1) else -1
    if n < 5:
        return ("S", n, jn, rm, combo[di][1] if di >= 0 else -1)
    if top_card:
        return ("F", jn, tuple((r, p[1]) for r, p in zip(ranks, combo)), one)
    return ("B", jn, rm, combo[di][1] if di >= 0 else -1, one)


def _patterns(eng: ListingEngine, n: int, jn: int) -> list[tuple[int, ...]]:
    """Rank-count patterns of natural cards (two or more ranks, some repeated)
    that *jn* wild jokers may complete into an *n*-card play."""
    rules = eng.rules
    out: list[tuple[int, ...]] = []
    if n == 4 and rules.two_pairs and jn < 2:
        out.append((2, 2) if jn == 0 else (2, 1))
    if n == 5:
        odd = rules.five_trips or rules.five_two_pairs != "no"
        if jn == 0:
            out.append((3, 2))
            if rules.four_kicker:
                out.append((4, 1))
            if rules.five_trips:
                out.append((3, 1, 1))
            if rules.five_two_pairs != "no":
                out.append((2, 2, 1))
        elif jn == 1:
            out += [(3, 1), (2, 2)] + ([(2, 1, 1)] if odd else [])
        elif jn == 2:
            out.append((2, 1))
    return out


def _rank_choices(h: Hand, pattern: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Distinct ranks for *pattern*'s counts (increasing where counts are equal)."""
    held = h.held

    def walk(i: int, used: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if i == len(pattern):
            yield used
            return
        low = used[-1] + 1 if i and pattern[i] == pattern[i - 1] else 0
        for r in range(low, 13):
            if held[r] >= pattern[i] and r not in used:
                yield from walk(i + 1, (*used, r))

    return walk(0, ())


# -- plays of more than five cards ------------------------------------------------


def long_plays(eng: ListingEngine, h: Hand) -> list[Mask]:
    """One set of cards per play of more than five cards (:meth:`~big2.variant.generic.GenericEngine.play_key`):
    long straights, the dragon and runs of pairs, with wild jokers filling."""
    rules = eng.rules
    shapes: list[tuple[int, int, int]] = []  # lowest rank, ranks, cards per rank
    for k in sorted(eng.straight_lengths):
        if k > 5:
            shapes += [(lo, k, 1) for lo in range(_TOP_RUN_RANK - k + 2)]
    if rules.dragon:
        shapes.append((0, 13, 1))
    if eng.smack:
        for k in range(3, _TOP_RUN_RANK + 2):
            shapes += [(lo, k, 2) for lo in range(_TOP_RUN_RANK - k + 2)]
    seen: set[object] = set()
    out: list[Mask] = []
    for lo, k, need in shapes:
        for mask in _shape_sets(eng, h, lo, k, need):
            key = eng.play_key(mask)
            if key not in seen:
                seen.add(key)
                out.append(mask)
    return out


def _shape_sets(eng: ListingEngine, h: Hand, lo: int, k: int, need: int) -> Iterator[Mask]:
    """Card sets for ranks ``lo .. lo+k-1``, *need* cards of each, that cover
    every play of that shape: each strength of the top rank (or jokers there),
    the weakest cards below it, and each number of wild jokers."""
    top = lo + k - 1
    held, cards, jokers = h.held, h.rank_cards, h.jokers
    # below the ace a set must hold its lowest rank, or it reads as a higher run
    lo_fixed = top < _TOP_RUN_RANK and k < 13
    if lo_fixed and not held[lo]:
        return
    below = range(top - 1, lo - 1, -1)
    short = sum(max(0, need - held[r]) for r in below)
    if short > len(jokers):
        return
    base = 0
    for r in below:
        for c in cards[r][:need]:
            base |= 1 << c
    # natural cards a joker may replace, in the order it replaces them
    units: list[int] = []
    if need == 2:
        units += [cards[r][1] for r in below if held[r] >= 2]
    units += [cards[r][0] for r in below if held[r] and not (lo_fixed and r == lo)]
    n = need * k
    tops: list[tuple[Mask, int]] = []  # the top rank's cards, jokers there
    tc = cards[top]
    if need == 1:
        names: dict[int, int] = {}
        for c in tc:
            names.setdefault(c % DECK_SIZE, c)
        tops += [(1 << c, 0) for c in names.values()]
    else:
        for i, c in enumerate(tc if len(tc) > 1 else ()):
            if i == 0 or tc[i - 1] % DECK_SIZE != c % DECK_SIZE:  # each name's first copy
                tops.append((1 << c | 1 << tc[1 if i == 0 else 0], 0))
        if tc:
            tops.append((1 << tc[0], 1))
    tops.append((0, need))
    for top_mask, at_top in tops:
        fixed = short + at_top
        for extra in range(min(len(jokers) - fixed, len(units)) + 1):
            j = fixed + extra
            jm = sum(1 << c for c in jokers[:j])
            # with half the cards wild a straight may also read as a run of
            # pairs (and back): then which ranks the jokers take matters
            every = ((need == 1 and eng.smack and n % 2 == 0 and 2 * j >= n)
                     or (need == 2 and j >= k and n in eng.straight_lengths))
            for gone in combinations(units, extra) if every else (units[:extra],):
                nat = base
                for c in gone:
                    nat &= ~(1 << c)
                yield nat | top_mask | jm
