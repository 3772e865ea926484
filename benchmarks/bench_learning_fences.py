"""Learning Fences against ``greedy`` through the Gymnasium adapter, with numpy alone.

Run:  python benchmarks/bench_learning_fences.py [--episodes 2000] [--games 400] [--seeds 0 1 2] [--control-episodes N] [--save FILE]
(needs the gymnasium extra; about 100 CPU seconds a seed with the defaults)

Two-player Fences (the rule set's defaults), the agent against the
``greedy`` bot (``gymnasium.make("treehouse/Fences-v0", opponents=["greedy"])``),
the agent's seat alternating game by game.  Three policies:

* untrained: the learner before any episode (it values every position 0
  but a finished game, so it takes a winning move when one is there and
  otherwise picks at random among the legal moves);
* control: a preference per action id, ignoring the observation (a softmax
  over the legal ids' logits, trained by REINFORCE with a running baseline),
  what reached 0.90 against ``random`` without reading the board;
* learner: a linear value of the board planes (``observation="planes"``:
  the Fences, the Stacks and their colours, Inside and Outside, the scaled
  scalars) of each move's *afterstate*, the position the move leaves
  (``env.unwrapped.afterstate(id)``: the environment's own rules play the
  move in their head, as ``greedy`` does), trained by TD(0) with
  epsilon-greedy exploration; it plays the move whose afterstate it values
  most (``treehouse.interop.policy.AfterstateValue``, which ``--save``
  pickles for ``th simulate --seat 'policy(file=FILE, observation=planes)'``).

Each policy trains for the same number of episodes against ``greedy`` (the
CPU time each used is reported), then plays ``--games`` evaluation games
without exploring or learning, on the same fixed seeds for every policy
(``EVALUATION_SEED + i``).  Win rates with 95% Wilson intervals; a draw (the
turn cap) is not a win.  Everything is seeded: one ``--seeds`` value gives
the same table every time.

The result, the margin the learner must clear over the control, and the
CPU budget are in docs/interop.md ("Learning Fences against greedy");
tests/interop/test_learning.py runs a short version.
"""

from __future__ import annotations

import argparse
import pickle
import time
from typing import Any

import numpy as np

from treehouse.errors import TreehouseError
from treehouse.interop.gymnasium import TreehouseGymEnv
from treehouse.interop.policy import AfterstateValue
from treehouse.playtest.stats import wilson
from treehouse.textfiles import write_atomically

OPPONENT = "greedy"
#: The first seed of the evaluation games (training episodes use the run's seed and up).
EVALUATION_SEED = 10**6
#: The learner's step size and exploration; the control's step size.
ALPHA, EPSILON, CONTROL_RATE = 0.002, 0.1, 0.05


class Table:
    """The two environments (the agent in seat 0 and in seat 1) a policy plays in turn, seeing the board planes."""

    def __init__(self, opponent: str = OPPONENT) -> None:
        self.envs = [TreehouseGymEnv("fences", opponents=[opponent], seat=seat, observation="planes") for seat in (0, 1)]

    def env(self, game: int) -> TreehouseGymEnv:
        return self.envs[game % 2]


class Learner:
    """A linear value of afterstates' board planes (``AfterstateValue``), learned by TD(0) (see the module's docstring)."""

    name = "learner"

    def __init__(self, table: Table, seed: int) -> None:
        env = table.envs[0]
        self.value = AfterstateValue.for_observation(env.observation_space.shape, env.observer.board.shape[0])
        self.rng = np.random.default_rng(seed)

    def episode(self, env: TreehouseGymEnv, seed: int, learn: bool) -> float:
        _observation, info = env.reset(seed=seed)
        weights, previous = self.value.weights, None
        while True:
            ids = info["legal_ids"]
            values, features = self.value.values({**info, "afterstate": env.afterstate})
            if learn and self.rng.random() < EPSILON:
                k = int(self.rng.integers(len(ids)))
            else:
                k = self.value.best(values, self.rng)
            if learn and previous is not None:  # TD(0): the last afterstate towards this one's value
                weights += ALPHA * (values[k] - weights @ previous) * previous
            previous = features[k]
            _observation, reward, terminated, truncated, info = env.step(int(ids[k]))
            if terminated or truncated:
                if learn and previous is not None:
                    weights += ALPHA * (reward - weights @ previous) * previous
                return reward


class Control:
    """A preference per action id, blind to the observation (see the module's docstring)."""

    name = "control"

    def __init__(self, table: Table, seed: int) -> None:
        self.logits = np.zeros(table.envs[0].action_space.n)
        self.rng = np.random.default_rng(seed)
        self.baseline = 0.0

    def episode(self, env: TreehouseGymEnv, seed: int, learn: bool) -> float:
        _observation, info = env.reset(seed=seed)
        taken = []
        while True:
            ids = info["legal_ids"]
            logits = self.logits[ids]
            if learn:
                p = np.exp(logits - logits.max())
                p /= p.sum()
                k = int(self.rng.choice(len(ids), p=p))
                taken.append((ids, p, k))
            else:
                best = np.flatnonzero(logits >= logits.max())
                k = int(best[self.rng.integers(len(best))])
            _observation, reward, terminated, truncated, info = env.step(int(ids[k]))
            if terminated or truncated:
                break
        if learn:  # REINFORCE: the log-probability of each choice, moved by the return over a running baseline
            advantage = reward - self.baseline
            self.baseline += 0.01 * (reward - self.baseline)
            for ids, p, k in taken:
                gradient = -p
                gradient[k] += 1
                self.logits[ids] += CONTROL_RATE * advantage * gradient
        return reward


def train(policy: Any, table: Table, episodes: int, seed: int) -> float:
    """Train for ``episodes``; the CPU seconds it took."""
    began = time.process_time()
    for episode in range(episodes):
        policy.episode(table.env(episode), seed * 10**5 + episode, learn=True)
    return time.process_time() - began


def evaluate(policy: Any, table: Table, games: int) -> int:
    """Wins in ``games`` evaluation games (fixed seeds, seats alternating), no exploring or learning."""
    return sum(policy.episode(table.env(game), EVALUATION_SEED + game, learn=False) > 0 for game in range(games))


def run(seed: int, episodes: int, games: int, control_episodes: int | None = None) -> tuple[list[tuple[str, int, int, int, float]], AfterstateValue]:
    """``(policy, episodes, wins, games, training CPU seconds)`` for the untrained
    learner, the control and the learner (the control trains ``control_episodes``,
    default ``episodes``), and the trained learner's value."""
    table = Table()
    rows = []
    untrained = Learner(table, seed)
    rows.append(("untrained", 0, evaluate(untrained, table, games), games, 0.0))
    for kind, trained in ((Control, control_episodes or episodes), (Learner, episodes)):
        policy = kind(table, seed)
        seconds = train(policy, table, trained, seed)
        rows.append((policy.name, trained, evaluate(policy, table, games), games, seconds))
    return rows, policy.value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000, help="training episodes for each policy (default 2000)")
    parser.add_argument("--games", type=int, default=400, help="evaluation games for each policy (default 400)")
    parser.add_argument("--control-episodes", type=int, default=0, help="the control's training episodes (default: --episodes; more gives it the learner's CPU time)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--save", metavar="FILE", help="pickle the first seed's trained learner (a policy for th simulate --seat 'policy(file=FILE, observation=planes)')")
    args = parser.parse_args()
    print(f"Fences, 2 players, against {OPPONENT}: {args.games} evaluation games each")
    print(f"{'seed':>4}  {'policy':<10}{'episodes':>9}{'wins':>12}{'win rate':>10}{'95% interval':>18}{'training CPU s':>16}")
    for seed in args.seeds:
        began = time.process_time()
        rows, learned = run(seed, args.episodes, args.games, args.control_episodes)
        for name, trained, wins, games, seconds in rows:
            low, high = wilson(wins, games)
            print(f"{seed:>4}  {name:<10}{trained:>9}{f'{wins} / {games}':>12}{wins / games:>10.3f}{f'{low:.3f}-{high:.3f}':>18}{seconds:>16.0f}", flush=True)
        print(f"      seed {seed}: {time.process_time() - began:.0f} CPU s in all", flush=True)
        if args.save and seed == args.seeds[0]:
            write_atomically(args.save, lambda out: pickle.dump(learned, out), TreehouseError, "trained learner")
            print(f"      the learner of seed {seed} saved to {args.save}: th simulate --variant fences --seat 'policy(file={args.save}, observation=planes)' --seat {OPPONENT}")


if __name__ == "__main__":
    main()
