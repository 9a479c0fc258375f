"""The league's shipped members (issue 53): agents trained without the heuristic's
features or planner, so that a bot can be tested against players that do not
think like it.

Each entry of :data:`LEAGUE_WEIGHTS` is registered as a bot of its name
(:mod:`big2.bots`) and joins :data:`big2.arena.gauntlet.LEAGUE`, the gauntlet's
first opponents. Adding a trained agent is one line here, beside its weights
committed in ``big2/bots/policy/weights/`` (docs/bots.md, "The league").
Importing this module loads no NumPy.
"""

from __future__ import annotations

from typing import Final, Literal

LeagueKind = Literal["dmc", "policy-net"]
"""How a member plays: a Deep Monte-Carlo Q network (:class:`~big2.bots.policy.dmc.DMCBot`,
weights: a DMC run's slim ``.npz``) or a policy network
(:class:`~big2.bots.policy.net.PolicyNetBot`, weights: ``export-policy``'s ``.npz``)."""

LEAGUE_WEIGHTS: Final[dict[str, tuple[LeagueKind, str]]] = {
    "league-dmc": ("dmc", "league-dmc.npz"),  # 200M steps of DMC self-play (docs/league.md)
}
"""Bot name -> (kind, weights file in ``big2/bots/policy/weights``)."""

__all__ = ["LEAGUE_WEIGHTS", "LeagueKind"]
