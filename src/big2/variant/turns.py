"""Turn order: the direction of play, passing, and how a trick ends.

>>> from big2.rules import Rules
>>> TurnOrder(Rules(direction="clockwise")).after[0]
(3, 2, 1, 0)
"""

from __future__ import annotations

from big2.rules import Rules


class TurnOrder:
    """The seats' order and the trick rules of a rule set."""

    def __init__(self, rules: Rules) -> None:
        n = self.players = rules.players
        self.step = -1 if rules.direction == "clockwise" else 1
        """+1: the next seat number plays next (counter-clockwise); -1: clockwise."""
        self.after: tuple[tuple[int, ...], ...] = tuple(
            tuple((s + self.step * k) % n for k in range(1, n + 1)) for s in range(n))
        """For each seat, the seats after it in the direction of play (itself last)."""
        self.jump_back = rules.passing == "jump-back"
        """A pass does not keep a player out of the rest of the trick."""
        self.lock_out = not self.jump_back
        self.one_pass = rules.trick_end == "one-pass"
        """The trick ends at the first pass."""

    def next_dealer(self, dealer: int) -> int:
        """The dealer of the next deal: one seat on in the direction of play."""
        return (dealer + self.step) % self.players
