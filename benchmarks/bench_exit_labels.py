"""How repeatable are the search's labels that expert iteration learns from?

Self-play deals where ``guided-search`` (the ``hard`` search) on a policy plays
every seat; at each searched decision a second copy of the search, seeded
differently, searches the same view. Printed per budget: how often the search
overrides the policy's favourite, how often the two seeds make the same play,
how often an override is repeated by the other seed, and the CPU seconds a
self-play deal costs (:func:`research.exit.data.play_deal`).

    python benchmarks/bench_exit_labels.py --budgets 100,400 --deals 12
"""

from __future__ import annotations

import random
import time

import click
import numpy as np

from big2.bots.policy.pnet import WEIGHTS_DIR, load_policy
from big2.bots.search.configs import guided_search
from big2.game import Game, deal
from big2.rules import Rules
from research.exit.data import DealJob, play_deal


@click.command()
@click.option("--budgets", default="100,400", show_default=True)
@click.option("--deals", default=12, show_default=True, help="deals per family")
@click.option("--weights", default=str(WEIGHTS_DIR / "policy.npz"), show_default=True)
@click.option("--seed", default=0, show_default=True)
def main(budgets: str, deals: int, weights: str, seed: int) -> None:
    """Print the figures for each budget."""
    net = load_policy(weights)
    for budget in (int(b) for b in budgets.split(",")):
        n = same = over = repeated = 0
        for fam in ("classic", "selfplay-2018"):
            rules = Rules.preset(fam).replace(scoring="count")
            for d in range(deals):
                g = Game(rules, hands=deal(rules, random.Random(f"labels:{seed}:{fam}:{d}")))
                a = guided_search(seed=2 * d + 1, budget=budget, weights=net)
                b = guided_search(seed=2 * d + 2, budget=budget, weights=net)
                while not g.is_over():
                    assert g.to_move is not None
                    view = g.view(g.to_move)
                    play, tally, p = a.decide(view)
                    other, _, _ = b.decide(view)
                    if tally is not None and p is not None:
                        favourite = view.legal[int(np.argmax(p))]
                        n += 1
                        same += play == other
                        over += play != favourite
                        repeated += play != favourite and play == other
                    g.play(play)
        cpu = time.process_time()
        for i in range(4):
            play_deal(net, DealJob("classic", "count", seed, i, budget))
        cpu = (time.process_time() - cpu) / 4
        print(f"budget {budget}: {n} searched decisions; overrides the policy in {over / n:.1%}; "
              f"two seeds make the same play in {same / n:.1%}; an override repeated by the "
              f"other seed in {repeated / max(over, 1):.1%}; {cpu:.2f} CPU s a self-play deal "
              "(classic)")


if __name__ == "__main__":
    main()
