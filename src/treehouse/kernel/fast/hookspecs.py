"""The fast tier's hooks: how a variant with a faster path (a compiled core)
answers many questions in one call.  A house-rule author may ignore them.

Each stands for hooks of :mod:`treehouse.hookspecs` and must give, value for
value, what those give; the kernel answers each from them (its default), and
a variant answers only while the gate lets it
(:mod:`treehouse.kernel.fast.gate`): where a house rule answers a hook the
question stands for, in a form the core cannot take in, the variant answers
``None`` and the kernel's default asks the rule hooks.  A variant without a
fast tier implements none of them.
"""

from __future__ import annotations

from treehouse.hookspecs import hookspec


@hookspec(firstresult=True)
def treehouse_evaluate_seats(state, players):
    """Score a position for every seat at once, for the playtest's lead tracking.

    Called by ``th simulate`` after every step of a game whose plugins
    evaluate (``treehouse_evaluate``).

    :param state: the position.
    :param players: the number of seats.
    :returns: a list of ``players`` numbers, each what ``treehouse_evaluate``
        gives that seat (the kernel's default asks it seat by seat).  A
        variant may answer faster (look something up once for all seats),
        but only while it alone answers ``treehouse_evaluate``
        (:meth:`~treehouse.kernel.hooks.GameHooks.variant_alone`); otherwise
        it returns ``None``.  First result.
    """


@hookspec(firstresult=True)
def treehouse_look_moves(state, step, face, moves, seat):
    """Look at many moves of one position in one call: each played in the
    head and judged for one seat.

    Called by the looking-ahead bots (search's last step and its ordering
    looks, greedy's choice) and by hints, once per position instead of once
    per move, so a variant with a compiled core
    (:mod:`treehouse.kernel.fast.compiled`) enters it once per node.

    :param state: the position the moves are played from.
    :param step: the step being played (a setup step's moves are only
        applied, as the engine's setup phase does).
    :param face: the face rolled for the step, or ``None``.
    :param moves: the moves to look at (legal moves of ``state`` for that
        step and face; never control choices).
    :param seat: the 0-based seat the positions are judged for.
    :returns: a :class:`~treehouse.kernel.turn.Looks`: per move, the seat's
        ``treehouse_evaluate`` of the position after it (applied, resolved),
        and the :class:`~treehouse.kernel.turn.Outcome` of each move that ends
        the game (``treehouse_outcome``).  It must equal, value for value, what
        the hooks give one move at a time
        (:func:`treehouse.kernel.turn.look_moves`, the kernel's default).  A
        variant answers it only while it alone answers the hooks the look
        stands for (:meth:`~treehouse.kernel.hooks.GameHooks.variant_alone`);
        otherwise it returns ``None`` and the default plays every move through
        the hooks, house rules included.  First result.
    """


@hookspec(firstresult=True)
def treehouse_look_all_moves(state, step, faces, seat):
    """Look at every choice of one step, for each of several faces, in one
    call, without listing the choices.

    Called by the search at the last step it searches, where only each
    choice's value matters, never the move: a compiled core then generates
    the moves of every face of a chance node and judges them in one go, and
    no move value is ever built.

    :param state: the position, still in play, the seat to move to play ``step``.
    :param step: the step (never a setup step).
    :param faces: the faces the step may roll, in the chance node's order
        (``(None,)`` for a step without a roll).
    :param seat: the 0-based seat the positions are judged for.
    :returns: per face, a :class:`~treehouse.kernel.turn.Looks` of the
        choices ``treehouse_legal_moves(state, step, face)`` lists, in its
        order (no values at all when it lists none): a move judged as
        ``treehouse_look_moves`` judges it, ``PASS`` by the position after
        playing it (:func:`~treehouse.kernel.turn.play_move`), ``REROLL`` by
        the position as it stands (counted in ``Looks.rerolls``); equal,
        value for value, to what :meth:`treehouse.bots.lookahead.Model.look`
        gives for the listed choices.  Or ``None`` (the kernel's answer, and
        the variant's wherever another plugin answers a hook the look stands
        for): the caller then lists the choices and looks at them.  First result.
    """


@hookspec(firstresult=True)
def treehouse_compiled_game(state, step):
    """The game as compiled kernels, for the compiled search and playout.

    Called by the search bot before a decision it searches without a budget:
    with an answer, the whole decision is one call of compiled code
    (:mod:`treehouse.kernel.fast.compiled_search`), the same values as the search
    over the hooks gives, bit for bit.  Called by the playtest before a
    chunk of games between random seats (a long run, or where the core is
    loaded already): with an answer that has a ``playout``, the chunk is
    played in one call (:mod:`treehouse.playtest.compiled_playout`), the
    same games and summaries as the engine gives.

    :param state: the position the decision is taken in.
    :param step: the step being played (never a setup step).
    :returns: a :class:`~treehouse.kernel.fast.compiled_game.CompiledGame`: the
        generic search bound to six kernels over the variant's integer
        encoding (whose turn and whether the step rolls, the legal choices,
        a choice played with its outcome, the next step, the evaluation,
        many choices played and evaluated in one call),
        their tables, and how positions and moves are encoded; optionally a
        :class:`~treehouse.kernel.fast.compiled_game.Playout` (the turn's end and
        ``treehouse_step_statistics`` as two more kernels, the outcome's
        words, and the playout bound to the seven).  They must play exactly as the hooks do.  A variant answers only while it alone
        answers every hook of a turn
        (:meth:`~treehouse.kernel.hooks.GameHooks.variant_alone`) and its
        compiled core is in use; otherwise ``None`` (the kernel's answer),
        and the search plays through the hooks.  First result.
    """
