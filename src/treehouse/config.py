"""Rule sets: YAML files that choose a variant and set its rule options.

A rule set looks like this (``variants/classic-wiki.yaml``)::

    variant: classic
    description: The Icehouse wiki's reading of the rules.
    extends: classic            # another rule set: a name in variants/, or a path
    turn_cap: 1000              # a game still going after this many turns is a draw (1 to 1,000,000)
    house_rules: []             # house rules to turn on: names, with options as bots take them ("wild-repair(max=1)")
    rules:
      dig_in_place: false
      house_decline: reroll

Loading resolves ``extends`` (child values win, ``rules`` merged key by key),
applies ``--set key=value`` overrides (``key`` is a top-level field, a rule
option, or ``rules.<option>``; ``value`` is read as YAML, so ``false`` and
``3`` are a bool and an int), then validates the rules against the variant's
pydantic model.  :class:`EffectiveRules` remembers where each value came from.

Every mistake is a :class:`~treehouse.errors.ConfigError` or
:class:`~treehouse.errors.UnknownNameError` with one line naming the file,
the line where YAML gives one, the key, and what would be right.

What a rule set may hold is bounded before anything looks at it (docs/authoring.md,
"Limits"): a file of at most 1 MB, values nested at most ``MAX_DEPTH`` deep,
at most ``MAX_SIZE`` values once YAML aliases are expanded (a "billion laughs"
file is refused, not expanded), whole numbers of at most ``MAX_DIGITS`` digits,
and no key twice in one mapping.  Options are strict: ``true`` is not 1, and
``1`` or ``"yes"`` is not ``true``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterable

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from treehouse.errors import ConfigError, TreehouseError, quote, unknown
from treehouse.kernel.fast import compiled, gate
from treehouse.kernel.hooks import game_hooks, hook_conflicts
from treehouse.kernel.variant import Variant
from treehouse.textfiles import read_text

DEFAULT = "default"
OVERRIDE = "--set"


class RuleSetFile(BaseModel):
    """The shape of one YAML rule-set file (before ``extends`` is resolved)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str | None = None
    description: str | None = None
    extends: str | None = None
    turn_cap: int | None = Field(None, ge=1, le=1_000_000)
    house_rules: list[str] | None = None
    rules: dict[str, Any] = Field(default_factory=dict)


TOP_LEVEL_KEYS = ("turn_cap", "house_rules", "description")
DEFAULT_TURN_CAP = 1000


@dataclass
class EffectiveRules:
    """A rule set with everything resolved: what a game is actually played by."""

    name: str
    variant_class: type[Variant]
    rules: Any
    description: str = ""
    turn_cap: int = DEFAULT_TURN_CAP
    #: the house rules in force, as canonical specs (``wild-repair(max=1)``), in the rule set's order
    house_rules: list[str] = field(default_factory=list)
    #: one line for each thing worth a warning (two house rules answering one hook)
    warnings: list[str] = field(default_factory=list)
    #: the line (or none) naming the house rules that keep bots' looks off the
    #: compiled core (kernel/fast/gate.py): said by the commands that play games
    slow: list[str] = field(default_factory=list)
    #: key -> where its value came from: "default", a file path, or "--set"
    sources: dict[str, str] = field(default_factory=dict)
    #: the files read, the rule set first and what it extends after
    chain: list[str] = field(default_factory=list)

    def variant(self) -> Variant:
        return self.variant_class(self.rules)

    def house_rule_plugins(self, plugins: Any) -> list[Any]:
        """The house rules in force as :class:`~treehouse.kernel.hooks.HouseRule`
        values (checked against the variant, options validated)."""
        return [plugins.house_rule(spec, self.variant_class) for spec in self.house_rules]

    def new_game(self, plugins: Any, seats: Any, rng: Any, **options: Any) -> Any:
        """A :class:`~treehouse.kernel.engine.Game` played by these rules: the
        variant, the turn cap and the house rules, plus any engine ``options``
        (``record=``, ``observer=``)."""
        from treehouse.kernel.engine import Game

        return Game(self.variant(), seats, rng, turn_cap=self.turn_cap, house_rules=self.house_rule_plugins(plugins), **options)

    def rows(self) -> list[tuple[str, Any, str]]:
        """``(key, value, source)`` for every setting, rule options as ``rules.<key>``."""
        rows: list[tuple[str, Any, str]] = [
            ("variant", self.variant_class.name, self.sources.get("variant", DEFAULT)),
            ("turn_cap", self.turn_cap, self.sources.get("turn_cap", DEFAULT)),
            ("house_rules", self.house_rules, self.sources.get("house_rules", DEFAULT)),
        ]
        for key, value in self.rules.model_dump(mode="json").items():
            rows.append((f"rules.{key}", value, self.sources.get(f"rules.{key}", DEFAULT)))
        return rows


# --------------------------------------------------------------------------
# finding rule sets
# --------------------------------------------------------------------------


def ruleset_dirs() -> list[Path]:
    """Where shipped rule sets live: the wheel's copy, or the checkout's ``variants/``."""
    dirs = []
    packaged = Path(str(files("treehouse"))) / "rulesets"
    if packaged.is_dir():
        dirs.append(packaged)
    checkout = Path(__file__).resolve().parents[2] / "variants"
    if checkout.is_dir() and checkout not in dirs:
        dirs.append(checkout)
    return dirs


def shipped_rulesets() -> dict[str, Path]:
    """Rule-set name (the file stem) -> path, for every shipped rule set."""
    found: dict[str, Path] = {}
    for directory in reversed(ruleset_dirs()):  # the first directory wins
        for path in sorted(directory.glob("*.yaml")):
            found[path.stem] = path
    return dict(sorted(found.items()))


def _locate(reference: str, relative_to: Path | None) -> Path | None:
    """A rule set named by ``extends`` or ``--config``: a path, or a shipped name."""
    candidate = Path(reference)
    if relative_to is not None and not candidate.is_absolute():
        beside = relative_to.parent / candidate
        if beside.is_file():
            return beside
        if beside.with_suffix(".yaml").is_file():
            return beside.with_suffix(".yaml")
    if candidate.is_file():
        return candidate
    return shipped_rulesets().get(reference)


# --------------------------------------------------------------------------
# reading YAML, bounded
# --------------------------------------------------------------------------

#: The biggest rule-set file read, in bytes.
MAX_FILE = 1_000_000
#: How deep values may nest (a rule set needs three or four levels).
MAX_DEPTH = 32
#: How many values (scalars, lists and mappings) a rule set or --set value may
#: hold once YAML aliases are expanded.
MAX_SIZE = 10_000
#: The most digits of a whole number.
MAX_DIGITS = 30


class _Refused(yaml.YAMLError):
    """YAML that parses but is refused: too deep, too big, a key twice, a huge number."""

    def __init__(self, problem: str, mark: Any = None) -> None:
        super().__init__(problem)
        self.problem, self.problem_mark = problem, mark


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing what :func:`load_yaml` documents as refused."""

    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Refused(f"values nested more than {MAX_DEPTH} deep", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            lines: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = lines.get(key)
                except TypeError:  # an unhashable key: the safe loader says so itself
                    continue
                line = key_node.start_mark.line + 1
                if first is not None:
                    raise _Refused(f"the key {quote(key)} is given twice, on lines {first} and {line}; keep one", key_node.start_mark)
                lines[key] = line
        return super().construct_mapping(node, deep)

    def construct_yaml_int(self, node: Any) -> Any:
        digits = sum(c.isdigit() for c in node.value)
        if digits > MAX_DIGITS:
            raise _Refused(f"a whole number of {digits} digits; numbers here have at most {MAX_DIGITS}", node.start_mark)
        return super().construct_yaml_int(node)


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _BoundedLoader.construct_yaml_int)


def _expanded_size(value: Any, sizes: dict[int, int]) -> int:
    """How many values ``value`` holds with every alias expanded, counted once
    per distinct object (so a billion laughs costs microseconds); a value that
    contains itself counts as too big."""
    if not isinstance(value, (list, dict)):
        return 1
    known = sizes.get(id(value))
    if known is not None:
        return known
    sizes[id(value)] = MAX_SIZE + 1  # still being counted: met again means a loop
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
    total = 1
    for item in items:
        total += _expanded_size(item, sizes)
        if total > MAX_SIZE:
            break
    sizes[id(value)] = total
    return total


def load_yaml(text: str) -> Any:
    """``text`` read as YAML within the limits above; raises ``yaml.YAMLError``
    (a ``problem`` and a ``problem_mark`` where it has one)."""
    loader = _BoundedLoader(text)
    try:
        value = loader.get_single_data()
    except RecursionError:  # a limit of the parser below ours; say it the same way
        raise _Refused(f"values nested more than {MAX_DEPTH} deep") from None
    finally:
        loader.dispose()
    if _expanded_size(value, {}) > MAX_SIZE:
        raise _Refused(f"more than {MAX_SIZE} values once its aliases are expanded (or a value that contains itself)")
    return value


def _yaml_problem(error: yaml.YAMLError) -> str:
    return getattr(error, "problem", None) or str(error).splitlines()[0]


# --------------------------------------------------------------------------
# reading one file
# --------------------------------------------------------------------------


def load_yaml_file(path: Path, what: str) -> Any:
    """The YAML file at ``path`` (a ``what``: "rule set", "tuning spec"), read
    within the limits above; every problem is one :class:`ConfigError` line
    naming the file and, where it can, the line and column."""
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # read_text below says what is wrong
    if size > MAX_FILE:
        raise ConfigError(f"{path}: a {what} file is at most {MAX_FILE:,} bytes, not {size:,}")
    text = read_text(path, ConfigError, what)
    try:
        return load_yaml(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}, line {mark.line + 1}, column {mark.column + 1}" if mark else str(path)
        kind = "refused YAML" if isinstance(error, _Refused) else "malformed YAML"
        raise ConfigError(f"{where}: {kind}: {_yaml_problem(error)}") from None


def read_ruleset_file(path: Path) -> RuleSetFile:
    data = load_yaml_file(path, "rule set")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a rule set is a mapping of keys (variant, extends, rules, ...), not a {type(data).__name__}")
    try:
        return RuleSetFile(**data)
    except ValidationError as error:
        raise ConfigError(f"{path}: {_first_problem(error, known=RuleSetFile.model_fields)}") from None


def _first_problem(error: ValidationError, known: Iterable[str] = ()) -> str:
    """One line for the first thing pydantic disliked, naming the key."""
    problem = error.errors()[0]
    key = ".".join(str(part) for part in problem["loc"])
    if problem["type"] == "extra_forbidden":
        return f"unknown key {key!r}; known: {', '.join(sorted(known))}"
    return f"{key}: {problem['msg']} (got {quote(problem.get('input'))})"


# --------------------------------------------------------------------------
# resolving a rule set
# --------------------------------------------------------------------------


def _chain(path: Path) -> list[tuple[Path, RuleSetFile]]:
    """The file and everything it extends, child first."""
    chain: list[tuple[Path, RuleSetFile]] = []
    seen: set[Path] = set()
    while True:
        resolved = path.resolve()
        if resolved in seen:
            names = " -> ".join(str(p) for p, _ in chain) + f" -> {path}"
            raise ConfigError(f"rule sets extend each other in a loop: {names}")
        seen.add(resolved)
        data = read_ruleset_file(path)
        chain.append((path, data))
        if data.extends is None:
            return chain
        parent = _locate(data.extends, path)
        if parent is None:
            raise ConfigError(f"{path}: extends: {unknown('rule set', data.extends, shipped_rulesets())}") from None
        path = parent


def _variant_named(plugins: Any, name: str) -> type[Variant]:
    """The variant ``--variant NAME`` plays: a variant's name or alias, or the variant of a shipped rule set."""
    key = name.strip().lower()
    if key not in plugins.aliases and key in shipped_rulesets():
        for _path, data in _chain(shipped_rulesets()[key]):
            if data.variant is not None:
                return plugins.variant(data.variant)
    return plugins.variant(name)


def parse_override(text: str, option: str = OVERRIDE) -> tuple[str, Any]:
    """``"key=value"`` -> ``("key", value)``, the value read as YAML
    (``option`` names the command-line option in the error: ``--set-b``)."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ConfigError(f"bad {option} {quote(text)}: expected key=value, e.g. {option} dig_in_place=false")
    try:
        value = load_yaml(raw) if raw.strip() else ""
    except _Refused as error:
        raise ConfigError(f"bad {option} {quote(text)}: {error.problem}") from None
    except yaml.YAMLError:
        value = raw
    return key, value


def resolve(
    plugins: Any,
    variant: str | None = None,
    config: str | Path | None = None,
    overrides: Iterable[str] = (),
) -> EffectiveRules:
    """The effective rules for ``--variant``/``--config``/``--set``.

    ``variant`` may name a shipped rule set (``classic-wiki``) or a variant
    (``classic``, its defaults); ``config`` is a YAML file.  With both, the
    file's variant must be the named one.
    """
    chain: list[tuple[Path, RuleSetFile]] = []
    if config is not None:
        path = Path(config)
        if path.is_dir():
            raise ConfigError(f"{path} is a folder, not a rule set file (a YAML file such as variants/classic.yaml)")
        if not path.is_file():
            raise ConfigError(f"no rule set file at {path}")
        chain = _chain(path)
    elif variant is not None and variant.strip().lower() in shipped_rulesets():
        chain = _chain(shipped_rulesets()[variant.strip().lower()])
    elif variant is None:
        raise ConfigError("name a variant (--variant NAME) or a rule set file (--config FILE)")

    sources: dict[str, str] = {}
    merged: dict[str, Any] = {}
    rule_values: dict[str, Any] = {}
    for path, data in reversed(chain):  # the root first, so children override
        for key in ("variant", *TOP_LEVEL_KEYS):
            value = getattr(data, key)
            if value is not None:
                merged[key] = value
                sources[key] = str(path)
        for key, value in data.rules.items():
            rule_values[key] = value
            sources[f"rules.{key}"] = str(path)

    name_in_file = merged.get("variant")
    if name_in_file is None and variant is None:
        raise ConfigError(f"{chain[0][0]}: the rule set names no variant; add 'variant: NAME'")
    variant_class = plugins.variant(name_in_file or variant)
    if variant is not None and config is not None:
        asked = _variant_named(plugins, variant)
        if asked is not variant_class:
            raise ConfigError(
                f"--variant {quote(variant)} plays {asked.name}, but {config} is a rule set for {variant_class.name}; give one of them, or ones that agree"
            )
    sources.setdefault("variant", str(chain[0][0]) if chain else "--variant")

    option_names = set(variant_class.Rules.model_fields)
    for text in overrides:
        key, value = parse_override(text)
        if key.startswith("rules."):
            key = key[len("rules."):]
            if key not in option_names:
                raise unknown(f"{variant_class.name} rule option", key, option_names)
        if key in TOP_LEVEL_KEYS:
            merged[key] = value
            sources[key] = OVERRIDE
        elif key in option_names:
            rule_values[key] = value
            sources[f"rules.{key}"] = OVERRIDE
        else:
            raise unknown("option", key, sorted(option_names | set(TOP_LEVEL_KEYS)))

    unknown_rules = set(rule_values) - option_names
    if unknown_rules:
        key = sorted(unknown_rules)[0]
        raise ConfigError(f"{sources[f'rules.{key}']}: unknown {variant_class.name} rule option {key!r}; known: {', '.join(sorted(option_names))}")
    try:
        rules = variant_class.Rules(**rule_values)
    except ValidationError as error:
        problem = error.errors()[0]
        key = str(problem["loc"][0]) if problem["loc"] else "?"
        where = sources.get(f"rules.{key}", DEFAULT)
        raise ConfigError(f"{where}: rules.{key}: {problem['msg']} (got {quote(problem.get('input'))})") from None
    try:
        top = RuleSetFile(**{k: merged[k] for k in TOP_LEVEL_KEYS if k in merged})
    except ValidationError as error:
        key = str(error.errors()[0]["loc"][0]) if error.errors()[0]["loc"] else "?"
        raise ConfigError(f"{sources.get(key, DEFAULT)}: {_first_problem(error)}") from None

    where = sources.get("house_rules", DEFAULT)
    # unknown, for another variant, or bad options: one clear line
    house_rules = [plugins.house_rule(spec, variant_class) for spec in top.house_rules or []]
    names = [rule.name for rule in house_rules]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ConfigError(f"{where}: house_rules: {twice[0]!r} is named twice; name each house rule once")
    try:
        hooks = game_hooks(variant_class(rules), house_rules)  # a rule's plugin that cannot join a game is refused now, in one line
        warnings = hook_conflicts(variant_class(rules), house_rules)
        slow = gate.slow_rules(hooks) if compiled.wanted() else []
    except ConfigError:
        raise
    except TreehouseError as error:
        raise type(error)(f"{where}: house_rules: {error}") from None

    if chain:
        name = chain[0][0].stem
    else:
        name = variant_class.name
    return EffectiveRules(
        name=name,
        variant_class=variant_class,
        rules=rules,
        description=top.description or variant_class.description,
        turn_cap=top.turn_cap or DEFAULT_TURN_CAP,
        house_rules=[rule.spec for rule in house_rules],
        warnings=warnings,
        slow=slow,
        sources=sources,
        chain=[str(path) for path, _ in chain],
    )

