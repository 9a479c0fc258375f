"""The deal driver both environments share: one :class:`~big2.game.Game` at a
time, dealt by a seeded :class:`~big2.match.Match`, action ids, observations,
masks, rewards and rendering.

It needs neither PettingZoo nor Gymnasium; :mod:`big2.env.aec` and
:mod:`big2.env.gym` wrap it in their APIs.

>>> t = EnvTable("classic", seed=3)
>>> seat = t.game.to_move
>>> ids = t.legal_actions()
>>> t.play(int(ids[0]))
>>> t.game.to_move != seat, len(t.game.history)
(True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from big2.cards import CARD_SYMBOLS, Mask, cards_of
from big2.env.actions import (
    ACTION_INDEX,
    ACTION_MASK_LIST,
    NUM_ACTIONS,
    check_action_id,
)
from big2.env.observation import encode_game
from big2.game import Game, IllegalPlayError
from big2.match import Match
from big2.rules import Rules
from big2.variant import variant
from big2.variant.support import env_unsupported

RewardMode = Literal["score", "win"]
REWARD_MODES: Final = ("score", "win")
"""``score``: the deal's score under the rule set's scoring; ``win``: +1 to the
seat that went out first, −1 to every other seat."""

IllegalMode = Literal["end", "raise"]
"""What an action that is not legal now does, in every environment: ``"end"``
the episode (or the game: the environments' own reward for it) or ``"raise"``
:class:`~big2.game.IllegalPlayError`. The one definition the environments share."""
ILLEGAL_MODES: Final[tuple[IllegalMode, ...]] = ("end", "raise")


def make_rules(rules: Rules | str | None, players: int | None) -> Rules:
    """A :class:`Rules` from a rule set, a preset name or ``None`` (classic),
    with *players* applied when given."""
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        rules = Rules.preset(rules)
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, a preset name or None, not {type(rules).__name__}")
    if players is not None and players != variant(rules).players:
        rules = rules.replace(players=players)
    unsupported = unsupported_options(rules)
    if unsupported:
        raise ValueError(
            "the environment's fixed action space holds plays of one to five cards (straights of "
            "five) from one 52-card deck; these options make other plays: "
            + ", ".join(unsupported))
    return rules


def unsupported_options(rules: Rules) -> list[str]:
    """Options of *rules* whose plays fall outside the fixed action space
    (the variant's answer, :attr:`big2.variant.Variant.env_unsupported`, asked
    without compiling the rule set)."""
    return list(env_unsupported(rules))


class EnvTable:
    """One seat-agnostic deal at a time.

    Args:
        rules: a :class:`Rules`, a preset name, or ``None`` for the classic game.
        players: number of seats (2–4), overriding ``rules.players``.
        reward: ``"score"`` or ``"win"`` (see :data:`REWARD_MODES`).
        seed: seeds the stream of deals; see :meth:`reset`.
    """

    def __init__(self, rules: Rules | str | None = None, *, players: int | None = None,
                 reward: RewardMode = "score", seed: int | None = None) -> None:
        self.rules = make_rules(rules, players)
        self.num_players = variant(self.rules).players
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, not {reward!r}")
        self.reward_mode: RewardMode = reward
        self.names = tuple(f"player_{s}" for s in range(self.num_players))
        self._legal_src: list[int] | None = None
        self._legal_ids: list[int] = []
        self._played_game: Game | None = None
        self._played_upto = 0
        self._played: list[int] = []
        self._given = False
        self._start(seed)
        self.game: Game = self.match.new_game()

    def _start(self, seed: int | None) -> None:
        """Start a match from *seed*, and the stream that seeds the matches
        after it (one ends, or a deal is left unfinished)."""
        self._rng = random.Random(None if seed is None else f"big2-env:{seed}")
        self.match = self._match(seed)

    def _match(self, seed: int | None) -> Match:
        # a match with no end (no deal count, no penalty target): deal on for a long while
        deals = 10_000 if variant(self.rules).plan.endless else None
        return Match(self.rules, seed=seed, names=self.names, deals=deals)

    def reset(self, seed: int | None = None) -> Game:
        """Deal a new hand: the next deal of the :class:`~big2.match.Match`
        (the dealer moves; the President exchange, a teams shoot-out and the
        winner's lead follow the rules). With *seed*, or after a deal left
        unfinished, a new match starts; the same seed (and the same actions)
        replays the same deals."""
        if seed is not None:
            self._start(seed)
        elif self.game.is_over() and not self._given:
            self.match.record(self.game)
        if seed is None and (self.match.is_over() or not self.game.is_over() or self._given):
            self.match = self._match(self._rng.getrandbits(64))
        self._given = False
        self.game = self.match.new_game()
        return self.game

    def deal_hands(self, hands: Sequence[Mask], dealer: int = 0) -> Game:
        """Deal *hands* (one mask per seat) instead of the match's next deal, *dealer*
        dealing: the seat the rules say leads (the lowest card's holder) opens. It is
        no deal of the match, so the deal after it starts a new match, as
        after a deal left unfinished."""
        self.game = Game(self.rules, hands=list(hands), dealer=dealer, names=self.names)
        self._given = True
        return self.game

    # -- actions ---------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The ids of the legal plays of the seat to move (empty once over),
        weakest first, the pass last. Shared until the game moves on: do not
        change it."""
        legal = self.game.legal_masks()
        if legal is not self._legal_src:  # the game hands out one list per position
            index = ACTION_INDEX
            self._legal_ids = [index[m] for m in legal]
            self._legal_src = legal
        return self._legal_ids

    def action_mask(self, seat: int) -> npt.NDArray[np.bool_]:
        """``True`` at each legal action if *seat* is to move, else all ``False``."""
        out = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        if seat == self.game.to_move:
            out[self.legal_actions()] = True
        return out

    def play(self, action: int) -> None:
        """Play action id *action* for the seat to move.

        Raises :class:`~big2.env.actions.InvalidActionError` for an id out of
        range and :class:`~big2.game.IllegalPlayError` (with the reason) for a
        play not legal now.
        """
        self.game.play(ACTION_MASK_LIST[check_action_id(action)])

    # -- observation and reward ---------------------------------------------------

    def observe(self, seat: int) -> npt.NDArray[np.int8]:
        """The observation vector of *seat* (see :mod:`big2.env.observation`)."""
        return encode_game(self.game, seat, self.played())

    def played(self) -> list[int]:
        """Each seat's played cards this deal, kept up to date from the new
        entries of the game's public history."""
        game, history = self.game, self.game.history
        if game is not self._played_game or len(history) < self._played_upto:
            self._played_game, self._played_upto = game, 0
            self._played = [0] * self.num_players
        played = self._played
        for a in history[self._played_upto:]:
            played[a.seat] |= a.cards
        self._played_upto = len(history)
        return played

    def rewards(self) -> tuple[float, ...]:
        """Each seat's reward for the finished deal (zeros while playing)."""
        outcome = self.game.outcome()
        if outcome is None:
            return (0.0,) * self.num_players
        if self.reward_mode == "win":
            return tuple(1.0 if s == outcome.winner else -1.0 for s in range(self.num_players))
        return tuple(float(x) for x in outcome.scores)

    # -- rendering -----------------------------------------------------------------

    def render_text(self) -> str:
        """The whole table as text: every hand (the environment sees all), the
        play to beat, the current trick, and the result once over."""
        g = self.game
        names = self.names

        def cards(mask: int) -> str:
            strength = self.rules.strength
            return " ".join(CARD_SYMBOLS[c] for c in sorted(cards_of(mask), key=strength)) or "-"

        lines = [f"Big Two · {self.rules.name} · {self.num_players} players"]
        outcome = g.outcome()
        for s in range(self.num_players):
            mark = ">" if s == g.to_move else " "
            lines.append(f"{mark} {names[s]:<10} {g.hands[s].bit_count():>2}  {cards(g.hands[s])}")
        if outcome is not None:
            scores = " ".join(f"{names[s]} {x:+d}" for s, x in enumerate(outcome.scores))
            lines.append(f"{names[outcome.winner]} went out; scores: {scores}")
            return "\n".join(lines)
        combo = g.last_combo
        if combo is None:
            lines.append(f"{names[g.to_move or 0]} leads")
        else:
            lines.append(f"to beat: {combo.kind.label} {cards(combo.cards)} "
                         f"by {names[g.last_player or 0]}")
        trick = ", ".join(f"{names[a.seat]} {cards(a.cards) if a.cards else 'pass'}" for a in g.trick)
        if trick:
            lines.append(f"trick: {trick}")
        return "\n".join(lines)

    def render_svg(self, seat: int) -> str:
        """The table as *seat* sees it, as SVG (:func:`big2.svg.table`)."""
        from big2.svg import table

        return table(self.game.view(seat))


__all__ = [
    "ILLEGAL_MODES",
    "REWARD_MODES",
    "EnvTable",
    "IllegalMode",
    "IllegalPlayError",
    "RewardMode",
    "make_rules",
]
