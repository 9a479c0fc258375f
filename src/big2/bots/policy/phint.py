"""The heuristic's reading of a position as inputs of the policy network.

The policy (:mod:`big2.bots.policy.pnet`) reads :data:`HINTS` extra columns per
legal play (:func:`hints`):

* 1 on the play the ``heuristic`` bot (:func:`big2.bots.rules_based.heuristic.decide`,
  in the compiled core) would choose in the same position, 0 on the others
  (:func:`heuristic_hints`);
* the heuristic's hand planner on the play (:func:`plan_hints`): whether it
  is one of the plays the planner splits the hand into, how many plays the
  planner needs for the cards it keeps (/13), and their cost (/13, roughly
  "plays still needed", a low single costing more than a 2).

The network learns how far to trust them, and where to play otherwise: a
network that ignores the columns (zero weights, as every network trained
before them has) computes what it computed.

The hint is computed from the observation alone — the seat's hand, the
cards seen played, the play to beat and the cards each seat holds — so it
shows the network nothing hidden. The rules come from the caller (a bot
knows its table's rules) or else from the family's preset.

>>> import numpy as np
>>> from big2 import Game
>>> from big2.bots import make_bot
>>> from big2.observation import card_vectors, encode_game
>>> g = Game(seed=3)
>>> legal = g.legal_masks()
>>> hint = heuristic_hints(encode_game(g, g.to_move)[None], np.array([0]),
...                        card_vectors(legal), np.array([len(legal)]))
>>> legal[int(hint.argmax())] == make_bot("heuristic").choose(g.view(g.to_move))
True
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from big2.bots.policy.pfeatures import FAMILIES, HINTS, unseen_cards
from big2.bots.rules_based import native
from big2.bots.rules_based.heuristic import decide
from big2.bots.rules_based.planning import plan
from big2.combos import engine
from big2.observation import LAYOUT, MAX_COUNT, MAX_SEATS
from big2.rules import Rules
from big2.variant import Engine

F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]

_HAND = LAYOUT["hand"]
_LAST, _COUNT, _PLAYERS = LAYOUT["last_play"], LAYOUT["count"], LAYOUT["players"]
_BITS = np.uint64(1) << np.arange(52, dtype=np.uint64)


def masks(vectors: I8) -> npt.NDArray[np.uint64]:
    """Card masks of ``(..., 52)`` 0/1 card vectors (card ``i`` is bit ``i``).

    >>> int(masks(np.eye(52, dtype=np.int8)[[0, 51]].sum(axis=0)))
    2251799813685249
    """
    out: npt.NDArray[np.uint64] = (vectors.astype(np.uint64) * _BITS).sum(axis=-1, dtype=np.uint64)
    return out


@cache
def _family_engine(family: int) -> Engine:
    return engine(Rules.preset(FAMILIES[family]))


def heuristic_hints(obs: I8, family: npt.NDArray[np.integer], plays: I8,
                    counts: npt.NDArray[np.integer], rules: Rules | None = None) -> F32:
    """``(P,)``: 1 on the play the heuristic picks in each position, 0 elsewhere.

    Args:
        obs: ``(N, OBS_SIZE)`` observations.
        family: each one's family index (the preset whose rules the hint
            plays by, unless *rules* is given).
        plays: ``(P, 52)`` every position's legal plays, one position after
            another (a pass is a zero row).
        counts: ``(N,)`` how many of the rows are each position's.
        rules: the table's rules, for every position.
    """
    counts = np.asarray(counts, dtype=np.int64)
    out = np.zeros(len(plays), dtype=np.float32)
    if rules is not None and rules.extended_deck:  # the planner is for one deck
        return out
    starts = np.cumsum(counts) - counts
    out[starts[counts == 1]] = 1.0
    choose = np.flatnonzero(counts > 1)
    if not len(choose):
        return out
    o = obs[choose]
    hand = masks(o[:, _HAND]).tolist()
    last = masks(o[:, _LAST]).tolist()
    unseen = masks(unseen_cards(o)).tolist()
    players = 2 + o[:, _PLAYERS].argmax(axis=1)
    held = o[:, _COUNT].reshape(len(o), MAX_SEATS, MAX_COUNT + 1).argmax(axis=2).tolist()
    play_masks = masks(plays).tolist()
    fam = np.broadcast_to(np.asarray(family), (len(obs),))[choose].tolist()
    eng = engine(rules) if rules is not None else None
    for j, i in enumerate(choose.tolist()):
        at = int(starts[i])
        legal = play_masks[at:at + int(counts[i])]
        pick = decide(eng or _family_engine(fam[j]), 0, hand[j], legal, last[j],
                      held[j][:int(players[j])], unseen[j])
        out[at + (legal.index(pick) if pick in legal else 0)] = 1.0
    return out


def _planner(eng: Engine, hand: int) -> tuple[tuple[int, ...], float]:
    """The plan of *hand* as ``(combos, cost)``: the core's, else the Python planner's."""
    got = native.plan(eng, hand)  # the core's, where the rule set is native
    if got is None:
        pl = plan(eng, hand)
        return pl.combos, pl.cost
    return got


def plan_hints(obs: I8, family: npt.NDArray[np.integer], plays: I8,
               counts: npt.NDArray[np.integer], rules: Rules | None = None) -> F32:
    """``(P, 3)``: the hand planner's reading of each play (arguments as
    :func:`heuristic_hints`): whether the plan of the seat's hand holds the
    play, and the number of plays (/13) and cost (/13) of the plan of the
    cards the play keeps. Zero for a position with one legal play.

    >>> import numpy as np
    >>> from big2.cards import parse_cards
    >>> from big2.observation import OBS_SIZE, card_vectors
    >>> obs = np.zeros((1, OBS_SIZE), dtype=np.int8)
    >>> obs[0, :52] = card_vectors([int(parse_cards("3D 3C 4D"))])[0]
    >>> plays = card_vectors([int(parse_cards("3D")), int(parse_cards("3D 3C"))])
    >>> got = plan_hints(obs, np.array([0]), plays, np.array([2]))
    >>> got[:, 0].tolist(), (got[:, 1] * 13).round().tolist()  # in the plan, plays left
    ([0.0, 1.0], [2.0, 1.0])
    """
    counts = np.asarray(counts, dtype=np.int64)
    out = np.zeros((len(plays), 3), dtype=np.float32)
    if rules is not None and rules.extended_deck:
        return out
    starts = np.cumsum(counts) - counts
    choose = np.flatnonzero(counts > 1)
    if not len(choose):
        return out
    hand = masks(obs[choose][:, _HAND]).tolist()
    play_masks = masks(plays).tolist()
    fam = np.broadcast_to(np.asarray(family), (len(obs),))[choose].tolist()
    eng = engine(rules) if rules is not None else None
    for j, i in enumerate(choose.tolist()):
        e = eng or _family_engine(fam[j])
        h = hand[j]
        at = int(starts[i])
        whole = set(_planner(e, h)[0])
        for k, m in enumerate(play_masks[at:at + int(counts[i])], at):
            combos, cost = _planner(e, h & ~m)
            out[k] = (float(m in whole), len(combos) / 13, cost / 13)
    return out


def hints(obs: I8, family: npt.NDArray[np.integer], plays: I8,
          counts: npt.NDArray[np.integer], rules: Rules | None = None) -> F32:
    """``(P, HINTS)``: every hint column of each play (arguments as
    :func:`heuristic_hints`): the heuristic's choice, then :func:`plan_hints`."""
    out = np.empty((len(plays), HINTS), dtype=np.float32)
    out[:, 0] = heuristic_hints(obs, family, plays, counts, rules)
    out[:, 1:] = plan_hints(obs, family, plays, counts, rules)
    return out


__all__ = ["heuristic_hints", "hints", "masks", "plan_hints"]
