"""Every command's --help explains itself: conventional placeholders, one example, and only its own options."""

from __future__ import annotations

import re

import pytest
import typer.main
from typer.testing import CliRunner

from treehouse.cli import app

runner = CliRunner()
COMMANDS = sorted(typer.main.get_command(app).commands)


def help_of(*command: str) -> str:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


def options_of(command: str) -> set[str]:
    click_command = typer.main.get_command(app).commands[command]
    return {opt for param in click_command.params if param.param_type_name == "option" for opt in (*param.opts, *param.secondary_opts)} | {"--help"}


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_conventional_placeholders_and_one_example_naming_only_its_options(command):
    text = help_of(command)
    assert not re.search(r"<[a-z][^>]*>", text), re.findall(r"<[a-z][^>]*>", text)  # not <list[str]>, <float range>, <bool>
    flat = " ".join(text.replace("│", " ").split())
    examples = re.findall(r"Example: (th \S+.*?)(?= ╭| Usage| $)", flat)
    assert len(examples) == 1 and examples[0].startswith(f"th {command}"), examples
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", flat))
    assert named <= options_of(command), named - options_of(command)


def test_the_placeholders_say_what_to_type():
    text = " ".join(help_of("play").replace("│", " ").split())
    for option, placeholder in (("--seat", "SEAT"), ("--players -p", "N"), ("--delay", "SECONDS"), ("--set -s", "KEY=VALUE"), ("--record", "FILE")):
        assert f"{option} {placeholder}" in text, (option, placeholder)
    assert "--watch Bots in every seat" in text  # a flag takes no placeholder
    assert "{A} [B]" in help_of("compare")  # the arguments by their names in capitals


@pytest.mark.parametrize("command", ["variants", "rules", "plugins", "show", "moves"])
def test_the_example_of_a_quick_command_runs(command):
    text = " ".join(help_of(command).replace("│", " ").split())
    example = re.search(r"Example: th (\S+.*?)(?= ╭| $)", text).group(1)
    import shlex

    result = runner.invoke(app, shlex.split(example), env={"COLUMNS": "80"})
    assert result.exit_code == 0, (example, result.output[-2000:])
