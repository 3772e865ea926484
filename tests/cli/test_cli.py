"""The th commands through Typer's runner, including every kind of bad input."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from treehouse.cli import app

runner = CliRunner()


def th(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def assert_one_line_error(result, words):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: ") and words in lines[0], lines[0]


def test_variants_lists_name_description_players_and_plugin():
    result = th("variants", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    classic = next(v for v in data["variants"] if v["name"] == "classic")
    assert classic["players"] == [2, 4] and classic["plugin"] == "classic" and classic["description"]
    assert {"classic", "classic-wiki"} <= {r["name"] for r in data["rule_sets"]}
    table = th("variants")
    assert "classic" in table.stdout and "2-4" in table.stdout


def test_rules_shows_values_and_where_they_came_from():
    result = th("rules", "--variant", "classic-wiki", "--set", "mirror_matches=true", "--json")
    assert result.exit_code == 0
    settings = {row["key"]: row for row in json.loads(result.stdout)["settings"]}
    assert settings["rules.dig_in_place"]["value"] is False
    assert settings["rules.dig_in_place"]["source"].endswith("classic-wiki.yaml")
    assert settings["rules.mirror_matches"] == {"key": "rules.mirror_matches", "value": True, "source": "--set"}
    assert settings["rules.house_decline"]["value"] == "reroll"
    table = th("rules", "--variant", "classic")
    assert "dig_in_place" in table.stdout and "Rule options" in table.stdout


def test_show_draws_a_trio_and_a_position():
    result = th("show", "--variant", "classic", "L< S^ M>")
    assert result.exit_code == 0 and "L< S^ M>" in result.stdout and "◀" in result.stdout
    whole = th("show", "L< S^ M> :: L^/M^/S^ | S^ L^/M^ :: 2")
    assert whole.exit_code == 0 and "House" in whole.stdout and "Player 2 *" in whole.stdout


def test_moves_lists_positions_with_words():
    result = th("moves", "--variant", "classic", "--action", "hop", "L^/M^/S^")
    assert result.exit_code == 0
    assert "M^/S^ L^" in result.stdout and "hop M^/S^ to the left end" in result.stdout


def test_moves_json_is_a_sorted_array_of_canonical_trios():
    result = th("moves", "--action", "DIG", "--json", "l< s m>")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == ["L< S^ M^", "L^ S^ M>"]


def test_moves_honours_rule_options():
    assert json.loads(th("moves", "-a", "dig", "--json", "--set", "dig_in_place=false", "L< S^ M>").stdout) == []
    wiki = th("moves", "-a", "dig", "--json", "--variant", "classic-wiki", "L> S^ M<")
    assert len(json.loads(wiki.stdout)) == 8


def test_moves_reads_trios_from_standard_input():
    result = th("moves", "-a", "tip", "-", input="L^/M^/S^\n\nL< S> M>\nL< S^ M>\n")
    assert result.exit_code == 0
    assert [json.loads(line) for line in result.stdout.splitlines()] == [["L> M> S>", "S< M< L<"], [], ["L< S< M>", "L< S> M>"]]


def test_moves_on_standard_input_stops_at_a_bad_line():
    result = th("moves", "-a", "tip", "-", input="L^/M^/S^\nL^/M^/Q^\n")
    assert result.stdout.splitlines() == ['["L> M> S>", "S< M< L<"]']
    assert_one_line_error(result, "line 2: bad piece 'Q^'")


@pytest.mark.parametrize(
    "args, words",
    [
        (("show", "L^/M^/X"), "bad piece 'X'"),
        (("moves", "-a", "hop", "L^ M^ S^ ?"), "bad piece '?'"),
        (("show", "L</M^/S^"), "lying piece (L<) in a stack"),
        (("show", "L^/M^/M^"), "2 M pieces"),
        (("show", "--variant", "chess", "L^"), "unknown variant 'chess'; known: classic"),
        (("moves", "-a", "jump", "L^/M^/S^"), "unknown action 'jump'; known: aim, dig, hop, swap, tip, wild"),
        (("rules", "--variant", "classic", "--set", "gravity=off"), "unknown option 'gravity'; known:"),
        (("rules", "--variant", "classic", "--set", "dig_in_place=often"), "rules.dig_in_place: Input should be a valid boolean"),
        (("rules", "--variant", "classic", "--set", "turn_cap=soon"), "turn_cap"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(args, words):
    assert_one_line_error(th(*args), words)


def test_malformed_yaml_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("variant: classic\nrules:\n  dig_in_place: [true\n")
    assert_one_line_error(th("rules", "--config", str(path)), "line 4, column 1: malformed YAML")
    assert "broken.yaml" in th("rules", "--config", str(path)).stderr


def test_a_missing_config_file_is_a_usage_error(tmp_path):
    result = th("rules", "--config", str(tmp_path / "absent.yaml"))
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_plugins_lists_distribution_version_and_hooks():
    result = th("plugins", "--json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)["plugins"]}
    assert rows["classic"]["distribution"] == "treehouse"
    assert "treehouse_register_variants" in rows["classic"]["hooks"]
    assert any(p.startswith("variant classic (") and "treehouse_legal_moves" in p for p in rows["classic"]["provides"])
    assert "bot random" in rows["random-bot"]["provides"]
    assert "classic" in th("plugins").stdout


# --------------------------------------------------------------------------
# usage errors: what Click finds on the command line is one line too
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, line",
    [
        (("simulate", "--bogus"), "error: no such option '--bogus' for 'th simulate' (did you mean --jobs?); see th simulate --help"),
        (("sweep", "--gamse", "3"), "error: no such option '--gamse' for 'th sweep' (did you mean --games, --seed, --set?); see th sweep --help"),
        (("compare",), "error: missing argument 'A' for 'th compare'; see th compare --help"),
        (("show",), "error: missing argument 'POSITION' for 'th show'; see th show --help"),
        (("replay",), "error: missing argument 'FILE' for 'th replay'; see th replay --help"),
        (("bogus",), "error: no such command 'bogus'; see th --help"),
        (("--bogus",), "error: no such option '--bogus'; see th --help"),
        (("rules", "--variant"), "error: option '--variant' requires an argument; see th rules --help"),
        (("play", "--seat"), "error: option '--seat' requires an argument; see th play --help"),
        (("variants", "extra"), "error: got unexpected extra argument(s) (extra); see th variants --help"),
    ],
)
def test_usage_errors_are_one_line_on_stderr_and_exit_2(args, line):
    result = th(*args)
    assert result.exit_code == 2 and result.stdout == ""
    # Click's own guesses, "(did you mean ...?)", may differ between versions
    unguessed = re.sub(r" \(did you mean [^)]*\)", "", result.stderr)
    assert unguessed.splitlines() == [re.sub(r" \(did you mean [^)]*\)", "", line)]


@pytest.mark.parametrize(
    "args, start, command",
    [
        (("simulate", "--games", "abc"), "error: invalid value for '--games' / '-n': ", "th simulate"),
        (("play", "--seed", "x"), "error: invalid value for '--seed': ", "th play"),
        (("play", "--delay", "-1"), "error: invalid value for '--delay': ", "th play"),
        (("compare", "classic", "--sprt-delta", "big"), "error: invalid value for '--sprt-delta': ", "th compare"),
        (("replay", "--turn", "first", "x.jsonl"), "error: invalid value for '--turn' / '-t': ", "th replay"),
    ],
)
def test_bad_numbers_are_one_line(args, start, command):
    result = th(*args)
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert lines[0].startswith(start) and lines[0].endswith(f"; see {command} --help"), lines[0]


def test_help_and_no_command_still_print_the_help():
    assert th().exit_code in (0, 2) and "Usage" in th().output
    result = th("simulate", "--help")
    assert result.exit_code == 0 and "--records" in result.stdout


def test_ctrl_c_where_a_command_has_nothing_to_report_is_one_line_and_exit_130(monkeypatch):
    """Ctrl-C while the plugins load (or anywhere a command keeps no partial
    work): "interrupted" and the shell's 130, not Click's "Aborted!" and 1."""
    from treehouse.cli import catalog

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(catalog, "plugins", interrupted)
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 130
    assert result.output.strip() == "interrupted"


@pytest.mark.parametrize(
    "example, said",
    [
        (False, ["Next: fill in the hooks of src/treehouse_my_game/plugin.py (each stub says what it must do),", "th new-variant my-game --example --dir DIR"]),
        (True, ["Next: pip install -e "]),
    ],
)
def test_new_variant_says_what_comes_next_and_where_a_working_game_is(tmp_path, example, said):
    # the stubs raise NotImplementedError until filled in: the Next line says so, and names --example
    result = th("new-variant", "my-game", "--dir", str(tmp_path / "pkg"), *(["--example"] if example else []))
    assert result.exit_code == 0, result.output
    for words in said:
        assert words in result.stdout, result.stdout
    assert ("--example" in result.stdout) is not example
