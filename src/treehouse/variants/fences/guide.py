"""Fences for a person at the board: the legend of the drawing and a short
how-to-play with the rule options in force (``th play``'s ``?`` and ``r``)."""

from __future__ import annotations

import textwrap
from typing import Any

#: The widest line of the guide: it fits an 80-column terminal.
WIDTH = 79

LEGEND = """\
The board (squares: a1 south-west ... e5; Outside N1-N5, S1-S5, W1-W5, E1-E5)
  Lr▲  Mb→   Fences: L large, M medium; r o y g b red orange yellow green blue;
             ▲ Standing, ↑ → ↓ ← Pointing north, east, south, west
  1:Rgb      Player 1's Stack, top first: the top small in capitals (red)
  ·          an empty Inside square;  * Player 2: whose step it is
  ⚠ you lose 1   beside a move: it would Damage your own Stack
Under each step: every Hit, whether colour saved it, each small lost."""


def how_to_play(rules: Any) -> str:
    """A short how-to-play of Fences with ``rules`` (the options in force) woven in."""
    outside = (
        "or try to move Outside (always a Damaging Hit)" if getattr(rules, "outside_attempts", False) else "to an Inside square"
    )
    lines = (
        "an appearing line Hits (a Fence pointed or moved at a Stack, a Stack moving into a line, a blocker leaving);"
        + (
            " a Stack that bounces is Hit again by the lines it stands in"
            if getattr(rules, "mover_hit_on_stack", False)
            else " a Stack that bounces off a Fence or the Outside (not off another Stack) is Hit again by the lines it stands in"
        )
        if getattr(rules, "line_hits", "new") == "new"
        else "every line Hits at every check, whether it is new or not"
    )
    per_piece = (
        "A piece Hits a Stack at most once per check"
        + (
            ", except a Swap with an Outside Fence, which Hits in addition to any other Hits (that Fence's own line too)."
            if getattr(rules, "swap_outside_considered_moved", True)
            else "."
        )
        if getattr(rules, "one_hit_per_piece", True)
        else "A piece Hits a Stack once for each rule it meets (stepping into a Fence that points at you: two Hits)."
    )
    dig = {
        "noop": "a Dig of smalls all one colour is done and changes nothing",
        "hit": "a Dig that would change nothing is impossible: your Stack is Hit",
        "reroll": "a Dig that would change nothing is rolled again",
    }.get(getattr(rules, "uniform_dig", "noop"), "")
    together = (
        "nobody wins" if getattr(rules, "all_out_at_once", "draw") == "draw" else "those players share the win"
    )
    limit = getattr(rules, "turn_limit", 0)
    ending = f" After {limit} turns the game ends ({getattr(rules, 'turn_limit_scoring', 'most_smalls').replace('_', ' ')})." if limit else ""
    paragraphs = (
        ("", "How to play Fences"),
        ("", "Each player has a Stack of smalls on the 5x5 Inside; the last Stack standing wins."),
        ("", "A turn has three steps; Hits are checked after each one."),
        ("  1. ", "fence: move one Fence one square along a row or column to an empty square,"
                  " ending next to your Stack or taking one away from it if you can."),
        ("  2. ", "act: roll the die.  TIP a Standing Fence in your row or column (it slides to"
                  " point inward); SWAP your Stack with a Fence in your row or column; HOP over a"
                  " Fence next to you (or hop it over you); DIG your top small to the bottom; AIM"
                  " the Fences next to you; WILD: reorder your Stack, then any of those.  If the"
                  f" action is impossible, your Stack is Hit.  ({dig})"),
        ("  3. ", f"stack: move your Stack one square, {outside}."),
        ("     ", "Into a piece: you stay, and are Hit (a Fence) or Hit the other Stack."),
        ("", f"Hits: {lines}.  {per_piece}"),
        ("", "Each Hit takes your top small, unless it is the Fence's colour (or the colour of"
             " the Stack that moved onto you); all Hits of a check count against the top as it"
             f" stood.  An empty Stack is out; if the last Stacks empty together, {together}.{ending}"),
        ("", "The settings in force follow."),
    )
    # wrapped here, to fit an 80-column terminal (th play's steady screen)
    return "\n".join(
        textwrap.fill(text, WIDTH, initial_indent=indent, subsequent_indent=" " * len(indent), break_on_hyphens=False)
        for indent, text in paragraphs
    )
