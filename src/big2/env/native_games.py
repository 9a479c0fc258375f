"""Self-play games stepped in the compiled core: :class:`NativeGames`, the
backend :class:`~big2.env.vector.VectorEnv` hands its self-play path to when
the rule set is native.

:class:`big2._native.Batch` holds N deals and writes into NumPy arrays this
class allocates once; every call here is a handful of calls into the core,
whatever N is. What it gives equals what the Python-backed ``VectorEnv``
gives for the same positions (``tests/env/test_native_games.py`` plays them
in lockstep): the observation of the seat to move (:mod:`big2.observation`'s
layout), the seat, the action mask and legal plays in the ``"hand"`` action
form (:mod:`big2.env.hand_actions`), and each seat's score when a deal ends —
after which the game is dealt again at once (auto-reset).

>>> games = NativeGames(4, "classic", seed=1)
>>> games.observation.shape, games.action_mask.shape, games.to_move.shape
((4, 635), (4, 2380), (4,))
>>> rng = np.random.default_rng(0)
>>> deals = 0
>>> for _ in range(300):
...     scores, done = games.step(games.sample(rng))
...     deals += int(done.sum())
>>> scores.shape, done.dtype, deals > 0
((4, 4), dtype('bool'), True)

Only the standard family plays here: :func:`native_games_reason` names what
keeps a rule set off (an option the core lacks, a house rule with a hook,
``later_lead="winner"``, the President exchange, or ``BIG2_ENGINE=python``).
The deals come from the core's random stream, which the Python-backed
environment deals too (:mod:`big2.env.deals`): a seed deals the same hands on
both.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Callable
from functools import partial
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from big2.cards import CARD_SYMBOLS, cards_of
from big2.env.batch import check_actions
from big2.env.core import IllegalMode, RewardMode, make_rules
from big2.env.hand_actions import HandActions, max_hand
from big2.game import Game
from big2.observation import OBS_SIZE, observation_layout
from big2.rules import Rules
from big2.variant import native, variant

_LAYOUT: Final = observation_layout()
_FIRST_WIDTH: Final = 64
"""Legal plays a game's row of ids holds at first (it widens when a game has more)."""
MIN_SHARE: Final = 128
"""The fewest games a thread steps: the core keeps its threads between calls, but
below this share a second thread gains little (NativeGames, classic, random legal ids,
two threads against one on the 2-core machine: 1.17x with 64 games a thread, 1.55x with
128, 1.80x with 512)."""

I64 = npt.NDArray[np.int64]


def _buffer_shapes(n: int, players: int, mask_width: int) -> dict[str, tuple[tuple[int, ...], Any]]:
    """The arrays :class:`NativeGames` writes (name: shape, dtype) for *n* games."""
    return {"observation": ((n, OBS_SIZE), np.int8), "to_move": ((n,), np.int64),
            "counts": ((n,), np.int64), "action_mask": ((n, mask_width), np.bool_),
            "scores": ((n, players), np.int64), "done": ((n,), np.bool_),
            "winner": ((n,), np.int64), "illegal": ((n,), np.bool_),
            "final_observation": ((n, OBS_SIZE), np.int8), "hands": ((n, players), np.uint64)}


def _refuse(games: NativeGames, i: int, cards: int) -> str:
    return games.game(i).refusal(cards)


def refusal(hand_actions: HandActions | None, act: int, hand: int,
            why: Callable[[], str]) -> str:
    """Why action id *act* (hand-relative when *hand_actions* is given) is not legal for
    a mover holding *hand*: its places lie beyond the hand (or, in another action form,
    it names cards not held), else the engine's reason, *why()* (the same words on every
    backend)."""
    if hand_actions is not None:
        places = int(hand_actions._places[act])
        if places >> hand.bit_count():
            return "those places are beyond the hand"
    return why()


def illegal_message(bad: npt.NDArray[np.intp], acts: npt.NDArray[np.int64],
                    reasons: list[tuple[int, str]]) -> str:
    """The error of illegal action ids *acts* in games *bad*: each of the first five
    with its cards and reason (*reasons*, one ``(cards, reason)`` each), then how many
    more (the same words on every backend)."""
    parts = []
    for i, (cards, reason) in zip(bad[:5].tolist(), reasons):
        text = " ".join(CARD_SYMBOLS[c] for c in cards_of(cards)) or "pass"
        parts.append(f"game {i}: action {int(acts[i])} ({text}): {reason}")
    more = f"; and {len(bad) - 5} more" if len(bad) > 5 else ""
    return (f"illegal actions in games {bad[:20].tolist()}: " + "; ".join(parts) + more
            + " (nothing was played)")


def native_games_reason(rules: Rules) -> str | None:
    """What keeps *rules* from :class:`NativeGames` (``None``: nothing).

    >>> native_games_reason(Rules()) is None
    True
    >>> native_games_reason(Rules.preset("singapore"))
    'later_lead'
    """
    why = native.native_game_reason(rules)
    if why is not None:
        return why
    plan = variant(rules).plan
    if plan.winner_leads:
        return "later_lead"
    if plan.exchange:
        return "exchange"
    if not variant(rules).native:
        return f"{native.ENGINE_ENV}=python"
    return None


class NativeGames:
    """*num_envs* self-play deals of one rule set, stepped in the compiled core.

    The arrays below are this object's own buffers, rewritten in place by
    every :meth:`step` and :meth:`reset` (copy what you keep; or take the first three
    with :meth:`hand_over`, and the next step writes new ones):

    * :attr:`observation` ``(N, OBS_SIZE)`` int8: each game's seat to move's view;
    * :attr:`to_move` ``(N,)`` int64: that seat;
    * :attr:`action_mask` ``(N, num_actions)`` bool: its legal hand-relative ids;
    * :attr:`counts` ``(N,)`` int64: how many legal plays each game has;
    * :attr:`scores` ``(N, players)`` int64 and :attr:`done` ``(N,)`` bool: the
      last step's finished deals and their scores (zeros elsewhere);
    * :attr:`winner` ``(N,)`` int64: who won each deal the last step finished
      (``-1`` elsewhere);
    * :attr:`illegal` ``(N,)`` bool: games whose deal the last step ended for an
      illegal action (``illegal="end"``).

    Args:
        num_envs: number of games N.
        rules: a :class:`~big2.rules.Rules`, a preset name or ``None`` (classic);
            :func:`native_games_reason` must be ``None`` for it.
        players: seats (2–4), overriding ``rules.players``.
        seed: seeds every game's stream of deals (a non-negative int; ``None``:
            fresh entropy). The same seed and actions give the same games.
        threads: the most threads the core steps and observes the games on
            (the GIL released), one per :data:`MIN_SHARE` games at most (the
            number used is :attr:`threads`); results do not depend on it.
        masks: keep :attr:`action_mask` up to date (``False`` saves writing
            N × num_actions bytes a step for callers that use the legal ids).
        illegal: an action id that names no legal play: ``"raise"`` a
            :class:`ValueError` naming the games before any game moves, or
            ``"end"`` that game's deal unscored (:attr:`illegal` marks it,
            :meth:`rewards` gives its mover *illegal_reward*) and deal a new one.
        illegal_reward: the mover's reward under ``illegal="end"``.
        first: the number of the first game: game *i* here deals the stream of game
            *first + i* of the seed (a share of a larger batch deals what it would
            there).
    """

    def __init__(self, num_envs: int = 256, rules: Rules | str | None = "classic", *,
                 players: int | None = None, seed: int | None = 0, threads: int = 1,
                 masks: bool = True, illegal: IllegalMode = "raise",
                 illegal_reward: float = -1.0, first: int = 0) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 256:
            raise ValueError(f"threads must be an int 1..256, not {threads!r}")
        if illegal not in ("raise", "end"):
            raise ValueError(f"illegal must be 'raise' or 'end', not {illegal!r}")
        self.rules = make_rules(rules, players)
        why = native_games_reason(self.rules)
        if why is not None:
            raise ValueError(f"the rule set {self.rules.name!r} is not stepped natively: {why}")
        self.num_envs = n = num_envs
        self.num_players = p = variant(self.rules).players
        self.threads = max(1, min(threads, num_envs // MIN_SHARE))
        self.hand_actions = HandActions(max_hand(self.rules))
        self.num_actions = self.hand_actions.size
        self.observation_size = OBS_SIZE
        self._first_out_ends = variant(self.rules).scorer.first_out_ends
        engine = variant(self.rules).engine
        assert isinstance(engine, native.NativeEngine)  # native_games_reason saw to it
        self._engine = engine
        self._batch: Any = None
        self.first = first
        """The number of the first game (its stream of deals is that game's)."""
        buf = {name: np.zeros(shape, dtype) for name, (shape, dtype)
               in _buffer_shapes(n, p, self.num_actions if masks else 0).items()}
        self.observation = buf["observation"]
        self.to_move = buf["to_move"]
        self.counts = buf["counts"]
        self.action_mask = buf["action_mask"]
        self.scores = buf["scores"]
        self.done = buf["done"]
        self.winner = buf["winner"]
        self.winner[:] = -1
        self.illegal = buf["illegal"]
        self.final_observation = buf["final_observation"]
        """Where a deal ended on the last step (``done``), its last observation
        by the seat that acted (an illegal ending: the one it acted on); other
        rows are stale."""
        self.illegal_mode: IllegalMode = illegal
        self.illegal_reward = float(illegal_reward)
        self._mover = np.zeros(n, np.int64)
        self._masks = masks
        self._handed = False
        self._hands = buf["hands"]
        self._last = np.zeros(n, np.uint64)
        self._ids = np.zeros((n, _FIRST_WIDTH), np.int64)
        self._plays = np.zeros((n, _FIRST_WIDTH), np.uint64)
        self._acts = np.zeros(n, np.int64)
        self._choices = np.zeros(n, np.int64)
        self._rows = np.arange(n)
        self._pad = 0
        """The rows of ids are padded with -1 this far (the last largest count)."""
        self._any_illegal = False
        """Whether :attr:`illegal` marks a game (the last step's ids named no legal play)."""
        self._deals = 0
        self.reset(seed)

    # -- stepping --------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Deal every game afresh from *seed* (``None``: fresh entropy)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"seed must be a non-negative int or None, not {seed!r}")
        seed = int(seed)
        self._batch = native.batch(self._engine, self.num_envs, seed, self.threads, self.first)
        self._batch.set_layout(_LAYOUT)
        self.scores[:] = 0
        self.done[:] = False
        self.winner[:] = -1
        self.illegal[:] = False
        self._any_illegal = False
        self._deals = 0
        self._refresh()

    def deal(self, hands: npt.NDArray[np.uint64], which: npt.NDArray[np.bool_]) -> None:
        """Games marked in *which* start a deal of their row of *hands*
        (``(N, players)`` card masks, checked by the caller for sizes); the
        holder of the lowest card leads it."""
        self._batch.deal_hands(np.ascontiguousarray(hands, np.uint64),
                               np.ascontiguousarray(which, np.bool_))
        self._refresh()

    @property
    def deals(self) -> int:
        """Deals finished since the last :meth:`reset`."""
        return self._deals

    def step(self, actions: npt.ArrayLike) -> tuple[I64, npt.NDArray[np.bool_]]:
        """Play one hand-relative action id in every game; ``(scores, done)``.

        ``scores`` (N, players) holds each seat's score in the games whose deal
        ended on this step (zeros elsewhere), ``done`` (N,) marks them; those
        games are dealt again at once, so the observation is the new deal's.
        Ids of the wrong shape or type, out of range, or not legal now raise
        :class:`ValueError` naming the games, before any game moves; so do ids
        that name no legal play, unless ``illegal="end"`` (see the class).
        """
        return self.play_ids(check_actions(actions, self.num_envs, self.num_actions,
                                           out=self._acts))

    def play_ids(self, acts: I64) -> tuple[I64, npt.NDArray[np.bool_]]:
        """:meth:`step` on ids already checked for shape, type and range (``int64``, each
        in ``0..num_actions - 1``, as :func:`~big2.env.batch.check_actions` gives them):
        the ids that name no legal play are still found here."""
        bad = self._batch.choices_from_hand_ids(self.hand_actions.hand, acts, self._choices)
        np.copyto(self._mover, self.to_move)
        if bad and self.illegal_mode == "raise":
            raise ValueError(self._illegal_message(np.flatnonzero(self._choices < 0), acts))
        if bad:
            np.less(self._choices, 0, out=self.illegal)
            self.final_observation[self.illegal] = self.observation[self.illegal]
        elif self._any_illegal:
            self.illegal[:] = False
        self._any_illegal = bool(bad)
        self._step_refresh(self.illegal if bad else None)
        if self._first_out_ends:  # the deal ended as its mover went out
            won = self._mover
        else:  # ranking: it ended with one seat left; the first out scores most
            won = self.scores.argmax(axis=1)
        scored = self.done & ~self.illegal if bad else self.done
        self.winner.fill(-1)
        np.copyto(self.winner, won, where=scored)
        self._deals += int(np.count_nonzero(scored))
        return self.scores, self.done

    def rewards(self, mode: RewardMode = "score") -> npt.NDArray[np.float32]:
        """The last step's rewards (N, players) as :class:`~big2.env.vector.VectorEnv`
        gives them: the scores (``"score"``), or +1 to the winner and −1 to
        every other seat (``"win"``), in games whose deal ended; else 0. A
        deal ended by an illegal action gives its mover *illegal_reward*, the
        others 0."""
        if mode == "score":
            out = self.scores.astype(np.float32)
        elif mode == "win":
            seats = np.arange(self.num_players)
            out = np.where(seats == self.winner[:, None], 1.0, -1.0).astype(np.float32)
            out[self.winner < 0] = 0.0
        else:
            raise ValueError(f"reward must be 'score' or 'win', not {mode!r}")
        if self._any_illegal:
            rows = np.flatnonzero(self.illegal)
            out[rows] = 0.0
            out[rows, self._mover[rows]] = self.illegal_reward
        return out

    def hand_over(self) -> dict[str, npt.NDArray[Any]]:
        """The arrays of :attr:`observation`, :attr:`to_move` and :attr:`action_mask`,
        given to the caller: the next :meth:`step` (or reset or deal) writes the next
        positions into new arrays instead (as fast as writing into these, in the core's
        threads, where a copy would be one more pass over them in this thread)."""
        self._handed = True
        return {"observation": self.observation, "to_move": self.to_move,
                "action_mask": self.action_mask}

    def take_back(self) -> dict[str, npt.NDArray[Any]]:
        """The same three arrays, kept: the next :meth:`step` rewrites them (undoes a
        :meth:`hand_over` not yet stepped past)."""
        self._handed = False
        return {"observation": self.observation, "to_move": self.to_move,
                "action_mask": self.action_mask}

    def _renew(self) -> None:
        """New buffers for the next positions after :meth:`hand_over`."""
        if self._handed:
            self._handed = False
            self.observation = np.empty_like(self.observation)
            self.to_move = np.empty_like(self.to_move)
            self.action_mask = np.empty_like(self.action_mask)

    def _refresh(self) -> None:
        """Read the new positions into the buffers (new ones after :meth:`hand_over`)."""
        self._renew()
        b = self._batch
        b.observe_into(self.observation, _LAYOUT)
        b.state_into(self._hands, self.to_move, self._last)
        mask = self.action_mask if self._masks else None
        self._widen(b.hand_ids_into(self.hand_actions.hand, self._ids, self.counts, mask))

    def _step_refresh(self, redeal: npt.NDArray[np.bool_] | None) -> None:
        """Step the games on :attr:`_choices` (those marked in *redeal* deal again
        unscored) and read the new positions into the buffers, :meth:`_refresh`'s arrays
        alike, in one call of the core (``step_observe``: one split over its threads
        where the step and the refresh took four, and no layout read each step)."""
        self._renew()
        mask = self.action_mask if self._masks else None
        self._widen(self._batch.step_observe(
            self._choices, self.scores, self.done, redeal, self.final_observation,
            self.observation, self._hands, self.to_move, self._last, self.hand_actions.hand,
            self._ids, self.counts, mask, self._pad))

    def _widen(self, most: int) -> None:
        """After the ids were written: *most*, the largest count, wider than a row holds
        widens the rows and writes them again."""
        if most > self._ids.shape[1]:  # a game has more plays than a row holds: widen
            width = max(most, 2 * self._ids.shape[1])
            self._ids = np.zeros((self.num_envs, width), np.int64)
            self._plays = np.zeros((self.num_envs, width), np.uint64)
            self._batch.hand_ids_into(self.hand_actions.hand, self._ids, self.counts, None)
        self._pad = most

    def _illegal_message(self, bad: npt.NDArray[np.intp], acts: I64) -> str:
        return illegal_message(bad, acts, self.reasons(bad[:5], acts))

    def reasons(self, games: npt.NDArray[np.intp], acts: I64) -> list[tuple[int, str]]:
        """For each of *games* (numbers here), the cards its action id in *acts* names
        (a mask) and why it is not legal now."""
        held = self.mover_hand()
        out = []
        for i in np.asarray(games).tolist():
            cards = int(self.decode(np.array([i]), acts[i:i + 1])[0])
            why = partial(_refuse, self, i, cards)
            out.append((cards, refusal(self.hand_actions, int(acts[i]), int(held[i]), why)))
        return out

    def game(self, i: int) -> Game:
        """Game *i*'s deal so far as a :class:`~big2.game.Game` (see :meth:`games`)."""
        hands, dealer, plays = self._batch.deal_log(i)
        g = Game(self.rules, hands=hands, dealer=dealer)
        for m in plays:
            g.play(m)
        return g

    def games(self) -> list[Game]:
        """Each game's deal so far as a :class:`~big2.game.Game` (its dealt hands and
        dealer, every play and pass replayed on the Python engine): new objects on each
        call, the core's games being unchanged by what is done to them."""
        return [self.game(i) for i in range(self.num_envs)]

    # -- for the caller ----------------------------------------------------------

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand in every game, ``(N, players)`` card masks (a copy)."""
        return self._hands.copy()

    def mover_hand(self) -> npt.NDArray[np.uint64]:
        """The hand of each game's seat to move, ``(N,)`` card masks."""
        out: npt.NDArray[np.uint64] = self._hands[self._rows, self.to_move]
        return out

    def decode(self, games: npt.NDArray[np.intp], ids: npt.ArrayLike) -> npt.NDArray[np.uint64]:
        """The card masks that hand-relative *ids* name in *games* now."""
        return self.hand_actions.decode(np.asarray(ids, np.int64), self.mover_hand()[games])

    def legal_ids(self) -> list[I64]:
        """Each game's legal action ids, in the engine's order (weakest first,
        the pass last)."""
        return [self._ids[i, :c] for i, c in enumerate(self.counts.tolist())]

    def legal_plays(self) -> tuple[npt.NDArray[np.int8], I64, I64]:
        """Each game's legal plays, padded to the batch's largest count *K*:
        ``(cards, ids, counts)`` — cards ``(N, K, 52)`` int8 0/1 (the pass an
        all-zero row, zeros past a game's count), ids ``(N, K)`` (``-1`` as
        padding) and counts ``(N,)``: the fields of
        :class:`~big2.env.vector.PaddedPlays`, as new arrays."""
        k = int(self.counts.max())
        most = self._batch.legal_into(self._plays, self.counts)
        assert most == k, (most, k)
        plays = np.ascontiguousarray(self._plays[:, :k])
        bits = np.unpackbits(plays.view(np.uint8).reshape(self.num_envs, k, 8), axis=-1,
                             bitorder="little")
        cards = bits[:, :, :52].astype(np.int8)
        return cards, self._ids[:, :k].copy(), self.counts.copy()

    def sample(self, rng: np.random.Generator | None = None) -> I64:
        """One uniformly random legal action id per game."""
        rng = rng if rng is not None else np.random.default_rng()
        out: I64 = np.empty(self.num_envs, np.int64)  # ids[i, int(draw[i] * counts[i])]
        self._batch.pick_ids(rng.random(self.num_envs), self._ids, self.counts, out)
        return out

    def __repr__(self) -> str:
        return (f"NativeGames({self.num_envs}, {self.rules.name!r}, players={self.num_players}, "
                f"threads={self.threads})")


__all__ = [
    "MIN_SHARE",
    "IllegalMode",
    "NativeGames",
    "illegal_message",
    "native_games_reason",
    "refusal",
]
