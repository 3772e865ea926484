"""``th serve``: tables in the browser, for people across a room or a network.

Started with a game's choices (``th play``'s), it starts that table and
prints one link per person's seat and one for spectators; without them it
opens the lobby only.  Every unfinished table whose record is in the records
folder is resumed where it stopped.  See docs/serving.md.
"""

from __future__ import annotations

import ipaddress
import signal
import socket
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from platformdirs import user_data_dir

from treehouse.cli.common import ConfigOption, SetOption, VariantOption, err, fail, run_guarded
from treehouse.errors import TreehouseError

#: The port ``th serve`` listens on unless told (the lobby is at http://127.0.0.1:8765/).
DEFAULT_PORT = 8765
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def default_records_folder() -> Path:
    return Path(user_data_dir("treehouse")) / "tables"


def serve(
    variant: VariantOption = None,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="How many players (default: the variant's usual number).")] = None,
    seats: Annotated[Optional[list[str]], typer.Option("--seat", help="Who sits in each seat, in order: human (a browser) or a bot spec. Repeat per seat.")] = None,
    bot: Annotated[Optional[str], typer.Option("--bot", help="The bot in every seat --seat leaves out (default: the strongest installed).")] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", help="The seed every die roll and bot choice flows from (default: a random one, recorded).")] = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on; anything but 127.0.0.1 opens the tables to a network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port to listen on (0: any free port).")] = DEFAULT_PORT,
    records: Annotated[Optional[Path], typer.Option("--records", help="The folder of the tables' records and seat tokens; unfinished tables in it are resumed (default: your data directory's tables/).", file_okay=False)] = None,
    delay: Annotated[float, typer.Option("--delay", min=0, max=60, help="Seconds each bot move stays on screen before the next step.")] = 0.5,
    lobby_max_depth: Annotated[int, typer.Option("--lobby-max-depth", min=0, max=40, help="The deepest a bot at a table started from the lobby may search (its depth option).")] = 3,
    lobby_max_seconds: Annotated[float, typer.Option("--lobby-max-seconds", min=0.1, max=3600, help="The longest a bot at a table started from the lobby may think per move (its seconds option; set to this when not given).")] = 2.0,
    lab_jobs: Annotated[Optional[int], typer.Option("--lab-jobs", min=1, max=64, help="Worker processes of the playtest lab's runs (default: one fewer than the CPUs, at least one), so the tables keep a CPU.", show_default=False)] = None,
    lab_cluster: Annotated[Optional[str], typer.Option("--lab-cluster", metavar="ADDRESS", help="Play the playtest lab's runs on this Dask cluster (a scheduler address, or 'local'), as th compare plays on one (docs/cluster.md).")] = None,
) -> None:
    """Serve tables in the browser: people play from their own screens, with bots in the other seats.

    Prints one link per person's seat (its key: give each person their own)
    and one for spectators; the lobby at the printed address lists the
    tables and starts new ones.  Each table is recorded like th play's, and
    unfinished tables in --records are resumed at the step they reached.

    Example: th serve -v fences --seat human --seat search
    """
    try:
        import uvicorn  # noqa: F401
        from treehouse.serve.app import Hub, build_app, run_server, server_config
        from treehouse.serve.lab import Lab
        from treehouse.serve.table import BotCaps, Table, TableOver, unfinished_records
    except ImportError as error:
        raise fail(f"th serve needs the web server packages ({error.name} is missing): pip install 'treehouse[serve]'") from None
    folder = (records or default_records_folder()).expanduser()
    hub = Hub(folder, delay, BotCaps(lobby_max_depth, lobby_max_seconds))
    wanted = any(value not in (None, []) for value in (variant, players, seats, bot, seed, config, overrides))
    for path in unfinished_records(folder):
        try:
            table = Table.resume(path, delay)
        except TableOver:
            continue
        except TreehouseError as error:  # damaged, foreign, or held by another server: that table only
            err.print(f"warning: not resuming {path.name}: {error}", markup=False)
            continue
        hub.add(table)
    if wanted:
        # the same command again (a restart, a service) resumes its table rather than start another
        choices = {"variant": variant, "players": players, "seats": seats or [], "bot": bot, "seed": seed, "config": str(config) if config else None, "overrides": overrides or []}
        if not any(table.started_by(choices) for table in hub.tables.values()):
            table = run_guarded(
                Table.create,
                folder,
                variant=variant,
                players=players,
                seats=seats or [],
                bot=bot,
                seed=seed,
                overrides=overrides or [],
                config=config,
                delay=delay,
                choices=choices,
            )
            hub.add(table)
    from treehouse.playtest.work import usable_cpus

    lab = run_guarded(Lab, folder / "lab", lab_jobs or max(1, usable_cpus() - 1), lab_cluster)
    listener = run_guarded(_listen, host, port)
    shown = _shown_host(host)
    base = f"http://{shown}:{listener.getsockname()[1]}"
    if host not in LOOPBACK:
        err.print(f"warning: --host {host} lets anyone who can reach {base} watch and start tables; seat links are the only key, sent without encryption (see docs/serving.md)", markup=False)
    typer.echo(f"Lobby: {base}/   (records in {folder})")
    typer.echo(f"Lab (yours only: its key runs games on this machine): {base}/lab#key={lab.key}")
    for table in hub.tables.values():
        _print_links(base, table)
    hub.announce = lambda table: _print_links(base, table)
    sys.stdout.flush()
    try:
        names = sorted({*LOOPBACK, host, shown, socket.gethostname(), socket.getfqdn()})
        stopped_by = run_server(server_config(build_app(hub, names, lab)), [listener])
    finally:
        listener.close()
        lab.stop()
        hub.stop()  # done already by the app's shutdown, unless a second Ctrl-C skipped it
    _say_stopped(stopped_by, hub, folder, lab.left_unfinished())
    if stopped_by is not None:
        raise typer.Exit(128 + int(stopped_by))  # the shell's convention: 130 for Ctrl-C, as th play's


def _say_stopped(stopped_by: int | None, hub, folder: Path, lab_runs: int = 0) -> None:
    """One line: what stopped the server and what is saved (every table is saved at its last step as it plays),
    and the lab's runs it left unfinished, if any."""
    why = f"Stopped by {signal.Signals(stopped_by).name}" if stopped_by is not None else "Stopped"
    unfinished = hub.unfinished()
    if unfinished:
        count = f"{len(unfinished)} unfinished table{'s' if len(unfinished) != 1 else ''}"
        line = f"{why}: {count} saved at {'its' if len(unfinished) == 1 else 'their'} last step in {folder}; th serve --records {folder} resumes {'it' if len(unfinished) == 1 else 'them'}."
    else:
        line = f"{why}: no unfinished table to save; the records are in {folder}."
    if lab_runs:
        line += f" The lab's {lab_runs} run{'s' if lab_runs != 1 else ''} not finished {'are' if lab_runs != 1 else 'is'} marked unfinished (run {'them' if lab_runs != 1 else 'it'} again)."
    try:
        typer.echo(line)
    except OSError:  # SIGHUP: the terminal may be gone
        pass


def _print_links(base: str, table) -> None:
    typer.echo(f"Table {table.id}: {table.title}")
    for seat, token in sorted(table.tokens.items()):
        typer.echo(f"  Player {seat + 1}: {base}/t/{table.id}#seat={token}")
    typer.echo(f"  Spectators: {base}/t/{table.id}")
    sys.stdout.flush()


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound now, so a busy port is one clear line (and a restart can take the same port at once)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except socket.gaierror:
        raise TreehouseError(f"--host {host}: not an address of this machine (e.g. 127.0.0.1, or 0.0.0.0 for every network)") from None
    except OSError as error:
        raise TreehouseError(f"cannot listen on {host}:{port}: {error.strerror or error}; choose another --port (0: any free one)") from None
    listener.set_inheritable(True)
    return listener


def _shown_host(host: str) -> str:
    """The address to print in links: the host itself, or this machine's address on the network for 0.0.0.0."""
    try:
        unspecified = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return host
    if not unspecified:
        return f"[{host}]" if ":" in host else host
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: this only asks which address the route uses
        return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()
    finally:
        probe.close()
