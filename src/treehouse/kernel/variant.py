"""The base class every variant derives from: declared metadata plus notation.

A variant is a small class (python-chess's ``chess.variant`` is the model):
its name and aliases, a one-line description, the player counts, the die, and
a pydantic model of its rule options.  An instance holds one validated set of
rules and is itself the plugin that answers a game's hooks; see
:mod:`treehouse.hookspecs`.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, ConfigDict

from treehouse.errors import TreehouseError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.die import TREEHOUSE_DIE, Die


class Rules(BaseModel):
    """Base of every variant's rule options: frozen, unknown keys are errors, and
    values are strict (a boolean is ``true``/``false``, not ``1`` or ``"yes"``;
    a whole number is not ``true`` or ``"3.0"``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Variant:
    """One game.  Subclasses set the class attributes and implement the hooks."""

    #: What users type after ``--variant``.
    name: ClassVar[str]
    #: Other names that find this variant.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: One line for ``th variants``.
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: Players when the user does not say.
    default_players: ClassVar[int] = 2
    #: How strongly the variant offers itself to a command that names none
    #: (``th play``): the highest rank is started; ties go by name.
    default_rank: ClassVar[int] = 0
    #: The fast tier (docs/rules/tiers.md; kernel/fast/gate.py): the hooks
    #: without which a compiled core answers no look (none: no fast tier) ...
    FAST_HOOKS: ClassVar[tuple[str, ...]] = ()
    #: ... and, per hook, the form of house rule the core takes in.
    FAST_FORMS: ClassVar[dict[str, Any]] = {}
    die: ClassVar[Die] = TREEHOUSE_DIE
    #: What the variant's setup steps may draw besides the die's faces (Fences:
    #: the colours of the smalls), so frameworks that number every chance
    #: outcome (OpenSpiel) can.  Empty when the setup draws nothing.
    draws: ClassVar[tuple[str, ...]] = ()
    #: The pydantic model of the rule options (``extra="forbid"``).
    Rules: ClassVar[type[Rules]] = Rules
    #: Hook specifications of the variant's own (a module or class of
    #: ``@hookspec`` functions named ``treehouse_...``), added to each game's
    #: plugin manager beside the kernel's, as pytest's ``pytest_addhooks``
    #: does: house rules may implement them.  ``None``: only the kernel's.
    hookspecs: ClassVar[Any] = None

    def __init__(self, rules: Rules | dict[str, Any] | None = None) -> None:
        if rules is None:
            rules = self.Rules()
        elif isinstance(rules, dict):
            rules = self.Rules(**rules)
        self.rules = rules
        self._hooks = None

    # -- the game hooks this object answers in ------------------------------

    def bind_hooks(self, hooks: Any) -> None:
        """Called once by :func:`treehouse.kernel.hooks.game_hooks` when this
        object joins a game's plugin manager (a fresh object per manager)."""
        self._hooks = hooks

    @property
    def hooks(self) -> Any:
        """The :class:`~treehouse.kernel.hooks.GameHooks` of the manager this
        object answers in, house rules included: how a variant calls its own
        hooks (``self.hooks.treehouse_fences_hits(...)``).  A variant object
        outside any game gets a manager of its own rules and no house rules."""
        hooks = getattr(self, "_hooks", None)
        if hooks is None:
            from treehouse.kernel.hooks import game_hooks

            hooks = self._hooks = game_hooks(self)
        return hooks

    def player_range(self) -> tuple[int, int]:
        """The allowed player counts under these rules (a rule set may widen them)."""
        return self.min_players, getattr(self.rules, "max_players", self.max_players)

    def players_in(self, state) -> int | None:
        """How many seats ``state`` is a position for, so a record whose start
        names another number of seats is refused as damaged (``th replay``,
        ``th play --resume``).  Default ``None``: not known, not checked."""
        return None

    # -- notation: ``parse(format(x)) == x`` must hold for positions and moves --

    def format_position(self, state) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement format_position")

    def parse_position(self, text: str):
        raise NotImplementedError(f"{type(self).__name__} must implement parse_position")

    def format_move(self, move) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement format_move")

    def parse_move(self, text: str):
        raise NotImplementedError(f"{type(self).__name__} must implement parse_move")

    def describe_move(self, move) -> str:
        """The move in plain words for people; defaults to its notation."""
        return self.format_move(move)

    def describe_face(self, face: str) -> str:
        """What rolling ``face`` lets a player do, in plain words (``""``: nothing to say)."""
        return ""

    # -- the same, as the game hooks a house rule may answer first ----------
    # The variant answers last (trylast), so a house rule that adds a move
    # kind answers for its own moves and returns None for the rest.

    @hookimpl(trylast=True)
    def treehouse_format_move(self, move):
        return self.format_move(move)

    @hookimpl(trylast=True)
    def treehouse_parse_move(self, text):
        return self.parse_move(text)

    @hookimpl(trylast=True)
    def treehouse_describe_move(self, move):
        return self.describe_move(move)

    @hookimpl(trylast=True)
    def treehouse_describe_face(self, face):
        return self.describe_face(face)

    def split_choice(self, state, move) -> tuple[str, str] | None:
        """For a move a person picks in two questions, ``(first, second)``: the
        words of the first answer (moves with the same first words are one
        choice) and of the second.  Fences splits a WILD move into its action
        and the Stack's order, so 359 moves become about 30 actions, then a few
        orders.  ``None`` (the default): the move is one choice."""
        return None

    def choice_questions(self, face: str | None) -> tuple[str, str]:
        """The two questions of a move :meth:`split_choice` splits, in words, for
        ``th play``: what the first list asks, and what the second does (Fences'
        WILD: "Choose the action; the order comes next.", "Then the order (top
        first)")."""
        return "Choose one; the details come next.", "Then the details"

    def legend(self) -> str:
        """What the symbols of the drawn position mean, for ``th play``'s
        ``?`` (plain text).  Default: nothing."""
        return ""

    def score_unit(self) -> tuple[str, float] | None:
        """What the evaluation (``treehouse_evaluate``) counts in, for hints a
        person reads: ``(name, points per one)``, e.g. Fences' ``("small",
        10.0)``, so a search value reads "about 1.5 smalls ahead".  Default
        ``None``: hints then compare moves in words only (best, close, worse)."""
        return None

    def prepare_compiled(self) -> None:
        """Compile this variant's compiled core, or load it from the cache, now
        rather than at the first look (docs/rules/tiers.md).  ``th play`` calls
        it in the background while the first screen is shown, so no prompt
        waits for a compile.  Default: nothing (a variant with no core)."""

    def compiled_prepared(self) -> bool:
        """Has this process prepared the variant's compiled core already
        (:meth:`prepare_compiled`)?  A caller whose compiled path saves less
        than loading the core costs (about a second: the playtest's random
        seats) takes it only then.  Default ``False``."""
        return False

    def exact_solver(self) -> Any:
        """What ``th solve`` asks of a variant whose game can be solved
        exactly (classic's ``ClassicSolver``: ``refuses(players)``,
        ``solve(use_cache, progress)``, ``start_value(solution)``,
        ``tolerance``); ``None`` where it cannot be."""
        return None

    def action_encoding(self, players: int) -> Any:
        """Every move's integer id for OpenSpiel, PettingZoo and Gymnasium
        (docs/interop.md); ``None``: the moves are numbered as each position lists them."""
        return None

    def observation(self, players: int) -> Any:
        """A position as numbers for one seat, for learners (docs/interop.md);
        ``None``: the generic one, read from the position's fields."""
        return None

    def exact_odds(self, players: int) -> Any:
        """The exact winning chances of a game of ``players`` under these
        rules, where the variant has a solved table for it (``th solve``):
        an object with ``chance(state, seat)`` (a seat's chance from a turn
        about to start), ``move_value(state, move)`` (the mover's chance
        after ``move``) and ``start_chance()`` (the first player's from the
        start).  ``th play --show-odds``, ``th replay`` and the luck-adjusted
        match ask for it.  Raises :class:`~treehouse.errors.TreehouseError`
        saying why there is none (no exact table exists, or it is not made yet)."""
        raise TreehouseError(f"{self.name} has none (th solve makes one for the games it can solve)")

    def hint_reason(self, state, step, face, move, hooks, next_best=None) -> str:
        """Why ``move`` is worth playing, in one short line for ``th play``'s
        hint (no full stop), worked out through the game's ``hooks`` (house
        rules included): Fences says what the move changes for the mover's
        Stack ("leaves the line of M(red) at a2", "keeps yellow on top, facing
        L(yellow) at c3"), classic how far each trio is from the House after
        it.  ``next_best``: the move the hint ranks second (``None`` when it
        ranks none), for a reason that compares (Fences' "a quiet move" says
        what it keeps or avoids against it).  Default ``""``: the hint gives
        no reason."""
        return ""

    def picture_legend(self) -> str:
        """What the symbols of the picture (``treehouse_render_svg``) mean, for
        the replay page (plain text).  Default: nothing."""
        return ""

    def seat_panel(self, state, seat: int) -> list[tuple[str, str]]:
        """What a person wants to know about one seat at a glance, as
        ``(label, value)`` pairs in words (Fences: the Stack's height, its top
        colour, the smalls destroyed, in or out), for the replay page's panel
        per player.  Default: nothing."""
        return []

    def seats_out(self, state) -> tuple[int, ...]:
        """The seats that are out of the game in ``state``: they will not move
        again and cannot win (Fences: a Stack emptied).  PettingZoo's
        environment lets such an agent leave at once.  Default: none."""
        return ()

    def how_to_play(self) -> str:
        """A short how-to-play with this object's rule options in force, for
        ``th play``'s ``r`` above the table of settings.  Default: nothing."""
        return ""

    def move_notes(self, state, step, moves, hooks) -> dict:
        """Warnings to show beside some of ``moves`` in ``th play``'s list
        (Fences: "⚠ you lose 2 smalls" for a move that Damages the mover's
        own Stack), as ``{move: words}``, worked out through the game's
        ``hooks`` (house rules included).  Default: none."""
        return {}

    # -- what ``th show`` and ``th moves`` work on ---------------------------

    def render_text(self, text: str, console_width: int = 80, hooks: Any = None) -> Any:
        """What ``th show`` draws for ``text``: by default a whole position,
        through the ``treehouse_render`` hook of ``hooks`` (the game's, house
        rules included; default: this variant's own)."""
        hooks = hooks if hooks is not None else self.hooks
        drawing = hooks.treehouse_render(self.parse_position(text), console_width)
        if not (isinstance(drawing, str) or hasattr(drawing, "__rich_console__") or hasattr(drawing, "__rich__")):
            raise hooks.wrong_answer("treehouse_render", drawing, "a rich renderable or a string")
        return drawing

    def successors(self, text: str, face: str, hooks: Any = None) -> list[tuple[str, str]]:
        """What ``th moves`` lists: every distinct position that one roll of
        ``face`` leads to from the position ``text``, as ``(notation, words)``
        sorted by notation.  By default: the first rolling step of the turn,
        each legal move applied and resolved (declining is not a position).
        ``hooks`` are the game's (with its house rules; default: this
        variant's own); ``face`` must be an outcome of their chance node."""
        from treehouse.kernel.turn import Control, play_move

        hooks = hooks if hooks is not None else self.hooks
        state = self.parse_position(text)
        steps = [step for step in hooks.treehouse_turn_steps(state) if step.rolls]
        if not steps:
            self.die.face(face)  # still refuse a face that is no face
            return []
        face = chance_outcome(hooks.treehouse_chance(state, steps[0]), face)
        found: dict[str, str] = {}
        for move in legal_moves(hooks, state, steps[0], face):
            if isinstance(move, Control):
                continue
            after, _events = play_move(hooks, state, steps[0], move)
            found.setdefault(self.format_position(after), self.describe_move(move))
        return sorted(found.items())

    #: What ``th moves`` lists: ``False`` (the default), the distinct positions
    #: one roll leads to (:meth:`successors`); ``True``, every move of the step
    #: the position is at (:meth:`step_moves`), for variants whose positions
    #: name their step (Fences).
    lists_step_moves: ClassVar[bool] = False

    def step_moves(self, text: str, face: str | None = None, hooks: Any = None) -> list[StepMove]:
        """Every legal move of the step the position ``text`` is at (the first
        step its turn still has), each applied and resolved: a
        :class:`StepMove` per move, in the variant's order.  For a step that
        rolls, the moves of ``face``, or of every face of its chance node
        when ``face`` is ``None``; a face given for a step that does not roll
        is ignored.  Different moves that lead to the same position stay
        separate rows.  ``hooks`` as in :meth:`successors`."""
        from treehouse.kernel.turn import Applied, Control, play_move

        hooks = hooks if hooks is not None else self.hooks
        state = self.parse_position(text)
        setup = hooks.treehouse_setup_step(state)  # a position in the setup phase: its setup step
        steps = (setup,) if setup is not None else tuple(hooks.treehouse_turn_steps(state))
        if face is not None and face.strip().lower() not in {draw.lower() for draw in self.draws}:
            self.die.face(face)  # refuse a face that is no face (nor a setup's draw), whatever the step
        if not steps:
            return []
        step = steps[0]
        faces: list = [None]
        if step.rolls:
            outcomes = hooks.treehouse_chance(state, step)
            faces = [chance_outcome(outcomes, face)] if face is not None else [outcome for outcome, _p in outcomes]
        rows = []
        for rolled in faces:
            for move in legal_moves(hooks, state, step, rolled):
                if isinstance(move, Control):
                    continue
                if step.setup:  # the setup is applied, not resolved
                    after = hooks.treehouse_apply_move(state, step, move)
                    after = after.state if type(after) is Applied else after
                else:
                    after, _events = play_move(hooks, state, step, move)
                rows.append(StepMove(step.name, rolled, self.format_move(move), self.describe_move(move), self.format_position(after)))
        return rows

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_hooks"] = None  # a game's hooks are rebuilt where the object lands, never pickled
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r})"


class StepMove(NamedTuple):
    """One row of :meth:`Variant.step_moves`: the step, the face rolled
    (``None`` for a step that does not roll), the move's notation and
    words, and the position it leads to once resolved."""

    step: str
    face: str | None
    move: str
    words: str
    position: str


def chance_outcome(outcomes: Any, name: str) -> str:
    """The outcome of a chance node called ``name`` (case-insensitively), or
    an :class:`~treehouse.errors.UnknownNameError` listing the outcomes."""
    from treehouse.errors import unknown

    wanted = name.strip().upper()
    for outcome, _p in outcomes:
        if outcome.upper() == wanted:
            return outcome
    raise unknown("action", name, [outcome.lower() for outcome, _p in outcomes])


def legal_moves(hooks: Any, state: Any, step: Any, face: Any) -> tuple:
    """``treehouse_legal_moves`` for listing moves outside a game (``th moves``):
    an answer that is not a tuple of moves is one line blaming the hook."""
    moves = hooks.treehouse_legal_moves(state, step, face)
    if not isinstance(moves, tuple):
        raise hooks.wrong_answer("treehouse_legal_moves", moves, "a tuple of moves")
    return moves
