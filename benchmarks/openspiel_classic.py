"""The peer reference: classic Treehouse written directly as an OpenSpiel Python game.

Issue 12 compares ``th simulate`` with "the same game written as an OpenSpiel
Python game".  This is that game, written as OpenSpiel's own Python games are
(``kuhn_poker.py``: a ``pyspiel.Game`` and a ``pyspiel.State``, the die an
explicit chance node), over the same successor tables as the bare loop
(:func:`bench_classic_engine.successor_tables`), with no treehouse object in
play: positions are trio indices, actions index the moves a face offers.
The rules are the bare loop's: own trio first, else the House's moves plus a
pass, else the face is rolled again; WILD offers both trios' moves.

Only benchmarks use it (``bench_classic_engine.py``'s ``openspiel game`` row);
it needs the openspiel extra.
"""

from __future__ import annotations

import pyspiel

FACES = ("TIP", "SWAP", "HOP", "DIG", "AIM", "WILD")
WILD = FACES.index("WILD")
PASS = -1  # in a list of moves: the pass
TURN_CAP = 1000
_FACE_CHANCE = [(face, 1.0 / len(FACES)) for face in range(len(FACES))]


def register(tables) -> str:
    """Register the game over ``tables`` (trios, index, successors); its short name."""
    trios, index, table = tables
    from treehouse.variants.classic.trio import HOUSE, TREE

    short_name = "bench_classic_tables"
    most = max(len(row[f]) for row in table for f in range(len(FACES)))
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name="Classic Treehouse over tables (benchmark reference)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=2 * most + 1,
        max_chance_outcomes=len(FACES),
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=10 * TURN_CAP,
    )

    class TablesState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.house, self.own = index[HOUSE], [index[TREE], index[TREE]]
            self.mover, self.turn = 0, 1
            self.face = None  # None: the die is to be rolled (a chance node)
            self.moves = ()  # (target, result) pairs for the face rolled; target 0 own, 1 House; PASS
            self.winner = None
            self.over = False

        def current_player(self):
            if self.over:
                return pyspiel.PlayerId.TERMINAL
            return pyspiel.PlayerId.CHANCE if self.face is None else self.mover

        def chance_outcomes(self):
            return _FACE_CHANCE

        def _legal_actions(self, player):
            return list(range(len(self.moves)))

        def _apply_action(self, action):
            if self.face is None:  # the roll
                mine = table[self.own[self.mover]][action]
                if action == WILD:
                    moves = [(0, r) for r in mine] + [(1, r) for r in table[self.house][action]]
                elif mine:
                    moves = [(0, r) for r in mine]
                else:
                    theirs = table[self.house][action]
                    moves = [(1, r) for r in theirs] + [PASS] if theirs else []
                if moves:  # else the face gives nothing to do: the die is rolled again
                    self.face, self.moves = action, moves
                return
            move = self.moves[action]
            if move != PASS:
                target, result = move
                if target == 0:
                    self.own[self.mover] = result
                else:
                    self.house = result
            if self.own[self.mover] == self.house:
                self.winner, self.over = self.mover, True
            elif self.own[1 - self.mover] == self.house:
                self.winner, self.over = 1 - self.mover, True
            elif self.turn >= TURN_CAP:
                self.over = True
            else:
                self.mover, self.turn = 1 - self.mover, self.turn + 1
            self.face, self.moves = None, ()

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                return FACES[action]
            return str(self.moves[action])

        def is_terminal(self):
            return self.over

        def returns(self):
            if self.winner is None:
                return [0.0, 0.0]
            return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

        def __str__(self):
            return f"{self.house} {self.own} {self.mover}"

    class TablesGame(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self):
            return TablesState(self)

    try:
        pyspiel.register_game(game_type, TablesGame)
    except Exception:  # registered already in this process
        pass
    return short_name


def play(game, games: int, seed: int) -> int:
    """Play ``games`` random-against-random games as an OpenSpiel user does from
    Python (``chance_outcomes``, ``legal_actions``, ``apply_action``); the turns played."""
    import random

    turns = 0
    for game_index in range(games):
        rng = random.Random(seed + game_index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
        turns += state.turn
    return turns
