"""The one-card lead: how often each bot leads a low single while the next seat
holds one card, against how often that lead is right by exact endgames.

    python benchmarks/bench_one_card_lead.py --deals 400 --bots heuristic,hard,expert,expert-v1
    python benchmarks/bench_one_card_lead.py --deals 400 --bots hard,hard:endgame=10

1. **Positions.** Plays ``--deals`` deals with ``heuristic`` in every seat
   (quick) and keeps every position where a seat is to lead, the next seat
   holds one card, and the leader may lead a single that is not its highest
   and something else (a choice to make).
2. **Each bot's lead.** Every bot of ``--bots`` chooses in every position
   (seeded by the position), and the script prints how often that is a *low
   single* (a single other than the leader's highest card).
3. **The right rate, from exact endgames.** In the positions with at most
   ``--exact-cards`` cards left in all hands, ``--worlds`` worlds are drawn
   from the leader's view (the search's own sampler) and each is solved
   exactly (max^n, :class:`big2.bots.search.endgame.EndgameSolver`: every
   seat plays its best with every hand known). A lead's value is its mean
   over the worlds; the judged lead is the best. The script prints how often
   the judged lead is a low single, how often each bot's lead is a low single
   there, and each bot's mean loss against the judged lead (points, by the
   same exact values). Positions with more cards are not judged (a solve of
   12 cards or more takes seconds in Python).

Figures are counts and rates; no time is measured.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from big2 import Game
from big2.arena import parse_seat
from big2.arena.leads import low_single
from big2.bots import make_bot
from big2.bots.search.endgame import EndgameSolver, cards_left
from big2.bots.search.worlds import sample_worlds
from big2.cards import Mask
from big2.rules import Rules
from big2.view import PlayerView


@dataclass
class Position:
    """A lead with the next seat on one card: the game (its real hands) and the view."""

    game: Game
    view: PlayerView
    index: int


def positions(deals: int, rules: Rules, seed: int) -> list[Position]:
    """Every lead with the next seat on one card and a low single among the choices."""
    out: list[Position] = []
    bots = [make_bot("heuristic", seed=seed + s) for s in range(4)]
    for d in range(deals):
        g = Game(rules, seed=seed * 100_003 + d)
        while not g.is_over():
            seat = g.to_move
            assert seat is not None
            view = g.view(seat)
            nxt = (seat + 1) % g.num_players
            if (g.leading and g.hands[nxt].bit_count() == 1 and len(view.legal) > 1
                    and any(low_single(g, m) for m in view.legal)):
                out.append(Position(g.copy(), view, len(out)))
            g.play(bots[seat].choose(view))
    return out


def exact_values(pos: Position, worlds: int, budget: int) -> dict[Mask, float] | None:
    """Each legal lead's mean exact value for the leader over *worlds* sampled
    worlds; ``None`` when a world is larger than *budget* positions."""
    view = pos.view
    solver = EndgameSolver(budget)
    totals: dict[Mask, float] = {m: 0.0 for m in view.legal}
    for hands in sample_worlds(view, worlds, seed=pos.index):
        got = solver.move_values(Game.from_view(view, hands))
        if got is None:
            return None
        for m, v in got:
            totals[m] += v[view.seat] / worlds
    return totals


def judge(pos: Position, values: dict[Mask, float]) -> str:
    """``"low"`` when the best low single is worth strictly more than every
    other lead, ``"safe"`` when strictly less, else ``"either"``."""
    low = max(v for m, v in values.items() if low_single(pos.game, m))
    safe = max(v for m, v in values.items() if not low_single(pos.game, m))
    return "low" if low > safe + 1e-9 else "safe" if safe > low + 1e-9 else "either"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=400, help="heuristic deals to find positions in")
    ap.add_argument("--bots", default="heuristic,hard,expert,expert-v1",
                    help="comma-separated seat specs (name:key=value)")
    ap.add_argument("--rules", default="classic", help="a preset")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--exact-cards", type=int, default=10,
                    help="judge positions with at most this many cards left")
    ap.add_argument("--worlds", type=int, default=16, help="worlds solved per judged position")
    ap.add_argument("--nodes", type=int, default=60_000,
                    help="positions a world's solve may expand")
    args = ap.parse_args()
    rules = Rules.preset(args.rules, scoring="count")
    t0 = time.perf_counter()
    found = positions(args.deals, rules, args.seed)
    small = [p for p in found if cards_left(p.game) <= args.exact_cards]
    print(f"{len(found)} positions in {args.deals} deals ({args.rules}); "
          f"{len(small)} with at most {args.exact_cards} cards left "
          f"({time.perf_counter() - t0:.0f} s)")
    judged: dict[int, dict[Mask, float]] = {}
    for p in small:
        values = exact_values(p, args.worlds, args.nodes)
        if values is not None:
            judged[p.index] = values
    verdict = {i: judge(found[i], v) for i, v in judged.items()}
    n = len(judged)
    tally = {k: sum(1 for x in verdict.values() if x == k) for k in ("low", "safe", "either")}
    print(f"exact judge ({args.worlds} worlds each, max^n): {n} positions solved; a low single "
          f"is strictly best in {tally['low']} ({tally['low'] / max(1, n):.0%}), strictly "
          f"worse than a safe lead in {tally['safe']} ({tally['safe'] / max(1, n):.0%}), "
          f"as good in {tally['either']}")
    for spec in args.bots.split(","):
        name, options = parse_seat(spec)
        low = 0
        wrong = {"low": 0, "safe": 0}  # low single where safe is better; safe where low is
        judged_low = 0
        losses: list[float] = []
        t1 = time.perf_counter()
        for p in found:
            bot = make_bot(name, seed=p.index, **options)
            play = bot.choose(p.view)
            is_low = low_single(p.game, play)
            low += is_low
            if p.index in judged:
                values = judged[p.index]
                judged_low += is_low
                losses.append(max(values.values()) - values[play])
                if is_low and verdict[p.index] == "safe":
                    wrong["low"] += 1
                if not is_low and verdict[p.index] == "low":
                    wrong["safe"] += 1
        loss = statistics.fmean(losses) if losses else 0.0
        print(f"{spec:>24}: low single {low}/{len(found)} ({low / max(1, len(found)):.0%}); "
              f"judged: low {judged_low}/{n} ({judged_low / max(1, n):.0%}), low where "
              f"safe is better {wrong['low']}, safe where low is better {wrong['safe']}, "
              f"mean loss {loss:.2f} points ({time.perf_counter() - t1:.0f} s)")


if __name__ == "__main__":
    random.seed(0)
    main()
