"""Throughput per worker core on a Dask cluster, against the same games played in this process.

Run:  python benchmarks/bench_cluster.py [--workers W] [--rounds R] [--games-scale K]

A local Dask cluster of W single-threaded worker processes is started once
(outside the timed region: a user's cluster is already up), then each round
plays each batch in this process (one core) and on the cluster, alternating
which goes first.  Printed per batch: games/s in-process, games/s on the
cluster, games/s per worker core (cluster / W), and the ratio of the per-core
rate to the in-process rate (1.0: Dask costs nothing; it pays for moving the
batch and each chunk's totals, about a kilobyte, per 100 games).
The totals of both runs are checked to be identical.
"""

from __future__ import annotations

import argparse
import statistics
import time

from treehouse.config import resolve
from treehouse.playtest import cluster
from treehouse.playtest.metrics import summary
from treehouse.playtest.work import Batch, RuleSpec, run
from treehouse.plugins import load_plugins

#: (label, variant, seats, games at scale 1)
BATCHES = (
    ("classic, random seats", "classic", ("random", "random"), 1000),
    ("fences, random seats", "fences", ("random", "random"), 1000),
    ("fences, greedy seats", "fences", ("greedy", "greedy"), 400),
    ("fences, search(depth=1) seats", "fences", ("search(depth=1)", "search(depth=1)"), 40),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games-scale", type=float, default=1.0)
    args = parser.parse_args()
    plugins = load_plugins()
    print(f"| batch | games | in-process games/s | cluster games/s ({args.workers} workers) | per worker core | per core / in-process |")
    print("|---|---|---|---|---|---|")
    with cluster.connect("local", args.workers, plugins) as pool:
        for label, variant, seats, games in BATCHES:
            games = max(1, int(games * args.games_scale))
            batch = Batch((RuleSpec.from_effective(resolve(plugins, variant=variant)),), seats, seed=1)
            local_times, cluster_times = [], []
            for round_ in range(args.rounds):
                order = ("local", "cluster") if round_ % 2 == 0 else ("cluster", "local")
                results = {}
                for which in order:
                    began = time.perf_counter()
                    total = run(batch, games, 1, plugins=plugins, pool=pool if which == "cluster" else None)
                    (local_times if which == "local" else cluster_times).append(time.perf_counter() - began)
                    results[which] = summary(total.sides[0])
                assert results["local"] == results["cluster"], "the cluster's totals differ from the local run's"
            local_rate = games / statistics.median(local_times)
            cluster_rate = games / statistics.median(cluster_times)
            per_core = cluster_rate / args.workers
            print(f"| {label} | {games} | {local_rate:.1f} | {cluster_rate:.1f} | {per_core:.1f} | {per_core / local_rate:.2f} |")


if __name__ == "__main__":
    main()
