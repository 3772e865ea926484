"""Peak memory and CPU of whole `th` processes, as a user runs them: this checkout against another.

Run:  python benchmarks/bench_memory.py [--baseline CHECKOUT] [--rounds R] [--command NAME ...]

Each command below runs as a whole process (``python -m treehouse ...``,
``--jobs 1`` so one process plays every game), on this checkout as it
comes (the compiled core where it pays), on its reference rules
(``TREEHOUSE_COMPILED=0``) and, with ``--baseline``, on another checkout
(main at fb0e67f, before the tiers: ``git worktree add --detach /tmp/base
fb0e67f``), interleaved in rounds so all see the same load.  For each it
prints the median peak resident memory (the process's ``ru_maxrss``, from
``wait4``) and CPU seconds, and the ratios to the baseline measured in the
same run.  This checkout's two tiers must print the same JSON (bar its
``seconds``); the baseline plays the seed's readings of before issue 22,
which this checkout pins with ``--set`` where they differ (the Fences
commands), so its JSON must match too.

The compiled core is prepared first (outside the measurements), as on a
machine that has run treehouse before: a cold first use builds it once,
which ``benchmarks/bench_tiers.py`` times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from alternate import checkout_src

#: The seed's reading before issue 22 (docs/rules/fences.md), pinned so the baseline plays the same games.
FENCES_PIN = ["--set", "swap_outside_considered_moved=false"]
COMMANDS = {
    "fences-greedy-search": (["simulate", "--variant", "fences", "--seat", "greedy", "--seat", "search", "--games", "10"], FENCES_PIN),
    "fences-search-4": (["simulate", "--variant", "fences", *["--seat", "search"] * 4, "--games", "4"], FENCES_PIN),
    "fences-compare-large-fences-only": (
        ["compare", "fences", "fences", "--set-b", 'house_rules=["large-fences-only"]', "--seat", "greedy", "--seat", "search", "--games", "6"],
        FENCES_PIN,
    ),
    "classic-search-search": (["simulate", "--variant", "classic", "--seat", "search", "--seat", "search", "--games", "20"], []),
    "classic-random-1000": (["simulate", "--variant", "classic", "--games", "1000"], []),
    "classic-random-10000": (["simulate", "--variant", "classic", "--games", "10000"], []),
    "fences-random-2000": (["simulate", "--variant", "fences", "--games", "2000"], FENCES_PIN),
}


def run(env: dict, arguments: list[str]) -> tuple[float, float, dict]:
    """One whole process: its peak resident memory (MB), its CPU seconds and its JSON (without the times)."""
    command = [sys.executable, "-m", "treehouse", *arguments, "--seed", "5", "--jobs", "1", "--json"]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=err)
        _pid, status, usage = os.wait4(process.pid, 0)  # the process's own figures (Popen.wait would reap it first)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(arguments)} failed: {err.read().strip()}")
        return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, without_seconds(json.loads(out.read()))


def without_seconds(data):
    """The report bar its ``seconds`` (the run's and each side's): the one measurement in it."""
    if isinstance(data, dict):
        return {key: without_seconds(value) for key, value in data.items() if key not in ("seconds", "games_per_second", "elapsed")}
    if isinstance(data, list):
        return [without_seconds(value) for value in data]
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--command", choices=sorted(COMMANDS), action="append", help="default: all")
    parser.add_argument("--baseline", metavar="CHECKOUT", help="another checkout (its src, and its examples' src, go first on PYTHONPATH)")
    args = parser.parse_args()
    base = {key: value for key, value in os.environ.items() if key != "TREEHOUSE_COMPILED"}
    contenders = {"now": base, "reference": {**base, "TREEHOUSE_COMPILED": "0"}}
    if args.baseline:
        root = checkout_src(args.baseline).parent
        path = os.pathsep.join(p for p in (str(root / "src"), str(root / "examples/fences-house-rules/src"), base.get("PYTHONPATH")) if p)
        contenders["baseline"] = {**base, "PYTHONPATH": path}
    subprocess.run([sys.executable, "-c", "from treehouse.plugins import load_plugins\nfor name in ('classic', 'fences'):\n cls = load_plugins().variant(name); cls(cls.Rules()).prepare_compiled()"], env=base, check=True)
    print(f"{'command':<34}{'contender':<11}{'peak MB':>9}{'CPU s':>8}   (medians of {args.rounds} rounds)")
    for name in args.command or list(COMMANDS):
        arguments, pin = COMMANDS[name]
        figures: dict[str, list[tuple[float, float]]] = {contender: [] for contender in contenders}
        for round_ in range(args.rounds):
            answers = {}
            for contender, env in contenders.items():
                memory, cpu, answers[contender] = run(env, arguments + (pin if contender != "baseline" else []))
                figures[contender].append((memory, cpu))
            for contender, answer in answers.items():
                if answer != answers["now"]:
                    raise SystemExit(f"{name}, round {round_ + 1}: {contender}'s JSON differs from now's: not the same games")
        for contender, values in figures.items():
            memory, cpu = (statistics.median(column) for column in zip(*values))
            line = f"{name if contender == 'now' else '':<34}{contender:<11}{memory:>9.1f}{cpu:>8.2f}"
            if "baseline" in figures and contender != "baseline":
                ratios = [(m / bm, c / bc) for (m, c), (bm, bc) in zip(values, figures["baseline"])]
                line += f"   vs baseline: memory {statistics.median(r[0] for r in ratios):.2f}x, CPU {statistics.median(r[1] for r in ratios):.2f}x"
            print(line)
    print("every round's JSON identical across " + ", ".join(contenders))


if __name__ == "__main__":
    main()
