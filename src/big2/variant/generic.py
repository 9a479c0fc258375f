"""The generic play engine: jokers and two decks (RULES.md §2, variations 29 and 34).

:class:`GenericEngine` reads a set of cards by its *natural* cards (rank and
suit, copies of a card alike) and its number of jokers, with the powers of
:mod:`big2.variant.keys` (so a pair, a straight or a full house compares
exactly as in the one-deck engine) and the follow rules of
:mod:`big2.variant.compare`:

- a **wild** joker stands for any card. Played alone it counts as itself,
  above 2♠ (black over red); in any other play it is the card that makes the
  play strongest. A set of cards may have several readings (with
  ``five_card_compare="same-kind"`` a joker may make the straight that
  follows a straight rather than a stronger flush); played on a combination
  it takes its strongest reading that beats it (:meth:`GenericEngine.as_played`).
- a **valueless** joker is a single that may be played on any single, and
  any single may be played on it. It is no part of other plays.
- with **two decks** a rank has eight cards: pairs, triples, fours and
  (``five_of_a_kind``) fives may hold two copies of a card. A flush needs
  five different ranks, as with one deck.

Legal plays list each set of card names once (:meth:`GenericEngine.play_key`):
of two copies of a card a play uses the one with the lower number, and a
player who names a card gets the copy they hold (:meth:`big2.variant.deck.Deck.match`).
The card sets are built by shape in :mod:`big2.variant.generic_sets`.

**Ruling: a play of more than five cards is listed once per strength and
shape.** A 52-card two-deck hand holds about three card names per rank, so
it holds some 3^13 dragons and billions of runs of pairs: no listing can
name them all. For a long straight, a dragon or a run of pairs
:meth:`GenericEngine.hand_plays` takes, for each rank but the deciding one (the
top rank of a straight or dragon, the top pair of a run), the weakest cards
the hand holds of that rank (lowest strength, then the lowest-numbered
copy), and lists each distinct strength of the deciding rank (each card
name held there; with wild jokers a joker there too) and each number of
wild jokers that makes a different play. Any other choice of cards of the
same shape and strength is still a legal play when a player names it
(:meth:`GenericEngine.classify` and :meth:`GenericEngine.as_played` read it as
before); it is only not listed separately. :meth:`GenericEngine.play_key` says
which sets count as one play. Plays of up to five cards are all listed, one
per set of names.

>>> from big2 import Rules
>>> from big2.cards import parse_cards
>>> eng = GenericEngine(Rules(jokers="wild"))
>>> str(eng.classify(int(parse_cards("7D 8C RJ TS JS"))))
'straight 7♦ 8♣ 10♠ J♠ RJ'
>>> eng.classify(int(parse_cards("BJ"))).power > eng.classify(int(parse_cards("2S"))).power
True
>>> two = GenericEngine(Rules(decks=2, players=6, five_of_a_kind="below-straight-flush"))
>>> two.classify(int(parse_cards("9H 9H 9S 9S 9D", copies=2))).kind.label
'five of a kind'
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from itertools import combinations

from big2.cards import DECK_SIZE, JOKERS, NUM_CARDS, TWO, Mask, cards_of, deck_mask, match_copies
from big2.rules import Rules
from big2.variant.compare import Comparator
from big2.variant.generic_sets import Reading, Windows, by_name, list_plays, relist_long
from big2.variant.handplays import HAND_CACHE, HandPlays
from big2.variant.keys import LONG_SHIFT as _LONG_SHIFT
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT, StrengthKeys
from big2.variant.kinds import TOP_RUN_RANK as _TOP_RUN_RANK
from big2.variant.kinds import Combo, Kind

_TOP = 3
"""The suit position a joker takes when it may be any suit: the strongest."""

_Five = Callable[..., int]
"""The power of a five-card reading: ``five(kind, key, target, top=None)``."""


class GenericEngine:
    """The play engine for jokers and two decks (see the module docstring)."""

    def __init__(self, rules: Rules, keys: StrengthKeys | None = None) -> None:
        self.rules = rules
        k = self.keys = keys or StrengthKeys(rules)
        self.compare = Comparator(rules, self.quad_rank)
        self.suited = k.suited
        self.suit_rank = k.suit_rank
        self.strength = k.strength
        self.five_kinds = k.five_kinds
        self.straight_list = k.straight_list
        self.plain = False
        self.bisect_follows = False
        self.wild = rules.jokers == "wild"
        self.valueless = rules.jokers == "valueless"
        self.smack = self.compare.smack
        self.straight_lengths = frozenset(
            n for n in (*range(rules.straight_min, 5), *range(6, rules.straight_max + 1)))
        self.extra_leads = bool(self.straight_lengths) or rules.dragon
        self.deck_cards: Mask = deck_mask(rules.decks, rules.jokers != "none")
        strength = self.strength
        self.by_strength = tuple(sorted(cards_of(self.deck_cards), key=lambda c: (strength[c], c)))
        self._cache: dict[Mask, HandPlays] = {}
        self._readings: dict[Mask, tuple[Combo, ...]] = {}
        self._read_memo: dict[tuple[tuple[int, ...], int], tuple[Reading, ...]] = {}
        self._quads: dict[tuple[Mask, Kind], int] = {}
        self.straights = k.straights
        self.two_decks = rules.decks > 1
        self.play_equal = rules.play_equal
        self._sig_memo: dict[object, tuple[tuple[Reading, ...], bool] | None] = {}
        self.windows = Windows(self)
        # house rules under which a play of another size may beat (bombs, smack-downs)
        self._any_size = self.smack or rules.bomb_on_small or rules.four_beats_all

    # -- reading cards ---------------------------------------------------------

    def readings(self, mask: Mask) -> tuple[Combo, ...]:
        """Every way *mask* can be played, strongest first (leadable readings first)."""
        got = self._readings.get(mask)
        if got is None:
            if len(self._readings) > 200_000:
                self._readings.clear()
                self._quads.clear()
            got = self._readings[mask] = self._read_mask(mask)
        return got

    def classify(self, mask: Mask) -> Combo | None:
        """The strongest reading of *mask* (a leadable one if there is one), or ``None``."""
        got = self.readings(mask)
        return got[0] if got else None

    def as_played(self, mask: Mask, last: Combo | None) -> Combo | None:
        """The strongest reading of *mask* that may be played on *last*
        (a lead when ``None``), or ``None`` if there is none."""
        for combo in self.readings(mask):
            if self.leadable(combo) if last is None else self.beats(combo, last):
                return combo
        return None

    def beats(self, a: Combo, b: Combo) -> bool:
        """Whether combination *a* may be played on *b* (a valueless joker beats,
        and is beaten by, any single)."""
        return self.compare.beats(a, b)

    def leadable(self, combo: Combo) -> bool:
        """Whether *combo* may open a trick."""
        return self.compare.leadable(combo)

    def quad_rank(self, combo: Combo) -> int:
        """The rank of a four of a kind; a five of a kind orders above every four."""
        self.readings(combo.cards)
        return self._quads.get((combo.cards, combo.kind), -1)

    def _read_mask(self, mask: Mask) -> tuple[Combo, ...]:
        n = mask.bit_count()
        if n == 0 or mask & ~self.deck_cards:
            return ()
        cards = cards_of(mask)
        if n == 1 and cards[0] % DECK_SIZE >= NUM_CARDS:
            joker = cards[0] % DECK_SIZE
            power = -1 if self.valueless else joker if self.suited else joker - NUM_CARDS + 13
            return (Combo(Kind.SINGLE, mask, power),)
        nat = tuple(sorted(c % DECK_SIZE for c in cards if c % DECK_SIZE < NUM_CARDS))
        jokers = n - len(nat)
        if jokers and not self.wild:
            return ()
        reads = self._sorted_reads(nat, jokers)
        for kind, _, quad in reads:
            if quad >= 0:
                self._quads[(mask, kind)] = quad
        return tuple([Combo(kind, mask, power) for kind, power, _ in reads])

    def _sorted_reads(self, nat: tuple[int, ...], jokers: int) -> tuple[Reading, ...]:
        """:meth:`_read`, memoized and sorted strongest first (leadable readings first)."""
        key = (nat, jokers)
        reads = self._read_memo.get(key)
        if reads is None:
            if len(self._read_memo) > 200_000:
                self._read_memo.clear()
            order = self.keys.kind_order
            reads = self._read_memo[key] = tuple(sorted(
                self._read(nat, jokers), reverse=True,
                key=lambda r: (self._leads(r[0]), r[1], order.get(r[0], 0))))
        return reads

    def _read(self, nat: tuple[int, ...], jokers: int) -> Iterator[Reading]:
        """Every reading of the natural cards *nat* (first-deck numbers) with
        *jokers* wild jokers: for each kind the strongest power it can have."""
        rules = self.rules
        sr = self.suit_rank
        suited = self.suited
        n = len(nat) + jokers
        cnt = [0] * 13
        pos: list[list[int]] = [[] for _ in range(13)]
        suits = set()
        for b in nat:
            cnt[b >> 2] += 1
            pos[b >> 2].append(sr[b & 3])
            suits.add(b & 3)
        ranks = [r for r in range(13) if cnt[r]]
        distinct = all(cnt[r] == 1 for r in ranks)
        base = self.keys.kind_base
        top_card = rules.five_card_compare == "top-card"

        def top_pos(r: int, need: int) -> int:
            """The strongest suit position among *need* cards of rank *r* (jokers fill)."""
            return _TOP if need > cnt[r] else max(pos[r])

        def fits(target: dict[int, int]) -> bool:
            return all(cnt[r] <= target.get(r, 0) for r in ranks)

        def card_key(r: int, need: int) -> int:
            return r * 4 + top_pos(r, need) if suited else r

        def five(kind: Kind, key: int, target: dict[int, int], top: int | None = None) -> int:
            if not top_card:
                return base[kind] | key
            if top is not None:
                return top
            hr = max(target)
            return card_key(hr, target[hr])

        # one rank: single, pair, triple, four alone, five of a kind
        if len(ranks) <= 1:
            r = ranks[0] if ranks else TWO
            if n == 1:
                yield Kind.SINGLE, card_key(r, 1), -1
            elif n == 2:
                yield Kind.PAIR, card_key(r, 2), -1
            elif n == 3 and rules.triples:
                yield Kind.TRIPLE, r, -1
            elif n == 4 and (rules.four_of_a_kind_alone or self.smack):
                yield Kind.FOUR_OF_A_KIND, base[Kind.FOUR_OF_A_KIND] | r, r
            elif n == 5 and rules.five_of_a_kind != "off":
                yield Kind.FIVE_OF_A_KIND, five(Kind.FIVE_OF_A_KIND, r, {r: 5}), 13 + r
        if n == 4 and rules.two_pairs and len(ranks) <= 2:
            best = max((card_key(hi, 2) for hi in range(13) for lo in range(hi)
                        if fits({hi: 2, lo: 2})), default=None)
            if best is not None:
                yield Kind.TWO_PAIRS, best, -1
        if n == 5:
            yield from self._read_five(cnt, pos, ranks, suits, jokers, fits, card_key, five)
        if n != 5 and distinct and n in self.straight_lengths:
            for lo in range(_TOP_RUN_RANK - n + 1, -1, -1):
                if all(lo <= r < lo + n for r in ranks):
                    top = lo + n - 1
                    yield Kind.STRAIGHT, (n << _LONG_SHIFT) | card_key(top, 1), -1
                    break
        if n == 13 and distinct and rules.dragon:
            yield Kind.DRAGON, (13 << _LONG_SHIFT) | (top_pos(TWO, 1) if suited else 0), -1
        if self.smack and n >= 6 and n % 2 == 0 and all(cnt[r] <= 2 for r in ranks):
            k = n // 2
            for lo in range(_TOP_RUN_RANK - k + 1, -1, -1):
                if all(lo <= r < lo + k for r in ranks):
                    yield Kind.PAIR_RUN, (n << _LONG_SHIFT) | card_key(lo + k - 1, 2), -1
                    break

    def _read_five(self, cnt: list[int], pos: list[list[int]], ranks: list[int], suits: set[int],
                   jokers: int, fits: Callable[[dict[int, int]], bool],
                   card_key: Callable[[int, int], int], five: _Five) -> Iterator[Reading]:
        """The five-card readings (helpers passed in from :meth:`_read`)."""
        rules = self.rules
        sr = self.suit_rank
        suited = self.suited
        distinct = all(cnt[r] == 1 for r in ranks)
        one_suit = len(suits) == 1
        if distinct:
            rmask = sum(1 << r for r in ranks)
            best = None
            for smask, seq, idx in self.straight_list:  # lowest first: keep the last
                if rmask & smask == rmask:
                    best = (seq, idx, self.keys.straights[smask][1])
            if best is not None:
                seq, idx, decide = best
                target = dict.fromkeys(seq, 1)
                hr = max(seq)
                if one_suit:
                    s = sr[next(iter(suits))]
                    key = idx * 4 + s if suited else idx
                    yield (Kind.STRAIGHT_FLUSH,
                           five(Kind.STRAIGHT_FLUSH, key, target, hr * 4 + s if suited else hr), -1)
                if not one_suit or jokers:
                    # a lone joker among cards of one suit must take another suit
                    alone = one_suit and jokers == 1 and sr[next(iter(suits))] == _TOP
                    joker_pos = _TOP - 1 if alone else _TOP
                    dpos = pos[decide][0] if cnt[decide] else joker_pos
                    key = idx * 4 + dpos if suited else idx
                    tpos = pos[hr][0] if cnt[hr] else joker_pos
                    yield (Kind.STRAIGHT,
                           five(Kind.STRAIGHT, key, target, hr * 4 + tpos if suited else hr), -1)
            if one_suit:
                suit = next(iter(suits))
                s = sr[suit]
                free = [r for r in range(12, -1, -1) if not cnt[r]]
                keys = []
                for extra in combinations(free, jokers):
                    rm = rmask
                    for r in extra:
                        rm |= 1 << r
                    if rm not in self.keys.straights:
                        keys.append((self.keys.flush_rank_key[rm], rm.bit_length() - 1))
                if keys:
                    rkey, hr = max(keys)
                    key = self.keys.flush_key(rkey, s)
                    yield Kind.FLUSH, five(Kind.FLUSH, key, {hr: 1}, hr * 4 + s if suited else hr), -1
        if len(ranks) > 3:
            return
        if not jokers:  # no jokers: the pattern is the shape of the rank counts
            yield from self._read_shape(cnt, ranks, card_key, five)
            return
        # rank patterns: every (target, power) that the natural cards fit
        options: dict[Kind, list[tuple[int, int]]] = {}

        def add(kind: Kind, target: dict[int, int], key: int, quad: int = -1) -> None:
            if fits(target):
                options.setdefault(kind, []).append((five(kind, key, target), quad))

        # a pattern has at most three ranks: those of the natural cards, and for
        # the rest (all jokers) the highest free ranks are the best
        free = [r for r in range(TWO, -1, -1) if not cnt[r]][:3 - len(ranks)]
        cands = sorted(ranks + free)
        for t in cands:
            for p in cands:
                if p == t:
                    continue
                add(Kind.FULL_HOUSE, {t: 3, p: 2}, t)
                if rules.four_kicker:
                    add(Kind.FOUR_KICKER, {t: 4, p: 1}, t, t)
                if rules.five_trips:
                    for q in cands:
                        if q > p and q != t:
                            add(Kind.FIVE_TRIPS, {t: 3, p: 1, q: 1}, t)
                if rules.five_two_pairs != "no" and p < t and (
                        rules.five_two_pairs == "any" or t - p == 1):
                    for q in cands:
                        if q not in (t, p):
                            add(Kind.FIVE_TWO_PAIRS, {t: 2, p: 2, q: 1}, card_key(t, 2))
        for kind, found in options.items():
            power, quad = max(found)
            yield kind, power, quad

    def _read_shape(self, cnt: list[int], ranks: list[int], card_key: Callable[[int, int], int],
                    five: _Five) -> Iterator[Reading]:
        """Full house, four and a card, three and two, two pairs and a card of
        natural cards alone (their rank counts decide)."""
        rules = self.rules
        by_count = sorted(((cnt[r], r) for r in ranks), reverse=True)
        shape = [c for c, _ in by_count]
        top = by_count[0][1]
        target = {r: c for c, r in by_count}
        if shape == [3, 2]:
            yield Kind.FULL_HOUSE, five(Kind.FULL_HOUSE, top, target), -1
        elif shape == [4, 1] and rules.four_kicker:
            yield Kind.FOUR_KICKER, five(Kind.FOUR_KICKER, top, target), top
        elif shape == [3, 1, 1] and rules.five_trips:
            yield Kind.FIVE_TRIPS, five(Kind.FIVE_TRIPS, top, target), -1
        elif shape == [2, 2, 1] and rules.five_two_pairs != "no":
            hi, lo = max(by_count[0][1], by_count[1][1]), min(by_count[0][1], by_count[1][1])
            if rules.five_two_pairs == "any" or hi - lo == 1:
                yield Kind.FIVE_TWO_PAIRS, five(Kind.FIVE_TWO_PAIRS, card_key(hi, 2), target), -1

    # -- listing ---------------------------------------------------------------

    def play_key(self, mask: Mask) -> object:
        """What makes *mask* a distinct listed play: for up to five cards the card
        names (copies alike), for more its size, joker count and readings (kind and
        power: the ranks and the deciding card's strength); see the module's ruling."""
        n = mask.bit_count()
        if n > 5:
            reads = self.readings(mask)
            if reads:
                return n, (mask & JOKERS).bit_count(), tuple((c.kind, c.power) for c in reads)
        return by_name(mask)

    def hand_plays(self, hand: Mask) -> HandPlays:
        """Every play of *hand* (cached; do not change the result)."""
        got = self._cache.get(hand)
        if got is None:
            if len(self._cache) > HAND_CACHE:
                self._cache.clear()
            got = self._cache[hand] = HandPlays(list_plays(self, hand), self)  # type: ignore[arg-type]
        return got

    def leads(self, hand: Mask) -> list[Mask]:
        """Every lead of *hand*."""
        return self.hand_plays(hand).leads()

    def follows(self, hand: Mask, last: Combo) -> list[Mask]:
        """The plays of *hand* that may be played on *last*."""
        return self.follows_from(self.hand_plays(hand), last)

    def _sig_reads(self, sig: object, nat: Mask,
                   jokers: int) -> tuple[tuple[Reading, ...], bool] | None:
        """The readings (strongest first) of natural cards *nat* with *jokers*
        wild jokers, and whether the first leads, memoized by signature."""
        try:
            return self._sig_memo[sig]
        except KeyError:
            pass
        reads = self._sorted_reads(tuple(sorted(c % DECK_SIZE for c in cards_of(nat))), jokers)
        got = self._sig_memo[sig] = (reads, self._leads(reads[0][0])) if reads else None
        return got

    def _leads(self, kind: Kind) -> bool:
        return self.leadable(Combo(kind, 0, 0))

    def follows_from(self, plays: HandPlays, last: Combo) -> list[Mask]:
        """The plays in *plays* that have a reading that may be played on *last*."""
        as_played = self.as_played
        groups = plays.groups
        if self._any_size or (self.valueless and last.size == 1):
            return [p & PLAY_MASK for group in groups[1:] for p in group
                    if as_played(p & PLAY_MASK, last) is not None]
        # only plays of the same size may beat, and only if their strongest
        # reading is stronger: each group is sorted by that reading's power
        group = groups[min(last.size, 6)]
        if self.play_equal:
            start = bisect_left(group, last.power << PLAY_SHIFT)
        else:
            start = bisect_right(group, (last.power << PLAY_SHIFT) | PLAY_MASK)
        return [p & PLAY_MASK for p in group[start:] if as_played(p & PLAY_MASK, last) is not None]

    def after(self, plays: HandPlays, cards: Mask, hand: Mask) -> HandPlays:
        """The plays of *hand* (what is left once *cards* are played) from the
        plays before: each play of up to five cards that used a played card is
        moved onto the other copy of that card if *hand* holds it, else dropped;
        the plays of more than five cards are listed again (their weakest cards
        may have changed). Much cheaper than listing again, and the same list."""
        out: list[list[int]] = []
        two_decks = self.two_decks
        longs = False
        for group in plays.groups:
            kept = []
            for p in group:
                m = p & PLAY_MASK
                if m.bit_count() > 5:
                    longs = True
                    continue
                if m & cards:
                    moved = match_copies(m, hand) if two_decks else None
                    if moved is None:
                        continue
                    p = (p >> PLAY_SHIFT) << PLAY_SHIFT | moved
                kept.append(p)
            out.append(kept)
        if longs:  # listed again: the weakest cards of their ranks may have changed
            relist_long(self, out, hand)
        return HandPlays(tuple(out), self)  # type: ignore[arg-type]
