"""th new-variant: the package it writes installs, is listed, plays, and passes its own tests."""

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
    package = tmp_path / "my-game"
    assert runner.invoke(app, ["new-variant", "my-game", "--dir", str(package)]).exit_code == 0
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # The fresh environment sees this one's packages (treehouse, pytest, ...) through a .pth file,
    # so the test installs only the new package, as a plugin author would.
    site = subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip()
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    outer = [p for p in sys.path if p and Path(p).is_dir() and ("site-packages" in p or stdlib not in (Path(p), *Path(p).parents))]
    Path(site, "outer-environment.pth").write_text("\n".join(outer) + "\n")
    install = subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "-e", str(package)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr
    listed = subprocess.run([python, "-m", "treehouse", "variants", "--json"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert "my-game" in {v["name"] for v in json.loads(listed.stdout)["variants"]}
    played = subprocess.run(
        [python, "-m", "treehouse", "simulate", "--variant", "my-game", "--games", "20", "--seat", "random", "--seat", "random", "--json"],
        capture_output=True, text=True,
    )
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["games"] == 20
    tests = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=package, capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout
