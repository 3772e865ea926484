"""The example house rules, through the public API: rule sets, games, records, the kit."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import typing

import pytest

from treehouse.bots.options import make_bot
from treehouse.config import resolve
from treehouse.errors import ConfigError, NotationError
from treehouse.kernel.engine import format_move, parse_move, play_move
from treehouse.kernel.hooks import all_game_hooks, game_hooks
from treehouse.kernel.records import Record
from treehouse.plugins import load_plugins
from treehouse.testing import check_variant
from treehouse.variants.fences.game import FencesRules
from treehouse.variants.fences.position import SETS
from treehouse_fences_house_rules.wild_repair import TALLY, Repair


@pytest.fixture(scope="module")
def plugins():
    loaded = load_plugins()
    assert "wild-repair" in loaded.house_rules and "large-fences-only" in loaded.house_rules
    return loaded


def hits_hook_ready(plugins) -> bool:
    return "treehouse_fences_hits" in all_game_hooks(plugins.variant("fences"))


def needs_hits_hook(plugins):
    if not hits_hook_ready(plugins):
        pytest.skip("this Fences does not provide treehouse_fences_hits yet")


def games_until(plugins, effective, seats, wanted, seeds=range(60)):
    """The first seeded game (and its record) in which ``wanted(record)`` holds."""
    for seed in seeds:
        record = Record(meta={"seed": seed})
        game = effective.new_game(plugins, [make_bot(plugins, s) for s in seats], random.Random(seed), record=record)
        game.play()
        if wanted(record):
            return game, record
    raise AssertionError("no game in the seeds did it")


def repaired(record) -> bool:
    return any(isinstance(event[4], Repair) for event in record.events if event[0] == "move")


# -- wild-repair ----------------------------------------------------------


def test_wild_repair_options_are_checked_and_recorded(plugins):
    assert resolve(plugins, variant="fences", overrides=["house_rules=[wild-repair]"]).house_rules == ["wild-repair(max=1)"]
    assert resolve(plugins, variant="fences", overrides=['house_rules=["wild-repair(max=3)"]']).house_rules == ["wild-repair(max=3)"]
    with pytest.raises(ConfigError, match="house rule 'wild-repair': option max: Input should be greater than or equal to 0"):
        resolve(plugins, variant="fences", overrides=['house_rules=["wild-repair(max=-1)"]'])
    with pytest.raises(ConfigError, match="house rule 'wild-repair' has no option 'times'; its options: max"):
        resolve(plugins, variant="fences", overrides=['house_rules=["wild-repair(times=2)"]'])


def test_a_repair_is_offered_on_wild_only_and_at_most_max_times(plugins):
    effective = resolve(plugins, variant="fences", overrides=['house_rules=["wild-repair(max=1)"]', "turn_cap=200"])
    game, record = games_until(plugins, effective, ["random", "random"], repaired)
    hooks, variant = game.hooks, game.variant
    # replay up to the repair, and check what was offered around it
    events = [e for e in record.events if e[0] in ("roll", "move")]
    index = next(i for i, e in enumerate(events) if e[0] == "move" and isinstance(e[4], Repair))
    assert events[index - 1][0] == "roll" and events[index - 1][4] == "WILD"
    seat = events[index][2]
    final = game.state
    assert final.tally(TALLY)[seat] >= 1
    assert all(count <= 1 for count in final.tally(TALLY))
    # once used up, never offered again to that seat
    used = final
    step = next(s for s in hooks.treehouse_turn_steps(used._replace(phase=1)) if s.rolls)
    if used.stacks[seat] and used.destroyed[seat]:
        offered = hooks.treehouse_legal_moves(used._replace(phase=1, to_move=seat), step, "WILD")
        assert not any(isinstance(m, Repair) for m in offered)
    assert variant.format_position(final).endswith(f"{TALLY}:{','.join(map(str, final.tally(TALLY)))}")


def test_a_repair_takes_back_a_small_onto_the_top(plugins):
    effective = resolve(plugins, variant="fences", overrides=['house_rules=["wild-repair(max=2)"]'])
    hooks = game_hooks(effective.variant(), effective.house_rule_plugins(plugins))
    fences = hooks.variant
    state = fences.parse_position(
        "Lg*Mg*Mg*My*Lr*/Mr*....2Ly*/My*.....Mb*/Lo*.....Mr*/Lr*.....Lb*/Mb*1....Mo*/Ly*Lb*Lo*Mo*Lg* bgr,yygr o,- ob 1 act 0"
    )
    step = hooks.treehouse_turn_steps(state)[0]
    moves = hooks.treehouse_legal_moves(state, step, "WILD")
    assert Repair("orange") in moves
    assert not any(isinstance(m, Repair) for m in hooks.treehouse_legal_moves(state, step, "TIP"))
    after, _events = play_move(hooks, state, step, Repair("orange"))
    assert after.stacks[0][-1] == "orange" and after.destroyed[0] == ()
    assert after.tally(TALLY) == (1, 0) and after.step_name == "stack"
    assert fences.parse_position(fences.format_position(after)) == after


def test_the_repair_notation_goes_through_the_hooks(plugins):
    effective = resolve(plugins, variant="fences", overrides=["house_rules=[wild-repair]"])
    game = effective.new_game(plugins, [make_bot(plugins, "random"), make_bot(plugins, "random")], random.Random(1))
    assert format_move(game.variant, Repair("blue")) == "repair +b"
    assert parse_move(game.variant, " Repair +B ") == Repair("blue")
    assert game.hooks.treehouse_describe_move(Repair("blue")) == "take back a destroyed blue small onto your Stack"
    assert "take back a destroyed small" in game.hooks.treehouse_describe_face("WILD")
    with pytest.raises(NotationError, match=r"bad repair 'repair \+z': expected 'repair \+C'"):
        parse_move(game.variant, "repair +z")


def test_greedy_games_with_repairs_replay_in_a_fresh_process(plugins, tmp_path):
    effective = resolve(plugins, variant="fences", overrides=['house_rules=["wild-repair(max=2)"]', "line_hits=every_check"])
    game, record = games_until(plugins, effective, ["greedy", "greedy"], repaired, seeds=range(40))
    path = record.write(tmp_path / "game.jsonl")
    assert '"move":"repair +' in path.read_text()
    done = subprocess.run([sys.executable, "-m", "treehouse", "replay", str(path), "--all"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "take back a destroyed" in done.stdout


def test_the_kit_passes_with_wild_repair(plugins):
    report = check_variant("fences", games=2, players=[2, 3], seat_kinds=("random",), overrides=['house_rules=["wild-repair(max=2)"]'], plugins=plugins, house_rules=False)
    assert report.games == 4


# -- large-fences-only ----------------------------------------------------


def test_large_fences_only_fits_variants_with_the_hits_hook(plugins):
    if hits_hook_ready(plugins):
        assert "large-fences-only" in {info.name for info in plugins.house_rules_for("fences")}
    assert "large-fences-only" not in {info.name for info in plugins.house_rules_for("classic")}


def test_medium_fences_never_hit(plugins):
    needs_hits_hook(plugins)
    from treehouse.kernel.pieces import Size

    effective = resolve(plugins, variant="fences", overrides=["house_rules=[large-fences-only]", "turn_cap=150"])
    plain = resolve(plugins, variant="fences", overrides=["turn_cap=150"])

    def medium_hits(effective):
        found = 0
        for seed in range(12):
            record = Record()
            game = effective.new_game(plugins, [make_bot(plugins, "random"), make_bot(plugins, "random")], random.Random(seed), record=record)
            game.play()
            for event in record.events:
                if event[0] == "resolved":
                    for e in event[4]:
                        source = getattr(getattr(e, "hit", None), "source", None)
                        if source is not None and source.seat is None and source.size == Size.MEDIUM:
                            found += 1
        return found

    assert medium_hits(plain) > 0
    assert medium_hits(effective) == 0


# -- no-swap-outside ------------------------------------------------------


def test_a_swap_with_an_outside_fence_no_longer_hits(plugins):
    """Random seats swap with Outside Fences often enough: those Hits are
    there in plain games and gone under the rule, through the same engine."""
    needs_hits_hook(plugins)
    from treehouse.variants.fences.hits import Cause

    def swap_hits(overrides):
        effective = resolve(plugins, variant="fences", overrides=[*overrides, "turn_cap=150"])
        found = 0
        for seed in range(12):
            record = Record()
            game = effective.new_game(plugins, [make_bot(plugins, "random"), make_bot(plugins, "random")], random.Random(seed), record=record)
            game.play()
            found += sum(1 for event in record.events if event[0] == "resolved" for e in event[4] if getattr(getattr(e, "hit", None), "cause", None) is Cause.SWAP_OUTSIDE)
        return found

    assert swap_hits([]) > 0
    assert swap_hits(["house_rules=[no-swap-outside]"]) == 0


def test_the_kit_passes_with_large_fences_only(plugins):
    needs_hits_hook(plugins)
    report = check_variant("fences", games=2, players=[2], overrides=["house_rules=[large-fences-only]"], plugins=plugins)
    assert report.games == 2


def test_the_kit_runs_every_installed_house_rule_and_replays_in_a_fresh_process():
    """As a plugin author runs it: the installed plugins, each fitting house rule in turn, records replayed anew."""
    report = check_variant("fences", games=1, players=[2], turn_cap=120)
    assert "wild-repair" in report.house_rules


# -- the done-when, smaller: th compare with records, each replayed in a fresh process


def _compare_and_replay(tmp_path, set_b: str, extra: list[str]) -> int:
    folder = tmp_path / "records"
    th = [sys.executable, "-m", "treehouse"]
    done = subprocess.run(
        [*th, "compare", "fences", "--set-b", set_b, *extra, "--games", "12", "--seat", "greedy", "--seat", "greedy", "--records", str(folder), "--jobs", "2"],
        capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr
    records = sorted(folder.glob("*.jsonl"))
    assert len(records) == 24  # a- and b- of each game
    # every record replayed in one fresh process (the plugins loaded anew, nothing kept from the run) ...
    code = (
        "import sys; from treehouse.kernel.records import Record; from treehouse.kernel.replay import replay; from treehouse.plugins import load_plugins\n"
        "plugins = load_plugins()\nfor path in sys.argv[1:]:\n    replay(Record.read(path), plugins)\nprint(len(sys.argv) - 1)"
    )
    replayed = subprocess.run([sys.executable, "-c", code, *map(str, records)], capture_output=True, text=True, timeout=300)
    assert replayed.returncode == 0 and replayed.stdout.split() == ["24"], replayed.stderr
    # ... and one of each side by th replay, as a person types it
    for path in (records[0], records[-1]):
        replayed = subprocess.run([*th, "replay", str(path), "--all"], capture_output=True, text=True, timeout=300)
        assert replayed.returncode == 0, f"{path.name}: {replayed.stderr}"
    return len(records)


@pytest.mark.parametrize("extra", [[], ["--set", "line_hits=every_check"]], ids=["default", "every_check"])
def test_compare_records_replay_in_fresh_processes_with_wild_repair(tmp_path, extra):
    assert _compare_and_replay(tmp_path, 'house_rules=["wild-repair(max=2)"]', extra) == 24


@pytest.mark.parametrize("extra", [[], ["--set", "line_hits=every_check"]], ids=["default", "every_check"])
def test_compare_records_replay_in_fresh_processes_with_large_fences_only(plugins, tmp_path, extra):
    needs_hits_hook(plugins)
    assert _compare_and_replay(tmp_path, "house_rules=[large-fences-only]", extra) == 24


# -- every example house rule under every colour set (issue 47, item 7) ----


def example_rules(plugins) -> list[str]:
    """This package's house rules, as specs (wild-repair allowed 3 repairs, so some are made)."""
    names = sorted(info.name for info in plugins.house_rules_for("fences") if info.provider == "fences-house-rules")
    assert names == ["large-fences-only", "no-swap-outside", "wild-repair"]
    return [f"{name}(max=3)" if name == "wild-repair" else name for name in names]


COLOUR_SETS = list(typing.get_args(FencesRules.model_fields["sets"].annotation))


@pytest.mark.parametrize("sets", COLOUR_SETS)
def test_every_example_rule_writes_records_that_replay_under_every_colour_set(plugins, tmp_path, sets):
    """Short games of random seats (2 and 4 players, so every colour is drawn;
    24 games a rule, under a second in all) per rule, each record written, read
    back and replayed: a rule whose notation knows only some colours fails here
    (``KeyError: 'clear'``).  Seed 10 (2 players) repairs a small: yellow
    under two-rainbow, cyan (a Xeno colour) under rainbow-xeno."""
    from treehouse.kernel.replay import replay

    repaired_colours = set()
    for rule in example_rules(plugins):
        effective = resolve(plugins, variant="fences", overrides=[f"house_rules=[{rule!r}]".replace("'", '"'), f"sets={sets}", "turn_cap=80"])
        for seed, players in itertools.product(range(12), (2, 4)):
            record = Record(meta={"seed": seed})
            effective.new_game(plugins, [make_bot(plugins, "random") for _ in range(players)], random.Random(seed), record=record).play()
            path = record.write(tmp_path / f"{rule}-{seed}.jsonl")
            again = Record.read(path)
            assert again.dumps() == record.dumps()
            replay(again, plugins)
            repaired_colours |= {event[4].colour for event in record.events if event[0] == "move" and isinstance(event[4], Repair)}
    assert repaired_colours & set(SETS[sets]) - ({"red", "orange", "yellow", "green", "blue"} if sets == "rainbow-xeno" else set()), (
        f"no game repaired a small of a colour only {sets} has: the records did not try the rule's notation with it"
    )
