"""Two Fences house rules in their forms: a plain ``treehouse_fences_hits`` wrapper against the declared ``JudgedBySource``.

Run:  python benchmarks/bench_house_rule_forms.py [--games N] [--rounds R] [--seed S] [--forms declared,plain,position]

The rules, issue 43's two: a small Stack's Hits Damage whatever the
Stack's top colour (``smalls``, judged by the source), and docs/fences-api.md's
first example, a Swap with an Outside Fence no longer Hits (``noswap``,
judged by the cause).  Each in three forms:

* ``declared``: a ``JudgedBySource`` rule;
* ``plain``: a plain wrapper, as docs/fences-api.md writes it, which the
  core reads as a table once Fences has asked it about Hits on their own;
* ``position``: the plain wrapper asking the position first (``if
  state.setting_up``, never true at a check, so the same rule), which no
  table holds: its games play on the reference rules, for scale.

Each round runs, in its own process, as a designer would type it,

    th --plugins-dir DIR simulate --variant fences --seat greedy --seat search --games N --jobs 1 --json --set 'house_rules=[FORM]'

for each rule in each form, interleaved so all see the same load, and each
once with ``--games 1`` (a command's CPU minus that run's, over ``N - 1``
games, is the CPU a game costs, start-up cancelled out).  A rule's forms
must print the same JSON (bar ``seconds``).  Issue 43's target: the plain
wrapper at most 2x the declared form's CPU a game.
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
from treehouse.variants.fences.hits import Cause, JudgedBySource, Verdict, ignoring_colour


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

    def verdict(self, size, cause):
        return Verdict.IGNORES_COLOUR if size is Size.SMALL else Verdict.STANDS


class NoSwapOutsidePlain:
    """A Swap with an Outside Fence no longer Hits: docs/fences-api.md's first example."""

    def __init__(self, variant, options):
        self.variant = variant

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        return tuple(hit for hit in standing if hit.cause is not Cause.SWAP_OUTSIDE)


class NoSwapOutsideDeclared(JudgedBySource):
    """The same rule, judged by the cause alone (docs/fences-api.md)."""

    def verdict(self, size, cause):
        return Verdict.DROPPED if cause is Cause.SWAP_OUTSIDE else Verdict.STANDS


class SmallsIgnoreColourPosition(SmallsIgnoreColourPlain):
    """The plain wrapper, asking the position first: no table holds it."""

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        if state.setting_up:
            return standing
        return tuple(ignoring_colour(hit) if hit.source is not None and hit.source.size is Size.SMALL else hit for hit in standing)


class NoSwapOutsidePosition(NoSwapOutsidePlain):
    """The plain wrapper, asking the position first: no table holds it."""

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        if state.setting_up:
            return standing
        return tuple(hit for hit in standing if hit.cause is not Cause.SWAP_OUTSIDE)


@hookimpl
def treehouse_register_house_rules(register):
    register("smalls-plain", SmallsIgnoreColourPlain, variants="fences", description="plain wrapper")
    register("smalls-declared", SmallsIgnoreColourDeclared, variants="fences", description="declared form")
    register("smalls-position", SmallsIgnoreColourPosition, variants="fences", description="plain wrapper reading the position")
    register("noswap-plain", NoSwapOutsidePlain, variants="fences", description="plain wrapper")
    register("noswap-declared", NoSwapOutsideDeclared, variants="fences", description="declared form")
    register("noswap-position", NoSwapOutsidePosition, variants="fences", description="plain wrapper reading the position")
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
    parser.add_argument("--forms", default="declared,plain,position", help="the forms to run, declared first (position costs about 2 s a game)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "smalls_rules.py").write_text(RULES)
        rules, forms = ("smalls", "noswap"), tuple(args.forms.split(","))
        if forms[0] != "declared" or not set(forms) <= {"declared", "plain", "position"}:
            raise SystemExit("--forms: declared first, then plain and/or position, joined by commas")
        per_game: dict[str, list[float]] = {f"{rule}-{form}": [] for rule in rules for form in forms}
        for _ in range(args.rounds):
            for rule in rules:
                reports = []
                for form in forms:
                    full, report = run(folder, f"{rule}-{form}", args.games, args.seed)
                    one, _ = run(folder, f"{rule}-{form}", 1, args.seed)
                    per_game[f"{rule}-{form}"].append((full - one) / (args.games - 1))
                    reports.append(report)
                if any(report != reports[0] for report in reports):
                    raise SystemExit(f"{rule}: its forms gave different games")
    print(f"{args.games} greedy-vs-search Fences games a command, {args.rounds} rounds, the same JSON from a rule's {len(forms)} forms")
    words = {"plain": "plain wrapper", "position": "reading the position (reference rules)"}
    for rule in rules:
        cost = {form: statistics.median(per_game[f"{rule}-{form}"]) for form in forms}
        rows = [f"{words[form]} {cost[form]:.4f} s: {cost[form] / cost['declared']:.2f}x" for form in forms[1:]]
        print(f"{rule}: declared (JudgedBySource) {cost['declared']:.4f} s CPU a game; " + "; ".join(rows) + " (target for the plain wrapper: at most 2x)")

if __name__ == "__main__":
    main()
