"""Big Two as a PettingZoo AEC environment, under any rule set, 2–4 players.

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers of
:class:`~big2.game.Game`); the agent to act is the seat to move. Each
observation is a dict:

* ``observation``: the seat's ``int8`` vector of :data:`OBS_SIZE`
  (see :mod:`big2.env.observation`);
* ``action_mask``: ``bool`` of :data:`NUM_ACTIONS` (the one mask dtype of every
  environment here), ``True`` at each legal action of the acting agent and
  all ``False`` for every other agent; ``action_space(agent).sample(mask)``
  takes it (:class:`~big2.env.spaces.ActionSpace`).

The acting agent's ``info`` also lists its legal action ids
(``info["legal_actions"]``, weakest play first, the pass last): sampling from
that list is far cheaper than scanning a mask of 202,204 entries.

Actions are ids of the fixed space of :mod:`big2.env.actions` (0 is the
pass). An action the rules do not allow now raises
:class:`~big2.game.IllegalPlayError` with the reason. Rewards come once, when
the deal ends (every agent is then terminated): the deal's score under the
rule set's scoring (``reward="score"``), or +1/−1 for going out first or not
(``reward="win"``). ``reset(seed=s)`` reproduces the same deals.

Requires ``pettingzoo`` (``pip install big2[rl]``).

>>> env = Big2AECEnv("classic", players=3)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0, reward
(['action_mask', 'observation'], True, 0)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated else int(obs["action_mask"].nonzero()[0][0])
...     env.step(action)
>>> env.agents
[]
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from big2.env.actions import NUM_ACTIONS
from big2.env.core import EnvTable, RewardMode
from big2.env.observation import OBS_SIZE
from big2.env.spaces import ActionSpace, mask_space
from big2.rules import Rules

AgentID = str
ObsDict = dict[str, npt.NDArray[Any]]

RENDER_MODES: Final = ("human", "ansi", "svg")
"""``ansi``: :meth:`Big2AECEnv.render` returns the table as text (every hand
shown); ``human``: prints that text; ``svg``: returns the acting seat's table
as an SVG image (:func:`big2.svg.table`)."""


class Big2AECEnv(AECEnv):  # type: ignore[misc]
    """Big Two for PettingZoo's AEC API.

    Args:
        rules: a :class:`~big2.rules.Rules`, a preset name (``"pagat"``…) or
            ``None`` for the classic game.
        players: number of seats (2–4), overriding ``rules.players``.
        reward: ``"score"`` (the rule set's scoring) or ``"win"`` (±1).
        render_mode: ``None``, ``"ansi"``, ``"human"`` or ``"svg"``.
        render_seat: the seat an SVG render shows (default: the seat to move).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "big2_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(self, rules: Rules | str | None = None, *, players: int | None = None,
                 reward: RewardMode = "score", render_mode: str | None = None,
                 render_seat: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None")
        self.table = EnvTable(rules, players=players, reward=reward)
        self.rules = self.table.rules
        n = self.table.num_players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.render_mode = render_mode
        self.render_seat = render_seat
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 1, (OBS_SIZE,), np.int8),
            "action_mask": mask_space(NUM_ACTIONS),
        })
        act_space = ActionSpace(NUM_ACTIONS)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.agents: list[AgentID] = []
        self.rewards: dict[AgentID, float] = {}
        self._cumulative_rewards: dict[AgentID, float] = {}
        self.terminations: dict[AgentID, bool] = {}
        self.truncations: dict[AgentID, bool] = {}
        self.infos: dict[AgentID, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: AgentID) -> gymnasium.spaces.Space[Any]:
        """The observation space of *agent* (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> gymnasium.spaces.Space[Any]:
        """The action space of *agent*: ``Discrete(NUM_ACTIONS)``."""
        return self.action_spaces[agent]

    @property
    def game(self) -> Any:
        """The :class:`~big2.game.Game` being played (the whole truth)."""
        return self.table.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; *seed* restarts the stream of deals. *options* are
        accepted for the API and unused. A dealt hand that ends the deal at
        once (``maltese``, ``four_twos``) leaves every agent terminated, with
        its reward, before any action."""
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        to_move = self.table.game.to_move
        if to_move is None:  # a dealt hand ended the deal at once (maltese, four_twos)
            for a, r in zip(self.possible_agents, self.table.rewards()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.possible_agents[0]
            return
        self.agent_selection = self.possible_agents[to_move]
        self.infos[self.agent_selection] = {"legal_actions": self.table.legal_actions()}

    def observe(self, agent: AgentID) -> ObsDict:
        """*agent*'s observation dict (fresh arrays; safe to keep)."""
        seat = self._seat[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.action_mask(seat)}

    def step(self, action: int | None) -> None:
        """Play *action* for the acting agent (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        self._cumulative_rewards[agent] = 0
        table = self.table
        table.play(action)
        game = table.game
        if game.to_move is None:
            for a, r in zip(self.possible_agents, table.rewards()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            self.infos[agent] = {}
        else:
            self.infos[agent] = {}
            self.agent_selection = nxt = self.possible_agents[game.to_move]
            self.infos[nxt] = {"legal_actions": table.legal_actions()}
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Render as the ``render_mode`` says (see :data:`RENDER_MODES`)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode=")
            return None
        if self.render_mode == "svg":
            game = self.table.game
            seat = self.render_seat
            if seat is None:
                seat = game.to_move if game.to_move is not None else (game.winner or 0)
            return self.table.render_svg(seat)
        text = self.table.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(rules: Rules | str | None = None, **kwargs: Any) -> Big2AECEnv:
    """A :class:`Big2AECEnv` (PettingZoo's conventional constructor name)."""
    return Big2AECEnv(rules, **kwargs)


raw_env = env

__all__ = ["RENDER_MODES", "Big2AECEnv", "env", "raw_env"]
