"""The exact solve's progress on standard error, shared by ``th solve`` and by
``th play`` when a seated bot needs a solve first (``perfect`` with no table yet)."""

from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from treehouse.cli.common import err

Report = Callable[[int, float], None]


def toward(first: float, change: float, tolerance: float) -> float:
    """How far a solve has come, 0 to 1: the largest change shrinks about
    geometrically, so the share is measured on a log scale from the first
    sweep's change down to the tolerance."""
    if change <= tolerance:
        return 1.0
    if first <= tolerance or change >= first:
        return 0.0
    return min(1.0, math.log(first / change) / math.log(first / tolerance))


#: The bar's columns: one line within 80 columns, the times labelled
#: (``solving ━━━━━━━━  45% sweep 12, change 1.2e-05, 0:00:12 elapsed, 0:00:20 left``).
COLUMNS = (
    TextColumn("solving"),
    BarColumn(bar_width=8),
    TaskProgressColumn(),
    TextColumn("sweep {task.fields[sweep]}, change {task.fields[change]},"),
    TimeElapsedColumn(),
    TextColumn("elapsed,"),
    TimeRemainingColumn(),
    TextColumn("left"),
)


@contextmanager
def solve_progress(tolerance: float, quiet: bool = False) -> Iterator[Report | None]:
    """A ``progress(iteration, change)`` for the solver: a bar toward ``tolerance``
    on a terminal, else a line every ten sweeps; ``None`` when ``quiet``."""
    if quiet:
        yield None
        return
    if not err.is_terminal:

        def lines(iteration: int, change: float) -> None:
            if iteration % 10 == 0 or change < tolerance:
                err.print(f"sweep {iteration}: largest change {change:.1e} (done below {tolerance:.0e})", markup=False)

        yield lines
        return
    bar = Progress(*COLUMNS, console=err, transient=True)
    first: list[float] = []  # the first sweep's change; the bar appears with it (no solve, no bar)

    def update(iteration: int, change: float) -> None:
        if not first:
            first.append(change)
            bar.add_task("solve", total=1.0, sweep=0, change="-")
            bar.start()
        bar.update(bar.task_ids[0], completed=toward(first[0], change, tolerance), sweep=iteration, change=f"{change:.1e}")

    try:
        yield update
    finally:
        if first:
            bar.stop()
