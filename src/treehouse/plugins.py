"""The plugin-manager factory: entry points, the blocklist, tracing, and per-game hooks.

No plugin manager exists at import time.  :func:`load_plugins` builds the
registration manager from the ``treehouse`` entry-point group (the built-in
variants and bots are found there too, exactly like a third party's), and
:func:`game_hooks` builds one small manager per game holding only the kernel
defaults, that game's variant and its house rules.

Environment switches:

* ``TREEHOUSE_BLOCK_PLUGINS=name,name``: do not load these entry points, or
  drop these variants (a variant's name or alias); a name that matches
  neither is a warning.
* ``TREEHOUSE_TRACE_PLUGINS=1``: print every hook call to standard error.

A plugin that fails to import, or implements a hook that does not exist, is
left out and reported as one line in :attr:`Plugins.problems`; the others
still load.  That holds for ``sys.exit()`` and ``KeyboardInterrupt`` raised
by a plugin too; only a real Ctrl-C from the user stops loading.  The
built-in plugins load first, so their names win: a third party's variant or
bot of the same name is refused with one warning.  A third-party plugin that
takes over a second to import and register is named in a warning.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Callable, Iterable

import pluggy

from treehouse import hookspecs
from treehouse.errors import PluginError, unknown
from treehouse.hookspecs import PROJECT

ENTRY_POINT_GROUP = "treehouse"
BLOCK_ENV = "TREEHOUSE_BLOCK_PLUGINS"
TRACE_ENV = "TREEHOUSE_TRACE_PLUGINS"

#: The name the kernel's default answers are registered under in a game's manager.
KERNEL_PLUGIN = "kernel"
#: The hooks answered at load time; every other hook is a game hook.
REGISTRATION_HOOKS = ("treehouse_register_variants", "treehouse_register_bots", "treehouse_register_house_rules")


def plugin_name(plugin: Any) -> str:
    """The name a plugin object goes by in records and messages."""
    return getattr(plugin, "name", None) or getattr(plugin, "__name__", None) or type(plugin).__name__


@dataclass
class BotInfo:
    name: str
    factory: Callable[..., Any]
    description: str
    plugin: str
    #: Higher plays better; ``th play`` seats the strongest bot by default.
    strength: int = 0


@dataclass
class PluginInfo:
    """One loaded plugin: where it comes from and which hooks it answers."""

    name: str
    distribution: str
    version: str
    hooks: list[str]
    provides: list[str] = field(default_factory=list)


def implemented_hooks(obj: Any) -> list[str]:
    """The hooks a plugin object, module or class marks with ``@hookimpl``."""
    marker = f"{PROJECT}_impl"
    return sorted(name for name in dir(obj) if name.startswith(f"{PROJECT}_") and hasattr(getattr(obj, name, None), marker))


@dataclass
class HouseRuleInfo:
    name: str
    plugin: Any
    variant: str
    description: str
    provider: str


@dataclass
class Plugins:
    """What the installed plugins provide, and what went wrong loading them."""

    manager: pluggy.PluginManager
    variants: dict[str, type] = field(default_factory=dict)
    variant_plugins: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    bots: dict[str, BotInfo] = field(default_factory=dict)
    house_rules: dict[str, HouseRuleInfo] = field(default_factory=dict)
    loaded: dict[str, PluginInfo] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def variant(self, name: str) -> type:
        """The variant class called ``name`` (or one of its aliases)."""
        key = self.aliases.get(name.strip().lower())
        if key is None:
            raise unknown("variant", name, self.variants)
        return self.variants[key]

    def bot(self, name: str) -> BotInfo:
        try:
            return self.bots[name.strip().lower()]
        except KeyError:
            raise unknown("bot", name, self.bots) from None

    def house_rule(self, name: str, variant: str | None = None) -> Any:
        """The plugin object of house rule ``name``, checked against ``variant``."""
        info = self.house_rules.get(name)
        if info is None:  # name the ones that would have been right here
            fitting = [rule for rule, i in self.house_rules.items() if variant is None or i.variant == variant]
            raise unknown("house rule", name, fitting, f" for {variant}" if variant else "")
        if variant is not None and info.variant != variant:
            raise PluginError(f"house rule {name!r} is written for {info.variant}, not {variant}")
        return info.plugin


def _blocked_names(block: Iterable[str] | None) -> set[str]:
    names = {n.strip() for n in os.environ.get(BLOCK_ENV, "").split(",") if n.strip()}
    names.update(block or ())
    return names


#: The distribution whose plugins are built in: their names win any collision.
BUILTIN_DISTRIBUTION = "treehouse"
#: A plugin whose import and registration take longer than this is named in a warning.
SLOW_PLUGIN_SECONDS = 1.0


def _builtin(ep: EntryPoint) -> bool:
    return ep.dist is not None and ep.dist.name == BUILTIN_DISTRIBUTION


def _entry_points() -> list[EntryPoint]:
    """The group's entry points, the built-in ones first: a third party's
    ``aa-dup-classic`` must not take ``classic`` by sorting before it."""
    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (not _builtin(ep), ep.name))


class _UserInterrupt:
    """While plugins load, tell a real Ctrl-C (the SIGINT signal) from a plugin
    that raises ``KeyboardInterrupt`` itself: only the first stops the command."""

    def __init__(self) -> None:
        self.pressed = False
        self.previous: Any = None

    def __enter__(self) -> "_UserInterrupt":
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            def interrupt(signum: int, frame: Any) -> None:
                self.pressed = True
                raise KeyboardInterrupt

            self.previous = signal.signal(signal.SIGINT, interrupt)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.previous is not None:
            import signal

            signal.signal(signal.SIGINT, self.previous)

    def problem(self, error: BaseException) -> BaseException | None:
        """``None`` when ``error`` must go on (a real Ctrl-C), else the error to report."""
        if isinstance(error, KeyboardInterrupt) and self.pressed:
            return None
        return error


def _describe(error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"SystemExit({error.code!r}): it called sys.exit()"
    return f"{type(error).__name__}: {error}"


def _new_manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(hookspecs)
    if os.environ.get(TRACE_ENV):
        manager.trace.root.setwriter(sys.stderr.write)
        manager.enable_tracing()
    return manager


def _unknown_hooks(manager: pluggy.PluginManager, plugin: Any) -> list[str]:
    """Hooks the plugin implements that no spec declares (a misspelt name, say)."""
    return [
        caller.name
        for caller in manager.get_hookcallers(plugin) or ()
        if caller.spec is None
    ]


def load_plugins(block: Iterable[str] | None = None, extra: Iterable[tuple[str, Any]] = ()) -> Plugins:
    """Load every plugin in the entry-point group (less the blocked ones).

    ``extra`` adds ``(name, plugin)`` pairs as if they were entry points (tests
    use it).  Never raises for a broken plugin: it is left out and described
    in ``problems``.
    """
    with _UserInterrupt() as interrupt:
        return _load(block, extra, interrupt)


def _load(block: Iterable[str] | None, extra: Iterable[tuple[str, Any]], interrupt: _UserInterrupt) -> Plugins:
    manager = _new_manager()
    blocked = _blocked_names(block)
    plugins = Plugins(manager)
    candidates: list[tuple[str, Any, tuple[str, str], float]] = []
    names_seen: set[str] = set()
    for ep in _entry_points():
        names_seen.add(ep.name)
        if ep.name in blocked:
            manager.set_blocked(ep.name)
            continue
        began = time.perf_counter()
        try:
            source = (ep.dist.name, ep.dist.version) if ep.dist else ("?", "?")
            candidates.append((ep.name, ep.load(), source, time.perf_counter() - began))
        except BaseException as error:  # a broken plugin must not take the tool down, even with sys.exit()
            if interrupt.problem(error) is None:
                raise
            plugins.problems.append(f"plugin {ep.name!r} failed to import: {_describe(error)}")
    for name, plugin in extra:
        names_seen.add(name)
        if name not in blocked:
            candidates.append((name, plugin, ("(in-process)", ""), 0.0))

    for name, plugin, (dist, version), seconds in candidates:
        try:
            manager.register(plugin, name=name)
        except (pluggy.PluginValidationError, ValueError) as error:
            plugins.problems.append(f"plugin {name!r} was refused: {error}")
            continue
        misspelt = _unknown_hooks(manager, plugin)
        if misspelt:
            manager.unregister(plugin)
            plugins.problems.append(f"plugin {name!r} implements unknown hook(s) {', '.join(misspelt)}; was it misspelt?")
            continue
        plugins.loaded[name] = PluginInfo(name, dist, version, implemented_hooks(plugin))
        began = time.perf_counter()
        _call_registration(plugins, name, plugin, dist, interrupt)
        seconds += time.perf_counter() - began
        if seconds > SLOW_PLUGIN_SECONDS and dist != BUILTIN_DISTRIBUTION:  # ours load what every command needs anyway
            plugins.problems.append(f"plugin {name!r} is slow to load: {seconds:.1f} s to import and register (every command waits for it)")
    _block_variants(plugins, blocked - names_seen)
    return plugins


def _block_variants(plugins: Plugins, names: set[str]) -> None:
    """Blocked names that are no entry point: a variant's name or alias drops that
    variant; any other name matches nothing, and says so."""
    for name in sorted(names):
        key = plugins.aliases.get(name.lower())
        if key is None:
            plugins.problems.append(
                f"{BLOCK_ENV}: {name!r} matches no plugin and no variant; plugins: {', '.join(sorted(plugins.loaded))}"
            )
            continue
        del plugins.variants[key]
        plugins.variant_plugins.pop(key, None)
        for alias in [a for a, v in plugins.aliases.items() if v == key]:
            del plugins.aliases[alias]


def _call_registration(plugins: Plugins, name: str, plugin: Any, dist: str, interrupt: _UserInterrupt | None = None) -> None:
    """Run one plugin's registration hooks, recording what it provides."""

    def register_variant(cls: type) -> None:
        names = [cls.name.lower(), *(a.lower() for a in cls.aliases)]
        taken = [n for n in names if n in plugins.aliases]
        if taken:
            owner = plugins.variant_plugins[plugins.aliases[taken[0]]]
            plugins.problems.append(f"plugin {name!r}: variant name {taken[0]!r} is already taken by plugin {owner!r}; ignored")
            return
        plugins.variants[cls.name.lower()] = cls
        plugins.loaded[name].provides.append(f"variant {cls.name} ({', '.join(implemented_hooks(cls))})")
        plugins.variant_plugins[cls.name.lower()] = name
        for n in names:
            plugins.aliases[n] = cls.name.lower()

    def register_bot(bot_name: str, factory: Callable[..., Any], description: str = "", strength: int = 0) -> None:
        key = bot_name.lower()
        if key in plugins.bots:
            plugins.problems.append(f"plugin {name!r}: bot name {key!r} is already taken by plugin {plugins.bots[key].plugin!r}; ignored")
            return
        plugins.bots[key] = BotInfo(key, factory, description, name, strength)
        plugins.loaded[name].provides.append(f"bot {key}")

    def register_house_rule(rule_name: str, rule: Any, variant: str, description: str = "") -> None:
        if rule_name in plugins.house_rules:
            plugins.problems.append(
                f"plugin {name!r}: house rule {rule_name!r} is already taken by plugin {plugins.house_rules[rule_name].provider!r}; ignored"
            )
            return
        plugins.house_rules[rule_name] = HouseRuleInfo(rule_name, rule, variant.lower(), description, name)
        plugins.loaded[name].provides.append(f"house rule {rule_name} for {variant} ({', '.join(implemented_hooks(rule))})")

    for hook_name, callback in (
        ("treehouse_register_variants", register_variant),
        ("treehouse_register_bots", register_bot),
        ("treehouse_register_house_rules", register_house_rule),
    ):
        impl = getattr(plugin, hook_name, None)
        if impl is None or plugins.manager.parse_hookimpl_opts(plugin, hook_name) is None:
            continue
        try:
            impl(register=callback)
        except BaseException as error:  # sys.exit() or KeyboardInterrupt from a plugin too; a real Ctrl-C goes on
            real_ctrl_c = interrupt.problem(error) is None if interrupt is not None else isinstance(error, KeyboardInterrupt)
            if real_ctrl_c:
                raise
            plugins.problems.append(f"plugin {name!r} raised in {hook_name}: {_describe(error)}")


# --------------------------------------------------------------------------
# Game hooks
# --------------------------------------------------------------------------


class GameHooks:
    """The game hooks of one game's plugin manager, bound for speed.

    Each attribute is named after its hook and takes the hook's arguments
    **positionally, in the order of the spec** (``hooks.treehouse_legal_moves(state,
    step, face)``): the engine calls them a few million times in a simulation.
    Where no plugin wraps a hook and tracing is off, the attribute calls the
    implementations directly in pluggy's order (first non-``None`` wins),
    skipping pluggy's per-call bookkeeping; otherwise it goes through pluggy's
    own caller, so wrappers and tracing behave exactly as pluggy documents.
    """

    def __init__(self, manager: pluggy.PluginManager) -> None:
        self.manager = manager
        tracing = bool(os.environ.get(TRACE_ENV))
        kernel_only = set()
        for caller in manager.hook.__dict__.values():
            if isinstance(caller, pluggy.HookCaller) and caller.name not in REGISTRATION_HOOKS:
                setattr(self, caller.name, _through_pluggy(caller) if tracing else _bind(caller))
                impls = caller.get_hookimpls()
                if not tracing and impls and all(impl.plugin_name == KERNEL_PLUGIN for impl in impls):
                    kernel_only.add(caller.name)
        #: Hooks that only the kernel's defaults answer.  The engine runs those
        #: defaults inline instead of calling them (it saves a call per hook
        #: per step on the hot path; the answer is the same).
        self.kernel_only = frozenset(kernel_only)
        #: code object of every implementation -> (plugin name, hook name), to blame failures
        self._owners = {
            _code(impl.function): (impl.plugin_name, caller.name)
            for caller in manager.hook.__dict__.values()
            if isinstance(caller, pluggy.HookCaller)
            for impl in caller.get_hookimpls()
        }

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
    engine, which blames on its own: ``th show`` drawing, ``th moves`` listing.
    ``None`` when no hook is on the way: then it is our bug, and keeps its traceback."""
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


def _bind(caller: pluggy.HookCaller) -> Callable[..., Any]:
    impls = caller.get_hookimpls()
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
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

    def first_result(*args: Any) -> Any:
        for function in chain:
            result = function(*args)
            if result is not None:
                return result
        return None

    return first_result


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


def _direct(impl: Any, spec_names: tuple[str, ...]) -> Callable[..., Any]:
    """Call one implementation with the positional arguments of the hook call."""
    function, names = impl.function, tuple(impl.argnames)
    if names == spec_names:
        return function  # it takes every argument, in the spec's order
    picks = tuple(spec_names.index(n) for n in names)
    return lambda *args: function(*[args[i] for i in picks])


def game_hooks(variant: Any, house_rules: Iterable[Any] = (), extra: Iterable[Any] = ()) -> GameHooks:
    """The plugin manager for a game, bound as :class:`GameHooks`.

    It holds the kernel's defaults, ``variant`` (the variant object answers
    the game hooks itself), the ``house_rules`` plugins, and ``extra`` plugins
    (the replayer's recorded dice, say).  Games with equal rules share one
    manager (hooks are pure, so sharing is safe); building one costs about a
    millisecond, which a simulation of many short games would feel.
    """
    house_rules, extra = tuple(house_rules), tuple(extra)
    if extra or os.environ.get(TRACE_ENV):
        return _build_game_hooks(variant, house_rules, extra)
    return _shared_game_hooks(type(variant), variant.rules, house_rules)


@lru_cache(maxsize=64)
def _shared_game_hooks(variant_class: type, rules: Any, house_rules: tuple) -> GameHooks:
    return _build_game_hooks(variant_class(rules), house_rules, ())


def _build_game_hooks(variant: Any, house_rules: tuple, extra: tuple) -> GameHooks:
    from treehouse.kernel.engine import KernelDefaults

    manager = _new_manager()
    manager.register(KernelDefaults(), name=KERNEL_PLUGIN)
    for plugin in (variant, *house_rules, *extra):
        try:
            manager.register(plugin, name=plugin_name(plugin) if plugin not in extra else f"{plugin_name(plugin)}@{id(plugin):x}")
        except (pluggy.PluginValidationError, ValueError) as error:
            raise PluginError(f"plugin {plugin_name(plugin)!r} was refused: {error}") from None
        misspelt = _unknown_hooks(manager, plugin)
        if misspelt:
            raise PluginError(f"plugin {plugin_name(plugin)!r} implements unknown hook(s) {', '.join(misspelt)}; was it misspelt?")
    return GameHooks(manager)
