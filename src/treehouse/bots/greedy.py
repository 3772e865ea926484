"""The ``greedy`` bot: the best position one step ahead, by the variant's own evaluation.

For each legal move it plays the move in its head (apply, resolve, outcome
through the game's hooks) and scores the result with the
``treehouse_evaluate`` hook for its own seat; a move that ends the game is
scored by the outcome (a win above everything, a loss below).  It knows the
face it rolled, and looks no further: not at the opponents' replies, not at
the next roll.  Declining by ``reroll`` is worth the average, over the faces,
of the best move each face would offer.  Equally good moves are told apart by
the seat's own seeded random stream, so a game replays exactly from its seed.
"""

from __future__ import annotations

import random
from typing import Any

from treehouse.bots.lookahead import REROLL, Model, board_moves, pick, require_game


class GreedyBot:
    name = "greedy"

    def __init__(self) -> None:
        self.model: Model | None = None

    def seated(self, game: Any, index: int) -> None:
        self.model = Model(game, index)

    def score(self, state: Any, step: Any, move: Any, seat: int) -> float:
        model = self.model
        if move is REROLL:
            return self._reroll(state, step, seat)
        after, outcome = model.play(state, step, move)
        if outcome is not None:
            return model.outcome_score(outcome, seat)
        return model.evaluate(after, seat)

    def _reroll(self, state: Any, step: Any, seat: int) -> float:
        model = self.model
        total = weight = 0.0
        for face, p in model.chance(state, step):
            moves = board_moves(model.hooks.treehouse_legal_moves(state, step, face) or ())
            if not moves:
                continue
            total += p * max(self.score(state, step, m, seat) for m in moves)
            weight += p
        return total / weight if weight else model.evaluate(state, seat)

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        require_game(self)
        seat = state.to_move
        best, best_score = [], None
        for move in moves:
            value = self.score(state, step, move, seat)
            if best_score is None or value > best_score:
                best, best_score = [move], value
            elif value == best_score:
                best.append(move)
        return pick(best, rng)
