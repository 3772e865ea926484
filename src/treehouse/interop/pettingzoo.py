"""Every variant as a PettingZoo AEC environment (docs/interop.md)::

    from treehouse.interop.pettingzoo import env

    game = env(variant="fences", players=3)
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else game.action_space(agent).sample(mask)
        game.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order).  The action space is
``Discrete`` over the game's action ids (:mod:`treehouse.interop.actions`);
an observation is a dict: ``observation`` (the variant's vector for that
seat, then the face just rolled) and ``action_mask`` (1 for each legal id,
all 0 for an agent not to move).  Chance (the setup's deal, every roll) is
drawn inside ``reset`` and ``step`` from one ``random.Random`` seeded by
``reset(seed=...)``, as the engine draws it.  Rewards come at the end:
:func:`treehouse.interop.flow.returns` (a lone win 1, a loss ``-1/(n-1)``);
a game reaching the rule set's turn cap is truncated with rewards 0.  An
agent whose seat is out (``Variant.seats_out``: Fences' emptied Stack)
terminates at once with a loss's reward and leaves ``agents`` when stepped
with ``None``.  ``house_rules`` is a list of specs or one text of them,
``"wild-repair(max=1), large-fences-only"``; a bad argument is one
:class:`~treehouse.errors.ConfigError` line naming it.  Render modes:
``human`` prints the board as ``th play`` draws it, ``ansi`` returns it
(:mod:`treehouse.interop.drawing`).  ``env(...)`` is wrapped as PettingZoo's
classic games are (an illegal action ends the game as the mover's loss);
``raw_env(...)`` refuses one in a line.  Both pickle and deep-copy.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("PettingZoo is not installed: pip install 'treehouse[pettingzoo]'") from error

from treehouse.errors import TreehouseError
from treehouse.interop.actions import Actions, observer
from treehouse.interop.drawing import RENDER_MODES, check_render_mode, draw
from treehouse.interop.episode import EpisodePickle
from treehouse.interop.flow import CHANCE, DECISION, TERMINAL, GameFlow, Node, returns
from treehouse.interop.rules import configured

#: The two warnings PettingZoo's ``api_test`` gives any environment whose
#: observation is a dict of ``observation`` and ``action_mask`` (PettingZoo's
#: own convention for classic games), and which it spares its own classic
#: games by name (its lists ``env_obs_dicts`` and ``env_obs_space``): every
#: other warning is a fault (the tests and ``treehouse.testing``'s kit).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array": "env_obs_dicts",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete": "env_obs_space",
}
from treehouse.plugins import Plugins, load_plugins


class TreehouseEnv(AECEnv, EpisodePickle):
    """One treehouse game as an AEC environment (see the module's docstring).

    It pickles and deep-copies (:class:`~treehouse.interop.episode.EpisodePickle`):
    its arguments, as PettingZoo's classic games do, and the episode so far."""

    EPISODE = (
        "node", "_legal", "_rng", "agents", "rewards", "_cumulative_rewards", "terminations",
        "truncations", "infos", "agent_selection", "_newly_out", "_skip_agent_selection",
    )

    metadata = {"name": "treehouse_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "classic",
        players: int | None = None,
        render_mode: str | None = None,
        plugins: Plugins | None = None,
        house_rules: Any = None,
        observation: str = "vector",
        **rules: Any,
    ) -> None:
        super().__init__()
        EpisodePickle.__init__(self, variant=variant, players=players, render_mode=render_mode, house_rules=house_rules, observation=observation, **rules)
        check_render_mode("env(...)", render_mode)
        plugins = plugins or load_plugins()
        effective, players = configured("env(...)", variant, players, house_rules, rules, plugins)
        variant_object = effective.variant()
        self.flow = GameFlow(variant_object, players, effective.house_rule_plugins(plugins), turn_cap=effective.turn_cap)
        self.actions = Actions(self.flow)
        self.observer = observer(self.flow, observation, "env(...)")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, self.observer.high, self.observer.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.metadata = {**self.metadata, "name": f"treehouse_{effective.name}_v0"}
        self.node: Node | None = None
        self._legal: dict[int, Any] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game ---------------------------------------------------------------

    def _advance(self, node: Node) -> Node:
        """Draw every chance node until a decision or the end (chance lives inside
        step).  A seat that is out is never asked: its turn ended when it went out."""
        flow = self.flow
        while node.kind == CHANCE:
            node = flow.roll(node, flow.draw(node, self._rng))
        return node

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._rng = random.Random(seed if seed is not None else random.SystemRandom().getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._set_node(self._advance(self.flow.initial(self._rng)))
        if self.render_mode == "human":
            self.render()

    def _set_node(self, node: Node) -> None:
        self.node = node
        if node.kind == TERMINAL:
            self._legal = {}
            capped = node.outcome.reason in ("turn cap", "decision cap")
            for agent, reward in zip(self.possible_agents, returns(node.outcome, self.flow.players)):
                if agent in self.agents:
                    self.rewards[agent] = 0.0 if capped else reward
                    self.terminations[agent] = not capped
                    self.truncations[agent] = capped
                    self.infos[agent] = {"outcome": node.outcome.reason}
            return
        self._legal = self.actions.legal(node)
        self.agent_selection = self.possible_agents[node.mover]
        # A seat that is out (Fences' emptied Stack) can no longer win: it leaves
        # with a loss's reward (what returns() gives every loser).
        for seat in self.flow.variant.seats_out(node.position):
            agent = self.possible_agents[seat]
            if agent in self.agents and not self.terminations[agent]:
                self.terminations[agent] = True
                self.rewards[agent] = -1.0 / (self.flow.players - 1)
                self.infos[agent] = {"outcome": "out"}
                self._newly_out = True

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self._legal.get(int(action)) if action is not None else None
        if move is None:
            raise TreehouseError(f"action {action} is not legal for {agent}; the legal ones are {sorted(self._legal)}")
        self._cumulative_rewards[agent] = 0.0
        for other in self.agents:
            self.rewards[other] = 0.0
        self._newly_out = False
        self._set_node(self._advance(self.flow.play(self.node, move)))
        if self.node.kind == TERMINAL:
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        self._accumulate_rewards()
        if self._newly_out and self.node.kind != TERMINAL:
            self._deads_step_first()  # the agents out step (with None) and leave first
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.actions.size, np.int8)
        if self.node.kind == DECISION and seat == self.node.mover:
            mask[list(self._legal)] = 1
        return {"observation": self.observer.encode(self.node, seat), "action_mask": mask}

    def render(self) -> str | None:
        """The board as ``th play`` draws it and what is pending: printed
        (``human``) or returned as text (``ansi``; treehouse.interop.drawing)."""
        if self.render_mode is None or self.node is None:
            return None
        return draw(self.flow, self.node, self.observer.pending(self.node), self.render_mode)

    def close(self) -> None:
        pass


def raw_env(variant: str = "classic", **kwargs: Any) -> TreehouseEnv:
    """The environment without PettingZoo's checking wrappers."""
    return TreehouseEnv(variant=variant, **kwargs)


def env(variant: str = "classic", **kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are: an action
    outside the mask ends the game with a loss's reward for the agent who
    took it (``TerminateIllegalWrapper``; a loss is ``-1/(players-1)``, as
    everywhere), actions bounds-checked, order enforced."""
    game = raw_env(variant, **kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1.0 / (game.flow.players - 1))
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(game))
