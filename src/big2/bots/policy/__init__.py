"""Policies as bots.

- :mod:`big2.bots.policy.plug`: any trained policy function as a bot
  (:class:`CallableBot`, :func:`register_policy`), re-exported here;
- :mod:`big2.bots.policy.pnet`: the shipped PPO policy network and its critic
  (NumPy inference; :mod:`~big2.bots.policy.pfeatures` and
  :mod:`~big2.bots.policy.phint` are its inputs);
- :mod:`big2.bots.policy.net`: that network as a bot (``policy-net``);
- :mod:`big2.bots.policy.belief`: the policy's likelihood of the other seats'
  plays, which weighs a search's sampled worlds.

Importing this package loads no NumPy; its submodules do.
"""

from big2.bots.policy.plug import CallableBot, register_policy
from big2.bots.policy.plug import PolicyBot as PolicyBot  # the old name, still importable

__all__ = ["CallableBot", "register_policy"]
