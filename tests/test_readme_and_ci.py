"""The README's two set-up commands are what CI runs and what a new user types."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()
    return [line.strip() for line in lines[:40] if line.strip().startswith("python3 -m venv")]


def test_readme_opens_with_two_commands():
    commands = readme_commands()
    assert len(commands) == 2
    run_command, test_command = commands
    assert "th " in run_command
    assert "[test," in test_command and "pytest" in test_command


def test_ci_runs_the_readme_test_command_exactly():
    test_command = readme_commands()[1]
    assert test_command in (ROOT / ".ci" / "run").read_text().splitlines()
