"""Rule sets: extends, overrides, provenance, and one clear line for every mistake."""

from __future__ import annotations

import pytest

from treehouse.config import resolve, shipped_rulesets
from treehouse.errors import ConfigError, UnknownNameError


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_shipped_rule_sets(plugins):
    assert {"classic", "classic-wiki"} <= set(shipped_rulesets())
    official = resolve(plugins, variant="classic")
    assert official.rules.dig_in_place is True and official.rules.house_decline == "pass"
    wiki = resolve(plugins, variant="classic-wiki")
    assert wiki.rules.dig_in_place is False and wiki.rules.house_decline == "reroll"
    assert wiki.sources["rules.mirror_matches"].endswith("classic.yaml")  # inherited
    assert wiki.sources["rules.dig_in_place"].endswith("classic-wiki.yaml")


def test_a_variant_without_a_rule_set_uses_its_defaults(plugins):
    effective = resolve(plugins, variant="treehouse")  # an alias, no file by that name
    assert effective.variant_class.name == "classic" and effective.chain == []
    assert ("rules.dig_in_place", True, "default") in effective.rows()


def test_overrides_win_and_are_typed(plugins):
    effective = resolve(plugins, variant="classic", overrides=["dig_in_place=false", "rules.mirror_matches=true", "turn_cap=12"])
    assert effective.rules.dig_in_place is False and effective.rules.mirror_matches is True
    assert effective.turn_cap == 12
    assert {effective.sources[k] for k in ("rules.dig_in_place", "rules.mirror_matches", "turn_cap")} == {"--set"}


def test_a_file_extends_a_file_beside_it(plugins, tmp_path):
    write(tmp_path, "base.yaml", "variant: classic\nrules:\n  house_decline: reroll\n")
    child = write(tmp_path, "child.yaml", "extends: base.yaml\nrules:\n  mirror_matches: true\n")
    effective = resolve(plugins, config=child)
    assert effective.rules.house_decline == "reroll" and effective.rules.mirror_matches is True
    assert effective.chain == [str(child), str(tmp_path / "base.yaml")]


def test_a_file_extends_a_shipped_rule_set_by_name(plugins, tmp_path):
    child = write(tmp_path, "mine.yaml", "extends: classic-wiki\nturn_cap: 7\n")
    effective = resolve(plugins, config=child)
    assert effective.rules.dig_in_place is False and effective.turn_cap == 7


@pytest.mark.parametrize(
    "text, words",
    [
        ("variant: classic\nrules: [1, 2\n", "line 3, column 1: malformed YAML"),
        ("variant: classic\n  rules: {}\n", "malformed YAML"),
        ("- just\n- a list\n", "a rule set is a mapping"),
        ("variant: classic\ncolour: blue\n", "unknown key 'colour'"),
        ("variant: classic\nrules:\n  dig_in_place: sometimes\n", "rules.dig_in_place: Input should be a valid boolean"),
        ("variant: classic\nrules:\n  gravity: 1\n", "unknown classic rule option 'gravity'"),
        ("variant: classic\nturn_cap: many\n", "turn_cap"),
        ("rules: {}\n", "names no variant"),
        ("variant: classic\nextends: nowhere\n", "unknown rule set 'nowhere'"),
    ],
)
def test_bad_files_give_one_line_naming_the_file(plugins, tmp_path, text, words):
    path = write(tmp_path, "bad.yaml", text)
    with pytest.raises((ConfigError, UnknownNameError)) as caught:
        resolve(plugins, config=path)
    message = str(caught.value)
    assert words in message and "\n" not in message


def test_extends_loops_are_caught(plugins, tmp_path):
    write(tmp_path, "a.yaml", "variant: classic\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    with pytest.raises(ConfigError, match="loop"):
        resolve(plugins, config=tmp_path / "a.yaml")


@pytest.mark.parametrize(
    "overrides, words",
    [
        (["gravity=off"], "unknown option 'gravity'; known:"),
        (["rules.gravity=off"], "unknown classic rule option 'gravity'"),
        (["dig_in_place"], "expected key=value"),
        (["house_decline=sometimes"], "rules.house_decline"),
        (["max_players=1"], "greater than or equal to 2"),
    ],
)
def test_bad_overrides(plugins, overrides, words):
    with pytest.raises((ConfigError, UnknownNameError), match=words):
        resolve(plugins, variant="classic", overrides=overrides)


def test_missing_inputs(plugins, tmp_path):
    with pytest.raises(ConfigError, match="no rule set file"):
        resolve(plugins, config=tmp_path / "absent.yaml")
    with pytest.raises(ConfigError, match="name a variant"):
        resolve(plugins)
    with pytest.raises(UnknownNameError, match="unknown variant 'chess'"):
        resolve(plugins, variant="chess")


def test_unreadable_rule_set_files_are_one_line(tmp_path):
    from treehouse.config import read_ruleset_file

    with pytest.raises(ConfigError, match=f"^no rule set at {tmp_path / 'absent.yaml'}$"):
        read_ruleset_file(tmp_path / "absent.yaml")
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"variant: caf\xe9\n")
    with pytest.raises(ConfigError, match=f"^cannot read the rule set {path}: it is not UTF-8 text \\(byte 0xe9 at offset 12\\); save it as UTF-8$") as caught:
        read_ruleset_file(path)
    assert "\n" not in str(caught.value)
