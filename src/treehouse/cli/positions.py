"""``th show`` and ``th moves``: look at a position, and where one roll can take it."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from treehouse.cli.common import ConfigOption, SetOption, VariantOption, effective_rules, fail, out, plugins, run_guarded
from treehouse.errors import TreehouseError
from treehouse.kernel.hooks import game_hooks

PositionArgument = Annotated[str, typer.Argument(help="A position in the variant's notation, e.g. a classic trio 'L< S^ M>'.")]


def show(position: PositionArgument, variant: VariantOption = "classic", config: ConfigOption = None, overrides: SetOption = None) -> None:
    """Draw a position (for classic, a trio such as 'L^/M^/S^', or a whole game position)."""
    game_variant = run_guarded(effective_rules, variant, config, overrides).variant()
    out.print(run_guarded(game_variant.render_text, position, out.width))


def moves(
    position: Annotated[str, typer.Argument(help="A position (for classic, a trio), or - to read one per line from standard input.")],
    action: Annotated[str, typer.Option("--action", "-a", help="The die face: tip, swap, hop, dig, aim or wild (at a setup step, what is drawn: Fences' colours).")],
    variant: VariantOption = "classic",
    config: ConfigOption = None,
    overrides: SetOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON array of canonical positions, sorted.")] = False,
) -> None:
    """List the distinct positions one roll of ACTION can lead to."""
    effective = run_guarded(effective_rules, variant, config, overrides)
    game_variant = effective.variant()
    # the game's hooks, house rules included: a house rule's die decides which faces can come up
    hooks = run_guarded(game_hooks, game_variant, effective.house_rule_plugins(plugins()))
    if action.strip().lower() not in {draw.lower() for draw in game_variant.draws}:  # a setup's draw (Fences: a colour)
        run_guarded(game_variant.die.face, action)  # an unknown action fails before any input is read
    if position == "-":
        read = 0
        for number, line in enumerate(sys.stdin, start=1):
            if not line.strip():
                continue
            read += 1
            try:
                found = game_variant.successors(line.strip(), action, hooks)
            except TreehouseError as error:
                raise fail(f"line {number}: {error}") from None
            print(json.dumps([notation for notation, _ in found]), flush=True)
        if not read:
            raise fail("no position on standard input: pipe in one position per line, or give the position instead of '-'")
        return
    found = run_guarded(game_variant.successors, position, action, hooks)
    if as_json:
        print(json.dumps([notation for notation, _ in found]))
        return
    if not found:
        out.print(f"{action.upper()} cannot be done to {position}: no position differs from it.", markup=False)
        return
    width = max(len(notation) for notation, _ in found)
    for notation, words in found:
        out.print(f"{notation:<{width}}   {words}", markup=False)
