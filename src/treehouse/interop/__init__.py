"""Treehouse games for other frameworks: OpenSpiel, PettingZoo and Gymnasium (docs/interop.md).

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
* :mod:`treehouse.interop.gymnasium`: one seat against built-in bots as a
  Gymnasium environment per game, ``treehouse/Fences-v0`` (needs the
  ``gymnasium`` extra).
* :mod:`treehouse.interop.rules`: house-rule specs in one spelling, the
  environments' keyword arguments, the games the adapters register.
* :mod:`treehouse.interop.episode`: pickling and copying the environments
  (their arguments, as ``EzPickle``, and the episode so far).
* :mod:`treehouse.interop.drawing`: the board as ``th play`` draws it, for
  the environments' ``human`` and ``ansi`` render modes.
* :mod:`treehouse.interop.mcts`: OpenSpiel's MCTS as a treehouse seat.
* :mod:`treehouse.interop.policy`: a trained policy (a callable from
  observation to action id) as a seat: Gymnasium opponents, the ``policy`` bot.
"""
