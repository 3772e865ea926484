"""``th play``: play any variant at the terminal, save and resume.

Exit statuses: 0 when a game ends, and when ``q`` or the end of input saves
and quits; 130 when Ctrl-C saves and quits (the shell's convention for an
interrupt); 2 for a user's mistake (a bad option, a damaged or foreign
record, an unwritable record path), with one line on standard error.  The
game itself is a :class:`~treehouse.cli.session.Session`; who sits where,
:mod:`treehouse.cli.seats`; ``th replay`` is :mod:`treehouse.cli.replay`.
"""

from __future__ import annotations

import os
import random
import secrets
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from platformdirs import user_data_dir

from treehouse import __version__
from treehouse.bots.options import BotOptionError, bot_name, check_bot_spec
from treehouse.cli.common import INTERRUPTED, ConfigOption, SetOption, VariantOption, effective_rules, fail, out, plugins, run_guarded, shown, shown_path
from treehouse.cli.human import QuitGame
from treehouse.cli.seats import build_seat, default_variant, offer_to_prepare, prepare_bots, seat_kinds
from treehouse.cli.session import Session
from treehouse.errors import RecordError, TreehouseError, printable
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.resume import HUMAN, resume_game, saved_game
from treehouse.plugins import hook_failure
from treehouse.textfiles import FileLock, lock_file

#: Seconds between bot moves when a person is watching a terminal.
DEFAULT_DELAY = 0.6
#: The longest pause --delay takes (an hour; more is surely a typo).
MAX_DELAY = 3600


def default_record_path(variant: str, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(user_data_dir("treehouse")) / "games" / f"{stamp}-{variant}-{seed}.jsonl"

def play(
    variant: VariantOption = None,
    players: Annotated[Optional[int], typer.Option("--players", "-p", help="How many players (default: the variant's usual number).")] = None,
    seats: Annotated[Optional[list[str]], typer.Option("--seat", help="Who sits in each seat, in order: human or a bot, with options if any (random, search(depth=2), ...). Repeat per seat.")] = None,
    bot: Annotated[Optional[str], typer.Option("--bot", help="The bot in every seat --seat leaves out, e.g. search(nodes=2000) (default: the strongest installed).")] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", help="The seed every die roll and bot choice flows from (default: a random one, recorded).")] = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    delay: Annotated[Optional[float], typer.Option("--delay", min=0, max=MAX_DELAY, help="Seconds to pause after each bot move (default: 0.6 in a terminal, else 0).")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots in every seat; you watch.")] = False,
    record: Annotated[Optional[Path], typer.Option("--record", help="Write the game's record here (default: a new file in your data directory).", dir_okay=False)] = None,
    resume: Annotated[Optional[Path], typer.Option("--resume", help="Continue the game saved in this record.", dir_okay=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --record overwrite a file that exists.")] = False,
    plain: Annotated[bool, typer.Option("--plain", help="Print a plain transcript instead of redrawing one screen per move (for screen readers; pipes get it anyway).")] = False,
    ask_forced: Annotated[bool, typer.Option("--ask-forced", help="Ask even when there is only one move (by default it plays itself, announced in one line).")] = False,
    show_odds: Annotated[bool, typer.Option("--show-odds", help="Two-player classic: print each player's exact winning chance after every turn (needs th solve's table).")] = False,
) -> None:
    """Play a game at the terminal: you against bots, people against each other, or bots alone (--watch).

    Pick a move by number or type it; u takes back, h hints, ? help, r rules,
    s save, q save and quit.
    Every game is saved as a record; continue it with --resume FILE and watch
    it again with th replay FILE.

    Example: th play -v fences --seat human --seat search
    """
    if delay is None:
        delay = DEFAULT_DELAY if sys.stdout.isatty() else 0.0
    locks = run_guarded(claim_records, record, resume, force)
    try:
        _play(variant, players, seats, bot, seed, config, overrides, delay, watch, record, resume, plain, ask_forced, show_odds)
    finally:
        for lock in locks:
            lock.release()

def claim_records(record: Path | None, resume: Path | None, force: bool) -> list[FileLock]:
    """Lock the records this game reads and writes against a second ``th play``,
    and refuse to overwrite an existing file unasked (``--force``)."""
    locks: list[FileLock] = []
    try:
        if resume is not None:
            locks.append(lock_file(resume, RecordError, "record"))
        if record is not None and (resume is None or os.path.realpath(record) != os.path.realpath(resume)):
            locks.append(lock_file(record, RecordError, "record"))
            if (record.is_file() or record.is_symlink()) and not force:
                raise RecordError(f"{record} already exists; add --force to overwrite it, or continue its game with th play --resume {record}")
    except RecordError:
        for lock in locks:
            lock.release()
        raise
    return locks

def _play(variant, players, seats, bot, seed, config, overrides, delay, watch, record, resume, plain, ask_forced, show_odds) -> None:
    if resume is not None:
        given = [flag for flag, value in (("--variant", variant), ("--players", players), ("--seat", seats), ("--bot", bot), ("--seed", seed), ("--config", config), ("--set", overrides)) if value not in (None, [])]
        if watch:
            given.append("--watch")
        if given:
            raise fail(f"--resume continues the saved game with its own rules, seats and seed; leave out {', '.join(given)}")
        session = run_guarded(_resumed_session, resume, record, delay)
    else:
        ask = out.is_terminal and sys.stdin.isatty() and not plain  # a question before the game only where a person answers
        session = run_guarded(_new_session, variant, players, seats or [], bot, seed, config, overrides, delay, watch, record, ask)
    session.screen = out.is_terminal and not plain and not session.watch
    session.auto_forced = not ask_forced
    if show_odds:
        session.odds = run_guarded(_odds_bot, session)
    _run(session)

def _odds_bot(session: Session) -> Any:
    """The variant's exact odds, which say the winning chances (--show-odds)."""
    game = session.game
    try:
        return game.variant.exact_odds(len(game.seats))
    except TreehouseError as why:
        raise TreehouseError(f"--show-odds needs the exact table: {why}") from None

def _new_session(variant_name, players, seats, bot, seed, config, overrides, delay, watch, record_path, ask=False) -> Session:
    if variant_name is None and config is None:
        variant_name = default_variant()
    effective = effective_rules(variant_name, config, overrides, playing=True)
    variant = effective.variant()
    kinds = seat_kinds(variant, players, seats, watch, bot)
    if (bot is None and len(seats) < len(kinds)) or HUMAN in kinds:  # a seat the best bot fills, or hints to give
        if offer_to_prepare(variant, len(kinds), ask):
            kinds = seat_kinds(variant, players, seats, watch, bot)  # the bot made ready is now the best
    house_rules = [plugins().house_rule(name, variant.name) for name in effective.house_rules]
    if seed is None:
        seed = secrets.randbelow(2**31)
    path = record_path or default_record_path(variant.name, seed)
    session = Session(
        out, kinds=kinds, rule_set=effective.name, description=effective.description, rows=effective.rows(), delay=delay, watch=watch, record_path=path
    )
    prepare_bots(variant, kinds)
    humans = kinds.count(HUMAN)
    live = [build_seat(kind, session, out, humans, i) for i, kind in enumerate(kinds)]
    meta = {"seed": seed, "rule_set": effective.name, "seats": kinds, "treehouse": __version__}
    session.game = Game(
        variant, live, random.Random(seed), turn_cap=effective.turn_cap, house_rules=house_rules, record=Record(meta=meta), observer=session
    )
    session.save()  # an unwritable path fails now, before anyone has played
    who = ", ".join(session.who(i) for i in range(len(kinds)))
    out.print(f"{variant.name} ({shown(effective.name)} rules), seed {seed}: {shown(who)}.")
    session.say(f"Recording to {printable(shown_path(str(path)))}")  # on screen until the person's first move (plain text: no markup to escape)
    return session

def _resumed_session(resume: Path, record_path: Path | None, delay: float) -> Session:
    from treehouse.kernel.replay import replay

    old = Record.read(resume)
    source = shown_path(str(resume))
    if old.footer is not None:
        winners = old.footer.get("winners") or []
        result = f"player {' and '.join(map(str, winners))} won" if winners else "a draw"
        raise RecordError(f"the game in {source} is over ({result} on turn {old.footer.get('turn')}); watch it with th replay {source}")
    saved = saved_game(old, plugins(), source)
    try:
        replay(old, plugins())  # damaged or foreign records are refused here, with the kernel's words
    except RecordError as error:
        raise RecordError(f"{source}: {error}") from None
    for kind in saved.seat_kinds:
        if kind == HUMAN:
            continue
        try:
            if bot_name(kind) not in plugins().bots:
                raise RecordError(f"{source} was played with the bot {kind!r}, which is not installed; known: {', '.join(sorted(plugins().bots))}")
            check_bot_spec(plugins(), kind)
        except BotOptionError as error:
            raise RecordError(f"{source}: {error}") from None
    rows = [("variant", saved.variant.name, "record"), ("turn_cap", saved.turn_cap, "record"), ("house_rules", saved.house_rule_names, "record")]
    rows += [(f"rules.{k}", v, "record") for k, v in saved.variant.rules.model_dump(mode="json").items()]
    path = record_path or resume
    session = Session(
        out, kinds=saved.seat_kinds, rule_set=saved.rule_set, description=saved.variant.description, rows=rows, delay=delay, watch=HUMAN not in saved.seat_kinds, record_path=path
    )
    humans = saved.seat_kinds.count(HUMAN)
    live = [build_seat(kind, session, out, humans, i) for i, kind in enumerate(saved.seat_kinds)]
    session.game, session.check = resume_game(old, saved, live, observer=session, new_record=Record(meta=dict(old.meta), undone=list(old.undone)))
    out.print(f"Resuming {shown(source)}: {saved.variant.name} ({shown(saved.rule_set)} rules), seed {saved.seed}.")
    session.resumed = True  # the turn it was saved on is said at the first live choice, once the record is played back
    session.tell_history = True  # g shows the game from its first step, not only since this resume
    if path != resume:
        session.say(f"Recording to {printable(shown_path(str(path)))}")  # on screen until the person's first move (plain text: no markup to escape)
    return session

def _run(session: Session) -> None:
    """Play to the end; q, end of input and Ctrl-C save first.  See the module docstring for exit codes."""
    try:
        session.run()
    except QuitGame:
        raise typer.Exit(_saved(session, 0)) from None
    except KeyboardInterrupt:
        out.print()
        raise typer.Exit(_saved(session, INTERRUPTED)) from None
    except TreehouseError as error:
        if os.environ.get("TREEHOUSE_DEBUG"):
            raise
        raise fail(str(error)) from None
    except Exception as error:  # a plugin's hook failed while drawing (treehouse_render, say): one line, the game kept
        failure = hook_failure(error)
        if failure is None or os.environ.get("TREEHOUSE_DEBUG"):
            raise
        fail(str(failure))
        raise typer.Exit(_saved(session, 2)) from None
    path = run_guarded(session.save)
    out.print(f"Record: {shown(path)}  (th replay {shown(path)})", highlight=False)

def _saved(session: Session, code: int) -> int:
    if not session.live:
        out.print("Stopped before the saved game was caught up; its record is unchanged.")
        return code
    try:
        path = session.save()
    except RecordError as error:
        fail(f"the game could not be saved: {error}")
        return 2
    out.print(f"Game saved to {shown(path)}", highlight=False)
    out.print(f"Resume it with: th play --resume {shown(path)}", highlight=False)
    return code
