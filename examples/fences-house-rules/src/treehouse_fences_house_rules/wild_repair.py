"""wild-repair: on a WILD roll the Stack may take back one destroyed small.

A new move kind, :class:`Repair` (``repair +b``: take back a blue small, onto
the top of the Stack), offered beside the WILD actions while the Stack has
destroyed smalls and has repaired fewer than ``max`` times this game.  The
count lives in the position (``FencesPosition.counted``), so a record replays
and a saved game resumes exactly.  Notation and words come through the
notation hooks, so the move records, replays and shows in ``th play``; its
action ids come from :meth:`WildRepair.action_encoding`, so it plays in
OpenSpiel, PettingZoo and the ``mcts`` seat with ids that mean one move,
and its count is in the observation (:meth:`WildRepair.observation`).
"""

from __future__ import annotations

from typing import NamedTuple

from treehouse.errors import NotationError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.added_moves import AddsMoves
from treehouse.variants.fences.position import COLOUR_OF, LETTER, SETS
from treehouse.variants.fences.rules import advance

#: The name of the count in the position's tallies.
TALLY = "wild-repair"


class Repair(NamedTuple):
    """Take back one destroyed small of ``colour``, onto the top of the Stack."""

    colour: str


def colours_of(sets: str) -> tuple[str, ...]:
    """The small colours a game under ``sets`` has, in Fences' order: the
    colours a Repair can take back (``r o y g b``, and with ``rainbow-xeno``
    ``c p w k t`` too)."""
    return tuple(SETS[sets])


class RepairActions:
    """Repair moves as ids by colour, one per colour of the game's sets
    (``0..4``: ``r o y g b``; with ``rainbow-xeno`` also ``5..9``: ``c p w k t``);
    ``None`` for a move not a Repair."""

    def __init__(self, colours: tuple[str, ...]) -> None:
        self.colours = colours
        self.size = len(colours)

    def encode(self, position, move):
        return self.colours.index(move.colour) if isinstance(move, Repair) else None

    def describe(self, action: int) -> str:
        return f"repair +{LETTER[self.colours[action]]}"


class WildRepair(AddsMoves):
    """The rule's plugin.  It adds :class:`Repair` moves and performs only
    those (an :class:`~treehouse.kernel.added_moves.AddsMoves`), so Fences'
    compiled core goes on looking at Fences' own moves in its games."""

    kinds = (Repair,)

    def __init__(self, variant, options) -> None:
        self.variant = variant
        self.max = options.max
        #: The colours of the game's smalls, from its rules (``sets``): the
        #: letters a Repair is written with are Fences' own (``position.LETTER``).
        self.colours = colours_of(variant.rules.sets)

    def action_encoding(self, players):
        """Stable action ids for Repair moves in OpenSpiel, PettingZoo and the
        mcts seat (docs/interop.md, "Moves a house rule adds"): one per colour."""
        return RepairActions(self.colours)

    def observation(self, players):
        """The repairs each seat has made, for learners (docs/interop.md,
        "What an observation holds"): the count is part of the position."""
        from treehouse.variants.fences.encoding import TallyObservation  # numpy: only for learners, not at every th's start

        return TallyObservation(players, TALLY)

    def repairs(self, state, face) -> tuple:
        seat = state.to_move
        if face != "WILD" or not state.stacks[seat] or state.tally(TALLY)[seat] >= self.max:
            return ()
        return tuple(Repair(colour) for colour in dict.fromkeys(state.destroyed[seat]))

    @hookimpl(wrapper=True)
    def treehouse_legal_moves(self, state, step, face):
        moves = yield
        if step.name != "act":
            return moves
        return (*moves, *self.repairs(state, face))

    def perform(self, state, step, move):
        seat = state.to_move
        destroyed = list(state.destroyed[seat])
        destroyed.remove(move.colour)
        stacks = list(state.stacks)
        stacks[seat] = (*stacks[seat], move.colour)
        lost = list(state.destroyed)
        lost[seat] = tuple(destroyed)
        repaired = state._replace(stacks=tuple(stacks), destroyed=tuple(lost)).counted(TALLY, seat)
        return advance(repaired, step)  # the act step is played: Fences' own step advance says what comes next

    @hookimpl
    def treehouse_format_move(self, move):
        return f"repair +{LETTER[move.colour]}" if isinstance(move, Repair) else None

    @hookimpl
    def treehouse_parse_move(self, text):
        words = text.strip().lower().split()
        if not words or words[0] != "repair":
            return None  # not ours: the variant reads it
        colour = COLOUR_OF.get(words[1][1:]) if len(words) == 2 and words[1].startswith("+") else None
        if colour not in self.colours:
            letters = " ".join(LETTER[c] for c in self.colours)
            raise NotationError(f"bad repair {text.strip()!r}: expected 'repair +C', C one of {letters} (e.g. 'repair +b')")
        return Repair(colour)

    @hookimpl
    def treehouse_describe_move(self, move):
        return f"take back a destroyed {move.colour} small onto your Stack" if isinstance(move, Repair) else None

    @hookimpl(tryfirst=True)
    def treehouse_describe_face(self, face):
        if face == "WILD":
            return f"{self.variant.describe_face(face)}; or take back a destroyed small (wild-repair, {self.max} a game)"
        return None

    @hookimpl(wrapper=True)
    def treehouse_render(self, state, console_width):
        """The board as Fences draws it, then a line with each seat's repairs:
        a rule's state is drawn by wrapping the drawing (docs/fences-api.md)."""
        drawing = yield
        from rich.console import Group
        from rich.text import Text

        counts = ", ".join(f"Player {seat + 1} {count}" for seat, count in enumerate(state.tally(TALLY)))
        return Group(drawing, Text(f"Repairs (wild-repair, {self.max} a game): {counts}", style="dim"))

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover, face):
        return {"repairs": 1} if isinstance(move, Repair) else None
