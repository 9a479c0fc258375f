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

What steps the games is a backend chosen in ``__init__`` (:mod:`big2.env.backends`):
the compiled core where it can (self-play, ``"hand"`` actions, a rule set the core
plays), on ``workers`` threads of the core, else the Python engine, in this process or
in ``workers`` processes. Every
backend deals game *i* of a seed the same stream of hands (:mod:`big2.env.deals`), so
``reset(seed=s)`` deals the same hands whatever the backend and worker count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Self

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from big2.bots import Bot
from big2.env.backends import Obs, PythonBackend, PythonShards
from big2.env.batch import PaddedPlays, check_actions, seating
from big2.env.codec import ACTION_FORMS, ActionCodec, ActionForm
from big2.env.core import IllegalMode, RewardMode, make_rules
from big2.env.native_backends import NativeBackend, native_env_reason
from big2.env.reset_options import check_options
from big2.env.spaces import ActionSpace, BatchedSpaces, observation_space
from big2.game import Game
from big2.observation import OBS_SIZE
from big2.rules import Rules
from big2.variant import variant

EngineChoice = Literal["auto", "native", "python"]
"""Which engine steps the games: the core where it can play the rules (``auto``), the
core or an error (``native``), or the Python reference (``python``). (Not
:class:`big2.variant.Engine`, the play engine's protocol.)"""
Backend = PythonBackend | NativeBackend
"""What steps the games (:mod:`big2.env.backends`)."""


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
            and the same actions give the same games, on every backend.
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
        workers: how many share the stepping (1: this thread). With more, each
            worker steps a share of the games: on the core a thread of the core in
            this process (the GIL released while they step; at most one per 128
            games), on the Python engine a worker process (which sends its arrays
            back; a :class:`Bot` opponent is then copied into each); the results
            equal ``workers=1``'s for the same seed and actions. Call :meth:`close`
            (or use ``with``) to stop them.
        engine: ``"auto"`` steps self-play games of a rule set the core plays with
            ``"hand"`` actions in the compiled core, the rest on the Python engine;
            ``"python"`` always the Python engine; ``"native"`` the core or a
            :class:`ValueError` naming why not. :attr:`backend` says which.
        reuse_obs: ``True``: :meth:`reset` and :meth:`step` return the same arrays
            each time, rewritten in place (on the core, its own buffers: no copy a
            step); copy what you keep. ``False`` (default): new arrays each time.
    """

    metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 256, rules: Rules | str | None = "classic", *,
                 players: int | None = None, seed: int | None = 0, actions: ActionForm = "hand",
                 reward: RewardMode = "score",
                 opponents: str | Bot | Sequence[str | Bot] | None = None,
                 learners: Sequence[int] = (0,), illegal: IllegalMode = "raise",
                 illegal_reward: float = -1.0, workers: int = 1, engine: EngineChoice = "auto",
                 reuse_obs: bool = False) -> None:
        if engine not in ("auto", "native", "python"):
            raise ValueError(f"engine must be 'auto', 'native' or 'python', not {engine!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        if actions not in ACTION_FORMS:
            raise ValueError(f"actions must be one of {', '.join(ACTION_FORMS)}, not {actions!r}")
        if illegal not in ("raise", "end"):
            raise ValueError(f"illegal must be 'raise' or 'end', not {illegal!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be 1..num_envs ({num_envs}), not {workers!r}")
        self.rules = make_rules(rules, players)
        self.num_envs = num_envs
        self.num_players = n = variant(self.rules).players
        self.action_form: ActionForm = actions
        self.illegal: IllegalMode = illegal
        self.illegal_reward = float(illegal_reward)
        self.codec = codec = ActionCodec(actions, self.rules)
        self.hand_actions = codec.hand_actions
        self.num_actions = codec.num_actions
        self.observation_size = OBS_SIZE
        self.single_observation_space = observation_space(self.num_actions, n)
        self.single_action_space = ActionSpace(self.num_actions)
        self._seed = seed
        self._deals = 0
        self._obs: Obs | None = None
        self._reuse: Obs | None = None
        self.reuse_obs = bool(reuse_obs)
        """Whether the observations are the same arrays each step (see *reuse_obs*)."""
        seats, bot_specs = seating(n, opponents, learners)
        why = native_env_reason(self.rules, opponents=opponents, actions=actions)
        if engine == "native" and why is not None:
            raise ValueError(f"engine='native' cannot play these games: {why}")
        self.backend: Literal["native", "python"] = (
            "native" if engine != "python" and why is None else "python")
        """What steps the games: ``"native"`` (the compiled core) or ``"python"``."""
        self.workers = workers
        """The workers that step the games: threads of the core on the native backend,
        processes on the Python one (1: this thread alone)."""
        settings: dict[str, Any] = {"reward": reward, "illegal": illegal,
                                    "illegal_reward": self.illegal_reward}
        self._games: Backend
        if self.backend == "native":
            self._games = NativeBackend(self.rules, num_envs=num_envs, threads=workers,
                                        **settings)
        else:
            settings.update(reward=reward, learners=seats, bot_specs=bot_specs)
            self._games = (PythonShards(self.rules, codec, workers=workers, num_envs=num_envs,
                                        **settings) if workers > 1
                           else PythonBackend(self.rules, codec, first=0, num_envs=num_envs,
                                              **settings))

    @property
    def deals(self) -> int:
        """Deals finished since the last :meth:`reset`."""
        return self._deals

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes or threads (nothing to do with ``workers=1``);
        :meth:`close` calls it."""
        self._games.close()

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
        the same stream of hands, whatever the backend and worker count); without
        it the seed given at construction (or to the last reset) starts again, so
        ``reset()`` twice gives the same games. ``options={"hands": deals}`` deals
        chosen hands: one entry per game, ``None`` or one hand per seat (masks, card
        text or card numbers; see :mod:`big2.env.reset_options`), checked before any
        game changes (a :class:`ValueError` names the game and the problem). The
        seat the rules say leads opens such a deal; the deals after it follow
        the game's stream.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
        hands = check_options(options, self.num_envs, self.num_players, self.hand_actions.hand)
        super().reset(seed=None if seed is None else int(seed))
        if seed is not None:
            self._seed = int(seed)
        if self._seed is None:  # fresh entropy, kept so that reset() replays it
            self._seed = int(self.np_random.integers(0, 2**63))
        self._deals = 0
        self._games.reset(self._seed, hands)
        return self._observe(), {}

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
        actor = self._games.to_move.copy()
        out = self._games.step(check_actions(actions, self.num_envs, self.num_actions))
        self._deals += out.deals
        return self._observe(), *out.results(actor, self.num_actions)

    def _observe(self) -> Obs:
        if not self.reuse_obs:
            self._obs = self._games.observe(None)
            return self._obs
        if self._reuse is None:  # the arrays returned from now on
            first = self._games.observe(None)
            self._reuse = self._games.observe({k: v.copy() for k, v in first.items()})
        self._obs = self._games.observe(self._reuse)
        return self._obs

    # -- for the caller ----------------------------------------------------------

    @property
    def games(self) -> list[Game]:
        """The N games being played as :class:`~big2.game.Game` objects (the whole
        truth: for tests and rendering). On the Python engine in this process they
        are the games themselves; on the core, or in workers, copies rebuilt on each
        access (the deal's hands, dealer and every play replayed), which change
        nothing when played on."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._games.games()

    def hands(self) -> npt.NDArray[np.uint64]:
        """Every seat's hand in every game, ``(N, players)`` card masks."""
        return self._games.hands()

    def observations(self) -> Obs:
        """The latest observations (as :meth:`reset` and :meth:`step` returned)."""
        if self._obs is None:
            raise RuntimeError("call reset() first")
        return self._obs

    def legal_ids(self) -> list[npt.NDArray[np.int64]]:
        """Each game's legal action ids, in the engine's order (weakest first,
        the pass last)."""
        return self._games.legal_ids()

    def legal_plays(self) -> PaddedPlays:
        """Each game's legal plays as card vectors with their ids (see
        :class:`PaddedPlays`), for Q(state, play) networks."""
        return self._games.legal_plays()

    def sample(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per game."""
        return self._games.sample(rng if rng is not None else np.random.default_rng())

    def decode(self, games: npt.NDArray[np.intp], ids: npt.NDArray[np.int64]
               ) -> npt.NDArray[np.uint64]:
        """The card masks that action *ids* name in *games* now (mover's hands)."""
        return self._games.decode(np.asarray(games), np.asarray(ids, np.int64))


__all__ = ["ACTION_FORMS", "ActionForm", "IllegalMode", "PaddedPlays", "VectorEnv"]
