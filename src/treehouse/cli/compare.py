"""``th compare``: two rule sets on the same seeds, every difference with its interval, and an optional SPRT."""

from __future__ import annotations

import dataclasses
import math
import textwrap
import time
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from treehouse.cli.common import SetOption, err, looks_ahead, out, plugins, run_guarded, shown
from treehouse.cli.playtest import (
    PARTIAL, RunOptions, check_counts, check_outputs, chunk_pool, emit_json, end_interrupted, interval, num, play_batch,
    print_definitions, progress_bar, rule_set_named, run_options, save_outputs, seats_and_batch, seats_text, simulate_result,
)
from treehouse.config import parse_override
from treehouse.errors import ConfigError, TreehouseError
from treehouse.playtest import html
from treehouse.bots.options import bot_name, check_bot_spec
from treehouse.playtest.metrics import MEAN_METRICS, SEAT_METRICS, SEATS_MEASURE_BOTS, differences, paired_differences
from treehouse.playtest.stats import SPRT, p_text
from treehouse.playtest.work import RuleSpec


@run_options(games=2000)
def compare(
    a: Annotated[str, typer.Argument(help="Rule set A: a YAML file, a variant or a shipped rule set name.")],
    b: Annotated[Optional[str], typer.Argument(help="Rule set B (default: A again, changed by --set-b).")] = None,
    overrides: SetOption = None,
    overrides_b: Annotated[Optional[list[str]], typer.Option("--set-b", help="Change one setting of B only: key=value (repeatable).")] = None,
    sprt: Annotated[
        Optional[str],
        typer.Option(
            "--sprt",
            metavar="QUESTION",
            help="Stop as soon as the SPRT on QUESTION decides (--games is then the most played): seat:N (seat N's win rate), "
            "entrant:BOT (that bot's score), metric:NAME (a metric that is a mean per game: " + ", ".join(MEAN_METRICS) + "), "
            "or auto, the usual choice: entrant:STRONGEST (the bot of the highest declared strength) where the seats hold different bots, since whether "
            "a change helps the stronger bot is then the question (with rotated seats, seat 1 only measures the seat advantage); "
            "else seat:1, the seat advantage, the one thing that can differ.",
        ),
    ] = None,
    sprt_delta: Annotated[float, typer.Option("--sprt-delta", help="H1: the --sprt question's value differs by this much (B - A).")] = 0.05,
    sprt_delta0: Annotated[float, typer.Option("--sprt-delta0", help="H0: the difference is this (usually 0).")] = 0.0,
    sprt_alpha: Annotated[float, typer.Option("--sprt-alpha", help="False-positive rate of the SPRT.")] = 0.05,
    sprt_beta: Annotated[float, typer.Option("--sprt-beta", help="False-negative rate of the SPRT.")] = 0.05,
    *,
    run: RunOptions,
) -> None:
    """Play two rule sets on the same seeds and report every difference with its interval.

    Example: th compare classic --set-b dig_in_place=false -n 5000 --sprt auto
    """
    run_guarded(_compare, a, b, overrides or [], overrides_b or [], (sprt, sprt_delta, sprt_delta0, sprt_alpha, sprt_beta) if sprt is not None else None, run)


#: The parts of a comparison, in the order they are shown: its rows' ``part``.
PARTS = {"seats": "Seats", "entrants": "Entrants", "games": "Games"}


def part_of(name: str) -> str:
    """Which part of the report a row of :func:`differences` belongs to."""
    if name.startswith("win rate seat ") or name in SEAT_METRICS:
        return "seats"
    if name.startswith(("score ", "skill gap ")):
        return "entrants"
    return "games"


def ladder(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The different bots of the seats, weakest first by their declared strength (ties: as named)."""
    bots = list(dict.fromkeys(kinds))
    return tuple(sorted(bots, key=lambda spec: plugins().bots[bot_name(spec)].strength))


@dataclasses.dataclass(frozen=True)
class SprtQuestion:
    """What an SPRT tests: ``question`` as given (``entrant:search``), the per-game
    ``quantity`` whose paired differences it reads, and ``what`` in words."""

    question: str
    quantity: str
    what: str
    #: the quantity lives in [0, 1] (a score), so a change is from -1 to 1
    share: bool = True


def sprt_question(text: str, kinds: tuple[str, ...]) -> SprtQuestion:
    """Read ``--sprt``'s QUESTION (one clear line for anything else)."""
    bots = ladder(kinds)
    if text.strip() == "auto":
        text = f"entrant:{bots[-1]}" if len(bots) > 1 else "seat:1"
    kind, _, value = text.partition(":")
    kind, value = kind.strip(), value.strip()
    if kind == "seat" and value.isdigit() and 1 <= int(value) <= len(kinds):
        return SprtQuestion(f"seat:{value}", f"score{int(value) - 1}", f"seat {value}'s win rate")
    if kind == "seat":
        raise ConfigError(f"--sprt seat:N takes a seat from 1 to {len(kinds)}, not {value!r}")
    if kind == "entrant":
        if len(bots) < 2:
            raise ConfigError("--sprt entrant:BOT needs seats holding different bots (give --seat for each); with one bot everywhere, ask seat:1")
        try:
            spec = check_bot_spec(plugins(), value)
        except TreehouseError:
            spec = value  # named below among the seats' bots
        if spec not in bots:
            raise ConfigError(f"--sprt entrant:BOT names one of the seats' bots ({', '.join(bots)}), not {value!r}")
        return SprtQuestion(f"entrant:{spec}", f"bot{list(dict.fromkeys(kinds)).index(spec)}", f"{spec}'s score")
    if kind == "metric":
        if value not in MEAN_METRICS:
            raise ConfigError(f"--sprt metric:NAME takes a metric that is a mean per game ({', '.join(MEAN_METRICS)}), not {value!r}")
        return SprtQuestion(f"metric:{value}", MEAN_METRICS[value], value, share=value not in ("Duration", "DecisionsPerGame"))
    if text.startswith("-"):
        raise ConfigError(f"--sprt takes its question first (seat:N, entrant:BOT, metric:NAME or auto), e.g. --sprt auto; it was given the option {text!r}")
    raise ConfigError(f"--sprt takes a question: seat:N, entrant:BOT, metric:NAME or auto, not {text!r}")


@dataclasses.dataclass
class Comparison:
    """A comparison ready to play: both rule sets resolved and named, the seats and the
    batch checked, and the SPRT if one was asked (what ``th serve``'s lab plays too)."""

    rules_a: Any
    rules_b: Any
    spec_a: RuleSpec
    spec_b: RuleSpec
    kinds: tuple[str, ...]
    batch: Any
    test: SPRT | None = None
    question: SprtQuestion | None = None

    def stop(self, total) -> bool:
        """After each chunk: feed the SPRT the paired differences so far; has it decided?"""
        return self.test is not None and self.test.update_sums(*paired_differences(total.paired, self.question.quantity)) is not None


def prepare_compare(a, b, overrides, overrides_b, sprt_args, run: RunOptions) -> Comparison:
    """Check everything ``th compare`` was given and resolve it, before any game (one line for any mistake)."""
    check_counts(run.games, run.jobs)
    check_outputs(run, [a, b])
    if b is None and not overrides_b:
        raise ConfigError("name a second rule set B, or change A with --set-b key=value (e.g. th compare classic --set-b dig_in_place=false)")
    for text in overrides_b:
        parse_override(text, "--set-b")  # a malformed one is named as --set-b, not --set
    rules_a = rule_set_named(a, overrides, looks_ahead(run.seat))
    rules_b = rule_set_named(b if b is not None else a, [*overrides, *overrides_b], looks_ahead(run.seat))
    name_b = rules_b.name if b is not None else rules_a.name
    if overrides_b:
        name_b += " with " + " ".join(overrides_b)
    spec_a = RuleSpec.from_effective(rules_a)
    spec_b = dataclasses.replace(RuleSpec.from_effective(rules_b), name=name_b)
    if spec_b.name == spec_a.name:
        spec_b = dataclasses.replace(spec_b, name=spec_b.name + " (B)")
    if rules_a.variant_class is not rules_b.variant_class:
        err.print(
            f"warning: A plays {rules_a.variant_class.name} and B plays {rules_b.variant_class.name}: "
            "the same seeds give unrelated games, so the comparison is unpaired in effect (valid, but wider)",
            markup=False,
        )
    kinds, batch = seats_and_batch(run, [rules_a, rules_b], (spec_a, spec_b))

    test: SPRT | None = None
    question: SprtQuestion | None = None
    if sprt_args is not None:
        asked, delta1, delta0, alpha, beta = sprt_args
        question = sprt_question(asked, kinds)
        for option, delta in (("--sprt-delta", delta1), ("--sprt-delta0", delta0)):
            if question.share and not -1 <= delta <= 1:  # also refuses nan
                raise ConfigError(f"{option} is a change in {question.what}, from -1 to 1, not {delta}")
            if not math.isfinite(delta):
                raise ConfigError(f"{option} is a change in {question.what}, a finite number, not {delta}")
        try:
            test = SPRT(delta1, delta0, alpha, beta)
        except ValueError as error:
            raise ConfigError(f"--sprt: {error}") from None
    return Comparison(rules_a, rules_b, spec_a, spec_b, kinds, batch, test, question)


def compare_result(comparison: Comparison, total, stopped, seconds: float) -> dict[str, Any]:
    """``th compare``'s result (its ``--json``) from the paired totals played so far."""
    c, test, question = comparison, comparison.test, comparison.question
    side_a = simulate_result(c.rules_a, c.batch, total.sides[0], seconds)
    side_b = simulate_result(c.rules_b, c.batch, total.sides[1], seconds)
    side_a["rule_set"], side_b["rule_set"] = c.spec_a.name, c.spec_b.name
    rows = [
        {"part": part_of(d.name), "name": d.name, "a": d.a, "b": d.b, "diff": d.diff.value, "low": d.diff.low, "high": d.diff.high, "p_value": d.p_value, "significant": d.significant}
        for d in differences(total.sides[0], total.sides[1], total.paired, ladder=ladder(c.kinds))
    ]
    result: dict[str, Any] = {
        "games": total.sides[0].games,
        "seed": c.batch.seed,
        "seat_kinds": list(c.kinds),
        "seats_rotated": c.batch.rotate,
        "a": side_a,
        "b": side_b,
        "differences": rows,
        "significant": [r["name"] for r in rows if r["significant"]],
        "sprt": None,
        "seconds": round(seconds, 3),
    }
    if test is not None:
        decision = test.decision()
        verdict = {
            "H1": f"H1 accepted: {question.what} changes by {test.delta1:+g} (B - A)",
            "H0": f"H0 accepted: a change of {test.delta1:+g} in {question.what} is ruled out (consistent with {test.delta0:+g})",
            None: "inconclusive: interrupted before the test decided" if stopped else "inconclusive: --games ran out before the test decided",
        }[decision]
        result["sprt"] = {
            "question": question.question, "asks": f"does {question.what} change by {test.delta1:+g} (B - A), or by {test.delta0:+g}?",
            "decision": decision, "verdict": verdict, "llr": test.llr(), "lower": test.lower, "upper": test.upper, "pairs": test.n,
            "delta0": test.delta0, "delta1": test.delta1, "alpha": test.alpha, "beta": test.beta,
        }
    return result


def _compare(a, b, overrides, overrides_b, sprt_args, run: RunOptions) -> None:
    comparison = prepare_compare(a, b, overrides, overrides_b, sprt_args, run)
    spec_a, spec_b, kinds, batch = comparison.spec_a, comparison.spec_b, comparison.kinds, comparison.batch
    games, seed = run.games, run.seed
    began = time.perf_counter()
    with chunk_pool(run) as pool, progress_bar(games, f"compare {spec_a.name} / {spec_b.name}") as progress:
        total, stopped = play_batch(batch, games, run, progress, pool, comparison.stop)
    seconds = time.perf_counter() - began
    result = compare_result(comparison, total, stopped, seconds)
    rows = result["differences"]
    compare_csv = ["part", "metric", "a", "b", "diff", "low", "high", "p_value", "significant"], [list(r.values()) for r in rows]
    save_outputs(run, result, stopped, lambda: compare_csv, html.compare_report)
    if run.as_json:
        emit_json(result)
        end_interrupted(stopped, result["games"], games)
        return
    if stopped is not None:
        out.print(f"{PARTIAL}the first {result['games']} of {games} pairs of games")
    out.print(
        f"[bold]A[/bold] = {shown(spec_a.name)}, [bold]B[/bold] = {shown(spec_b.name)}: {result['games']} paired games on the same seeds, "
        f"{shown(seats_text(kinds, batch.rotate))}, seed {seed}, {seconds:.1f} s"
    )
    width = min(out.width, 80)
    out.print("B - A with 95% intervals; * significant after Holm's correction over all rows", style="bold", width=width)
    if batch.rotate:
        seats_said = "Seats: each seat's figures averaged over the bots that sat in it (rotated). Entrants: each bot over every seat it held."
    elif len(set(kinds)) > 1:
        seats_said = f"Note: {SEATS_MEASURE_BOTS}."
    else:
        seats_said = "Seats: one bot in every seat, so the seat figures measure the game."
    for line in textwrap.wrap(seats_said, width):
        out.print(line, markup=False, highlight=False)
    table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, header_style="bold")
    table.add_column("metric", justify="left", overflow="fold")
    for column in ("A", "B", "B - A", "95% interval", "p", ""):
        table.add_column(column, justify="right", no_wrap=True)

    def label(name: str) -> str:  # a seat's row names its bot, where one bot keeps the seat
        if name.startswith("win rate seat ") and not batch.rotate:
            return f"{name} ({kinds[int(name.rsplit(' ', 1)[1]) - 1]})"
        return name

    for part, heading in PARTS.items():
        mine = [r for r in rows if r["part"] == part]
        if not mine:
            continue
        table.add_row(f"[bold]{heading}[/bold]")
        for r in mine:
            table.add_row(" " + shown(label(r["name"])), num(r["a"]), num(r["b"]), num(r["diff"]), interval(r["low"], r["high"]), p_text(r["p_value"]), "*" if r["significant"] else "")
    out.print(table, width=width)
    flagged = result["significant"]
    out.print(f"significant: {', '.join(flagged)}" if flagged else "no significant difference")
    print_definitions([r["name"] for r in rows])
    if result["sprt"]:
        s = result["sprt"]
        out.print(f"SPRT on {s['question']} ({s['asks']}): {s['verdict']} (LLR {s['llr']:.2f}, bounds [{s['lower']:.2f}, {s['upper']:.2f}], {s['pairs']} pairs)")
    end_interrupted(stopped, result["games"], games)
