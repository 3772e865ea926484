"""The table server through its ASGI app (Starlette's test client: the real app, its real
WebSocket handling and table threads, without a browser).  A two-person Fences table, so no
bot's timing is involved; the browser and the real server process are in test_browser.py."""

from __future__ import annotations

import json
import re
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # what starlette.testclient uses
from starlette.testclient import TestClient  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from treehouse.cli import app  # noqa: E402
from treehouse.serve.app import MAX_MESSAGE, Hub, build_app  # noqa: E402
from treehouse.serve.table import Table  # noqa: E402

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def served(tmp_path):
    hub = Hub(tmp_path, delay=0)
    table = Table.create(tmp_path, variant="fences", players=None, seats=["human", "human"], bot=None, seed=11, overrides=["turn_limit=6"], delay=0)
    hub.add(table)
    with TestClient(build_app(hub, ["testserver"])) as client:
        yield client, hub, table


def state_with_decision(ws, seat: int | None = None) -> dict:
    """Read states until one asks a person to choose (``seat``: that one)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        message = ws.receive_json()
        decision = message.get("decision") if message["type"] == "state" else None
        if decision and (seat is None or decision["seat"] == seat):
            return message
    raise AssertionError("no decision came")


def next_error(ws) -> str:
    """The next error message's words (states that arrive meanwhile are skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            return message["message"]


def hello(ws, token):
    ws.send_json({"type": "hello", "token": token})


BAD_MESSAGES = [
    ("not json {", "not JSON"),
    ("[1, 2]", "must be a JSON object"),
    ('{"type": "shout"}', "unknown message type"),
    ('{"type": "move"}', "ply"),
    ('{"type": "move", "ply": 1}', "either by index or by notation"),
    ('{"type": "move", "ply": 1, "index": 0, "notation": "x"}', "either by index or by notation"),
    ('{"type": "move", "ply": 1, "index": -1}', "index"),
    ('{"type": "move", "ply": "PLY", "index": 0}', "ply"),
    ('{"type": "move", "ply": 1, "index": 0, "file": "/etc/passwd"}', "file"),
    ('{"type": "move", "ply": 1, "index": 9999}', "there is no move 9999"),
    ('{"type": "move", "ply": 1, "notation": "fly to the moon"}', "cannot read"),
    ('{"type": "move", "ply": 999, "index": 0}', "earlier position"),
    ('{"type": "hello", "token": "' + "x" * 200 + '"}', "token"),
    ("x" * (MAX_MESSAGE + 1), "too long"),
]


def test_each_bad_message_gets_one_error_and_changes_nothing(served):
    client, hub, table = served
    with client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN) as ws:
        hello(ws, table.tokens[0])
        state = state_with_decision(ws)
        seat = state["decision"]["seat"]
        if seat != 1:  # speak for the seat to move
            hello(ws, table.tokens[seat - 1])
            state = state_with_decision(ws, seat)
        record = table.record_path.read_bytes()
        ply = state["decision"]["ply"]
        for text, words in BAD_MESSAGES:
            ws.send_text(text.replace('"ply": 1,', f'"ply": {ply},'))
            reply = ws.receive_json()
            while reply["type"] == "state":  # a state sent before this message was read (after hello): the same decision
                assert reply["decision"]["ply"] == ply, text
                reply = ws.receive_json()
            assert reply["type"] == "error", text
            assert words in reply["message"], (text, reply["message"])
            assert "\n" not in reply["message"]
        assert table.record_path.read_bytes() == record
        assert table.pending is not None and table.pending.ply == ply
        # and a good one is still taken
        ws.send_json({"type": "move", "ply": ply, "index": 0})
        deadline = time.monotonic() + 10
        while table.record_path.read_bytes() == record and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.record_path.read_bytes() != record


def test_wrong_token_and_spectator_cannot_move(served):
    client, hub, table = served
    with client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN) as ws:
        hello(ws, "not-a-seat-token")
        assert "not one of this table's" in next_error(ws)
        state = state_with_decision(ws)
        assert state["you"] is None
        record = table.record_path.read_bytes()
        for message in ({"type": "move", "ply": state["decision"]["ply"], "index": 0}, {"type": "takeback"}, {"type": "hint", "ply": 1}):
            ws.send_json(message)
            assert "watching" in next_error(ws)
        assert table.record_path.read_bytes() == record
        # the other seat's token cannot move for the seat whose turn it is
        mover = state["decision"]["seat"]
        other = 2 if mover == 1 else 1
        hello(ws, table.tokens[other - 1])
        ws.receive_json()
        ws.send_json({"type": "move", "ply": state["decision"]["ply"], "index": 0})
        assert "not yours" in next_error(ws)
        assert table.record_path.read_bytes() == record


def test_takeback_follows_the_stated_rule(served):
    client, hub, table = served
    with client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN) as one, client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN) as two:
        sockets = {1: one, 2: two}
        hello(one, table.tokens[0])
        hello(two, table.tokens[1])
        state = state_with_decision(one)
        mover = state["decision"]["seat"]
        ply = state["decision"]["ply"]
        sockets[mover].send_json({"type": "move", "ply": ply, "index": 0})
        while True:  # the next decision (it may be the same person's, in a later step)
            state = state_with_decision(one)
            if state["decision"]["ply"] > ply:
                break
        waiting = state["decision"]["seat"]
        assert state["takeback_seat"] == mover
        since = state["last_decision"][str(mover)]  # what is new to the mover: from their move on
        assert [line["text"] for line in state["log"] if line["at"] > since][0].split(" · ")[1].startswith(f"Player {mover}")
        if waiting != mover:
            sockets[waiting].send_json({"type": "takeback"})
            assert f"only Player {mover} can take back" in next_error(sockets[waiting])
        sockets[mover].send_json({"type": "takeback"})
        while True:
            state = state_with_decision(one)
            if state["decision"]["ply"] > ply + 1:
                break
        assert state["decision"]["seat"] == mover
        assert re.fullmatch(rf"Player {mover} took back \d+ moves?: back to .*\.", state["log"][-1]["text"])
        lines = [json.loads(line) for line in table.record_path.read_text().splitlines()]
        assert any(line.get("undone") == 1 for line in lines)
        replayed = CliRunner().invoke(app, ["replay", "--all", str(table.record_path)])
        assert replayed.exit_code == 0 and "Taken back here" in replayed.output, replayed.output[-2000:]


def test_origin_and_host_are_checked(served):
    client, hub, table = served
    from starlette.websockets import WebSocketDisconnect

    for headers in ({}, {"origin": "http://evil.example"}):
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(f"/ws/{table.id}", headers=headers) as ws:
                ws.receive_json()
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws/no-such-table", headers=ORIGIN) as ws:
            ws.receive_json()
    assert client.get("/", headers={"host": "rebound.example"}).status_code == 400
    assert client.get(f"/t/{table.id}").status_code == 200
    assert client.get("/t/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get("/assets/..%2Fapp.py").status_code == 404


def test_lobby_starts_a_table_from_its_own_page_only(served, tmp_path):
    client, hub, table = served
    choices = {"variant": "fences", "seats": ["human", "random"], "set": ["turn_limit=3"], "seed": 5}
    assert client.post("/api/tables", json=choices).status_code == 403  # no Origin: not from the lobby page
    assert client.post("/api/tables", json=choices, headers={"origin": "http://evil.example"}).status_code == 403
    bad = client.post("/api/tables", json={**choices, "variant": "../../etc/passwd"}, headers=ORIGIN)
    assert bad.status_code == 400 and "unknown variant" in bad.json()["error"]
    bad = client.post("/api/tables", json={**choices, "seats": ["wizard"]}, headers=ORIGIN)
    assert bad.status_code == 400 and "wizard" in bad.json()["error"]
    bad = client.post("/api/tables", json={**choices, "config": "/etc/passwd"}, headers=ORIGIN)
    assert bad.status_code == 400 and "config" in bad.json()["error"]
    made = client.post("/api/tables", json=choices, headers=ORIGIN)
    assert made.status_code == 201, made.text
    data = made.json()
    assert list(data["seats"]) == ["Player 1"] and data["seats"]["Player 1"].startswith(f"/t/{data['table']['id']}#seat=")
    assert (tmp_path / f"{data['table']['id']}.jsonl").is_file()
    listed = client.get("/api/tables").json()
    assert {t["id"] for t in listed["tables"]} == {table.id, data["table"]["id"]}
    assert "fences" in listed["variants"] and "search" in listed["bots"]
    assert all("seat=" not in json.dumps(t) for t in listed["tables"])  # the lobby shows no seat's key


def test_a_hint_is_for_the_seat_to_move_only(served):
    client, hub, table = served
    with client.websocket_connect(f"/ws/{table.id}", headers=ORIGIN) as ws:
        hello(ws, table.tokens[0])
        state = state_with_decision(ws)
        mover = state["decision"]["seat"]
        other = 2 if mover == 1 else 1
        ply = state["decision"]["ply"]
        hello(ws, table.tokens[other - 1])
        ws.send_json({"type": "hint", "ply": ply})
        assert "not yours" in next_error(ws)
        hello(ws, table.tokens[mover - 1])
        ws.send_json({"type": "hint", "ply": ply})
        while (reply := ws.receive_json())["type"] != "hint":
            assert reply["type"] == "state", reply
        words = {entry["moves"][0]["words"] for entry in state["decision"]["entries"]} | {
            part["words"] for entry in state["decision"]["entries"] for part in entry["moves"]
        }
        assert reply["lines"][0].startswith("Hint (")
        assert any(w in reply["lines"][0] for w in words), reply["lines"]
        assert table.pending is not None and table.pending.ply == ply  # asking changed nothing
