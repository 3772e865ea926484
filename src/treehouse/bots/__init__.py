"""Bots: seats that play by themselves, registered through ``treehouse_register_bots``.

What a plugin's own bot may use (docs/bots.md, "A bot of your own"), and
all that a variant's bot uses (classic's ``perfect``):

* :data:`PASS` and :data:`REROLL`, the declines a step may offer beside its moves;
* :func:`pick`, the one way bots break ties between equally good moves
  (the seat's own ``random.Random``, so games stay reproducible);
* :class:`SearchBot`, to play as ``search`` where a bot of its own cannot
  (imported when first asked for: the search is not loaded by every command).
"""

from __future__ import annotations

from typing import Any

from treehouse.bots.lookahead import PASS, REROLL, pick

__all__ = ["PASS", "REROLL", "SearchBot", "pick"]


def __getattr__(name: str) -> Any:
    if name == "SearchBot":
        from treehouse.bots.search import SearchBot

        return SearchBot
    raise AttributeError(f"module 'treehouse.bots' has no attribute {name!r}")
