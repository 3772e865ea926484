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
a game reaching the rule set's turn cap is truncated with rewards 0.
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

from treehouse.config import resolve
from treehouse.errors import TreehouseError
from treehouse.interop.actions import Actions, Observation
from treehouse.interop.rules import house_rule_list
from treehouse.interop.flow import CHANCE, DECISION, TERMINAL, GameFlow, Node, returns
from treehouse.plugins import Plugins, load_plugins

#: The largest number an observation may hold: counts (turns, checks) are unbounded,
#: so the bound is float32's largest, finite (an infinite bound makes Gymnasium warn).
OBSERVATION_HIGH = float(np.finfo(np.float32).max)


def _overrides(rules: dict[str, Any]) -> list[str]:
    """Rule options as ``--set`` texts (values read back as YAML, as on the command line)."""
    import yaml

    return [f"{key}={yaml.safe_dump(value, default_flow_style=True).strip().removesuffix('...').strip()}" for key, value in rules.items()]


class TreehouseEnv(AECEnv):
    """One treehouse game as an AEC environment (see the module's docstring)."""

    metadata = {"name": "treehouse_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "classic",
        players: int | None = None,
        render_mode: str | None = None,
        plugins: Plugins | None = None,
        **rules: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TreehouseError(f"render_mode {render_mode!r} is not offered; the one offered is 'ansi'")
        plugins = plugins or load_plugins()
        if "house_rules" in rules:  # a list, or one text as everywhere: "wild-repair(max=1), large-fences-only"
            rules["house_rules"] = house_rule_list(rules["house_rules"])
        try:
            effective = resolve(plugins, variant=variant, overrides=_overrides(rules))
        except TreehouseError as error:  # name the keyword argument, not the command line's --set
            raise type(error)(f"env(...): {str(error).replace('--set: rules.', '').replace('--set: ', '').replace('--set', 'argument')}") from None
        variant_object = effective.variant()
        players = players if players is not None else variant_object.default_players
        self.flow = GameFlow(variant_object, players, effective.house_rule_plugins(plugins), turn_cap=effective.turn_cap)
        self.actions = Actions(self.flow)
        self.observer = Observation(self.flow)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, OBSERVATION_HIGH, (self.observer.size,), np.float32),
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
        """Draw every chance node until a decision or the end (chance lives inside step)."""
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
        self._set_node(self._advance(self.flow.play(self.node, move)))
        if self.node.kind == TERMINAL:
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.actions.size, np.int8)
        if self.node.kind == DECISION and seat == self.node.mover:
            mask[list(self._legal)] = 1
        return {"observation": self.observer.encode(self.node, seat), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.observer.text(self.node)

    def close(self) -> None:
        pass


def raw_env(variant: str = "classic", **kwargs: Any) -> TreehouseEnv:
    """The environment without PettingZoo's checking wrappers."""
    return TreehouseEnv(variant=variant, **kwargs)


def env(variant: str = "classic", **kwargs: Any) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (order enforced, actions bounds-checked)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(variant, **kwargs)))
