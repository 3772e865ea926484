"""The playtest lab of ``th serve`` through its ASGI app (Starlette's test client: the real app,
its WebSocket and its runs, each played in a process of its own): the key, the form's checks,
the same numbers as ``th compare --json``, and cancelling.  The real server through a
``kill -9`` is in test_lab_restart.py; the browser in test_lab_browser.py."""

from __future__ import annotations

import json
import os
import shlex
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # what starlette.testclient uses
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from treehouse.cli import app  # noqa: E402
from treehouse.serve.app import Hub, build_app  # noqa: E402
from treehouse.serve.lab import Lab  # noqa: E402

ORIGIN = {"origin": "http://testserver"}
#: A small compare of one Fences rule between two quick bots.
SMALL = {"type": "run", "question": "compare", "rule_set": "fences", "a": {}, "b": {"one_hit_per_piece": "false"}, "seats": ["random", "greedy"], "games": "30", "seed": "5"}


@pytest.fixture
def lab(tmp_path):
    hub = Hub(tmp_path, delay=0)
    lab = Lab(tmp_path / "lab", jobs=1)
    with TestClient(build_app(hub, ["testserver"], lab)) as client:
        yield client, lab


def receive(ws, kind: str) -> dict:
    """The next message of ``kind`` (the runs' states that arrive meanwhile are skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


def until_run(ws, lab, condition, run_id: str | None = None, seconds: float = 60) -> dict:
    """Read the lab's states until run ``run_id`` (default: the newest) meets ``condition``; that run.
    The lab is asked first, with a deadline (a page's socket has none): once it is so, the state saying so is on its way."""
    def run_in(runs):
        return (runs[0] if runs else None) if run_id is None else next((r for r in runs if r["id"] == run_id), None)

    deadline = time.monotonic() + seconds
    while not ((run := run_in(lab.summary()["runs"])) and condition(run)):
        assert time.monotonic() < deadline, f"the run never got there: {run}"
        time.sleep(0.05)
    while True:
        message = ws.receive_json()
        if message["type"] == "lab" and message["runs"]:
            run = run_in(message["runs"])
            if run is not None and condition(run):
                return run


def timeless(result: dict) -> dict:
    """A result less the seconds it took (the one thing two plays of a seed may differ in)."""
    return {k: timeless(v) if isinstance(v, dict) else v for k, v in result.items() if k != "seconds"}


@pytest.mark.parametrize("key", [None, "", "guessed-key", "x" * 100])
def test_a_wrong_or_missing_key_cannot_start_a_run(lab, key):
    client, lab = lab
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "run", **{k: v for k, v in SMALL.items() if k != "type"}})  # before any hello
        assert "only the lab's own link" in receive(ws, "error")["message"]
        ws.send_json({"type": "hello", "key": key})
        assert "not this lab's" in receive(ws, "error")["message"]
        for message in (SMALL, {"type": "form", "rule_set": "fences"}, {"type": "cancel", "run": "any"}):
            ws.send_json(message)
            assert "only the lab's own link" in receive(ws, "error")["message"]
    assert lab.runs == {} and not list(lab.folder.glob("*.run.json"))


def test_the_key_is_checked_like_a_seat_token_and_kept_owner_only(lab, tmp_path):
    client, lab = lab
    assert (lab.folder / "lab.key.json").stat().st_mode & 0o777 == 0o600
    assert Lab(tmp_path / "lab").key == lab.key  # the same link after a restart
    with pytest.raises(WebSocketDisconnect):  # another site's page cannot even connect
        with client.websocket_connect("/lab/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        assert "fences" in receive(ws, "welcome")["rule_sets"]


def test_the_form_comes_from_the_options_models(lab):
    client, lab = lab
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json({"type": "form", "rule_set": "fences-scored"})
        form = receive(ws, "form")
    from treehouse.plugins import load_plugins
    from treehouse.config import resolve

    cls = load_plugins().variant("fences")
    options = {o["name"]: o for o in form["options"]}
    assert list(options) == list(cls.Rules.model_fields)  # every option, in the model's order
    for name, info in cls.Rules.model_fields.items():
        assert options[name]["description"] == info.description
    assert options["stack_height_2p"] | {"value": None} == {
        "name": "stack_height_2p", "description": cls.Rules.model_fields["stack_height_2p"].description, "kind": "integer", "minimum": 1, "maximum": 5, "value": None}
    assert options["line_hits"]["choices"] == ["new", "every_check"] and options["one_hit_per_piece"]["kind"] == "boolean"
    scored = resolve(load_plugins(), variant="fences-scored").rules
    assert options["turn_limit"]["value"] == scored.turn_limit != cls.Rules().turn_limit  # the rule set's values, not the defaults
    rules = {r["name"]: r for r in form["house_rules"]}
    assert rules["wild-repair"]["options"][0] | {"value": None} == {"name": "max", "description": rules["wild-repair"]["options"][0]["description"], "kind": "integer", "minimum": 0, "maximum": 20, "value": None}


#: (what the form changes, the field whose message says so, words in it)
BAD_FIELDS = [
    ({"a": {"stack_height_2p": "9"}}, "a.stack_height_2p", "less than or equal to 5 (got 9)"),
    ({"a": {"stack_height_2p": "true"}}, "a.stack_height_2p", "valid integer"),
    ({"a": {"line_hits": "sometimes"}}, "a.line_hits", "'new' or 'every_check'"),
    ({"a": {"first_player": "x"}}, "a.first_player", "drawn"),
    ({"a": {"no_such_rule": "1"}}, "a.no_such_rule", "unknown option 'no_such_rule'"),
    ({"b": {"one_hit_per_piece": "maybe"}}, "b.one_hit_per_piece", "valid boolean"),
    ({"b": {"house_rules": '["wild-repair(max=99)"]'}}, "b.house_rules", "option max: Input should be less than or equal to 20"),
    ({"b": {"house_rules": '["no-such-rule"]'}}, "b.house_rules", "unknown house rule 'no-such-rule'"),
    ({"b": {}}, "b", "change at least one value of B"),
    ({"seats": ["greedy", "wizard"]}, "seats.1", "unknown bot 'wizard'"),
    ({"seats": ["greedy", "search(depth=x)"]}, "seats.1", "depth"),
    ({"seats": ["greedy"] * 5}, "seats", "2 to 4 players, not 5"),
    ({"games": "abc"}, "games", "a whole number of games, not 'abc'"),
    ({"games": "0"}, "games", "--games must be from 1"),
    ({"seed": "-1"}, "seed", "a whole number from 0"),
    ({"rule_set": "chess"}, "rule_set", "unknown variant 'chess'"),
    ({"a": {"stack_height_3p": "3", "stack_height_2p": "6"}}, "a.stack_height_2p", "less than or equal to 5"),
    ({"question": "sweep"}, "sweep", "choose the option to sweep"),
    ({"question": "sweep", "sweep": [{"option": "turn_limit", "values": "10, x"}]}, "sweep.0", "rules.turn_limit: Input should be a valid integer (got 'x')"),
    ({"question": "sweep", "sweep": [{"option": "turn_limit", "values": "10,,20"}]}, "sweep.0", "none empty (e.g. 10, 20, 30), not '10,,20'"),
    ({"question": "sweep", "sweep": [{"option": "colour", "values": "red"}]}, "sweep.0", "unknown fences rule option 'colour'"),
    ({"question": "sweep", "sweep": [{"option": "turn_limit", "values": "1"}, {"option": "turn_limit", "values": "2"}]}, "sweep", "given twice"),
    ({"question": "sweep", "a": {"sets": "rainbow-xeno"}, "sweep": [{"option": "stack_height_2p", "values": "5, 4"}]}, None, None),  # 10 smalls: both fit
    ({"question": "sweep", "sweep": [{"option": "stack_height_2p", "values": "5"}, {"option": "sets", "values": "two-rainbow"}], "a": {"stack_height_4p": "2"}}, None, None),
    ({"question": "simulate", "a": {"stack_height_4p": "2", "sets": "rainbow-xeno"}, "b": {"line_hits": "nonsense"}}, None, None),  # B is not read by a simulate
]


@pytest.mark.parametrize("change, field, words", BAD_FIELDS)
def test_a_malformed_field_gets_its_message_and_nothing_runs(lab, change, field, words):
    client, lab = lab
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json({**SMALL, **change})
        if field is None:  # the control rows: these are fine and are queued
            assert receive(ws, "queued")["run"]
            ws.send_json({"type": "cancel", "run": next(iter(lab.runs))})
            return
        mistakes = receive(ws, "mistakes")["mistakes"]
    assert list(mistakes) == [field] and words in mistakes[field], mistakes
    assert lab.runs == {} and not list(lab.folder.glob("*.run.json"))


def test_every_mistake_of_one_form_is_said_next_to_its_field(lab):
    client, lab = lab
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json({**SMALL, "a": {"stack_height_2p": "9", "line_hits": "x"}, "b": {"draft": "y"}, "seats": ["wizard", "greedy"], "games": "many", "seed": "s"})
        mistakes = receive(ws, "mistakes")["mistakes"]
    assert sorted(mistakes) == ["a.line_hits", "a.stack_height_2p", "b.draft", "games", "seats.0", "seed"]
    assert all("\n" not in line for line in mistakes.values())
    assert lab.runs == {}


#: Messages the lab refuses whole, in one line each (the page never sends them).
BAD_MESSAGES = [
    ("not json", "not JSON"),
    ("[1]", "must be a JSON object"),
    (json.dumps({"type": "sweep"}), "unknown message type"),
    (json.dumps({**SMALL, "games": 30}), "games: Input should be a valid string, not the number 30"),
    (json.dumps({**SMALL, "extra": 1}), "extra: Extra inputs are not permitted"),
    (json.dumps({**SMALL, "a": {f"k{i}": "1" for i in range(65)}}), "a: Dictionary should have at most 64 items"),
    ("x" * 20_000, "message too long"),
]


@pytest.mark.parametrize("text, words", BAD_MESSAGES)
def test_a_bad_message_is_one_line(lab, text, words):
    client, lab = lab
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_text(text)
        assert words in receive(ws, "error")["message"]
    assert lab.runs == {}


def test_a_compare_gives_th_compares_numbers_files_and_command(lab, tmp_path, monkeypatch):
    client, lab = lab
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json(SMALL)
        queued = receive(ws, "queued")
        done = until_run(ws, lab, lambda run: run["status"] not in ("queued", "playing"))
    assert done["status"] == "finished", done
    run_id = queued["run"]
    ours = json.loads((lab.folder / f"{run_id}.json").read_text())
    # the exact command shown, run here: the same JSON but for the time taken, and the same report's figures
    assert queued["command"] == done["command"]
    words = shlex.split(done["command"].split(" > ")[0])
    assert words[:2] == ["th", "compare"]
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    theirs = json.loads(result.stdout)
    assert timeless(ours) == timeless(theirs)
    assert [{"name": r["name"], "value": r["diff"], "low": r["low"], "high": r["high"], "significant": r["significant"]} for r in ours["differences"] if r["part"] == "entrants"] == done["estimate"]
    report = client.get(f"/lab/r/{run_id}.html")
    assert report.status_code == 200 and report.text == (lab.folder / f"{run_id}.html").read_text()
    assert (tmp_path / f"{run_id}.html").read_text().count("<svg") == report.text.count("<svg") > 0  # the command's own report
    assert client.get(f"/lab/r/{run_id}.json").json() == ours
    for name in ("nope.json", f"{run_id}.run.json", f"{run_id}.txt", "..%2Flab.key.json", "lab.key.json"):
        assert client.get(f"/lab/r/{name}").status_code == 404


def test_a_run_is_cancelled_and_the_queue_is_bounded(lab):
    client, lab = lab
    long = {**SMALL, "seats": ["greedy", "search"], "games": "5000"}
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ids = []
        for _ in range(4):  # one plays, three wait
            ws.send_json(long)
            ids.append(receive(ws, "queued")["run"])
        ws.send_json(long)
        assert "3 runs are waiting already" in receive(ws, "error")["message"]
        deadline = time.monotonic() + 30
        while not (lab.runs[ids[0]].status == "playing" and lab.runs[ids[0]].done > 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        process = lab.runs[ids[0]].process
        assert process is not None and lab.runs[ids[0]].done > 0
        for run_id in ids:
            ws.send_json({"type": "cancel", "run": run_id})
        ws.send_json({"type": "cancel", "run": ids[0]})
        assert "nothing to cancel" in receive(ws, "error")["message"]
    process.wait(timeout=10)  # the playing run's process is ended
    assert [lab.runs[i].status for i in ids] == ["cancelled"] * 4
    assert [run["id"] for run in lab.summary()["runs"]] == ids[::-1]  # the newest first, though all came in one second
    assert "cancelled after" in lab.runs[ids[0]].message
    assert not list(lab.folder.glob("*.html"))


def test_a_run_reports_each_chunks_estimate_narrowing_to_the_result(tmp_path, capsys):
    from treehouse.serve.lab import Plan, run_plan

    plan = Plan("simulate", "fences", ("turn_limit=30",), (), ("random", "random"), 300, 9)
    result = run_plan(plan, tmp_path / "run.json", tmp_path / "run.html", jobs=1)
    said = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    estimates = [message["estimate"] for message in said if "estimate" in message]
    assert [m["done"] for m in said if "estimate" in m] == [100, 200, 300]  # one per chunk of games
    assert len([m for m in said if "estimate" not in m]) >= 1 and said[-1]["done"] == 300
    widths = [next(row["high"] - row["low"] for row in rows if row["name"] == "win rate seat 1") for rows in estimates]
    assert widths[0] > widths[1] > widths[2], widths
    assert estimates[-1][-2] == {"name": "win rate seat 1", "value": result["seats"][0]["rate"], "low": result["seats"][0]["low"], "high": result["seats"][0]["high"]}
    assert json.loads((tmp_path / "run.json").read_text()) == result and "<svg" in (tmp_path / "run.html").read_text()


def test_a_run_that_fails_in_its_process_is_marked_with_its_one_line(lab):
    client, lab = lab
    from treehouse.serve.lab import Plan

    # a plan the form would have refused, handed to the lab directly: the run's own process says why, in one line
    run = lab.submit(Plan("simulate", "fences", ("turn_limit=-1",), (), ("random", "random"), 10, 1))
    deadline = time.monotonic() + 30
    while run.status in ("queued", "playing") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert run.status == "failed"
    assert run.message == "--set: rules.turn_limit: Input should be greater than or equal to 0 (got -1)"
    assert json.loads((lab.folder / f"{run.id}.run.json").read_text())["status"] == "failed"
    assert lab.result_file(f"{run.id}.json") is None


def test_a_playing_run_leaves_a_persons_move_quick(tmp_path):
    """The tables come first (docs/lab.md): while a run of search games plays, a person's move at a
    table is shown within half a second at the median, the lobby's bound (docs/serving.md)."""
    import statistics

    from serve.test_app import honest_move_times
    from treehouse.serve.table import Table

    hub = Hub(tmp_path, delay=0)
    table = Table.create(tmp_path, variant="fences", players=None, seats=["human", "human"], bot=None, seed=11, overrides=["turn_limit=30"], delay=0)
    hub.add(table)
    lab = Lab(tmp_path / "lab", jobs=1)
    with TestClient(build_app(hub, ["testserver"], lab)) as client:
        with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "key": lab.key})
            ws.send_json({**SMALL, "seats": ["search", "search"], "games": "5000"})
            until_run(ws, lab, lambda run: run["status"] == "playing" and run["done"] > 0)
            times = honest_move_times(client, table, 10)
            run = next(iter(lab.runs.values()))
            assert run.status == "playing" and run.process is not None  # it played meanwhile
    assert len(times) == 10 and statistics.median(times) < 0.5, times
    print(f"a person's move with a run playing: median {statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms")


def test_an_sprt_compare_stops_where_th_compare_does(lab, tmp_path, monkeypatch):
    client, lab = lab
    form = {**SMALL, "b": {"first_player": "2"}, "seats": ["random", "random"], "games": "1000", "sprt": True}
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json({**form, "question": "simulate"})  # an SPRT is a compare's: a simulate ignores it
        assert "--sprt" not in receive(ws, "queued")["command"]
        ws.send_json(form)
        queued = receive(ws, "queued")
        done = until_run(ws, lab, lambda run: run["status"] not in ("queued", "playing"), queued["run"])
    assert done["status"] == "finished" and done["done"] == 200  # decided after two chunks of the 1000
    assert done["sprt"]["decision"] == "H1" and done["sprt"]["llr"] >= done["sprt"]["upper"] and "H1 accepted" in done["sprt"]["verdict"]
    words = shlex.split(done["command"].split(" > ")[0])
    assert words[words.index("--sprt") + 1] == "auto"
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    assert timeless(json.loads(result.stdout)) == timeless(json.loads((lab.folder / f"{done['id']}.json").read_text()))


def test_each_chunk_reports_the_sprts_llr_against_its_bounds(tmp_path, capsys):
    from treehouse.serve.lab import Plan, run_plan

    plan = Plan("compare", "fences", (), ("first_player=2",), ("random", "random"), 1000, 5, sprt=True)
    result = run_plan(plan, tmp_path / "run.json", tmp_path / "run.html", jobs=1)
    tests = [json.loads(line)["sprt"] for line in capsys.readouterr().out.splitlines() if "sprt" in json.loads(line)]
    assert [t["pairs"] for t in tests] == [100, 200]
    assert tests[0]["decision"] is None and tests[0]["lower"] < tests[0]["llr"] < tests[0]["upper"]
    assert tests[1]["decision"] == "H1" and tests[1]["llr"] == result["sprt"]["llr"]


def test_every_rule_sets_form_sent_back_as_it_is_checks_out_to_the_same_rules(plugins):
    """Each value the form shows, sent back as the page sends it (its --set text), is valid and means the same."""
    from treehouse.config import resolve
    from treehouse.serve.lab import RunForm, check_form, form_of, rule_set_names

    def as_text(value) -> str:  # as the page writes a value into its control
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    names = rule_set_names(plugins)
    assert {"classic", "fences", "fences-house-rules"} <= set(names)
    for name in names:
        form = form_of(plugins, name)
        cls = plugins.variant(form["variant"])
        assert [o["name"] for o in form["options"]] == list(cls.Rules.model_fields)
        on = [rule["name"] for rule in form["house_rules"] if rule["on"]]
        sent = RunForm(type="run", question="simulate", rule_set=form["rule_set"], a={o["name"]: as_text(o["value"]) for o in form["options"]} | {"house_rules": json.dumps(on)},
                       seats=["random"] * form["players"]["usual"], games="10", seed="1")
        plan = check_form(plugins, sent)
        assert resolve(plugins, variant=name, overrides=plan.overrides).rules == resolve(plugins, variant=name).rules


def test_runs_on_a_dask_cluster_give_the_same_numbers(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    hub = Hub(tmp_path, delay=0)
    lab = Lab(tmp_path / "lab", jobs=1, cluster="local")
    with TestClient(build_app(hub, ["testserver"], lab)) as client:
        with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "key": lab.key})
            ws.send_json(SMALL)
            done = until_run(ws, lab, lambda run: run["status"] not in ("queued", "playing"))
    assert done["status"] == "finished", done
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, shlex.split(done["command"].split(" > ")[0])[1:])  # the command names no cluster: where a game is played changes nothing
    assert timeless(json.loads(result.stdout)) == timeless(json.loads((lab.folder / f"{done['id']}.json").read_text()))
    assert lab.summary()["where"] == "on the Dask cluster local"


def test_a_sweep_gives_th_sweeps_numbers_a_point_at_a_time(lab, tmp_path, monkeypatch):
    client, lab = lab
    form = {**SMALL, "question": "sweep", "a": {"stack_height_2p": "2"}, "sweep": [{"option": "turn_limit", "values": "10, 40"}], "games": "30"}
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json(form)
        queued = receive(ws, "queued")
        done = until_run(ws, lab, lambda run: run["status"] not in ("queued", "playing"))
    assert done["status"] == "finished" and done["done"] == done["total"] == 60
    assert [row["name"] for row in done["estimate"]] == [f"turn_limit={t}: {what}" for t in (10, 40) for what in ("win rate seat 1", "score random", "score greedy")]
    words = shlex.split(queued["command"].split(" > ")[0])
    assert words[:4] == ["th", "sweep", "--variant", "fences"] and words[words.index("--param") + 1] == "rules.turn_limit=10,40"
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, words[1:])
    assert result.exit_code == 0, result.output
    ours = json.loads((lab.folder / f"{done['id']}.json").read_text())
    assert timeless(json.loads(result.stdout)) == timeless(ours) and len(ours["points"]) == 2
    assert client.get(f"/lab/r/{done['id']}.html").text.count("<svg") > 0


def test_a_damaged_run_file_is_skipped_in_one_line_and_a_damaged_key_is_named(tmp_path, capsys):
    from treehouse.errors import ConfigError

    folder = tmp_path / "lab"
    Lab(folder)
    (folder / "20261206-000000-broken.run.json").write_text("{not json")
    (folder / "20261206-000001-partial.run.json").write_text(json.dumps({"id": "x"}))
    lab = Lab(folder)
    assert lab.runs == {}
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 2 and all(line.startswith("warning: the lab skips 20261206-00000") for line in warnings), warnings
    (folder / "lab.key.json").write_text("[]")
    with pytest.raises(ConfigError, match="not a lab key file; remove it and a new key is made"):
        Lab(folder)


def test_a_run_whose_process_cannot_start_fails_and_the_lab_goes_on(tmp_path, monkeypatch):
    import subprocess

    import treehouse.serve.lab as lab_module
    from treehouse.serve.lab import Plan

    real = subprocess.Popen
    refusals = [OSError(11, "Resource temporarily unavailable")]

    def popen(*args, **kwargs):  # the first run gets no process, as on a machine out of them
        if refusals:
            raise refusals.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(lab_module.subprocess, "Popen", popen)
    lab = Lab(tmp_path / "lab")
    lab.start()
    try:
        plan = Plan("simulate", "fences", (), (), ("random", "random"), 10, 1)
        first, second = lab.submit(plan), lab.submit(plan)
        deadline = time.monotonic() + 30
        while second.status in ("queued", "playing") and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        lab.stop()
    assert first.status == "failed" and first.message == "could not start: [Errno 11] Resource temporarily unavailable"
    assert second.status == "finished"


def test_a_file_named_like_a_rule_set_where_the_server_runs_is_not_read(lab, tmp_path, monkeypatch):
    client, lab = lab
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fences").write_text("variant: classic\n")  # th compare fences would read this file here
    with client.websocket_connect("/lab/ws", headers=ORIGIN) as ws:
        ws.send_json({"type": "hello", "key": lab.key})
        ws.send_json({**SMALL, "games": "10"})
        done = until_run(ws, lab, lambda run: run["status"] not in ("queued", "playing"))
    assert done["status"] == "finished", done
    assert json.loads((lab.folder / f"{done['id']}.json").read_text())["a"]["variant"] == "fences"


def test_a_plugin_folder_given_relative_is_found_by_the_runs_process(tmp_path, monkeypatch):
    from treehouse.plugins import PLUGINS_DIR_ENV
    from treehouse.serve.lab import _run_environment

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(PLUGINS_DIR_ENV, f"plugins{os.pathsep}/abs/other")
    assert _run_environment()[PLUGINS_DIR_ENV] == f"{tmp_path / 'plugins'}{os.pathsep}/abs/other"
