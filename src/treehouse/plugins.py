"""Finding plugins: entry points, the blocklist, and what each plugin registers.

No plugin manager exists at import time.  :func:`load_plugins` builds the
registration manager from the ``treehouse`` entry-point group (the built-in
variants and bots are found there too, exactly like a third party's) and
records the variants, bots and house rules they register.  Each game's own
manager (kernel defaults, the variant, its house rules) is built by
:func:`treehouse.kernel.hooks.game_hooks`, re-exported here.

Environment switches:

* ``TREEHOUSE_BLOCK_PLUGINS=name,name``: do not load these entry points, or
  drop these variants (a variant's name or alias); a name that matches
  neither is a warning.
* ``TREEHOUSE_PLUGINS_DIR=DIR``: also load every ``*.py`` module in ``DIR``
  as a plugin (as pytest loads ``conftest.py``), named after its file;
  ``th --plugins-dir DIR`` sets it, so worker processes load them too.
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

import importlib.util
import os
import sys
import time
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Callable, Iterable

import pluggy
from pydantic import BaseModel, ValidationError

from treehouse.errors import ConfigError, PluginError, unknown
from treehouse.kernel.hooks import (  # the per-game machinery lives in the kernel; re-exported here
    KERNEL_PLUGIN,
    REGISTRATION_HOOKS,
    TRACE_ENV,
    GameHooks,
    HouseRule,
    all_game_hooks,
    every_answer,
    game_hooks,
    hook_conflicts,
    hook_failure,
    implemented_hooks,
    new_manager,
    plugin_name,
    unknown_hooks,
    variant_hookspec_problems,
)
from treehouse.specs import format_spec, parse_spec

__all__ = [
    "BLOCK_ENV", "ENTRY_POINT_GROUP", "KERNEL_PLUGIN", "REGISTRATION_HOOKS", "TRACE_ENV", "BotInfo", "GameHooks", "HouseRule",
    "HouseRuleInfo", "PluginInfo", "Plugins", "every_answer", "game_hooks", "hook_conflicts", "implemented_hooks", "load_plugins", "plugin_name",
]

ENTRY_POINT_GROUP = "treehouse"
BLOCK_ENV = "TREEHOUSE_BLOCK_PLUGINS"
#: Folders of plugin modules loaded without packaging (``th --plugins-dir DIR`` sets it).
PLUGINS_DIR_ENV = "TREEHOUSE_PLUGINS_DIR"


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


@dataclass
class HouseRuleInfo:
    """A registered house rule: its factory, the variants it fits, its options."""

    name: str
    factory: Callable[[Any, Any], Any]
    #: lower-case variant names, or ``None``: any variant providing the hooks in ``needs``
    variants: tuple[str, ...] | None
    description: str
    provider: str
    #: the pydantic model of its options, or ``None`` when it takes none
    options: type[BaseModel] | None = None
    #: hooks a variant must provide (its own, beside the kernel's) for the rule to fit
    needs: tuple[str, ...] = ()

    def fits(self, variant_class: type) -> bool:
        """Can this rule be used with ``variant_class``?"""
        return self.misfit(variant_class) is None

    def misfit(self, variant_class: type) -> str | None:
        """Why the rule cannot be used with ``variant_class`` (``None``: it can)."""
        if self.variants is not None and variant_class.name.lower() not in self.variants:
            return f"house rule {self.name!r} is written for {', '.join(self.variants)}, not {variant_class.name}"
        missing = [hook for hook in self.needs if hook not in all_game_hooks(variant_class)]
        if missing:
            return f"house rule {self.name!r} needs the hook(s) {', '.join(missing)}, which {variant_class.name} does not provide"
        return None

    @property
    def fits_text(self) -> str:
        """For whom it is written, in words (``th plugins``)."""
        if self.variants is not None:
            return ", ".join(self.variants)
        return "any variant" + (f" with {', '.join(self.needs)}" if self.needs else "")


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
    #: Local plugins (``--plugins-dir``) that could not be loaded: the user
    #: named that folder, so a command stops on them (one line each) rather
    #: than going on without them.
    local_failures: list[str] = field(default_factory=list)

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

    def house_rules_for(self, variant: type | str) -> list[HouseRuleInfo]:
        """The registered house rules that fit ``variant`` (a class or a name), by name."""
        cls = self.variant(variant) if isinstance(variant, str) else variant
        return [info for _name, info in sorted(self.house_rules.items()) if info.fits(cls)]

    def house_rule(self, spec: str, variant: type | str) -> HouseRule:
        """House rule ``spec`` (``name`` or ``name(key=value, ...)``) turned on
        for ``variant`` (a class or a name): checked to fit it, its options
        validated, its spec made canonical (every option written out, so a
        record rebuilds the same rule even if a default changes)."""
        cls = self.variant(variant) if isinstance(variant, str) else variant
        name, given = parse_spec(spec, "house rule", "wild-repair(max=1)")
        info = self.house_rules.get(name)
        if info is None:  # name the ones that would have been right here
            raise unknown("house rule", name, [i.name for i in self.house_rules_for(cls)], f" for {cls.name}")
        problem = info.misfit(cls)
        if problem is not None:
            raise PluginError(problem)
        if info.options is None:
            if given:
                raise ConfigError(f"house rule {name!r} takes no options, but {spec.strip()!r} gives {', '.join(given)}")
            return HouseRule(name, info.factory, None, name)
        try:
            # strict: a spec's values are typed already (true, 3, 2.5, text), so lax coercion
            # would only hide a mistake (max=true read as max=1), as a bot spec refuses it
            options = info.options.model_validate(given, strict=True)
        except ValidationError as error:
            problem = error.errors()[0]
            key = ".".join(str(part) for part in problem["loc"]) or "?"
            if problem["type"] == "extra_forbidden":
                known = ", ".join(info.options.model_fields) or "(none)"
                raise ConfigError(f"house rule {name!r} has no option {key!r}; its options: {known}") from None
            raise ConfigError(f"house rule {name!r}: option {key}: {problem['msg']} (got {problem.get('input')!r})") from None
        try:
            hash(options)
        except TypeError:
            raise PluginError(f"house rule {name!r}: its options model must be hashable (frozen=True, scalar fields)") from None
        return HouseRule(name, info.factory, options, format_spec(name, options.model_dump(mode="json")))


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


def plugin_dirs() -> list[Path]:
    """The folders of local plugins: ``TREEHOUSE_PLUGINS_DIR`` (several
    separated by the path separator; ``th --plugins-dir DIR`` sets it)."""
    return [Path(part) for part in os.environ.get(PLUGINS_DIR_ENV, "").split(os.pathsep) if part.strip()]


#: The largest local plugin module read: a plugin is source code, not data.
MAX_PLUGIN_BYTES = 10 * 1024 * 1024
#: A local plugin still importing after this long is named on standard error
#: while it runs (an endless loop at import would otherwise look like a hang).
SLOW_IMPORT_NOTICE_SECONDS = 5.0


def _still_importing(name: str, path: Path) -> Any:
    """A timer that names ``name`` on standard error if its import is still
    running after :data:`SLOW_IMPORT_NOTICE_SECONDS` (cancelled when it ends)."""
    import threading

    def notice() -> None:
        sys.stderr.write(
            f"warning: still importing plugin {name!r} ({path}) after {SLOW_IMPORT_NOTICE_SECONDS:g} s; "
            "Ctrl-C stops, or move it out of the --plugins-dir folder\n"
        )
        sys.stderr.flush()

    timer = threading.Timer(SLOW_IMPORT_NOTICE_SECONDS, notice)
    timer.daemon = True
    timer.start()
    return timer


def _local_plugins(interrupt: "_UserInterrupt | None" = None) -> list[tuple[str, Any, str, float, str | None]]:
    """Every ``*.py`` module in the local plugin folders, imported as a plugin
    named after its file (``my_rule.py`` -> ``my_rule``): ``(name, module,
    folder, seconds, problem)``, ``problem`` one line when it failed to import.

    The boundary is an installed plugin's: ``sys.exit()``, ``KeyboardInterrupt``
    or any ``BaseException`` at import is a problem, not the end of the
    command (a real Ctrl-C still stops it).  Only regular files of at most
    :data:`MAX_PLUGIN_BYTES` are read (a FIFO named ``f.py`` would block)."""
    import stat

    found = []
    for folder in plugin_dirs():
        if not folder.is_dir():
            found.append((folder.name, None, str(folder), 0.0, f"plugin folder {str(folder)!r} ({PLUGINS_DIR_ENV} or --plugins-dir) is not a folder"))
            continue
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            name = path.stem
            try:
                info = path.stat()
            except OSError as error:
                found.append((name, None, str(folder), 0.0, f"plugin {name!r} ({path}) cannot be read: {error.strerror or error}"))
                continue
            if not stat.S_ISREG(info.st_mode):
                from treehouse.textfiles import file_kind

                found.append((name, None, str(folder), 0.0, f"plugin {name!r} ({path}) is {file_kind(info.st_mode)}, not a regular file; move it out of the plugin folder"))
                continue
            if info.st_size > MAX_PLUGIN_BYTES:
                found.append((name, None, str(folder), 0.0, f"plugin {name!r} ({path}) is {info.st_size:,} bytes; a plugin module is at most {MAX_PLUGIN_BYTES:,}"))
                continue
            began = time.perf_counter()
            timer = _still_importing(name, path)
            try:
                spec = importlib.util.spec_from_file_location(f"treehouse_local_plugins.{name}", path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[spec.name] = module
                spec.loader.exec_module(module)
            except BaseException as error:  # a broken local plugin is one line, as an installed one is, even with sys.exit()
                sys.modules.pop(f"treehouse_local_plugins.{name}", None)
                real_ctrl_c = interrupt.problem(error) is None if interrupt is not None else isinstance(error, KeyboardInterrupt)
                if real_ctrl_c:
                    raise
                found.append((name, None, str(folder), 0.0, f"plugin {name!r} ({path}) failed to import: {_describe(error)}"))
                continue
            finally:
                timer.cancel()
            found.append((name, module, str(folder), time.perf_counter() - began, None))
    return found


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
    if isinstance(error, KeyboardInterrupt):
        return "KeyboardInterrupt: it raised KeyboardInterrupt itself (no Ctrl-C was pressed)"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def load_plugins(block: Iterable[str] | None = None, extra: Iterable[tuple[str, Any]] = ()) -> Plugins:
    """Load every plugin in the entry-point group (less the blocked ones).

    ``extra`` adds ``(name, plugin)`` pairs as if they were entry points (tests
    use it).  Never raises for a broken plugin: it is left out and described
    in ``problems``.
    """
    with _UserInterrupt() as interrupt:
        return _load(block, extra, interrupt)


def _load(block: Iterable[str] | None, extra: Iterable[tuple[str, Any]], interrupt: _UserInterrupt) -> Plugins:
    manager = new_manager()
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
    for name, plugin, folder, seconds, problem in _local_plugins(interrupt):
        names_seen.add(name)
        if problem is not None:
            plugins.problems.append(problem)
            plugins.local_failures.append(problem)
        elif name not in blocked:
            candidates.append((name, plugin, (f"(local: {folder})", ""), seconds))
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
        misspelt = unknown_hooks(manager, plugin)
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
        problems = variant_hookspec_problems(cls)
        if problems:
            plugins.problems.append(f"plugin {name!r}: variant {cls.name}'s {problems[0]}; ignored")
            return
        taken = [n for n in names if n in plugins.aliases]
        if taken:
            owner = plugins.variant_plugins[plugins.aliases[taken[0]]]
            plugins.problems.append(f"plugin {name!r}: variant name {taken[0]!r} is already taken by plugin {owner!r}; ignored")
            return
        plugins.variants[cls.name.lower()] = cls
        own = sorted(set(all_game_hooks(cls)) - set(all_game_hooks()))
        plugins.loaded[name].provides.append(
            f"variant {cls.name} ({', '.join(implemented_hooks(cls))})" + (f"; its own hooks: {', '.join(own)}" if own else "")
        )
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

    def register_house_rule(
        rule_name: str,
        factory: Callable[[Any, Any], Any],
        variants: str | Iterable[str] | None = None,
        options: type[BaseModel] | None = None,
        description: str = "",
        needs: Iterable[str] = (),
    ) -> None:
        key = rule_name.strip().lower()
        if key in plugins.house_rules:
            plugins.problems.append(
                f"plugin {name!r}: house rule {key!r} is already taken by plugin {plugins.house_rules[key].provider!r}; ignored"
            )
            return
        if not callable(factory) or implemented_hooks(factory) and not isinstance(factory, type):
            plugins.problems.append(
                f"plugin {name!r}: house rule {key!r} must be registered with a factory(variant, options) that builds its plugin,"
                " not a plugin object; ignored"
            )
            return
        if options is not None and not (isinstance(options, type) and issubclass(options, BaseModel)):
            plugins.problems.append(f"plugin {name!r}: house rule {key!r}: options must be a pydantic model class; ignored")
            return
        fits = (variants.lower(),) if isinstance(variants, str) else None if variants is None else tuple(v.lower() for v in variants)
        info = HouseRuleInfo(key, factory, fits, description, name, options, tuple(needs))
        plugins.house_rules[key] = info
        plugins.loaded[name].provides.append(f"house rule {key} for {info.fits_text}" + (f" ({', '.join(implemented_hooks(factory))})" if isinstance(factory, type) else ""))

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

