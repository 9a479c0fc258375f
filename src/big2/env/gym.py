"""Big Two as a single-agent Gymnasium environment: one seat learns, the
other seats are bots (:func:`big2.bots.make_bot` names or levels).

The observation is the seat's ``int8`` vector (:mod:`big2.env.observation`);
actions are ids of :mod:`big2.env.actions`. The legal actions come in
``info["action_mask"]`` (``bool``, ``True`` = legal: the one mask dtype of
every environment here) and ``info["legal_actions"]`` (the ids), and from
:meth:`Big2Env.action_masks` (the name sb3-contrib's ``MaskablePPO`` calls);
``action_space.sample(info["action_mask"])`` draws a legal id
(:class:`~big2.env.spaces.ActionSpace`). The reward is 0 until the deal ends, then the seat's
score (``reward="score"``) or ±1 (``reward="win"``). An action that is not
legal now ends the episode with ``illegal_reward`` (−1) and
``info["illegal"] = True`` (``info["reason"]`` says why), so agents that ignore
the mask and Gymnasium's ``check_env`` (which samples any action) run;
``illegal="raise"`` raises :class:`~big2.game.IllegalPlayError` with the reason
instead. An id outside the action space always raises
:class:`~big2.env.actions.InvalidActionError`; ``step`` before the first
:meth:`Big2Env.reset`, or once the episode is over, raises :class:`RuntimeError`.

Requires ``gymnasium`` (``pip install big2[rl]``).

>>> env = Big2Env("classic", opponents="random")
>>> obs, info = env.reset(seed=4)
>>> total, done = 0.0, False
>>> while not done:
...     obs, reward, done, truncated, info = env.step(info["legal_actions"][0])
...     total += reward
>>> env.game.is_over(), total == env.game.scores()[env.seat]
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from big2.bots import Bot, make_bot
from big2.env.actions import ACTION_MASK_LIST, NUM_ACTIONS, check_action_id
from big2.env.core import ILLEGAL_MODES, EnvTable, IllegalMode, RewardMode
from big2.env.observation import OBS_SIZE
from big2.env.spaces import ActionSpace
from big2.game import Game
from big2.rules import Rules

RENDER_MODES: Final = ("human", "ansi", "svg")
"""As in :mod:`big2.env.aec`; the SVG shows the learning seat's table."""



class Big2Env(gymnasium.Env[npt.NDArray[np.int8], int]):
    """One learning seat against bots.

    Args:
        rules: a :class:`~big2.rules.Rules`, a preset name or ``None`` (classic).
        players: number of seats (2–4), overriding ``rules.players``.
        opponents: one bot name or level for every other seat (``"random"``,
            ``"greedy"``, ``"easy"`` …), or a sequence of one per other seat
            (names or :class:`~big2.bots.base.Bot` instances), in seat order
            after the learning seat.
        seat: the learning seat, or ``None`` for a random seat each deal.
        reward: ``"score"`` (the rule set's scoring) or ``"win"`` (±1).
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"svg"``.
        illegal: what an action that is not legal now does: ``"end"`` (the
            default: the episode ends at once with reward *illegal_reward*,
            ``info["illegal"] = True`` and the refusal in ``info["reason"]``;
            for agents that ignore the mask, and Gymnasium's ``check_env``,
            which samples any action) or ``"raise"``
            (:class:`~big2.game.IllegalPlayError` with the reason; the
            episode goes on).
        illegal_reward: the reward of an illegal action under ``"end"``.
    """

    # render_fps is nominal: "human" prints the table after each step, with no pause
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(self, rules: Rules | str | None = None, *, players: int | None = None,
                 opponents: str | Sequence[str | Bot] = "random", seat: int | None = 0,
                 reward: RewardMode = "score", render_mode: str | None = None,
                 illegal: IllegalMode = "end", illegal_reward: float = -1.0) -> None:
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be 'end' or 'raise', not {illegal!r}")
        self.illegal: IllegalMode = illegal
        self.illegal_reward = float(illegal_reward)
        self._ended = True  # until the first reset
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None")
        self.table = EnvTable(rules, players=players, reward=reward)
        self.rules = self.table.rules
        n = self.table.num_players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1} or None")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{n - 1} opponents needed for {n} players, got {len(specs)}")
        self._specs = specs
        self.bots: list[Bot] = [b if isinstance(b, Bot) else make_bot(b) for b in specs]
        self._fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.render_mode = render_mode
        self.observation_space = gymnasium.spaces.Box(0, 1, (OBS_SIZE,), np.int8)
        self.action_space = ActionSpace(NUM_ACTIONS)  # type: ignore[assignment]
        self._seat_rng = random.Random()

    @property
    def game(self) -> Game:
        """The :class:`~big2.game.Game` being played."""
        return self.table.game

    def _bot_of(self, seat: int) -> Bot:
        return self.bots[(seat - self.seat - 1) % self.table.num_players]

    def _info(self) -> dict[str, Any]:
        legal = self.table.legal_actions() if self.game.to_move == self.seat else []
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[legal] = True
        return {"action_mask": mask, "legal_actions": list(legal)}

    def _play_bots(self) -> None:
        game = self.table.game
        while game.to_move is not None and game.to_move != self.seat:
            s = game.to_move
            game.play(self._bot_of(s).choose(game.view(s)))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        """Deal, let the bots play up to the learning seat's first turn, and
        return its observation and info. *seed* reproduces the deals, the
        bots' choices and the seat draw. A deal over before that turn (a dealt
        hand that wins or draws at once: ``maltese``, ``four_twos``) gives the
        learning seat nothing to do: it counts in the match and the next deal
        is dealt."""
        super().reset(seed=seed)
        self.table.reset(seed)
        self._ended = False
        if seed is not None:
            self._seat_rng.seed(seed)
            for i, bot in enumerate(self.bots):
                bot.rng.seed(seed * 7919 + i)
        if self._fixed_seat is None:
            self.seat = self._seat_rng.randrange(self.table.num_players)
        self._play_bots()
        for _ in range(1000):
            if not self.game.is_over():
                break
            self.table.reset()
            self._play_bots()
        else:
            raise RuntimeError("1000 deals in a row ended before the learning seat's turn")
        return self.table.observe(self.seat), self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now as a boolean mask (sb3-contrib's convention)."""
        out = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.game.to_move == self.seat:
            out[self.table.legal_actions()] = True
        return out

    def step(self, action: int) -> tuple[npt.NDArray[np.int8], float, bool, bool, dict[str, Any]]:
        """Play *action* for the learning seat, then the bots up to its next
        turn or the end of the deal.

        Raises :class:`RuntimeError` before the first :meth:`reset` and once the
        episode is over, and :class:`~big2.env.actions.InvalidActionError` for
        an id outside the action space; an action not legal now ends the
        episode (``illegal="end"``) or raises
        :class:`~big2.game.IllegalPlayError` (``illegal="raise"``).
        """
        if self._ended or self.game.to_move != self.seat:
            raise RuntimeError("the episode is over (or was never started): call reset() "
                               "before step()")
        action = check_action_id(action)
        if self.illegal == "end" and action not in self.table.legal_actions():
            self._ended = True
            info = self._info()
            info["illegal"] = True
            info["reason"] = self.game.refusal(ACTION_MASK_LIST[action])
            return self.table.observe(self.seat), self.illegal_reward, True, False, info
        self.table.play(action)
        self._play_bots()
        done = self.game.is_over()
        self._ended = done
        reward = self.table.rewards()[self.seat] if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self.table.observe(self.seat), reward, done, False, self._info()

    def render(self) -> str | None:
        """Render as the ``render_mode`` says."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=")
            return None
        if self.render_mode == "svg":
            return self.table.render_svg(self.seat)
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text


gymnasium.register(id="Big2-v0", entry_point="big2.env.gym:Big2Env")
"""``gymnasium.make("Big2-v0", rules="pagat", opponents="greedy")`` once this
module is imported."""

__all__ = ["ILLEGAL_MODES", "RENDER_MODES", "Big2Env", "IllegalMode"]
