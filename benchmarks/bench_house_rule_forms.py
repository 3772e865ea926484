"""One Fences house rule in its two forms: a plain ``treehouse_fences_hits`` wrapper against the declared ``JudgedBySource``.

Run:  python benchmarks/bench_house_rule_forms.py [--games N] [--rounds R] [--seed S]

The rule: a small Stack's Hits Damage whatever the Stack's top colour.
Written as a plain wrapper (the form of docs/fences-api.md's first example)
the compiled core cannot stand in for it, and its games play on the
reference rules; written as a ``JudgedBySource`` rule, the core reads its
verdicts as a table.  Each round runs, in its own process, as a designer
would type it,

    th --plugins-dir DIR simulate --variant fences --seat greedy --seat search --games N --jobs 1 --json --set 'house_rules=[FORM]'

for both forms, interleaved so both see the same load, and each once with
``--games 1`` (a command's CPU minus that run's, over ``N - 1`` games, is the
CPU a game costs, start-up cancelled out).  Both forms must print the same
JSON (bar ``seconds``).  Issue 43's target: the plain wrapper at most 2x the
declared form's CPU a game.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RULES = '''
from treehouse.hookspecs import hookimpl
from treehouse.kernel.pieces import Size
from treehouse.variants.fences.hits import JudgedBySource, Verdict, ignoring_colour


class SmallsIgnoreColourPlain:
    """A small Stack's Hits ignore colour, as a plain wrapper."""

    def __init__(self, variant, options):
        pass

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(ignoring_colour(hit) if hit.source is not None and hit.source.size is Size.SMALL else hit for hit in standing)


class SmallsIgnoreColourDeclared(JudgedBySource):
    """The same rule, judged by the source alone."""

    def verdict(self, size):
        return Verdict.IGNORES_COLOUR if size is Size.SMALL else Verdict.STANDS


@hookimpl
def treehouse_register_house_rules(register):
    register("smalls-plain", SmallsIgnoreColourPlain, variants="fences", description="plain wrapper")
    register("smalls-declared", SmallsIgnoreColourDeclared, variants="fences", description="declared form")
'''


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(folder: str, form: str, games: int, seed: int) -> tuple[float, dict]:
    command = [sys.executable, "-m", "treehouse", "--plugins-dir", folder, "simulate", "--variant", "fences", "--seat", "greedy", "--seat", "search",
               "--games", str(games), "--seed", str(seed), "--jobs", "1", "--json", "--set", f"house_rules=[{form}]"]  # fmt: skip
    before = cpu_of_children()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    if done.returncode != 0:
        raise SystemExit(f"{form}: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    report.pop("seconds", None)
    return cpu_of_children() - before, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games a command plays (default 6, as the issue measured)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "smalls_rules.py").write_text(RULES)
        per_game: dict[str, list[float]] = {"smalls-declared": [], "smalls-plain": []}
        for _ in range(args.rounds):
            reports = []
            for form in per_game:
                full, report = run(folder, form, args.games, args.seed)
                one, _ = run(folder, form, 1, args.seed)
                per_game[form].append((full - one) / (args.games - 1))
                reports.append(report)
            if reports[0] != reports[1]:
                raise SystemExit("the two forms gave different games")
    declared, plain = (statistics.median(per_game[form]) for form in ("smalls-declared", "smalls-plain"))
    print(f"{args.games} greedy-vs-search Fences games a command, {args.rounds} rounds, the same JSON from both forms")
    print(f"declared (JudgedBySource): {declared:.3f} s CPU a game")
    print(f"plain wrapper:             {plain:.3f} s CPU a game")
    print(f"plain / declared:          {plain / declared:.1f}x (target: at most 2x)")


if __name__ == "__main__":
    main()
