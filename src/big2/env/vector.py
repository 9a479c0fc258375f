"""Many games stepped in one call: :class:`VectorEnv`, a
:class:`gymnasium.vector.VectorEnv` for self-play training.

Every array is NumPy and batched over the games; the per-game work on the
hot path is the engine's own (one play and the next seat's legal plays), and
everything else — the observations, the masks, the action ids — is built for
all games at once.

>>> venv = VectorEnv(4, "classic", seed=1)
>>> obs, infos = venv.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape, obs["to_move"].shape
((4, 635), (4, 2380), (4,))
>>> venv.single_observation_space["action_mask"], venv.single_action_space
(Box(False, True, (2380,), bool), Discrete(2380))
>>> rng = np.random.default_rng(0)
>>> for _ in range(300):
...     obs, rewards, terminated, truncated, infos = venv.step(venv.sample(rng))
>>> rewards.shape, infos["seat_rewards"].shape, terminated.dtype, int(venv.deals) > 0
((4,), (4, 4), dtype('bool'), True)

Within Gymnasium's conventions (docs/env.md says more):

* **Autoreset: same step** (``metadata["autoreset_mode"]`` is
  :attr:`~gymnasium.vector.AutoresetMode.SAME_STEP`): a game whose deal ends is
  dealt again within the :meth:`~VectorEnv.step`, its observation is the new
  deal's, and ``infos["final_obs"][i]`` is the finished deal's last one (by
  the seat that acted). No step goes on a dummy action: in self-play every
  step is a decision.
* **Rewards: the mover's**, ``(N,)``: the acting seat's, 0 until its deal
  ends, as Gymnasium's API and wrappers expect one reward a game; a deal pays
  every seat, so ``infos["seat_rewards"]`` ``(N, players)`` has them all.
* ``truncations`` are always ``False``; each info key ``k`` comes with its
  ``bool`` ``_k`` (the games that have it), as in Gymnasium's vector envs.

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

from collections.abc import Sequence
from typing import Any, ClassVar, Final, Literal, Self

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from big2.bots import Bot
from big2.cards import CARD_SYMBOLS, cards_of
from big2.env.actions import ACTION_MASKS, NUM_ACTIONS, rule_actions
from big2.env.batch import Batch as _Batch
from big2.env.batch import LegalPlays, check_actions, seating
from big2.env.batch import Stepped as _Stepped
from big2.env.core import RewardMode, make_rules
from big2.env.hand_actions import HandActions, max_hand
from big2.env.python_games import PythonGames
from big2.env.reset_options import Deal, check_options
from big2.env.shards import Shards
from big2.env.spaces import ActionSpace, BatchedSpaces, observation_space
from big2.game import Game
from big2.observation import OBS_SIZE
from big2.rules import Rules
from big2.variant import variant

ActionForm = Literal["hand", "rule", "flat"]
ACTION_FORMS: Final = ("hand", "rule", "flat")
IllegalMode = Literal["raise", "end"]
Engine = Literal["auto", "native", "python"]
Obs = dict[str, npt.NDArray[Any]]
"""A batch of observations: ``observation`` ``(N, 635)`` ``int8``,
``action_mask`` ``(N, A)`` ``bool``, ``to_move`` ``(N,)`` ``int64``."""


class VectorEnv(BatchedSpaces,
                gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """*num_envs* games of one rule set, stepped together (Gymnasium's vector
    API; see the module for its conventions).

    Spaces: ``single_action_space`` is :class:`~big2.env.spaces.ActionSpace`
    (``Discrete(num_actions)``), ``single_observation_space`` a ``Dict`` of
    ``observation`` (``Box`` 0/1 ``int8`` of 635), ``action_mask`` (``Box``
    ``bool`` of ``num_actions``) and ``to_move`` (``Discrete(players)``);
    ``observation_space`` and ``action_space`` are their batches over N games
    (built on first use: a ``"flat"`` mask batch is large).

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
        engine: ``"auto"`` steps self-play games of a native rule set with
            ``"hand"`` actions in one process in the compiled core (a
            :class:`~big2.env.native_vector.NativeVectorEnv`, same API, other
            deals for a seed), the rest in Python; ``"python"`` always the
            Python engine; ``"native"`` the core or a :class:`ValueError`.
    """

    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __new__(cls, num_envs: int = 256, rules: Rules | str | None = "classic", *,
                players: int | None = None, actions: ActionForm = "hand",
                opponents: str | Bot | Sequence[str | Bot] | None = None, workers: int = 1,
                engine: Engine = "auto", **_: Any) -> VectorEnv:
        """The compiled core's env when it can play these games (see *engine*)."""
        if engine not in ("auto", "native", "python"):
            raise ValueError(f"engine must be 'auto', 'native' or 'python', not {engine!r}")
        if cls is VectorEnv and engine != "python":
            from big2.env.native_games import native_games_reason
            from big2.env.native_vector import NativeVectorEnv

            why = ("opponents" if opponents is not None else f"actions={actions!r}"
                   if actions != "hand" else "workers" if workers != 1
                   else native_games_reason(make_rules(rules, players)))
            if why is None:
                return object.__new__(NativeVectorEnv)
            if engine == "native":
                raise ValueError(f"engine='native' cannot play these games: {why}")
        return object.__new__(cls)

    def __init__(self, num_envs: int = 256, rules: Rules | str | None = "classic", *,
                 players: int | None = None, seed: int | None = 0, actions: ActionForm = "hand",
                 reward: RewardMode = "score",
                 opponents: str | Bot | Sequence[str | Bot] | None = None,
                 learners: Sequence[int] = (0,), illegal: IllegalMode = "raise",
                 illegal_reward: float = -1.0, workers: int = 1, engine: Engine = "auto",
                 _first: int = 0) -> None:
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
        self.single_observation_space = observation_space(self.num_actions, n)
        self.single_action_space = ActionSpace(self.num_actions)
        self._seed = seed
        self._reward = reward
        seats, bot_specs = seating(n, opponents, learners)
        self._deals = 0
        self._python = PythonGames(self.rules, n_env, reward=reward, learners=seats,
                                   bot_specs=bot_specs, illegal_reward=self.illegal_reward,
                                   encode=self._encode, first=_first)
        self._obs: Obs | None = None
        self._masks = True
        self._shards: Shards | None = None
        if workers != 1:
            if not isinstance(workers, int) or not 1 <= workers <= num_envs:
                raise ValueError(f"workers must be 1..num_envs ({num_envs}), not {workers!r}")
            settings = {"rules": self.rules, "seed": seed, "actions": actions, "reward": reward,
                        "opponents": opponents, "learners": tuple(learners), "illegal": illegal,
                        "illegal_reward": illegal_reward, "engine": "python"}
            self._shards = Shards(num_envs, workers, settings, type(self))

    @property
    def deals(self) -> int:
        """Deals finished since the last :meth:`reset`."""
        return self._deals

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes (nothing to do with ``workers=1``);
        :meth:`close` calls it."""
        if self._shards is not None:
            self._shards.close()
            self._shards = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- set-up ----------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Start every game afresh and return ``(obs, infos)`` (``infos`` is
        empty).

        *seed* (an ``int``) seeds the games (game *i* of a seed always deals
        the same stream of hands); without it the seed given at construction
        (or to the last reset) starts again, so ``reset()`` twice gives the
        same games. ``options={"hands": deals}`` deals chosen hands: one entry
        per game, ``None`` or one hand per seat (masks, card text or card
        numbers; see :mod:`big2.env.reset_options`), checked before any game
        changes (a :class:`ValueError` names the game and the problem). The
        seat the rules say leads opens such a deal; the deals after it follow
        the game's stream.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        hands = check_options(options, self.num_envs, self.num_players, self.hand_actions.hand)
        super().reset(seed=None if seed is None else int(seed))
        if seed is not None:
            self._seed = int(seed)
        self._deals = 0
        if self._shards is not None:
            b = self._shards.bounds
            parts = [None if hands is None else hands[b[k]:b[k + 1]] for k in range(len(b) - 1)]
            return self._adopt(_Batch.join(self._shards.reset(self._seed, parts))), {}
        return self._adopt(self._reset_games(hands)), {}

    def _reset_games(self, hands: list[Deal | None] | None = None) -> _Batch:
        return self._python.reset(self._seed, hands)

    # -- stepping --------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> tuple[
            Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
            dict[str, Any]]:
        """Play one action id in every game (*actions*: integer ids, shape ``(N,)``).

        Returns ``(obs, rewards, terminations, truncations, infos)``:

        * ``obs``: the next observations; a game whose deal ended is dealt its
          next hand at once (same-step autoreset), so its observation is the
          new deal's;
        * ``rewards`` ``(N,)``: the reward of the seat that acted in each game
          (0 until its deal ends);
        * ``terminations`` ``(N,)``: the games whose deal ended;
          ``truncations`` ``(N,)``: all ``False``;
        * ``infos["seat_rewards"]`` ``(N, players)``: every seat's reward in
          the games whose deal ended, else 0; ``infos["illegal"]`` ``(N,)``:
          the games an illegal action ended (``illegal="end"``); where a deal
          ended, ``infos["final_obs"][i]`` is its last observation (the acting
          seat's, with an all-``False`` mask) and ``infos["final_info"]``
          holds those games' ``seat_rewards`` and ``illegal``.

        Raises :class:`ValueError` for an action array of the wrong shape or
        type, an id out of range, or (``illegal="raise"``) an illegal id,
        before any game moves.
        """
        if self._obs is None:
            raise RuntimeError("call reset() before step()")
        actor = self._batch.to_move
        out = self._advance(check_actions(actions, self.num_envs, self.num_actions))
        self._deals += out.deals
        return self._adopt(out.batch), *out.results(actor, self.num_actions)

    def _advance(self, acts: npt.NDArray[np.int64]) -> _Stepped:
        """Check that the (in-range) ids *acts* are legal, then play them, here
        or in the workers."""
        rows = np.arange(self.num_envs)
        query = rows * self.num_actions + acts
        pos = np.minimum(np.searchsorted(self._keys, query), len(self._keys) - 1)
        legal = self._keys[pos] == query
        if self.illegal == "raise" and not legal.all():
            raise ValueError(self._illegal_message(np.flatnonzero(~legal), acts))
        if self._shards is not None:
            return _Stepped.join(self._shards.step(acts), self._shards.bounds[:-1].tolist())
        return self._python.step(self._order[pos], legal)

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
                reason = self._python.tables[i].game.refusal(cards)
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

    def _adopt_batch(self, batch: _Batch) -> _Batch:
        """:meth:`_adopt` for a worker process: *batch* back."""
        self._adopt(batch)
        return batch

    def _adopt(self, batch: _Batch) -> Obs:
        """Make *batch* the current position of every game: lookup keys, masks."""
        self._batch = batch
        counts, ids = batch.counts, batch.ids
        games = self._games = np.repeat(np.arange(self.num_envs), counts)
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

    # -- for the caller ----------------------------------------------------------

    @property
    def games(self) -> list[Game]:
        """The N games being played (the whole truth: for tests and rendering;
        not available with worker processes)."""
        if self._shards is not None:
            raise RuntimeError("the games live in the worker processes (workers > 1)")
        return [t.game for t in self._python.tables]

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand in every game, ``(N, players)`` card masks."""
        return np.array([g.hands for g in self.games], dtype=np.uint64)

    def observations(self) -> Obs:
        """The latest observations (as :meth:`reset` and :meth:`step` returned)."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._obs

    def legal_ids(self) -> list[npt.NDArray[np.int64]]:
        """Each game's legal action ids, in the engine's order (weakest first,
        the pass last)."""
        return self._batch.legal_ids()

    def legal_plays(self) -> LegalPlays:
        """Each game's legal plays as card vectors with their ids (see
        :class:`LegalPlays`), for Q(state, play) networks."""
        return LegalPlays.of(self._batch, self._games)

    def sample(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per game."""
        return self._batch.sample(rng if rng is not None else np.random.default_rng())


__all__ = ["ACTION_FORMS", "ActionForm", "IllegalMode", "LegalPlays", "VectorEnv"]
