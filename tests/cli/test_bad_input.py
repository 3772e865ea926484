"""The bad-input audit: every command given wrong input as a user would type it.

Each row is a command line (``{dir}`` is a folder of broken files made below),
the words its one line of error must contain, and its exit status (2 for a
user's mistake).  Every row must exit with that status within seconds, print
no traceback, and put exactly one line of at most a few hundred characters on
standard error, starting with ``error: ``.  A row added here keeps a mistake from ever
turning back into a traceback or a silent success.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.plugins import load_plugins

runner = CliRunner()
PLUGINS = load_plugins()
RACE = "race" in PLUGINS.variants
FENCES_START = (
    "Mr*Ly*Mg*Mb*Lb*/Ly*....2Lr*/Mb*.....Mg*/Lo*.....Lr*/Lb*.....My*/Lo*1....Lg*/Lg*Mo*My*Mo*Mr* gbrr,oyog -,- yb 1 fence 0"
)


def th(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def assert_one_line_error(result, words, code=2):
    assert "Traceback" not in result.output, result.output[-2000:]
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)[:2000]
    assert result.exit_code == code, (result.exit_code, result.output[-2000:])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, [line[:300] for line in lines]
    assert lines[0].startswith("error: "), lines[0][:2000]
    assert len(lines[0]) <= 310, f"{len(lines[0])} characters: {lines[0][:400]}"
    assert words in lines[0], lines[0]


# --------------------------------------------------------------------------
# the broken files
# --------------------------------------------------------------------------

#: A "billion laughs": nine levels of nine aliases, 9**9 strings once expanded.
LAUGHS = "{" + ", ".join(
    [f"l0: &l0 [{', '.join(['lol'] * 9)}]"] + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
) + "}"

YAML = {
    "tabs.yaml": "variant: classic\nrules:\n\tdig_in_place: false\n",
    "indent.yaml": "variant: classic\nrules:\n  dig_in_place: false\n    house_decline: pass\n",
    "list.yaml": "- variant\n- classic\n",
    "loop-a.yaml": "variant: classic\nextends: loop-b.yaml\n",
    "loop-b.yaml": "extends: loop-a.yaml\n",
    "missing-parent.yaml": "variant: classic\nextends: nowhere\n",
    "empty.yaml": "",
    "described.yaml": "variant: classic\ndescription: 'closing [/b] tags are text'\n",
    # hostile or sloppy rule sets
    "huge-number.yaml": "variant: classic\nturn_cap: " + "9" * 5000 + "\n",
    "huge-rule-number.yaml": "variant: classic\nrules:\n  max_players: " + "9" * 5000 + "\n",
    "deep.yaml": "variant: classic\nrules:\n  dig_in_place: " + "[" * 500 + "]" * 500 + "\n",
    "deep-mapping.yaml": "variant: classic\ndescription: " + "{a: " * 500 + "1" + "}" * 500 + "\n",
    "laughs.yaml": "variant: classic\ndescription: " + LAUGHS + "\n",
    "laughs-rule.yaml": "variant: classic\nrules:\n  dig_in_place: " + LAUGHS + "\n",
    "self.yaml": "variant: classic\ndescription: &a [*a]\n",
    "duplicate.yaml": "variant: classic\nturn_cap: 5\nrules:\n  dig_in_place: true\n  dig_in_place: false\n",
    "duplicate-top.yaml": "variant: classic\nturn_cap: 5\ndescription: x\nturn_cap: 6\n",
    "cap-true.yaml": "variant: classic\nturn_cap: true\n",
    "dig-one.yaml": "variant: classic\nrules:\n  dig_in_place: 1\n",
    "dig-yes.yaml": "variant: classic\nrules:\n  dig_in_place: 'yes'\n",
    "players-text.yaml": "variant: classic\nrules:\n  max_players: '3.0'\n",
    "fences-limit.yaml": "variant: fences\nrules:\n  turn_limit: 100000000000000000000\n",
    "fences.yaml": "variant: fences\n",
    "long-key.yaml": "variant: classic\n? " + "k" * 500_000 + "\n: 1\n",
}


def _record_lines(tmp: Path, *, finished: bool) -> list[dict]:
    """A real classic record: a finished game of bots, or a game saved after a few moves."""
    path = tmp / ("finished.jsonl" if finished else "saved.jsonl")
    if finished:
        result = th("play", "-v", "classic", "--watch", "--bot", "random", "--seed", "5", "--delay", "0", "--record", path)
    else:
        result = th("play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", path, input="1\n1\n1\nq\n")
    assert result.exit_code == 0, result.output[-2000:]
    return [json.loads(line) for line in path.read_text().splitlines()]


def _edited(lines: list[dict], change) -> str:
    lines = copy.deepcopy(lines)
    change(lines)
    return "".join(json.dumps(event) + "\n" for event in lines)


def _first_move(lines: list[dict]) -> dict:
    return next(event for event in lines if event["event"] == "move")


@pytest.fixture(scope="module")
def files(tmp_path_factory, monkeypatch_module):
    tmp = tmp_path_factory.mktemp("bad")
    for name, text in YAML.items():
        (tmp / name).write_text(text)
    (tmp / "latin1.yaml").write_bytes(b"variant: classic\ndescription: caf\xe9\n")
    (tmp / "big.yaml").write_text("variant: classic\ndescription: " + "x" * 1_100_000 + "\n")
    (tmp / "folder.yaml").mkdir()
    (tmp / "folder").mkdir()
    finished = _record_lines(tmp, finished=True)
    saved = _record_lines(tmp, finished=False)
    records = {
        "empty.jsonl": "",
        "not-json.jsonl": "hello\n",
        "array.jsonl": "[1, 2]\n",
        "truncated.jsonl": _edited(saved, lambda e: None)[:-25],
        "foreign.jsonl": _edited(saved, lambda e: e[0].update(format="chess-pgn/1")),
        "other-variant.jsonl": _edited(saved, lambda e: e[0].update(variant="fences")),
        "unknown-variant.jsonl": _edited(saved, lambda e: e[0].update(variant="chess")),
        "illegal.jsonl": _edited(saved, lambda e: _first_move(e).update(move="aim L^ S^ M^")),
        "garbled-move.jsonl": _edited(saved, lambda e: _first_move(e).update(move="zzz")),
        "infinite-turn.jsonl": _edited(saved, lambda e: e[1].update(turn=float("inf"))),
        "meta-list.jsonl": _edited(saved, lambda e: e[0].update(meta=[1])),
        "rules-list.jsonl": _edited(saved, lambda e: e[0].update(rules=[1])),
        "variant-list.jsonl": _edited(saved, lambda e: e[0].update(variant=["classic"])),
        "turn-cap-text.jsonl": _edited(saved, lambda e: e[0].update(turn_cap="x")),
        "seats-null.jsonl": _edited(saved, lambda e: e[0].update(seats=None)),
        "deep-search.jsonl": _edited(saved, lambda e: (e[0].update(seats=["human", "search(depth=99)"]), e[0]["meta"].update(seats=["human", "search(depth=99)"]))),
        "nan-search.jsonl": _edited(saved, lambda e: (e[0].update(seats=["human", "search(seconds=nan)"]), e[0]["meta"].update(seats=["human", "search(seconds=nan)"]))),
        "position-number.jsonl": _edited(saved, lambda e: e[0].update(position=5)),
        "house-rules-nested.jsonl": _edited(saved, lambda e: e[0].update(house_rules=[["x"]])),
        "move-null.jsonl": _edited(saved, lambda e: _first_move(e).update(move=None)),
        "over.jsonl": _edited(finished, lambda e: None),
        "no-seed.jsonl": _edited(saved, lambda e: e[0]["meta"].pop("seed")),
        "other-seed.jsonl": _edited(saved, lambda e: e[0]["meta"].update(seed=5)),
        "deep.jsonl": "[" * 100_000 + "]" * 100_000 + "\n",
    }
    for name, text in records.items():
        (tmp / name).write_text(text)
    (tmp / "bytes.jsonl").write_bytes(b"\xff\xfe" + (tmp / "saved.jsonl").read_bytes())
    return tmp


@pytest.fixture(scope="module")
def monkeypatch_module():
    """Records of th play go to a private data folder; plain output, 80 columns."""
    patch = pytest.MonkeyPatch()
    patch.setenv("NO_COLOR", "1")
    patch.setenv("COLUMNS", "80")
    patch.delenv("TREEHOUSE_DEBUG", raising=False)
    yield patch
    patch.undo()


# --------------------------------------------------------------------------
# the table
# --------------------------------------------------------------------------

CASES = [
    # notation: classic
    (("show", "L^/Q^"), "bad piece 'Q^' in 'L^/Q^'", 2),
    (("show", ""), "empty trio", 2),
    (("show", "L^//M^ S^"), "bad stack 'L^//M^'", 2),
    (("show", "L^ :: x"), "bad classic position", 2),
    (("show", "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: x"), "bad seat to move 'x'", 2),
    (("show", "L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 3"), "seat 3 is to move", 2),
    (("moves", "-a", "tip", "L^/M^/S^/S^"), "has 2 S pieces", 2),
    (("moves", "-a", "tip", "-"), "no position on standard input", 2),
    (("moves", "-v", "classic", "-a", "tip", "-", "<L^/Q^"), "line 1: bad piece 'Q^'", 2),
    (("moves", "-a", "tip", "-", "<L^/Q^"), "line 1: no installed variant reads 'L^/Q^' (name one with --variant)", 2),
    # notation: fences
    (("show", "-v", "fences", "garbage"), "a fences position has 7 fields", 2),
    (("show", "-v", "fences", FENCES_START.replace("Mr*Ly", "Qr*Ly")), "bad cell 'Qr*'", 2),
    (("show", "-v", "fences", FENCES_START.replace("gbrr", "gbrz")), "bad colour 'z' in STACKS", 2),
    (("show", "-v", "fences", FENCES_START.replace("fence 0", "fence -1")), "the turn count -1 is negative", 2),
    (("show", "-v", "fences", FENCES_START.replace("fence 0", "lunch 0")), "bad step 'lunch'", 2),
    (("moves", "-v", "fences", "-a", "jump", FENCES_START), "unknown action 'jump'", 2),
    # notation: race (the example plugin)
    pytest.param(("show", "-v", "race", "0 0 ² | 0 0 0 :: 1"), "bad player '0 0 ²'", 2, marks=pytest.mark.skipif(not RACE, reason="race not installed")),
    pytest.param(("show", "-v", "race", "0 0 0 | 0 0 0 :: ²"), "bad player to move '²'", 2, marks=pytest.mark.skipif(not RACE, reason="race not installed")),
    pytest.param(("moves", "-v", "race", "-a", "7", "0 0 0 | 0 0 0 :: 1"), "unknown action '7'; known: 1, 2", 2, marks=pytest.mark.skipif(not RACE, reason="race not installed")),
    # unknown names
    (("show", "-v", "chess", "L^"), "unknown variant 'chess'", 2),
    (("rules", "-v", "classic-wikii"), "unknown variant 'classic-wikii'", 2),
    (("simulate", "-v", "classic", "--seat", "genius"), "unknown bot 'genius'", 2),
    (("play", "-v", "classic", "--bot", "genius"), "unknown bot 'genius'", 2),
    (("play", "-v", "classic", "--seat", "genius"), "unknown seat kind 'genius'", 2),
    (("simulate", "-v", "classic", "--seat", "search(speed=2)"), "has no option 'speed'", 2),
    (("simulate", "-v", "classic", "--seat", "search(depth=99)"), "search: depth is from 0 to 5 without a nodes or seconds budget, not 99", 2),
    (("simulate", "-v", "classic", "--seat", "search(depth=99, nodes=100)"), "search: depth is from 0 to 40, not 99", 2),
    (("simulate", "-v", "classic", "--seat", "search(seconds=nan)"), "bad value nan for option 'seconds' of bot 'search': expected a finite number", 2),
    (("simulate", "-v", "classic", "--seat", "search(seconds=inf)"), "expected a finite number", 2),
    (("simulate", "-v", "classic", "--seat", "search(seconds=1e9)"), "search: seconds is from 0 to 3,600", 2),
    (("simulate", "-v", "classic", "--seat", "search(width=100000)"), "search: width is from 1 to 64", 2),
    (("simulate", "-v", "classic", "--seat", "search(nodes=" + "9" * 40 + ")"), "search: nodes is from 0 to 100,000,000", 2),
    (("play", "-v", "classic", "--bot", "search(depth=99)"), "search: depth is from 0 to 5", 2),
    (("rules", "-v", "classic", "--set", "house_rules=[nope]"), "unknown house rule 'nope' for classic", 2),
    (("rules", "-v", "classic", "--set", "house_rules=[dig-restores-any]"), "written for fences, not classic", 2),
    # --set
    (("rules", "-v", "classic", "--set", "x"), "bad --set 'x': expected key=value", 2),
    (("rules", "-v", "classic", "--set", "=5"), "bad --set '=5'", 2),
    (("rules", "-v", "classic", "--set", "goal="), "unknown option 'goal'", 2),
    (("rules", "-v", "classic", "--set", "turn_cap=-1"), "--set: turn_cap: Input should be greater than or equal to 1 (got -1)", 2),
    (("rules", "-v", "classic", "--set", "turn_cap=99999999999"), "--set: turn_cap: Input should be less than or equal to 1000000 (got 99999999999)", 2),
    (("rules", "-v", "classic", "--set", "house_rules=nope"), "--set: house_rules: Input should be a valid list", 2),
    (("rules", "-v", "classic", "--set", "dig_in_place=maybe"), "--set: rules.dig_in_place", 2),
    (("rules", "-v", "classic", "--set", "rules.gravity=1"), "unknown classic rule option 'gravity'", 2),
    (("compare", "classic", "--set-b", "x"), "bad --set-b 'x'", 2),
    (("rules", "-v", "classic", "--set", "turn_cap=" + "9" * 5000), "bad --set 'turn_cap=99999", 2),
    (("rules", "-v", "classic", "--set", "rules.max_players=" + "9" * 5000), "a whole number of 5000 digits", 2),
    (("rules", "-v", "classic", "--set", "turn_cap=" + "[" * 500 + "]" * 500), "values nested more than 32 deep", 2),
    (("rules", "-v", "classic", "--set", "description=" + LAUGHS), "more than 10000 values once its aliases are expanded", 2),
    (("simulate", "-v", "classic", "--set", "dig_in_place=" + LAUGHS), "more than 10000 values", 2),
    (("rules", "-v", "classic", "--set", "turn_cap=true"), "turn_cap: Input should be a valid integer (got True)", 2),
    (("rules", "-v", "classic", "--set", "dig_in_place=1"), "rules.dig_in_place: Input should be a valid boolean (got 1)", 2),
    (("rules", "-v", "classic", "--set", "dig_in_place='yes'"), "rules.dig_in_place: Input should be a valid boolean (got 'yes')", 2),
    (("rules", "-v", "classic", "--set", "max_players='3.0'"), "rules.max_players: Input should be a valid integer (got '3.0')", 2),
    (("rules", "-v", "fences", "--set", "turn_limit=100000000000000000000"), "rules.turn_limit: Input should be less than or equal to 1000000", 2),
    (("rules", "-v", "classic", "--set", "x" * 1_000_000 + "=1"), "unknown option 'xxx", 2),
    (("show", "-v", "classic", "L^/Q^" + "x" * 1_000_000), "bad piece", 2),
    (("show", "-v", "fences", "x" * 1_000_000), "a fences position has 7 fields", 2),
    # rule-set files
    (("rules", "--config", "{dir}/tabs.yaml"), "tabs.yaml, line 3, column 1: malformed YAML", 2),
    (("rules", "--config", "{dir}/indent.yaml"), "indent.yaml, line 4, column 18: malformed YAML", 2),
    (("rules", "--config", "{dir}/list.yaml"), "a rule set is a mapping of keys", 2),
    (("rules", "--config", "{dir}/loop-a.yaml"), "rule sets extend each other in a loop", 2),
    (("rules", "--config", "{dir}/missing-parent.yaml"), "missing-parent.yaml: extends: unknown rule set 'nowhere'; known: classic", 2),
    (("rules", "--config", "{dir}/latin1.yaml"), "cannot read the rule set", 2),
    (("rules", "--config", "{dir}/empty.yaml"), "the rule set names no variant", 2),
    (("rules", "--config", "{dir}/folder.yaml"), "is a directory", 2),
    (("rules", "--config", "{dir}/absent.yaml"), "absent.yaml", 2),
    (("compare", "{dir}/folder.yaml", "classic"), "folder.yaml is a folder, not a rule set file", 2),
    (("compare", "{dir}/tabs.yaml", "classic"), "malformed YAML", 2),
    (("rules", "--config", "{dir}/huge-number.yaml"), "huge-number.yaml, line 2, column 11: refused YAML: a whole number of 5000 digits; numbers here have at most 30", 2),
    (("rules", "--config", "{dir}/huge-rule-number.yaml"), "refused YAML: a whole number of 5000 digits", 2),
    (("rules", "--config", "{dir}/deep.yaml"), "refused YAML: values nested more than 32 deep", 2),
    (("rules", "--config", "{dir}/deep-mapping.yaml"), "refused YAML: values nested more than 32 deep", 2),
    (("rules", "--config", "{dir}/laughs.yaml"), "refused YAML: more than 10000 values once its aliases are expanded", 2),
    (("rules", "--config", "{dir}/laughs-rule.yaml"), "refused YAML: more than 10000 values", 2),
    (("rules", "--config", "{dir}/self.yaml"), "refused YAML: more than 10000 values", 2),
    (("rules", "--config", "{dir}/duplicate.yaml"), "duplicate.yaml, line 5, column 3: refused YAML: the key 'dig_in_place' is given twice, on lines 4 and 5", 2),
    (("rules", "--config", "{dir}/duplicate-top.yaml"), "the key 'turn_cap' is given twice, on lines 2 and 4", 2),
    (("rules", "--config", "{dir}/big.yaml"), "a rule set file is at most 1,000,000 bytes", 2),
    (("rules", "--config", "{dir}/long-key.yaml"), "unknown key 'kkkk", 2),
    (("rules", "--config", "{dir}/cap-true.yaml"), "turn_cap: Input should be a valid integer (got True)", 2),
    (("rules", "--config", "{dir}/dig-one.yaml"), "rules.dig_in_place: Input should be a valid boolean (got 1)", 2),
    (("rules", "--config", "{dir}/dig-yes.yaml"), "rules.dig_in_place: Input should be a valid boolean (got 'yes')", 2),
    (("rules", "--config", "{dir}/players-text.yaml"), "rules.max_players: Input should be a valid integer (got '3.0')", 2),
    (("rules", "--config", "{dir}/fences-limit.yaml"), "rules.turn_limit: Input should be less than or equal to 1000000", 2),
    (("rules", "-v", "classic", "--config", "{dir}/fences.yaml"), "--variant 'classic' plays classic, but", 2),
    (("rules", "-v", "classic-wiki", "--config", "{dir}/fences.yaml"), "is a rule set for fences", 2),
    (("simulate", "-v", "classic", "--config", "{dir}/fences.yaml", "--games", "1"), "is a rule set for fences", 2),
    # counts and numbers
    (("simulate", "-v", "classic", "--games", "0"), "--games must be from 1 to", 2),
    (("simulate", "-v", "classic", "--games", "-5"), "--games must be from 1 to", 2),
    (("simulate", "-v", "classic", "--games", "99999999999999999999999"), "--games must be from 1 to 100000000", 2),
    (("simulate", "-v", "classic", "--jobs", "0"), "--jobs must be from 1 to", 2),
    (("simulate", "-v", "classic", "--games", "2", "--jobs", "99999999999999999999"), "--jobs must be from 1 to", 2),
    (("simulate", "-v", "classic", "--players", "0"), "classic is played by 2 to 4 players, not 0", 2),
    (("simulate", "-v", "classic", "--players", "99999999999999999999"), "classic is played by 2 to 4 players", 2),
    (("simulate", "--games", "abc"), "invalid value for '--games'", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "auto", "--sprt-delta", "nan"), "--sprt-delta is a change in seat 1's win rate, from -1 to 1, not nan", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "auto", "--sprt-delta0", "inf"), "--sprt-delta0 is a change", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "auto", "--sprt-alpha", "2"), "alpha and beta must lie between 0 and 1", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "metric:Duration", "--sprt-delta", "nan"), "--sprt-delta is a change in Duration, a finite number, not nan", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "--json"), "--sprt takes its question first (seat:N, entrant:BOT, metric:NAME or auto), e.g. --sprt auto; it was given the option '--json'", 2),
    (("compare", "classic", "classic-wiki", "--sprt"), "option '--sprt' requires an argument", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "seat:3"), "--sprt seat:N takes a seat from 1 to 2, not '3'", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "seat:one"), "--sprt seat:N takes a seat from 1 to 2, not 'one'", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "entrant:random"), "--sprt entrant:BOT needs seats holding different bots", 2),
    (("compare", "classic", "classic-wiki", "--seat", "random", "--seat", "greedy", "--sprt", "entrant:search"), "--sprt entrant:BOT names one of the seats' bots (random, greedy), not 'search'", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "metric:Balance"), "--sprt metric:NAME takes a metric that is a mean per game (AdvantageP1, Completion,", 2),
    (("compare", "classic", "classic-wiki", "--sprt", "skill"), "--sprt takes a question: seat:N, entrant:BOT, metric:NAME or auto, not 'skill'", 2),
    (("play", "-v", "classic", "--delay", "-1"), "invalid value for '--delay'", 2),
    (("play", "-v", "classic", "--delay", "inf"), "invalid value for '--delay'", 2),
    (("play", "-v", "classic", "--players", "9"), "classic is played by 2 to 4 players, not 9", 2),
    (("sweep", "-v", "classic", "--param", "rules.dig_in_place="), "bad --param", 2),
    # output paths
    (("simulate", "-v", "classic", "--games", "2", "--csv", "/proc/treehouse.csv"), "cannot write /proc/treehouse.csv", 2),
    (("simulate", "-v", "classic", "--games", "2", "--report", "/proc/treehouse.html"), "cannot write /proc/treehouse.html", 2),
    (("simulate", "-v", "classic", "--games", "2", "--records", "/proc/treehouse"), "cannot write the records to /proc/treehouse", 2),
    (("simulate", "-v", "classic", "--games", "2", "--csv", "{dir}/folder"), "is a directory", 2),
    (("play", "-v", "classic", "--record", "/proc/treehouse.jsonl"), "cannot write the record to /proc/treehouse.jsonl", 2),
    (("new-variant", "my-game", "--dir", "/proc/treehouse-my-game"), "cannot write the my-game variant to /proc/treehouse-my-game", 2),
    # records: th replay
    (("replay", "{dir}/absent.jsonl"), "no record at", 2),
    (("replay", "--all", "{dir}/empty.jsonl"), "damaged record: no start event", 2),
    (("replay", "--all", "{dir}/not-json.jsonl"), "not-json.jsonl, line 1: damaged record event", 2),
    (("replay", "--all", "{dir}/array.jsonl"), "array.jsonl, line 1: damaged record event (a JSON array, not an event object)", 2),
    (("replay", "--all", "{dir}/truncated.jsonl"), "damaged record event", 2),
    (("replay", "--all", "{dir}/foreign.jsonl"), "not a treehouse record (format 'chess-pgn/1'", 2),
    (("replay", "--all", "{dir}/other-variant.jsonl"), "rules this fences does not accept", 2),
    (("replay", "--all", "{dir}/unknown-variant.jsonl"), "unknown variant 'chess'", 2),
    (("replay", "--all", "{dir}/illegal.jsonl"), "the recorded move 'aim L^ S^ M^' is not legal there", 2),
    (("replay", "--all", "{dir}/garbled-move.jsonl"), "the recorded move 'zzz' cannot be read", 2),
    (("replay", "--all", "{dir}/infinite-turn.jsonl"), "line 2: damaged record event (turn must be a whole number from 0, not Infinity)", 2),
    (("replay", "--all", "{dir}/meta-list.jsonl"), "meta must be an object", 2),
    (("replay", "--all", "{dir}/rules-list.jsonl"), "rules must be an object of rule options", 2),
    (("replay", "--all", "{dir}/variant-list.jsonl"), "variant must be a string", 2),
    (("replay", "--all", "{dir}/turn-cap-text.jsonl"), "turn_cap must be a whole number from 1", 2),
    (("replay", "--all", "{dir}/seats-null.jsonl"), "seats must be a list of seat names, not null", 2),
    (("replay", "--all", "{dir}/position-number.jsonl"), "position must be a string", 2),
    (("replay", "--all", "{dir}/house-rules-nested.jsonl"), "house_rules must be a list of house-rule names", 2),
    (("replay", "--all", "{dir}/move-null.jsonl"), "move must be a string, not null", 2),
    (("replay", "--all", "{dir}/deep.jsonl"), "nested too deeply", 2),
    (("replay", "--all", "{dir}/bytes.jsonl"), "cannot read the record", 2),
    (("replay", "--turn", "0", "{dir}/over.jsonl"), "has no turn 0", 2),
    (("replay", "--turn", "99999", "{dir}/over.jsonl"), "has no turn 99999", 2),
    # records: th play --resume
    (("play", "--resume", "{dir}/absent.jsonl"), "no record at", 2),
    (("play", "--resume", "{dir}/empty.jsonl"), "damaged record: no start event", 2),
    (("play", "--resume", "{dir}/truncated.jsonl"), "damaged record event", 2),
    (("play", "--resume", "{dir}/not-json.jsonl"), "damaged record event", 2),
    (("play", "--resume", "{dir}/other-variant.jsonl"), "rules this fences does not accept", 2),
    (("play", "--resume", "{dir}/illegal.jsonl"), "is not legal there", 2),
    (("play", "--resume", "{dir}/meta-list.jsonl"), "meta must be an object", 2),
    (("play", "--resume", "{dir}/turn-cap-text.jsonl"), "turn_cap must be a whole number from 1", 2),
    (("play", "--resume", "{dir}/seats-null.jsonl"), "seats must be a list of seat names", 2),
    (("play", "--resume", "{dir}/deep-search.jsonl"), "deep-search.jsonl: search: depth is from 0 to 5", 2),
    (("play", "--resume", "{dir}/nan-search.jsonl"), "nan-search.jsonl: bad value nan for option 'seconds'", 2),
    (("play", "--resume", "{dir}/over.jsonl"), "is over", 2),
    (("play", "--resume", "{dir}/no-seed.jsonl"), "has no seed", 2),
    (("play", "--resume", "{dir}/other-seed.jsonl"), "does not follow from its seed 5", 2),
    (("play", "--resume", "{dir}/saved.jsonl", "--seed", "0"), "leave out --seed", 2),
    (("play", "--resume", "{dir}/saved.jsonl", "--players", "0"), "leave out --players", 2),
    (("play", "--resume", "{dir}/folder"), "is a directory", 2),
    # records: an existing file is not overwritten unasked
    (("play", "-v", "classic", "--watch", "--delay", "0", "--record", "{dir}/saved.jsonl"), "saved.jsonl already exists; add --force to overwrite it", 2),
    (("play", "-v", "classic", "--watch", "--delay", "0", "--record", "{dir}/over.jsonl"), "over.jsonl already exists", 2),
    (("play", "--resume", "{dir}/saved.jsonl", "--record", "{dir}/finished.jsonl"), "finished.jsonl already exists", 2),
]


def _case_id(case) -> str:
    args = case.values[0] if hasattr(case, "values") else case[0]
    return re.sub(r"\s+", "_", " ".join(str(a)[:40] for a in args).replace("{dir}/", ""))[:70]


@pytest.mark.parametrize("args, words, code", CASES, ids=[_case_id(case) for case in CASES])
def test_every_mistake_is_one_line_and_its_exit_status(files, args, words, code):
    stdin = None
    args = [str(a).replace("{dir}", str(files)) for a in args]
    if args[-1].startswith("<"):  # "<TEXT": TEXT on standard input
        stdin = args.pop()[1:] + "\n"
    before = {path.name: path.read_bytes() for path in files.iterdir() if path.suffix == ".jsonl"}
    assert_one_line_error(th(*args, input=stdin), words, code)
    after = {path.name: path.read_bytes() for path in files.iterdir() if path.suffix == ".jsonl"}
    assert after == before  # a refused record is left as it was


# --------------------------------------------------------------------------
# what used to go wrong without an error: labels and text that look like markup
# --------------------------------------------------------------------------


def test_compare_labels_b_with_the_whole_value_of_set_b():
    result = th("compare", "fences", "--set-b", "house_rules=[dig-restores-any]", "--games", "2")
    assert result.exit_code == 0, result.output
    assert "B = fences with house_rules=[dig-restores-any]:" in result.stdout


def test_sweep_shows_values_with_square_brackets():
    args = ["sweep", "-v", "classic", "--param", "house_rules=[mirror-matches],[]", "--games", "2"]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})  # wide enough not to cut the value short
    assert result.exit_code == 0, result.output
    assert "[mirror-matches]" in result.stdout


def test_a_description_with_markup_is_printed_as_written(files):
    result = th("rules", "--config", files / "described.yaml")
    assert result.exit_code == 0, result.output
    assert "closing [/b] tags are text" in result.stdout
    result = th("rules", "-v", "classic", "--set", "description=a [/x] b")
    assert result.exit_code == 0, result.output
    assert "a [/x] b" in result.stdout


# --------------------------------------------------------------------------
# th play: typed mistakes print one line and ask again; nothing is lost
# --------------------------------------------------------------------------

PROMPT_MISTAKES = {
    "classic": [
        ("0", "✗ there is no move 0: type a number from 1 to"),
        ("-1", "✗ there is no move -1"),
        ("99999999999999999999999", "✗ there is no move 99999999999999999999999"),
        ("²", "✗ cannot read '²'"),
        ("٣", "✗ cannot read '٣'"),
        ("-٣", "✗ cannot read '-٣'"),
        ("１", "✗ cannot read '１'"),
        ("1.5", "✗ cannot read '1.5'"),
        ("asdf", "✗ cannot read 'asdf': unknown action 'asdf'"),
        ("hop L^", "✗ cannot read 'hop L^': trio 'L^' has no M"),
        ("hop L^/M^/S^", "✗ hop L^/M^/S^: that leaves your trio as it is (L^/M^/S^); a move must change it"),
        ("aim L^ M^ S^", "✗ aim L^ M^ S^: you rolled HOP, so the action is HOP, not AIM"),
        ("house:", "✗ cannot read 'house:'"),
        ("pass", "✗ you cannot pass now"),
        ("/zzz", "✗ no move contains 'zzz'"),
        ("[/x]", "✗ cannot read '[/x]'"),
    ],
    "fences": [
        ("²", "✗ cannot read '²'"),
        ("move Mr@N3", "✗ cannot read 'move Mr@N3': move 'move Mr@N3': 'move' takes 2 argument(s), not 1"),  # the variant's words whole
        ("move Mr@z9 N4", "✗ cannot read 'move Mr@z9 N4': bad square 'z9' in move 'move Mr@z9 N4': expected a1..e5"),
        ("wild:zz dig", "✗ cannot read 'wild:zz dig': bad reorder 'wild:zz' in move 'wild:zz dig': expected 'wild:'"),
        ("step n", "✗ step n: step 1 moves a Fence one space, e.g. 'move Lb@S2 b1'"),
        ("move Lb@N1 N2", "✗ move Lb@N1 N2: the Fence at N1 is Lg (L(green)), not Lb"),
        ("move Lb@S2 S1", "✗ move Lb@S2 S1: S1 is occupied"),
        ("move Lb@S2 b3", "✗ move Lb@S2 b3: S2 to b3 is not one space"),
    ],
}


@pytest.mark.parametrize("variant", sorted(PROMPT_MISTAKES))
def test_mistakes_at_the_prompt_ask_again_and_the_game_goes_on(monkeypatch_module, tmp_path, variant):
    mistakes = PROMPT_MISTAKES[variant]
    typed = "\n".join(["", "   ", *(text for text, _ in mistakes), "1", "q"]) + "\n"
    path = tmp_path / "game.jsonl"
    corners = ("--set", "start=corners") if variant == "fences" else ()  # the typed mistakes are a turn's, not the setup's
    result = th("play", "-v", variant, *corners, "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", path, input=typed)
    assert "Traceback" not in result.output and result.exit_code == 0, result.output[-3000:]
    for _, line in mistakes:
        assert line in result.stdout, line
    assert "Game saved to" in result.stdout
    moves = [json.loads(line) for line in path.read_text().splitlines() if '"move"' in line]
    assert moves, "the move typed after the mistakes was played and saved"


def test_a_superscript_number_at_the_replay_prompt_is_a_mistake(files):
    result = th("replay", files / "over.jsonl", input="²\n٣\n3\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output[-2000:]
    assert "✗ unknown command '²'" in result.stdout
    assert "✗ unknown command '٣'" in result.stdout
