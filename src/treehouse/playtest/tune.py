"""``th tune``: search rule values toward a designer's targets.

A **tuning spec** (YAML, ``docs/tuning.md`` describes it) names a base rule
set, the seats, the rule options to vary (ranges or choices) and the
targets with their weights.  The search:

* asks Optuna's TPE sampler, seeded by ``--seed``, for trials (one value per
  option), through its ask-and-tell interface, so this module owns the loop;
* plays every trial on the **same seeds** (game ``i`` of every trial rolls the
  same dice), so trials differ by their rules alone;
* grows the games of promising trials by **successive halving**: a bracket of
  ``factor ** (rungs - 1)`` trials plays ``first`` games each, the best
  ``1/factor`` of them go on to ``first * factor`` games (the games already
  played are kept: the new ones continue the same seeds), and so on; each
  trial's loss at its last rung is told to the sampler;
* stops when the next evaluation would pass the game budget (or the time
  budget, or the trial cap).  Values the sampler asks for a second time are
  not played again: on the same seeds they give the same games, so the
  first trial's totals are reused, free of the budget.  When a whole bracket
  asked only for such values, the rule sets of a finite space it never
  asked for are queued next; when none is left, the search ends.

The **loss** of a trial is the sum over targets of ``weight * d / scale``,
``d`` being how far the target's value lies outside its band (0 inside),
plus a hundredth of the distance from the band's centre (so that among
trials inside every band, the better centred ranks first).

Everything is a function of the spec and the seed: the same trials, values
and best rule set with any ``--jobs`` or ``--cluster`` (the games are the
local runner's chunks, merged in a fixed order).  A time budget ends the
search at a moment that depends on the machine; the trials it did run are
still the same.
"""

from __future__ import annotations

import copy
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml
from pydantic import ValidationError

from treehouse.bots.options import check_bot_spec
from treehouse.config import EffectiveRules, load_yaml_file, resolve, shipped_rulesets
from treehouse.errors import ConfigError, TreehouseError
from treehouse.playtest import skill
from treehouse.playtest.aggregate import Aggregate
from treehouse.playtest.metrics import METRICS, metric_estimates, seat_rates
from treehouse.playtest.work import Batch, RuleSpec, check_batch

INSTALL_HINT = "th tune needs Optuna: pip install 'treehouse[tune]'"

#: Targets by name: what each measures (the metrics of docs/playtesting.md are targets too).
NAMED_TARGETS = {
    "first_seat_win_rate": "the first seat's sole-win rate (Wilson interval)",
    "mean_turns": "the mean game length in turns (the Duration metric)",
    "skill_gap": "the strong bot's win rate minus the weak bot's, on the same seeds (the spec's skill: entry)",
}
TARGET_NAMES = (*NAMED_TARGETS, *(m.name for m in METRICS))
SPEC_KEYS = ("rule_set", "seats", "options", "targets", "skill", "games", "trials", "chunk", "description")
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
#: How much the distance from a band's centre counts, against a band's width outside it.
CENTRE_WEIGHT = 0.01


# --------------------------------------------------------------------------
# the spec
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One rule option to vary: an integer or real range, or a list of choices."""

    name: str
    kind: str  # "int", "float" or "choice"
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple = ()

    def distribution(self, optuna: Any) -> Any:
        d = optuna.distributions
        if self.kind == "int":
            return d.IntDistribution(int(self.low), int(self.high), step=int(self.step or 1))
        if self.kind == "float":
            return d.FloatDistribution(float(self.low), float(self.high), step=self.step)
        return d.CategoricalDistribution(list(self.choices))

    def describe(self) -> str:
        if self.kind == "choice":
            return " | ".join(str(c) for c in self.choices)
        shown = (lambda x: str(int(x))) if self.kind == "int" else (lambda x: f"{x:g}")
        return f"{shown(self.low)} to {shown(self.high)}" + (f" by {shown(self.step)}" if self.step else "")


@dataclass(frozen=True)
class Target:
    """A target: a band ``[low, high]`` (either end may be open), a scale and a weight."""

    name: str
    text: str
    low: float = -math.inf
    high: float = math.inf
    scale: float = 1.0
    weight: float = 1.0

    @property
    def centre(self) -> float | None:
        return (self.low + self.high) / 2 if math.isfinite(self.low) and math.isfinite(self.high) else None

    def loss(self, value: float | None) -> float:
        if value is None or math.isnan(value):
            return self.weight * 10.0  # not measurable: as bad as ten bands away
        outside = max(self.low - value, value - self.high, 0.0) / self.scale
        centre = self.centre
        near = abs(value - centre) / self.scale if centre is not None else 0.0
        return self.weight * (outside + CENTRE_WEIGHT * near)

    def met(self, value: float | None) -> bool:
        return value is not None and self.low <= value <= self.high


@dataclass(frozen=True)
class Schedule:
    """Successive halving: rung ``k`` plays ``first * factor**k`` games; a bracket starts ``factor**(rungs-1)`` trials."""

    first: int = 40
    factor: int = 3
    rungs: int = 3

    def games(self, rung: int) -> int:
        return self.first * self.factor**rung

    @property
    def bracket(self) -> int:
        return self.factor ** (self.rungs - 1)


@dataclass(frozen=True)
class TuneSpec:
    path: Path
    base: str  # as written: a shipped name, or a path relative to the spec
    rules: EffectiveRules
    seats: tuple[str, ...]
    options: tuple[Option, ...]
    targets: tuple[Target, ...]
    skill: tuple[str, str] | None
    schedule: Schedule
    trials: int | None
    chunk: int
    description: str = ""


def _fail(path: Path, where: str, problem: str) -> ConfigError:
    return ConfigError(f"{path}: {where}: {problem}" if where else f"{path}: {problem}")


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    if isinstance(value, str) and re.fullmatch(NUMBER, value.strip()):
        return float(value)
    return None


TARGET_FORMS = "a number, 'V ± T' (or 'V +- T'), [LOW, HIGH], '>= V' or '<= V', or a mapping {target: ..., weight: W, scale: S}"


def parse_target(name: str, value: Any, path: Path) -> Target:
    """One entry of ``targets:``; see :data:`TARGET_FORMS`."""
    where = f"targets.{name}"
    if name not in TARGET_NAMES:
        raise _fail(path, where, f"unknown target; known: {', '.join(TARGET_NAMES)}")
    weight, scale = 1.0, None
    if isinstance(value, dict):
        unknown = sorted(set(map(str, value)) - {"target", "weight", "scale"})
        if unknown:
            raise _fail(path, where, f"unknown key {unknown[0]!r}; known: target, weight, scale")
        if "target" not in value:
            raise _fail(path, where, "a mapping needs target: (e.g. {target: '0.5 ± 0.02', weight: 2})")
        for key in ("weight", "scale"):
            if key in value:
                number = _number(value[key])
                if number is None or number <= 0:
                    raise _fail(path, f"{where}.{key}", f"must be a number above 0, not {value[key]!r}")
                weight, scale = (number, scale) if key == "weight" else (weight, number)
        value = value["target"]
    text = value if isinstance(value, str) else yaml.safe_dump(value, default_flow_style=True).strip()
    low, high, default_scale = _band(value)
    if low is None:
        raise _fail(path, where, f"cannot read {text!r} as a target; write {TARGET_FORMS}")
    if low > high:
        raise _fail(path, where, f"{text!r} has its low end above its high end; write [{_g(high)}, {_g(low)}]")
    return Target(name, text, low, high, scale if scale is not None else default_scale, weight)


def _g(x: float) -> str:
    return f"{x:g}"


def _band(value: Any) -> tuple[float | None, float, float]:
    """``(low, high, default scale)`` of a target as written, ``low`` None if unreadable."""
    single = _number(value)
    if single is not None:
        return single, single, max(abs(single) * 0.05, 0.01)
    if isinstance(value, list):
        if len(value) == 2 and all(_number(v) is not None for v in value):
            low, high = (_number(v) for v in value)
            return low, high, max((high - low) / 2, 0.01) if low <= high else 1.0
        return None, 0.0, 0.0
    if not isinstance(value, str):
        return None, 0.0, 0.0
    text = value.strip()
    match = re.fullmatch(rf"({NUMBER})\s*(?:±|\+-|\+/-)\s*({NUMBER})", text)
    if match:
        centre, tolerance = float(match[1]), float(match[2])
        if tolerance < 0:
            return None, 0.0, 0.0
        return centre - tolerance, centre + tolerance, max(tolerance, 0.01)
    match = re.fullmatch(rf"(>=|<=|≥|≤|>|<)\s*({NUMBER})", text)
    if match:
        bound = float(match[2])
        scale = max(abs(bound) * 0.1, 0.01)
        return (bound, math.inf, scale) if match[1] in (">=", "≥", ">") else (-math.inf, bound, scale)
    match = re.fullmatch(rf"\[\s*({NUMBER})\s*,\s*({NUMBER})\s*\]", text)
    if match:
        low, high = float(match[1]), float(match[2])
        return low, high, max((high - low) / 2, 0.01) if low <= high else 1.0
    return None, 0.0, 0.0


def parse_option(name: str, value: Any, rules: EffectiveRules, path: Path) -> Option:
    """One entry of ``options:``: ``[a, b, c]`` (choices), ``{low: L, high: H[, step: S]}`` or ``{choices: [...]}``."""
    where = f"options.{name}"
    fields = rules.variant_class.Rules.model_fields
    key = name.removeprefix("rules.")
    if key not in fields:
        raise _fail(path, where, f"{rules.variant_class.name} has no rule option {key!r}; its options: {', '.join(fields)}")
    if isinstance(value, list):
        value = {"choices": value}
    if not isinstance(value, dict):
        raise _fail(path, where, f"write the choices as a list [a, b] or a range as {{low: L, high: H}}, not {value!r}")
    unknown = sorted(set(map(str, value)) - {"low", "high", "step", "choices"})
    if unknown:
        raise _fail(path, where, f"unknown key {unknown[0]!r}; known: low, high, step, choices")
    if "choices" in value:
        if set(value) != {"choices"}:
            raise _fail(path, where, "give either choices: or low:/high:, not both")
        choices = value["choices"]
        if not isinstance(choices, list) or len(choices) < 2:
            raise _fail(path, where, f"choices must be a list of at least two values, not {choices!r}")
        if any(isinstance(c, (list, dict)) or c is None for c in choices):
            raise _fail(path, where, "each choice must be a plain value (a word, a number, true or false)")
        if len(set(map(repr, choices))) != len(choices):
            raise _fail(path, where, "a choice is listed twice")
        option = Option(key, "choice", choices=tuple(choices))
        samples = choices
    else:
        if "low" not in value or "high" not in value:
            raise _fail(path, where, "a range needs both low: and high:")
        low, high, step = value["low"], value["high"], value.get("step")
        numbers = [v for v in (low, high, step) if v is not None]
        if any(_number(v) is None or isinstance(v, str) for v in numbers):
            raise _fail(path, where, f"low, high and step must be numbers, not {', '.join(repr(v) for v in numbers if _number(v) is None or isinstance(v, str))}")
        if low >= high:
            raise _fail(path, where, f"low ({low}) must be below high ({high})")
        if step is not None and step <= 0:
            raise _fail(path, where, f"step must be above 0, not {step}")
        integral = all(isinstance(v, int) for v in numbers)
        if integral and step is not None and (high - low) % step:
            raise _fail(path, where, f"the range {low} to {high} is not a whole number of steps of {step}")
        option = Option(key, "int" if integral else "float", float(low), float(high), float(step) if step is not None else None)
        samples = [low, high]
    for sample in samples:
        try:
            rules.variant_class.Rules(**{**rules.rules.model_dump(), key: sample})
        except ValidationError as error:
            problem = error.errors()[0]
            raise _fail(path, where, f"{sample!r} is not a valid {key}: {problem['msg']}") from None
    return option


def load_spec(path: Path, plugins: Any) -> TuneSpec:
    """Read and check a tuning spec; every problem is one :class:`ConfigError` line naming the key."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{path} is a folder, not a tuning spec (a YAML file such as docs/fences-tune.yaml)")
    data = load_yaml_file(path, "tuning spec")
    if not isinstance(data, dict):
        raise _fail(path, "", f"a tuning spec is a mapping of keys ({', '.join(SPEC_KEYS[:4])}, ...), not {type(data).__name__}")
    unknown = sorted(set(map(str, data)) - set(SPEC_KEYS))
    if unknown:
        raise _fail(path, "", f"unknown key {unknown[0]!r}; known: {', '.join(SPEC_KEYS)}")
    for key in ("rule_set", "options", "targets"):
        if key not in data:
            raise _fail(path, "", f"missing {key}: (see docs/tuning.md for an example spec)")
    base = data["rule_set"]
    if not isinstance(base, str) or not base.strip():
        raise _fail(path, "rule_set", f"name a rule set (a shipped name such as fences, or a YAML file), not {base!r}")
    beside = path.parent / base
    try:
        if beside.suffix in (".yaml", ".yml") or beside.is_file():
            rules = resolve(plugins, config=beside)
        else:
            rules = resolve(plugins, variant=base)
    except TreehouseError as error:
        raise _fail(path, "rule_set", str(error)) from None
    seats = _seats(data.get("seats"), rules, plugins, path)
    options_data = data["options"]
    if not isinstance(options_data, dict) or not options_data:
        raise _fail(path, "options", "a mapping of rule options to vary, e.g. {stack_height_2p: {low: 2, high: 6}, line_hits: [new, every_check]}")
    options = tuple(parse_option(str(name), value, rules, path) for name, value in options_data.items())
    targets_data = data["targets"]
    if not isinstance(targets_data, dict) or not targets_data:
        raise _fail(path, "targets", "a mapping of targets, e.g. {first_seat_win_rate: '0.5 ± 0.02', mean_turns: [15, 30]}")
    targets = tuple(parse_target(str(name), value, path) for name, value in targets_data.items())
    skill_pair = _skill(data.get("skill"), targets, seats, plugins, path)
    schedule = _schedule(data.get("games"), path)
    trials = data.get("trials")
    if trials is not None and (not isinstance(trials, int) or isinstance(trials, bool) or not 1 <= trials <= 100_000):
        raise _fail(path, "trials", f"the most trials to run, a whole number from 1 to 100000, not {trials!r}")
    chunk = data.get("chunk", 20)
    if not isinstance(chunk, int) or isinstance(chunk, bool) or not 1 <= chunk <= 10_000:
        raise _fail(path, "chunk", f"games per work unit, a whole number from 1 to 10000, not {chunk!r}")
    description = data.get("description") or ""
    spec = TuneSpec(path, base, rules, seats, options, targets, skill_pair, schedule, trials, chunk, str(description))
    check_batch(Batch((RuleSpec.from_effective(rules),), seats), plugins)
    return spec


def _seats(value: Any, rules: EffectiveRules, plugins: Any, path: Path) -> tuple[str, ...]:
    if value is None:
        return (plugins.bot("random").name,) * rules.variant_class.default_players
    if not isinstance(value, list) or not value or not all(isinstance(s, str) for s in value):
        raise _fail(path, "seats", f"a list of bots, one per seat, e.g. [search, search], not {value!r}")
    try:
        return tuple(check_bot_spec(plugins, s) for s in value)
    except TreehouseError as error:
        raise _fail(path, "seats", str(error)) from None


def _skill(value: Any, targets: tuple[Target, ...], seats: tuple[str, ...], plugins: Any, path: Path) -> tuple[str, str] | None:
    wanted = any(t.name == "skill_gap" for t in targets)
    if value is None:
        return (seats[0], "random") if wanted else None
    if not isinstance(value, dict) or set(map(str, value)) - {"strong", "weak"}:
        raise _fail(path, "skill", f"a mapping {{strong: BOT, weak: BOT}}, not {value!r}")
    strong, weak = value.get("strong", seats[0]), value.get("weak", "random")
    try:
        return check_bot_spec(plugins, str(strong)), check_bot_spec(plugins, str(weak))
    except TreehouseError as error:
        raise _fail(path, "skill", str(error)) from None


def _schedule(value: Any, path: Path) -> Schedule:
    if value is None:
        return Schedule()
    if not isinstance(value, dict) or set(map(str, value)) - {"first", "factor", "rungs"}:
        raise _fail(path, "games", f"a mapping {{first: GAMES, factor: F, rungs: R}} (successive halving), not {value!r}")
    limits = {"first": (1, 1_000_000), "factor": (2, 10), "rungs": (1, 6)}
    found = {}
    for key, (lo, hi) in limits.items():
        number = value.get(key, getattr(Schedule, key))
        if not isinstance(number, int) or isinstance(number, bool) or not lo <= number <= hi:
            raise _fail(path, f"games.{key}", f"a whole number from {lo} to {hi}, not {number!r}")
        found[key] = number
    return Schedule(**found)


# --------------------------------------------------------------------------
# the search
# --------------------------------------------------------------------------


#: The most rule sets a finite options' space may hold for the search to list them.
MAX_COMBINATIONS = 10_000


def combinations(spec: TuneSpec) -> list[dict[str, Any]] | None:
    """Every rule set of a finite options' space (choices and whole-number
    ranges), in a fixed order; ``None`` for a space with a real range or too big."""
    import itertools

    axes = []
    for option in spec.options:
        if option.kind == "choice":
            axes.append(list(option.choices))
        elif option.kind == "int":
            axes.append(list(range(int(option.low), int(option.high) + 1, int(option.step or 1))))
        else:
            return None
    if math.prod(len(axis) for axis in axes) > MAX_COMBINATIONS:
        return None
    return [dict(zip((o.name for o in spec.options), values)) for values in itertools.product(*axes)]


@dataclass
class Trial:
    """One set of values: its games so far and what they measured."""

    number: int
    params: dict[str, Any]
    rule_spec: RuleSpec
    games: int = 0
    main: Aggregate | None = None
    skill: Aggregate | None = None
    values: dict[str, tuple[float | None, float | None, float | None]] = field(default_factory=dict)
    loss: float = math.inf
    rung: int = -1
    history: list[tuple[int, float]] = field(default_factory=list)  # (games, loss) at each rung


def measure(spec: TuneSpec, main: Aggregate, skill_games: Aggregate | None) -> dict[str, tuple[float | None, float | None, float | None]]:
    """Every target's value and 95% interval from a trial's totals."""
    estimates = metric_estimates(main)
    values = {}
    for target in spec.targets:
        if target.name == "first_seat_win_rate":
            seat = seat_rates(main)[0]
            values[target.name] = (seat["rate"], seat["low"], seat["high"])
        elif target.name == "mean_turns":
            e = estimates["Duration"]
            values[target.name] = (e.value, e.low, e.high)
        elif target.name == "skill_gap":
            values[target.name] = skill.gap(skill_games) if skill_games is not None else (None, None, None)
        else:
            e = estimates[target.name]
            values[target.name] = (e.value, e.low, e.high)
    return values


def loss_of(spec: TuneSpec, values: dict) -> float:
    return sum(t.loss(values[t.name][0]) for t in spec.targets)


def trial_rules(spec: TuneSpec, number: int, params: dict[str, Any]) -> RuleSpec:
    base = RuleSpec.from_effective(spec.rules)
    rules = dict(base.rules) | params
    try:
        checked = spec.rules.variant_class.Rules(**rules).model_dump(mode="json")
    except ValidationError as error:
        raise TreehouseError(f"trial {number}: the values {params} do not make a valid rule set: {error.errors()[0]['msg']}") from None
    return RuleSpec(f"{spec.rules.name} trial {number}", base.variant, tuple(sorted(checked.items())), base.turn_cap, base.house_rules)


@dataclass
class Search:
    """The state of one ``th tune`` run (what the results are written from)."""

    spec: TuneSpec
    seed: int
    budget_games: int
    budget_seconds: float | None = None
    trials: list[Trial] = field(default_factory=list)
    games_played: int = 0
    stopped_by: str = ""
    exit_code: int = 0
    seconds: float = 0.0

    def cost(self, trial: Trial, games: int) -> int:
        return (games - trial.games) * (2 if self.spec.skill is not None else 1)

    def ranked(self) -> list[Trial]:
        """Evaluated trials, best first: the most games, then the lowest loss, then the
        earliest; values asked again appear once (their first trial with the most games)."""
        seen, found = set(), []
        for trial in sorted((t for t in self.trials if t.games), key=lambda t: (-t.games, t.loss, t.number)):
            values = repr(sorted(trial.params.items()))
            if values not in seen:
                seen.add(values)
                found.append(trial)
        return found


def run_search(
    spec: TuneSpec,
    seed: int,
    budget_games: int,
    play: Callable[[Batch, int, int], Aggregate],
    budget_seconds: float | None = None,
    progress: Callable[[Search], None] | None = None,
) -> Search:
    """The search loop; ``play(batch, games, first)`` plays games ``[first, games)`` of a batch.

    Interrupted (Ctrl-C), it returns what it has: ``stopped_by`` says so.
    """
    try:
        import optuna
    except ImportError:
        raise ConfigError(INSTALL_HINT) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    distributions = {o.name: o.distribution(optuna) for o in spec.options}
    search = Search(spec, seed, budget_games, budget_seconds)
    began = time.monotonic()
    schedule = spec.schedule
    first_rung = schedule.games(0) * (2 if spec.skill is not None else 1)
    if first_rung > budget_games:
        raise ConfigError(f"--budget-games {budget_games} is less than one trial's first rung ({first_rung} games); raise it, or lower games.first in the spec")

    played: dict[tuple[str, int], tuple[Aggregate, Aggregate | None]] = {}
    asked_values: set[str] = set()

    def evaluate(trial: Trial, rung: int) -> bool:
        games = schedule.games(rung)
        cost = search.cost(trial, games)
        if (repr(sorted(trial.params.items())), games) in played:
            cost = 0
        if search.games_played + cost > budget_games:
            search.stopped_by = f"the game budget ({budget_games})"
            return False
        if budget_seconds is not None and time.monotonic() - began > budget_seconds:
            search.stopped_by = f"the time budget ({budget_seconds:g} s)"
            return False
        key = (repr(sorted(trial.params.items())), games)
        if key in played:  # the sampler asked for values already played: the same seeds give the same games
            trial.main, trial.skill = copy.deepcopy(played[key])
            cost = 0
        else:
            main = play(Batch((trial.rule_spec,), spec.seats, seed), games, trial.games)
            trial.main = main if trial.main is None else trial.main.merge(main)
            if spec.skill is not None:
                strong, weak = spec.skill
                more = play(skill.batch(trial.rule_spec, strong, weak, len(spec.seats), seed), games, trial.games)
                trial.skill = more if trial.skill is None else trial.skill.merge(more)
            played[key] = copy.deepcopy((trial.main, trial.skill))
        search.games_played += cost
        trial.games, trial.rung = games, rung
        trial.values = measure(spec, trial.main, trial.skill)
        trial.loss = loss_of(spec, trial.values)
        trial.history.append((games, trial.loss))
        if progress is not None:
            progress(search)
        return True

    try:
        while not search.stopped_by:
            size = schedule.bracket
            if spec.trials is not None:
                size = min(size, spec.trials - len(search.trials))
                if size <= 0:
                    search.stopped_by = f"the trial cap ({spec.trials})"
                    break
            bracket = []
            for _ in range(size):
                asked = study.ask(distributions)
                trial = Trial(asked.number, dict(asked.params), trial_rules(spec, asked.number, dict(asked.params)))
                asked_values.add(repr(sorted(trial.params.items())))
                bracket.append((asked, trial))
                search.trials.append(trial)
            alive = [t for _, t in bracket]
            before = search.games_played
            for rung in range(schedule.rungs):
                for trial in alive:
                    if not evaluate(trial, rung):
                        break
                if search.stopped_by:
                    break
                keep = max(1, len(alive) // schedule.factor)
                alive = sorted(alive, key=lambda t: (t.loss, t.number))[:keep]
            for asked, trial in bracket:
                if trial.games:
                    for games, loss in trial.history:
                        asked.report(loss, step=games)
                    study.tell(asked, trial.loss)
                else:  # the budget ran out before it was played
                    study.tell(asked, state=optuna.trial.TrialState.FAIL)
            if search.games_played == before and not search.stopped_by:
                # Every value the sampler asked for had been played.  In a finite
                # space, try the rule sets it never asked for (in a fixed order);
                # when none is left, or the space is not finite, stop.
                unplayed = [p for p in combinations(spec) or () if repr(sorted(p.items())) not in asked_values]
                if unplayed:
                    for params in unplayed[: schedule.bracket]:
                        study.enqueue_trial(params)
                else:
                    search.stopped_by = (
                        "every rule set of the options' space was played" if combinations(spec) is not None else "a bracket of values all played before"
                    )
    except KeyboardInterrupt as interrupted:  # Ctrl-C, or SIGTERM/SIGHUP through the runner
        search.stopped_by = getattr(interrupted, "reason", None) or "Ctrl-C"  # a cluster left with no live worker says so
        search.exit_code = getattr(interrupted, "exit_code", 130)
    search.trials = [t for t in search.trials if t.games]
    search.seconds = time.monotonic() - began
    return search


# --------------------------------------------------------------------------
# the results
# --------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    return float(value) if isinstance(value, float) else value


def trial_rows(search: Search) -> tuple[list[str], list[list[Any]]]:
    """The CSV of every trial, in the order they were asked."""
    spec = search.spec
    header = ["trial", "games", "rung", "loss", *(o.name for o in spec.options)]
    for target in spec.targets:
        header += [target.name, f"{target.name}_low", f"{target.name}_high", f"{target.name}_met"]
    rows = []
    for trial in sorted(search.trials, key=lambda t: t.number):
        row = [trial.number, trial.games, trial.rung, round(trial.loss, 6), *(trial.params[o.name] for o in spec.options)]
        for target in spec.targets:
            value, low, high = trial.values[target.name]
            row += [value, low, high, target.met(value)]
        rows.append(row)
    return header, rows


def extends_reference(spec: TuneSpec, out: Path) -> str:
    """How a rule set written into ``out`` names the base: a shipped name as is,
    a file by its path relative to ``out`` (absolute if there is none)."""
    if spec.base in shipped_rulesets() or not (spec.path.parent / spec.base).exists():
        return spec.base
    import os

    base = (spec.path.parent / spec.base).resolve()
    try:
        return os.path.relpath(base, out.resolve())
    except ValueError:  # another drive
        return str(base)


def best_rule_set(search: Search, trial: Trial, rank: int, out: Path) -> str:
    """A ready-to-use rule set: ``extends`` the base and sets the trial's values."""
    spec = search.spec
    lines = [
        f"# th tune {spec.path.name} --seed {search.seed}: rank {rank} of {len(search.ranked())} rule sets tried (trial {trial.number}, {trial.games} games on the same seeds)",
        f"# seats: {', '.join(spec.seats)}; loss {trial.loss:.4f}",
    ]
    for target in spec.targets:
        value, low, high = trial.values[target.name]
        shown = "n/a" if value is None else f"{value:.4g}" + ("" if low is None else f" [95%: {low:.4g}, {high:.4g}]")
        lines.append(f"# {target.name}: {shown}; target {target.text}{' (met)' if target.met(value) else ''}")
    document = {
        "description": f"{spec.rules.name} tuned by th tune (trial {trial.number}): {', '.join(f'{k}={v}' for k, v in trial.params.items())}",
        "extends": extends_reference(spec, out),
        "rules": {name: _plain(value) for name, value in trial.params.items()},
    }
    return "\n".join(lines) + "\n" + yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


def result_json(search: Search, best: int = 3) -> dict:
    """Everything the report and ``--json`` show."""
    spec = search.spec
    return {
        "spec": str(spec.path),
        "rule_set": spec.rules.name,
        "variant": spec.rules.variant_class.name,
        "seed": search.seed,
        "seats": list(spec.seats),
        "skill": list(spec.skill) if spec.skill else None,
        "budget_games": search.budget_games,
        "games_played": search.games_played,
        "stopped_by": search.stopped_by or "the search ran to its end",
        "schedule": {"first": spec.schedule.first, "factor": spec.schedule.factor, "rungs": spec.schedule.rungs},
        # a choice option's values in their declared order: the report's axis follows it
        "options": [{"name": o.name, "kind": o.kind, "range": o.describe(), **({"choices": list(o.choices)} if o.kind == "choice" else {})} for o in spec.options],
        "targets": [{"name": t.name, "target": t.text, "low": t.low if math.isfinite(t.low) else None, "high": t.high if math.isfinite(t.high) else None, "weight": t.weight, "scale": t.scale} for t in spec.targets],
        "trials": [
            {
                "trial": t.number, "games": t.games, "rung": t.rung, "loss": t.loss, "params": t.params,
                "values": {name: {"value": v, "low": lo, "high": hi} for name, (v, lo, hi) in t.values.items()},
                "history": [list(h) for h in t.history],
            }
            for t in sorted(search.trials, key=lambda t: t.number)
        ],
        "best": [t.number for t in search.ranked()[:best]],
        "seconds": round(search.seconds, 3),
    }
