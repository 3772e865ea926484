"""The bad-input audit, second pass (issue 24): files replaced unasked, reads
without a bound, local plugins, records checked whole, strict house-rule
options, addresses that are no scheduler, and what a file supplies printed
with its control characters escaped.

Each row of the table is a command line (``{dir}`` is a folder of files made
below), the words its one line of error must contain and its exit status,
as in ``test_bad_input.py``; every row must also leave every file of that
folder as it was (a refused command writes nothing).  The cluster rows that
need a real scheduler, listener or worker are in ``tests/playtest/test_cluster.py``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.cli.common import plugins as loaded_plugins
from treehouse.plugins import PLUGINS_DIR_ENV

pytestmark = pytest.mark.example("fences-house-rules")

runner = CliRunner()
LONG = "a" * 300  # longer than any file system's NAME_MAX (255 bytes)
EVIL = "\x1b]0;pwned\x07\x1b[31m"  # a terminal title, then red


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
    assert "\x1b" not in result.output


@pytest.fixture(scope="module")
def environment():
    """Plain output, 80 columns, no debug; --plugins-dir's variable and the cached plugins restored after."""
    patch = pytest.MonkeyPatch()
    patch.setenv("NO_COLOR", "1")
    patch.setenv("COLUMNS", "80")
    patch.delenv("TREEHOUSE_DEBUG", raising=False)
    patch.delenv(PLUGINS_DIR_ENV, raising=False)
    yield patch
    patch.undo()
    loaded_plugins.cache_clear()


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, events: list[dict]) -> None:
    path.write_text("".join(json.dumps(event) + "\n" for event in events))


def _moves(events: list[dict]) -> list[int]:
    return [i for i, event in enumerate(events) if event["event"] == "move"]


@pytest.fixture(scope="module")
def files(tmp_path_factory, environment):
    tmp = tmp_path_factory.mktemp("bad2")
    game = tmp / "game.jsonl"
    result = th("play", "-v", "classic", "--watch", "--bot", "random", "--seed", "5", "--delay", "0", "--record", game)
    assert result.exit_code == 0, result.output
    saved = tmp / "saved.jsonl"
    result = th("play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", saved, input="1\n1\n1\nq\n")
    assert result.exit_code == 0, result.output
    finished, partway = _lines(game), _lines(saved)

    def edited(name: str, events: list[dict], change) -> None:
        events = json.loads(json.dumps(events))
        change(events)
        _write(tmp / name, events)

    edited("two-starts.jsonl", partway, lambda e: e.insert(2, dict(e[0])))
    edited("two-starts-finished.jsonl", finished, lambda e: e.insert(3, dict(e[0])))
    edited("start-last.jsonl", partway, lambda e: e.append(e.pop(0)))
    edited("after-end.jsonl", finished, lambda e: e.append(dict(e[1])))
    edited("three-seats.jsonl", partway, lambda e: e[0].update(seats=[*e[0]["seats"], "random"]))
    edited("three-seats-both.jsonl", finished, lambda e: (e[0].update(seats=["random"] * 3), e[0]["meta"].update(seats=["random"] * 3), e[_moves(e)[0]].update(seat=5)))
    three = lambda e: (e[0].update(seats=["random"] * 3), e[0]["meta"].update(seats=["random"] * 3))  # noqa: E731
    edited("three-seats-position.jsonl", finished, three)
    edited("three-seats-position-saved.jsonl", partway, three)
    edited("winner-3.jsonl", finished, lambda e: e[-1].update(winners=[3]))
    edited("step-label.jsonl", finished, lambda e: e[_moves(e)[2]].update(step="dig"))
    edited("step-label-saved.jsonl", partway, lambda e: e[_moves(e)[1]].update(step="dig"))
    edited("turn-number.jsonl", finished, lambda e: e[_moves(e)[2]].update(turn=e[_moves(e)[2]]["turn"] + 5))
    (tmp / "rules.yaml").write_text("variant: classic\n")
    (tmp / "spec.yaml").write_text("rule_set: classic\nseats: [random, random]\noptions: {dig_in_place: [true, false]}\ntargets: {mean_turns: [4, 6]}\n")
    (tmp / "taken.csv").write_text("my earlier results\n")
    (tmp / "taken.html").write_text("<p>my earlier report</p>\n")
    records = tmp / "records"
    result = th("simulate", "-v", "classic", "--games", "2", "--records", records)
    assert result.exit_code == 0, result.output
    sweep = tmp / "sweep-records"
    result = th("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false", "--games", "1", "--records", sweep)
    assert result.exit_code == 0, result.output
    os.mkfifo(tmp / "fifo.jsonl")
    os.mkfifo(tmp / "fifo.yaml")
    # local plugins, one folder each
    modules = {
        "exit0": "import sys\nsys.exit(0)\n",
        "exit3": "import sys\nsys.exit(3)\n",
        "ctrl_c": "raise KeyboardInterrupt\n",
        "base": "raise BaseException('boom')\n",
        "error": "raise RuntimeError('no luck')\n",
    }
    for name, code in modules.items():
        (tmp / f"plugins-{name}").mkdir()
        (tmp / f"plugins-{name}" / f"{name}.py").write_text(code)
    (tmp / "plugins-fifo").mkdir()
    os.mkfifo(tmp / "plugins-fifo" / "f.py")
    return tmp


CASES = [
    # the sweep's table when a metric has no interval (it crashed on None)
    # -- is a success, tested below; the rows here are all refusals
    # no file replaced unasked
    (("simulate", "-v", "classic", "--games", "2", "--csv", "{dir}/taken.csv"), "--csv {dir}/taken.csv already exists; add --force to overwrite it", 2),
    (("simulate", "-v", "classic", "--games", "2", "--report", "{dir}/taken.html"), "--report {dir}/taken.html already exists; add --force", 2),
    (("compare", "classic", "classic-wiki", "--games", "2", "--csv", "{dir}/taken.csv"), "--csv {dir}/taken.csv already exists", 2),
    (("compare", "classic", "classic-wiki", "--games", "2", "--report", "{dir}/taken.html"), "--report {dir}/taken.html already exists", 2),
    (("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false", "--games", "1", "--csv", "{dir}/taken.csv"), "--csv {dir}/taken.csv already exists", 2),
    (("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false", "--games", "1", "--report", "{dir}/taken.html"), "--report {dir}/taken.html already exists", 2),
    (("replay", "{dir}/game.jsonl", "--html", "{dir}/taken.html"), "--html {dir}/taken.html already exists; add --force", 2),
    # ... and never over the input, even with --force
    (("replay", "{dir}/game.jsonl", "--html", "{dir}/game.jsonl"), "--html {dir}/game.jsonl is the file this command reads", 2),
    (("replay", "{dir}/game.jsonl", "--html", "{dir}/game.jsonl", "--force"), "is the file this command reads", 2),
    (("replay", "{dir}/game.jsonl", "--html", "{dir}/./game.jsonl", "--force"), "is the file this command reads", 2),
    (("simulate", "--config", "{dir}/rules.yaml", "--games", "2", "--csv", "{dir}/rules.yaml", "--force"), "--csv {dir}/rules.yaml is the file this command reads", 2),
    (("compare", "{dir}/rules.yaml", "classic-wiki", "--games", "2", "--report", "{dir}/rules.yaml", "--force"), "--report {dir}/rules.yaml is the file this command reads", 2),
    (("simulate", "-v", "classic", "--games", "2", "--csv", "{dir}/new.out", "--report", "{dir}/new.out"), "--csv and --report both name", 2),
    # --records: a folder holding an earlier run's records
    (("simulate", "-v", "classic", "--games", "2", "--records", "{dir}/records"), "--records {dir}/records already holds an earlier run's records", 2),
    (("compare", "classic", "classic-wiki", "--games", "2", "--records", "{dir}/records"), "already holds an earlier run's records", 2),
    (("sweep", "-v", "classic", "--param", "rules.dig_in_place=true,false", "--games", "1", "--records", "{dir}/sweep-records"), "already holds an earlier run's records", 2),
    # names too long for the file system
    (("replay", "{dir}/game.jsonl", "--html", f"{{dir}}/{LONG}.html"), "--html: the file name 'aaaa", 2),
    (("simulate", "-v", "classic", "--games", "2", "--csv", f"{{dir}}/{LONG}.csv"), "is 304 bytes long; this file system takes at most", 2),
    (("simulate", "-v", "classic", "--games", "2", "--report", f"{{dir}}/{LONG}.html"), "--report: the file name", 2),
    (("simulate", "-v", "classic", "--games", "2", "--records", f"{{dir}}/{LONG}"), "--records: the file name", 2),
    # bounded reads: nothing but a regular file
    (("replay", "/dev/zero"), "cannot read the record /dev/zero: it is a device, not a regular file", 2),
    (("replay", "/dev/zero", "--html", "{dir}/zero.html"), "it is a device, not a regular file", 2),
    (("play", "--resume", "/dev/zero"), "cannot read the record /dev/zero: it is a device", 2),
    (("tune", "/dev/zero", "--out", "{dir}/tuned"), "cannot read the tuning spec /dev/zero: it is a device", 2),
    (("rules", "--config", "/dev/zero"), "no rule set file at /dev/zero", 2),
    (("replay", "{dir}/fifo.jsonl"), "fifo.jsonl: it is a named pipe (FIFO), not a regular file", 2),
    (("play", "--resume", "{dir}/fifo.jsonl"), "it is a named pipe (FIFO)", 2),
    (("rules", "--config", "{dir}/fifo.yaml"), "no rule set file at {dir}/fifo.yaml", 2),
    (("compare", "{dir}/fifo.yaml", "classic"), "no rule set file at {dir}/fifo.yaml", 2),
    (("tune", "{dir}/fifo.yaml", "--out", "{dir}/tuned"), "cannot read the tuning spec {dir}/fifo.yaml: it is a named pipe (FIFO)", 2),
    # local plugins: the installed ones' boundary, and a stop with one line
    (("--plugins-dir", "{dir}/plugins-exit0", "variants"), "plugin 'exit0' ({dir}/plugins-exit0/exit0.py) failed to import: SystemExit(0): it called sys.exit()", 2),
    (("--plugins-dir", "{dir}/plugins-exit3", "variants"), "failed to import: SystemExit(3)", 2),
    (("--plugins-dir", "{dir}/plugins-ctrl_c", "variants"), "plugin 'ctrl_c' ({dir}/plugins-ctrl_c/ctrl_c.py) failed to import: KeyboardInterrupt: it raised KeyboardInterrupt itself", 2),
    (("--plugins-dir", "{dir}/plugins-base", "variants"), "plugin 'base' ({dir}/plugins-base/base.py) failed to import: BaseException: boom", 2),
    (("--plugins-dir", "{dir}/plugins-error", "variants"), "failed to import: RuntimeError: no luck", 2),
    (("--plugins-dir", "{dir}/plugins-exit0", "simulate", "-v", "classic", "--games", "200", "--jobs", "2"), "failed to import: SystemExit(0)", 2),
    (("--plugins-dir", "{dir}/plugins-fifo", "variants"), "plugin 'f' ({dir}/plugins-fifo/f.py) is a named pipe (FIFO), not a regular file", 2),
    (("--plugins-dir", "", "variants"), "--plugins-dir was given an empty folder name", 2),
    (("--plugins-dir", " ", "variants"), "--plugins-dir was given an empty folder name", 2),
    # records checked whole (th replay and th play --resume), left as they were
    (("replay", "--all", "{dir}/two-starts.jsonl"), "two-starts.jsonl, line 3: damaged record: a second start event", 2),
    (("replay", "--all", "{dir}/two-starts-finished.jsonl"), "line 4: damaged record: a second start event", 2),
    (("play", "--resume", "{dir}/two-starts.jsonl"), "line 3: damaged record: a second start event", 2),
    (("replay", "--all", "{dir}/start-last.jsonl"), "line 1: damaged record: a roll event before the start event", 2),
    (("replay", "--all", "{dir}/after-end.jsonl"), "a roll event after the end event", 2),
    (("replay", "--all", "{dir}/three-seats.jsonl"), "the start event names 3 seats, but meta.seats names 2", 2),
    (("play", "--resume", "{dir}/three-seats.jsonl"), "the start event names 3 seats, but meta.seats names 2", 2),
    (("replay", "--all", "{dir}/three-seats-both.jsonl"), "by seat 5, but the game has 3 seats", 2),
    (("replay", "--all", "{dir}/three-seats-position.jsonl"), "the start event names 3 seats, but its position is for 2 players", 2),
    (("play", "--resume", "{dir}/three-seats-position-saved.jsonl"), "the start event names 3 seats, but its position is for 2 players", 2),
    (("replay", "--all", "{dir}/winner-3.jsonl"), "the end event names winners [3], but the game has 2 seats", 2),
    (("replay", "--all", "{dir}/step-label.jsonl"), "the record labels this move step 'dig', but the game is at step 'act' there", 2),
    (("play", "--resume", "{dir}/step-label-saved.jsonl"), "the record labels this move step 'dig', but the game is at step 'act' there", 2),
    (("replay", "--all", "{dir}/turn-number.jsonl"), "the record numbers this move turn", 2),
    (("replay", "{dir}/turn-number.jsonl", "--html", "{dir}/turn.html"), "the record numbers this move turn", 2),
    # house-rule options as strict as bot options
    (("rules", "-v", "fences", "--set", 'house_rules=["wild-repair(max=true)"]'), "house rule 'wild-repair': option max: Input should be a valid integer (got True)", 2),
    (("rules", "-v", "fences", "--set", "house_rules=[\"wild-repair(max='2')\"]"), "option max: Input should be a valid integer (got '2')", 2),
    (("rules", "-v", "fences", "--set", 'house_rules=["wild-repair(max=2.0)"]'), "option max: Input should be a valid integer (got 2.0)", 2),
    (("simulate", "-v", "classic", "--seat", "search(depth=true)"), "bad value True for option 'depth' of bot 'search'", 2),
    # cluster addresses refused before anything connects
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "tcp://127.0.0.1:abc"), "--cluster 'tcp://127.0.0.1:abc': bad host or port", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "tcp://[::1"), "ipv6 needs brackets", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "foo://x"), "th connects over tcp:// or tls://, not foo://", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "inproc://x"), "not inproc://", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "ucx://127.0.0.1:8786"), "ucx:// needs UCX-Py on every machine", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "tls://127.0.0.1:8786"), "tls:// needs the scheduler's CA and a client certificate", 2),
    (("tune", "{dir}/spec.yaml", "--out", "{dir}/tuned", "--cluster", "tls://127.0.0.1:8786"), "tls:// needs the scheduler's CA", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "tcp://127.0.0.1:9"), "cannot reach a Dask scheduler at tcp://127.0.0.1:9: Connection refused", 2),
    (("tune", "{dir}/spec.yaml", "--out", "{dir}/tuned", "--cluster", "tcp://127.0.0.1:9"), "Connection refused", 2),
    (("simulate", "-v", "classic", "--games", "2", "--cluster", "tcp://no-such-host.invalid:8786"), "no such host 'no-such-host.invalid'", 2),
]

NEEDS_DASK = "--cluster"


def _case_id(case) -> str:
    return re.sub(r"\s+", "_", " ".join(str(a)[:30] for a in case[0]).replace("{dir}/", ""))[:80]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file() and not path.is_fifo()}


@pytest.mark.parametrize("args, words, code", CASES, ids=[_case_id(case) for case in CASES])
def test_every_mistake_is_one_line_and_leaves_every_file_as_it_was(files, args, words, code):
    if NEEDS_DASK in args:
        pytest.importorskip("distributed")
    if "tune" in args:
        pytest.importorskip("optuna")
    args = [str(a).replace("{dir}", str(files)) for a in args]
    before = _snapshot(files)
    result = th(*args)
    loaded_plugins.cache_clear()  # a --plugins-dir row must not leave its plugins to the next
    os.environ.pop(PLUGINS_DIR_ENV, None)
    assert_one_line_error(result, words.replace("{dir}", str(files)), code)
    assert _snapshot(files) == before  # nothing written, nothing replaced, nothing removed


# --------------------------------------------------------------------------
# what is allowed: --force, a fresh folder, the sweep's table
# --------------------------------------------------------------------------


def test_force_replaces_csv_report_and_html(files, tmp_path):
    csv, report, page = tmp_path / "r.csv", tmp_path / "r.html", tmp_path / "page.html"
    for path in (csv, report, page):
        path.write_text("old\n")
    result = th("simulate", "-v", "classic", "--games", "2", "--csv", csv, "--report", report, "--force")
    assert result.exit_code == 0, result.output
    assert csv.read_text().startswith("section,name,value") and "<html" in report.read_text().lower()
    result = th("replay", files / "game.jsonl", "--html", page, "--force")
    assert result.exit_code == 0, result.output
    assert "<html" in page.read_text().lower()


def test_force_on_records_removes_the_earlier_run_and_only_its_records(tmp_path):
    folder = tmp_path / "records"
    assert th("simulate", "-v", "classic", "--games", "5", "--records", folder).exit_code == 0
    (folder / "notes.txt").write_text("mine\n")
    result = th("simulate", "-v", "classic", "--games", "2", "--seed", "9", "--records", folder, "--force")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["game-000000.jsonl", "game-000001.jsonl", "notes.txt"]
    assert [_lines(folder / f"game-00000{i}.jsonl")[0]["meta"]["seed"] for i in range(2)] == [9, 9]  # this run's, not the first's


def test_a_records_folder_with_other_files_only_is_used(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "README").write_text("records go here\n")
    result = th("simulate", "-v", "classic", "--games", "2", "--records", folder)
    assert result.exit_code == 0, result.output
    assert (folder / "game-000001.jsonl").is_file() and (folder / "README").read_text() == "records go here\n"


def test_the_sweep_table_shows_a_missing_interval_as_n_a():
    """A metric with no interval at a point (one game) used to crash the table's formatting."""
    result = th("sweep", "--variant", "classic", "--param", "rules.dig_in_place=true,false", "--games", "1")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output[-2000:]
    assert re.search(r"^true\s.*\[n/a,n/a\]", result.stdout, re.M), result.stdout


def test_house_rule_options_of_the_right_type_still_work():
    result = th("rules", "-v", "fences", "--set", 'house_rules=["wild-repair(max=2)"]')
    assert result.exit_code == 0, result.output
    assert "wild-repair(max=2)" in result.stdout


# --------------------------------------------------------------------------
# what a file or a record supplies is shown, never obeyed by the terminal
# --------------------------------------------------------------------------


@pytest.fixture
def evil_record(files, tmp_path):
    events = _lines(files / "saved.jsonl")
    events[0]["meta"]["rule_set"] = f"mine{EVIL}"
    path = tmp_path / f"game{EVIL}.jsonl"
    _write(path, events)
    finished = _lines(files / "game.jsonl")
    finished[-1]["reason"] = f"matched{EVIL}"
    ended = tmp_path / f"ended{EVIL}.jsonl"
    _write(ended, finished)
    return path, ended


def test_replay_all_escapes_control_characters(evil_record):
    saved, ended = evil_record
    for path in (saved, ended):
        result = th("replay", "--all", path)
        assert result.exit_code == 0, result.output[-2000:]
        assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b]0;pwned\\x07\\x1b[31m" in th("replay", "--all", saved).stdout
    assert "matched\\x1b]0;pwned" in th("replay", "--all", ended).stdout


def test_resume_escapes_control_characters(evil_record):
    saved, _ = evil_record
    result = th("play", "--resume", saved, "--delay", "0", input="q\n")
    assert "\x1b" not in result.output and "\x07" not in result.output, result.output[-2000:]
    assert "mine\\x1b]0;pwned" in result.stdout


def test_an_error_naming_a_file_escapes_control_characters(tmp_path):
    result = th("replay", tmp_path / f"absent{EVIL}.jsonl")
    assert_one_line_error(result, "absent\\x1b]0;pwned\\x07\\x1b[31m.jsonl")


def test_rules_config_escapes_control_characters(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text('variant: classic\ndescription: "evil \\x1b]0;pwned\\x07\\x1b[31m red"\n')
    result = th("rules", "--config", path)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "evil \\x1b]0;pwned\\x07\\x1b[31m red" in result.stdout


# --------------------------------------------------------------------------
# a local plugin that takes long to import is named while it runs
# --------------------------------------------------------------------------


def test_a_slow_local_plugin_is_named_while_it_imports(tmp_path, monkeypatch, environment):
    from treehouse import plugins

    monkeypatch.setattr(plugins, "SLOW_IMPORT_NOTICE_SECONDS", 0.2)
    folder = tmp_path / "slow"
    folder.mkdir()
    # the module writes its own line after the wait: the notice must come before it, while it runs
    (folder / "slow_rule.py").write_text("import sys, time\ntime.sleep(1.5)\nsys.stderr.write('import done\\n')\n")
    result = th("--plugins-dir", folder, "variants")
    loaded_plugins.cache_clear()
    os.environ.pop(PLUGINS_DIR_ENV, None)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    notice = f"warning: still importing plugin 'slow_rule' ({folder / 'slow_rule.py'}) after 0.2 s"
    assert any(line.startswith(notice) for line in lines), lines
    assert [i for i, line in enumerate(lines) if line.startswith(notice)][0] < lines.index("import done")
