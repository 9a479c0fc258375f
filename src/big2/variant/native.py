"""The compiled core behind the play-engine protocol, for the standard family.

:mod:`big2._native` (C++17, ``src/native/engine.hpp``) lists, reads and
compares plays on 52-bit masks from tables this module compiles out of a
rule set's :class:`~big2.variant.keys.StrengthKeys` and
:class:`~big2.variant.tables.TableEngine`: every power it returns is the very
int the Python engine computes, so the rule options keep their meaning in one
place (``keys``, ``compare``, ``deck``, ``turns``, ``scorer``) and the core only
generates and compares on it.

:func:`native_reason` says why a rule set is not native (``None`` when it is);
:class:`NativeEngine` is a :class:`~big2.variant.tables.TableEngine` whose
listing and reading run in the core, so the game, the bots and the scorer use it
unchanged. Two decks (2-8 players) and jokers (valueless or wild) run on
:class:`WideNativeEngine`, the generic engine with the core's listing on 128-bit masks
(``src/native/engine_extended.hpp``; wild jokers' readings in ``engine_wild.hpp``; tables from
:func:`compile_wide`). The Python
engine stays the reference: ``BIG2_ENGINE=python`` in the
environment (read when a rule set is first compiled), or
``variant(rules, engine="python")``, selects it.

>>> from big2.rules import Rules
>>> native_reason(Rules()) is None or native_reason(Rules()) == "the extension is not built"
True
>>> native_reason(Rules(smack_down="2S"))
'smack_down'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from big2.cards import NUM_CARDS, Mask
from big2.rules import Rules
from big2.variant.compare import Comparator
from big2.variant.generic import GenericEngine
from big2.variant.handplays import EMPTY, HAND_CACHE, HandPlays
from big2.variant.keys import PLAY_MASK, PLAY_SHIFT, StrengthKeys
from big2.variant.kinds import Combo, Kind
from big2.variant.tables import TableEngine

try:  # (the extension module by its own name, as tests/core/test_import_graph.py reads it)
    import big2._native as _native  # noqa: PLR0402
except ImportError:  # pragma: no cover - a source tree without the built extension
    _native = None  # type: ignore[assignment]

ENGINE_ENV = "BIG2_ENGINE"
"""The environment variable that picks the engine: ``python`` (the reference) or
``native`` (the default where the rule set allows it)."""

_OFF: dict[str, Any] = {
    "smack_down": "off", "straight_min": 5, "straight_max": 5,
    "dragon": False, "bomb_on_small": False, "four_beats_all": False,
}
"""Options the core does not play, with the one value it does: any other value keeps the
rule set on the Python engine. (One deck and 2-4 players, or two decks and 2-8 players:
both; two decks and jokers run on the core's 128-bit masks, ``src/native/engine_extended.hpp``,
five of a kind included.)"""

_GAME_OFF: dict[str, Any] = {
    "redeal": (), "four_twos": "play", "maltese": False, "last_card": False,
    "assist_penalty": False, "spare_swap": False, "go_fish": False,
    "three_threes": False, "teams": False,
}
"""House rules (hooks of :mod:`big2.house`) the core's own deal loop does not play: with
one on, the engine is still native under :class:`~big2.Game` (the hooks run there), but
:func:`native_deal_reason` says the deal cannot be stepped in the core. (Finish
restrictions are played by the core's deal, ``Tables.finish_barred``, but not by its
one-deck loops: :func:`native_game_reason`.)"""

_FINISH_BITS = {"any-2": 1, "single-2": 2, "pair-2": 4, "2S": 8}
"""Each finish restriction's bit in the core's ``finish_barred``."""

_SCORING = ("classic", "penalty", "count", "ranking")


def available() -> bool:
    """Whether the compiled core is built and importable."""
    return _native is not None


def native_reason(rules: Rules) -> str | None:
    """The first option (or cause) that keeps *rules* off the native engine, or
    ``None`` when the core plays every option of it."""
    if _native is None:
        return "the extension is not built"
    for name, value in _OFF.items():
        if getattr(rules, name) != value:
            return name
    if rules.decks not in (1, 2):
        return "decks"
    if rules.players > (4 if rules.decks == 1 else 8):
        return "players"
    return None


def native_deal_reason(rules: Rules) -> str | None:
    """Like :func:`native_reason`, for keeping a :class:`~big2.Game`'s deal in the core
    (:class:`big2._native.State`, or ``WideState`` for two decks or jokers: what
    :attr:`~big2.variant.Variant.native_deal` says): house-rule hooks must be off, finish
    restrictions excepted (the core's deal plays them)."""
    why = native_reason(rules)
    if why is not None:
        return why
    for name, value in _GAME_OFF.items():
        if getattr(rules, name) != value:
            return name
    return None


def native_game_reason(rules: Rules) -> str | None:
    """Like :func:`native_deal_reason`, for the core's own one-deck deal loops (its
    deal and random stream, :class:`big2._native.Batch`, the benchmark loop, the
    heuristic's play-outs): one deck too."""
    why = native_deal_reason(rules)
    if why is None and rules.decks != 1:
        return "decks"
    if why is None and rules.jokers != "none":
        return "jokers"
    if why is None and rules.finish_restrictions:  # a leader's pass: not in those loops
        return "finish_restrictions"
    return why


def batch(eng: NativeEngine, num_envs: int, seed: int, threads: int = 1, first: int = 0) -> Any:
    """*num_envs* deals of *eng*'s rule set stepped together in the core
    (:class:`big2._native.Batch`, for the vector environment's native backend,
    :mod:`big2.env.native_games`); *seed* is taken modulo 2**64, and the games are
    numbered from *first* (game *i* deals the stream of seed and number)."""
    if _native is None:
        raise RuntimeError("big2._native is not built: pip install -e . builds it")
    return _native.Batch(eng.tables, num_envs, seed % (1 << 64), threads, first)


def shuffle_deal(random: Callable[[], float], count: int, per: int, order: Sequence[int]
                 ) -> tuple[list[Mask], list[int]]:
    """One deck of *count* places shuffled and dealt in the core as
    :meth:`big2.variant.deck.Deck.shuffle_deal` does it: a key from *random()* for each
    place in turn, the places sorted by key (ties in place order), seat ``order[i]`` dealt
    the places ``i, i + n, ...`` of the first ``per * n``: (each seat's hand, the places
    left over in order)."""
    if _native is None:
        raise RuntimeError("big2._native is not built: pip install -e . builds it")
    hands, rest = _native.shuffle_deal(random, count, per, list(order))
    return hands, rest


def deal_state(eng: NativeEngine | WideNativeEngine, hands: list[Mask], to_move: int,
               must: Mask, owner: object = None) -> Any:
    """A deal of *eng*'s rule set kept and stepped in the core (:class:`big2._native.State`,
    or ``WideState`` for two decks or jokers: what :mod:`big2.native_deal` keeps for a
    :class:`~big2.Game`): *hands*, *to_move* leading, its first play containing *must*
    (0: free); *owner*, the rule set's variant, goes into the
    :class:`~big2.position.LegalPlays` it makes."""
    if _native is None:
        raise RuntimeError("big2._native is not built: pip install -e . builds it")
    if isinstance(eng, WideNativeEngine):
        return _native.WideState(eng.tables, hands, to_move, must, owner)
    return _native.State(eng.tables, hands, to_move, must, owner)


def first_out_reason(rules: Rules) -> str | None:
    """Like :func:`native_deal_reason`, for the core's first-out search: one deck too."""
    why = native_deal_reason(rules)
    if why is None and rules.decks != 1:
        return "decks"
    if why is None and rules.jokers != "none":
        return "jokers"
    return why


def first_out(rules: Rules, table_bits: int = 20) -> Any:
    """The core's first-out search (:class:`big2._native.FirstOut`) for *rules*, a rule set
    it plays (:func:`first_out_reason` is ``None``), else ``ValueError`` saying why not
    (:class:`big2.puzzles.solve.FirstOutSolver` is its front)."""
    if _native is None:
        raise RuntimeError("big2._native is not built: pip install -e . builds it")
    why = first_out_reason(rules)
    if why is not None:
        raise ValueError(f"the core does not play this rule set whole: {why}")
    eng = native_engine(rules)
    assert isinstance(eng, NativeEngine)  # one deck: native_deal_reason says so
    return _native.FirstOut(eng.tables, table_bits)


def plays_base() -> type | None:
    """The core's C base of :class:`~big2.position.LegalPlays` (``_native.PlaysBase``),
    or ``None`` where the core is not built."""
    return None if _native is None else _native.PlaysBase


def register_plays(plays: type, card_set: type[int]) -> None:
    """Tell the core the classes it makes: *plays* for ``State.legal_plays()`` (a
    subclass of :func:`plays_base`), *card_set* for the plays read from it."""
    if _native is not None:
        _native.set_card_type(card_set)
        _native.set_plays_type(plays)


def wanted(engine: str) -> str:
    """The engine asked for: *engine* itself unless ``"auto"``, then the
    environment's :data:`ENGINE_ENV` (default ``native``)."""
    choice = engine if engine != "auto" else os.environ.get(ENGINE_ENV, "native") or "native"
    if choice not in ("native", "python"):
        raise ValueError(f"engine: {choice!r} is not one of: auto, native, python")
    return choice


def compile_tables(rules: Rules, eng: TableEngine) -> Any:
    """The rule set as the core's tables (:class:`big2._native.Tables`), every power read
    off the Python engine's own tables (*eng*, a :class:`TableEngine` of *rules*)."""
    if _native is None:
        raise RuntimeError("big2._native is not built: pip install -e . builds it")
    from big2.variant.deck import Deck
    from big2.variant.scorer import Scorer
    from big2.variant.turns import TurnOrder

    k: StrengthKeys = eng.keys
    sub_power = [0] * (13 * 16)
    for size in (1, 2, 3, 4):
        for r in range(13):
            for enc in eng._groups[size][r][15]:  # every subset of the four suits
                sub_power[r * 16 + ((enc & PLAY_MASK) >> (4 * r))] = enc >> PLAY_SHIFT
    top_power = [k.top_strength(1 << c) for c in range(NUM_CARDS)]
    flush_power = [0] * (4 * 8192)
    if not k.top_card:
        for s in range(4):
            for rm, power in k.flush_powers[k.suit_rank[s]].items():
                flush_power[s * 8192 + rm] = power
    straight_power: list[int] = []
    for i in range(len(k.straight_list)):
        for flush in (0, 1):
            straight_power += [0 if k.top_card else k.seq_powers[flush][i][k.suit_rank[s]]
                               for s in range(4)]
    deck, turns = Deck(rules, k.strength), TurnOrder(rules)
    scorer = Scorer(rules, eng, k, deck.per_seat, turns.after)
    n = rules.players
    return _native.Tables(
        sub_power=sub_power, top_power=top_power, flush_power=flush_power,
        straight_mask=[rmask for rmask, _, _ in k.straight_list],
        straight_decide=[k.straights[rmask][1] for rmask, _, _ in k.straight_list],
        straight_power=straight_power,
        full_house_power=[k.five(Kind.FULL_HOUSE, r, 0) for r in range(13)],
        four_kicker_power=[k.five(Kind.FOUR_KICKER, r, 0) if eng.four_kicker else 0
                           for r in range(13)],
        five_trips=eng.five_trips,
        five_trips_power=[k.five(Kind.FIVE_TRIPS, r, 0) if eng.five_trips else 0
                          for r in range(13)],
        five_two_pairs=("no", "any", "sisters").index(eng.five_two_pairs),
        five_two_pairs_base=[k.five(Kind.FIVE_TWO_PAIRS, 0, 0)
                             if eng.five_two_pairs != "no" and not k.top_card else 0],
        play_equal=eng.compare.play_equal,
        triples=eng.triples, two_pairs=eng.two_pairs, four_alone=eng.four_alone,
        four_kicker=eng.four_kicker, same_kind=eng.same_kind, top_card=k.top_card,
        players=n, after=[s for seat in range(n) for s in turns.after[seat]],
        jump_back=turns.jump_back, one_pass=turns.one_pass, opening_alone=deck.opening_alone,
        finish_barred=sum(_FINISH_BITS[r] for r in set(rules.finish_restrictions)),
        scoring=_SCORING.index(scorer.method), twos_each=scorer.twos_each,
        count_twos=scorer.count_twos,
        multiplier=[scorer.multiplier(left) for left in range(NUM_CARDS + 1)],
        by_strength=list(deck.by_strength), per_seat=deck.per_seat, left_over=deck.left_over,
        spare_to=("lowest", "highest", "aside").index(deck.spare_to),
        thirteen_each=deck.thirteen_each)


def compile_wide(rules: Rules, eng: GenericEngine) -> Any:
    """A two-deck or joker rule set as the core's tables (:class:`big2._native.WideTables`): the
    one-deck tables of the same play options (four players; five of a kind off, as one
    deck has none) for the plays of distinct card names, their powers from *eng*'s own
    keys (so five of a kind keeps its place among the five-card kinds), every one-rank
    play's power (one to five cards) read off the generic engine *eng* by the multiset of
    its suits, the seats' order and multipliers for *rules*' players, and for wild jokers
    what their readings need of the keys (kind bases and orders, suit positions)."""
    if _native is None:
        raise RuntimeError("big2._native is not built: pip install -e . builds it")
    from big2.variant.deck import Deck
    from big2.variant.scorer import Scorer
    from big2.variant.turns import TurnOrder

    one = rules.replace(decks=1, players=4, deal="even", five_of_a_kind="off", jokers="none")
    base = compile_tables(one, TableEngine(one, eng.keys, Comparator(one)))
    rank_power, rank_ok = [0] * (13 * 256), [False] * (13 * 256)
    for r in range(13):
        for names in range(1, 16):
            twice = names
            while True:  # every subset of the names, held twice
                if names.bit_count() + twice.bit_count() <= 5:
                    nat = sorted([r * 4 + s for s in range(4) if names >> s & 1]
                                 + [r * 4 + s for s in range(4) if twice >> s & 1])
                    reads = eng._sorted_reads(tuple(nat), 0)
                    if reads and eng._leads(reads[0][0]):
                        rank_power[r * 256 + (names | twice << 4)] = reads[0][1]
                        rank_ok[r * 256 + (names | twice << 4)] = True
                if not twice:
                    break
                twice = (twice - 1) & names
    deck, turns = Deck(rules, eng.strength), TurnOrder(rules)
    scorer = Scorer(rules, eng, eng.keys, deck.per_seat, turns.after)
    n = rules.players
    jokers = [eng.readings(1 << c)[0].power if eng.deck_cards >> c & 1 else 0
              for c in (NUM_CARDS, NUM_CARDS + 1)]
    k = eng.keys
    return _native.WideTables(
        base, rank_power, rank_ok, n, [s for seat in range(n) for s in turns.after[seat]],
        [scorer.multiplier(left) for left in range(104 + 1)], eng.deck_cards, jokers,
        wild=eng.wild, kind_base=[k.kind_base.get(Kind(i), 0) if i else 0 for i in range(16)],
        kind_order=[k.kind_order.get(Kind(i), 0) if i else 0 for i in range(16)],
        suit_pos=list(k.suit_rank), suited=k.suited,
        five_of_a_kind=rules.five_of_a_kind != "off")


@lru_cache(maxsize=128)
def native_engine(rules: Rules) -> NativeEngine | WideNativeEngine:
    """The native engine of *rules*, compiled once: the one ``variant(rules)`` plays
    with, and what an unpickled :class:`NativeEngine` becomes (a
    :class:`WideNativeEngine` for two decks)."""
    wide = rules.decks == 2 or rules.jokers != "none"
    return WideNativeEngine(rules) if wide else NativeEngine(rules)


class NativeEngine(TableEngine):
    """A :class:`TableEngine` whose listing and reading of plays run in the core.

    Same protocol, same :class:`HandPlays` layout and the same powers as the
    Python engine; only :meth:`classify` and the listing of a fresh hand's
    plays are native.
    """

    native = True

    def __init__(self, rules: Rules, keys: StrengthKeys | None = None,
                 compare: Comparator | None = None) -> None:
        super().__init__(rules, keys, compare)
        self.tables = compile_tables(rules, self)
        """The core's compiled tables (:class:`big2._native.Tables`)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and deep-copied as its rule set (the core's tables cannot be): the
        copy is the rule set's compiled native engine."""
        return (native_engine, (self.rules,))

    def _classify_new(self, mask: Mask) -> Combo | None:
        """:meth:`classify` of a mask not in its cache, read by the core."""
        if not isinstance(mask, int) or mask <= 0 or mask >> NUM_CARDS:
            return None  # not a set of cards of this deck
        got = _native.classify(self.tables, int(mask))
        return None if got is None else Combo(Kind(got[0]), mask, got[1])

    def _generate(self, hand: Mask) -> HandPlays:
        g1, g2, g3, g4, g5 = _native.hand_plays(self.tables, hand & ((1 << NUM_CARDS) - 1))
        return HandPlays((EMPTY, g1, g2, g3, g4, g5, EMPTY, EMPTY), self)


class WideNativeEngine(GenericEngine):
    """The generic engine of a two-deck or joker rule set whose listing of a hand's plays
    runs in the core (``src/native/engine_extended.hpp``): the same plays, once per set of card
    names, in the same order and with the same powers; reading a set of cards
    (:meth:`classify`, :meth:`as_played`) and following stay the generic engine's here
    (the core's deal, ``WideState``, follows and reads in C++)."""

    native = True

    def __init__(self, rules: Rules, keys: StrengthKeys | None = None) -> None:
        super().__init__(rules, keys)
        self.tables = compile_wide(rules, self)
        """The core's compiled tables (:class:`big2._native.WideTables`)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and deep-copied as its rule set (see :meth:`NativeEngine.__reduce__`)."""
        return (native_engine, (self.rules,))

    def hand_plays(self, hand: Mask) -> HandPlays:
        """Every play of *hand*, listed by the core (cached; do not change the result)."""
        got = self._cache.get(hand)
        if got is None:
            if len(self._cache) > HAND_CACHE:
                self._cache.clear()
            g1, g2, g3, g4, g5 = _native.wide_hand_plays(self.tables, hand)
            got = self._cache[hand] = HandPlays(([], g1, g2, g3, g4, g5, [], []), self)
        return got


__all__ = [
    "ENGINE_ENV", "NativeEngine", "WideNativeEngine", "available", "batch", "compile_tables",
    "compile_wide", "deal_state", "first_out", "first_out_reason", "native_deal_reason",
    "native_engine", "native_game_reason", "native_reason", "plays_base", "register_plays", "wanted",
]
