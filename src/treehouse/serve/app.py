"""The web server of ``th serve``: a Starlette ASGI app (run by uvicorn).

Routes:

* ``GET /`` the lobby: the tables, and a form that starts a new one;
* ``GET /api/tables``, ``POST /api/tables`` the same as JSON (a new table's answer
  holds its owner's key, once);
* ``POST /api/tables/{table}/close`` closes a lobby's table for good, given its owner's key;
* ``GET /t/{table}`` a table's page; a seat's link adds ``#seat=TOKEN``;
* ``WS /ws/{table}`` the page's live connection: the page says ``hello``
  with its token (or none, to watch), then gets a ``state`` message at every
  step and sends ``move``, ``hint`` or ``takeback``;
* ``GET /lab``, ``WS /lab/ws``, ``GET /lab/r/{RUN.json|RUN.html}`` the playtest lab
  (:mod:`treehouse.serve.lab`): its page, its connection (``hello`` with the lab's key
  first) and its finished runs' files.

What a client sends is checked before anything happens: the ``Host`` header
must name this server (no DNS-rebinding page reaches it), a WebSocket's and a
``POST``'s ``Origin`` must be this server's own pages, every message is at
most :data:`MAX_MESSAGE` characters and must be one of the :data:`Message`
models, and a move must be legal for the seat whose token the connection
gave.  Anything else is answered with one ``error`` message on that
connection; the game and its record are untouched.  The lobby's tables are
bounded (:meth:`Hub.make_room`, :class:`~treehouse.serve.table.BotCaps`), and a
request's headers must arrive within :data:`HEADER_SECONDS`
(:func:`header_timed_protocol`).  Nothing a client sends
names a file: a table is looked up among the tables the server holds, and its
record's name was chosen by the server.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator
from pydantic_core import from_json
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from treehouse.cli.human import Mistake
from treehouse.errors import TreehouseError, clip
from treehouse.serve.table import DEFAULT_DELAY, BotCaps, Stale, Table

#: The longest message a page may send, in characters (a move's notation is short).
MAX_MESSAGE = 2000
#: The largest WebSocket frame uvicorn accepts at all (larger ones close the connection, code 1009).
MAX_FRAME = 16 * 1024
#: The largest body ``POST /api/tables`` reads.
MAX_BODY = 8 * 1024
#: Tables from the lobby held at once (each is a thread, and its bots think on this machine).
MAX_TABLES = 32
#: Seconds with no page open and no person's move after which a table from the lobby may be closed to make room.
IDLE_SECONDS = 600.0
#: Seconds the stop waits, in all, for the tables' threads to put their waiting seats down (a
#: person's seat gives up at once; a bot in mid-thought is not waited for: it ends with the process).
STOP_WAIT = 0.3
#: Seconds a client has to send a request's headers (from connecting, or from the previous response).
HEADER_SECONDS = 10.0


class _Strict(BaseModel):
    # strict: a field is of its own JSON type ("7", 7.0 and true are not the number 7)
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)


class Hello(_Strict):
    """The first message: this page's seat token (from its link), or none to watch."""

    type: Literal["hello"]
    token: Optional[str] = Field(None, max_length=100)


class MoveMessage(_Strict):
    """A move for the decision ``ply``: by its ``index`` among the legal moves, or typed in ``notation``."""

    type: Literal["move"]
    ply: int = Field(ge=1)
    index: Optional[int] = Field(None, ge=0)
    notation: Optional[str] = Field(None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _one_way(self) -> "MoveMessage":
        if (self.index is None) == (self.notation is None):
            raise ValueError("give the move either by index or by notation, not both or neither")
        return self


class HintMessage(_Strict):
    type: Literal["hint"]
    ply: int = Field(ge=1)


class TakeBackMessage(_Strict):
    type: Literal["takeback"]


Message = TypeAdapter(Annotated[Union[Hello, MoveMessage, HintMessage, TakeBackMessage], Field(discriminator="type")])
KINDS = "hello, move, hint or takeback"


class NewTable(_Strict):
    """The lobby's form: ``th play``'s choices, except a rule-set file (a client names no file)."""

    variant: Optional[str] = Field(None, max_length=80)
    players: Optional[int] = Field(None, ge=1, le=16)
    seats: list[Annotated[str, Field(max_length=120)]] = Field(default_factory=list, max_length=16)
    bot: Optional[str] = Field(None, max_length=120)
    seed: Optional[int] = Field(None, ge=0, le=2**63 - 1)
    set: list[Annotated[str, Field(max_length=300)]] = Field(default_factory=list, max_length=40)


class CloseTable(_Strict):
    """Closing a table: the key its lobby page gave the person who started it."""

    owner: str = Field(min_length=1, max_length=100)


def read_message(text: str) -> BaseModel:
    """One message from a page, or :class:`Mistake` saying in one line what is wrong with it."""
    if len(text) > MAX_MESSAGE:
        raise Mistake(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
    example = 'send an object such as {"type": "move", "ply": 3, "index": 0}'
    try:
        # pydantic's parser, not json.loads: it stops at a fixed depth instead of recursing into the stack
        data = from_json(text, allow_inf_nan=False)
    except ValueError as error:
        if "recursion limit" in str(error):
            raise Mistake(f"nested too deeply: {example}") from None
        raise Mistake(f"not JSON: {clip(text, 60)!r}; {example}") from None
    if not isinstance(data, dict):
        raise Mistake("a message must be a JSON object with a \"type\"")
    if data.get("type") not in ("hello", "move", "hint", "takeback"):
        raise Mistake(f"unknown message type {described(data.get('type'))}: send {KINDS}")
    try:
        return Message.validate_python(data)
    except ValidationError as error:
        raise Mistake(first_problem(error)) from None


def first_problem(error: ValidationError, skip: int = 1) -> str:
    """The first thing pydantic found wrong, in one line (``skip``: the leading parts of its
    place to leave out, a message's kind by default)."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"][skip:]) or "message"
    message = problem["msg"].removeprefix("Value error, ")
    if problem["type"].endswith("_type") or problem["type"] == "literal_error":  # the wrong kind of value: say which it was
        message += f", not {described(problem.get('input'))}"
    return f"{where}: {message}"


_JSON_KINDS = {bool: "true/false", int: "the number", float: "the number", str: "the string", type(None): "null"}


def described(value: Any) -> str:
    """A value a client sent, in a few words (its JSON kind, and itself when short)."""
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    kind = _JSON_KINDS.get(type(value), type(value).__name__)
    if value is None or isinstance(value, bool):
        return kind
    return f"{kind} {clip(json.dumps(value), 40)}"


@dataclass(eq=False)  # compared (and hashed) by identity: one per connection
class Client:
    """One page's connection: its seat (``None``: watching) and the latest state to send it."""

    socket: WebSocket
    seat: int | None = None
    latest: dict | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """The tables this server holds and the pages connected to them."""

    def __init__(self, folder: Path, delay: float = DEFAULT_DELAY, caps: BotCaps | None = None, idle: float = IDLE_SECONDS) -> None:
        self.folder = folder
        self.delay = delay
        #: seconds with no page open and no person's move after which a lobby's table may make room
        self.idle = idle
        #: the caps on the bots of tables started from the lobby
        self.caps = caps or BotCaps()
        self.tables: dict[str, Table] = {}
        self.clients: dict[str, set[Client]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._scheduled: set[str] = set()
        self.stopped = False
        #: where a new table's links are announced (the CLI prints them)
        self.announce = lambda table: None

    def add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.clients.setdefault(table.id, set())
        table.listeners.append(lambda table_id=table.id: self._changed(table_id))

    def _changed(self, table_id: str) -> None:
        """From a table's thread: refresh its pages soon (bursts of steps coalesce into one state)."""
        loop = self.loop
        if loop is None or table_id in self._scheduled:
            return
        self._scheduled.add(table_id)
        try:
            loop.call_soon_threadsafe(self._refresh, table_id)
        except RuntimeError:  # the loop is closing: no page to tell
            pass

    def _refresh(self, table_id: str) -> None:
        self._scheduled.discard(table_id)
        clients, table = self.clients.get(table_id), self.tables.get(table_id)
        if not clients or table is None:
            return
        snapshot = table.snapshot()
        for client in clients:
            client.latest = snapshot
            client.ready.set()

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        for table in self.tables.values():
            table.start()

    def stop(self) -> None:
        """Stop every table at once (each is saved at its last step already; a
        thinking bot's thread is left to end with the process); again: nothing."""
        if self.stopped:
            return
        self.stopped = True
        for table in self.tables.values():
            table.stop()
        deadline = time.monotonic() + STOP_WAIT
        for table in self.tables.values():
            table.close(max(0.0, deadline - time.monotonic()))

    def unfinished(self) -> list[Table]:
        return [t for t in self.tables.values() if t.game is not None and not t.game.over and t.failure is None and t.ended is None]

    def make_room(self) -> str | None:
        """Room for one more table from the lobby, or why there is none.  The lobby's tables
        count (the host's never do); when :data:`MAX_TABLES` are held, the oldest finished
        (or stopped, or closed) one is let go, else the one idle longest, when no page has
        been open and no person has moved there for :attr:`idle` seconds (bots playing on
        their own do not count): its game is closed for good.  So no visitor can fill the
        server for good."""
        held = [t for t in self.tables.values() if t.owner is not None]
        if len(held) < MAX_TABLES:
            return None
        playing = set(self.unfinished())
        done = [t for t in held if t not in playing]
        if done:
            self.drop(min(done, key=lambda t: t.active))
            return None
        now = time.monotonic()
        idle = [t for t in held if not self.clients.get(t.id) and now - t.active >= self.idle]
        if idle:
            oldest = min(idle, key=lambda t: t.active)
            oldest.end(f"closed to make room for a new table, after {self.idle / 60:g} minutes with no page open and no person's move")
            self.drop(oldest)
            return None
        return f"{MAX_TABLES} tables from the lobby are in use already (one with no page open and no person's move for {self.idle / 60:g} minutes makes room); try again later"

    def drop(self, table: Table) -> None:
        """Let a table go (its record stays in the folder; a page still open keeps its last state)."""
        table.close(0)
        self.tables.pop(table.id, None)

    def summary(self, table: Table) -> dict[str, Any]:
        game = table.game
        over = table.result_line()
        return {
            "id": table.id,
            "title": table.title,
            "seats": [table.who(s) for s in range(len(table.kinds))],
            "status": (table.ended and f"Closed: {table.ended}") or over or table.failure or f"turn {game.turn}",
            "over": over is not None or table.ended is not None,
            "watch": f"/t/{table.id}",
        }


def _page(name: str) -> str:
    return resources.files("treehouse.serve").joinpath("static", name).read_text(encoding="utf-8")


def _same_origin(headers: Any) -> bool:
    """Is the request from this server's own pages?  (Host is already one of this server's names.)"""
    origin = headers.get("origin")
    host = headers.get("host")
    return origin is not None and host is not None and origin in (f"http://{host}", f"https://{host}")


def build_app(hub: Hub, allowed_hosts: list[str], lab: Any = None) -> Starlette:
    """The ASGI app serving ``hub``'s tables, and ``lab``'s page when given (a
    :class:`~treehouse.serve.lab.Lab`); requests naming another host are refused (400)."""
    lobby_page, table_page = _page("lobby.html"), _page("table.html")
    script, style = _page("table.js"), _page("style.css")
    lab_page, lab_script = _page("lab.html"), _page("lab.js")
    lab_pages = None
    if lab is not None:
        from treehouse.serve.lab import LabPages

        lab_pages = LabPages(lab)

    async def lobby(request: Request) -> Response:
        return HTMLResponse(lobby_page)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name == "table.js":
            return Response(script, media_type="text/javascript")
        if name == "style.css":
            return Response(style, media_type="text/css")
        if name == "lab.js" and lab is not None:
            return Response(lab_script, media_type="text/javascript")
        return Response("not found", status_code=404)

    async def lab_html(request: Request) -> Response:
        if lab is None:
            return HTMLResponse("<!doctype html><title>No lab</title><p>This server has no lab.", status_code=404)
        return HTMLResponse(lab_page)

    async def lab_result(request: Request) -> Response:
        from starlette.responses import FileResponse

        path = lab.result_file(request.path_params["name"]) if lab is not None else None
        if path is None or not path.is_file():
            return HTMLResponse("<!doctype html><title>No such result</title><p>There is no such finished run here.", status_code=404)
        return FileResponse(path, media_type="application/json" if path.suffix == ".json" else "text/html")

    async def lab_socket(websocket: WebSocket) -> None:
        if not _same_origin(websocket.headers) or lab_pages is None:
            await websocket.close(code=1008)  # before accepting: the handshake is refused (403)
            return
        try:
            await lab_pages.serve(websocket)
        except Exception as error:  # a bug of ours: one line for the host, and a close frame for the page
            print(f"warning: the lab: a connection ended on an unexpected error: {type(error).__name__}: {clip(str(error))}", file=sys.stderr)
            with suppress(Exception):
                await websocket.close(code=1011)

    async def table_html(request: Request) -> Response:
        if request.path_params["table"] not in hub.tables:
            return HTMLResponse("<!doctype html><title>No such table</title><p>There is no such table here: see <a href='/'>the lobby</a>.", status_code=404)
        return HTMLResponse(table_page)

    async def list_tables(request: Request) -> Response:
        from treehouse.cli.common import plugins
        from treehouse.config import shipped_rulesets

        choices = sorted({*shipped_rulesets(), *(info.name for info in plugins().variants.values())})
        bots = sorted(plugins().bots)
        limits = {"tables": MAX_TABLES, "idle_minutes": round(hub.idle / 60, 1), "bot_depth": hub.caps.depth, "bot_seconds": hub.caps.seconds}
        return JSONResponse({"tables": [hub.summary(t) for t in hub.tables.values()], "variants": choices, "bots": ["human", *bots], "limits": limits})

    async def new_table(request: Request) -> Response:
        if not _same_origin(request.headers):
            return JSONResponse({"error": "a new table can be started from this server's lobby page only"}, status_code=403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send the new table's choices as JSON (Content-Type: application/json)"}, status_code=415)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return JSONResponse({"error": f"too much data: at most {MAX_BODY} bytes"}, status_code=413)
        try:
            choices = NewTable.model_validate_json(body)
        except ValidationError as error:
            return JSONResponse({"error": first_problem(error, skip=0)}, status_code=400)
        full = hub.make_room()  # here, in the loop: it changes the tables the other requests read
        if full:
            return JSONResponse({"error": full}, status_code=409)
        try:
            table = await asyncio.to_thread(
                Table.create,
                hub.folder,
                variant=choices.variant or None,
                players=choices.players,
                seats=[s for s in choices.seats if s],
                bot=choices.bot or None,
                seed=choices.seed,
                overrides=[s for s in choices.set if s],
                delay=hub.delay,
                caps=hub.caps,
                owner=True,
            )
        except TreehouseError as error:
            return JSONResponse({"error": clip(str(error))}, status_code=400)
        hub.add(table)
        table.start()
        hub.announce(table)
        links = {f"Player {seat + 1}": f"/t/{table.id}#seat={token}" for seat, token in table.tokens.items()}
        return JSONResponse({"table": hub.summary(table), "seats": links, "owner": table.owner}, status_code=201)

    async def close_table(request: Request) -> Response:
        if not _same_origin(request.headers):
            return JSONResponse({"error": "a table can be closed from this server's pages only"}, status_code=403)
        table = hub.tables.get(request.path_params["table"])
        if table is None:
            return JSONResponse({"error": "there is no such table here"}, status_code=404)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": f"too much data: at most {MAX_BODY} bytes"}, status_code=413)
        try:
            key = CloseTable.model_validate_json(body).owner
        except ValidationError as error:
            return JSONResponse({"error": first_problem(error, skip=0)}, status_code=400)
        if not table.is_owner(key):
            return JSONResponse({"error": "only the person who started this table from the lobby can close it (their browser holds its key)"}, status_code=403)
        if table.ended is None:
            await asyncio.to_thread(table.end, "closed by the person who started it")
        return JSONResponse({"table": hub.summary(table)})

    async def socket(websocket: WebSocket) -> None:
        table = hub.tables.get(websocket.path_params["table"])
        if not _same_origin(websocket.headers) or table is None:
            await websocket.close(code=1008)  # before accepting: the handshake is refused (403)
            return
        await websocket.accept()
        client = Client(websocket)
        clients = hub.clients[table.id]
        clients.add(client)
        table.active = time.monotonic()  # a page open keeps its table in use
        sender = asyncio.create_task(_send_states(client))
        try:
            await _serve_client(hub, table, client)
        except WebSocketDisconnect:
            pass
        except Exception as error:  # a bug of ours: one line for the host, and a close frame for the page (which reconnects)
            print(f"warning: table {table.id}: a connection ended on an unexpected error: {type(error).__name__}: {clip(str(error))}", file=sys.stderr)
            with suppress(Exception):
                await websocket.close(code=1011)
        finally:
            clients.discard(client)
            table.active = time.monotonic()  # idle from when the last page went
            sender.cancel()

    @asynccontextmanager
    async def lifespan(app: Starlette):
        hub.start()
        if lab_pages is not None:
            lab_pages.start()
        try:
            yield
        finally:
            if lab is not None:
                lab.stop()
            await asyncio.to_thread(hub.stop)

    routes = [
        Route("/", lobby),
        Route("/assets/{name:str}", asset),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/tables/{table:str}/close", close_table, methods=["POST"]),
        Route("/t/{table:str}", table_html),
        WebSocketRoute("/ws/{table:str}", socket),
        Route("/lab", lab_html),
        Route("/lab/r/{name:str}", lab_result),
        WebSocketRoute("/lab/ws", lab_socket),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)])


async def _send_states(client: Client) -> None:
    """Send the latest state whenever there is a new one (only the newest: a slow page skips steps, never lags)."""
    try:
        while True:
            await client.ready.wait()
            client.ready.clear()
            if client.latest is not None:
                await client.socket.send_json({**client.latest, "you": None if client.seat is None else client.seat + 1})
    except (WebSocketDisconnect, RuntimeError):
        return


async def _serve_client(hub: Hub, table: Table, client: Client) -> None:
    """Read the page's messages until it goes; one error message for each bad one."""
    socket = client.socket

    async def error(message: str) -> None:
        await socket.send_json({"type": "error", "message": message})

    def refresh() -> None:
        client.latest = table.snapshot()
        client.ready.set()

    while True:
        received = await socket.receive()
        if received["type"] == "websocket.disconnect":
            return
        text = received.get("text")
        if text is None:
            await error("send text messages (JSON), not binary ones")
            continue
        try:
            message = read_message(text)
            if isinstance(message, Hello):
                seat = table.seat_of(message.token)
                if message.token and seat is None:
                    client.seat = None
                    refresh()
                    raise Mistake("this link's seat token is not one of this table's: you are watching; ask the host for your seat's link")
                client.seat = seat
                refresh()
                continue
            if client.seat is None:
                raise Mistake("this page is watching: only a seat's own link can play (ask the host for yours)")
            if isinstance(message, MoveMessage):
                table.play(client.seat, message.ply, message.index, message.notation)
            elif isinstance(message, HintMessage):
                lines = await asyncio.to_thread(table.hint, client.seat, message.ply)
                await socket.send_json({"type": "hint", "lines": lines})
            elif isinstance(message, TakeBackMessage):
                table.take_back(client.seat)
        except Mistake as mistake:
            await error(str(mistake))
            if isinstance(mistake, Stale):
                refresh()  # an out-of-date page gets the board as it is now
        except TreehouseError as problem:  # a hint bot that cannot play this game, say
            await error(clip(str(problem)))


#: The signals that stop the server cleanly (uvicorn itself stops on the first two and re-raises
#: them after; SIGHUP, a closed terminal, would otherwise end the process at once).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def run_server(config: Any, sockets: list) -> int | None:
    """Serve until one of :data:`STOP_SIGNALS` (a second Ctrl-C skips the wait for
    open connections); the signal that stopped it, or ``None``."""
    import uvicorn

    class TableServer(uvicorn.Server):
        stopped_by: int | None = None

        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():  # only the main thread gets signals
                yield
                return
            previous = {signum: signal.signal(signum, self.handle_exit) for signum in STOP_SIGNALS}
            try:
                yield
            finally:  # restored, and not raised again: the caller says what stopped it, once
                for signum, handler in previous.items():
                    signal.signal(signum, handler)

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self.stopped_by is None:
                self.stopped_by = sig
            super().handle_exit(sig, frame)

    server = TableServer(config)
    server.run(sockets=sockets)
    return server.stopped_by


def server_config(app: Starlette, header_seconds: float = HEADER_SECONDS) -> Any:
    """How uvicorn runs ``app``: quiet, frames of at most :data:`MAX_FRAME`, headers within ``header_seconds``."""
    import uvicorn

    return uvicorn.Config(
        app, log_level="warning", access_log=False, ws_max_size=MAX_FRAME, lifespan="on", timeout_graceful_shutdown=1, http=header_timed_protocol(header_seconds)
    )


def header_timed_protocol(seconds: float = HEADER_SECONDS) -> type:
    """uvicorn's HTTP protocol (httptools), with a deadline for each request's headers.

    uvicorn has no such limit: its keep-alive timeout starts only after a response,
    and every byte received cancels it, so a client sending a header a byte at a time
    would hold a connection for ever.  Past the deadline the client gets a 408 and the
    connection is closed.
    """
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    answer = f"the request's headers must arrive within {seconds:g} seconds\n".encode()
    timeout = b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(answer), answer)

    class HeaderTimedProtocol(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.write(timeout)
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_headers_complete(self) -> None:  # also before a WebSocket upgrade hands the connection over
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            waiting = not self.pipeline  # a pipelined request's headers are in already
            super().on_response_complete()
            if waiting and not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderTimedProtocol
