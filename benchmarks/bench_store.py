"""The server's writes of plays: a batch of plays stored one INSERT a play (as
before issue 41) against one statement for the run (``Store.apply`` now), on
SQLite or PostgreSQL. Prints the median time of a batch each way and the ratio.

    python benchmarks/bench_store.py                      # a fresh SQLite file
    python benchmarks/bench_store.py --db postgresql://user@127.0.0.1/big2bench

The rows it writes (tables ``bench-store-*``) are deleted at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import sqlalchemy as sa

from big2.server.store import AddAction, SaveTable, Store, actions_t, tables_t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--plays", type=int, default=40, help="plays in a batch")
    parser.add_argument("--batches", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.db or os.path.join(tmp, "bench.sqlite3"))
        ids = [f"bench-store-{i}" for i in range(args.plays)]
        store.apply([SaveTable(t, "playing", {"version": 0}, {}, 0) for t in ids])

        def one_a_play(ops: list[AddAction]) -> None:
            with store.engine.begin() as conn:
                for op in ops:
                    conn.execute(sa.insert(actions_t).values(
                        table_id=op.table_id, version=op.version, cards=str(op.cards)))

        ways = {"one INSERT a play": one_a_play, "one statement a run": store.apply}
        times: dict[str, list[float]] = {name: [] for name in ways}
        version = 1
        load = os.getloadavg()[0]
        for _ in range(args.batches):
            for name, apply in ways.items():  # side by side, alternating
                ops = [AddAction(t, version, 5) for t in ids]
                version += 1
                start = time.perf_counter()
                apply(ops)
                times[name].append((time.perf_counter() - start) * 1000)
        with store.engine.begin() as conn:
            conn.execute(sa.delete(actions_t).where(actions_t.c.table_id.in_(ids)))
            conn.execute(sa.delete(tables_t).where(tables_t.c.id.in_(ids)))
        kind = store.url.split(":")[0].split("+")[0]
        medians = {name: statistics.median(xs) for name, xs in times.items()}
        for name, ms in medians.items():
            print(f"{kind}: {name}: median {ms:.2f} ms a batch of {args.plays} plays")
        print(f"{kind}: ratio {medians['one INSERT a play'] / medians['one statement a run']:.1f}x "
              f"({args.batches} batches each, alternating; load {load:.2f} -> "
              f"{os.getloadavg()[0]:.2f})")
        store.close()


if __name__ == "__main__":
    main()
