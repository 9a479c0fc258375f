"""Type stub of the policy network in the core (``src/native/policy_bindings.cpp``)."""

from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

STATE_FEATURES: int
PLAY_FEATURES: int
OBS_SIZE: int
HINT: int
ABOVE: int
RAW_STATE: int

class Net:
    """The actor's weights (:data:`big2.bots.policy.pnet.NAMES`, float32)."""

    def __init__(self, weights: dict[str, NDArray[Any]]) -> None: ...
    def embed(self, state: NDArray[Any]) -> NDArray[np.float32]: ...
    def logits(self, state: NDArray[Any], plays: NDArray[Any],
               rows: NDArray[Any]) -> NDArray[np.float32]: ...

class Critic:
    """The critic's layers (:class:`big2.bots.policy.pnet.ValueNet`)."""

    def __init__(self, weights: Sequence[NDArray[Any]], biases: Sequence[NDArray[Any]]) -> None: ...

class Table:
    """What a decision's deals share in the core."""

    def __init__(self, net: Net, config: Any, style: Any, layout: dict[str, int], spare: int,
                 family: int) -> None: ...

Frame: TypeAlias = tuple[int, int, int, int, int, tuple[int, ...]]

def decide(table: Table, hands: Sequence[int], frame: Frame, played: Sequence[int],
           trick_leader: int) -> tuple[list[int], NDArray[np.float32], NDArray[np.float32],
                                       NDArray[np.float32]]: ...
def play_outs(table: Table, worlds: Sequence[Sequence[int]], frame: Frame, played: Sequence[int],
              trick_leader: int, cands: Sequence[int], seat: int, plies: int, sample: bool,
              seed: int, greedy: Sequence[int], critic: Critic | None,
              scale: float) -> NDArray[np.float64]: ...

class Collector:
    """PPO's collection in the core (``src/native/collect.hpp``, :mod:`big2.learn.ppo_native`)."""

    steps: int
    deals: int
    def __init__(self) -> None: ...
    def add_group(self, rules: Any, preset: Any, style: Any, layout: dict[str, int], family: int,
                  num_envs: int, seed: int, learners: Sequence[int], rival: bool,
                  bot: str, plain: bool = False) -> None: ...
    def collect(self, net: Net, rival: Net | None, samples: int,
                rng_state: tuple[int, int, int, int],
                ) -> tuple[dict[str, NDArray[Any]], tuple[int, int]]: ...
