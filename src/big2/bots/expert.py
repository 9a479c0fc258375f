"""The ``expert`` bot: determinized search over the hidden cards.

For each decision it samples deals of the unseen cards to the other seats that
agree with everything the seat has seen (card counts, cards played, and the
one pass the rules make informative: a leader who passes had no legal lead, so
held a single card it may not go out on). Other passes are weak evidence: a
seat that passed on a single, pair or triple probably held nothing to beat it,
so samples where it did are kept only with probability ``1 - pass_inference``
per such pass (a few draws, keeping the most plausible). Each opponent is
modelled from its plays so far (:mod:`big2.bots.modelling`): the more of its
actions the greedy rule explains, the more often the play-outs play it
greedily, with hands consistent with that reading. Each sample becomes a
full game with
:meth:`big2.Game.from_view`; every candidate play is tried in it and the deal
is played out by the heuristic policy for all seats (in the compiled core where
the rule set allows it: :func:`play_out`). Candidates are compared
on the same samples (common random numbers) and pruned by successive halving:
each round the worse half is dropped and the rest get more samples.

``budget`` is the number of play-outs per decision (deterministic for a
seed); ``seconds`` optionally caps the time as well (then results depend on
the machine's speed).

>>> from big2 import Game
>>> g = Game(seed=5)
>>> bot = ExpertBot(seed=1, budget=40)
>>> choice = bot.choose(g.view(g.to_move))
>>> choice in g.legal_masks()
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from big2.bots import native
from big2.bots.base import Bot, register_bot
from big2.bots.control import single_beaters
from big2.bots.heuristic import decide
from big2.bots.modelling import (
    any_consistent_hands,
    greedy_forbidden,
    greedy_posterior,
    public_steps,
)
from big2.bots.planning import beaten_by_unseen, heuristic_play, plan
from big2.bots.wildplay import wild_play
from big2.cards import Mask, cards_of
from big2.combos import engine
from big2.game import Game
from big2.rules import Rules
from big2.house.restrictions import FinishRestrictions
from big2.variant import Engine, variant
from big2.view import PlayerView

_Evidence = tuple[set[int], list[tuple[int, Mask, Mask]], list[float], list[Mask]]

DEFAULT_BUDGET = 800
"""Play-outs per decision by default (median decision well under 1 s on a
2-core laptop-class machine; see docs/bots.md)."""

def greedy_play(eng: Engine, hand: Mask, legal: list[Mask], leading: bool) -> Mask:
    """The greedy bot's rule on plain values: the weakest play that beats the
    table; leading, the play holding the lowest card that sheds the most."""
    if not leading:
        return legal[0]
    plays = [p for p in legal if p]
    if not plays:
        return 0
    low = min(cards_of(hand), key=eng.strength.__getitem__)
    holding = [p for p in plays if p >> low & 1] or plays
    return max(holding, key=lambda p: (p.bit_count(), -holding.index(p)))


def rollout(game: Game, eng: Engine, greedy_seats: int = 0) -> None:
    """Play *game* to the end with the heuristic policy at every seat, or the
    greedy rule at the seats in the bit mask *greedy_seats*."""
    while game.to_move is not None:
        seat = game.to_move
        legal = game.legal_masks()
        if len(legal) == 1:
            game.play(legal[0])
            continue
        if greedy_seats >> seat & 1:
            game.play(greedy_play(eng, game.hands[seat], legal, game.leading))
            continue
        hands = game.hands
        hand = hands[seat]
        others = 0
        for s, h in enumerate(hands):
            if s != seat:
                others |= h
        last = game.last_combo
        choice = heuristic_play(eng, seat, hand, legal, last.cards if last else 0,
                                game.card_counts(), others)
        game.play(choice)


def play_out(game: Game, eng: Engine, greedy_seats: int = 0) -> tuple[int, ...]:
    """The final scores of :func:`rollout` from *game*'s position: played in the
    compiled core where the rule set allows it (:func:`big2.bots.native.rollout`,
    *game* left as it was), else by :func:`rollout` on *game* itself."""
    scores = native.rollout(game, eng, greedy_seats)
    if scores is not None:
        return scores
    rollout(game, eng, greedy_seats)
    outcome = game.outcome()
    assert outcome is not None
    return outcome.scores


@lru_cache(maxsize=4096)
def _beaters(rules: Rules, to_beat: Mask) -> Mask | None:
    """:func:`~big2.bots.control.single_beaters` under *rules*, cached (a deal's
    passes repeat over decisions)."""
    return single_beaters(engine(rules), to_beat)


def _barred_single(rules: Rules, card: int) -> bool:
    """Whether going out on the single *card* is barred."""
    barring = variant(rules).house_rule(FinishRestrictions)
    return barring is not None and barring.barred(1 << card)


def leader_pass_seats(view: PlayerView) -> set[int]:
    """Seats that passed while leading and have played nothing since: under
    finish restrictions that means they hold one card they may not go out on.
    """
    if variant(view.rules).house_rule(FinishRestrictions) is None or not view.history:
        return set()
    suspects = {s for s, c in enumerate(view.card_counts) if c == 1}
    if not any(a.seat in suspects and a.is_pass for a in view.history):
        return set()
    # leading status depends only on the public history: replay it backwards
    # on any consistent guess of the hidden cards
    g = Game.from_view(view, any_consistent_hands(view))
    found: set[int] = set()
    played_since: set[int] = set()
    while g.history:
        action = g.undo()
        if action.cards:
            played_since.add(action.seat)
        elif g.leading and action.seat in suspects and action.seat not in played_since:
            found.add(action.seat)
    return found


class ExpertBot(Bot):
    """Determinized Monte Carlo search guided by the heuristic policy.

    Args:
        seed: seeds the sampling, so a seed and budget give the same play.
        budget: play-outs per decision (default :data:`DEFAULT_BUDGET`).
        seconds: optional time cap per decision.
        candidates: at most this many plays are searched (the heuristic's
            choice, the pass, the plays of its hand plan, then the weakest).
        pass_inference: 0 ignores ordinary passes; towards 1 trusts that a
            seat that passed could not beat the play it passed on.
        greedy_mix: in each sampled deal, each other seat is played out by
            the greedy rule with this probability (else by the heuristic), so
            the search does not count on one style of opponent; with
            ``model=True`` this is the prior, updated per seat by how well
            the greedy rule explains its plays so far
            (:func:`big2.bots.modelling.greedy_posterior`).
        model: model each opponent from its observed plays (above); a seat
            played out greedily also gets hands consistent with the greedy
            reading of its plays and passes.
    """

    name = "expert"

    def __init__(self, seed: int | None = None, budget: int = DEFAULT_BUDGET,
                 seconds: float | None = None, candidates: int = 8,
                 pass_inference: float = 0.7, greedy_mix: float = 0.3,
                 model: bool = True, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        if budget < 1:
            raise ValueError("budget must be at least 1 play-out")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be positive")
        if candidates < 2:
            raise ValueError("candidates must be at least 2")
        self.budget = int(budget)
        self.seconds = seconds
        self.max_candidates = int(candidates)
        if not 0 <= pass_inference <= 1:
            raise ValueError("pass_inference must be between 0 and 1")
        self.pass_inference = float(pass_inference)
        if not 0 <= greedy_mix <= 1:
            raise ValueError("greedy_mix must be between 0 and 1")
        self.greedy_mix = float(greedy_mix)
        self.model = bool(model)

    def choose(self, view: PlayerView) -> Mask:
        """The candidate with the best mean score over sampled play-outs."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.rules.extended_deck:  # the search samples one 52-card deck
            return wild_play(view)
        eng, unseen, guide = self._guide(view)
        cands = self._candidates(eng, view, guide)
        if len(cands) == 1:
            return cands[0]
        totals, counts, alive = self._halving(view, eng, cands, unseen)
        best = max(alive, key=lambda i: (totals[i] / max(1, counts[i]), cands[i] == guide))
        choice = cands[best]
        return choice if choice in legal else guide

    def analyse(self, view: PlayerView,
                include: Sequence[Mask] = ()) -> list[tuple[Mask, float, float]]:
        """The search :meth:`choose` makes, as rows ``(play, share, value)``: each
        candidate, the share of the play-outs it got and its value (mean points
        for the seat at the end of the deal), best first: the plays that survived
        the halving by value (the first is :meth:`choose`'s), then those dropped
        earlier. Plays in *include* (legal ones) are searched too and never
        dropped, so they are compared on every sampled deal the best play is.

        Raises:
            ValueError: for rule sets with jokers or two decks (the search
                samples one 52-card deck), or a view of a seat not to move.
        """
        if view.rules.extended_deck:
            raise ValueError("the search reads one 52-card deck: no jokers, no second deck")
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move: nothing to analyse")
        eng, unseen, guide = self._guide(view)
        cands = self._candidates(eng, view, guide)
        cands += [m for m in dict.fromkeys(include) if m in legal and m not in cands]
        keep = {i for i, m in enumerate(cands) if m in include}
        totals, counts, alive = self._halving(view, eng, cands, unseen, keep)
        spent = max(1, sum(counts))
        order = sorted(range(len(cands)), key=lambda i: (
            i not in alive, -totals[i] / max(1, counts[i]), cands[i] != guide))
        return [(cands[i], counts[i] / spent, totals[i] / max(1, counts[i])) for i in order]

    def _guide(self, view: PlayerView) -> tuple[Engine, Mask, Mask]:
        """The rules' engine, the cards the seat has not seen, and the heuristic's play."""
        eng = engine(view.rules)
        hand = int(view.hand)
        unseen = int(view.unseen)
        guide = decide(eng, view.seat, hand, view.legal, int(view.last_play), view.card_counts,
                       unseen)
        return eng, unseen, guide

    def _halving(self, view: PlayerView, eng: Engine, cands: list[Mask], unseen: Mask,
                 keep: set[int] | frozenset[int] = frozenset()
                 ) -> tuple[list[float], list[int], list[int]]:
        """Successive halving over *cands* on common sampled deals: per
        candidate its total score and play-outs, and the candidates left at
        the end (those in *keep* are never dropped)."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        evidence = self._evidence(view)
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        alive = list(range(len(cands)))
        rounds = max(1, math.ceil(math.log2(len(cands))))
        spent = 0
        position: native.Frame | None = None
        framed = False
        for rnd in range(rounds):
            share = (self.budget - spent) // (rounds - rnd)
            samples = max(1, share // len(alive))
            for _ in range(samples):
                if deadline is not None and time.perf_counter() > deadline and min(
                        counts[i] for i in alive) > 0:
                    break
                hands, greedy_seats = self._world(view, unseen, evidence)
                if not framed:  # the position without its hands is the same for every sample
                    position = native.frame(Game.from_view(view, hands, rng=self.rng), eng)
                    framed = True
                if position is not None:  # every candidate played out in the core at once
                    firsts = [cands[i] for i in alive]
                    for i, scores in zip(alive, native.play_outs(eng, position, hands, firsts,
                                                                 greedy_seats)):
                        totals[i] += scores[view.seat]
                        counts[i] += 1
                        spent += 1
                    continue
                base = Game.from_view(view, hands, rng=self.rng)
                for i in alive:
                    g = base.copy()
                    g.play(cands[i])
                    totals[i] += play_out(g, eng, greedy_seats)[view.seat]
                    counts[i] += 1
                    spent += 1
            if len(alive) <= 2 and rnd < rounds - 1:
                continue
            alive.sort(key=lambda i: -totals[i] / max(1, counts[i]))
            if rnd < rounds - 1:
                kept = alive[:max(1, math.ceil(len(alive) / 2))]
                alive = kept + [i for i in alive if i in keep and i not in kept]
        return totals, counts, alive

    def _evidence(self, view: PlayerView) -> _Evidence:
        """What the sampler reads from the public history, once a decision:
        seats whose lead pass fixed a card, pass events, and per seat the
        greedy reading's weight and the cards it rules out."""
        fixed = leader_pass_seats(view)
        events = pass_events(view) if self.pass_inference > 0 else []
        n = view.num_players
        if self.model:
            steps = public_steps(view)
            mix = greedy_posterior(view, self.greedy_mix, steps=steps)
            forbidden = greedy_forbidden(view, steps)
        else:
            mix, forbidden = [self.greedy_mix] * n, [0] * n
        return fixed, events, mix, forbidden

    def _world(self, view: PlayerView, unseen: Mask,
               evidence: _Evidence) -> tuple[list[Mask], int]:
        """One sampled deal of the unseen cards, and the seats played greedily in it."""
        fixed, events, mix, forbidden = evidence
        greedy_seats = sum(1 << s for s in range(view.num_players)
                           if s != view.seat and self.rng.random() < mix[s])
        return self._sample(view, unseen, fixed, events, greedy_seats, forbidden), greedy_seats

    def _candidates(self, eng: Engine, view: PlayerView, guide: Mask) -> list[Mask]:
        legal = view.legal
        order: list[Mask] = [guide]
        if 0 in legal:
            order.append(0)
        legal_set = set(legal)
        order += [c for c in plan(eng, int(view.hand)).combos if c in legal_set]
        plays = [p for p in legal if p]
        if plays:
            order.append(plays[-1])  # the strongest, to block
        order += plays
        out: list[Mask] = []
        seen: set[Mask] = set()
        for m in order:
            if m not in seen:
                seen.add(m)
                out.append(m)
                if len(out) >= self.max_candidates:
                    break
        return out

    def _sample(self, view: PlayerView, unseen: Mask, fixed: set[int],
                events: list[tuple[int, Mask, Mask]] | None = None,
                greedy_seats: int = 0, forbidden: list[Mask] | None = None) -> list[Mask]:
        """One deal of the unseen cards consistent with the view; with pass
        *events*, deals where passers could have beaten the table are kept
        with probability ``(1 - pass_inference) ** count`` (a few draws), and
        never for a seat in *greedy_seats* (which also avoids its
        *forbidden* cards where the unseen cards allow)."""
        if not events:
            return self._draw(view, unseen, fixed, greedy_seats, forbidden)
        eng = engine(view.rules)
        keep = 1.0 - self.pass_inference
        best: list[Mask] = []
        best_bad = (1 << 30, 0)
        beaters = [_beaters(view.rules, to_beat) for _, to_beat, _ in events]
        for _ in range(8):
            hands = self._draw(view, unseen, fixed, greedy_seats, forbidden)
            soft = hard = 0
            for (seat, to_beat, later), beat in zip(events, beaters):
                held = hands[seat] | later
                if (bool(held & beat) if beat is not None
                        else beaten_by_unseen(eng, to_beat, held)):
                    if greedy_seats >> seat & 1:
                        hard += 1
                    else:
                        soft += 1
            if hard == 0 and (soft == 0 or self.rng.random() < keep ** soft):
                return hands
            if (hard, soft) < best_bad:
                best, best_bad = hands, (hard, soft)
        return best

    def _draw(self, view: PlayerView, unseen: Mask, fixed: set[int], greedy_seats: int = 0,
              forbidden: list[Mask] | None = None) -> list[Mask]:
        rng = self.rng
        pool = cards_of(unseen)
        rng.shuffle(pool)
        hands: list[Mask] = [0] * view.num_players
        hands[view.seat] = int(view.hand)
        for s in sorted(fixed):
            pick = next((c for c in pool if _barred_single(view.rules, c)), None)
            if pick is not None:
                pool.remove(pick)
                hands[s] = 1 << pick
        if greedy_seats and forbidden:
            # greedy seats first, from the cards their plays allow them
            for s in range(view.num_players):
                c = view.card_counts[s]
                if not greedy_seats >> s & 1 or s == view.seat or hands[s] or not c:
                    continue
                bar = forbidden[s]
                ok = [x for x in pool if not bar >> x & 1]
                if len(ok) < c:
                    continue
                take = ok[:c]
                hands[s] = sum(1 << x for x in take)
                taken = set(take)
                pool = [x for x in pool if x not in taken]
        i = 0
        for s, c in enumerate(view.card_counts):
            if s == view.seat or hands[s]:
                continue
            hands[s] = sum(1 << x for x in pool[i:i + c])
            i += c
        return hands


def pass_events(view: PlayerView) -> list[tuple[int, Mask, Mask]]:
    """The other seats' passes on singles, pairs and triples still informative
    now: ``(seat, play passed on, cards that seat played afterwards)``.

    The play passed on is the last play before the pass (a pass never opens a
    trick, except a leader's barred pass, which is skipped here).
    """
    out: list[tuple[int, Mask, Mask]] = []
    history = view.history
    later = [0] * view.num_players
    last_play = [0] * len(history)
    current = 0
    for i, a in enumerate(history):
        last_play[i] = current
        if a.cards:
            current = a.cards
    for i in range(len(history) - 1, -1, -1):
        a = history[i]
        if a.cards:
            later[a.seat] |= a.cards
            continue
        to_beat = last_play[i]
        if (a.seat != view.seat and view.card_counts[a.seat] and to_beat
                and to_beat.bit_count() <= 3):
            out.append((a.seat, to_beat, later[a.seat]))
    return out


register_bot("expert", ExpertBot)
__all__ = ["DEFAULT_BUDGET", "ExpertBot", "leader_pass_seats", "pass_events", "play_out",
           "rollout"]

