"""A conformance kit for variant authors: one call checks a variant against every contract.

Use it from your plugin's tests::

    from treehouse.testing import check_variant

    def test_my_variant_conforms():
        check_variant("race")

It loads the variant through the entry points (as ``th`` would), plays random
games for each player count and seat kind, and after every step checks that:

* positions and moves round-trip through the variant's notation;
* legal moves are a tuple of distinct, hashable values, and none is a pass
  (every move changes the position; only the explicit ``PASS`` declines);
* the hooks return what their contracts promise (steps, the player to move,
  outcomes naming real seats);
* the events ``treehouse_resolve`` reports are hashable values, each with
  one line of words (``describe()``);
* every game ends, by a result or the turn cap;
* every game's record replays to the same final position and outcome, in
  this process and in a fresh one (a plugin that keeps state between hook
  calls, or reads something ``th replay`` never sets up, fails there);
* every hook asked twice with the same arguments answers the same (legal
  moves, the chance node, apply and resolve, the outcome, the evaluation,
  notation and words): hooks must be pure;
* the chance node is well formed (distinct outcomes, probabilities summing
  to 1) and the face rolled is one of its outcomes;
* positions and the rules are hashable, and equal positions hash equal;
* and all of it again with every installed house rule that fits the variant
  turned on, one at a time;
* OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test`` pass for the
  rule set and for each of those house rules, when those extras are
  installed (a rule's new moves need action ids: docs/interop.md).

A broken contract is one line naming the hook and the plugin that answered.

A failure raises ``AssertionError`` with one line saying what broke, where.
With ``unwritten="xfail"`` (what ``th new-variant`` writes) a hook or notation
method that still raises ``NotImplementedError`` marks the test as an expected
failure naming it, instead of failing it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from treehouse.config import resolve
from treehouse.kernel.die import chance_problem
from treehouse.kernel.engine import Control, Outcome, Step, describe_event, format_move, parse_move, play_move
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import Plugins, load_plugins


@dataclass
class ConformanceReport:
    """What the kit played: handy for a test that wants to say more."""

    variant: str
    games: int = 0
    steps: int = 0
    outcomes: Counter = field(default_factory=Counter)
    #: the installed house rules it also played with, and the games it played with them
    house_rules: list[str] = field(default_factory=list)
    house_rule_games: int = 0
    #: what it could not try, one line each (a house rule whose options have no defaults)
    skipped: list[str] = field(default_factory=list)
    #: the framework checks it ran: ``random_sim_test: 2 players, house rule wild-repair``
    interop: list[str] = field(default_factory=list)


class _Checker:
    """Observes a game and checks every contract at every step."""

    def __init__(self, variant: Any, players: int, where: str) -> None:
        self.variant, self.players, self.where = variant, players, where
        self.steps = 0

    def fail(self, what: str) -> None:
        raise AssertionError(f"{self.variant.name} ({self.where}): {what}")

    def twice(self, game: Any, hook: str, *args: Any) -> Any:
        """Ask ``hook`` twice with the same arguments; they must answer the same."""
        call = getattr(game.hooks, hook)
        first, second = call(*args), call(*args)
        if first != second:
            self.fail(f"{hook} ({_answering(game.hooks, hook, args)}) answered differently when asked twice with the same arguments: hooks must be pure")
        return first

    def check_position(self, state: Any, label: str) -> None:
        text = self.variant.format_position(state)
        again = self.variant.parse_position(text)
        if again != state:
            self.fail(f"{label} position {text!r} does not round-trip through parse_position")
        try:
            if hash(again) != hash(state):
                self.fail(f"{label} position {text!r} hashes differently from its equal copy")
        except TypeError as error:
            self.fail(f"{label} position is not hashable ({error}): positions must be immutable values")
        players = self.variant.players_in(state)
        if players is not None and players != self.players:
            self.fail(f"{label} position {text!r}: players_in says {players} players, but the game has {self.players} seats")
        to_move = getattr(state, "to_move", None)
        if not isinstance(to_move, int) or not 0 <= to_move < self.players:
            self.fail(f"{label} position has to_move={to_move!r}, not a seat from 0 to {self.players - 1}")

    def on_choice(self, game, mover, step, face, moves) -> None:
        state = game.state
        if face is not None:
            outcomes = self.twice(game, "treehouse_chance", state, step)
            problem = chance_problem(outcomes)
            if problem is not None:
                self.fail(f"treehouse_chance ({_answering(game.hooks, 'treehouse_chance', (state, step))}): {problem}")
            if face not in {outcome for outcome, _p in outcomes}:
                self.fail(f"treehouse_roll ({_answering(game.hooks, 'treehouse_roll', (state, step, outcomes, None))}) rolled {face!r}, not an outcome of the chance node")
            self.twice(game, "treehouse_describe_face", face)
        if self.twice(game, "treehouse_legal_moves", state, step, face) != moves:
            self.fail(f"treehouse_legal_moves ({_answering(game.hooks, 'treehouse_legal_moves', (state, step, face))}) answered the engine differently")
        if not isinstance(moves, tuple):
            self.fail(f"treehouse_legal_moves returned {type(moves).__name__}, not a tuple")
        if len(set(moves)) != len(moves):
            self.fail(f"treehouse_legal_moves returned the same move twice for face {face}")
        for move in moves:
            if isinstance(move, Control):
                continue
            text = self.twice(game, "treehouse_format_move", move)
            if parse_move(game.variant, text) != move:
                self.fail(f"move {text!r} does not round-trip through parse_move ({_answering(game.hooks, 'treehouse_parse_move', (text,))})")
            words = self.twice(game, "treehouse_describe_move", move)
            if not isinstance(words, str):
                self.fail(f"treehouse_describe_move ({_answering(game.hooks, 'treehouse_describe_move', (move,))}) gave {words!r} for {text!r}, not text")

    def check_events(self, game, move, events) -> None:
        """What treehouse_resolve reported: a tuple of hashable values, each
        with one line of words (its ``describe()``)."""
        where = f"treehouse_resolve ({_answering(game.hooks, 'treehouse_resolve', None)}) after {format_move(game.variant, move)!r}"
        if not isinstance(events, tuple):
            self.fail(f"{where} reported events as {type(events).__name__}, not a tuple")
        for event in events:
            try:
                hash(event)
            except TypeError:
                self.fail(f"{where} reported {event!r}: events must be immutable, hashable values")
            words = describe_event(event)
            if not isinstance(words, str) or not words.strip() or "\n" in words:
                self.fail(f"{where} reported {event!r}, whose describe() gave {words!r}: one line of words")

    def on_step(self, game, mover, step, move, before, after, events) -> None:
        self.steps += 1
        if not isinstance(step, Step):
            self.fail(f"treehouse_turn_steps gave {step!r}, not a Step")
        if move is not Control.PASS and after == before:
            self.fail(f"move {format_move(game.variant, move)!r} left the position unchanged: a pass is not a move")
        self.check_position(after, f"after {format_move(game.variant, move)!r},")
        if move is not Control.REROLL:
            first, second = play_move(game.hooks, before, step, move), play_move(game.hooks, before, step, move)
            if first != second or first[0] != after:
                hooks = "treehouse_apply_move/treehouse_resolve"
                owners = f"{_answering(game.hooks, 'treehouse_apply_move', (before, step, move))}; {_answering(game.hooks, 'treehouse_resolve', None)}"
                self.fail(f"{hooks} ({owners}) gave another position for {format_move(game.variant, move)!r} when asked again: hooks must be pure")
        self.check_events(game, move, events)
        self.twice(game, "treehouse_outcome", after, mover)
        if any(impl.plugin_name != "kernel" for impl in game.hooks.manager.hook.treehouse_evaluate.get_hookimpls()):
            for seat in range(self.players):
                self.twice(game, "treehouse_evaluate", after, seat)


def check_variant(
    variant: str,
    *,
    games: int = 6,
    seed: int = 0,
    players: Iterable[int] | None = None,
    seat_kinds: Iterable[str] = ("random",),
    turn_cap: int = 300,
    overrides: Iterable[str] = (),
    plugins: Plugins | None = None,
    unwritten: str = "fail",
    house_rules: bool = True,
    fresh_process: bool | None = None,
    interop: bool = True,
) -> ConformanceReport:
    """Check ``variant`` (a name or rule set ``th`` knows) against every contract.

    Plays ``games`` seeded games for each player count (default: every count
    the variant allows, up to four counts) and each seat kind (a registered
    bot name); ``overrides`` are ``--set`` strings for the rule set.
    ``unwritten="xfail"`` turns a ``NotImplementedError`` into ``pytest.xfail``.
    ``house_rules`` also plays a game per player count with each installed
    house rule that fits the variant (its default options; one needing
    options it cannot default is left out).  ``fresh_process`` replays every
    record in a new Python process (default: when ``plugins`` is not given,
    so the fresh process finds the same plugins installed).  ``interop``
    runs OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test`` on the
    rule set and on each house rule played, for up to two player counts,
    where those extras are installed (and ``plugins`` is not given: the
    adapters load the installed plugins).
    """
    if unwritten not in ("fail", "xfail"):
        raise ValueError(f"unwritten must be 'fail' or 'xfail', not {unwritten!r}")
    try:
        fresh = fresh_process if fresh_process is not None else plugins is None
        return _check_variant(variant, games, seed, players, seat_kinds, turn_cap, list(overrides), plugins or load_plugins(), house_rules, fresh, interop and plugins is None and not list(overrides))
    except Exception as error:
        stub = _not_implemented(error)
        if stub is None or unwritten == "fail":
            raise
        import pytest

        pytest.xfail(f"not written yet: {stub}")


def _not_implemented(error: BaseException | None) -> NotImplementedError | None:
    """The NotImplementedError behind ``error`` (plugin errors chain the hook's exception), if any."""
    while error is not None:
        if isinstance(error, NotImplementedError):
            return error
        error = error.__cause__ or error.__context__
    return None


def _check_variant(variant, games, seed, players, seat_kinds, turn_cap, overrides, plugins, house_rules, fresh, interop) -> ConformanceReport:
    effective = resolve(plugins, variant=variant, overrides=[*overrides, f"turn_cap={turn_cap}"])
    cls = effective.variant_class
    report = ConformanceReport(cls.name)
    _check_metadata(cls)
    try:
        hash(effective.rules)
    except TypeError as error:
        raise AssertionError(f"{cls.name}: its rules are not hashable ({error}): the Rules model must be frozen") from None
    lo, hi = effective.variant().player_range()
    counts = list(players) if players is not None else list(range(lo, hi + 1))[:4]
    records: list[str] = []
    for kind in seat_kinds:
        for count in counts:
            for index in range(games):
                records.append(_play_checked(effective, plugins, kind, count, seed + 1000 * count + index, report, "", main=True))
    if house_rules:
        named = {spec.partition("(")[0] for spec in effective.house_rules}
        for info in plugins.house_rules_for(cls):
            if info.name in named:
                continue
            try:
                with_rule = resolve(plugins, variant=variant, overrides=[*overrides, f"turn_cap={turn_cap}", f"house_rules=[{info.name}]"])
            except Exception as error:  # a rule whose options have no defaults: it cannot be tried blind
                if "option" in str(error):
                    report.skipped.append(f"house rule {info.name}: {error}")
                    continue
                raise AssertionError(f"{cls.name} with house rule {info.name!r} (plugin {info.provider!r}): {error}") from error
            for count in counts[:2]:
                records.append(_play_checked(with_rule, plugins, seat_kinds[0] if isinstance(seat_kinds, (list, tuple)) else "random", count, seed + 7 * count, report, f", house rule {info.name}"))
            report.house_rules.append(info.name)
    if interop:
        _check_interop(variant, counts[:2], [None, *report.house_rules], seed, report)
    if fresh:
        _replay_in_a_fresh_process(cls.name, records)
    return report


def _check_interop(variant: str, counts: list[int], rules: list, seed: int, report: ConformanceReport) -> None:
    """OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test`` on the
    variant and on each house rule it played, where those extras are
    installed (a house rule's moves need action ids: docs/interop.md)."""
    try:
        import pyspiel

        from treehouse.interop.openspiel import game_class
    except ImportError:
        pyspiel = None
        report.skipped.append("OpenSpiel checks: OpenSpiel is not installed")
    try:
        from pettingzoo.test import api_test

        from treehouse.interop.pettingzoo import env
    except ImportError:
        api_test = None
        report.skipped.append("PettingZoo checks: PettingZoo is not installed")
    import warnings

    for rule in rules:
        label = f"house rule {rule}" if rule else "its rule set"
        for count in counts:
            where = f"{variant} ({count} players, {label})"
            if pyspiel is not None:
                try:
                    cls = game_class(variant)
                    game = pyspiel.load_game(cls.entry.game_type().short_name, {"players": count, "house_rules": rule or "", "turn_cap": 60})
                    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
                except Exception as error:
                    # not chained: pytest would show the frames below, and repr of OpenSpiel's game
                    # and state objects there can crash the whole test process (seen: a segmentation fault)
                    raise AssertionError(f"{where}: OpenSpiel's random_sim_test failed: {type(error).__name__}: {error}") from None
                report.interop.append(f"random_sim_test: {count} players, {label}")
            if api_test is not None:
                try:
                    kwargs = {"house_rules": [rule]} if rule else {}
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        api_test(env(variant=variant, players=count, **kwargs), num_cycles=60)
                except Exception as error:
                    raise AssertionError(f"{where}: PettingZoo's api_test failed: {type(error).__name__}: {error}") from error
                # only the two PettingZoo spares its own dict-observation classic games are allowed
                from treehouse.interop.pettingzoo import DICT_OBSERVATION_WARNINGS

                others = sorted({str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS.keys())
                if others:
                    raise AssertionError(f"{where}: PettingZoo's api_test warned: {others[0]}")
                report.interop.append(f"api_test: {count} players, {label}")


def _play_checked(effective, plugins, kind, count, game_seed, report, label, main=False) -> str:
    """Play one game under every check; its record's text."""
    factory = plugins.bot(kind).factory
    checker = _Checker(effective.variant(), count, f"{count} players, {kind} seats, seed {game_seed}{label}")
    record = Record(meta={"seed": game_seed})
    game = effective.new_game(plugins, [factory() for _ in range(count)], random.Random(game_seed), record=record, observer=checker)
    checker.check_position(game.state, "the initial")
    outcome = game.play()
    if not isinstance(outcome, Outcome) or any(not 0 <= w < count for w in outcome.winners):
        checker.fail(f"treehouse_outcome ({_answering(game.hooks, 'treehouse_outcome', None)}) returned {outcome!r}: winners must be seats from 0 to {count - 1}")
    text = record.dumps()
    again = replay(Record.loads(text), plugins)
    if again.state != game.state or again.outcome != game.outcome:
        checker.fail("the record does not replay to the same final position and outcome")
    if main:  # the games of the rule set asked for; the house rules' own are counted apart
        report.games += 1
        report.steps += checker.steps
        report.outcomes[outcome.reason] += 1
    else:
        report.house_rule_games += 1
    return text


_FRESH_REPLAY = """
import sys
from pathlib import Path
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import load_plugins
plugins = load_plugins()
for path in sorted(Path(sys.argv[1]).glob("*.jsonl")):
    try:
        replay(Record.read(path), plugins)
    except Exception as error:
        print(f"{path.name}: {type(error).__name__}: {error}")
        sys.exit(1)
"""


def _replay_in_a_fresh_process(name: str, records: list[str]) -> None:
    """Replay every record in a new interpreter, as ``th replay`` would: only
    what the record says and the installed plugins may decide it."""
    with tempfile.TemporaryDirectory() as folder:
        for index, text in enumerate(records):
            (Path(folder) / f"game-{index:04d}.jsonl").write_text(text)
        done = subprocess.run([sys.executable, "-c", _FRESH_REPLAY, folder], capture_output=True, text=True, timeout=600, env=dict(os.environ))
        if done.returncode != 0:
            why = (done.stdout.strip() or done.stderr.strip().splitlines()[-1:] or ["?"])
            why = why if isinstance(why, str) else why[0]
            raise AssertionError(f"{name}: a record does not replay in a fresh process: {why}")


def _answering(hooks: Any, hook: str, args: Any) -> str:
    """The plugin that answers ``hook`` for ``args`` (first result), or the
    plugins implementing it, as ``plugin 'name'`` words for a failure line."""
    caller = getattr(hooks.manager.hook, hook, None)
    if caller is None:
        return "no plugin"
    impls = [impl for impl in reversed(caller.get_hookimpls()) if not (impl.wrapper or impl.hookwrapper)]
    if args is not None and caller.spec is not None and caller.spec.opts.get("firstresult"):
        names = tuple(caller.spec.argnames)
        for impl in impls:
            try:
                answer = impl.function(*[dict(zip(names, args))[n] for n in impl.argnames])
            except Exception:
                return f"plugin {impl.plugin_name!r}"
            if answer is not None:
                return f"plugin {impl.plugin_name!r}"
    owners = [impl.plugin_name for impl in impls if impl.plugin_name != "kernel"] or ["kernel"]
    return "plugin " + ", ".join(repr(name) for name in owners)


def _check_metadata(cls: type) -> None:
    where = f"variant class {cls.__name__}"
    assert isinstance(cls.name, str) and cls.name, f"{where}: name must be a non-empty string"
    assert 1 <= cls.min_players <= cls.max_players, f"{where}: needs 1 <= min_players <= max_players"
    assert cls.Rules.model_config.get("extra") == "forbid", f"{where}: its Rules model must forbid unknown keys"
    total = sum(p for _, p in cls.die.outcomes())
    assert total == 1, f"{where}: the die's probabilities sum to {total}, not 1"


@dataclass(frozen=True)
class MovePlayed:
    """What :func:`play_one_move` played: the positions before and after,
    the step, the face, the move, the legal moves it was one of, and the
    events the step reported (with their words, as ``th play`` prints them)."""

    before: Any
    after: Any
    step: Step
    face: str | None
    move: Any
    legal: tuple
    events: tuple
    #: the position after, in the variant's notation (what ``th moves`` lists)
    text: str
    #: each event's one line of words
    words: tuple[str, ...]
    #: the game's hooks (house rules included): ``played.hooks.treehouse_end_turn(played.after)``
    #: passes the turn on, as the engine does once a turn's steps are played
    hooks: Any = field(default=None, compare=False, repr=False)


def play_one_move(
    variant: str,
    position: Any,
    move: Any,
    face: str | None = None,
    *,
    house_rules: Iterable[Any] = (),
    overrides: Iterable[str] = (),
    plugins: Plugins | None = None,
) -> MovePlayed:
    """Play one move from a given position and face, through the game's hooks
    with ``house_rules`` in force, as the engine plays it (applied and
    resolved; a setup step applied only): a unit test of a rule in one call::

        from treehouse.testing import play_one_move

        played = play_one_move("fences", "…position… 1 act 4", "repair +b", "WILD", house_rules=["wild-repair(max=1)"])
        assert played.after.tally("wild-repair") == (1, 0)

    ``variant`` is a variant or rule set name; ``position`` its notation (or a
    position value); ``move`` its notation, read through the notation hooks
    (a house rule's moves too), or a move value; ``face`` the outcome rolled
    for a step that rolls (``None`` for one that does not).  The step is the
    one the position is at (its setup step, else the first of its turn's
    steps, as ``th moves`` takes it).  ``house_rules`` are specs of installed
    rules (``"wild-repair(max=1)"``) or :class:`~treehouse.kernel.hooks.HouseRule`
    values (``HouseRule("my-rule", MyRule)``: a rule not registered yet).

    It also checks, in one line each (``AssertionError``), what the kit checks
    of a move: the face is one of the step's outcomes, the move is legal
    there (the line lists the legal ones), the hooks answer the same when
    asked twice, and the position after round-trips through the notation.
    A mistake in the arguments (a bad name, notation) raises the usual one-line
    error."""
    from treehouse.kernel.engine import Applied
    from treehouse.kernel.hooks import HouseRule, game_hooks
    from treehouse.kernel.variant import chance_outcome, legal_moves

    plugins = plugins or load_plugins()
    rules = list(house_rules)
    specs = [rule for rule in rules if not isinstance(rule, HouseRule)]
    extra = [f"house_rules=[{', '.join(specs)}]"] if specs else []
    effective = resolve(plugins, variant=variant, overrides=[*extra, *overrides])
    unregistered = [rule for rule in rules if isinstance(rule, HouseRule)]
    hooks = game_hooks(effective.variant(), [*effective.house_rule_plugins(plugins), *unregistered])
    game_variant = hooks.variant  # the object answering in the game's manager: its notation includes the house rules'
    name = game_variant.name
    state = game_variant.parse_position(position) if isinstance(position, str) else position
    setup = hooks.treehouse_setup_step(state)
    steps = (setup,) if setup is not None else tuple(hooks.treehouse_turn_steps(state))
    if not steps:
        raise AssertionError(f"{name}: the position {game_variant.format_position(state)!r} has no step to play")
    step = steps[0]
    if step.rolls:
        if face is None:
            raise AssertionError(f"{name}: step {step.name!r} rolls: name the face, e.g. face={hooks.treehouse_chance(state, step)[0][0]!r}")
        face = chance_outcome(hooks.treehouse_chance(state, step), face)
    elif face is not None:
        raise AssertionError(f"{name}: step {step.name!r} does not roll, so no face (got {face!r})")
    legal = legal_moves(hooks, state, step, face)
    if isinstance(move, str):
        move = parse_move(game_variant, move)
    if move not in legal:
        offered = ", ".join(format_move(game_variant, m) if not isinstance(m, Control) else m.value for m in legal)
        raise AssertionError(f"{name}: {format_move(game_variant, move)!r} is not legal at step {step.name!r} with {face!r}; legal: {offered}")
    if step.setup:
        after = hooks.treehouse_apply_move(state, step, move)
        after, events = (after.state if type(after) is Applied else after), ()
    else:
        after, events = play_move(hooks, state, step, move)
        if play_move(hooks, state, step, move) != (after, events):
            raise AssertionError(f"{name}: playing {format_move(game_variant, move)!r} twice from the same position gave different results: hooks must be pure")
    text = game_variant.format_position(after)
    if game_variant.parse_position(text) != after:
        raise AssertionError(f"{name}: the position after, {text!r}, does not round-trip through parse_position")
    return MovePlayed(state, after, step, face, move, legal, tuple(events), text, tuple(describe_event(e) for e in events), hooks)
