"""What the looking-ahead bots share: one game's hooks, used to play moves in the head.

:class:`Model` replays the engine's turn flow (:meth:`treehouse.kernel.engine.Game.play_turn`)
through the game's hooks only, so a bot built on it plays any variant,
including a third party's, unchanged: apply, resolve, outcome, end of turn,
the steps of the next turn, and the chance node's exact probabilities
(``treehouse_chance``: a house rule's die is the bots' die too).
"""

from __future__ import annotations

from typing import Any, Sequence

from treehouse.errors import TreehouseError
from treehouse.kernel.engine import PASS, REROLL, Applied, Control, play_move
from treehouse.kernel.fast.compiled_game import LOSS, WIN

#: Scores of finished games, far beyond any evaluation.


class Model:
    """The game as a bot sees it: its hooks, its die, and whether it can evaluate."""

    def __init__(self, game: Any, seat: int) -> None:
        self.hooks = game.hooks
        self.variant = game.variant
        self.seat = seat
        #: The chance node of every rolling step, when only the kernel answers it (the die's).
        self._die = None
        if "treehouse_chance" in getattr(self.hooks, "kernel_only", ()):
            self._die = tuple((face, float(p)) for face, p in game.variant.die.outcomes())
        #: Without a treehouse_evaluate hook, positions still in play all score 0:
        #: a bot then plays for outcomes it can see and nothing else.
        self.can_evaluate = bool(self.hooks.implementers("treehouse_evaluate"))
        #: Does a plugin answer treehouse_look_all_moves (else the moves are listed, then looked at)?
        self._looks_all = bool(self.hooks.implementers("treehouse_look_all_moves"))
        #: Does a plugin offer its game compiled (treehouse_compiled_game), for the compiled search?
        self._compiles = bool(self.hooks.implementers("treehouse_compiled_game"))

    def chance(self, state: Any, step: Any) -> tuple:
        """The chance node before ``step`` (``treehouse_chance``, house rules
        included): ``(face, probability as a float)`` pairs."""
        if self._die is not None:
            return self._die
        return tuple((face, float(p)) for face, p in self.hooks.treehouse_chance(state, step))

    def evaluate(self, state: Any, seat: int) -> float:
        if not self.can_evaluate:
            return 0.0
        score = self.hooks.treehouse_evaluate(state, seat)
        return 0.0 if score is None else float(score)

    def play(self, state: Any, step: Any, move: Any) -> tuple[Any, Any]:
        """The position after ``move`` (applied and resolved) and the outcome, if the game ended.
        A setup step's move is only applied, as the engine's setup phase does."""
        hooks = self.hooks
        if step.setup:  # a setup step is only applied, as the engine's setup phase does
            after = hooks.treehouse_apply_move(state, step, move)
            return (after.state if type(after) is Applied else after), None
        after, _events = play_move(hooks, state, step, move)
        return after, hooks.treehouse_outcome(after, state.to_move)

    def look(self, state: Any, step: Any, face: Any, moves: Sequence, seat: int) -> list[float]:
        """Each move's value to ``seat`` one step ahead: the outcome's score
        (:meth:`outcome_score`) where the move ends the game, else the
        evaluation of the position it leads to.  The board moves are looked at
        in one ``treehouse_look_moves`` call (a compiled core answers it in
        one go); ``REROLL`` is worth the position as it stands, and ``PASS``
        is played like a move."""
        if PASS not in moves and REROLL not in moves:  # the common case, compared in C: no list made
            return self._looked(state, step, face, moves, seat)
        board = [move for move in moves if not isinstance(move, Control)]
        looked = iter(self._looked(state, step, face, board, seat) if board else ())
        values = []
        for move in moves:
            if not isinstance(move, Control):
                values.append(next(looked))
            elif move is REROLL:
                values.append(self.evaluate(state, seat))
            else:
                after, outcome = self.play(state, step, move)
                values.append(self.outcome_score(outcome, seat) if outcome is not None else self.evaluate(after, seat))
        return values

    def look_all(self, state: Any, step: Any, faces: Sequence, seat: int) -> tuple[list[list[float]], int]:
        """For each face of ``faces``, every legal move of ``step`` looked at as
        :meth:`look` does, in the order ``treehouse_legal_moves`` lists them
        (``[]`` when there are none); and how many moves that is in all, bar
        the ``REROLL`` choices (not played).  One ``treehouse_look_all_moves``
        call where a variant answers it."""
        found = self.look_all_at_once(state, step, faces, seat)
        if found is not None:
            return found
        legal, answers, played = self.hooks.treehouse_legal_moves, [], 0
        for face in faces:
            moves = legal(state, step, face)
            if not moves:
                answers.append([])
                continue
            played += len(moves) - sum(1 for move in moves if move is REROLL)
            answers.append(self.look(state, step, face, moves, seat))
        return answers, played

    def look_all_at_once(self, state: Any, step: Any, faces: Sequence, seat: int) -> tuple[list[list[float]], int] | None:
        """:meth:`look_all`'s answer where a variant gives it in one
        ``treehouse_look_all_moves`` call (a compiled core); ``None`` where it
        does not, and the moves are listed and looked at (then a caller may
        look at only as many as it needs)."""
        if not self._looks_all:
            return None
        found = self.hooks.treehouse_look_all_moves(state, step, tuple(faces), seat)
        if found is None:
            return None
        played = 0
        for looks in found:
            played += len(looks.values) - looks.rerolls
        return [self._scored(looks, seat) for looks in found], played

    def compiled_values(self, state: Any, step: Any, moves: Sequence, seat: int, depth: int, width: int) -> tuple[list[float], int] | None:
        """Each of ``moves``' value to ``seat``, searched ``depth`` steps by the
        compiled search (:mod:`treehouse.kernel.fast.compiled_search`, bound to the
        variant's kernels: ``CompiledGame.search``), and the moves it played
        in its head; ``None`` where the variant offers no compiled game
        (``treehouse_compiled_game``), or the die has a face the game does
        not know (then the Python search answers).  The die is this step's
        chance node: a variant offers its game compiled only while every
        rolled step has the same (Fences answers ``treehouse_chance`` for its
        setup's draws alone, which are never searched)."""
        if not self._compiles:
            return None
        game = self.hooks.treehouse_compiled_game(state, step)
        if game is None:
            return None
        die = self._die if self._die is not None else self.chance(state, step)
        faces = [game.faces.get(face, -1) for face, _p in die]
        if -1 in faces:
            return None
        import numpy as np  # only once a variant's compiled core is in use

        counter = np.zeros(1, dtype=np.int64)
        found = game.search(
            game.tables,
            np.array(faces, dtype=np.int64),
            np.array([p for _face, p in die], dtype=np.float64),
            game.position(state, step),
            np.array([game.code(move) for move in moves], dtype=np.int64),
            depth,
            seat,
            width,
            game.choices,
            counter,
        )
        return found.tolist(), int(counter[0])

    def _looked(self, state: Any, step: Any, face: Any, moves: Sequence, seat: int) -> list[float]:
        return self._scored(self.hooks.treehouse_look_moves(state, step, face, moves, seat), seat)

    def _scored(self, looks: Any, seat: int) -> list[float]:
        """A look's values, each move that ends the game scored by its outcome."""
        values = looks.values
        if type(values) is not list:
            values = list(values)  # a plugin's tuple or array: the bots' lists are lists
        elif not looks.outcomes:
            return values  # nothing to score: the look's own list, not a copy
        else:
            values = list(values)
        for index, outcome in looks.outcomes.items():
            values[index] = self.outcome_score(outcome, seat)
        return values

    def remaining_steps(self, state: Any, step: Any) -> tuple:
        """The steps of this turn still to play after ``step`` (the engine fixes
        them at the turn's start; a variant that tracks its step, like Fences,
        lists them from ``step`` on)."""
        steps = tuple(self.hooks.treehouse_turn_steps(state))
        if step in steps:
            return steps[steps.index(step) + 1 :]
        return ()

    def next_turn(self, state: Any) -> tuple[Any, tuple]:
        after = self.hooks.treehouse_end_turn(state)
        return after, tuple(self.hooks.treehouse_turn_steps(after))

    def outcome_score(self, outcome: Any, seat: int) -> float:
        """A finished game for ``seat``: a sole win, a shared win (0), a loss or a draw (0)."""
        winners = outcome.winners
        if seat in winners:
            return WIN if len(winners) == 1 else 0.0
        return LOSS if winners else 0.0


def board_moves(moves: tuple) -> list:
    """The moves that are not control choices."""
    return [m for m in moves if not isinstance(m, Control)]


def pick(best: list, rng) -> Any:
    """One of the equally good moves, drawn from the seat's own seeded stream."""
    if len(best) == 1:
        return best[0]
    return best[int(rng.random() * len(best))]


def require_game(bot: Any) -> Model:
    model = getattr(bot, "model", None)
    if model is None:
        raise TreehouseError(f"the {bot.name} bot must be seated in a game before it chooses (the engine calls seated())")
    return model


__all__ = ["LOSS", "Model", "PASS", "REROLL", "WIN", "board_moves", "pick", "require_game"]
