"""Hits as values: who is Hit, by which piece and why, and what was reported.

A **check** runs at the end of every step (the rules that find its Hits and
resolve their Damage are in :mod:`~treehouse.variants.fences.rules`).  Its
Hits are :class:`Hit` values, each naming the Stack Hit, its :class:`Cause`
and the piece that Hit it (a :class:`Source`: size, colour, square).  They
pass through the ``treehouse_fences_hits`` hook, which house rules use to say
which Hits stand (docs/fences-api.md).  Colour immunity is :func:`immune`;
the one way a Hit is made to Damage whatever the colour is
:func:`ignoring_colour`.  What happened is reported as events
(:class:`HitReport`, :class:`StackOut`), the values ``th play``, ``th
replay``, records and the playtest statistics all read.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple

from treehouse.errors import PluginError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.pieces import Pyramid, Size
from treehouse.variants.fences.board import NAMES
from treehouse.variants.fences.position import from_fields


class Cause(StrEnum):
    """Why a Stack is Hit (the seed's list, plus the two actions that Hit)."""

    #: a Pointing Fence points at the Stack with only empty squares between, newly
    #: (the Fence moved or turned, the Stack moved, a blocker left) or, under
    #: ``line_hits: every_check``, at every check
    POINTED_AT = "pointed at"
    #: the Stack bounced (considered moved, though it stayed) in a line that was already there
    BOUNCED = "bounced"
    #: the Stack tried to move (step 3 or a Hop) onto a Fence and stayed
    MOVED_ONTO = "moved onto"
    #: another Stack tried to move onto this one (only the stationary Stack is Hit)
    STACK_MOVED_ONTO = "stack moved onto"
    #: the Stack tried to move (step 3 or a Hop) Outside and stayed: always Damages
    OUTSIDE = "attempted Outside"
    #: a Swap with an Outside Fence: the Stack stays and is Hit
    SWAP_OUTSIDE = "swapped with Outside"
    #: the rolled action was impossible: the Stack is Hit and Damaged
    IMPOSSIBLE = "impossible action"


class Source(NamedTuple):
    """The piece that Hits: a Fence (size ``L``/``M``, its colour, its square)
    or a Stack (size ``S``, its top colour, its square, and its ``seat``)."""

    size: Size
    colour: str
    square: int
    seat: int | None = None

    @property
    def is_fence(self) -> bool:
        return self.seat is None

    def describe(self) -> str:
        if self.seat is not None:
            return f"player {self.seat + 1}'s Stack ({self.colour} top) from {NAMES[self.square]}"
        return f"{self.size.value}({self.colour}) at {NAMES[self.square]}"


def fence_source(fence: Pyramid, square: int) -> Source:
    return from_fields(Source, (fence[0], fence[2], square, None))  # Source(size, colour, square), made as the rules make positions


class Hit(NamedTuple):
    """One Hit on ``seat``'s Stack: its ``cause``, the piece that Hit it
    (``source``; ``None`` for an attempt to move Outside and an impossible
    action) and, for an attempt Outside, the Outside ``square`` tried.
    ``ignores_colour``: the Hit Damages whatever the Stack's top colour."""

    seat: int
    cause: Cause
    source: Source | None = None
    square: int | None = None
    ignores_colour: bool = False

    @property
    def colour(self) -> str | None:
        """The colour that makes the Stack immune when it is on top; ``None``:
        the Hit always Damages (no piece, or it ignores colour)."""
        if self.ignores_colour or self.source is None:
            return None
        return self.source.colour

    def why(self) -> str:
        """The Hit's cause in words: "moved onto M(red) at c4"."""
        cause, source = self.cause, self.source
        if cause is Cause.POINTED_AT:
            return f"{source.describe()} points at it"
        if cause is Cause.BOUNCED:
            return f"bounced in the line of {source.describe()}"
        if cause is Cause.MOVED_ONTO:
            return f"moved onto {source.describe()}"
        if cause is Cause.STACK_MOVED_ONTO:
            return f"{source.describe()} moved onto it"
        if cause is Cause.OUTSIDE:
            return f"tried to move Outside at {NAMES[self.square]}"
        if cause is Cause.SWAP_OUTSIDE:
            return f"swapped with {source.describe()}, Outside"
        return "the rolled action was impossible"


class HitReport(NamedTuple):
    """An event: a Hit as it was resolved.  ``top`` is the Stack's top colour
    at the check, ``lost`` the small this Hit removed (``None``: no Damage,
    because colour saved it or no small was left)."""

    hit: Hit
    top: str | None
    lost: str | None

    @property
    def saved(self) -> bool:
        """Colour immunity spared the Stack."""
        return self.lost is None and immune(self.hit, self.top)

    @property
    def impossible(self) -> bool:
        """The rolled action was impossible (counted in the playtest's impossible share)."""
        return self.hit.cause is Cause.IMPOSSIBLE

    def describe(self) -> str:
        player = f"Player {self.hit.seat + 1}"
        if self.lost is not None:
            return f"{player} loses {self.lost} ({self.hit.why()})"
        if self.saved:
            return f"{player} is Hit ({self.hit.why()}): {self.top} top, no damage"
        return f"{player} is Hit ({self.hit.why()}): no small left to lose"


class StackOut(NamedTuple):
    """An event: ``seat``'s Stack was emptied at check ``check`` and is out;
    ``fell_to`` is the Hit that took its last small."""

    seat: int
    check: int
    fell_to: Hit

    @property
    def eliminated(self) -> int:
        """The seat that went out (the CLI's game-over line says how)."""
        return self.seat

    def describe(self) -> str:
        return f"Player {self.seat + 1} is out: the last small went ({self.fell_to.why()})"


def ignoring_colour(hit: Hit) -> Hit:
    """The same Hit, Damaging whatever the Stack's top colour.  The one way
    a Hit is made to ignore colour: a Swap with an Outside Fence
    (``swap_outside_ignores_colour``) and every Hit under the house rule
    ``no-colour-immunity``."""
    return from_fields(Hit, (*hit[:4], True))  # hit._replace(ignores_colour=True)


def immune(hit: Hit, top: str | None) -> bool:
    """Colour immunity: the Hit does no Damage to a Stack whose top colour is
    ``top``.  The seed: "No Damage occurs if the top color of the Stack matches
    the color of the Fence or opponent's Stack involved in the Hit" (a Hit
    with no colour, :attr:`Hit.colour`, always Damages).  The one place the
    rule is written: Damage, the events and the bots' evaluation ask it."""
    colour = hit.colour
    return colour is not None and colour == top


class Verdict(IntEnum):
    """A house rule's say on a Hit (:class:`JudgedBySource`)."""

    STANDS = 0
    DROPPED = 1
    IGNORES_COLOUR = 2


#: The sources a rule that judges each Hit alone tells apart: no piece (an
#: attempt Outside, an impossible action), a Large or a Medium Fence, a Stack.
SOURCE_SIZES = (None, Size.LARGE, Size.MEDIUM, Size.SMALL)
#: The causes, in the order of the core's table of verdicts (``hit_table.table``).
CAUSES = tuple(Cause)


class JudgedBySource:
    """The base of a house rule that says which Hits stand from the piece
    that makes each one (:attr:`Hit.source`'s size; ``None`` for no piece)
    and why (its :class:`Cause`) alone, whatever the position: write
    :meth:`verdict`, and the ``treehouse_fences_hits`` wrapper is derived.

    Such a rule is a table of verdicts, and the compiled core reads it as one
    (``hit_table``), as it reads any wrapper that judges each Hit by its
    cause and source size alone; this base says so in the rule's own words
    (docs/fences-api.md).  ``large-fences-only`` and ``no-colour-immunity``
    are two."""

    def __init__(self, variant, options) -> None:
        self.variant = variant

    def verdict(self, size: Size | None, cause: Cause) -> Verdict:
        """What becomes of a Hit of ``cause`` whose source has ``size`` (``None``: no piece)."""
        raise NotImplementedError

    def judged(self, size: Size | None, cause: Cause) -> Verdict:
        """:meth:`verdict`, checked: anything but a :class:`Verdict` is the rule's bug, said in one line."""
        verdict = self.verdict(size, cause)
        if not isinstance(verdict, Verdict):
            raise PluginError(
                f"house rule {type(self).__name__}: verdict({size and size.value!r}, {cause.name}) returned {verdict!r},"
                " expected a Verdict (Verdict.STANDS, Verdict.DROPPED or Verdict.IGNORES_COLOUR)"
            )
        return verdict

    @hookimpl(wrapper=True)
    def treehouse_fences_hits(self, state, before, step, hits):
        standing = yield
        judged = []
        for hit in standing:
            verdict = self.judged(None if hit.source is None else hit.source.size, hit.cause)
            if verdict is Verdict.IGNORES_COLOUR:
                judged.append(ignoring_colour(hit))
            elif verdict is not Verdict.DROPPED:
                judged.append(hit)
        return tuple(judged)
