"""Treehouse games for other frameworks: OpenSpiel and PettingZoo (docs/interop.md).

This layer sits above the kernel and the variants and uses them only through
their public values, notation and game hooks; nothing below it imports it.

* :mod:`treehouse.interop.flow`: one game as a walk through nodes (chance,
  decision, terminal), the engine's turn one roll or one decision at a time.
* :mod:`treehouse.interop.actions`: integer action ids for moves, and
  observations, from the variant (``action_encoding`` / ``observation``
  methods) or a generic fallback.
* :mod:`treehouse.interop.openspiel`: every installed variant and shipped
  rule set as an OpenSpiel game (needs the ``openspiel`` extra).
* :mod:`treehouse.interop.pettingzoo`: an AEC environment (needs the
  ``pettingzoo`` extra).
* :mod:`treehouse.interop.mcts`: OpenSpiel's MCTS as a treehouse seat.
"""
