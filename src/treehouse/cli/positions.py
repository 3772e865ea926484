"""``th show`` and ``th moves``: look at a position, and where one roll can take it."""

from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Annotated, Optional

import typer

from treehouse.cli.common import DEBUG_ENV, ConfigOption, SetOption, VariantOption, effective_rules, fail, out, plugins, run_guarded
from treehouse.cli.seats import default_variant
from treehouse.errors import TreehouseError
from treehouse.kernel.hooks import game_hooks

PositionArgument = Annotated[str, typer.Argument(help="A position in the variant's notation, e.g. a classic trio 'L< S^ M>'.")]


def show(position: PositionArgument, variant: VariantOption = None, config: ConfigOption = None, overrides: SetOption = None) -> None:
    """Draw a position (for classic, a trio such as 'L^/M^/S^', or a whole game position).

    Without --variant, the first variant (by rank) whose notation reads the position draws it.

    Example: th show -v classic 'L< S^ M>'
    """
    if variant is None and config is None:
        variant = run_guarded(default_variant, position)
    effective = run_guarded(effective_rules, variant, config, overrides)
    game_variant = effective.variant()
    # the game's hooks, house rules included: a house rule may draw the position
    hooks = run_guarded(game_hooks, game_variant, effective.house_rule_plugins(plugins()))
    out.print(run_guarded(blamed, hooks, game_variant.render_text, position, out.width, hooks))


def moves(
    position: Annotated[str, typer.Argument(help="A position (for classic, a trio), or - to read one per line from standard input.")],
    action: Annotated[
        Optional[str],
        typer.Option("--action", "-a", help="The die face: tip, swap, hop, dig, aim or wild (Fences: optional, every face when left out; at a setup step, the colour drawn)."),
    ] = None,
    variant: VariantOption = None,
    config: ConfigOption = None,
    overrides: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON: the canonical positions sorted (Fences: one object per move).")] = False,
) -> None:
    """List where a position can go: the distinct positions one roll of ACTION leads to; for Fences, every move of the step the position is at.

    Without --variant, the first variant (by rank) whose notation reads the (first) position.

    Example: th moves -v classic 'L^/M^/S^' --action tip
    """
    given = ((number, line.strip()) for number, line in enumerate(sys.stdin, start=1) if line.strip()) if position == "-" else iter([(0, position)])
    if variant is None and config is None:
        first = next(given, None)
        try:
            variant = default_variant(first[1] if first else None)
        except TreehouseError as error:
            raise fail(f"line {first[0]}: {error}" if position == "-" else str(error)) from None
        given = itertools.chain([first] if first else [], given)
    effective = run_guarded(effective_rules, variant, config, overrides)
    game_variant = effective.variant()
    # the game's hooks, house rules included: a house rule's die decides which faces can come up
    hooks = run_guarded(game_hooks, game_variant, effective.house_rule_plugins(plugins()))
    by_step = game_variant.lists_step_moves
    if action is not None and action.strip().lower() not in {draw.lower() for draw in game_variant.draws}:  # a setup's draw
        run_guarded(game_variant.die.face, action)  # an unknown action fails before any input is read
    elif not by_step:
        faces = ", ".join(face.lower() for face in game_variant.die.faces)
        raise fail(f"say which face was rolled with --action ({faces})")

    def listing(text: str) -> list:
        if by_step:
            return game_variant.step_moves(text, action, hooks)
        return game_variant.successors(text, action, hooks)

    def as_data(found: list) -> list:
        return [row._asdict() for row in found] if by_step else [notation for notation, _ in found]

    if position == "-":
        read = 0
        for number, line in given:
            read += 1
            try:
                found = blamed(hooks, listing, line)
            except TreehouseError as error:
                raise fail(f"line {number}: {error}") from None
            print(json.dumps(as_data(found)), flush=True)
        if not read:
            raise fail("no position on standard input: pipe in one position per line, or give the position instead of '-'")
        return
    found = run_guarded(blamed, hooks, listing, position)
    if as_json:
        print(json.dumps(as_data(found)))
        return
    if by_step:
        print_step_moves(found, position, action)
        return
    if not found:
        out.print(f"{action.upper()} cannot be done to {position}: no position differs from it.", markup=False)
        return
    width = max(len(notation) for notation, _ in found)
    for notation, words in found:
        out.print(f"{notation:<{width}}   {words}", markup=False)


def print_step_moves(rows: list, position: str, action: str | None) -> None:
    """One line per move: (the face,) the move, its words, the position it leads to."""
    if not rows:
        what = f"{action.upper()} offers" if action else "the step offers"
        out.print(f"No move: {what} nothing from {position}.", markup=False)
        return
    out.print(f"Step {rows[0].step}: {len(rows)} move{'s' if len(rows) != 1 else ''}.", markup=False)
    faced = any(row.face is not None for row in rows)
    face_width = max((len(row.face or "") for row in rows), default=0)
    move_width = max(len(row.move) for row in rows)
    words_width = min(40, max(len(row.words) for row in rows))  # a long WILD move does not push every line
    for row in rows:
        face = f"{row.face or '':<{face_width}}   " if faced else ""
        out.print(f"{face}{row.move:<{move_width}}   {row.words:<{words_width}}   {row.position}", markup=False)


def blamed(hooks, function, *args):
    """``function(*args)``; a hook of ``hooks`` that raised becomes one line naming
    the plugin by the name the game registered it under (a house rule's name)."""
    try:
        return function(*args)
    except TreehouseError:
        raise
    except Exception as error:
        culprit = hooks.blame(error)
        if str(culprit).startswith("a plugin failed") or os.environ.get(DEBUG_ENV):
            raise
        raise culprit from None
