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

    def _reroll(self, state: Any, step: Any, seat: int) -> float:
        model = self.model
        total = weight = 0.0
        for face, p in model.chance(state, step):
            moves = board_moves(model.hooks.treehouse_legal_moves(state, step, face) or ())
            if not moves:
                continue
            total += p * max(model.look(state, step, face, moves, seat))
            weight += p
        return total / weight if weight else model.evaluate(state, seat)

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        model = require_game(self)
        seat = state.to_move
        values = model.look(state, step, face, moves, seat)
        if any(move is REROLL for move in moves):
            values = [self._reroll(state, step, seat) if move is REROLL else value for move, value in zip(moves, values)]
        best_score = max(values)
        return pick([move for move, value in zip(moves, values) if value == best_score], rng)
