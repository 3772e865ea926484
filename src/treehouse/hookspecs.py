"""Every treehouse hook, each documented as a contract.

There are two kinds of hook, held by two kinds of plugin manager.

**Registration hooks** are answered by the plugins found through the
``treehouse`` entry-point group (the built-in variants use it too).  They are
called once, by :func:`treehouse.plugins.load_plugins`, and hand a
``register`` callback to each plugin, as simonw/llm does.

**Game hooks** make up one turn.  Each game gets its own plugin manager,
holding only the kernel's defaults, the game's variant object and the house
rules its rule set names (:func:`treehouse.plugins.game_hooks`).  The engine
(:mod:`treehouse.kernel.engine`) calls them in this order.  First, once, the
setup phase (only for a variant that has one)::

    treehouse_setup_step            the next setup step, until None
      treehouse_chance, _roll       its chance node (steps that roll)
      treehouse_legal_moves         the moves for that outcome
      treehouse_choose_move         the seat picks one
      treehouse_apply_move          the move's own effect

then, for each step of a turn::

    treehouse_turn_steps            which steps make up this turn
      treehouse_chance              the chance node (steps that roll) ...
      treehouse_roll                ... and one outcome drawn from it
      treehouse_legal_moves         the moves for that face
      treehouse_choose_move         the seat picks one
      treehouse_apply_move          the move's own effect (and what it did)
      treehouse_resolve             what follows from it (hits, damage, ...) and its events
      treehouse_outcome             has anyone won?
    treehouse_end_turn              hand the turn on

Decision hooks are ``firstresult``: the first non-``None`` answer wins, so a
variant overrides the kernel's default (registered ``trylast``) and a house
rule overrides a variant by declaring ``tryfirst=True``.  To change an answer
rather than replace it (filter the legal moves, log, time), write a wrapper:
``@hookimpl(wrapper=True)`` and ``result = yield``.  Among house rules of
the same ``tryfirst``/``trylast`` rank, the one named first in
``house_rules:`` is asked first; two overriding one first-result hook are
warned about when the rule set loads.

All game hooks must be pure: they receive immutable values and return new
ones.  Chance reaches them only through the ``rng`` argument.

A variant may declare hooks of its own (``Variant.hookspecs``, a module or
class of ``@hookspec`` functions, as pytest's ``pytest_addhooks`` adds
them); they join these in each game's manager.
"""

from __future__ import annotations

import pluggy

PROJECT = "treehouse"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --------------------------------------------------------------------------
# Registration hooks (the global plugin manager)
# --------------------------------------------------------------------------


@hookspec
def treehouse_register_variants(register):
    """Register the variants this plugin provides.

    Called once when the plugins are loaded.

    :param register: call ``register(variant_class)`` once per variant, with a
        subclass of :class:`treehouse.kernel.variant.Variant`.  A name or alias
        already taken by another plugin is refused with a one-line problem
        naming both plugins; the first registration stays.
    :returns: nothing.
    """


@hookspec
def treehouse_register_bots(register):
    """Register the bots this plugin provides.

    Called once when the plugins are loaded.

    :param register: call ``register(name, factory, description, strength=0)``,
        where ``factory(**options)`` returns a :class:`treehouse.kernel.seats.Seat`.
        ``name`` is what users type (``--seat random``); ``strength`` ranks
        bots (``random`` is 0), and ``th play`` seats the strongest by default.
        A factory may have ``ready(variant, players) -> bool`` to say it
        cannot play a game well yet (``perfect`` before its table is solved);
        ``th play`` then passes it over when choosing a default.
    :returns: nothing.
    """


@hookspec
def treehouse_register_house_rules(register):
    """Register the house rules this plugin provides.

    Called once when the plugins are loaded.  A house rule changes a rule of
    a variant by implementing game hooks (often as wrappers); a rule set
    turns it on by name, with options in the bots' spec syntax:
    ``house_rules: [large-fences-only, "wild-repair(max=1)"]``.

    :param register: call ``register(name, factory, variants=None,
        options=None, description="", needs=())``:

        * ``factory(variant, options)`` builds the rule's plugin for one
          game's manager: ``variant`` is that game's variant object, with its
          validated ``rules``; ``options`` an instance of ``options`` (or
          ``None`` when the rule takes none).  A class whose ``__init__``
          takes ``(variant, options)`` is a factory.
        * ``variants``: the name of the variant it is written for, several
          names, or ``None`` for any variant that provides the hooks named
          in ``needs`` (a variant's own hooks, say ``treehouse_fences_hits``).
        * ``options``: a pydantic model of the rule's options (frozen, so
          hashable; ``extra="forbid"``; scalar fields), validated when a rule
          set is loaded.
        * ``description``: one line for ``th variants``.

        A name already taken is refused with a one-line problem naming both
        plugins; the first registration stays.
    :returns: nothing.
    """


# --------------------------------------------------------------------------
# Game hooks (one plugin manager per game)
# --------------------------------------------------------------------------


@hookspec(firstresult=True)
def treehouse_setup(variant, players, rng):
    """Build the position a game starts from.

    Called once, when a :class:`treehouse.kernel.engine.Game` is created.

    :param variant: the game's variant object, holding its validated rules.
    :param players: the number of seats, already checked against the
        variant's player counts.
    :param rng: a ``random.Random`` for random setups (Fences' layout); a
        fixed setup ignores it.
    :returns: the initial immutable position, with ``to_move`` the seat that
        plays first.  First result.
    """


@hookspec(firstresult=True)
def treehouse_setup_step(state):
    """The next step of the setup phase, or ``None`` when the setup is over.

    A setup phase is a series of steps before the first turn in which seats
    make choices (Fences: each player draws a small blind and places it).
    The engine asks this hook before the first turn, again after every setup
    step, and stops at the first ``None``.  Each step is played by the seat
    ``state.to_move`` as a turn's step is: its chance node is rolled when the
    step rolls, the seat chooses one of the legal moves, and
    :func:`treehouse_apply_move` plays it, which also says who plays the next
    setup step (``to_move``).  Setup steps are recorded (as turn 0), replayed
    and resumed like any move; they are not resolved, the outcome is not
    checked, and they count as no turn.

    :param state: the position so far.
    :returns: a :class:`~treehouse.kernel.engine.Step` (mark it
        ``setup=True`` so bots and observers can tell), or ``None``.  The
        kernel's default is ``None``: no setup phase.  First result.
    """


@hookspec(firstresult=True)
def treehouse_turn_steps(state):
    """The steps that make up the turn about to be played.

    Called at the start of every turn.

    :param state: the position at the start of the turn.
    :returns: a tuple of :class:`treehouse.kernel.engine.Step`.  The kernel's
        default is one step, ``Step("act", rolls=True)``: roll, then move.
        First result.
    """


@hookspec(firstresult=True)
def treehouse_chance(state, step):
    """The chance node before a step that rolls: what can come up, and how likely.

    Used by the engine (to roll), by the bots that look ahead (their chance
    nodes), by replay (a recorded face must be one of these) and by
    ``th moves``, so a house rule that changes the die (no Wild face, say)
    is honoured everywhere.  A setup step (``step.setup``) may roll too: its
    chance node is what the setup draws (Fences: a small's colour, from
    ``Variant.draws``); a house rule that changes the die leaves those to the
    variant (answer ``None`` for them).

    :param state: the position before the roll.
    :param step: the :class:`~treehouse.kernel.engine.Step` about to be played.
    :returns: a tuple of ``(outcome, probability)`` pairs: outcomes are
        distinct strings (a die's faces, or anything else the step draws,
        such as colours), probabilities positive ``fractions.Fraction``
        values summing to exactly 1.  The kernel's default is
        ``variant.die.outcomes()``.  Must depend on the arguments only.
        First result.
    """


@hookspec(firstresult=True)
def treehouse_roll(state, step, outcomes, rng):
    """Draw one outcome of the chance node (roll the die).

    :param state: the position before the roll.
    :param step: the :class:`~treehouse.kernel.engine.Step` being played.
    :param outcomes: the chance node, as :func:`treehouse_chance` gave it.
    :param rng: the game's dice ``random.Random``; the only source of chance.
    :returns: one of the outcomes.  The kernel's default draws as the die
        does (``die.roll(rng)`` for the die's own chance node, so seeded
        games roll the same).  Replays answer it with the recorded faces.
        First result.
    """


@hookspec(firstresult=True)
def treehouse_legal_moves(state, step, face):
    """List the moves the player to move may make.

    :param state: the position.
    :param step: the step being played.
    :param face: the face rolled, or ``None`` for a step that does not roll.
    :returns: a tuple of distinct, immutable moves, in a fixed order.  No move
        may leave the position unchanged (a pass), except the explicit
        :data:`~treehouse.kernel.engine.PASS` where the rules allow declining.
        An empty tuple on a rolled step means "nothing can be done: roll
        again"; an empty tuple on a step that does not roll skips the step.
        The result must not depend on anything but the arguments, so callers
        may cache it per ``(state, step, face)``.  First result.
    """


@hookspec(firstresult=True)
def treehouse_choose_move(state, step, face, moves, seat, rng):
    """Let the seat to move pick one of the legal moves.

    :param state: the position.
    :param step: the step being played.
    :param face: the face rolled, or ``None``.
    :param moves: the non-empty tuple from :func:`treehouse_legal_moves`.
    :param seat: the :class:`~treehouse.kernel.seats.Seat` to move.
    :param rng: that seat's own ``random.Random``.
    :returns: one element of ``moves``.  The kernel's default asks
        ``seat.choose(...)``; the engine refuses anything not in ``moves``.
        First result.
    """


@hookspec(firstresult=True)
def treehouse_apply_move(state, step, move):
    """Play a move's own effect.

    :param state: the position before the move.
    :param step: the step being played.
    :param move: a legal move (never :data:`~treehouse.kernel.engine.PASS` or
        :data:`~treehouse.kernel.engine.REROLL`: the engine handles those).
    :returns: the new position; or, when resolving needs to know what the
        move did (which pieces it tried to move where, say), an
        :class:`~treehouse.kernel.engine.Applied` ``(state, effect)``: the
        engine passes ``effect`` on to :func:`treehouse_resolve`, so resolve
        never works the move out again.  First result.
    """


@hookspec(firstresult=True)
def treehouse_resolve(state, before, step, move, effect):
    """Resolve what follows from a move: hits, damage, eliminations.

    Called after every step, including a declined one.

    :param state: the position after :func:`treehouse_apply_move`.
    :param before: the position before the move.
    :param step: the step being played.
    :param move: the move played (or :data:`~treehouse.kernel.engine.PASS`).
    :param effect: what the move did, as :func:`treehouse_apply_move` said in
        its :class:`~treehouse.kernel.engine.Applied`; ``None`` when it
        returned a bare position, and for a declined step.
    :returns: the position once every consequence is resolved; or a
        :class:`~treehouse.kernel.engine.Resolved` ``(state, events)`` whose
        ``events`` (a tuple of immutable values, each with a ``describe()``
        giving one line of words) say what happened.  The engine hands the
        events to the game's observer (``th play`` and ``th replay`` print
        them, the playtest counts them) and writes their words into the
        record; nothing derives them again from text.  An event whose
        ``impossible`` attribute is true says the rolled action could not be
        done (the playtest counts it in the face's impossible share); one
        whose ``eliminated`` attribute is a seat (0-based) says that player
        went out (``th play``'s game-over line says how).  A position
        with another seat to move ends the turn there: the engine plays
        none of the turn's remaining steps and does not call
        :func:`treehouse_end_turn` (Fences: a seat that goes out in its own
        step plays no more steps; :func:`~treehouse.kernel.turn.turn_cut_short`).
        The kernel's default returns ``state`` unchanged.  First result.
    """


@hookspec(firstresult=True)
def treehouse_outcome(state, mover):
    """Decide whether the game is over.

    Called after every step.

    :param state: the resolved position.
    :param mover: the seat (0-based) whose step it was; some games award ties
        to the mover.
    :returns: an :class:`~treehouse.kernel.engine.Outcome` when the game is
        over, else ``None`` (which is also the kernel's default).  First result.
    """


@hookspec(firstresult=True)
def treehouse_end_turn(state):
    """Hand the turn to the next seat.

    Called after the last step of a turn that did not end the game (not
    after a step whose :func:`treehouse_resolve` already handed the move on).

    :param state: the position after the turn.
    :returns: the same position with the next seat to move.  First result.
    """


@hookspec(firstresult=True)
def treehouse_explain_illegal(state, step, face, move, moves):
    """Say which rule a move breaks, for a person who typed it where it is not legal.

    Called by ``th play`` (never by the engine) when a typed move reads well
    but is not among the legal moves.

    :param state: the position.
    :param step: the step being played.
    :param face: the face rolled, or ``None`` for a step that does not roll.
    :param move: the move typed (parsed by the variant), not in ``moves``.
    :param moves: the legal moves.
    :returns: one short line naming the rule it breaks ("W3 is occupied",
        "a Pointing Fence cannot move backwards"), or ``None`` when the plugin
        cannot tell (the kernel's default; ``th play`` then says only that the
        move is not legal here).  First result: a house rule that changes
        what is legal may explain its own rule with ``tryfirst=True``.
    """


@hookspec
def treehouse_step_statistics(before, after, step, move, mover, face):
    """Count what a variant's playtest report should add up.

    Called by the playtest runner (never by plain play) after every step.

    :param before: the position before the step.
    :param after: the resolved position after it.
    :param step: the step played.
    :param move: the move played (or :data:`~treehouse.kernel.engine.PASS`).
    :param mover: the 0-based seat whose step it was.
    :param face: the face rolled for the step, or ``None`` for a step that
        does not roll.
    :returns: a dict of counter name to a number to add (``{"house_moves": 1}``),
        or ``None``.  Every plugin's answer is summed, so a house rule can add
        counters of its own.
    """


@hookspec(firstresult=True)
def treehouse_format_move(move):
    """Write a move in the game's notation (for records, ``th play``, messages).

    The variant answers for its own moves (its ``format_move``, registered
    ``trylast``), so a house rule that adds a move kind answers for its own
    moves and returns ``None`` for the others.

    :param move: a legal move (never a control choice: the kernel writes those).
    :returns: its notation; ``parse`` of it must give the move back.  First result.
    """


@hookspec(firstresult=True)
def treehouse_parse_move(text):
    """Read a move written by :func:`treehouse_format_move`.

    :param text: the notation, as typed or recorded.
    :returns: the move, or ``None`` when the text is not a move this plugin
        writes (the next plugin is asked; the variant, asked last, raises a
        :class:`~treehouse.errors.NotationError` saying what it expected).
        First result.
    """


@hookspec(firstresult=True)
def treehouse_describe_move(move):
    """A move in plain words for people (``th play``'s list, ``th replay``).

    :param move: a legal move (never a control choice).
    :returns: one short line; the variant's default is its ``describe_move``
        (by default the notation).  First result.
    """


@hookspec(firstresult=True)
def treehouse_describe_face(face):
    """What a face rolled lets the player do, in plain words (``th play``).

    :param face: an outcome of the chance node (a die face).
    :returns: one short line ("tip an upright stack or piece over, left or
        right"), or ``None``/``""`` for nothing to say.  The variant's
        default is its ``describe_face``.  First result.
    """


@hookspec(firstresult=True)
def treehouse_evaluate(state, seat):
    """Score a position for a seat, for bots that look ahead.

    :param state: the position.
    :param seat: the 0-based seat whose prospects are scored.
    :returns: a number, higher is better for ``seat`` (a won position should
        score above any other).  First result.
    """


@hookspec(firstresult=True)
def treehouse_render(state, console_width):
    """Draw a position for the terminal.

    :param state: the position.
    :param console_width: columns available (at least 40).
    :returns: a ``rich`` renderable (a string works).  First result.
    """


@hookspec(firstresult=True)
def treehouse_render_compact(state, console_width):
    """Draw a position in fewer rows, for a screen short of room.

    ``th play`` and ``th replay`` ask for it when the usual drawing
    (:func:`treehouse_render`) would leave too little of an 80x24 terminal
    for the story of the last turn and a page of moves.  Fences answers
    with a nine-row frame whose Outside squares carry their names, the
    Stacks told in a column beside it.

    :param state: the position.
    :param console_width: columns available (at least 40).
    :returns: a ``rich`` renderable (a string works), or ``None`` (the
        kernel's default: the usual drawing serves).  First result.
    """


@hookspec(firstresult=True)
def treehouse_render_svg(state):
    """Draw a position as a picture, for ``th replay --html``.

    :param state: the position.
    :returns: one ``<svg>`` element as a string (self-contained: no scripts,
        no links out), or ``None`` (the kernel's default: the page shows the
        terminal drawing of :func:`treehouse_render` as text).  First result.
    """
