"""The hooks Fences adds to the kernel's (``Fences.hookspecs``): the Fences API for house rules.

A house rule implements them like any game hook (see docs/fences-api.md).
"""

from __future__ import annotations

from treehouse.hookspecs import hookspec


@hookspec(firstresult=True)
def treehouse_fences_hits(state, before, step, hits):
    """Which of the Hits a check found stand.

    Called by Fences at every check, after the Hits are found (attempts,
    lines, one per piece and Stack) and before Damage is resolved; and by
    the bots' evaluation with the Hits a position threatens, so a house rule
    changes what the bots believe too.  Once a game's hooks are bound, a
    wrapper is also asked about Hits on their own, with stand-ins for the
    positions and for every field but the cause and the source's size: where
    it judges each Hit by those alone, the compiled core reads it as a table
    (docs/fences-api.md).  So an answer must depend on its arguments alone.

    :param state: the position the Hits were found in: after the step's move
        (its Damage not yet resolved), or the position evaluated.
    :param before: the position before the step (``state`` itself when the
        evaluation asks).
    :param step: the :class:`~treehouse.kernel.turn.Step` whose check found
        them, or ``None`` when the bots' evaluation asks which threats stand.
    :param hits: a tuple of :class:`treehouse.variants.fences.hits.Hit`: the
        Stack Hit (``seat``), the ``cause``
        (:class:`~treehouse.variants.fences.hits.Cause`), the ``source`` piece
        (size, colour, square; ``None`` for an attempt to move Outside and an
        impossible action) and ``ignores_colour``.
    :returns: the Hits that stand, in order: drop a Hit to cancel it, replace
        it (``hit._replace(ignores_colour=True)``) to change how it Damages.
        Each Hit that stands is resolved and reported as an event.  Fences'
        own answer returns ``hits`` unchanged.  Write a house rule's answer
        as a wrapper (``@hookimpl(wrapper=True)``, ``hits = yield``, return
        the Hits that stand), so several house rules compose.  First result.
    """
