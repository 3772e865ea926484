"""One game's plugin manager: the kernel's defaults, the variant, its house rules.

:func:`game_hooks` builds the manager a game is played through and binds its
hooks for speed (:class:`GameHooks`).  It lives in the kernel, beside the
engine that calls it; the entry-point loading that finds variants, bots and
house rules is :mod:`treehouse.plugins`, which builds on this module (never
the other way round).

A manager holds, in the order pluggy asks them (the first to answer a
first-result hook wins):

1. the house rules, the one named first in ``house_rules:`` asked first
   (within the same ``tryfirst``/``trylast`` class: those marks rank first);
2. the variant object, built afresh for this manager (so it can call its own
   hooks through :attr:`treehouse.kernel.variant.Variant.hooks`);
3. :class:`KernelDefaults`, registered ``trylast``.

A variant may add hook specifications of its own (``Variant.hookspecs``, as
pytest's ``pytest_addhooks`` does); they join the kernel's in the manager, so
a house rule may implement them and a misspelt one is refused the same way.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

import pluggy

from treehouse import hookspecs
from treehouse.kernel.fast import hookspecs as fast_hookspecs
from treehouse.errors import PluginError
from treehouse.hookspecs import PROJECT, hookimpl
from treehouse.kernel.die import Die, draw
from treehouse.kernel.turn import ONE_ROLLED_STEP, look_moves

TRACE_ENV = "TREEHOUSE_TRACE_PLUGINS"
#: The name the kernel's default answers are registered under in a game's manager.
KERNEL_PLUGIN = "kernel"
#: The hooks answered at load time (by :mod:`treehouse.plugins`); every other hook is a game hook.
REGISTRATION_HOOKS = ("treehouse_register_variants", "treehouse_register_bots", "treehouse_register_house_rules")
#: The one game hook whose answers are added up, not the first taken.
SUMMED_HOOKS = ("treehouse_step_statistics",)

_SPEC_MARK = f"{PROJECT}_spec"
_IMPL_MARK = f"{PROJECT}_impl"


def plugin_name(plugin: Any) -> str:
    """The name a plugin object goes by in records and messages."""
    return getattr(plugin, "name", None) or getattr(plugin, "__name__", None) or type(plugin).__name__


def implemented_hooks(obj: Any) -> list[str]:
    """The hooks a plugin object, module or class marks with ``@hookimpl``."""
    return sorted(name for name in dir(obj) if name.startswith(f"{PROJECT}_") and hasattr(getattr(obj, name, None), _IMPL_MARK))


def declared_hooks(specs: Any) -> dict[str, dict]:
    """The hook specifications a module or class declares: name -> pluggy's spec options."""
    if specs is None:
        return {}
    return {name: getattr(getattr(specs, name), _SPEC_MARK) for name in dir(specs) if hasattr(getattr(specs, name, None), _SPEC_MARK)}


#: The kernel's own game-hook specifications: name -> spec options.
KERNEL_HOOKS = {name: opts for specs in (hookspecs, fast_hookspecs) for name, opts in declared_hooks(specs).items() if name not in REGISTRATION_HOOKS}


def variant_hooks(variant_class: type) -> dict[str, dict]:
    """The hooks a variant class adds to the kernel's (``Variant.hookspecs``)."""
    return declared_hooks(getattr(variant_class, "hookspecs", None))


def variant_hookspec_problems(variant_class: type) -> list[str]:
    """What is wrong with a variant's own hook specifications, one line each:
    a name without the ``treehouse_`` prefix, one the kernel already has, or
    one without a docstring (its contract)."""
    problems = []
    specs = getattr(variant_class, "hookspecs", None)
    for name in sorted(variant_hooks(variant_class)):
        if not name.startswith(f"{PROJECT}_"):
            problems.append(f"hook {name!r} must be named {PROJECT}_...")
        elif name in KERNEL_HOOKS or name in REGISTRATION_HOOKS:
            problems.append(f"hook {name!r} is already a kernel hook")
        elif not (getattr(getattr(specs, name), "__doc__", None) or "").strip():
            problems.append(f"hook {name!r} has no docstring: say its contract (arguments, answer, first result or not)")
    return problems


def all_game_hooks(variant_class: type | None = None) -> dict[str, dict]:
    """Every game hook of a game of ``variant_class``: the kernel's and the variant's own."""
    return {**KERNEL_HOOKS, **(variant_hooks(variant_class) if variant_class is not None else {})}


def new_manager(variant_class: type | None = None) -> pluggy.PluginManager:
    """A plugin manager with the kernel's specifications (and ``variant_class``'s own)."""
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(hookspecs)
    manager.add_hookspecs(fast_hookspecs)
    specs = getattr(variant_class, "hookspecs", None)
    if specs is not None:
        manager.add_hookspecs(specs)
    if os.environ.get(TRACE_ENV):
        manager.trace.root.setwriter(sys.stderr.write)
        manager.enable_tracing()
    return manager


def unknown_hooks(manager: pluggy.PluginManager, plugin: Any) -> list[str]:
    """Hooks the plugin implements that no spec declares (a misspelt name, say)."""
    return [caller.name for caller in manager.get_hookcallers(plugin) or () if caller.spec is None]


# --------------------------------------------------------------------------
# house rules as values
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class HouseRule:
    """A house rule turned on, with its options: what a game's manager builds
    the rule's plugin from (``factory(variant, options)``).

    Hashable (the options model is frozen), so games with equal rules share
    one manager.  ``spec`` is its canonical text, as records carry it:
    ``wild-repair(max=1)``.
    """

    name: str
    factory: Callable[[Any, Any], Any]
    options: Any = None
    spec: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.spec:
            object.__setattr__(self, "spec", self.name)

    def build(self, variant: Any) -> Any:
        """The rule's plugin for ``variant`` (the game's own variant object)."""
        try:
            plugin = self.factory(variant, self.options)
        except PluginError:
            raise
        except Exception as error:
            raise PluginError(f"house rule {self.name!r} failed to build its plugin: {type(error).__name__}: {error}") from error
        if plugin is None:
            raise PluginError(f"house rule {self.name!r}: its factory returned None, not a plugin object")
        return plugin


class _Built:
    """The factory of a house rule whose plugin is already built (a test's, a script's)."""

    def __init__(self, plugin: Any) -> None:
        self.plugin = plugin

    def __call__(self, variant: Any, options: Any) -> Any:
        return self.plugin

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Built) and other.plugin is self.plugin

    def __hash__(self) -> int:
        return id(self.plugin)


def as_house_rule(rule: Any) -> HouseRule:
    """``rule`` as a :class:`HouseRule`: a ready plugin object (a test's, a
    script's) becomes a rule whose factory returns it, named after it."""
    if isinstance(rule, HouseRule):
        return rule
    return HouseRule(plugin_name(rule), _Built(rule))


def _priority(opts: dict) -> int:
    return 2 if opts.get("tryfirst") else 0 if opts.get("trylast") else 1


def hook_conflicts(variant: Any, house_rules: Iterable[HouseRule]) -> list[str]:
    """One line for every first-result hook that two or more of ``house_rules``
    override (answer outright, not as wrappers), saying whose answer counts."""
    rules = list(house_rules)
    firstresult = {name for name, opts in all_game_hooks(type(variant)).items() if opts.get("firstresult")}
    overriding: dict[str, list[tuple[int, int, str]]] = {}
    for index, rule in enumerate(rules):
        plugin = rule.build(variant)
        for hook in implemented_hooks(plugin):
            opts = getattr(getattr(plugin, hook), _IMPL_MARK)
            if hook in firstresult and not (opts.get("wrapper") or opts.get("hookwrapper")):
                overriding.setdefault(hook, []).append((-_priority(opts), index, rule.name))
    lines = []
    for hook, entries in sorted(overriding.items()):
        if len(entries) < 2:
            continue
        entries.sort()
        names = " and ".join(repr(name) for _p, _i, name in sorted(entries, key=lambda e: e[1]))
        lines.append(
            f"house rules {names} both answer {hook}; {entries[0][2]!r} is asked first and its answer counts"
            " (tryfirst ranks first, then the order of house_rules:)"
        )
    return lines


# --------------------------------------------------------------------------
# the kernel's defaults
# --------------------------------------------------------------------------


class KernelDefaults:
    """The kernel's answers to the game hooks, used when no plugin gives one.

    One per manager: the chance node's default is the variant's die.
    """

    def __init__(self, die: Die) -> None:
        self.die = die
        #: The die's chance node, made once: the engine and the bots compare against it.
        self.outcomes = die.outcomes()
        #: The game's bound hooks, for the defaults that play moves through them
        #: (set once by :func:`game_hooks`, which builds both).
        self.hooks: GameHooks | None = None

    @hookimpl(trylast=True)
    def treehouse_setup_step(self, state):
        return None

    @hookimpl(trylast=True)
    def treehouse_turn_steps(self, state):
        return ONE_ROLLED_STEP

    @hookimpl(trylast=True)
    def treehouse_chance(self, state, step):
        return self.outcomes

    @hookimpl(trylast=True)
    def treehouse_roll(self, state, step, outcomes, rng):
        # The die's own roll for the die's own chance node: seeded games stay as they were.
        if outcomes is self.outcomes or outcomes == self.outcomes:
            return self.die.roll(rng)
        return draw(outcomes, rng)

    @hookimpl(trylast=True)
    def treehouse_choose_move(self, state, step, face, moves, seat, rng):
        return seat.choose(state, step, face, moves, rng)

    @hookimpl(trylast=True)
    def treehouse_resolve(self, state, before, step, move, effect):
        return state

    @hookimpl(trylast=True)
    def treehouse_explain_illegal(self, state, step, face, move, moves):
        return None  # no reason known: th play says the move is not legal here

    @hookimpl(trylast=True)
    def treehouse_render_compact(self, state, console_width):
        return None  # no smaller drawing: the screen shows treehouse_render's

    @hookimpl(trylast=True)
    def treehouse_render_svg(self, state):
        return None  # no picture: th replay --html shows the terminal drawing as text

    @hookimpl(trylast=True)
    def treehouse_look_moves(self, state, step, face, moves, seat):
        return look_moves(self.hooks, state, step, moves, seat)  # every move through the hooks

    @hookimpl(trylast=True)
    def treehouse_evaluate_seats(self, state, players):
        evaluate = self.hooks.treehouse_evaluate
        return [evaluate(state, seat) for seat in range(players)]


# --------------------------------------------------------------------------
# one game's hooks, bound
# --------------------------------------------------------------------------


class GameHooks:
    """The game hooks of one game's plugin manager, bound for speed.

    Each attribute is named after its hook (the kernel's and the variant's
    own) and takes the hook's arguments **positionally, in the order of the
    spec** (``hooks.treehouse_legal_moves(state, step, face)``): the engine
    calls them a few million times in a simulation.  Where no plugin wraps a
    hook and tracing is off, the attribute calls the implementations directly
    in pluggy's order (first non-``None`` wins), skipping pluggy's per-call
    bookkeeping; otherwise it goes through pluggy's own caller, so wrappers
    and tracing behave exactly as pluggy documents.

    ``treehouse_step_statistics`` returns every plugin's counters added up
    (a dict); another hook that is not first-result returns pluggy's list.
    """

    def __init__(self, manager: pluggy.PluginManager, variant: Any = None, house_rules: tuple = ()) -> None:
        self.manager = manager
        #: The variant object registered in this manager.
        self.variant = variant
        #: The house rules in force (:class:`HouseRule`), in the rule set's order.
        self.house_rules = tuple(house_rules)
        tracing = self.tracing = bool(os.environ.get(TRACE_ENV))
        kernel_only = set()
        for caller in manager.hook.__dict__.values():
            if isinstance(caller, pluggy.HookCaller) and caller.name not in REGISTRATION_HOOKS:
                setattr(self, caller.name, _bind(caller, tracing))
                impls = caller.get_hookimpls()
                if not tracing and impls and all(impl.plugin_name == KERNEL_PLUGIN for impl in impls):
                    kernel_only.add(caller.name)
        #: Hooks that only the kernel's defaults answer.  The engine runs those
        #: defaults inline instead of calling them (it saves a call per hook
        #: per step on the hot path; the answer is the same).
        self.kernel_only = frozenset(kernel_only)
        #: hook name -> the plugins other than the kernel implementing it, in pluggy's order
        self._implementers = {
            caller.name: tuple(impl.plugin_name for impl in reversed(caller.get_hookimpls()) if impl.plugin_name != KERNEL_PLUGIN)
            for caller in manager.hook.__dict__.values()
            if isinstance(caller, pluggy.HookCaller)
        }
        #: hook name -> the plugin objects other than the kernel and the variant implementing it, in pluggy's order
        self._answering = {
            caller.name: tuple(impl.plugin for impl in reversed(caller.get_hookimpls()) if impl.plugin_name != KERNEL_PLUGIN and impl.plugin is not variant)
            for caller in manager.hook.__dict__.values()
            if isinstance(caller, pluggy.HookCaller)
        }
        variant_name = plugin_name(variant) if variant is not None else None
        #: the hooks some plugin other than the variant and the kernel implements (variant_alone asks it per node)
        self._shared = frozenset(hook for hook, names in self._implementers.items() if any(name != variant_name for name in names))
        #: code object of every implementation -> (plugin name, hook name), to blame failures
        self._owners = {
            _code(impl.function): (impl.plugin_name, caller.name)
            for caller in manager.hook.__dict__.values()
            if isinstance(caller, pluggy.HookCaller)
            for impl in caller.get_hookimpls()
        }

    def implementers(self, hook: str) -> tuple[str, ...]:
        """The plugins other than the kernel that implement ``hook`` (answers
        or wrappers), in the order pluggy asks them: ``()`` when only the
        kernel's default (or nothing) answers it.  The one question code
        asks about who answers a hook."""
        return self._implementers.get(hook, ())

    def plugins_answering(self, hook: str) -> tuple[Any, ...]:
        """The plugin objects other than the kernel and the variant that
        implement ``hook``, in the order pluggy asks them: a variant with a
        faster path for some house rules (one whose answer it can compute
        itself) asks which these are."""
        return self._answering.get(hook, ())

    def variant_alone(self, *hooks: str) -> bool:
        """Does the variant alone (or the kernel's default) answer every one
        of ``hooks``: no house rule, plugin or tracing in the way?  Then the
        variant may answer them all at once, by a faster path of its own that
        gives the same answers (a compiled core)."""
        if self.tracing:
            return False
        shared = self._shared
        for hook in hooks:
            if hook in shared:
                return False
        return True

    @property
    def house_rule_specs(self) -> list[str]:
        """The canonical specs of the house rules in force, as records carry them."""
        return [rule.spec for rule in self.house_rules]

    def answered_by(self, hook: str) -> str:
        """The plugins that answer ``hook`` other than the kernel, for an error: ``'classic', 'no-house-moves'``."""
        caller = getattr(self.manager.hook, hook, None)
        names = [impl.plugin_name for impl in (caller.get_hookimpls() if caller is not None else ()) if impl.plugin_name != KERNEL_PLUGIN]
        return ", ".join(repr(name) for name in reversed(names)) or "(the kernel)"

    def wrong_answer(self, hook: str, answer: Any, expected: str) -> PluginError:
        """One line blaming ``hook`` (and the plugins answering it) for a wrong answer."""
        from treehouse.errors import quote

        return PluginError(f"{hook} returned {quote(answer)} ({type(answer).__name__}), expected {expected}; answered by plugin {self.answered_by(hook)}")

    def blame(self, error: BaseException) -> PluginError:
        """A one-line :class:`PluginError` naming the plugin and hook whose code raised ``error``."""
        culprit = None
        traceback = error.__traceback__
        while traceback is not None:
            culprit = self._owners.get(traceback.tb_frame.f_code, culprit)
            traceback = traceback.tb_next
        what = f"{type(error).__name__}: {error}"
        if culprit is None:
            return PluginError(f"a plugin failed: {what}")
        plugin, hook = culprit
        return PluginError(f"plugin {plugin!r} failed in {hook}: {what}")


def hook_failure(error: BaseException) -> PluginError | None:
    """A one-line :class:`PluginError` for ``error`` when it was raised inside a
    hook implementation (a function named ``treehouse_*``) outside a game's
    engine, which blames on its own: ``th play`` drawing, say.  ``None`` when
    no hook is on the way: then it is our bug, and keeps its traceback."""
    culprit = None
    traceback = error.__traceback__
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if code.co_name.startswith(f"{PROJECT}_"):
            owner = traceback.tb_frame.f_locals.get("self")
            where = plugin_name(owner) if owner is not None else traceback.tb_frame.f_globals.get("__name__", "?")
            culprit = (where, code.co_name)
        traceback = traceback.tb_next
    if culprit is None:
        return None
    return PluginError(f"plugin {culprit[0]!r} failed in {culprit[1]}: {type(error).__name__}: {error}")


def _code(function: Any) -> Any:
    return getattr(getattr(function, "__func__", function), "__code__", None)


def _through_pluggy(caller: pluggy.HookCaller) -> Callable[..., Any]:
    names = tuple(caller.spec.argnames) if caller.spec else ()
    return lambda *args: caller(**dict(zip(names, args)))


def _summed(call: Callable[..., Any]) -> Callable[..., Any]:
    def summed(*args: Any) -> dict:
        total: dict = {}
        for answer in call(*args):
            if answer:
                for key, value in answer.items():
                    total[key] = total.get(key, 0) + value
        return total

    return summed


def every_answer(caller: pluggy.HookCaller) -> Callable[..., list]:
    """A hook that is not ``firstresult`` (every answer counts), called with
    its arguments positionally in the spec's order: the implementations are
    called directly, in pluggy's order, unless a wrapper or tracing needs
    pluggy's own caller.  The answers are pluggy's: every non-``None`` one."""
    impls = caller.get_hookimpls()
    if os.environ.get(TRACE_ENV) or any(impl.hookwrapper or impl.wrapper for impl in impls):
        return _through_pluggy(caller)
    spec_names = tuple(caller.spec.argnames) if caller.spec else ()
    chain = [_direct(impl, spec_names) for impl in reversed(impls)]
    if len(chain) == 1:
        (only,) = chain

        def one_answer(*args: Any) -> list:
            result = only(*args)
            return [] if result is None else [result]

        return one_answer
    return lambda *args: [result for result in (function(*args) for function in chain) if result is not None]


def sole_implementation(caller: pluggy.HookCaller) -> Callable[..., Any] | None:
    """The one plugin function that answers ``caller``, to be called with the
    hook's arguments positionally in the spec's order; ``None`` when several
    plugins (or none) implement it, or tracing or a wrapper needs pluggy's
    own caller.  For per-step callers (the playtest's observer) that would
    otherwise pay for a list of one answer on every step."""
    impls = caller.get_hookimpls()
    if len(impls) != 1 or os.environ.get(TRACE_ENV) or impls[0].hookwrapper or impls[0].wrapper:
        return None
    return _direct(impls[0], tuple(caller.spec.argnames) if caller.spec else ())


def _bind(caller: pluggy.HookCaller, tracing: bool) -> Callable[..., Any]:
    firstresult = bool(caller.spec and caller.spec.opts.get("firstresult"))
    impls = caller.get_hookimpls()
    if not firstresult:
        call = every_answer(caller)
        return _summed(call) if caller.name in SUMMED_HOOKS else call
    if tracing or any(impl.hookwrapper or impl.wrapper for impl in impls):
        return _through_pluggy(caller)
    spec_names = tuple(caller.spec.argnames) if caller.spec else ()
    chain = [_direct(impl, spec_names) for impl in reversed(impls)]  # pluggy calls the last first
    hook_name = caller.name

    if not chain:
        def no_answer(*args: Any) -> None:
            raise PluginError(f"no plugin implements {hook_name}")
        return no_answer

    if len(chain) == 1:
        return chain[0]

    if len(chain) == 2:  # one plugin, then the kernel's default (resolve, the looks): per move on the bots' path
        first, then = chain

        def first_of_two(*args: Any) -> Any:
            result = first(*args)
            return then(*args) if result is None else result

        return first_of_two

    def first_result(*args: Any) -> Any:
        for function in chain:
            result = function(*args)
            if result is not None:
                return result
        return None

    return first_result


def _direct(impl: Any, spec_names: tuple[str, ...]) -> Callable[..., Any]:
    """Call one implementation with the positional arguments of the hook call."""
    function, names = impl.function, tuple(impl.argnames)
    if names == spec_names:
        return function  # it takes every argument, in the spec's order
    picks = tuple(spec_names.index(n) for n in names)
    if picks == tuple(range(len(picks))):  # the spec's first arguments (a newer spec added some at the end): a slice
        count = len(picks)
        return lambda *args: function(*args[:count])
    return lambda *args: function(*[args[i] for i in picks])


def game_hooks(variant: Any, house_rules: Iterable[HouseRule] = (), extra: Iterable[Any] = ()) -> GameHooks:
    """The plugin manager for a game, bound as :class:`GameHooks`.

    It holds the kernel's defaults, a fresh object of ``variant``'s class
    with its rules (the variant answers the game hooks itself), the plugins
    that ``house_rules`` (:class:`HouseRule` values, or ready plugin objects)
    build for it, and
    ``extra`` plugins (the replayer's recorded dice, say).  Games with equal
    rules share one manager (hooks are pure, so sharing is safe); building
    one costs about a millisecond, which a simulation of many short games
    would feel.
    """
    house_rules, extra = tuple(as_house_rule(rule) for rule in house_rules), tuple(extra)
    if extra or os.environ.get(TRACE_ENV):
        return _build_game_hooks(type(variant), variant.rules, house_rules, extra)
    return _shared_game_hooks(type(variant), variant.rules, house_rules)


@lru_cache(maxsize=64)
def _shared_game_hooks(variant_class: type, rules: Any, house_rules: tuple) -> GameHooks:
    return _build_game_hooks(variant_class, rules, house_rules, ())


def _register(manager: pluggy.PluginManager, plugin: Any, name: str) -> None:
    try:
        manager.register(plugin, name=name)
    except (pluggy.PluginValidationError, ValueError) as error:
        raise PluginError(f"plugin {name!r} was refused: {error}") from None
    misspelt = unknown_hooks(manager, plugin)
    if misspelt:
        raise PluginError(f"plugin {name!r} implements unknown hook(s) {', '.join(misspelt)}; was it misspelt?")


def _build_game_hooks(variant_class: type, rules: Any, house_rules: tuple, extra: tuple) -> GameHooks:
    variant = variant_class(rules)
    manager = new_manager(variant_class)
    manager.register(KernelDefaults(variant.die), name=KERNEL_PLUGIN)
    _register(manager, variant, plugin_name(variant))
    names = [rule.name for rule in house_rules]
    for rule in reversed(house_rules):  # pluggy asks the last registered first: the first named is asked first
        if names.count(rule.name) > 1:
            raise PluginError(f"house rule {rule.name!r} is turned on twice; name it once")
        _register(manager, rule.build(variant), rule.name)
    for plugin in extra:
        _register(manager, plugin, f"{plugin_name(plugin)}@{id(plugin):x}")
    hooks = GameHooks(manager, variant, house_rules)
    manager.get_plugin(KERNEL_PLUGIN).hooks = hooks
    variant.bind_hooks(hooks)
    return hooks
