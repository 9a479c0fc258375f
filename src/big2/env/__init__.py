"""Reinforcement-learning environments for Big Two, under any rule set.

* :class:`Big2AECEnv` (:mod:`big2.env.aec`): PettingZoo's AEC API, 2–4 agents;
* :class:`Big2Env` (:mod:`big2.env.gym`): Gymnasium, one seat learning, the
  other seats played by bots of chosen levels;
* :class:`VectorEnv` (:mod:`big2.env.vector`): N games stepped in one call,
  NumPy arrays throughout, for self-play training: Gymnasium's vector API
  (:class:`gymnasium.vector.VectorEnv`, same-step autoreset);
* :mod:`big2.env.spaces`: the spaces they share (every action mask is
  ``bool``); :mod:`big2.env.reset_options`: the vector env's chosen hands;
* :mod:`big2.env.hand_actions`: hand-relative action ids (2,380 for 13-card
  hands), the vector env's default action form;
* :mod:`big2.env.actions`: the fixed action space (202,204 ids: every play of
  any rule set, plus pass) and id ↔ cards ↔ text helpers;
* :mod:`big2.env.observation`: the documented 635-entry 0/1 observation.

The actions and observation modules need only NumPy. The three environment
classes are loaded on first use, so ``import big2.env`` works without
PettingZoo or Gymnasium installed (``pip install big2[rl]`` brings them).

>>> from big2.env import NUM_ACTIONS, OBS_SIZE, text_to_action
>>> NUM_ACTIONS, OBS_SIZE, text_to_action("pass")
(202204, 635, 0)
"""

from __future__ import annotations

import importlib
from typing import Any

from big2.env.actions import (
    NUM_ACTIONS,
    PASS_ACTION,
    InvalidActionError,
    action_to_mask,
    action_to_text,
    legal_action_mask,
    legal_actions,
    mask_to_action,
    rule_actions,
    text_to_action,
)
from big2.env.hand_actions import HandActions, max_hand
from big2.env.observation import LAYOUT, OBS_SIZE, encode_game, encode_view

_LAZY = {"Big2AECEnv": "big2.env.aec", "Big2Env": "big2.env.gym", "VectorEnv": "big2.env.vector"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'big2.env' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "LAYOUT", "NUM_ACTIONS", "OBS_SIZE", "PASS_ACTION", "Big2AECEnv", "Big2Env", "HandActions",
    "InvalidActionError", "VectorEnv", "action_to_mask", "action_to_text", "encode_game",
    "encode_view", "legal_action_mask", "legal_actions", "mask_to_action", "max_hand",
    "rule_actions", "text_to_action",
]
