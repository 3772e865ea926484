"""th new-variant: the package it writes installs, is listed, and passes its own tests.

By default its hooks are NotImplementedError stubs (the kit's test is then an
expected failure naming the first); --example writes a working game that plays.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

from typer.testing import CliRunner

from treehouse.cli import app

runner = CliRunner()


def test_the_scaffold_lists_what_it_wrote(tmp_path):
    result = runner.invoke(app, ["new-variant", "my-game", "--dir", str(tmp_path / "pkg")])
    assert result.exit_code == 0, result.output
    for name in ("pyproject.toml", "my-game.yaml", "src/treehouse_my_game/plugin.py", "tests/test_treehouse_my_game.py"):
        assert (tmp_path / "pkg" / name).is_file() and name in result.stdout
    pyproject = (tmp_path / "pkg" / "pyproject.toml").read_text()
    assert '[project.entry-points.treehouse]\nmy-game = "treehouse_my_game.plugin"' in pyproject


def test_the_default_plugin_is_stubs_saying_what_each_hook_must_do(tmp_path):
    assert runner.invoke(app, ["new-variant", "my-game", "--dir", str(tmp_path / "stubs")]).exit_code == 0
    assert runner.invoke(app, ["new-variant", "my-game", "--dir", str(tmp_path / "example"), "--example"]).exit_code == 0
    stubs = (tmp_path / "stubs" / "src" / "treehouse_my_game" / "plugin.py").read_text()
    required = ("format_position", "parse_position", "format_move", "parse_move", "treehouse_setup",
                "treehouse_legal_moves", "treehouse_apply_move", "treehouse_outcome", "treehouse_end_turn")
    for hook in required:
        assert f'raise NotImplementedError("my-game: {hook}' in stubs or f'NotImplementedError(\n            "my-game: {hook}' in stubs, hook
    example = (tmp_path / "example" / "src" / "treehouse_my_game" / "plugin.py").read_text()
    assert "NotImplementedError" not in example and all(f"def {hook}(" in example for hook in required)


def test_bad_names_and_taken_directories_are_one_line(tmp_path):
    bad = runner.invoke(app, ["new-variant", "My Game"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: bad variant name 'My Game'")
    taken = runner.invoke(app, ["new-variant", "classic", "--dir", str(tmp_path / "x")])
    assert taken.exit_code == 2 and "already installed" in taken.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "file").write_text("mine")
    occupied = runner.invoke(app, ["new-variant", "fresh", "--dir", str(tmp_path / "full")])
    assert occupied.exit_code == 2 and "not empty" in occupied.stderr
    assert (tmp_path / "full" / "file").read_text() == "mine"


def test_installed_in_a_fresh_virtual_environment(tmp_path):
    example, stubs = tmp_path / "my-game", tmp_path / "stub-game"
    assert runner.invoke(app, ["new-variant", "my-game", "--dir", str(example), "--example"]).exit_code == 0
    assert runner.invoke(app, ["new-variant", "stub-game", "--dir", str(stubs)]).exit_code == 0
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # The fresh environment sees this one's packages (treehouse, pytest, ...) through a .pth file,
    # so the test installs only the new packages, as a plugin author would.
    site = subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip()
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    outer = [p for p in sys.path if p and Path(p).is_dir() and ("site-packages" in p or stdlib not in (Path(p), *Path(p).parents))]
    Path(site, "outer-environment.pth").write_text("\n".join(outer) + "\n")
    for package in (example, stubs):
        install = subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "-e", str(package)], capture_output=True, text=True)
        assert install.returncode == 0, install.stderr

    def th(*args, cwd=None):
        return subprocess.run([python, "-m", "treehouse", *args], capture_output=True, text=True, cwd=cwd)

    listed = th("variants", "--json")
    assert listed.returncode == 0, listed.stderr
    assert {"my-game", "stub-game"} <= {v["name"] for v in json.loads(listed.stdout)["variants"]}

    played = th("simulate", "--variant", "my-game", "--games", "20", "--seat", "random", "--seat", "random", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["games"] == 20
    tests = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=example, capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout

    # The stubs: their tests pass, the kit's as an expected failure naming the first unwritten hook,
    # and playing them is one line naming it, not a traceback.
    tests = subprocess.run([python, "-m", "pytest", "-q", "-rx", "-p", "no:cacheprovider", "tests"], cwd=stubs, capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "1 passed, 1 xfailed" in tests.stdout
    assert "not written yet: stub-game: treehouse_setup must return the starting StubGamePosition" in tests.stdout
    stub_play = th("play", "--variant", "stub-game", "--watch", "--seed", "1", cwd=tmp_path)
    assert stub_play.returncode == 2
    assert stub_play.stderr.strip().splitlines() == [
        "error: plugin 'stub-game' failed in treehouse_setup: NotImplementedError: stub-game: treehouse_setup must return the starting StubGamePosition"
    ]
