"""The arena: measure bots against each other over duplicate deals.

Every dealt hand set is replayed once per seat rotation, so each player holds
every hand from every seat and card luck cancels. Each duplicate deal is one
job; jobs run in this process, across worker processes, or on Ray, and give
the same points and wins for the same seed wherever they run (bots are seeded
from the arena seed, the deal number and the player number).

>>> r = run_arena(["greedy", "random"], deals=4, rules=Rules(players=2), seed=3)
>>> [s.name for s in r.seats], r.games
(['greedy', 'random'], 8)
>>> r == run_arena(["greedy", "random"], deals=4, rules=Rules(players=2), seed=3)
True
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from big2.arena.leads import LeadCount, describe
from big2.arena.seats import SeatError, check_seat, load_factory, make_player, parse_seat
from big2.game import Game, deal
from big2.rules import Rules
from big2.threads import one_thread_each
from big2.variant import variant

__all__ = ["ArenaResult", "DealResult", "SeatError", "SeatStats", "announce_last_cards",
           "check_seat", "load_factory", "parse_seat", "play_duplicate", "run_arena"]


def _deal_seed(seed: int, index: int) -> int:
    return random.Random(f"big2-arena:{seed}:{index}").getrandbits(64)


@dataclass(frozen=True)
class DealResult:
    """One duplicate deal: per player (seat spec order), the points summed over
    the rotations, the games won, decision times, illegal replies and one-card
    leads (:mod:`big2.arena.leads`)."""

    index: int
    points: tuple[int, ...]
    wins: tuple[int, ...]
    times: tuple[tuple[float, ...], ...]
    faults: tuple[int, ...]
    leads: tuple[tuple[int, int, int, int], ...] = ()


def play_duplicate(seats: Sequence[str], rules: Rules, seed: int, index: int,
                   timeout: float = 10.0) -> DealResult:
    """Play duplicate deal *index*: one hand set, every rotation of the players.

    Player ``i`` sits at seat ``(i + k) % n`` in rotation ``k``.
    """
    n = variant(rules).players
    if len(seats) != n:
        raise ValueError(f"{n} seats needed for these rules, got {len(seats)}")
    dseed = _deal_seed(seed, index)
    hands = deal(rules, random.Random(dseed))
    points = [0] * n
    wins = [0] * n
    faults = [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    players = [make_player(spec, seed=(dseed + 7919 * (i + 1)) & (2**63 - 1), timeout=timeout)
               for i, spec in enumerate(seats)]
    count = LeadCount(n)
    try:
        for k in range(n):
            seat_of = [(i + k) % n for i in range(n)]
            player_at = {s: i for i, s in enumerate(seat_of)}
            game = Game(rules, hands=hands)
            count.new_deal()
            while not game.is_over():
                seat = game.to_move
                assert seat is not None
                i = player_at[seat]
                view = game.view(seat)
                t0 = time.perf_counter()
                try:
                    choice = players[i].choose(view)
                except Exception:  # noqa: BLE001 - a failing bot must not stop the arena
                    choice = -1
                times[i].append(time.perf_counter() - t0)
                if choice not in view.legal:
                    faults[i] += 1
                    choice = view.legal[-1] if view.legal[-1] == 0 else view.legal[0]
                count.before(game, i)
                game.play(choice)
                count.after(game)
                announce_last_cards(game)
            outcome = game.outcome()
            assert outcome is not None
            for i in range(n):
                points[i] += outcome.scores[seat_of[i]]
            wins[player_at[outcome.winner]] += 1
            for i, p in enumerate(players):
                end = getattr(p, "end_deal", None)
                if end is not None:
                    end(game.view(seat_of[i]))
    finally:
        for p in players:
            close = getattr(p, "close", None)
            if close is not None:
                close()
    return DealResult(index, tuple(points), tuple(wins),
                      tuple(tuple(t) for t in times), tuple(faults), tuple(count.counts))


def announce_last_cards(game: Game) -> None:
    """Under the ``last_card`` rule every seat announces its last card (bots choose
    plays only; announcing is the driver's part, as in the arena's deals)."""
    can = getattr(game, "can_call_last_card", None)
    if can is None or not game.rules.to_dict().get("last_card"):
        return
    for seat in range(game.num_players):
        if can(seat):
            game.call_last_card(seat)


def _job(args: tuple[tuple[str, ...], dict[str, Any], int, int, float]) -> DealResult:
    seats, rules, seed, index, timeout = args
    return play_duplicate(seats, Rules.from_dict(rules), seed, index, timeout)


@dataclass(frozen=True)
class SeatStats:
    """One player's figures. Points are per game (one deal from one seat)."""

    name: str
    mean: float
    ci_low: float
    ci_high: float
    win_rate: float
    decisions: int
    time_median: float
    time_p95: float
    faults: int = 0
    one_card: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Leads with the next seat on one card (:data:`big2.arena.leads.Counts`)."""


@dataclass(frozen=True)
class ArenaResult:
    """What :func:`run_arena` measured. Compares equal when the points and
    wins are equal (decision times are not part of equality)."""

    seats: tuple[SeatStats, ...]
    rules: dict[str, Any]
    deals: int
    games: int
    seed: int
    points: tuple[tuple[int, ...], ...] = field(repr=False)
    seconds: float = field(default=0.0, compare=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ArenaResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(repr(self._key()))

    def _key(self) -> tuple[Any, ...]:
        return (self.rules, self.deals, self.seed, self.points,
                [(s.name, s.mean, s.win_rate, s.faults) for s in self.seats])

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (``points``: per deal, each player's total over
        the rotations)."""
        return {"rules": self.rules, "deals": self.deals, "games": self.games,
                "seed": self.seed, "seconds": round(self.seconds, 3),
                "seats": [asdict(s) for s in self.seats],
                "points": [list(p) for p in self.points]}

    def to_json(self, indent: int | None = 2) -> str:
        """The result as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    def table(self) -> str:
        """A readable table, one row per player."""
        head = (f"{'player':<24} {'points/deal':>11} {'95% CI':>17} {'wins':>7} "
                f"{'median ms':>9} {'p95 ms':>8}")
        rows = [head, "-" * len(head)]
        for s in self.seats:
            ci = f"[{s.ci_low:+.2f}, {s.ci_high:+.2f}]"
            rows.append(f"{s.name:<24} {s.mean:>+11.2f} {ci:>17} {s.win_rate:>6.1%} "
                        f"{s.time_median * 1000:>9.2f} {s.time_p95 * 1000:>8.2f}"
                        + (f"  ({s.faults} illegal/failed replies)" if s.faults else ""))
        rows += [f"  {s.name}: {describe(s.one_card)}" for s in self.seats if s.one_card[0]]
        rows.append(f"{self.deals} duplicate deals x {len(self.seats)} rotations = "
                    f"{self.games} games, seed {self.seed}, scoring {self.rules['scoring']}")
        return "\n".join(rows)


def summarize(seats: Sequence[str], rules: Rules, seed: int,
              results: Iterable[DealResult], seconds: float = 0.0) -> ArenaResult:
    """Figures from per-deal results (taken in deal order)."""
    ordered = sorted(results, key=lambda r: r.index)
    n = len(seats)
    deals = len(ordered)
    stats = []
    for i, name in enumerate(seats):
        per_deal = [r.points[i] / n for r in ordered]
        mean = statistics.fmean(per_deal) if per_deal else 0.0
        sd = statistics.stdev(per_deal) if deals > 1 else 0.0
        half = 1.96 * sd / math.sqrt(deals) if deals > 1 else 0.0
        times = sorted(t for r in ordered for t in r.times[i])
        stats.append(SeatStats(
            name=name, mean=round(mean, 6), ci_low=round(mean - half, 6),
            ci_high=round(mean + half, 6),
            win_rate=round(sum(r.wins[i] for r in ordered) / max(1, deals * n), 6),
            decisions=len(times), time_median=_quantile(times, 0.5),
            time_p95=_quantile(times, 0.95), faults=sum(r.faults[i] for r in ordered),
            one_card=tuple(sum(r.leads[i][j] for r in ordered if r.leads)  # type: ignore[arg-type]
                           for j in range(4))))
    return ArenaResult(tuple(stats), rules.to_dict(), deals, deals * n, seed,
                       tuple(r.points for r in ordered), seconds)


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def run_arena(
    seats: Sequence[str],
    deals: int = 100,
    rules: Rules | None = None,
    seed: int = 0,
    workers: int = 1,
    *,
    scoring: str | None = None,
    timeout: float = 10.0,
    progress: Callable[[int], None] | None = None,
    ray_address: str | None = None,
    use_ray: bool = False,
) -> ArenaResult:
    """Play *deals* duplicate deals between *seats* and summarize.

    Args:
        seats: one seat spec per player (see :func:`parse_seat`).
        deals: duplicate deals (each is played once per rotation).
        rules: the rule set (default classic); *scoring* overrides its scoring.
        seed: makes the whole run reproducible.
        workers: processes to spread the deals over (1: this process).
        timeout: seconds an external (``cmd:``) bot may take per message.
        progress: called with the number of deals just finished.
        use_ray, ray_address: run the deal jobs on Ray (``ray_address`` None
            starts or joins a local instance); needs ``pip install ray``.
    """
    rules = rules or Rules()
    if scoring is not None:
        rules = rules.replace(scoring=scoring)
    seats = tuple(seats)
    n = variant(rules).players
    if len(seats) != n:
        raise ValueError(f"{n} seats needed for {n} players, "
                         f"got {len(seats)}: {', '.join(seats)}")
    for spec in seats:  # fail early: unknown bots and options, programs that do not start
        check_seat(spec, timeout=timeout)
    if deals < 1:
        raise ValueError("deals must be at least 1")
    jobs = [(seats, rules.to_dict(), seed, i, timeout) for i in range(deals)]
    start = time.perf_counter()
    if use_ray or ray_address:
        results = list(_run_ray(jobs, ray_address, progress))
    else:
        results = list(_run_local(jobs, workers, progress))
    return summarize(seats, rules, seed, results, time.perf_counter() - start)


def _run_local(jobs: list[Any], workers: int, progress: Callable[[int], None] | None
               ) -> Iterator[DealResult]:
    if workers <= 1:
        for job in jobs:
            r = _job(job)
            if progress:
                progress(1)
            yield r
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    with one_thread_each():
        pool = ctx.Pool(workers)  # its workers are spawned here
    with pool:
        for r in pool.imap_unordered(_job, jobs, chunksize=1):
            if progress:
                progress(1)
            yield r


def _run_ray(jobs: list[Any], address: str | None, progress: Callable[[int], None] | None
             ) -> Iterator[DealResult]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'ray'") from None
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(_job)
    pending = [remote.remote(job) for job in jobs]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            if progress:
                progress(1)
            yield ray.get(ref)
