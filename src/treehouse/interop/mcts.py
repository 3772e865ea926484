"""OpenSpiel's MCTS as a treehouse seat (``--seat 'mcts(simulations=400)'``; docs/bots.md).

The seat searches with :class:`open_spiel.python.algorithms.mcts.MCTSBot` over
the OpenSpiel game of the variant it is seated at
(:mod:`treehouse.interop.openspiel`), built on the running game's own hooks,
so house rules are searched as they are played.  The die is a chance node
(MCTS samples it by its probabilities).  Leaves are valued by random
playouts (``evaluator='random'``: :class:`RolloutEvaluator`, OpenSpiel's
``RandomRolloutEvaluator`` walked on the nodes) or
by the variant's own evaluation (``evaluator='heuristic'``, the
``treehouse_evaluate`` hook squashed to -1..1).

Determinism: each decision seeds a ``numpy`` ``RandomState`` from the seat's
own ``random.Random``, so the same run seed gives the same games whatever the
number of worker processes.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from treehouse.errors import TreehouseError
from treehouse.interop.flow import CHANCE, DECISION, TERMINAL, returns
from treehouse.interop.openspiel import TreehouseGame, game_class

EVALUATORS = ("random", "heuristic")


class RolloutEvaluator(mcts.Evaluator):
    """Random playouts, played as OpenSpiel's ``RandomRolloutEvaluator`` plays
    them (each move uniform among the legal ones, each roll by its
    probability), but walked on the flow's nodes directly: no action ids are
    computed for the moves not taken, which is most of a playout's cost."""

    def __init__(self, game: TreehouseGame, rollouts: int, random_state: np.random.RandomState) -> None:
        self.flow = game.flow
        self.rollouts = rollouts
        self.random_state = random_state

    def evaluate(self, state) -> np.ndarray:
        flow, draw = self.flow, self.random_state
        total = np.zeros(flow.players)
        for _ in range(self.rollouts):
            node = state.node
            while node.kind != TERMINAL:
                if node.kind == DECISION:
                    node = flow.play(node, node.moves[draw.randint(len(node.moves))])
                elif node.kind == CHANCE:
                    # the full die, rolled again where a face leaves nothing to do (as the
                    # engine rolls): the same distribution as the tree's renormalised faces,
                    # without listing every face's moves at every roll of a playout
                    outcomes = flow.chance_outcomes(node)
                    cumulative = np.cumsum([float(p) for _, p in outcomes])
                    index = int(np.searchsorted(cumulative, draw.random_sample() * cumulative[-1], side="right"))
                    node = flow.roll(node, outcomes[min(index, len(outcomes) - 1)][0])
                else:
                    node = flow.set_up(node, draw.randint(flow.layouts))
            total += returns(node.outcome, flow.players)
        return total / self.rollouts

    def prior(self, state) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


class HeuristicEvaluator(mcts.Evaluator):
    """Values a leaf by the variant's ``treehouse_evaluate`` for every seat
    (``tanh(score / scale)``), with uniform priors: no rollout."""

    def __init__(self, game: TreehouseGame, scale: float) -> None:
        self.flow = game.flow
        self.scale = scale

    def evaluate(self, state) -> np.ndarray:
        node = state.node
        if state.is_terminal():
            return np.array(state.returns())
        evaluate = self.flow.hooks.treehouse_evaluate
        return np.array([math.tanh(evaluate(node.position, seat) / self.scale) for seat in range(self.flow.players)])

    def prior(self, state) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


class MCTSSeat:
    """A seat that picks its move with OpenSpiel's MCTS."""

    name = "mcts"

    def __init__(self, simulations: int = 400, uct_c: float = 2.0, rollouts: int = 1, evaluator: str = "random", scale: float = 4.0) -> None:
        if simulations < 1:
            raise TreehouseError(f"mcts: simulations must be at least 1, not {simulations}")
        if rollouts < 1:
            raise TreehouseError(f"mcts: rollouts must be at least 1, not {rollouts}")
        if evaluator not in EVALUATORS:
            raise TreehouseError(f"mcts: evaluator must be one of {', '.join(EVALUATORS)}, not {evaluator!r}")
        if not uct_c > 0 or not scale > 0:
            raise TreehouseError("mcts: uct_c and scale must be positive")
        self.simulations, self.uct_c, self.rollouts, self.evaluator, self.scale = simulations, uct_c, rollouts, evaluator, scale
        self._running: Any = None
        self._spiel: TreehouseGame | None = None

    def seated(self, game: Any, index: int) -> None:
        self._running = game
        self._spiel = None

    def _spiel_game(self) -> TreehouseGame:
        if self._spiel is None:
            running = self._running
            if running is None:
                raise TreehouseError("mcts: the seat must be seated in a game before it is asked to move")
            cls = game_class(running.variant.name)
            params = {key: value for key, value in running.variant.rules.model_dump().items() if key in cls.entry.rules}
            params["players"] = len(running.seats)
            params["house_rules"] = ""  # the running game's hooks carry its house rules
            params["turn_cap"] = running.turn_cap or cls.entry.turn_cap
            self._spiel = cls(params, hooks=running.hooks)
        return self._spiel

    def choose(self, state: Any, step: Any, face: Any, moves: tuple, rng: random.Random) -> Any:
        seed = rng.getrandbits(32)  # drawn even for a forced move, so the stream never depends on timing
        if len(moves) == 1:
            return moves[0]
        game = self._spiel_game()
        turn = getattr(self._running, "turn", 1)
        node = game.flow.at_decision(state, step, face, moves, turn=turn)
        random_state = np.random.RandomState(seed)
        if self.evaluator == "random":
            evaluator = RolloutEvaluator(game, self.rollouts, random_state)
        else:
            evaluator = HeuristicEvaluator(game, self.scale)
        bot = mcts.MCTSBot(game, self.uct_c, self.simulations, evaluator, solve=False, random_state=random_state)
        action = bot.step(game.state_at(node))
        return game.legal(node)[action]
