"""``th replay``: step through a recorded game, or write it as one web page.

On a terminal each step is one steady screen redrawn in place, as ``th
play`` draws its own: the step's header, the position (compact where the
terminal is short), what the step did and set off, the moves taken back
there (folded into one line when they do not fit; ``t`` lists them), a line
for replies and the keys.  Through a pipe, and with ``--all``, the steps are
printed one after another, a transcript.  A setup step draws (Fences: a
small from the bag), and says so: "drew blue", not "rolled blue".
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.text import Text

from treehouse.cli.common import fail, out, plugins, run_guarded, shown, shown_path
from treehouse.cli.layout import fit
from treehouse.cli.screen import drawing, page_through
from treehouse.cli.story import event_lines, game_over_line, story_lines, when
from treehouse.errors import RecordError, TreehouseError, printable
from treehouse.kernel.records import Record
from treehouse.kernel.resume import describe, walk
from treehouse.plugins import game_hooks
from treehouse.textfiles import refuse_existing

REPLAY_HELP = """\
Enter or n: next step   p: previous step   a number: jump to that turn
s: the start   e: the end   t: the moves taken back here   ?: this help   q: quit"""
#: The keys, in one line under the steady screen.
KEYS = "Enter/n next · p previous · NUMBER that turn · s start · e end · ? help · q quit"
#: The rows of the steady screen besides the board and the story: header, reply, keys, prompt.
REPLAY_ROWS = 4


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON lines), as written by th play; with --check, a folder of them.")],
    turn: Annotated[Optional[int], typer.Option("--turn", "-t", help="Start at this turn.")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Print every step, one after another, and exit.")] = False,
    html: Annotated[Optional[Path], typer.Option("--html", help="Write the game as one self-contained web page (board, slider, step buttons) to FILE (exactly that name), and exit.", dir_okay=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Let --html replace a file that exists.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Replay and check every record (*.jsonl) in the folder FILE in one process: a line per bad record, a summary, exit 1 if any is bad.")] = False,
) -> None:
    """Step through a recorded game: next, previous, jump to a turn; each step shows the roll, the move and the position.

    Example: th replay game.jsonl --html game.html
    """
    if check:
        from treehouse.cli.check_records import check_folder

        return check_folder(file)
    if html is not None:  # before the record is read: never write over it, nor over any file unasked
        run_guarded(refuse_existing, html, force, RecordError, "--html", [file])
    record = run_guarded(Record.read, file)
    source = shown_path(str(file))
    try:
        walked = walk(record, plugins())
    except TreehouseError as error:
        raise fail(f"{source}: {error}") from None
    meta = record.meta or {}
    header = record.header or {}
    seats = meta.get("seats") or header.get("seats") or []
    hooks = game_hooks(walked.variant)

    def who(seat: int) -> str:
        kind = printable(seats[seat]) if seat < len(seats) else "?"
        return f"Player {seat + 1} ({kind})"

    title = f"{source}: {walked.variant.name}"
    if meta.get("rule_set"):
        title += f" ({meta['rule_set']} rules)"
    if meta.get("seed") is not None:
        title += f", seed {meta['seed']}"
    taken_back = _taken_back(record, walked.variant, who)
    if html is not None:
        out.print(shown(title) + f", {len(seats)} players, {len(walked.frames)} steps.")
        run_guarded(_write_replay_page, html, title, walked, record, hooks, who, taken_back)
        out.print(f"Wrote the replay page to {shown(shown_path(str(html)))} (open it in a browser).", highlight=False)
        return
    viewer = Replay(walked, record, hooks, who, taken_back, screen=out.is_terminal and not show_all)
    if not viewer.screen:
        out.print(shown(title) + f", {len(seats)} players, {viewer.last} steps.")
    if show_all:
        for index in range(viewer.last + 1):
            viewer.show(index)
        return
    index = 0
    if turn is not None:
        found = viewer.turn_index(turn) if turn >= 1 else None
        if found is None:
            raise fail(f"{source} has no turn {turn}: its last turn is {viewer.last_turn}")
        index = found
    viewer.run(index)


class Replay:
    """The steps of one recorded game, shown one at a time (see the module docstring)."""

    def __init__(self, walked: Any, record: Record, hooks: Any, who: Any, taken_back: dict[int, list[str]], screen: bool) -> None:
        self.walked, self.record, self.hooks, self.who = walked, record, hooks, who
        self.frames = walked.frames
        self.last = len(self.frames)
        self.last_turn = self.frames[-1].turn if self.frames else 0
        self.taken_back = taken_back
        self.screen = screen

    def turn_index(self, number: int) -> int | None:
        """The first step of turn ``number`` (or the first after it), ``None`` past the end."""
        for index, frame in enumerate(self.frames, start=1):
            if frame.turn >= number:
                return index
        return None

    # -- what a step says -------------------------------------------------

    def header(self, index: int) -> str:
        if index == 0:
            return f"Start · step 0 of {self.last}"
        frame = self.frames[index - 1]
        steps = "" if frame.step == "act" else f" · {frame.step}"
        return f"{when(frame.turn)}{steps} · step {index} of {self.last}"

    def story(self, index: int) -> list[str]:
        """The step's move and what it set off (none at the start)."""
        if index == 0:
            return []
        frame = self.frames[index - 1]
        rolled = ", then ".join(frame.rolls)
        verb = "drew" if frame.turn == 0 else "rolled"  # a setup step draws (turn 0: the setup)
        line = f"{self.who(frame.seat)} {verb} {rolled}: {frame.words}" if rolled else f"{self.who(frame.seat)}: {frame.words}"
        return [line, *event_lines(frame.events)]

    def ending(self, index: int) -> str | None:
        """At the last step: the result, or where the record stops."""
        if index != self.last:
            return None
        footer = self.record.footer
        if footer is None:
            rolls = self.walked.trailing_rolls
            pending = f" (rolled {', '.join(rolls)}, move not made)" if rolls else ""
            return f"The record stops here: the game was saved before it ended{pending}."
        winners = footer.get("winners") or []
        result = f"Player {' and '.join(map(str, winners))} won" if winners else "A draw"
        final = self.frames[-1].events if self.frames else ()
        return game_over_line(result, footer.get("turn"), printable(footer.get("reason", "")), final)

    def position(self, index: int) -> Any:
        return self.walked.start if index == 0 else self.frames[index - 1].after

    # -- showing it -------------------------------------------------------

    def show(self, index: int, message: str = "") -> None:
        if self.screen:
            self._steady(index, message)
            return
        if message:  # a transcript: the reply under what is already printed
            out.print(message, markup=False, style="red" if message.startswith("✗") else None)
            return
        out.print()
        out.rule(self.header(index), style="dim")
        for line in self.story(index):
            out.print(line, markup=False)
        out.print(self.hooks.treehouse_render(self.position(index), min(out.width, 80)))
        for line in self.taken_back.get(index, []):
            out.print(line, markup=False)
        ending = self.ending(index)
        if ending:
            out.print(Text(ending, style="bold"))

    def _steady(self, index: int, message: str) -> None:
        """One screen: the header, the board, the step's story, the moves taken back here
        (one line if they do not all fit), the result at the end, a reply, the keys."""
        width = min(out.width, 80)
        board = drawing(self.hooks, self.position(index), out, width, compact=True)
        board_rows = len(out.render_lines(board, out.options.update(width=width), pad=False))
        room = out.height - board_rows - REPLAY_ROWS
        ending = self.ending(index)
        ending_lines = textwrap.wrap(ending, width) if ending else []
        undone = self.taken_back.get(index, [])
        story = story_lines(self.story(index), width, max(0, room - len(ending_lines) - (1 if undone else 0)))
        taken = story_lines(undone, width, max(0, room - len(ending_lines) - len(story)))
        if undone and len(taken) < sum(len(textwrap.wrap(line, width)) for line in undone):
            taken = [fit("Moves were taken back here (t lists them).", width)]  # off to the side: the board stays
        out.clear()
        out.rule(self.header(index), style="dim")
        out.print(board)
        for line in story:
            out.print(line, markup=False, soft_wrap=False)
        for line in taken:
            out.print(line, markup=False, style="dim", soft_wrap=False)
        for line in ending_lines:
            out.print(line, markup=False, style="bold", soft_wrap=False)
        out.print(fit(message, width), markup=False, style="red" if message.startswith("✗") else None)
        out.print(KEYS, markup=False, style="dim")

    def run(self, index: int) -> None:
        """Read keys until ``q`` or the end of input; every answer draws the step again."""
        self.show(index)
        if not self.screen:
            out.print(REPLAY_HELP, markup=False)
        while True:
            try:
                text = out.input("replay> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                out.print()
                return
            message = ""
            if text in ("", "n", "next"):
                if index >= self.last:
                    message = "That was the last step (p goes back, q quits)."
                else:
                    index += 1
            elif text in ("p", "prev", "previous", "b"):
                if index == 0:
                    message = "This is the start (n goes forward, q quits)."
                else:
                    index -= 1
            elif text in ("s", "start"):
                index = 0
            elif text in ("e", "end"):
                index = self.last
            elif text in ("?", "h", "help"):
                if self.screen:
                    page_through(out, Text(REPLAY_HELP))
                else:
                    out.print(REPLAY_HELP, markup=False)
                    continue
            elif text in ("t", "taken"):
                undone = self.taken_back.get(index, [])
                if not undone:
                    message = "No move was taken back at this step."
                elif self.screen:
                    page_through(out, Text("\n".join(undone)))
                else:
                    for line in undone:
                        out.print(line, markup=False)
                    continue
            elif text in ("q", "quit", "exit"):
                return
            elif text.isascii() and text.isdecimal():  # ASCII digits only: not '²', not the Arabic-Indic '٣'
                found = self.turn_index(int(text))
                if found is None or self.frames[found - 1].turn != int(text):
                    message = f"✗ there is no turn {text}: the turns go from 1 to {self.last_turn}"
                else:
                    index = found
            else:
                message = f"✗ unknown command {text!r}: n next, p previous, a turn number, s start, e end, q quit"
            self.show(index, message)


def _taken_back(record: Record, variant: Any, who: Any) -> dict[int, list[str]]:
    """The moves taken back in ``record``, as lines to show after the step they followed
    (the index of a step: how many recorded moves, rerolls aside, came before)."""
    from treehouse.kernel.engine import parse_move

    def words(value: Any) -> str:
        """A taken-back move in words where its notation alone says them (classic's words
        come from the legal moves, which a taken-back branch is not replayed for), else its notation."""
        try:
            return describe(variant, parse_move(variant, value)) or str(value)
        except TreehouseError:
            return str(value)

    shown_at: dict[int, list[str]] = {}
    for at, events in record.undone:
        steps = sum(1 for event in record.events[:at] if event[0] == "move" and str(event[4]) != "reroll")
        moves = [f"{when(turn)} · {who(seat)}: {words(value)}" for kind, turn, seat, _step, value in events if kind == "move"]
        if moves:
            shown_at.setdefault(steps, []).append("Taken back here: " + "; ".join(moves))
    return shown_at


def _write_replay_page(path: Path, title: str, walked: Any, record: Record, hooks: Any, who: Any, taken_back: dict) -> None:
    from treehouse.cli.replay_page import SharedParts, replay_page, steps_data
    from treehouse.textfiles import write_text_atomically

    chances = _chances(walked, record, hooks)
    shared = SharedParts()
    steps = steps_data(walked, record, hooks, who, taken_back, chances, shared)
    page = replay_page(title, steps, chances, shared, walked.variant.picture_legend())
    write_text_atomically(path, page, RecordError, "replay page")


def _chances(walked: Any, record: Record, hooks: Any) -> list[float] | None:
    """Player 1's exact winning chance at every step, where the perfect table is cached; else None."""
    players = len((record.header or {}).get("seats") or [])
    try:
        bot = walked.variant.exact_odds(players)
    except TreehouseError:
        return None  # no exact table for this game, or not made yet
    chances = [bot.chance(walked.start, 0)]
    for index, frame in enumerate(walked.frames, start=1):
        if index == len(walked.frames) and walked.outcome is not None:
            chances.append(1.0 if 0 in walked.outcome.winners else 0.0)
        else:
            chances.append(bot.chance(hooks.treehouse_end_turn(frame.after), 0))
    return chances
