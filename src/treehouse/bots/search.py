"""The ``search`` bot: depth-limited expectimax, with the die as a chance node.

Why expectimax and not MCTS: the die has few faces (six) whose exact
probabilities the kernel gives (the ``treehouse_chance`` hook, by default
:meth:`treehouse.kernel.die.Die.outcomes`), so a chance node is an exact weighted average instead of a sample; the search is
deterministic without any random playouts; and it reuses the variant's
``treehouse_evaluate`` at its leaves, where random playouts would be slow in
Python and, in a race like classic, poor judges.  A width limit keeps the
branching of big turns (Fences' WILD) in hand.

How it searches, through the game's hooks only (so it plays any variant):

* a **decision node** is one step of a turn with its face known: each legal
  move is applied and resolved, the outcome checked, and the next step of the
  turn (or the next player's turn) searched; the player to move picks the
  best for them.  With more than two players the search is *paranoid*: every
  opponent is assumed to play against this bot;
* a **chance node** is a step that rolls: the average over the die's faces,
  weighted by their probabilities; faces with nothing to do are rolled again,
  so they drop out and the rest are renormalised;
* ``REROLL`` is worth the chance node of the same step, one level shallower;
* at depth 0, or when a game ends, a position is scored: a win far above
  everything (sooner is better), a loss far below, else the evaluation hook
  for this bot's seat (0 if the variant has none);
* below the root, a node with more than ``width`` moves keeps only the
  ``width`` best by a one-step evaluation (the root always looks at all);
* positions met twice at the same depth are looked up, not searched again;
* choosing (not advising: a hint shows every move's full value), a search
  that looks past its own turn cuts off what cannot change the choice: the
  root's moves are searched best first by a one-step look, and once one
  opponent's reply (or, in the opponent's last rolled step, the faces valued
  so far with this face's worst reply so far) puts a move below the best
  found, the rest of it is skipped.  The best moves and their value are
  exactly the full search's, so is the choice
  (tests/bots/test_search_cutoffs.py); budgeted searches (``nodes``,
  ``seconds``) search in full, as they count what they play;
* at the last step searched every move's value is its one-step look, so such
  a node takes the best one-step look over all its moves (what searching the
  ``width`` best again would give) and evaluates each position once.

Budget: ``depth`` counts decision steps (one classic turn is one step; a
Fences turn is three).  The default, ``depth=0``, chooses at each turn: 3
where the turn is one step (classic: this move, the reply, the next move), 2
where it has several (Fences: the rest of one's own turn).  The search deepens one step at a time up to
``depth``; ``nodes`` (moves played in its head; 0 for no limit) or
``seconds`` (a time limit; not reproducible, so off by default) stop it
early, and the deepest search completed decides (with neither, it searches
``depth`` at once).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Sequence

from treehouse.bots.options import BotOptionError
from treehouse.bots.lookahead import LOSS, REROLL, WIN, Model, pick, require_game
from treehouse.kernel.turn import turn_cut_short


#: The bounds of the options (docs/bots.md): a search without a budget is
#: exponential in ``depth`` (classic at depth 4 takes seconds a game, at 5 minutes
#: a move), so a deep one needs ``nodes`` or ``seconds`` to stop it.
MAX_DEPTH = 5
MAX_DEPTH_BUDGETED = 40
MAX_WIDTH = 64
MAX_NODES = 100_000_000
MAX_SECONDS = 3600.0

#: ``depth=0`` (the default) picks these at the start of the game.
AUTO_DEPTH_ONE_STEP = 3
AUTO_DEPTH_MANY_STEPS = 2


#: No cut-off: every value searched exactly.
NO_BOUND = -math.inf


class _OutOfBudget(Exception):
    pass


class SearchBot:
    name = "search"

    def __init__(self, depth: int = 0, width: int = 6, nodes: int = 0, seconds: float = 0.0) -> None:
        budgeted = bool(nodes or seconds)
        deepest = MAX_DEPTH_BUDGETED if budgeted else MAX_DEPTH
        for option, value, low, high in (
            ("depth", depth, 0, deepest),
            ("width", width, 1, MAX_WIDTH),
            ("nodes", nodes, 0, MAX_NODES),
            ("seconds", seconds, 0, MAX_SECONDS),
        ):
            if not low <= value <= high:  # also refuses nan
                limit = " without a nodes or seconds budget" if option == "depth" and not budgeted else ""
                raise BotOptionError(f"search: {option} is from {low} to {high:,}{limit}, not {value}")
        self.depth, self.width, self.nodes, self.seconds = depth, width, nodes, seconds
        self.model: Model | None = None
        #: Moves played in the head for the last decision, and the depth it completed.
        self.last_nodes = 0
        self.last_depth = 0

    def seated(self, game: Any, index: int) -> None:
        self.model = Model(game, index)

    def depth_for(self, state: Any) -> int:
        """The depth to search the turn ``state`` starts: the ``depth`` option, or
        automatically two full turns' worth where this turn is one step, else the
        rest of one's own turn.  Asked per decision, because a game's turns
        can differ."""
        if self.depth:
            return self.depth
        steps = require_game(self).hooks.treehouse_turn_steps(state)
        return AUTO_DEPTH_ONE_STEP if len(steps) == 1 else AUTO_DEPTH_MANY_STEPS

    # -- the root --
    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        if len(moves) == 1:
            require_game(self)
            return moves[0]
        scores = self._values(state, step, face, moves, prune=True)
        top = max(scores)
        return pick([m for m, s in zip(moves, scores) if s == top], rng)

    #: What :meth:`advise`'s numbers are (``th play``'s hint says it).
    measure = "search value"

    def advise(self, state: Any, step: Any, face: str | None, moves: tuple) -> list[float]:
        """The value of each move to the player to move, from the deepest search
        completed: what :meth:`choose` picks the best of (a hint shows them)."""
        return self._values(state, step, face, moves, prune=False)

    def _values(self, state: Any, step: Any, face: str | None, moves: tuple, prune: bool) -> list[float]:
        """:meth:`advise`'s values; with ``prune`` (for :meth:`choose`), a move
        that cannot be among the best may get a bound instead of its value: a
        number below the best value, as its own value is (see :meth:`_root`)."""
        model = require_game(self)
        self._me = state.to_move
        self._count = 0
        self._deadline = time.perf_counter() + self.seconds if self.seconds else None
        best = [0.0] * len(moves)
        budgeted = bool(self.nodes or self.seconds)
        if getattr(step, "setup", False):  # a setup choice (Fences' placing): judged by the position it makes
            rest, deepest = (), 1
        else:
            rest, deepest = model.remaining_steps(state, step), self.depth_for(state)
            compiled = None if budgeted else model.compiled_values(state, step, moves, self._me, deepest, self.width)
            if compiled is not None:  # the same values, searched in one call of compiled code
                best, self.last_nodes = compiled
                self.last_depth = deepest
                return best
        for depth in range(1 if budgeted else deepest, deepest + 1):
            self._cache: dict = {}
            self._limited = budgeted and depth > 1  # the shallowest search always completes
            try:
                if prune and not budgeted and depth > len(rest) + 1:  # it looks past this turn: an opponent may cut
                    scores = self._root(state, step, face, moves, rest, depth)
                else:
                    scores = [self._move_value(state, step, move, rest, depth) for move in moves]
            except _OutOfBudget:
                break
            best = scores
            self.last_depth = depth
            if max(scores) >= WIN:  # a forced win found: deeper search cannot improve on it
                break
        self.last_nodes = self._count
        return best

    # -- the tree --
    def _tick(self) -> None:
        self._count += 1
        if not self._limited:
            return
        if self.nodes and self._count > self.nodes:
            raise _OutOfBudget
        if self._deadline is not None and self._count % 64 == 0 and time.perf_counter() > self._deadline:
            raise _OutOfBudget

    def _root(self, state: Any, step: Any, face: str | None, moves: tuple, rest: tuple, depth: int) -> list[float]:
        """The root's values, searched with a cut-off (alpha) for the choice only.

        Each move is searched knowing ``alpha``, the best value found so far:
        a move's search returns its exact value when that is at least
        ``alpha``, and otherwise may stop early with a number below ``alpha``
        that is at least its value (an opponent's reply already below
        ``alpha`` is enough: the opponent will not allow more).  The moves with the best
        value, and that value, are then exactly those of the full search, so
        :meth:`choose` picks the same move.  Moves are searched best first by
        a one-step look, so the best is found early and the others cut soon.
        Only a search that looks past this bot's turn can cut (only an
        opponent's reply does), so only that one is ordered."""
        values = self._one_step(state, step, face, moves) if depth > 1 else [0.0] * len(moves)
        order = sorted(range(len(moves)), key=lambda i: -values[i])  # best first; ties in the moves' order
        scores = [0.0] * len(moves)
        alpha = NO_BOUND
        for i in order:
            value = scores[i] = self._move_value(state, step, moves[i], rest, depth, alpha)
            if value > alpha:
                alpha = value
        return scores

    def _move_value(self, state: Any, step: Any, move: Any, rest: tuple, depth: int, alpha: float = -math.inf) -> float:
        """The value (to this bot) of playing ``move`` at ``step``; ``depth`` counts this step.
        With ``alpha``: exact if at least ``alpha``, else any number from the
        value up to below ``alpha`` (see :meth:`_root`)."""
        if move is REROLL:
            return self._chance(state, step, rest, depth - 1) if depth > 1 else self.model.evaluate(state, self._me)
        self._tick()
        after, outcome = self.model.play(state, step, move)
        if outcome is None and turn_cut_short(state, after):  # the variant ended the turn: the next one's steps follow
            rest = tuple(self.model.hooks.treehouse_turn_steps(after))
        return self._after(after, outcome, rest, depth - 1, alpha)

    def _after(self, state: Any, outcome: Any, rest: tuple, depth: int, alpha: float = -math.inf) -> float:
        model, me = self.model, self._me
        if outcome is not None:
            score = model.outcome_score(outcome, me)
            return score + depth if score >= WIN else score - depth if score <= LOSS else score
        if depth <= 0:
            return model.evaluate(state, me)
        if not rest:
            state, rest = model.next_turn(state)
        return self._node(state, rest, depth, alpha)

    def _node(self, state: Any, steps: tuple, depth: int, alpha: float = -math.inf) -> float:
        key = None
        try:
            key = (state, steps, depth)
            cached = self._cache.get(key)
        except TypeError:  # a variant whose positions cannot be hashed: no transpositions
            key, cached = None, None
        if cached is not None:
            return cached
        step, rest = steps[0], steps[1:]
        if step.rolls:
            value = self._chance(state, step, rest, depth, alpha)
        elif depth == 1:  # the last step searched: every move valued by a one-step look, in one call
            (values,) = self._all_one_step(state, step, (None,))
            value = self._best_of(state, values) if values else self._after(state, None, rest, depth, alpha)
        else:
            moves = self.model.hooks.treehouse_legal_moves(state, step, None)
            if moves:
                value = self._decide(state, step, None, moves, rest, depth, alpha)
            else:  # a step without a roll and nothing to do is skipped
                value = self._after(state, None, rest, depth, alpha)
        if key is not None and value >= alpha:  # exact (below alpha it may be a bound)
            self._cache[key] = value
        return value

    def _chance(self, state: Any, step: Any, rest: tuple, depth: int, alpha: float = -math.inf) -> float:
        if depth == 1:
            return self._last_chance(state, step, alpha)
        legal = self.model.hooks.treehouse_legal_moves
        faces = []
        for face, p in self.model.chance(state, step):
            moves = legal(state, step, face)
            if moves:  # else nothing to do: that face is rolled again
                faces.append((p, face, moves))
        values = [self._decide(state, step, face, moves, rest, depth) for _p, face, moves in faces]
        return self._average(state, faces, values)

    def _last_chance(self, state: Any, step: Any, alpha: float) -> float:
        """A chance node at the last step searched: each face's moves valued by
        a one-step look (all of a face's in one call), the face worth the best
        of them for the player to move; knowing ``alpha``, an opponent's
        faces may stop early (:meth:`_replies`)."""
        node = self.model.chance(state, step)
        if alpha != NO_BOUND and state.to_move != self._me:
            return self._replies(state, step, node, alpha)
        looked = self._all_one_step(state, step, [face for face, _p in node])
        # a face with nothing to do is rolled again: it drops out
        faces = [(p, face, values) for (face, p), values in zip(node, looked) if values]
        wide = sum(1 for _p, _face, looked in faces if len(looked) > self.width)
        self._played(wide * self.width)  # as _best_of counts them
        best = max if state.to_move == self._me else min
        return self._average(state, faces, [best(looked) for _p, _face, looked in faces])

    def _average(self, state: Any, faces: list, values: list) -> float:
        """A chance node's value: its faces' values weighted by their probabilities, renormalised."""
        total = weight = 0.0
        for (p, _face, _moves), value in zip(faces, values):
            total += p * value
            weight += p
        return total / weight if weight else self.model.evaluate(state, self._me)

    def _replies(self, state: Any, step: Any, node: Sequence, alpha: float) -> float:
        """An opponent's last searched step, rolled (the chance ``node``),
        knowing ``alpha``: the average of each face's value (the worst of its
        moves' one-step looks for this bot), or, as soon as the average is
        sure to be below ``alpha``, a number below ``alpha``.

        The faces with the fewest moves are valued first; then, move by move
        through the last face, the average can be no more than the faces done
        plus this face's worst look so far.  The margin keeps rounding from
        ever cutting a value that the full search would find equal to ``alpha``.
        Where the variant looks at every face's moves in one call (a compiled
        core), they are all looked at first; otherwise the moves are listed,
        and the last face's looked at one by one, only until the cut (the
        same values: a move's look does not depend on the others')."""
        found = self.model.look_all_at_once(state, step, [face for face, _p in node], self._me)
        if found is None:
            legal = self.model.hooks.treehouse_legal_moves
            faces = [(p, face, moves) for face, p in node for moves in (legal(state, step, face),) if moves]

            def look(face: Any, moves: Sequence) -> list[float]:
                return self._one_step(state, step, face, moves)

            def one_by_one(face: Any, moves: Sequence):
                return (look(face, (move,))[0] for move in moves)
        else:
            looked, played = found
            self._played(played)
            faces = [(p, face, values) for (face, p), values in zip(node, looked) if values]
            look = one_by_one = lambda _face, values: values
        if not faces:  # nothing to do on any face
            return self._average(state, faces, [])
        weight = 0.0
        for p, _face, _moves in faces:
            weight += p
        values: list = [None] * len(faces)
        order = sorted(range(len(faces)), key=lambda i: len(faces[i][2]))
        done, size = 0.0, abs(alpha)
        for i in order[:-1]:
            p, face, moves = faces[i]
            value = values[i] = min(look(face, moves))
            done += p * value
            size = max(size, abs(value))
        last = order[-1]
        p, face, moves = faces[last]
        worst = math.inf
        for value in one_by_one(face, moves):
            if value < worst:
                worst = value
                size = max(size, abs(value))
                bound = (done + p * worst) / weight
                if bound < alpha - (1e-7 + 1e-12 * size):
                    return min(bound, alpha - (1e-7 + 1e-12 * size))
        values[last] = worst
        return self._average(state, faces, values)

    def _best_of(self, state: Any, values: list[float]) -> float:
        """A decision at the last step searched: every move's value is its
        one-step look (_after at depth 0), so the node's value is the best of
        those for the player to move, which is what the width's best few
        would be searched to."""
        if len(values) > self.width:
            self._played(self.width)  # the budget counts the best few as searched again, as it always has
        return max(values) if state.to_move == self._me else min(values)

    def _decide(self, state: Any, step: Any, face: str | None, moves: tuple, rest: tuple, depth: int, alpha: float = -math.inf) -> float:
        mine = state.to_move == self._me
        if depth == 1:
            return self._best_of(state, self._one_step(state, step, face, moves))
        if len(moves) > self.width:
            moves = self._best_few(state, step, face, moves, mine)
        if alpha == NO_BOUND:
            values = [self._move_value(state, step, move, rest, depth) for move in moves]
            return max(values) if mine else min(values)
        if mine:  # the best of the moves, each searched knowing the best so far
            best = NO_BOUND
            for move in moves:
                value = self._move_value(state, step, move, rest, depth, max(alpha, best))
                if value > best:
                    best = value
            return best
        worst = math.inf  # an opponent's: one reply below alpha is enough
        for move in moves:
            value = self._move_value(state, step, move, rest, depth, alpha)
            if value < worst:
                worst = value
                if worst < alpha:
                    break
        return worst

    def _one_step(self, state: Any, step: Any, face: str | None, moves: tuple) -> list[float]:
        """Each move's value to this bot by a one-step look: the outcome's score,
        else the evaluation; all of them in one look (:meth:`Model.look`)."""
        self._played(len(moves) - sum(1 for move in moves if move is REROLL))  # a reroll is not played
        return self.model.look(state, step, face, moves, self._me)

    def _all_one_step(self, state: Any, step: Any, faces: Sequence) -> list[list[float]]:
        """:meth:`_one_step` of every legal move of the step, per face, without
        listing them where the variant can (:meth:`Model.look_all`); ``[]``
        for a face with none."""
        found, played = self.model.look_all(state, step, faces, self._me)
        self._played(played)
        return found

    def _played(self, moves: int) -> None:
        """Count ``moves`` played in the head."""
        if self._limited:
            for _ in range(moves):
                self._tick()  # as if one at a time: the budget runs out at the same move
        else:
            self._count += moves

    def _best_few(self, state: Any, step: Any, face: str | None, moves: tuple, mine: bool) -> list:
        """The ``width`` most promising moves by a one-step look (for the player to move)."""
        scored = [(value if mine else -value, -index, move) for index, (value, move) in enumerate(zip(self._one_step(state, step, face, moves), moves))]
        scored.sort(reverse=True)
        return [move for _v, _i, move in scored[: self.width]]
