"""Many games stepped in one call: :class:`VectorEnv`, for self-play training.

Every array is NumPy and batched over the games; the per-game work on the
hot path is the engine's own (one play and the next seat's legal plays), and
everything else — the observations, the masks, the action ids — is built for
all games at once.

>>> venv = VectorEnv(4, "classic", seed=1)
>>> obs = venv.reset()
>>> obs["observation"].shape, obs["action_mask"].shape, obs["to_move"].shape
((4, 635), (4, 2380), (4,))
>>> rng = np.random.default_rng(0)
>>> for _ in range(300):
...     obs, rewards, done, info = venv.step(venv.sample(rng))
>>> rewards.shape, done.dtype, int(venv.deals) > 0
((4, 4), dtype('bool'), True)

The caller plays every seat (self-play); ``opponents=`` seats bots in every
seat but the learners'. An action form (``actions=``) says what an id means:

* ``"hand"`` (default): places in the mover's sorted hand
  (:mod:`big2.env.hand_actions`; 2,380 ids for 13-card hands);
* ``"rule"``: index into :func:`~big2.env.actions.rule_actions` — the rule
  set's own plays (19,899 under the classic rules);
* ``"flat"``: the fixed 202,204 ids of :mod:`big2.env.actions` (every rule set).

:meth:`VectorEnv.legal_plays` gives each game's legal plays as card vectors
for networks that score (state, play) pairs.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from typing import Any, Final, Literal, NamedTuple, Self

import numpy as np
import numpy.typing as npt

from big2.bots import Bot, make_bot
from big2.cards import CARD_SYMBOLS, cards_of
from big2.env.actions import ACTION_MASKS, NUM_ACTIONS, rule_actions
from big2.env.batch import Batch as _Batch
from big2.env.batch import observe_batch
from big2.env.core import RewardMode, Table, make_rules
from big2.env.hand_actions import HandActions, max_hand
from big2.env.shards import Shards
from big2.game import Game
from big2.house.spare import spare
from big2.observation import OBS_SIZE, card_vectors
from big2.rules import Rules
from big2.variant import variant

ActionForm = Literal["hand", "rule", "flat"]
ACTION_FORMS: Final = ("hand", "rule", "flat")
IllegalMode = Literal["raise", "end"]



class LegalPlays(NamedTuple):
    """Every game's legal plays, padded to the largest count *K* of the batch."""

    cards: npt.NDArray[np.int8]
    """``(N, K, 52)``: row k of game i is its k-th play as a 0/1 card vector
    (the pass an all-zero row); rows past ``counts[i]`` are zero."""
    ids: npt.NDArray[np.int64]
    """``(N, K)``: each play's action id in the env's form, ``-1`` as padding."""
    counts: npt.NDArray[np.int64]
    """``(N,)``: how many plays each game has."""


class VectorEnv:
    """*num_envs* games of one rule set, stepped together.

    Args:
        num_envs: number of games N.
        rules: a :class:`~big2.rules.Rules`, a preset name or ``None`` (classic).
        players: seats (2–4), overriding ``rules.players``.
        seed: seeds every game's stream of deals (and the bots); the same seed
            and the same actions give the same games.
        actions: the action form, ``"hand"``, ``"rule"`` or ``"flat"``.
        reward: ``"score"`` (the rule set's scoring) or ``"win"`` (±1).
        opponents: ``None`` (the caller plays every seat), or a bot name,
            :class:`~big2.bots.base.Bot`, or a sequence of one per seat not in
            *learners* (in seat order). A name makes a bot per game; a
            :class:`Bot` instance is shared by every game.
        learners: the seats the caller plays when *opponents* are seated
            (default: seat 0).
        illegal: an action that is not legal in its game: ``"raise"`` a
            :class:`ValueError` naming the games before any game moves, or
            ``"end"`` that game's deal (the mover gets *illegal_reward*, the
            others 0; ``info["illegal"]`` marks it) and deal a new one.
        illegal_reward: the mover's reward under ``illegal="end"``.
        workers: processes that step the games (1: this process). With more,
            each worker steps a share of the games and this process joins
            their arrays; the results equal ``workers=1``'s for the same seed
            and actions. A :class:`Bot` opponent is then copied into each
            worker. Call :meth:`close` (or use ``with``) to stop them.
    """

    def __init__(self, num_envs: int = 256, rules: Rules | str | None = "classic", *,
                 players: int | None = None, seed: int | None = 0, actions: ActionForm = "hand",
                 reward: RewardMode = "score",
                 opponents: str | Bot | Sequence[str | Bot] | None = None,
                 learners: Sequence[int] = (0,), illegal: IllegalMode = "raise",
                 illegal_reward: float = -1.0, workers: int = 1, _first: int = 0) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        if actions not in ACTION_FORMS:
            raise ValueError(f"actions must be one of {', '.join(ACTION_FORMS)}, not {actions!r}")
        if illegal not in ("raise", "end"):
            raise ValueError(f"illegal must be 'raise' or 'end', not {illegal!r}")
        self.rules = make_rules(rules, players)
        self.num_envs = n_env = num_envs
        self.num_players = n = variant(self.rules).players
        self.action_form: ActionForm = actions
        self.illegal: IllegalMode = illegal
        self.illegal_reward = float(illegal_reward)
        self.hand_actions = HandActions(max_hand(self.rules))
        if actions == "hand":
            self.num_actions = self.hand_actions.size
        elif actions == "rule":
            ids = rule_actions(self.rules)
            self._rule_masks = ACTION_MASKS[ids]
            self._rule_order = np.argsort(self._rule_masks)
            self._rule_sorted = self._rule_masks[self._rule_order]
            self.num_actions = len(ids)
        else:
            self._flat_order = np.argsort(ACTION_MASKS)
            self._flat_sorted = ACTION_MASKS[self._flat_order]
            self.num_actions = NUM_ACTIONS
        self.observation_size = OBS_SIZE
        self._seed = seed
        self._reward = reward
        self._learners, self._bot_specs = self._seating(opponents, learners)
        self._deals = 0
        self._tables: list[Table] = []
        self._bots: list[dict[int, Bot]] = []
        self._played: list[list[int]] = [[0] * n for _ in range(n_env)]
        self._obs: dict[str, npt.NDArray[Any]] | None = None
        self._spare_aside = variant(self.rules).deck.spare_aside
        self._first = _first
        self._masks = True
        self._shards: Shards | None = None
        if workers != 1:
            if not isinstance(workers, int) or not 1 <= workers <= num_envs:
                raise ValueError(f"workers must be 1..num_envs ({num_envs}), not {workers!r}")
            settings = {"rules": self.rules, "seed": seed, "actions": actions, "reward": reward,
                        "opponents": opponents, "learners": tuple(learners), "illegal": illegal,
                        "illegal_reward": illegal_reward}
            self._shards = Shards(num_envs, workers, settings, type(self))

    @property
    def deals(self) -> int:
        """Deals finished since the last :meth:`reset`."""
        return self._deals

    def close(self) -> None:
        """Stop the worker processes (nothing to do with ``workers=1``)."""
        if self._shards is not None:
            self._shards.close()
            self._shards = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- set-up ----------------------------------------------------------------

    def _seating(self, opponents: str | Bot | Sequence[str | Bot] | None,
                 learners: Sequence[int]) -> tuple[frozenset[int], dict[int, str | Bot]]:
        n = self.num_players
        if opponents is None:
            return frozenset(range(n)), {}
        seats = sorted({int(s) for s in learners})
        if not seats or any(not 0 <= s < n for s in seats):
            raise ValueError(f"learners must be seats 0..{n - 1}, not {list(learners)!r}")
        others = [s for s in range(n) if s not in seats]
        if isinstance(opponents, (str, Bot)):
            specs: list[str | Bot] = [opponents] * len(others)
        else:
            specs = list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"{len(others)} opponents needed for seats {others}, got {len(specs)}")
        for spec in specs:
            if isinstance(spec, str):
                make_bot(spec)  # an unknown name fails now, not in step()
            elif not isinstance(spec, Bot):
                raise TypeError(f"an opponent is a bot name or a Bot, not {type(spec).__name__}")
        return frozenset(seats), dict(zip(others, specs))

    def reset(self, seed: int | None = None) -> dict[str, npt.NDArray[Any]]:
        """Start every game afresh (from *seed*, or the seed given at
        construction) and return the first observations."""
        if seed is not None:
            self._seed = seed
        self._deals = 0
        if self._shards is not None:
            return self._adopt(_Batch.join(self._shards.reset(self._seed)))
        return self._adopt(self._reset_games())

    def _reset_games(self) -> _Batch:
        base = self._seed
        self._tables, self._bots = [], []
        for i in range(self._first, self._first + self.num_envs):
            s = None if base is None else random.Random(f"big2-vec:{base}:{i}").getrandbits(63)
            self._tables.append(Table(self.rules, reward=self._reward, seed=s))
            bots: dict[int, Bot] = {}
            for seat, spec in self._bot_specs.items():
                bots[seat] = (spec if isinstance(spec, Bot)
                              else make_bot(spec, seed=None if s is None else s + seat))
            self._bots.append(bots)
        self._played = [[0] * self.num_players for _ in range(self.num_envs)]
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        for i in range(self.num_envs):
            self._settle(i, rewards, count=False)
        return self._refresh()

    # -- stepping --------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> tuple[dict[str, npt.NDArray[Any]],
                                                    npt.NDArray[np.float32],
                                                    npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one action id in every game.

        Returns ``(obs, rewards, done, info)``: the next observations,
        ``rewards`` (N, players) — each seat's reward in games whose deal ended
        on this step, else 0 — and ``done`` (N,). A game whose deal ended is
        dealt its next hand at once: its observation is the new deal's.
        ``info["illegal"]`` (N,) marks games ended by an illegal action.
        """
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        acts = self._check_actions(actions)
        rows = np.arange(self.num_envs)
        query = rows * self.num_actions + acts
        pos = np.minimum(np.searchsorted(self._keys, query), len(self._keys) - 1)
        legal = self._keys[pos] == query
        if not legal.all():
            bad = np.flatnonzero(~legal)
            if self.illegal == "raise":
                raise ValueError(self._illegal_message(bad, acts))
        if self._shards is not None:
            parts = self._shards.step(acts)
            batch = _Batch.join([p[0] for p in parts])
            rewards, done, illegal = (np.concatenate([p[k] for p in parts]) for k in (1, 2, 3))
            self._deals += sum(p[4] for p in parts)
            return self._adopt(batch), rewards, done, {"illegal": illegal}
        batch, rewards, done, illegal, deals = self._step_games(acts, pos, legal)
        self._deals += deals
        return self._adopt(batch), rewards, done, {"illegal": illegal}

    def _step_games(self, acts: npt.NDArray[np.int64], pos: npt.NDArray[np.intp],
                    legal: npt.NDArray[np.bool_]) -> tuple[_Batch, npt.NDArray[np.float32],
                                                           npt.NDArray[np.bool_], npt.NDArray[np.bool_], int]:
        """Play the checked actions in this process's games."""
        deals = self._deals
        choice = self._order[pos].tolist()
        legal_list = legal.tolist()
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        new_flat: list[int] = []
        counts: list[int] = []
        nums: list[int] = []
        # one pass over the games, each touched once: play, then collect the next position;
        # the collector waits for the pass's end (the pass makes thousands of short-lived
        # objects, and collecting mid-way would walk every game's state many times)
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._play_all(choice, legal_list, rewards, done, new_flat, counts, nums)
        finally:
            if collecting:
                gc.enable()
        return self._collect(new_flat, counts, nums), rewards, done, ~legal, self._deals - deals

    def _play_all(self, choice: list[int], legal_list: list[bool], rewards: npt.NDArray[np.float32],
                  done: npt.NDArray[np.bool_], new_flat: list[int], counts: list[int],
                  nums: list[int]) -> None:
        tables, played_all, bots, flat = self._tables, self._played, self._bot_specs, self._flat
        extend, count, put = new_flat.extend, counts.append, nums.extend
        for i in range(self.num_envs):
            t = tables[i]
            g = t.game
            if legal_list[i]:
                m = flat[choice[i]]
                played_all[i][g.to_move] |= m  # type: ignore[index]
                g.play(m)
                if bots or g.to_move is None:
                    done[i] = self._settle(i, rewards)
                    g = t.game
            else:
                rewards[i, g.to_move] = self.illegal_reward
                done[i] = True
                self._new_deal(i)
                self._settle(i, rewards)
                g = t.game
            plays = g.legal_masks()
            extend(plays)
            count(len(plays))
            put(g.numbers())
            put(g.hands)
            put(played_all[i])

    def _new_deal(self, i: int) -> None:
        self._tables[i].reset()
        self._played[i] = [0] * self.num_players

    def _settle(self, i: int, rewards: npt.NDArray[np.float32], *, count: bool = True) -> bool:
        """Let game *i*'s bots play up to a learner's turn, dealing anew (and
        adding the finished deal's rewards to *rewards*) whenever a deal ends.
        Whether a deal ended."""
        t = self._tables[i]
        bots = self._bots[i] if self._bot_specs else None
        ended = False
        while True:
            g: Game = t.game
            seat = g.to_move
            if seat is None:
                if count:
                    rewards[i] += t.rewards()
                    self._deals += 1
                ended = True
                self._new_deal(i)
                continue
            if bots is None or seat in self._learners:
                return ended
            m = bots[seat].choose(g.view(seat))
            self._played[i][seat] |= m
            g.play(m)

    def _check_actions(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {a.shape}")
        if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions must be integer ids, not {a.dtype}")
        out = a.astype(np.int64)
        bad = np.flatnonzero((out < 0) | (out >= self.num_actions))
        if len(bad):
            shown = ", ".join(f"{int(i)} ({int(out[i])})" for i in bad[:10])
            more = f" and {len(bad) - 10} more" if len(bad) > 10 else ""
            raise ValueError(f"action ids are 0..{self.num_actions - 1}; out of range in games "
                             f"{shown}{more}")
        return out

    def _illegal_message(self, bad: npt.NDArray[np.intp], acts: npt.NDArray[np.int64]) -> str:
        parts = []
        for i in bad[:5].tolist():
            cards = int(self.decode(np.array([i]), acts[i:i + 1])[0])
            text = " ".join(CARD_SYMBOLS[c] for c in cards_of(cards)) or "pass"
            if self._shards is not None:
                reason = "not a legal play now"
            elif cards & ~int(self._mover_hand[i]):
                reason = "those places are beyond the hand"
            else:
                reason = self._tables[i].game.refusal(cards)
            parts.append(f"game {i}: action {int(acts[i])} ({text}): {reason}")
        more = f"; and {len(bad) - 5} more" if len(bad) > 5 else ""
        return (f"illegal actions in games {bad[:20].tolist()}: " + "; ".join(parts) + more
                + " (nothing was played)")

    # -- ids -------------------------------------------------------------------

    def decode(self, games: npt.NDArray[np.intp], ids: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
        """The card masks that action *ids* name in *games* now (mover's hands)."""
        if self.action_form == "hand":
            return self.hand_actions.decode(ids, self._mover_hand[games])
        if self.action_form == "rule":
            return self._rule_masks[ids]
        return ACTION_MASKS[ids]

    def _encode(self, plays: npt.NDArray[np.uint64], games: npt.NDArray[np.intp],
                mover_hand: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
        if self.action_form == "hand":
            return self.hand_actions.encode(plays, mover_hand[games])
        if self.action_form == "rule":
            return self._rule_order[np.searchsorted(self._rule_sorted, plays)]
        return self._flat_order[np.searchsorted(self._flat_sorted, plays)]

    # -- observations ------------------------------------------------------------

    def _refresh(self) -> _Batch:
        """Collect every game's legal plays and public numbers (as :meth:`step`
        does while it plays), and build the observations."""
        flat: list[int] = []
        counts: list[int] = []
        nums: list[int] = []
        for i, t in enumerate(self._tables):
            g = t.game
            legal = g.legal_masks()
            flat.extend(legal)
            counts.append(len(legal))
            nums.extend(g.numbers())
            nums.extend(g.hands)
            nums.extend(self._played[i])
        return self._collect(flat, counts, nums)

    def _collect(self, flat: list[int], counts: list[int], nums: list[int]) -> _Batch:
        """The batch's observations and ids from every game's legal plays
        (*flat*, *counts* per game) and public numbers (*nums*:
        :meth:`~big2.game.Game.numbers`, the hands, the played cards per seat)."""
        n_env, n = self.num_envs, self.num_players
        self._flat = flat
        width = 8 + 2 * n
        num = np.array(nums, dtype=np.int64).reshape(n_env, width)
        plays = np.array(flat, dtype=np.uint64)
        counts_a = np.array(counts, dtype=np.int64)
        games = np.repeat(np.arange(n_env), counts_a)
        mover = num[:, 0]
        rows = np.arange(n_env)
        hands = num[:, 8:8 + n].astype(np.uint64)
        mover_hand = hands[rows, mover]
        ids = self._encode(plays, games, mover_hand)
        return _Batch(observe_batch(num, hands, mover, mover_hand, self._spares()), mover.copy(), counts_a, ids,
                      plays, mover_hand)

    def _adopt(self, batch: _Batch) -> dict[str, npt.NDArray[Any]]:
        """Make *batch* the current position of every game: lookup keys, masks."""
        self._batch = batch
        counts, ids = batch.counts, batch.ids
        games = self._games = np.repeat(np.arange(self.num_envs), counts)
        self._counts, self._ids, self._plays = counts, ids, batch.plays
        self._mover_hand = batch.mover_hand
        keys = games * self.num_actions + ids
        self._order = np.argsort(keys, kind="stable")
        self._keys = keys[self._order]
        self._obs = {"observation": batch.observation, "to_move": batch.to_move}
        if self._masks:  # a worker leaves the masks to the parent
            mask = np.zeros((self.num_envs, self.num_actions), dtype=bool)
            mask[games, ids] = True
            self._obs["action_mask"] = mask
        return self._obs

    def _spares(self) -> npt.NDArray[np.uint64]:
        """Each game's face-up spare card (zeros unless the rule set lays one out)."""
        if not self._spare_aside:
            return np.zeros(self.num_envs, dtype=np.uint64)
        return np.array([spare(t.game) for t in self._tables], dtype=np.uint64)

    # -- for the caller ----------------------------------------------------------

    @property
    def games(self) -> list[Game]:
        """The N games being played (the whole truth: for tests and rendering;
        not available with worker processes)."""
        if self._shards is not None:
            raise RuntimeError("the games live in the worker processes (workers > 1)")
        return [t.game for t in self._tables]

    def observations(self) -> dict[str, npt.NDArray[Any]]:
        """The latest observations (as :meth:`reset` and :meth:`step` returned)."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._obs

    def legal_ids(self) -> list[npt.NDArray[np.int64]]:
        """Each game's legal action ids, in the engine's order (weakest first,
        the pass last)."""
        starts = np.concatenate([[0], np.cumsum(self._counts)])
        return [self._ids[starts[i]:starts[i + 1]] for i in range(self.num_envs)]

    def legal_plays(self) -> LegalPlays:
        """Each game's legal plays as card vectors with their ids (see
        :class:`LegalPlays`), for Q(state, play) networks."""
        counts, games = self._counts, self._games
        k = int(counts.max())
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        slot = np.arange(len(games)) - starts[games]
        cards = np.zeros((self.num_envs, k, 52), dtype=np.int8)
        cards[games, slot] = card_vectors(self._plays)
        ids = np.full((self.num_envs, k), -1, dtype=np.int64)
        ids[games, slot] = self._ids
        return LegalPlays(cards, ids, counts.copy())

    def sample(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per game."""
        rng = rng if rng is not None else np.random.default_rng()
        starts = np.concatenate([[0], np.cumsum(self._counts)[:-1]])
        pick = starts + (rng.random(self.num_envs) * self._counts).astype(np.int64)
        out: npt.NDArray[np.int64] = self._ids[pick]
        return out


__all__ = ["ACTION_FORMS", "ActionForm", "IllegalMode", "LegalPlays", "VectorEnv"]
