"""A house rule that adds moves of its own kinds, and performs only those.

Write such a rule as an :class:`AddsMoves`: name the classes of its moves in
``kinds`` and write :meth:`AddsMoves.perform`.  Its ``treehouse_apply_move``
is derived from that: it performs a move of its kinds and answers ``None``
for every other, so the variant still performs all of its own.  A variant
with a compiled core may rely on it (:func:`performs_only_its_own`): the
core goes on looking at the variant's own moves, and only the rule's moves
are played through the hooks (docs/rules/tiers.md).  The example plugin's
``wild-repair`` is one.
"""

from __future__ import annotations

from typing import Any

from treehouse.hookspecs import hookimpl


class AddsMoves:
    """The base of a house rule adding moves of the classes in ``kinds``."""

    #: The classes of the moves this rule adds (and alone performs).
    kinds: tuple[type, ...] = ()

    def perform(self, state: Any, step: Any, move: Any) -> Any:
        """The position after ``move`` (one of :attr:`kinds`), as ``treehouse_apply_move`` answers."""
        raise NotImplementedError

    @hookimpl(tryfirst=True)
    def treehouse_apply_move(self, state, step, move):
        if isinstance(move, self.kinds):
            return self.perform(state, step, move)
        return None  # not this rule's move: the variant's own


def performs_only_its_own(hooks: Any, plugin: Any) -> str | None:
    """Why ``plugin`` does not answer ``treehouse_apply_move`` only for moves of
    its own kinds (``None``: it does, as an :class:`AddsMoves` whose hook is the
    derived one, not its own): a :class:`~treehouse.kernel.fast.gate.Form`'s refusal."""
    if isinstance(plugin, AddsMoves) and type(plugin).treehouse_apply_move is AddsMoves.treehouse_apply_move:
        return None
    return "it performs moves itself"

