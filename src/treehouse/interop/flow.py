"""One game as a walk through nodes: the engine's turn, one roll or one decision at a time.

:meth:`treehouse.kernel.engine.Game.play_turn` plays a whole turn in one call,
asking the seats for moves as it goes.  Frameworks such as OpenSpiel and
PettingZoo want the opposite: a value they can hold at every point where chance
or a player acts, and a function from (node, action) to the next node.  This
module is that walk, built from the same game hooks in the same order:

* ``SETUP``: a chance node before the first turn, only for a variant whose
  setup draws from its ``rng`` (Fences deals its Fences and smalls); its
  outcome is the seed of that ``rng``, one of ``layouts`` equally likely;
* ``CHANCE``: a step that rolls; the outcomes and their exact probabilities
  are the game's ``treehouse_chance`` hook, the source the engine rolls from
  (by default the die's :meth:`~treehouse.kernel.die.Die.outcomes`; a
  setup step's is what it draws, Fences: a small's colour).  A face with
  nothing to play leads to the same chance node again, as the engine rolls
  again; :meth:`GameFlow.playable_outcomes` offers only the faces that leave
  something to do, renormalised, so a tree of nodes has no such cycle (what
  the OpenSpiel game offers);
* ``DECISION``: the player to move picks one of the legal moves (``PASS`` and
  ``REROLL`` included where the rules offer them; ``REROLL`` leads back to the
  chance node);
* ``TERMINAL``: an outcome, the turn cap (a draw, as in the engine) or the
  decision cap (a draw; OpenSpiel needs a bound on a game's length).

A step that does not roll and has no legal move is skipped, as the engine
skips it.  The kernel's setup phase (``treehouse_setup_step``: Fences'
draws and placings) comes first, at turn 0, as chance and decision nodes
like a turn's; its moves are applied and not resolved, as the engine does.  Nodes are immutable values; tests/interop prove that walking them
with the engine's dice and seats reproduces :class:`~treehouse.kernel.engine.Game`
exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, NamedTuple, Sequence

from treehouse.errors import PluginError, TreehouseError
from treehouse.kernel.engine import REROLL, Applied, Outcome, Step, play_move, turn_cut_short
from treehouse.kernel.variant import Variant
from treehouse.plugins import game_hooks

SETUP, CHANCE, DECISION, TERMINAL = "setup", "chance", "decision", "terminal"

#: Seeds a random setup is drawn from, unless the game says otherwise.
DEFAULT_LAYOUTS = 1024
#: The most outcomes a chance node may have (OpenSpiel needs a bound); the die has 6.
MAX_OUTCOMES = 32


class Node(NamedTuple):
    """Where a game stands between two actions.  Immutable: frameworks that
    copy states (OpenSpiel's ``clone`` deep-copies) share it instead."""

    kind: str
    position: Any
    #: the steps of this turn still to play, the current one first
    steps: tuple = ()
    #: at a decision: the face rolled for ``steps[0]`` (``None``: the step does not roll)
    face: Any = None
    #: at a decision: the legal moves, in the variant's order
    moves: tuple = ()
    #: the seat whose turn it is (fixed for the whole turn, as in the engine)
    mover: int = 0
    #: turns started so far (the engine's ``Game.turn``)
    turn: int = 0
    #: decisions taken so far
    decisions: int = 0
    outcome: Outcome | None = None

    def __deepcopy__(self, memo: dict) -> Node:
        return self  # an immutable value: a copy is the value itself

    def __copy__(self) -> Node:
        return self

    @property
    def step(self) -> Step | None:
        return self.steps[0] if self.steps else None


class _Watch(random.Random):
    """A ``random.Random`` that notes whether anything drew from it."""

    drawn = False

    def random(self) -> float:
        self.drawn = True
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.drawn = True
        return super().getrandbits(k)


class GameFlow:
    """The nodes of one variant's games, for one player count and rule set.

    ``hooks`` are a running game's (a seat searching from its position);
    by default they are built from ``variant`` and ``house_rules``.
    ``turn_cap`` ends a game still going after that many turns as a draw (the
    engine's rule); ``max_decisions`` ends it as a draw after that many
    decisions (a player who may REROLL could otherwise decide forever).
    """

    def __init__(
        self,
        variant: Variant,
        players: int,
        house_rules: Sequence[Any] = (),
        *,
        turn_cap: int | None = 1000,
        max_decisions: int | None = None,
        layouts: int = DEFAULT_LAYOUTS,
        hooks: Any = None,
    ) -> None:
        lo, hi = variant.player_range()
        if not lo <= players <= hi:
            raise TreehouseError(f"{variant.name} is played by {lo} to {hi} players, not {players}")
        if layouts < 1:
            raise TreehouseError(f"layouts must be at least 1, not {layouts}")
        self.players = players
        self.hooks = hooks if hooks is not None else game_hooks(variant, house_rules)
        # the variant object answering in the game's manager: its notation hooks include the house rules'
        self.variant = getattr(self.hooks, "variant", None) or variant
        self.die = variant.die
        self.turn_cap = turn_cap
        self.max_decisions = max_decisions
        self.layouts = layouts
        self.die_outcomes = self.die.outcomes()
        #: every chance outcome, numbered: the die's faces, then what setup steps draw (``Variant.draws``)
        self.faces = tuple(face for face, _ in self.die_outcomes) + tuple(getattr(variant, "draws", ()))
        self.face_ids = {face: i for i, face in enumerate(self.faces)}
        self.random_setup = self._setup_draws()
        self._moves_memo: tuple[Node | None, dict] = (None, {})

    def _setup_draws(self) -> bool:
        rng = _Watch(0)
        self._call(self.hooks.treehouse_setup, self.variant, self.players, rng)
        return rng.drawn

    def _call(self, hook: Any, *args: Any) -> Any:
        try:
            return hook(*args)
        except TreehouseError:
            raise
        except Exception as error:  # a plugin's bug: name it in one line, as the engine does
            raise self.hooks.blame(error) from error

    # -- the nodes ------------------------------------------------------------

    def initial(self, rng: random.Random | None = None) -> Node:
        """The first node: a ``SETUP`` chance node for a random setup (unless
        ``rng`` is given: then the setup draws from it, as the engine's does)."""
        if self.random_setup and rng is None:
            return Node(SETUP, None)
        position = self._call(self.hooks.treehouse_setup, self.variant, self.players, rng or random.Random(0))
        return self._set_up(position, 0)

    def set_up(self, node: Node, layout: int) -> Node:
        """The node after the setup chance node drew ``layout``."""
        if node.kind != SETUP:
            raise TreehouseError("the game is already set up")
        if not 0 <= layout < self.layouts:
            raise TreehouseError(f"layout {layout} is not one of 0 to {self.layouts - 1}")
        position = self._call(self.hooks.treehouse_setup, self.variant, self.players, random.Random(layout))
        return self._set_up(position, 0)

    def chance_outcomes(self, node: Node) -> tuple[tuple[Any, Fraction], ...]:
        """The outcomes of a chance node with their exact probabilities: the
        game's ``treehouse_chance`` hook (a house rule's die, if one changes it;
        a setup step's draw, such as Fences' smalls)."""
        if node.kind != CHANCE:
            return self.die_outcomes
        return self._call(self.hooks.treehouse_chance, node.position, node.steps[0])

    def playable_outcomes(self, node: Node) -> tuple[tuple[Any, Fraction], ...]:
        """The outcomes of a ``CHANCE`` node that leave something to do, their
        probabilities renormalised to sum to 1.

        The engine rolls again on a face with no legal move, so the face that
        is finally played is distributed exactly so; a framework that walks
        the tree (OpenSpiel's ``expectiminimax``, ``get_all_states``) then
        never meets the cycle "roll, nothing to do, the same chance node"
        (the search bot's ``_chance`` weighs the faces the same way)."""
        hooks = self.hooks
        kept, moves_of, total = [], {}, Fraction(0)
        for face, probability in self.chance_outcomes(node):
            moves = self._call(hooks.treehouse_legal_moves, node.position, node.steps[0], face)
            if moves:
                kept.append((face, probability))
                moves_of[face] = moves
                total += probability
        if not kept:
            raise PluginError(f"variant {self.variant.name}: no outcome of the chance node at {self.variant.format_position(node.position)!r} leaves a move to play")
        self._moves_memo = (node, moves_of)  # roll() takes the face's moves from here
        return tuple((face, Fraction(probability) / total) for face, probability in kept)

    def draw(self, node: Node, rng: random.Random) -> Any:
        """An outcome of the chance node drawn from ``rng`` as the engine draws it (the roll hook)."""
        return self._call(self.hooks.treehouse_roll, node.position, node.steps[0], self.chance_outcomes(node), rng)

    def roll(self, node: Node, face: Any) -> Node:
        """The node after ``face`` was rolled at a ``CHANCE`` node."""
        if node.kind != CHANCE:
            raise TreehouseError(f"no roll is due at a {node.kind} node")
        if not any(outcome == face for outcome, _p in self.chance_outcomes(node)):
            raise TreehouseError(f"{face!r} cannot come up here; the outcomes are {', '.join(str(o) for o, _p in self.chance_outcomes(node))}")
        memo_node, moves_of = self._moves_memo
        moves = moves_of.get(face) if memo_node is node else None
        if moves is None:
            moves = self._call(self.hooks.treehouse_legal_moves, node.position, node.steps[0], face)
        if not moves:
            return node  # nothing to play with this face: roll again (playable_outcomes never offers it)
        return node._replace(kind=DECISION, face=face, moves=tuple(moves))

    def play(self, node: Node, move: Any) -> Node:
        """The node after the player to move chose ``move`` (one of ``node.moves``)."""
        if node.kind != DECISION:
            raise TreehouseError(f"no move is due at a {node.kind} node")
        if move not in node.moves:
            raise TreehouseError(f"{move!r} is not a legal move here")
        decisions = node.decisions + 1
        if move is REROLL:
            after = node._replace(kind=CHANCE, face=None, moves=(), decisions=decisions)
            return self._capped(after)
        hooks, before, step = self.hooks, node.position, node.steps[0]
        if step.setup:  # the setup phase: applied, not resolved (as the engine plays it)
            after = self._call(hooks.treehouse_apply_move, before, step, move)
            after = after.state if type(after) is Applied else after
            return self._capped(self._set_up(after, decisions))
        after, _events = self._call(play_move, hooks, before, step, move)
        outcome = self._call(hooks.treehouse_outcome, after, node.mover)
        if outcome is not None:
            return Node(TERMINAL, after, mover=node.mover, turn=node.turn, decisions=decisions, outcome=outcome)
        if turn_cut_short(before, after):  # the variant ended the turn here: the next begins as it stands
            return self._capped(self._turn_over(after, node.mover, node.turn, decisions))
        return self._capped(self._enter_step(after, node.steps[1:], node.mover, node.turn, decisions))

    def _capped(self, node: Node) -> Node:
        if node.kind != TERMINAL and self.max_decisions is not None and node.decisions >= self.max_decisions:
            return node._replace(kind=TERMINAL, moves=(), outcome=Outcome((), "decision cap"))
        return node

    def _set_up(self, position: Any, decisions: int) -> Node:
        """The node of the next setup step (turn 0), or of turn 1 once the setup is over."""
        step = self._call(self.hooks.treehouse_setup_step, position)
        if step is None:
            return self._begin_turn(position, 0, decisions)
        if step.rolls:
            return Node(CHANCE, position, (step,), None, (), position.to_move, 0, decisions)
        moves = self._call(self.hooks.treehouse_legal_moves, position, step, None)
        return Node(DECISION, position, (step,), None, tuple(moves), position.to_move, 0, decisions)

    def _begin_turn(self, position: Any, turn: int, decisions: int) -> Node:
        steps = tuple(self._call(self.hooks.treehouse_turn_steps, position))
        return self._enter_step(position, steps, position.to_move, turn + 1, decisions)

    def _enter_step(self, position: Any, steps: tuple, mover: int, turn: int, decisions: int) -> Node:
        """The node of the first of ``steps`` that has something to do, ending
        the turn (and starting the next) when none is left."""
        hooks = self.hooks
        while True:
            if not steps:
                return self._turn_over(self._call(hooks.treehouse_end_turn, position), mover, turn, decisions)
            step = steps[0]
            if step.rolls:
                return Node(CHANCE, position, steps, None, (), mover, turn, decisions)
            moves = self._call(hooks.treehouse_legal_moves, position, step, None)
            if moves:
                return Node(DECISION, position, steps, None, tuple(moves), mover, turn, decisions)
            steps = steps[1:]  # a step without a roll and nothing to do is skipped

    def _turn_over(self, position: Any, mover: int, turn: int, decisions: int) -> Node:
        """Turn ``turn`` is over, the next seat to move in ``position``: the
        turn cap's end, or the next turn's first node."""
        if self.turn_cap is not None and turn >= self.turn_cap:
            return Node(TERMINAL, position, mover=mover, turn=turn, decisions=decisions, outcome=Outcome((), "turn cap"))
        return self._begin_turn(position, turn, decisions)

    def at_decision(self, position: Any, step: Step, face: Any, moves: Sequence[Any], turn: int = 1) -> Node:
        """The decision node of a seat asked to choose in a running game: the
        turn's remaining steps are those the variant lists for ``position``
        from ``step`` on (the position records the step, as Fences' does), or
        ``step`` alone where the list does not hold it."""
        steps = tuple(self._call(self.hooks.treehouse_turn_steps, position))
        remaining = steps[steps.index(step):] if step in steps else (step,)
        return Node(DECISION, position, remaining, face, tuple(moves), position.to_move, turn, 0)


def returns(outcome: Outcome | None, players: int) -> list[float]:
    """Zero-sum returns: a win is 1, a loss ``-1/(players-1)``; ``k`` winners
    who tie share the win (``share - 1/players``, scaled so a lone win is 1);
    a draw or an unfinished game is 0 for everyone."""
    if outcome is None or not outcome.winners or len(outcome.winners) == players:
        return [0.0] * players
    share = 1.0 / len(outcome.winners)
    scale = players / (players - 1)
    return [scale * ((share if seat in outcome.winners else 0.0) - 1.0 / players) for seat in range(players)]
