"""A new search bot from the public parts of :mod:`big2.bots.search`.

    python examples/search_bot.py [--deals 4] [--budget 200]

It compares every legal play (not only the heuristic's short list), samples
worlds that trust passes less than the shipped searches do, values plays by
the heuristic's play-outs in the compiled core with a small evaluator of its
own on top (a bonus for shedding cards), and spends its budget by successive
halving. Then it plays a few deals in seat 0 against three ``heuristic`` bots
and prints its mean score. Any part can be swapped: a candidate rule is a
callable, an evaluator has ``start(view, rng)``, a selector has ``run``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from big2 import Game
from big2.bots import make_bot
from big2.bots.search import (
    AllLegal,
    HeuristicPlayout,
    Sampling,
    Search,
    SearchBot,
    SuccessiveHalving,
    World,
)
from big2.bots.search.evaluators import Score
from big2.cards import Mask
from big2.view import PlayerView


class SheddingBonus:
    """The heuristic play-out's score plus *bonus* points per card the play sheds."""

    def __init__(self, bonus: float = 0.1) -> None:
        self.bonus = bonus
        self.inner = HeuristicPlayout()

    def start(self, view: PlayerView, rng: random.Random) -> Score:
        """Begin a decision: wrap the play-out's scorer."""
        score = self.inner.start(view, rng)

        def with_bonus(worlds: Sequence[World], cands: Sequence[Mask]) -> list[list[float]]:
            return [[v + self.bonus * c.bit_count() for v, c in zip(row, cands)]
                    for row in score(worlds, cands)]

        return with_bonus


def my_search_bot(seed: int | None = None, budget: int = 200) -> SearchBot:
    """The example's configuration of the parts."""
    search = Search(candidates=AllLegal(limit=12), evaluator=SheddingBonus(0.1),
                    selector=SuccessiveHalving(budget), sampling=Sampling(pass_inference=0.4))
    return SearchBot(search, seed=seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--budget", type=int, default=200)
    args = ap.parse_args()
    total = 0
    for deal in range(args.deals):
        g = Game(seed=deal)
        bots = [my_search_bot(seed=deal, budget=args.budget)] + [
            make_bot("heuristic") for _ in range(3)]
        while g.to_move is not None:
            g.play(bots[g.to_move].choose(g.view(g.to_move)))
        outcome = g.outcome()
        assert outcome is not None
        total += outcome.scores[0]
    print(f"my search bot, seat 0 vs 3 heuristic: {total / args.deals:+.2f} points a deal "
          f"over {args.deals} deals")


if __name__ == "__main__":
    main()
