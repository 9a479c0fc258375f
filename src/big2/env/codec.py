"""What an action id means in :class:`~big2.env.vector.VectorEnv`: :class:`ActionCodec`.

One object per action form turns a game's plays into ids and back, for every
backend alike:

* ``"hand"``: places in the mover's sorted hand (:mod:`big2.env.hand_actions`);
* ``"rule"``: index into :func:`~big2.env.actions.rule_actions` (the rule set's plays);
* ``"flat"``: the fixed ids of :mod:`big2.env.actions`.

>>> from big2.rules import Rules
>>> c = ActionCodec("hand", Rules())
>>> c.num_actions, ActionCodec("rule", Rules()).num_actions
(2380, 19899)
"""

from __future__ import annotations

from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from big2.env.actions import ACTION_MASKS, NUM_ACTIONS, rule_actions
from big2.env.hand_actions import HandActions, max_hand
from big2.rules import Rules

ActionForm = Literal["hand", "rule", "flat"]
ACTION_FORMS: Final = ("hand", "rule", "flat")


class ActionCodec:
    """Ids of the action form *form* under *rules* (:attr:`num_actions` of them)."""

    def __init__(self, form: ActionForm, rules: Rules) -> None:
        if form not in ACTION_FORMS:
            raise ValueError(f"actions must be one of {', '.join(ACTION_FORMS)}, not {form!r}")
        self.form: ActionForm = form
        self.hand_actions = HandActions(max_hand(rules))
        """The hand-relative ids (also what chosen hands are checked against)."""
        if form == "hand":
            self.num_actions = self.hand_actions.size
        elif form == "rule":
            ids = rule_actions(rules)
            self._masks = ACTION_MASKS[ids]
            self._order = np.argsort(self._masks)
            self._sorted = self._masks[self._order]
            self.num_actions = len(ids)
        else:
            self._order = np.argsort(ACTION_MASKS)
            self._sorted = ACTION_MASKS[self._order]
            self.num_actions = NUM_ACTIONS

    def encode(self, plays: npt.NDArray[np.uint64], games: npt.NDArray[np.intp],
               mover_hand: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
        """The ids of *plays* (card masks) made in *games* (*mover_hand*: each game's
        mover's hand)."""
        if self.form == "hand":
            return self.hand_actions.encode(plays, mover_hand[games])
        out: npt.NDArray[np.int64] = self._order[np.searchsorted(self._sorted, plays)]
        return out

    def decode(self, ids: npt.NDArray[np.int64],
               mover_hand: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        """The card masks *ids* name, each for the mover holding its *mover_hand*."""
        if self.form == "hand":
            return self.hand_actions.decode(ids, mover_hand)
        if self.form == "rule":
            out: npt.NDArray[np.uint64] = self._masks[ids]
            return out
        flat: npt.NDArray[np.uint64] = ACTION_MASKS[ids]
        return flat


__all__ = ["ACTION_FORMS", "ActionCodec", "ActionForm"]
