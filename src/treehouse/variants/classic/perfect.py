"""The ``perfect`` bot: two-player classic Treehouse played from the solved table.

Each legal move is worth the exact probability of winning after it
(:class:`treehouse.variants.classic.solver.Solution`), and the bot plays the best:
a result that matches the House wins outright; declining by ``pass`` is
worth what the position is worth to the opponent, taken from 1; declining by
``reroll`` is worth the position itself.  The table is the one
``th solve`` saves for the rules in force; if it is not cached yet, the bot
solves it first (about a minute of CPU, once) and says so on standard error.

There is no table for other games (Fences, or classic with more than two
players): there the bot plays as the ``search`` bot with its default options,
so that the strongest bot, which ``th play`` seats by default, plays every game.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from treehouse.bots import PASS, REROLL, pick
from treehouse.errors import TreehouseError

#: Values closer than this are the same (the table is exact to about 1e-10).
TIE = 1e-9
#: How long the first solve takes (55 s of one core measured on a shared two-core machine; 30 s on a quiet one).
SOLVE_TIME = "about a minute, once"


class PerfectBot:
    name = "perfect"

    def __init__(self) -> None:
        self.solution = None
        self.fallback = None
        self._index: dict | None = None

    @staticmethod
    def solvable(variant: Any, players: int) -> bool:
        """Is there an exact table for this game at all (two-player classic)?"""
        from treehouse.variants.classic.game import Classic

        return isinstance(variant, Classic) and players == 2

    @classmethod
    def ready(cls, variant: Any, players: int) -> bool:
        """Can it play ``variant`` perfectly right now (two-player classic, its table cached)?
        ``th play`` seats it by default only then: a first solve takes minutes."""
        from treehouse.variants.classic.solver import table_path

        return cls.solvable(variant, players) and table_path(variant.rules).is_file()

    @classmethod
    def from_solution(cls, solution: Any) -> PerfectBot:
        """A bot playing from a given table (a restricted solve, in the tests)."""
        bot = cls()
        bot._use(solution)
        return bot

    def _use(self, solution: Any) -> None:
        self.solution = solution
        self._index = {name: i for i, name in enumerate(solution.game.names)}

    def seated(self, game: Any, index: int) -> None:
        # The table is solved for the plain rules: a house rule (another die, a
        # move filtered out) makes it wrong, so such a game is played as search plays it.
        if not self.solvable(game.variant, len(game.seats)) or getattr(game.hooks, "house_rules", ()):
            # No table exists for this game: play as the search bot does (documented),
            # so that "the strongest bot" still plays every variant.
            from treehouse.bots import SearchBot

            self.fallback = SearchBot()
            self.fallback.seated(game, index)
            return
        self.fallback = None
        if self.solution is not None:
            return
        from treehouse.variants.classic.solver import load_cached, solve_classic, table_path

        solution = load_cached(game.variant.rules)
        if solution is None:
            print(
                f"perfect: solving classic for these rules ({SOLVE_TIME}), saving to {table_path(game.variant.rules)}",
                file=sys.stderr,
            )
            solution = solve_classic(game.variant.rules)
        self._use(solution)

    def move_value(self, state: Any, move: Any) -> float:
        from treehouse.variants.classic.trio import format_trio

        index, solution = self._index, self.solution
        house, trios, me = state
        own, opp, hs = index[format_trio(trios[me])], index[format_trio(trios[1 - me])], index[format_trio(house)]
        if move is PASS:
            return solution.after(own, opp, hs)
        if move is REROLL:
            return solution.value(own, opp, hs)
        result = index[format_trio(move.result)]
        if move.target == "house":
            return solution.after(own, opp, result)
        return solution.after(result, opp, hs)

    @property
    def measure(self) -> str:
        """What :meth:`advise`'s numbers are: exact winning chances, or the search's values."""
        return self.fallback.measure if self.fallback is not None else "winning chance"

    def advise(self, state: Any, step: Any, face: str | None, moves: tuple) -> list[float]:
        """Each move's exact chance of winning for the player to move (``th play``'s hint)."""
        if self.fallback is not None:
            return self.fallback.advise(state, step, face, moves)
        if self.solution is None:
            raise TreehouseError("the perfect bot must be seated in a game before it chooses (the engine calls seated())")
        return [self.move_value(state, move) for move in moves]

    def start_chance(self) -> float:
        """The first player's exact chance of winning from the start."""
        from treehouse.variants.classic.solver import start_value

        return start_value(self.solution)

    def chance(self, state: Any, seat: int) -> float:
        """``seat``'s exact chance of winning from ``state``, a turn about to start (before its roll)."""
        from treehouse.variants.classic.trio import format_trio

        index, solution = self._index, self.solution
        house, trios, to_move = state
        own, opp, hs = index[format_trio(trios[to_move])], index[format_trio(trios[1 - to_move])], index[format_trio(house)]
        value = solution.value(own, opp, hs)
        return value if seat == to_move else 1.0 - value

    def choose(self, state: Any, step: Any, face: str | None, moves: tuple, rng: random.Random) -> Any:
        if self.fallback is not None:
            return self.fallback.choose(state, step, face, moves, rng)
        values = self.advise(state, step, face, moves)
        top = max(values)
        return pick([m for m, v in zip(moves, values) if v >= top - TIE], rng)
