"""Why a move is good, in one line: the reason ``th play``'s hint gives (``Variant.hint_reason``).

The move is played in the head through the game's hooks (house rules
included), and the line says the biggest thing it changes, in the order a
player weighs them: an opponent put out or Damaged, the mover's own Damage
(or the colour that saved it), then the Fences whose line the mover's Stack
leaves or stays in, shielded by its top colour, and the Fences it turns on
an opponent.  The lines of sight are the bots' threats
(:func:`~treehouse.variants.fences.evaluate.threatened_hits`), judged by the
``treehouse_fences_hits`` hook as the evaluation judges them.  A move that
changes none of these is "a quiet move", and the line says what it keeps or
avoids compared with the hint's next best move.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from treehouse.kernel.turn import Applied, play_move
from treehouse.variants.fences.board import AROUND, INSIDE
from treehouse.variants.fences.evaluate import threatened_hits
from treehouse.variants.fences.hits import HitReport, StackOut, immune
from treehouse.variants.fences.moves import FencesMove
from treehouse.variants.fences.position import FencesPosition

#: The most reasons one line gives.
MOST = 2


def _smalls(count: int) -> str:
    return f"{count} small{'s' if count != 1 else ''}"


def pointing_at(state: FencesPosition, seat: int, hooks: Any) -> dict[int, tuple[Any, bool]]:
    """The Fences that point along a line at ``seat``'s Stack with nothing between:
    ``{square: (fence, harmless)}``, harmless when its Hit would not Damage the
    Stack (its top colour, or a house rule that lets the Hit fall)."""
    stack = state.stacks[seat]
    square = state.square_of(seat) if stack else None
    if square is None:
        return {}
    lines, _onto = threatened_hits(state.board, square, seat)
    found = {}
    for d, cell, hit in lines:
        if cell.direction is not d.opposite:
            continue
        judged = hooks.treehouse_fences_hits(state, state, None, (hit,))
        stands = [h for h in judged if (h.seat, h.cause, h.source) == (hit.seat, hit.cause, hit.source)]
        found[hit.source.square] = (hit.source, not stands or immune(stands[0], stack[-1]))
    return found


class Outlook(NamedTuple):
    """What a move does for the mover, as :func:`hint_reason` weighs it: its
    reasons (good, then ``worse``), and the counts a quiet move is compared by."""

    reasons: list
    worse: list
    lost: int  # smalls the mover loses
    lines: frozenset  # the Fences whose line Damages the mover's Stack after it
    room: int  # squares the mover's Stack can step onto unharmed after it
    aimed: int  # Fences whose line Damages an opponent's Stack after it


def outlook(state: FencesPosition, step: Any, move: FencesMove, hooks: Any) -> Outlook:
    """``move`` played in the head through the game's hooks, and what it changes for the mover."""
    seat = state.to_move
    if step.setup:  # a setup step is applied, not resolved
        after = hooks.treehouse_apply_move(state, step, move)
        after, events = (after.state if type(after) is Applied else after), ()
    else:
        after, events = play_move(hooks, state, step, move)
    reasons: list[str] = []
    outs = sorted(e.seat for e in events if isinstance(e, StackOut) and e.seat != seat)
    if outs:
        reasons.append("puts " + " and ".join(f"Player {s + 1}" for s in outs) + " out")
    damaged: dict[int, list[str]] = {}
    for e in events:
        if isinstance(e, HitReport) and e.lost is not None and e.hit.seat != seat and e.hit.seat not in outs:
            damaged.setdefault(e.hit.seat, []).append(e.lost)
    for other, lost in sorted(damaged.items()):
        reasons.append(f"Player {other + 1} loses {', '.join(lost)}")
    own = [e for e in events if isinstance(e, HitReport) and e.hit.seat == seat]
    lost = [e.lost for e in own if e.lost is not None]
    if lost:
        reasons.append(f"costs you {_smalls(len(lost))} ({', '.join(lost)})")
    elif any(e.saved for e in own):
        saved = next(e for e in own if e.saved)
        reasons.append(f"{saved.top} on top saves you from {saved.hit.source.describe()}")
    if not after.stacks[seat]:
        return Outlook(reasons, [], len(lost), frozenset(), 0, 0)
    before_lines, after_lines = pointing_at(state, seat, hooks), pointing_at(after, seat, hooks)
    top = after.stacks[seat][-1]
    kept_top = bool(state.stacks[seat]) and state.stacks[seat][-1] == top
    worse = []  # said last: the best move may still leave a threat
    moved = state.square_of(seat) != after.square_of(seat)
    for square, (source, harmless) in sorted(before_lines.items()):
        if not harmless and square not in after_lines:
            reasons.append(f"{'leaves' if moved else 'shuts'} the line of {source.describe()}")
    for square, (source, harmless) in sorted(after_lines.items()):
        if harmless and source.colour == top:
            reasons.append(f"{'keeps' if kept_top else 'puts'} {top} on top, facing {source.describe()}")
        elif not harmless:
            stays = square in before_lines and not before_lines[square][1]
            worse.append(f"{'stays in' if stays else 'steps into'} the line of {source.describe()}")
    aimed = 0
    for other in after.live():
        if other == seat:
            continue
        was = pointing_at(state, other, hooks)
        for square, (source, harmless) in sorted(pointing_at(after, other, hooks).items()):
            aimed += not harmless
            if not harmless and (square not in was or was[square][1]):
                reasons.append(f"aims {source.describe()} at Player {other + 1}'s Stack")
    room_before, room_after = room(state, seat, hooks), room(after, seat, hooks)
    if room_after == 0 and room_before:
        worse.append("leaves your Stack no square to step onto unharmed")
    elif room_after > room_before:
        reasons.append(f"gives your Stack {_squares(room_after)} to step onto unharmed (had {room_before})")
    lines = frozenset(source.describe() for source, harmless in after_lines.values() if not harmless)
    return Outlook(reasons, worse, len(lost), lines, room_after, aimed)


def hint_reason(state: FencesPosition, step: Any, move: Any, hooks: Any, next_best: Any = None) -> str:
    """One line (no full stop) saying why ``move`` is worth playing, or ``""``.
    A move that changes nothing worth saying is "a quiet move"; with
    ``next_best`` (the move the hint ranks second), the line says what it keeps
    or avoids compared with that one."""
    if not isinstance(move, FencesMove):
        return ""
    chosen = outlook(state, step, move, hooks)
    found = [*chosen.reasons, *chosen.worse]
    if found:
        return "; ".join(found[:MOST])
    if not isinstance(next_best, FencesMove):
        return QUIET
    return f"{QUIET}; {compared(chosen, outlook(state, step, next_best, hooks))}"


def compared(chosen: Outlook, other: Outlook) -> str:
    """What the chosen move keeps or avoids that ``other`` (the next best) gives up or meets."""
    said = []
    if other.lost > chosen.lost:
        said.append(f"the next best costs you {_smalls(other.lost - chosen.lost)} more")
    met = sorted(other.lines - chosen.lines)
    if met:
        said.append(f"it keeps you out of the line of {' and '.join(met)}, as the next best does not")
    if chosen.room > other.room:
        said.append(f"it keeps {_squares(chosen.room)} to step onto unharmed, where the next best leaves {other.room}")
    if chosen.aimed > other.aimed:
        said.append("it keeps more Fences aimed at the others than the next best")
    if not said:  # nothing on the board now tells them apart: the search saw further
        return "the next best is no worse now, but the search finds it weaker over the turns ahead"
    return said[0]


def _squares(count: int) -> str:
    return f"{count} square{'s' if count != 1 else ''}"


#: The reason of a move that changes no line, small or room to step.
QUIET = "a quiet move: no Fence's line at a Stack, no small and no room to step changes"


def room(state: FencesPosition, seat: int, hooks: Any) -> int:
    """The squares next to ``seat``'s Stack it can step onto without Damage: empty
    Inside ones, and Inside Fences whose Hit would not Damage it (the bots' room to
    move).  Never an Outside square: step 3 goes only Inside, and an attempt to
    leave (``outside_attempts``) always Damages."""
    square = state.square_of(seat) if state.stacks[seat] else None
    if square is None:
        return 0
    _lines, onto = threatened_hits(state.board, square, seat)
    standing = hooks.treehouse_fences_hits(state, state, None, tuple(onto))
    harmful = {(h.seat, h.cause, h.source) for h in standing if not immune(h, state.stacks[seat][-1])}
    empty = sum(1 for n in AROUND[square] if n in INSIDE and state.board[n] is None)
    return empty + sum(1 for hit in onto if hit.source.square in INSIDE and (hit.seat, hit.cause, hit.source) not in harmful)
