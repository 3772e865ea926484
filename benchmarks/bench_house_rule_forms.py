"""Two Fences house rules in their two forms: a plain ``treehouse_fences_hits`` wrapper against the declared ``JudgedBySource``.

Run:  python benchmarks/bench_house_rule_forms.py [--games N] [--rounds R] [--seed S]

The rules, issue 43's two: a small Stack's Hits Damage whatever the
Stack's top colour (``smalls``, judged by the source), and docs/fences-api.md's
first example, a Swap with an Outside Fence no longer Hits (``noswap``,
judged by the cause).  Written as a plain wrapper the compiled core cannot
stand in for a rule, and its games play on the reference rules; written as
a ``JudgedBySource`` rule, the core reads its verdicts as a table.  Each
round runs, in its own process, as a designer would type it,

    th --plugins-dir DIR simulate --variant fences --seat greedy --seat search --games N --jobs 1 --json --set 'house_rules=[FORM]'

for each rule in both forms, interleaved so all see the same load, and each once with
``--games 1`` (a command's CPU minus that run's, over ``N - 1`` games, is the
CPU a game costs, start-up cancelled out).  A rule's two forms must print
the same JSON (bar ``seconds``).  Issue 43's target: the plain wrapper at most 2x the
declared form's CPU a game.

Last, the floor of any design that keeps the plain wrapper's contract
(``treehouse_fences_hits`` is called at every check with Hits, and by the
bots' evaluation with the Hits each position threatens): the wrapper's calls
in a game, counted by a counting twin of the rule, times the CPU of one call
through the game's hooks with its four Hits made.  Whatever the core does,
a game that calls the wrapper that often costs at least that much.
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


class SmallsIgnoreColourCounted(SmallsIgnoreColourPlain):
    """The plain wrapper, counting its calls (the floor below)."""

    calls = [0, 0]

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        SmallsIgnoreColourCounted.calls[0] += 1
        SmallsIgnoreColourCounted.calls[1] += step is None
        standing = yield
        return tuple(ignoring_colour(hit) if hit.source is not None and hit.source.size is Size.SMALL else hit for hit in standing)


@hookimpl
def treehouse_register_house_rules(register):
    import atexit
    import sys

    atexit.register(lambda: SmallsIgnoreColourCounted.calls[0] and print("calls", *SmallsIgnoreColourCounted.calls, file=sys.stderr))
    register("smalls-counted", SmallsIgnoreColourCounted, variants="fences", description="plain wrapper, counted")
    register("smalls-plain", SmallsIgnoreColourPlain, variants="fences", description="plain wrapper")
    register("smalls-declared", SmallsIgnoreColourDeclared, variants="fences", description="declared form")
    register("noswap-plain", NoSwapOutsidePlain, variants="fences", description="plain wrapper")
    register("noswap-declared", NoSwapOutsideDeclared, variants="fences", description="declared form")
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


def floor(folder: str, games: int, seed: int) -> tuple[float, float, float]:
    """What any design that keeps calling the plain wrapper must pay: the
    wrapper's calls a game (at every check with Hits, and from the bots'
    evaluation, which judges threatened Hits through the same hook), and the
    CPU of one call through the game's hooks with four Hits made for it."""
    command = [sys.executable, "-m", "treehouse", "--plugins-dir", folder, "simulate", "--variant", "fences", "--seat", "greedy", "--seat", "search",
               "--games", str(games), "--seed", str(seed), "--jobs", "1", "--json", "--set", "house_rules=[smalls-counted]"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    counted = [line.split() for line in done.stderr.splitlines() if line.startswith("calls ")]
    if done.returncode != 0 or not counted:
        raise SystemExit(f"smalls-counted: {done.stderr.strip()}")
    calls, from_evaluation = (int(n) for n in counted[0][1:])
    timing = f"""
import importlib.util, random, sys, time
spec = importlib.util.spec_from_file_location("smalls_rules", {str(Path(folder, "smalls_rules.py"))!r})
rules = importlib.util.module_from_spec(spec); spec.loader.exec_module(rules)
from treehouse.config import resolve
from treehouse.kernel.pieces import Size
from treehouse.plugins import game_hooks, load_plugins
from treehouse.variants.fences.hits import Cause, Hit, Source
loaded = load_plugins(extra=[("smalls", rules)])
effective = resolve(loaded, variant="fences", overrides=["house_rules=[smalls-plain]"])
hooks = game_hooks(effective.variant(), effective.house_rule_plugins(loaded))
state = hooks.treehouse_setup(variant=hooks.variant, players=2, rng=random.Random(1))
call, n = hooks.treehouse_fences_hits, 50000
began = time.process_time()
for _ in range(n):
    call(state, state, None, tuple(Hit(s % 2, Cause.POINTED_AT, Source(size, "r", 10 + s)) for s, size in enumerate((Size.LARGE, Size.MEDIUM, Size.SMALL, Size.LARGE))))
print((time.process_time() - began) / n)
"""
    per_call = float(subprocess.run([sys.executable, "-c", timing], capture_output=True, text=True, check=True).stdout)
    return calls / games, from_evaluation / games, per_call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games a command plays (default 6, as the issue measured)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "smalls_rules.py").write_text(RULES)
        rules = ("smalls", "noswap")
        per_game: dict[str, list[float]] = {f"{rule}-{form}": [] for rule in rules for form in ("declared", "plain")}
        for _ in range(args.rounds):
            for rule in rules:
                reports = []
                for form in ("declared", "plain"):
                    full, report = run(folder, f"{rule}-{form}", args.games, args.seed)
                    one, _ = run(folder, f"{rule}-{form}", 1, args.seed)
                    per_game[f"{rule}-{form}"].append((full - one) / (args.games - 1))
                    reports.append(report)
                if reports[0] != reports[1]:
                    raise SystemExit(f"{rule}: the two forms gave different games")
        calls, from_evaluation, per_call = floor(folder, args.games, args.seed)
    print(f"{args.games} greedy-vs-search Fences games a command, {args.rounds} rounds, the same JSON from a rule's two forms")
    for rule in rules:
        declared, plain = (statistics.median(per_game[f"{rule}-{form}"]) for form in ("declared", "plain"))
        print(f"{rule}: declared (JudgedBySource) {declared:.3f} s CPU a game, plain wrapper {plain:.3f} s: {plain / declared:.1f}x (target: at most 2x)")
    declared = statistics.median(per_game["smalls-declared"])
    print(
        f"the floor of any design that calls the plain wrapper as its hook says: {calls:,.0f} calls a game ({from_evaluation:,.0f} from the"
        f" bots' evaluation) x {per_call * 1e6:.1f} us a call = {calls * per_call:.3f} s a game, {calls * per_call / declared:.1f}x the declared form's whole game"
    )


if __name__ == "__main__":
    main()
