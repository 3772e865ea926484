"""The playtest lab of ``th serve``: change a rule in a form, play bot games, watch the answer arrive.

The page (``/lab``) is reached by the owner link ``th serve`` prints
(``/lab#key=KEY``); the key, kept owner-only in ``DIR/lab/lab.key.json``, is
checked like a seat token (in constant time) before anything runs.  The form
is generated from the variant's options model (its pydantic ``Rules``: each
option's description, type and range) and the house rules' option models;
nothing here names a variant.  What the form sends is read as ``--set`` text
and checked by :func:`treehouse.config.resolve`, one field at a time, so each
mistake gets its own line next to its field, the same line the command gives.

A run is the command line's own: :func:`run_plan` plays it in a process of
its own (``python -m treehouse.serve.lab RUN``), niced, with its games capped
at ``jobs`` worker processes (or on a Dask cluster), through ``th simulate``'s,
``th compare``'s and ``th sweep``'s code (:func:`treehouse.cli.compare.prepare_compare`,
``compare_result``, :func:`treehouse.cli.sweep.prepare_sweep`, ``sweep_row``,
``play_batch``, ``simulate_result``); so the same seed gives the same numbers as
the command's ``--json``.  It reports each game and, after each chunk of games
(a sweep: each point), the estimates so far with their intervals (and an SPRT's
log-likelihood ratio).  One run plays at a time,
at most :data:`QUEUE` wait; a run can be cancelled.  Its results are the
command's files, ``DIR/lab/RUN.json`` (``--json``) and ``DIR/lab/RUN.html``
(``--report``), beside ``RUN.run.json`` (the form, the command that
reproduces it, its state).  After a restart the finished runs are all there;
one that was queued or playing when the server stopped is marked unfinished.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import from_json

from treehouse.errors import ConfigError, TreehouseError, clip
from treehouse.textfiles import read_text, write_text_atomically

#: Runs that may wait behind the one playing (one lab plays one run at a time).
QUEUE = 3
#: The longest message the lab's page may send, in characters (a form with every option changed fits).
MAX_LAB_MESSAGE = 12_000
#: Seconds between two progress reports of a run (each game is counted; the page is told at most this often).
PROGRESS_SECONDS = 0.25
#: How much lower a run's processes are scheduled than the tables (``nice``): people's moves come first.
RUN_NICENESS = 10
KEY_FILE = "lab.key.json"
RUN_SUFFIX = ".run.json"
#: The states of a run; the last four are final.
WAITING, PLAYING, FINISHED, CANCELLED, FAILED, UNFINISHED = "queued", "playing", "finished", "cancelled", "failed", "unfinished"
FINAL = (FINISHED, CANCELLED, FAILED, UNFINISHED)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)


Text = Annotated[str, Field(max_length=400)]
Key = Annotated[str, Field(min_length=1, max_length=80)]


class LabHello(_Strict):
    """The first message: the lab's key, from the page's link."""

    type: Literal["hello"]
    key: Optional[str] = Field(None, max_length=100)


class FormRequest(_Strict):
    """The form of a rule set: its options (with the rule set's values), house rules and bots."""

    type: Literal["form"]
    rule_set: Key


class SweepAxis(_Strict):
    """One option a sweep walks, and its values as ``--param``'s text (``v1, v2, v3``)."""

    option: Key
    values: Text


class RunForm(_Strict):
    """A run as the form gives it: every value as the text a ``--set`` would carry.

    ``a`` changes the rule set (``--set``); with ``compare``, ``b`` changes B
    from A (``--set-b``).  ``house_rules`` is a key like any other (its value a
    list, as in YAML)."""

    type: Literal["run"]
    question: Literal["simulate", "compare", "sweep"]
    rule_set: Key
    a: dict[Key, Text] = Field(default_factory=dict, max_length=64)
    b: dict[Key, Text] = Field(default_factory=dict, max_length=64)
    seats: list[Annotated[str, Field(max_length=120)]] = Field(min_length=1, max_length=16)
    games: Annotated[str, Field(max_length=20)]
    seed: Annotated[str, Field(max_length=30)]
    #: with compare: stop as soon as th compare's SPRT decides (``--sprt auto``)
    sprt: bool = False
    #: with sweep: the one or two options it walks (``--param``)
    sweep: list[SweepAxis] = Field(default_factory=list, max_length=2)


class CancelRun(_Strict):
    type: Literal["cancel"]
    run: Key


LabMessage = TypeAdapter(Annotated[Union[LabHello, FormRequest, RunForm, CancelRun], Field(discriminator="type")])
LAB_KINDS = ("hello", "form", "run", "cancel")


class FormMistakes(TreehouseError):
    """What is wrong with a run's form: field -> one line each."""

    def __init__(self, mistakes: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in mistakes.items()))
        self.mistakes = mistakes


def read_lab_message(text: str) -> BaseModel:
    """One message from the lab's page, or :class:`~treehouse.cli.human.Mistake` in one line."""
    from treehouse.cli.human import Mistake
    from treehouse.serve.app import described, first_problem

    if len(text) > MAX_LAB_MESSAGE:
        raise Mistake(f"message too long ({len(text)} characters; at most {MAX_LAB_MESSAGE})")
    try:
        data = from_json(text, allow_inf_nan=False)
    except ValueError as error:
        if "recursion limit" in str(error):
            raise Mistake("nested too deeply: send an object such as {\"type\": \"form\", \"rule_set\": \"...\"}") from None
        raise Mistake(f"not JSON: {clip(text, 60)!r}") from None
    if not isinstance(data, dict):
        raise Mistake('a message must be a JSON object with a "type"')
    if data.get("type") not in LAB_KINDS:
        raise Mistake(f"unknown message type {described(data.get('type'))}: send {', '.join(LAB_KINDS)}")
    try:
        return LabMessage.validate_python(data)
    except ValidationError as error:
        raise Mistake(first_problem(error)) from None


# --------------------------------------------------------------------------
# the form, from the options models
# --------------------------------------------------------------------------


def option_fields(model: type[BaseModel] | None, values: dict[str, Any]) -> list[dict[str, Any]]:
    """Each option of a pydantic options model as the form shows it: its name,
    description, kind (``boolean``, ``integer``, ``number``, ``choice`` or
    ``text``), its choices or range, and its value in ``values``."""
    if model is None:
        return []
    schema = model.model_json_schema()
    fields = []
    for name, spec in schema.get("properties", {}).items():
        kind = spec.get("type")
        entry: dict[str, Any] = {"name": name, "description": spec.get("description", ""), "value": values.get(name, spec.get("default"))}
        if "enum" in spec:
            entry.update(kind="choice", choices=list(spec["enum"]))
        elif kind in ("boolean", "integer", "number"):
            entry["kind"] = kind
            for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                if bound in spec:
                    entry[bound] = spec[bound]
        else:  # a union or a type of the variant's own: typed as --set text, checked the same way
            entry["kind"] = "text"
        fields.append(entry)
    return fields


def rule_set_names(plugins: Any) -> list[str]:
    """What the lab's rule-set menu offers: every variant and shipped rule set (as the lobby's)."""
    from treehouse.config import shipped_rulesets

    return sorted({*shipped_rulesets(), *(info.name for info in plugins.variants.values())})


def form_of(plugins: Any, rule_set: str) -> dict[str, Any]:
    """The form of ``rule_set``: its rule options with their values in it, the house
    rules that fit its variant with their options (those on in it, on), the players and
    the bots that can play it.  Raises a one-line error for an unknown rule set."""
    from treehouse.config import resolve

    effective = resolve(plugins, variant=rule_set)
    cls = effective.variant_class
    on = {rule.name: rule for rule in effective.house_rule_plugins(plugins)}
    house_rules = []
    for info in plugins.house_rules_for(cls):
        rule = on.get(info.name)
        values = rule.options.model_dump(mode="json") if rule is not None and rule.options is not None else {}
        house_rules.append({"name": info.name, "description": info.description, "on": rule is not None, "options": option_fields(info.options, values)})
    lo, hi = effective.variant().player_range()
    bots = sorted(plugins.bots.values(), key=lambda bot: (bot.strength, bot.name))
    return {
        "rule_set": effective.name if effective.chain else rule_set.strip().lower(),
        "variant": cls.name,
        "description": effective.description,
        "options": option_fields(cls.Rules, effective.rules.model_dump(mode="json")),
        "house_rules": house_rules,
        "players": {"min": lo, "max": hi, "usual": cls.default_players},
        "bots": [{"name": bot.name, "description": bot.description} for bot in bots],
    }


# --------------------------------------------------------------------------
# checking a form: the same checks as the command's, one line per field
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A run checked and ready: the command's own arguments."""

    question: str
    rule_set: str
    overrides: tuple[str, ...]
    overrides_b: tuple[str, ...]
    seats: tuple[str, ...]
    games: int
    seed: int
    #: stop as soon as the SPRT decides (``th compare --sprt auto``, its other options as the command's defaults)
    sprt: bool = False
    #: a sweep's ``--param`` texts (``rules.KEY=v1,v2``)
    params: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """The games of the whole run: a sweep plays ``games`` at each point."""
        if self.question != "sweep":
            return self.games
        from treehouse.playtest.sweep import grid

        return self.games * len(grid(list(self.params)))

    def command(self, run_id: str) -> str:
        """The ``th`` command that plays this run and writes the same files (``RUN.html``; its JSON on standard output)."""
        words = ["th", self.question]
        words += [self.rule_set] if self.question == "compare" else ["--variant", self.rule_set]
        for text in self.overrides:
            words += ["--set", text]
        for text in self.overrides_b:
            words += ["--set-b", text]
        for text in self.params:
            words += ["--param", text]
        for seat in self.seats:
            words += ["--seat", seat]
        if self.sprt:
            words += ["--sprt", "auto"]
        words += ["--games", str(self.games), "--seed", str(self.seed), "--json", "--report", f"{run_id}.html"]
        return " ".join(shlex.quote(word) for word in words) + f" > {run_id}.json"

    def as_json(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Plan:
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})


def _said(error: TreehouseError) -> str:
    """A check's line as the form shows it, beside the field it names (the command's own line,
    less the ``--set:`` that says where a value came from)."""
    return clip(str(error).removeprefix("--set: "), 300)


def check_form(plugins: Any, form: RunForm) -> Plan:
    """The run the form asks for, checked as the command checks its options, or
    :class:`FormMistakes` naming each field that is wrong (nothing is played)."""
    from treehouse.bots.options import check_bot_spec
    from treehouse.cli.playtest import RunOptions, check_counts, seats_and_batch
    from treehouse.config import resolve

    mistakes: dict[str, str] = {}
    try:
        resolve(plugins, variant=form.rule_set)
    except TreehouseError as error:
        raise FormMistakes({"rule_set": _said(error)}) from None
    overrides = tuple(f"{key}={value}" for key, value in form.a.items())
    overrides_b = tuple(f"{key}={value}" for key, value in form.b.items()) if form.question == "compare" else ()
    for column, texts in (("a", overrides), ("b", overrides_b)):
        for key, text in zip(form.a if column == "a" else form.b, texts):
            try:  # each value alone, so each mistake is said next to its own field
                resolve(plugins, variant=form.rule_set, overrides=[text])
            except TreehouseError as error:
                mistakes[f"{column}.{key}"] = _said(error)
    seats = []
    for index, spec in enumerate(form.seats):
        try:
            seats.append(check_bot_spec(plugins, spec))
        except TreehouseError as error:
            mistakes[f"seats.{index}"] = _said(error)
    games = seed = None
    try:
        games = int(form.games)
        check_counts(games, None)
    except ValueError:
        mistakes["games"] = f"games: a whole number of games, not {clip(form.games, 20)!r}"
    except TreehouseError as error:
        mistakes["games"] = _said(error)
    try:
        seed = int(form.seed)
        if not 0 <= seed < 2**63:
            raise ValueError
    except ValueError:
        mistakes["seed"] = f"seed: a whole number from 0 to {2**63 - 1}, not {clip(form.seed, 30)!r}"
    params: tuple[str, ...] = ()
    if form.question == "sweep":
        params, axis_mistakes = _sweep_params(plugins, form)
        mistakes.update(axis_mistakes)
    if form.question == "compare" and not overrides_b and "b" not in mistakes:
        mistakes["b"] = "B is A with the changes in its column: change at least one value of B (th compare's --set-b)"
    if mistakes:
        raise FormMistakes(mistakes)
    # together now: what only the whole can get wrong (two values that do not fit each other, too few seats)
    try:
        effective = resolve(plugins, variant=form.rule_set, overrides=overrides)
    except TreehouseError as error:
        raise FormMistakes({"a": _said(error)}) from None
    if overrides_b:
        try:
            resolve(plugins, variant=form.rule_set, overrides=[*overrides, *overrides_b])
        except TreehouseError as error:
            raise FormMistakes({"b": _said(error)}) from None
    if params:
        from treehouse.playtest.sweep import grid, overrides as point_overrides

        for point in grid(list(params)):  # every point with A's changes, as th sweep resolves them
            try:
                resolve(plugins, variant=form.rule_set, overrides=[*overrides, *point_overrides(point)])
            except TreehouseError as error:
                raise FormMistakes({"sweep": f"at {point_text(point)}: {_said(error)}"}) from None
    try:
        kinds, _batch = seats_and_batch(RunOptions(games=games, seat=seats, seed=seed), [effective])
    except TreehouseError as error:
        raise FormMistakes({"seats": _said(error)}) from None
    sprt = form.question == "compare" and form.sprt
    if sprt:
        from treehouse.cli.compare import sprt_question

        try:
            sprt_question("auto", kinds)
        except TreehouseError as error:
            raise FormMistakes({"sprt": _said(error)}) from None
    return Plan(form.question, form.rule_set, overrides, overrides_b, tuple(seats), games, seed, sprt, params)


def point_text(point: dict[str, str]) -> str:
    """A sweep's point in words: ``line_hits=new, turn_limit=30``."""
    return ", ".join(f"{key.removeprefix('rules.')}={value}" for key, value in point.items())


def _sweep_params(plugins: Any, form: RunForm) -> tuple[tuple[str, ...], dict[str, str]]:
    """A sweep's axes as ``--param`` texts, each checked as th sweep reads it (every value as ``--set``)."""
    from treehouse.config import resolve
    from treehouse.playtest.sweep import grid, parse_param

    if not form.sweep:
        return (), {"sweep": "choose the option to sweep and its values (one or two options)"}
    params, mistakes = [], {}
    for index, axis in enumerate(form.sweep):
        try:
            key, values = parse_param(f"rules.{axis.option}={axis.values}")
        except TreehouseError:
            mistakes[f"sweep.{index}"] = f"values: one or more, separated by commas, none empty (e.g. 10, 20, 30), not {clip(axis.values, 40)!r}"
            continue
        try:
            for value in values:
                resolve(plugins, variant=form.rule_set, overrides=[f"{key}={value}"])
        except TreehouseError as error:
            mistakes[f"sweep.{index}"] = _said(error)
            continue
        params.append(f"{key}={','.join(values)}")
    if not mistakes:
        try:
            grid(params)
        except TreehouseError as error:
            mistakes["sweep"] = _said(error)
    return tuple(params), mistakes


def sprt_arguments() -> tuple[str, float, float, float, float]:
    """``th compare --sprt auto`` with the command's own defaults for its other SPRT options."""
    import inspect

    from treehouse.cli.compare import compare

    defaults = inspect.signature(compare).parameters
    return ("auto", *(defaults[name].default for name in ("sprt_delta", "sprt_delta0", "sprt_alpha", "sprt_beta")))


# --------------------------------------------------------------------------
# a run, in a process of its own
# --------------------------------------------------------------------------


def _die_with_parent() -> None:
    """Linux's parent-death signal: this process (and so its workers) ends with the server, even after kill -9."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:
        os._exit(1)


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _estimate_rows(result: dict[str, Any], question: str) -> list[dict[str, Any]]:
    """The figures a run shows as it goes: each bot's paired difference B - A (compare) or score (simulate), with its interval."""
    if question == "compare":
        return [{"name": r["name"], "value": r["diff"], "low": r["low"], "high": r["high"], "significant": r["significant"]} for r in result["differences"] if r["part"] == "entrants"]
    if question == "sweep":  # each point's seat 1 and bots
        rows = []
        for point in result["points"]:
            where = point_text(point["values"])
            seat = point["seats"][0]
            rows.append({"name": f"{where}: win rate seat 1", "value": seat["rate"], "low": seat["low"], "high": seat["high"]})
            rows += [{"name": f"{where}: score {e['bot']}", "value": e["score"], "low": e["low"], "high": e["high"]} for e in point["entrants"]]
        return rows
    rows = [{"name": f"score {e['bot']}", "value": e["score"], "low": e["low"], "high": e["high"]} for e in result["entrants"]]
    rows += [{"name": f"win rate seat {s['seat']}", "value": s["rate"], "low": s["low"], "high": s["high"]} for s in result["seats"]]
    return rows


def _sprt_said(result: dict[str, Any]) -> dict[str, Any] | None:
    """A compare's SPRT as a run shows it: its question, log-likelihood ratio, bounds and verdict."""
    test = result.get("sprt")
    if not test:
        return None
    return {key: test[key] for key in ("question", "asks", "llr", "lower", "upper", "pairs", "decision", "verdict")}


def run_plan(plan: Plan, json_path: Path, report_path: Path, jobs: int, cluster: str | None = None) -> dict[str, Any]:
    """Play ``plan`` by the command's own code, writing its ``--json`` and ``--report``
    files, in ``jobs`` worker processes or on a Dask ``cluster`` (``--cluster``'s
    address, or ``local``); progress goes to standard output, one JSON line at a time."""
    from treehouse.cli.common import looks_ahead, plugins, warned
    from treehouse.cli.compare import compare_result, prepare_compare
    from treehouse.cli.playtest import RunOptions, chunk_pool, play_batch, save_outputs, seats_and_batch, simulate_result
    from treehouse.cli.sweep import prepare_sweep, sweep_csv, sweep_result, sweep_row
    from treehouse.config import resolve
    from treehouse.playtest import html

    run = RunOptions(games=plan.games, seat=list(plan.seats), seed=plan.seed, jobs=jobs, cluster=cluster, as_json=True, report=report_path, force=True)
    began = time.perf_counter()
    said = [0.0]

    def progress(done: int) -> None:
        now = time.monotonic()
        if now - said[0] >= PROGRESS_SECONDS or done >= plan.total:
            said[0] = now
            _say({"done": done})

    if plan.question == "sweep":  # th sweep's loop: one batch per point, the same seeds at each
        sweep = prepare_sweep(plan.rule_set, None, list(plan.overrides), list(plan.params), run)
        rows: list[dict[str, Any]] = []
        with chunk_pool(run) as pool:
            for index, (point, effective, batch) in enumerate(zip(sweep.points, sweep.resolved, sweep.batches)):
                total, stopped = play_batch(batch, plan.games, run, lambda done, index=index: progress(index * plan.games + done), pool)
                rows.append(sweep_row(point, effective, batch, total))
                so_far = sweep_result(sweep, rows, plan.games, plan.seed, time.perf_counter() - began)
                _say({"done": (index + 1) * plan.games, "estimate": _estimate_rows(so_far, plan.question)})
        result = sweep_result(sweep, rows, plan.games, plan.seed, time.perf_counter() - began)
        save_outputs(run, result, None, lambda: sweep_csv(sweep, rows), html.sweep_report)
        write_text_atomically(json_path, json.dumps(result), ConfigError)
        return result
    if plan.question == "compare":
        comparison = prepare_compare(plan.rule_set, None, list(plan.overrides), list(plan.overrides_b), sprt_arguments() if plan.sprt else None, run)
        batch = comparison.batch

        def result_of(total, seconds):
            return compare_result(comparison, total, None, seconds)

        decided = comparison.stop
        report = html.compare_report
    else:
        effective = warned(resolve(plugins(), variant=plan.rule_set, overrides=plan.overrides), looks_ahead(run.seat))
        _kinds, batch = seats_and_batch(run, [effective])

        def result_of(total, seconds):
            return simulate_result(effective, batch, total.sides[0], seconds)

        def decided(total) -> bool:
            return False

        report = html.simulate_report

    def stop(total) -> bool:  # after each chunk: the CLI's own stop (its SPRT), and the figures so far
        answer = decided(total)
        so_far = result_of(total, time.perf_counter() - began)
        _say({"done": total.sides[0].games, "estimate": _estimate_rows(so_far, plan.question), "sprt": _sprt_said(so_far)})
        return answer

    with chunk_pool(run) as pool:
        total, stopped = play_batch(batch, plan.games, run, progress, pool, stop)
    result = result_of(total, time.perf_counter() - began)
    save_outputs(run, result, stopped, lambda: ([], []), report)
    write_text_atomically(json_path, json.dumps(result), ConfigError)
    return result


def main(argv: list[str]) -> int:
    """``python -m treehouse.serve.lab RUN.run.json JOBS [CLUSTER]``: play one run (the lab starts this process)."""
    _die_with_parent()
    try:
        os.nice(RUN_NICENESS)
    except OSError:
        pass
    path = Path(argv[0])
    jobs = int(argv[1])
    cluster = argv[2] if len(argv) > 2 and argv[2] else None
    run_id = path.name.removesuffix(RUN_SUFFIX)
    try:
        plan = Plan.from_json(json.loads(read_text(path, ConfigError, "lab run"))["plan"])
        result = run_plan(plan, path.with_name(f"{run_id}.json"), path.with_name(f"{run_id}.html"), jobs, cluster)
    except TreehouseError as error:
        _say({"error": clip(str(error), 300)})
        return 2
    _say({"finished": True})
    return 0


# --------------------------------------------------------------------------
# the lab: its key, its runs, its queue
# --------------------------------------------------------------------------


def _now() -> str:
    """When, to the microsecond, so that runs started in one second are listed in the order they came."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f UTC")


@dataclass(eq=False)
class Run:
    """One run: its plan, the command that reproduces it, and where it stands."""

    id: str
    plan: Plan
    command: str
    status: str = WAITING
    created: str = field(default_factory=_now)
    #: why it failed, was cancelled or is unfinished
    message: str = ""
    done: int = 0
    started: float | None = None  # time.monotonic(), while it plays
    seconds: float | None = None
    estimate: list[dict[str, Any]] = field(default_factory=list)
    #: a compare's SPRT so far (its log-likelihood ratio against its bounds), or ``None``
    sprt: dict[str, Any] | None = None
    process: subprocess.Popen | None = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "plan": self.plan.as_json(), "command": self.command, "status": self.status, "created": self.created,
                "message": self.message, "done": self.done, "seconds": self.seconds, "estimate": self.estimate, "sprt": self.sprt}

    def summary(self) -> dict[str, Any]:
        """What the page shows of it."""
        data = self.as_json()
        eta = None
        if self.status == PLAYING and self.started is not None and self.done:
            elapsed = time.monotonic() - self.started
            eta = round(elapsed / self.done * (self.plan.total - self.done), 1)
        data.update(total=self.plan.total, eta=eta, report=f"/lab/r/{self.id}.html" if self.status == FINISHED else None, json=f"/lab/r/{self.id}.json" if self.status == FINISHED else None)
        return data


class Lab:
    """The lab of one server: its key, its runs (kept in ``folder``) and the one that plays."""

    def __init__(self, folder: Path, jobs: int = 1, cluster: str | None = None) -> None:
        self.folder = folder.resolve()
        self.jobs = jobs
        #: a Dask scheduler's address (or ``local``) to play the runs on, as ``th compare --cluster``; ``None``: here
        self.cluster = cluster
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ConfigError(f"cannot keep the lab's runs in {folder}: {error.strerror or error}") from None
        self.key = self._key()
        self.runs: dict[str, Run] = {}
        self.waiting: deque[Run] = deque()
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.stopped = False
        #: called (from any thread) whenever a run changes: the app refreshes the pages
        self.listeners: list[Any] = []
        self.worker: threading.Thread | None = None
        self._load()

    # -- the key --
    def _key(self) -> str:
        path = self.folder / KEY_FILE
        if path.is_file():
            try:
                key = json.loads(read_text(path, ConfigError, "lab key"))["key"]
                if isinstance(key, str) and len(key) >= 20:
                    return key
            except (ValueError, KeyError, TypeError):
                pass
            raise ConfigError(f"{path}: not a lab key file; remove it and a new key is made")
        key = secrets.token_urlsafe(24)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # owner-only, kept by the atomic write
        write_text_atomically(path, json.dumps({"key": key}), ConfigError)
        return key

    def is_key(self, key: str | None) -> bool:
        """Is this the lab's key?  (Compared in constant time, as a seat's token.)"""
        return bool(key) and secrets.compare_digest(self.key.encode(), key.encode())

    # -- the runs on disk --
    def _load(self) -> None:
        for path in sorted(self.folder.glob(f"*{RUN_SUFFIX}")):
            try:
                data = json.loads(read_text(path, ConfigError, "lab run"))
                run = Run(data["id"], Plan.from_json(data["plan"]), data["command"], data["status"], data["created"], data.get("message", ""),
                          data.get("done", 0), None, data.get("seconds"), data.get("estimate", []), data.get("sprt"))
            except (TreehouseError, ValueError, KeyError, TypeError) as error:
                print(f"warning: the lab skips {path.name}: {clip(str(error))}", file=sys.stderr)
                continue
            if run.status not in FINAL:  # the server stopped while it waited or played
                run.status = UNFINISHED
                run.message = f"unfinished: the server stopped after {run.done} of {run.plan.total} games; run it again (the same command gives the same games)"
                self._save(run)
            self.runs[run.id] = run

    def _save(self, run: Run, status: str | None = None) -> None:
        """Write ``run``'s file (with ``status`` in place of its own, when given: the status it is about to take)."""
        data = run.as_json()
        if status is not None:
            data["status"] = status
        write_text_atomically(self.folder / f"{run.id}{RUN_SUFFIX}", json.dumps(data), ConfigError)

    def result_file(self, name: str) -> Path | None:
        """``RUN.json`` or ``RUN.html`` of a finished run (``name`` is looked up among the runs, never used as a path)."""
        run_id, dot, suffix = name.rpartition(".")
        run = self.runs.get(run_id)
        if not dot or suffix not in ("json", "html") or run is None or run.status != FINISHED:
            return None
        return self.folder / f"{run.id}.{suffix}"

    # -- the queue --
    def submit(self, plan: Plan) -> Run:
        """Queue a checked run; a :class:`~treehouse.errors.TreehouseError` when the queue is full."""
        with self.lock:
            if len(self.waiting) >= QUEUE:
                raise TreehouseError(f"{QUEUE} runs are waiting already: cancel one, or wait for the one playing to finish")
            run_id = f"{datetime.now(timezone.utc):%Y%m%d-%H%M%S}-{secrets.token_urlsafe(6)}"
            run = Run(run_id, plan, plan.command(run_id))
            self._save(run)
            self.runs[run.id] = run
            self.waiting.append(run)
            self.wake.notify()
        self._changed()
        return run

    def cancel(self, run_id: str) -> None:
        with self.lock:
            run = self.runs.get(run_id)
            if run is None or run.status not in (WAITING, PLAYING):
                raise TreehouseError("that run is not waiting or playing: there is nothing to cancel")
            if run.status == WAITING:
                self.waiting.remove(run)
            run.status, run.message = CANCELLED, f"cancelled after {run.done} of {run.plan.total} games"
            process = run.process
            self._save(run)
        if process is not None:
            _end(process)
        self._changed()

    def start(self) -> None:
        self.worker = threading.Thread(target=self._work, name="lab", daemon=True)
        self.worker.start()

    def stop(self) -> None:
        """End the run playing (it stays marked as playing on disk, so a restart says it is unfinished); again: nothing."""
        with self.lock:
            self.stopped = True
            self.wake.notify_all()
            playing = [run.process for run in self.runs.values() if run.status == PLAYING and run.process is not None]
        for process in playing:
            _end(process)

    def left_unfinished(self) -> int:
        """The runs this stop leaves unfinished (playing or waiting): a restart marks them so."""
        with self.lock:
            return sum(run.status in (WAITING, PLAYING) for run in self.runs.values())

    def summary(self) -> dict[str, Any]:
        runs = sorted(self.runs.values(), key=lambda run: (run.created, run.id), reverse=True)  # the newest first
        where = f"on the Dask cluster {self.cluster}" if self.cluster else f"on this machine, in {self.jobs} worker process{'es' if self.jobs > 1 else ''}"
        return {"type": "lab", "runs": [run.summary() for run in runs], "queue": QUEUE, "where": where}

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _work(self) -> None:
        """The lab's thread: play the runs one at a time, each in a process of its own."""
        while True:
            with self.lock:
                while not self.waiting and not self.stopped:
                    self.wake.wait()
                if self.stopped:
                    return
                run = self.waiting.popleft()
                run.status, run.started = PLAYING, time.monotonic()
                try:
                    self._save(run)
                    # its standard error goes to a file, read at the end: a pipe nobody reads while it plays could fill and stop it
                    errors = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
                    # in the lab's folder: a file in the server's folder named like a rule set ("fences") is not read as one
                    run.process = subprocess.Popen(
                        [sys.executable, "-m", "treehouse.serve.lab", str(self.folder / f"{run.id}{RUN_SUFFIX}"), str(self.jobs), self.cluster or ""],
                        stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL, text=True, cwd=self.folder, env=_run_environment(),
                    )
                except (TreehouseError, OSError) as error:  # a full disk, no process to be had: this run fails, the lab goes on
                    run.status, run.message = FAILED, f"could not start: {clip(str(error))}"
                    with suppress(TreehouseError):
                        self._save(run)
                    run = None
            self._changed()
            if run is not None:
                with errors:
                    self._follow(run, errors)

    def _follow(self, run: Run, stderr: Any) -> None:
        """Read the run's reports until its process ends, then mark it."""
        process = run.process
        said_error = ""
        for line in process.stdout:
            try:
                report = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                if "done" in report:
                    run.done = report["done"]
                if "estimate" in report and run.status == PLAYING:  # after each chunk: kept, so a restart says how far it got
                    run.estimate, run.sprt = report["estimate"], report.get("sprt")
                    self._save(run)
                said_error = report.get("error", said_error)
            self._changed()
        code = process.wait()
        stderr.seek(0)
        errors = stderr.read()
        with self.lock:
            run.process = None
            if run.status == PLAYING and not self.stopped:
                run.seconds = round(time.monotonic() - (run.started or time.monotonic()), 1)
                if code == 0:
                    status, run.done = FINISHED, run.plan.total
                    try:
                        result = json.loads(read_text(self.folder / f"{run.id}.json", ConfigError, "result"))
                        run.estimate, run.sprt = _estimate_rows(result, run.plan.question), _sprt_said(result)
                        run.done = sum(point["games"] for point in result["points"]) if "points" in result else result["games"]
                    except (TreehouseError, ValueError, KeyError) as error:
                        status, run.message = FAILED, f"its result could not be read: {clip(str(error))}"
                else:
                    last = said_error or (errors.strip().splitlines() or [f"its process ended with status {code}"])[-1]
                    status, run.message = FAILED, clip(last, 300)
                try:
                    self._save(run, status)
                finally:
                    run.status = status  # after its file: whoever sees a run ended finds it ended on disk too
        self._changed()


# --------------------------------------------------------------------------
# the page's connection
# --------------------------------------------------------------------------


@dataclass(eq=False)  # one per connection
class LabClient:
    socket: Any
    trusted: bool = False
    latest: dict | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class LabPages:
    """The lab's open pages: each trusted one gets the runs as they change (only the newest state)."""

    def __init__(self, lab: Lab) -> None:
        self.lab = lab
        self.clients: set[LabClient] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        lab.listeners.append(self._changed)

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.lab.start()

    def _changed(self) -> None:
        """From any thread: refresh the pages soon (a burst of reports coalesces into one state)."""
        loop = self.loop
        if loop is None or self._scheduled:
            return
        self._scheduled = True
        try:
            loop.call_soon_threadsafe(self._refresh)
        except RuntimeError:  # the loop is closing
            pass

    def _refresh(self) -> None:
        self._scheduled = False
        with self.lab.lock:
            summary = self.lab.summary()
        for client in self.clients:
            if client.trusted:
                client.latest = summary
                client.ready.set()

    async def serve(self, websocket: Any) -> None:
        """One page: ``hello`` with the lab's key first; then ``form``, ``run`` and ``cancel``."""
        from starlette.websockets import WebSocketDisconnect

        from treehouse.cli.common import plugins
        from treehouse.cli.human import Mistake

        await websocket.accept()
        client = LabClient(websocket)
        self.clients.add(client)
        sender = asyncio.create_task(_send_latest(client))
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    return
                text = received.get("text")
                try:
                    if text is None:
                        raise Mistake("send text messages (JSON), not binary ones")
                    message = read_lab_message(text)
                    if isinstance(message, LabHello):
                        client.trusted = self.lab.is_key(message.key)
                        if not client.trusted:
                            raise Mistake("this link's key is not this lab's: nothing can be run from it; th serve prints the lab's own link when it starts")
                        names = await asyncio.to_thread(rule_set_names, plugins())
                        await websocket.send_json({"type": "welcome", "rule_sets": names})
                        self._refresh()
                        continue
                    if not client.trusted:
                        raise Mistake("only the lab's own link (with its key, printed by th serve) can use the lab")
                    if isinstance(message, FormRequest):
                        form = await asyncio.to_thread(form_of, plugins(), message.rule_set)
                        await websocket.send_json({"type": "form", **form})
                    elif isinstance(message, RunForm):
                        try:
                            plan = await asyncio.to_thread(check_form, plugins(), message)
                        except FormMistakes as mistakes:
                            await websocket.send_json({"type": "mistakes", "mistakes": mistakes.mistakes})
                            continue
                        run = await asyncio.to_thread(self.lab.submit, plan)
                        await websocket.send_json({"type": "queued", "run": run.id, "command": run.command})
                    elif isinstance(message, CancelRun):
                        await asyncio.to_thread(self.lab.cancel, message.run)
                except (Mistake, TreehouseError) as mistake:
                    await websocket.send_json({"type": "error", "message": clip(str(mistake), 300)})
        except WebSocketDisconnect:
            pass
        finally:
            self.clients.discard(client)
            sender.cancel()


async def _send_latest(client: LabClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    try:
        while True:
            await client.ready.wait()
            client.ready.clear()
            if client.latest is not None:
                await client.socket.send_json(client.latest)
    except (WebSocketDisconnect, RuntimeError):
        return


def _run_environment() -> dict[str, str]:
    """The server's environment for a run's process, its plugin folders made absolute (the run plays in the lab's folder)."""
    from treehouse.plugins import PLUGINS_DIR_ENV

    env = dict(os.environ)
    folders = [part for part in env.get(PLUGINS_DIR_ENV, "").split(os.pathsep) if part.strip()]
    if folders:
        env[PLUGINS_DIR_ENV] = os.pathsep.join(str(Path(folder).resolve()) for folder in folders)
    return env


def _end(process: subprocess.Popen) -> None:
    """End a run's process now (its worker processes end with it: they die with their parent)."""
    try:
        process.kill()
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
