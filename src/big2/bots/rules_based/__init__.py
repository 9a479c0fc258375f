"""Bots and parts written by hand, without a trained network.

- :mod:`~big2.bots.rules_based.heuristic`: the ``heuristic`` bot (hand planning);
- :mod:`~big2.bots.rules_based.planning`, :mod:`~big2.bots.rules_based.control`:
  the plan of a hand and which plays keep control;
- :mod:`~big2.bots.rules_based.native`: the same decisions in the compiled core;
- :mod:`~big2.bots.rules_based.modelling`: reading an opponent's style from its plays;
- :mod:`~big2.bots.rules_based.reasons`: plain-words reasons for a play.
"""
