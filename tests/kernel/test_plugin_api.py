"""The plugin API's second edition: the chance hook, variant-defined hooks,
house rules as factories with options, conflict warnings."""

from __future__ import annotations

import random
import types
from fractions import Fraction
from typing import NamedTuple

import pytest
from pydantic import BaseModel, ConfigDict, Field

from treehouse.config import resolve
from treehouse.errors import ConfigError, PluginError, RecordError, UnknownNameError
from treehouse.hookspecs import hookimpl, hookspec
from treehouse.kernel.die import TREEHOUSE_DIE, chance_problem, draw
from treehouse.kernel.engine import Game, Step
from treehouse.kernel.hooks import HouseRule, game_hooks
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import load_plugins
from treehouse.variants.classic.game import Classic
from treehouse.variants.classic.trio import mirror

# --------------------------------------------------------------------------
# test plugins
# --------------------------------------------------------------------------


class NoWild:
    """A die without its Wild face: five faces, each 1/5."""

    def __init__(self, variant, options) -> None:
        self.outcomes = tuple((face, Fraction(1, 5)) for face in variant.die.faces if face != "WILD")

    @hookimpl(tryfirst=True)
    def treehouse_chance(self, state, step):
        if step.setup:
            return None  # a setup step's draw (Fences' smalls) is not the die
        return self.outcomes


class Counted(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    bonus: int = Field(1, ge=0, description="What each step adds.")
    label: str = "steps"


class CountSteps:
    """Counts steps in a counter of its own; sees its options and the variant's rules."""

    def __init__(self, variant, options) -> None:
        self.variant, self.options = variant, options

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover, face):
        return {self.options.label: self.options.bonus}


class AlwaysFirst:
    def __init__(self, variant, options) -> None:
        pass

    @hookimpl(tryfirst=True)
    def treehouse_evaluate(self, state, seat):
        return 1.0


class AlsoFirst(AlwaysFirst):
    @hookimpl(tryfirst=True)
    def treehouse_evaluate(self, state, seat):
        return -3.5


class TestRules:
    @hookimpl
    def treehouse_register_house_rules(self, register):
        register("no-wild", NoWild, variants=("classic", "fences"), description="no Wild face")
        register("count-steps", CountSteps, variants=None, options=Counted, description="counts steps")
        register("always-first", AlwaysFirst, variants="classic")
        register("also-first", AlsoFirst, variants="classic")


@pytest.fixture(scope="module")
def loaded():
    plugins = load_plugins(extra=[("test-rules", TestRules())])
    assert plugins.problems == []
    return plugins


def faces_rolled(record):
    """The die's rolls (a setup's draws, recorded as turn 0, are not the die)."""
    return [event[4] for event in record.events if event[0] == "roll" and event[1] > 0]


# --------------------------------------------------------------------------
# chance
# --------------------------------------------------------------------------

#: Seeded classic games between random bots, as they were before the chance hook
#: (the first 40 faces rolled, the turns, the winners): the default roll must
#: draw from the generator exactly as Die.roll always has.
PINNED = [
    (1, 68, (1,), "ASHHDATTWHATHASWWTTDWHSHTSHHSSSHSTWDDSWW"),
    (2, 216, (0,), "TTWAASDDDTHHAWWDHSTTHSHWDDSTSTDWASWAAWAA"),
    (3, 296, (1,), "HDDTTWSSWHWHDTDWDAATADSTWHAWAWHAHWWTTSWH"),
]


@pytest.mark.parametrize("seed, turns, winners, faces", PINNED)
def test_seeded_games_roll_as_they_always_did(plugins, random_bot, seed, turns, winners, faces):
    effective = resolve(plugins, variant="classic")
    game = effective.new_game(plugins, [random_bot(), random_bot()], random.Random(seed), record=Record())
    game.play()
    assert (game.turn, game.outcome.winners) == (turns, winners)
    assert "".join(face[0] for face in faces_rolled(game.record)[:40]) == faces


class SameDie:
    """Answers the chance hook with the die's own chance node, as a new tuple: the hook path, not the inline one."""

    @hookimpl(tryfirst=True)
    def treehouse_chance(self, state, step):
        return tuple(TREEHOUSE_DIE.outcomes())


def test_the_hook_path_rolls_exactly_as_the_inline_path(random_bot):
    variant = Classic()
    plain = Game(variant, [random_bot(), random_bot()], random.Random(9), record=Record())
    hooked = Game(variant, [random_bot(), random_bot()], random.Random(9), record=Record(), hooks=game_hooks(variant, extra=[SameDie()]))
    assert "treehouse_chance" not in hooked.hooks.kernel_only
    plain.play()
    hooked.play()
    assert hooked.record.events == plain.record.events


def test_draw_matches_die_roll_for_a_fair_die_and_weights_for_others():
    rng_a, rng_b = random.Random(4), random.Random(4)
    assert [draw(TREEHOUSE_DIE.outcomes(), rng_a) for _ in range(200)] == [TREEHOUSE_DIE.roll(rng_b) for _ in range(200)]
    loaded = (("a", Fraction(1, 10)), ("b", Fraction(9, 10)))
    rng = random.Random(1)
    drawn = [draw(loaded, rng) for _ in range(2000)]
    assert 1700 < drawn.count("b") < 1900


@pytest.mark.parametrize(
    "outcomes, problem",
    [
        ((), "non-empty tuple"),
        ([("a", Fraction(1))], "non-empty tuple"),
        ((("a", 0.5), ("b", 0.5)), "Fraction"),
        ((("a", Fraction(1, 2)), ("b", Fraction(1, 3))), "sum to 5/6"),
        ((("a", Fraction(1, 2)), ("a", Fraction(1, 2))), "twice"),
        ((("a", Fraction(1)), ("b", Fraction(0))), "leave out"),
    ],
)
def test_a_broken_chance_node_is_named(outcomes, problem):
    assert problem in chance_problem(outcomes)
    assert chance_problem(TREEHOUSE_DIE.outcomes()) is None


@pytest.mark.parametrize("variant", ["classic", "fences"])
def test_no_wild_is_honoured_by_the_engine_the_bots_and_replay(loaded, variant):
    from treehouse.bots.options import make_bot

    effective = resolve(loaded, variant=variant, overrides=["house_rules=[no-wild]", "turn_cap=60"])
    for seat in ("random", "greedy", "search(depth=1)"):
        record = Record()
        game = effective.new_game(loaded, [make_bot(loaded, seat), make_bot(loaded, seat)], random.Random(5), record=record)
        game.play()
        faces = faces_rolled(record)
        assert faces and "WILD" not in faces
        assert set(faces) <= {"TIP", "SWAP", "HOP", "DIG", "AIM"}
        assert replay(Record.loads(record.dumps()), loaded).state == game.state
    # the bots' chance nodes are the hook's
    game = effective.new_game(loaded, [make_bot(loaded, "greedy"), make_bot(loaded, "greedy")], random.Random(5))
    model = game.seats[0].model
    assert [face for face, _p in model.chance(game.state, Step("act"))] == ["TIP", "SWAP", "HOP", "DIG", "AIM"]
    assert sum(p for _f, p in model.chance(game.state, Step("act"))) == pytest.approx(1)


def test_a_recorded_wild_does_not_replay_under_no_wild(loaded, random_bot):
    effective = resolve(loaded, variant="classic")
    record = Record()
    game = effective.new_game(loaded, [random_bot(), random_bot()], random.Random(1), record=record)
    game.play()
    assert "WILD" in faces_rolled(record)
    record.header["house_rules"] = ["no-wild"]
    with pytest.raises(RecordError, match="the record rolls 'WILD', which cannot come up there"):
        replay(Record.loads(record.dumps()), loaded)


def test_th_moves_honours_no_wild(loaded):
    effective = resolve(loaded, variant="classic", overrides=["house_rules=[no-wild]"])
    variant = effective.variant()
    hooks = game_hooks(variant, effective.house_rule_plugins(loaded))
    assert variant.successors("L^/M^/S^", "hop", hooks)
    with pytest.raises(UnknownNameError, match="unknown action 'wild'; known: aim, dig, hop, swap, tip"):
        variant.successors("L^/M^/S^", "wild", hooks)
    assert variant.successors("L^/M^/S^", "wild")  # without the house rule, Wild is a face


# --------------------------------------------------------------------------
# house rules as factories
# --------------------------------------------------------------------------


def test_options_are_validated_and_made_canonical(loaded):
    effective = resolve(loaded, variant="classic", overrides=['house_rules=["count-steps(bonus=2)"]'])
    assert effective.house_rules == ["count-steps(bonus=2, label=steps)"]
    rule = loaded.house_rule("count-steps", "fences")
    assert rule.options == Counted() and rule.spec == "count-steps(bonus=1, label=steps)"


@pytest.mark.parametrize(
    "spec, error, message",
    [
        ("count-steps(bonus=-1)", ConfigError, "house rule 'count-steps': option bonus: Input should be greater than or equal to 0 (got -1)"),
        ("count-steps(speed=2)", ConfigError, "house rule 'count-steps' has no option 'speed'; its options: bonus, label"),
        ("count-steps(bonus)", Exception, "bad option 'bonus' in house rule 'count-steps(bonus)': expected key=value"),
        ("no-wild(x=1)", ConfigError, "house rule 'no-wild' takes no options, but 'no-wild(x=1)' gives x"),
        ("gravity", UnknownNameError, "unknown house rule 'gravity' for classic; known: also-first, always-first, count-steps,"),
        ("((", Exception, "bad house rule '(('"),
    ],
)
def test_bad_house_rule_specs_are_one_line(loaded, spec, error, message):
    with pytest.raises(error) as caught:
        resolve(loaded, variant="classic", overrides=[f"house_rules=[{spec!r}]".replace("'", '"')])
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_rule_named_twice_is_refused(loaded):
    with pytest.raises(ConfigError, match="'no-wild' is named twice"):
        resolve(loaded, variant="classic", overrides=["house_rules=[no-wild, no-wild]"])


def test_the_factory_sees_the_games_variant_and_options(loaded):
    effective = resolve(loaded, variant="classic", overrides=['house_rules=["count-steps(bonus=3, label=x)"]', "dig_in_place=false"])
    hooks = game_hooks(effective.variant(), effective.house_rule_plugins(loaded))
    plugin = hooks.manager.get_plugin("count-steps")
    assert plugin.variant is hooks.variant and plugin.variant.rules.dig_in_place is False
    assert plugin.options.bonus == 3


def test_step_statistics_are_summed_and_given_the_face(loaded):
    class Faces:
        @hookimpl
        def treehouse_step_statistics(self, before, after, step, move, mover, face):
            return {f"face {face}": 1, "steps": 10}

    effective = resolve(loaded, variant="classic", overrides=['house_rules=["count-steps(bonus=2)"]'])
    hooks = game_hooks(effective.variant(), effective.house_rule_plugins(loaded), extra=[Faces()])
    state = hooks.variant.treehouse_setup(hooks.variant, 2, random.Random(0))
    move = hooks.treehouse_legal_moves(state, Step("act"), "HOP")[0]
    after = hooks.treehouse_apply_move(state, Step("act"), move)
    counts = hooks.treehouse_step_statistics(state, after, Step("act"), move, 0, "HOP")
    assert counts == {"face HOP": 1, "steps": 12, "own_moves": 1}


def test_a_house_rule_for_any_variant_fits_both(loaded):
    assert {info.name for info in loaded.house_rules_for("fences")} >= {"count-steps", "no-wild"}
    assert "always-first" not in {info.name for info in loaded.house_rules_for("fences")}
    with pytest.raises(PluginError, match="house rule 'always-first' is written for classic, not fences"):
        loaded.house_rule("always-first", "fences")


def test_old_style_registration_of_a_plugin_object_is_one_problem():
    class Old:
        @hookimpl
        def treehouse_register_house_rules(self, register):
            register("old", NoWild.__new__(NoWild), "classic", "an object, not a factory")

    class Plugin:
        @hookimpl(tryfirst=True)
        def treehouse_chance(self, state, step):
            return None

    class Older:
        @hookimpl
        def treehouse_register_house_rules(self, register):
            register("older", Plugin(), "classic")

    plugins = load_plugins(extra=[("older", Older())])
    assert plugins.problems == [
        "plugin 'older': house rule 'older' must be registered with a factory(variant, options) that builds its plugin, not a plugin object; ignored"
    ]


def test_house_rules_in_records_rebuild_the_same_plugins(loaded, random_bot):
    effective = resolve(loaded, variant="classic", overrides=['house_rules=[no-wild, "count-steps(bonus=2)"]'])
    record = Record()
    game = effective.new_game(loaded, [random_bot(), random_bot()], random.Random(3), record=record)
    game.play()
    assert record.header["house_rules"] == ["no-wild", "count-steps(bonus=2, label=steps)"]
    again = replay(Record.loads(record.dumps()), loaded)
    assert again.state == game.state
    assert again.hooks.manager.get_plugin("count-steps").options.bonus == 2


# --------------------------------------------------------------------------
# conflicts
# --------------------------------------------------------------------------


def test_two_rules_answering_one_first_result_hook_are_warned_about(loaded):
    effective = resolve(loaded, variant="classic", overrides=["house_rules=[also-first, always-first]"])
    assert [warning for warning in effective.warnings if " both answer " in warning] == [
        "house rules 'also-first' and 'always-first' both answer treehouse_evaluate; 'also-first' is asked first and its answer counts"
        " (tryfirst ranks first, then the order of house_rules:)"
    ]
    hooks = game_hooks(effective.variant(), effective.house_rule_plugins(loaded))
    assert hooks.treehouse_evaluate(hooks.variant.treehouse_setup(None, 2, None), 0) == -3.5
    other = resolve(loaded, variant="classic", overrides=["house_rules=[always-first, also-first]"])
    hooks = game_hooks(other.variant(), other.house_rule_plugins(loaded))
    assert hooks.treehouse_evaluate(hooks.variant.treehouse_setup(None, 2, None), 0) == 1.0
    assert resolve(loaded, variant="classic", overrides=["house_rules=[always-first, no-wild]"]).warnings == []


def test_the_cli_prints_the_warning_once(loaded, monkeypatch):
    from typer.testing import CliRunner

    import treehouse.cli.common as common
    from treehouse.cli.app import app

    monkeypatch.setattr(common, "plugins", lambda: loaded)
    result = CliRunner().invoke(app, ["rules", "--variant", "classic", "--set", "house_rules=[also-first, always-first]"])
    assert result.exit_code == 0, result.output
    assert result.output.count("warning: house rules 'also-first' and 'always-first' both answer treehouse_evaluate") == 1


# --------------------------------------------------------------------------
# variant-defined hooks
# --------------------------------------------------------------------------


def treehouse_ring_bonus(state, seat):
    """A bonus for ``seat`` in ``state`` (a number).  First result."""


#: A variant's own hook specifications: usually a module, here a namespace.
RingSpecs = types.SimpleNamespace(treehouse_ring_bonus=hookspec(firstresult=True)(treehouse_ring_bonus))


class Ring(Classic):
    name = "ring"
    aliases = ()
    hookspecs = RingSpecs

    @hookimpl
    def treehouse_ring_bonus(self, state, seat):
        return 0.0

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        return super().treehouse_evaluate(state, seat) + self.hooks.treehouse_ring_bonus(state, seat)


class BigBonus:
    def __init__(self, variant, options) -> None:
        pass

    @hookimpl(tryfirst=True)
    def treehouse_ring_bonus(self, state, seat):
        return 1000.0


class Misspelt:
    def __init__(self, variant, options) -> None:
        pass

    @hookimpl
    def treehouse_ring_bonsu(self, state, seat):
        return 1.0


class RingPlugin:
    @hookimpl
    def treehouse_register_variants(self, register):
        register(Ring)

    @hookimpl
    def treehouse_register_house_rules(self, register):
        register("big-bonus", BigBonus, needs=("treehouse_ring_bonus",), description="a big bonus")
        register("misspelt", Misspelt, variants="ring")


@pytest.fixture(scope="module")
def ringed():
    plugins = load_plugins(extra=[("ring", RingPlugin())])
    assert plugins.problems == []
    return plugins


def test_a_variant_adds_hooks_of_its_own(ringed):
    plain = resolve(ringed, variant="ring")
    hooks = game_hooks(plain.variant(), plain.house_rule_plugins(ringed))
    assert hasattr(hooks, "treehouse_ring_bonus")
    state = hooks.variant.treehouse_setup(None, 2, None)
    base = hooks.treehouse_evaluate(state, 0)
    bonus = resolve(ringed, variant="ring", overrides=["house_rules=[big-bonus]"])
    hooks = game_hooks(bonus.variant(), bonus.house_rule_plugins(ringed))
    assert hooks.treehouse_ring_bonus(state, 0) == 1000.0
    assert hooks.treehouse_evaluate(state, 0) == base + 1000.0  # the variant calls its own hook, house rules included
    assert "ring" in ringed.loaded["ring"].provides[0] and "treehouse_ring_bonus" in ringed.loaded["ring"].provides[0]


def test_a_rule_needing_a_variants_hook_fits_only_where_it_exists(ringed):
    assert "big-bonus" in {info.name for info in ringed.house_rules_for("ring")}
    assert "big-bonus" not in {info.name for info in ringed.house_rules_for("classic")}
    with pytest.raises(PluginError, match="house rule 'big-bonus' needs the hook\\(s\\) treehouse_ring_bonus, which classic does not provide"):
        resolve(ringed, variant="classic", overrides=["house_rules=[big-bonus]"])


def test_a_misspelt_variant_hook_is_named(ringed):
    with pytest.raises(PluginError, match="plugin 'misspelt' implements unknown hook\\(s\\) treehouse_ring_bonsu; was it misspelt\\?"):
        resolve(ringed, variant="ring", overrides=["house_rules=[misspelt]"])


@pytest.mark.parametrize(
    "specs, problem",
    [
        ("ring_bonus", "hook 'ring_bonus' must be named treehouse_..."),
        ("treehouse_evaluate", "hook 'treehouse_evaluate' is already a kernel hook"),
        ("treehouse_undocumented", "hook 'treehouse_undocumented' has no docstring"),
    ],
)
def test_bad_variant_hookspecs_are_refused_in_one_line(specs, problem):
    def spec(state):
        pass

    spec.__doc__ = None
    holder = types.SimpleNamespace(**{specs: hookspec(spec)})

    class Bad(Classic):
        name = "bad"
        aliases = ()
        hookspecs = holder

    plugin = types.ModuleType("bad")
    plugin.treehouse_register_variants = hookimpl(lambda register: register(Bad))
    plugins = load_plugins(extra=[("bad", plugin)])
    assert "bad" not in plugins.variants
    assert plugins.problems == [f"plugin 'bad': variant bad's {problem}; ignored"] or problem in plugins.problems[0]


def test_house_rule_plugins_are_hashable_so_games_share_managers(loaded):
    a = loaded.house_rule("count-steps(bonus=2)", "classic")
    b = loaded.house_rule("count-steps(bonus=2)", "classic")
    assert a == b and hash(a) == hash(b)
    assert game_hooks(Classic(), [a]) is game_hooks(Classic(), [b])
    assert isinstance(a, HouseRule)


# --------------------------------------------------------------------------
# local plugins: --plugins-dir and TREEHOUSE_PLUGINS_DIR
# --------------------------------------------------------------------------

NO_WILD_MODULE = '''
from fractions import Fraction
from treehouse.hookspecs import hookimpl


class NoWild:
    def __init__(self, variant, options):
        self.outcomes = tuple((face, Fraction(1, 5)) for face in variant.die.faces if face != "WILD")

    @hookimpl(tryfirst=True)
    def treehouse_chance(self, state, step):
        return self.outcomes

    @hookimpl(tryfirst=True)
    def treehouse_describe_face(self, face):
        return "no Wild here" if face == "WILD" else None


@hookimpl
def treehouse_register_house_rules(register):
    register("local-no-wild", NoWild, description="no Wild face")
'''


def test_a_plugin_folder_is_loaded_and_a_broken_module_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "no_wild.py").write_text(NO_WILD_MODULE)
    (tmp_path / "broken.py").write_text("raise RuntimeError('half written')\n")
    (tmp_path / "_private.py").write_text("raise RuntimeError('never imported')\n")
    monkeypatch.setenv("TREEHOUSE_PLUGINS_DIR", str(tmp_path))
    plugins = load_plugins()
    assert "local-no-wild" in plugins.house_rules
    assert plugins.loaded["no_wild"].distribution == f"(local: {tmp_path})"
    assert plugins.problems == [f"plugin 'broken' ({tmp_path / 'broken.py'}) failed to import: RuntimeError: half written"]


def test_th_plugins_dir_reaches_the_commands_and_their_workers(tmp_path):
    import subprocess
    import sys

    (tmp_path / "no_wild.py").write_text(NO_WILD_MODULE)
    th = [sys.executable, "-m", "treehouse"]
    moves = subprocess.run(
        [*th, "--plugins-dir", str(tmp_path), "moves", "L^/M^/S^", "-a", "wild", "--set", "house_rules=[local-no-wild]"],
        capture_output=True, text=True, timeout=120,
    )
    assert moves.returncode == 2 and moves.stderr.strip() == "error: unknown action 'wild'; known: aim, dig, hop, swap, tip"
    simulated = subprocess.run(
        [*th, "--plugins-dir", str(tmp_path), "simulate", "--variant", "classic", "--set", "house_rules=[local-no-wild]",
         "--games", "20", "--jobs", "2", "--json"],
        capture_output=True, text=True, timeout=300,
    )
    assert simulated.returncode == 0, simulated.stderr
    assert "WILD" not in simulated.stdout and "TIP" in simulated.stdout
    missing = subprocess.run([*th, "--plugins-dir", str(tmp_path / "nope"), "variants"], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "no such folder" in missing.stderr and "\n" not in missing.stderr.strip()


# --------------------------------------------------------------------------
# notation and descriptions as hooks: a house rule adds a move kind
# --------------------------------------------------------------------------


class Flip(NamedTuple):
    """A move kind of the house rule below: mirror one's own trio left to right."""

    kind: str = "flip"


class FlipOnWild:
    """On WILD the player may also mirror their own trio (a new move kind)."""

    def __init__(self, variant, options) -> None:
        pass

    @hookimpl(wrapper=True)
    def treehouse_legal_moves(self, state, step, face):
        moves = yield
        own = state.trios[state.to_move]
        if face == "WILD" and mirror(own) != own:
            return (*moves, Flip())
        return moves

    @hookimpl(tryfirst=True)
    def treehouse_apply_move(self, state, step, move):
        if isinstance(move, Flip):
            trios = list(state.trios)
            trios[state.to_move] = mirror(trios[state.to_move])
            return state._replace(trios=tuple(trios))
        return None

    @hookimpl
    def treehouse_format_move(self, move):
        return "flip" if isinstance(move, Flip) else None

    @hookimpl
    def treehouse_parse_move(self, text):
        return Flip() if text.strip().lower() == "flip" else None

    @hookimpl
    def treehouse_describe_move(self, move):
        return "mirror your trio" if isinstance(move, Flip) else None

    @hookimpl(tryfirst=True)
    def treehouse_step_statistics(self, before, after, step, move, mover, face):
        return {"flips": 1} if isinstance(move, Flip) else None


class FlipPlugin:
    @hookimpl
    def treehouse_register_house_rules(self, register):
        register("flip-on-wild", FlipOnWild, variants="classic", description="mirror your trio on WILD")


def test_a_house_rule_adds_a_move_kind_that_records_replays_and_has_words(random_bot):
    from treehouse.kernel.engine import format_move, parse_move
    from treehouse.kernel.resume import walk

    plugins = load_plugins(extra=[("flip", FlipPlugin())])
    effective = resolve(plugins, variant="classic", overrides=["house_rules=[flip-on-wild]"])
    flipped = None
    for seed in range(40):
        record = Record()
        game = effective.new_game(plugins, [random_bot(), random_bot()], random.Random(seed), record=record)
        game.play()
        if any(isinstance(event[4], Flip) for event in record.events if event[0] == "move"):
            flipped = (record, game)
            break
    assert flipped is not None, "no random game flipped in 40 seeds"
    record, game = flipped
    text = record.dumps()
    assert '"move":"flip"' in text
    again = replay(Record.loads(text), plugins)  # parsed back through the rule's parse hook
    assert again.state == game.state and again.outcome == game.outcome
    frames = walk(Record.loads(text), plugins).frames
    assert "mirror your trio" in [frame.words for frame in frames]
    assert format_move(game.variant, Flip()) == "flip" and parse_move(game.variant, " FLIP ") == Flip()
    # without the house rule the notation is not known: one line, no traceback
    plain = Classic()
    with pytest.raises(Exception) as caught:
        parse_move(plain, "flip")
    assert "\n" not in str(caught.value)
    from treehouse.testing import check_variant

    report = check_variant("classic", games=3, overrides=["house_rules=[flip-on-wild]"], plugins=plugins)
    assert report.games > 0


def test_faces_are_described_through_the_hooks():
    classic = game_hooks(Classic())
    assert classic.treehouse_describe_face("TIP") == "tip an upright stack or piece over, left or right"
    fences = load_plugins().variant("fences")
    assert "Standing Fence in your Stack's row or column" in game_hooks(fences()).treehouse_describe_face("TIP")


def test_perfect_plays_as_search_when_a_house_rule_changes_the_game(loaded, random_bot):
    """Its table is solved for the plain rules: with a house rule (say, no Wild face) it would be wrong."""
    from treehouse.variants.classic.perfect import PerfectBot
    from treehouse.bots.search import SearchBot

    effective = resolve(loaded, variant="classic", overrides=["house_rules=[no-wild]"])
    bot = PerfectBot()
    effective.new_game(loaded, [bot, random_bot()], random.Random(0))
    assert isinstance(bot.fallback, SearchBot)
