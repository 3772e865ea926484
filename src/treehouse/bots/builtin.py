"""The entry-point plugin of the built-in looking-ahead bots (``treehouse.bots.builtin``).

``random`` (strength 0) registers itself in :mod:`treehouse.bots.random_bot`,
and ``perfect`` (strength 30, two-player classic's exact table) is the classic
plugin's (:mod:`treehouse.variants.classic.plugin`).  Strengths rank the
ladder: greedy < search < perfect (docs/bots.md).
"""

from __future__ import annotations

from treehouse.errors import TreehouseError
from treehouse.hookspecs import hookimpl


def greedy():
    """The greedy bot (no options)."""
    from treehouse.bots.greedy import GreedyBot

    return GreedyBot()


def search(depth: int = 0, width: int = 6, nodes: int = 0, seconds: float = 0.0):
    """The search bot: expectimax ``depth`` steps deep (0: 3 for one-step turns, else 2), ``width`` moves per node below the root,
    at most ``nodes`` moves played per decision (0: no limit), ``seconds`` per decision (0: no limit)."""
    from treehouse.bots.search import SearchBot

    return SearchBot(depth=depth, width=width, nodes=nodes, seconds=seconds)


def mcts(simulations: int = 400, uct_c: float = 2.0, rollouts: int = 1, evaluator: str = "random", scale: float = 4.0):
    """OpenSpiel's MCTS through treehouse.interop: ``simulations`` per decision, exploration ``uct_c``,
    leaves valued by ``rollouts`` random playouts (``evaluator='random'``) or the variant's evaluation (``'heuristic'``)."""
    try:
        from treehouse.interop.mcts import MCTSSeat
    except ImportError:
        raise TreehouseError("the mcts bot needs OpenSpiel: pip install 'treehouse[openspiel]'") from None
    return MCTSSeat(simulations=simulations, uct_c=uct_c, rollouts=rollouts, evaluator=evaluator, scale=scale)


def policy(file: str = "", call: str = "", observation: str = "vector"):
    """A trained policy (treehouse.interop.policy): ``file`` a .py file defining ``policy`` or a pickled
    callable, or ``call`` an importable ``module:attribute``; it reads the ``observation`` (vector or planes)."""
    from treehouse.interop.policy import policy_bot

    return policy_bot(file=file, call=call, observation=observation)


# never picked unasked (the ladder, the best bot): it needs file= or call= to exist
policy.ready = lambda variant, players: False


@hookimpl
def treehouse_register_bots(register):
    register("greedy", greedy, "the best position one step ahead, by the variant's evaluation", strength=10)
    register(
        "search",
        search,
        "expectimax with the die as a chance node; options depth=0 (auto), width=6, nodes=0, seconds=0",
        strength=20,
    )
    register(
        "mcts",
        mcts,
        "OpenSpiel's MCTS (the openspiel extra); options simulations=400, uct_c=2.0, rollouts=1, evaluator=random|heuristic",
        strength=15,
    )
    register(
        "policy",
        policy,
        "a trained policy(observation, info) -> action id (docs/interop.md); options file=FILE or call=MODULE:NAME, observation=vector|planes",
        strength=0,
    )
