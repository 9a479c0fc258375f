"""The Python engine's games behind :class:`big2.env.vector.VectorEnv`:
:class:`PythonGames`.

N :class:`~big2.env.core.EnvTable`\\ s of one rule set, each with its bots (in the
seats that are not the learners'), the cards each seat has played in the
current deal, and the stepping: play the checked choice in every game, let
the bots play up to a learner's turn, deal again where a deal ended, and
collect every game's next position into a :class:`~big2.env.batch.Batch`.
The env checks the actions and turns ids into choices; this module only
plays them (and :mod:`big2.env.native_games` is the compiled core's
counterpart).
"""

from __future__ import annotations

import gc
import random

import numpy as np
import numpy.typing as npt

from big2.bots import Bot, make_bot
from big2.env.batch import Batch, Encoder, Stepped
from big2.env.core import EnvTable, RewardMode
from big2.env.deals import DealStream, core_dealt
from big2.env.reset_options import Deal
from big2.game import Game
from big2.house.spare import spare
from big2.observation import OBS_SIZE, encode_game
from big2.rules import Rules
from big2.variant import variant


class PythonGames:
    """*num_envs* games of *rules* on the Python engine, numbered from *first*
    (a worker process's share keeps the numbers, and so the seeds, it would
    have in one process).

    Args:
        rules: the rule set.
        num_envs: number of games N.
        reward: ``"score"`` or ``"win"`` (see :class:`~big2.env.core.EnvTable`).
        learners: the seats the caller plays.
        bot_specs: the bot (name or :class:`~big2.bots.base.Bot`) of every
            other seat; a name makes a bot per game.
        illegal_reward: the mover's reward when an illegal action ends a deal.
        encode: the env's plays → action ids (for :meth:`Batch.collect
            <big2.env.batch.Batch.collect>`).
        first: the number of the first game.
    """

    def __init__(self, rules: Rules, num_envs: int, *, reward: RewardMode,
                 learners: frozenset[int], bot_specs: dict[int, str | Bot],
                 illegal_reward: float, encode: Encoder, first: int = 0) -> None:
        self.rules = rules
        self.num_envs = num_envs
        self.num_players = variant(rules).players
        self.illegal_reward = illegal_reward
        self._reward = reward
        self._learners = learners
        self._bot_specs = bot_specs
        self._encode = encode
        self._first = first
        self._spare_aside = variant(rules).deck.spare_aside
        self._streams: list[DealStream] | None = None
        self._core_dealt = core_dealt(rules)
        self.tables: list[EnvTable] = []
        self._bots: list[dict[int, Bot]] = []
        self._played: list[list[int]] = [[0] * self.num_players for _ in range(num_envs)]
        self._flat: list[int] = []
        self._ended = 0

    def reset(self, seed: int | None, hands: list[Deal | None] | None = None) -> Batch:
        """Deal every game afresh from *seed* (game *i*'s stream of deals from
        *seed* and *i*: the core's, :class:`~big2.env.deals.DealStream`, where the
        core deals the rule set), the chosen *hands* where given; the bots play up
        to a learner's turn. The games' positions."""
        self.tables, self._bots = [], []
        if self._core_dealt:
            if seed is None:
                seed = random.SystemRandom().getrandbits(63)
            self._streams = [DealStream(self.rules, seed, i)
                             for i in range(self._first, self._first + self.num_envs)]
        for i in range(self._first, self._first + self.num_envs):
            s = None if seed is None else random.Random(f"big2-vec:{seed}:{i}").getrandbits(63)
            table = EnvTable(self.rules, reward=self._reward, seed=s)
            self.tables.append(table)
            if self._streams is not None:
                stream = self._streams[i - self._first]
                dealer = stream.dealer
                table.deal_hands(stream.deal(), dealer)
            deal = None if hands is None else hands[i - self._first]
            if deal is not None:
                table.deal_hands(deal, table.game.dealer)
            bots: dict[int, Bot] = {}
            for seat, spec in self._bot_specs.items():
                bots[seat] = (spec if isinstance(spec, Bot)
                              else make_bot(spec, seed=None if s is None else s + seat))
            self._bots.append(bots)
        self._played = [[0] * self.num_players for _ in range(self.num_envs)]
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        for i in range(self.num_envs):
            self._settle(i, rewards, count=False)
        return self._refresh()

    def step(self, choice: npt.NDArray[np.intp], legal: npt.NDArray[np.bool_]) -> Stepped:
        """Play in each game the legal play at index *choice* of the last
        collected plays where *legal*, else end its deal as illegal; what the
        step leaves."""
        self._ended = 0
        legal_list = legal.tolist()
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        new_flat: list[int] = []
        counts: list[int] = []
        nums: list[int] = []
        finals: list[tuple[int, Game, int, list[int]]] = []
        # one pass over the games, each touched once: play, then collect the next position;
        # the collector waits for the pass's end (the pass makes thousands of short-lived
        # objects, and collecting mid-way would walk every game's state many times)
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._play_all(choice.tolist(), legal_list, rewards, done, new_flat, counts, nums,
                           finals)
        finally:
            if collecting:
                gc.enable()
        final_obs = (np.stack([encode_game(g, seat, played) for _, g, seat, played in finals])
                     if finals else np.zeros((0, OBS_SIZE), dtype=np.int8))
        return Stepped(self._collect(new_flat, counts, nums), rewards, done, ~legal, self._ended,
                       np.array([f[0] for f in finals], dtype=np.int64), final_obs)

    def _play_all(self, choice: list[int], legal_list: list[bool], rewards: npt.NDArray[np.float32],
                  done: npt.NDArray[np.bool_], new_flat: list[int], counts: list[int],
                  nums: list[int], finals: list[tuple[int, Game, int, list[int]]]) -> None:
        tables, played_all, bots, flat = self.tables, self._played, self._bot_specs, self._flat
        extend, count, put = new_flat.extend, counts.append, nums.extend
        for i in range(self.num_envs):
            t = tables[i]
            g = t.game
            played = played_all[i]  # the deal's list (a new deal gets a new one)
            if legal_list[i]:
                m = flat[choice[i]]
                seat = g.to_move
                played[seat] |= m  # type: ignore[index]
                g.play(m)
                if bots or g.to_move is None:
                    if self._settle(i, rewards):
                        done[i] = True
                        finals.append((i, g, seat, played))  # type: ignore[arg-type]
                    g = t.game
            else:
                seat = g.to_move
                rewards[i, seat] = self.illegal_reward
                done[i] = True
                finals.append((i, g, seat, played))  # type: ignore[arg-type]
                self._new_deal(i)
                self._settle(i, rewards)
                g = t.game
            plays = g.legal_masks()
            extend(plays)
            count(len(plays))
            put(g.numbers())
            put(g.hands)
            put(played_all[i])

    def _new_deal(self, i: int) -> None:
        if self._streams is not None:
            stream = self._streams[i]
            dealer = stream.dealer
            self.tables[i].deal_hands(stream.deal(), dealer)
        else:
            self.tables[i].reset()
        self._played[i] = [0] * self.num_players

    def _settle(self, i: int, rewards: npt.NDArray[np.float32], *, count: bool = True) -> bool:
        """Let game *i*'s bots play up to a learner's turn, dealing anew (and
        adding the finished deal's rewards to *rewards*) whenever a deal ends.
        Whether a deal ended."""
        t = self.tables[i]
        bots = self._bots[i] if self._bot_specs else None
        ended = False
        while True:
            g: Game = t.game
            seat = g.to_move
            if seat is None:
                if count:
                    rewards[i] += t.rewards()
                    self._ended += 1
                ended = True
                self._new_deal(i)
                continue
            if bots is None or seat in self._learners:
                return ended
            m = bots[seat].choose_in(g, seat)  # a heuristic seat skips building the view
            self._played[i][seat] |= m
            g.play(m)

    def _refresh(self) -> Batch:
        """Collect every game's legal plays and public numbers (as :meth:`step`
        does while it plays), and build the observations."""
        flat: list[int] = []
        counts: list[int] = []
        nums: list[int] = []
        for i, t in enumerate(self.tables):
            g = t.game
            legal = g.legal_masks()
            flat.extend(legal)
            counts.append(len(legal))
            nums.extend(g.numbers())
            nums.extend(g.hands)
            nums.extend(self._played[i])
        return self._collect(flat, counts, nums)

    def _collect(self, flat: list[int], counts: list[int], nums: list[int]) -> Batch:
        """The batch from every game's legal plays and public numbers (see
        :meth:`~big2.env.batch.Batch.collect`)."""
        self._flat = flat
        return Batch.collect(flat, counts, nums, self.num_players, self._spares(), self._encode)

    def _spares(self) -> npt.NDArray[np.uint64]:
        """Each game's face-up spare card (zeros unless the rule set lays one out)."""
        if not self._spare_aside:
            return np.zeros(self.num_envs, dtype=np.uint64)
        return np.array([spare(t.game) for t in self.tables], dtype=np.uint64)


__all__ = ["PythonGames"]
