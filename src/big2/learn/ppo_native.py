"""PPO's collection in the compiled core (``big2._policy.Collector``, ``src/native/collect.hpp``).

:class:`NativeCollector` plays the game mix of the NumPy
:class:`~big2.learn.ppo_collect.Collector` — the same groups (self-play, a
past self, each fixed bot) of each family, in the same order, dealt the same
hands — but each step of a group runs in C++ over all its games: the
observation, the policy's features and the heuristic's hints, the forward
pass, the sampling of the play, the fixed bots (``heuristic``, ``greedy``)
and the bookkeeping of trajectories. Python receives only the arrays the
learner trains on (:class:`~big2.learn.ppo_samples.Samples`).

The uniforms that sample the plays come from the collector's NumPy
generator (:attr:`NativeCollector.rng`, a PCG64 whose state the core takes
and hands back), drawn in the order the NumPy collector draws them, so for a
seed the two collectors make the same plays and the same samples
(``tests/learn/test_ppo_native.py``), up to a uniform falling within float
rounding of a boundary between two plays (the logits agree to rounding, not
bit for bit). The learner's generator can be handed over, so a run resumes
exactly as with the NumPy collector.

:func:`native_reason` says what keeps a run off the core (``None``: nothing):
the extension missing, a rule set the core does not play, one with a card
laid aside, a fixed bot other than ``heuristic`` and ``greedy``.
"""

from __future__ import annotations

import numpy as np

from big2.bots.policy import pnative
from big2.bots.policy.pfeatures import FAMILIES, RAW_PLAY, RAW_STATE
from big2.bots.policy.pnet import PolicyNet, family_index
from big2.bots.rules_based import native
from big2.bots.rules_based.planning import DEFAULT_STYLE
from big2.combos import engine
from big2.learn.ppo_samples import Samples
from big2.observation import observation_layout
from big2.rules import Rules
from big2.variant import variant

BOTS = ("heuristic", "greedy")
"""The fixed bots the core plays in the bot groups."""


def native_reason(families: dict[str, Rules], opponents: tuple[str, ...] = ()) -> str | None:
    """What keeps this game mix off the core's collector (``None``: nothing)."""
    if not pnative.available():
        return "big2._policy is not built for this feature layout"
    for name in opponents:
        if name not in BOTS:
            return f"the fixed bot {name!r} (the core plays {', '.join(BOTS)})"
    for name, rules in families.items():
        if native.config(engine(rules)) is None:
            return f"the rule set of {name!r}"
        if native.config(engine(Rules.preset(FAMILIES[family_index(name)]))) is None:
            return f"the preset of {name!r}'s family"
        dealt = sum(variant(rules).deal_counts)
        if dealt != 52:
            return f"{name!r} deals {dealt} of the 52 cards"
    return None


def is_plain(net: PolicyNet) -> bool:
    """Whether *net* reads the plain encoding alone: zero weights on every engineered
    state input (after :data:`~big2.bots.policy.pfeatures.RAW_STATE`) and play input
    (after :data:`~big2.bots.policy.pfeatures.RAW_PLAY`, the hints included)."""
    return not (net.w["s0_w"][RAW_STATE:].any() or net.w["b_w"][RAW_PLAY:].any())


def plain_net(net: PolicyNet) -> PolicyNet:
    """A copy of *net* held to the plain encoding: its weights on the engineered inputs
    zeroed (what :func:`~big2.learn.ppo_model.plain_inputs` does to a trained actor)."""
    w = {k: v.copy() for k, v in net.w.items()}
    w["s0_w"][RAW_STATE:] = 0
    w["b_w"][RAW_PLAY:] = 0
    return PolicyNet(w)


class NativeCollector:
    """The game mix of :class:`~big2.learn.ppo_collect.Collector` (same arguments,
    same seeds) played in the core.

    Raises:
        ValueError: the core cannot play it (:func:`native_reason` says why).
    """

    def __init__(self, families: dict[str, Rules], *, self_play: int, pool: int, bots: int,
                 opponents: tuple[str, ...], seed: int, plain: bool = False) -> None:
        why = native_reason(families, opponents if bots else ())
        if why is not None:
            raise ValueError(f"the core's collector cannot play {why}")
        from big2 import _policy

        self.rng = np.random.default_rng(seed)
        """The sampling stream (a PCG64 generator; the trainer hands its own over)."""
        self.plain = plain
        """The plain encoding's run: the engineered inputs and the hints are not computed
        (0), and the networks must have zero weights on them (as
        :func:`~big2.learn.ppo_model.plain_inputs` holds them), so that what they play is
        what they would play with the inputs computed."""
        self._core = _policy.Collector()
        style, layout = native._style(DEFAULT_STYLE), observation_layout()
        for j, (name, rules) in enumerate(families.items()):
            fam = family_index(name)
            at = (native.config(engine(rules)), native.config(engine(Rules.preset(FAMILIES[fam]))),
                  style, layout, fam)
            s = seed * 7919 + j * 101
            if self_play:
                self._core.add_group(*at, self_play, s % (1 << 64),
                                     list(range(variant(rules).players)),
                                     False, "", plain)
            if pool:
                self._core.add_group(*at, pool, (s + 1) % (1 << 64), [0], True, "", plain)
            for k, level in enumerate(opponents if bots else ()):
                self._core.add_group(*at, bots, (s + 2 + k) % (1 << 64), [0], False, level,
                                     plain)

    @property
    def steps(self) -> int:
        """Decisions played so far (every seat's, the bots' not counted)."""
        return int(self._core.steps)

    @property
    def deals(self) -> int:
        """Deals finished so far."""
        return int(self._core.deals)

    def collect(self, net: PolicyNet, rival: PolicyNet | None, samples: int) -> Samples:
        """Step every group in turn until at least *samples* decisions of finished
        deals are in hand (the current policy's: *net*; *rival* plays the past
        self's seats, *net* when ``None``); those decisions."""
        from big2 import _policy

        if self.plain:
            for which in (net, rival):
                if which is not None and not is_plain(which):
                    raise ValueError("a plain collector plays networks with zero weights on "
                                     "the engineered inputs (big2.learn.ppo_model.plain_inputs)")
        bg = self.rng.bit_generator
        st = bg.state
        if st["bit_generator"] != "PCG64":
            raise ValueError(f"the collector samples with PCG64, not {st['bit_generator']}")
        state, inc = int(st["state"]["state"]), int(st["state"]["inc"])
        mask = (1 << 64) - 1
        # the weights copied into the core for this call alone (pnative.native_net keeps
        # every network it is given: a new one each iteration would add up)
        got, (hi, lo) = self._core.collect(
            _policy.Net(net.w), None if rival is None else _policy.Net(rival.w),
            samples, (state >> 64, state & mask, inc >> 64, inc & mask))
        st["state"]["state"] = (int(hi) << 64) | int(lo)
        bg.state = st
        return Samples(got["state"], got["hidden"], got["plays"], got["counts"], got["pick"],
                       got["logp"], got["lengths"], got["rewards"], got["families"])


__all__ = ["BOTS", "NativeCollector", "is_plain", "native_reason", "plain_net"]
