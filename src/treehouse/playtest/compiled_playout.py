"""The playtest's second tier: games between random seats, played whole in compiled code.

:func:`treehouse.playtest.work.play_game` is the specification: a
:class:`~treehouse.kernel.engine.Game` through the hooks, counted by the
:class:`~treehouse.playtest.work.Observer`.  Where every seat is the
``random`` bot and the variant offers a compiled game with a
:class:`~treehouse.kernel.fast.compiled_game.Playout`, this module plays a
chunk's games in one call of compiled code instead, over the variant's
kernels, and hands back the very summaries the observer would have written:
the same games, because it draws the same numbers.

* **Written once, bound by the variant.** The kernels
  (:mod:`treehouse.kernel.fast.playout_kernels`) know no game: ``games`` takes
  the variant's kernels as its first seven arguments.  The variant binds it
  to them in the module of its kernels, a kernel of one line
  (``Playout.games``; classic's is ``core.playout``), so numba calls them
  directly (through function pointers, a third of a classic game's time
  went to the calls), and the playout is compiled with the variant's core,
  ahead of time where it can be (:mod:`treehouse.kernel.fast.ahead`).
* **The same numbers.** Python's ``random.Random`` is the Mersenne Twister
  (MT19937), written again in the kernels: each game's generator is seeded
  from the key that ``random.Random(f"{seed}:{game}")`` is seeded from
  (:func:`seed_key`), each seat's from the 64 bits ``Game`` draws for it,
  and each number is drawn where the engine and the random bot draw theirs
  (``int(random() * n)``: the fair die's roll, the bot's pick).
* **The same counting.** ``games`` counts faces, decisions, the lead and
  the variant's statistics step by step exactly as the observer's
  ``on_choice`` and ``on_step`` do; tests/playtest/test_compiled_playout.py
  checks the two give equal summaries, game by game, under every option.

It is used only where nothing else could answer differently: no house
rule or plugin answers a hook of the turn, no record is kept, the die is
the kernel's fair one, the setup draws nothing, and the variant's compiled
core is loaded already in this process (for a run long enough to pay for
loading it, :func:`treehouse.playtest.work.run_chunks` loads it first).
This module imports no numba.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any, NamedTuple, Sequence

import numpy as np

from treehouse.bots.random_bot import RandomBot
from treehouse.kernel.fast.compiled_game import INTS, TIMEOUT, WINNERS, LAST_STEP_MOVER, TURNS, DECISIONS, MULTI, LAST_MOVER, LEAD_CHANGES, EVALUATED_STEPS, CompiledGame, hooks_play_out
from treehouse.kernel.die import Die
from treehouse.kernel.engine import MAX_ROLLS_PER_STEP
from treehouse.kernel.turn import Outcome
from treehouse.playtest.aggregate import FACE_COLUMNS, ROLLED, GameSummary


def seed_key(seed: int | str) -> np.ndarray:
    """The 32-bit words (least significant first) of the integer that
    ``random.Random(seed)`` is seeded with, for an ``int`` or ``str`` seed
    (Python's version 2 seeding: a string's bytes and their SHA-512)."""
    if isinstance(seed, str):
        raw = seed.encode()
        seed = int.from_bytes(raw + hashlib.sha512(raw).digest(), "big")
    seed = abs(seed)
    words = max(1, (seed.bit_length() + 31) // 32)
    return np.frombuffer(seed.to_bytes(4 * words, "little"), dtype="<u4").astype(np.int64)


class CompiledPlayout(NamedTuple):
    """A rule set's games of random seats, ready to play compiled (:func:`playout_for`)."""

    game: CompiledGame
    start: np.ndarray
    die: np.ndarray
    faces: tuple[str, ...]
    seats: int
    turn_cap: int
    lead: bool
    statistics: tuple[str, ...]


def playout_for(hooks: Any, variant: Any, seats: Sequence[Any], turn_cap: int | None) -> CompiledPlayout | None:
    """The compiled playout of games of ``variant`` (its game's ``hooks``)
    between ``seats``, its kernels loaded (or compiled, once, saying so), or
    ``None`` where it could play differently from the engine (see the
    module's docstring) or the variant offers none."""
    if not all(type(seat) is RandomBot for seat in seats):
        return None
    if not hooks_play_out(hooks):
        return None
    if not hooks.implementers("treehouse_compiled_game"):
        return None
    die = variant.die
    if type(die) is not Die or die.weights is not None:
        return None
    variant.prepare_compiled()  # nothing once prepared in this process
    probe = random.Random(0)
    drawn = probe.getstate()
    state = hooks.treehouse_setup(variant, len(seats), probe)
    if probe.getstate() != drawn:
        return None  # the setup draws: the games start apart
    step = hooks.treehouse_turn_steps(state)[0]
    game = hooks.treehouse_compiled_game(state, step)
    if game is None or game.playout is None or not all(face in game.faces for face in die.faces):
        return None
    return CompiledPlayout(
        game,
        game.position(state, step),
        np.array([game.faces[face] for face in die.faces], dtype=np.int64),
        die.faces,
        len(seats),
        turn_cap or 0,
        bool(hooks.implementers("treehouse_evaluate")),
        game.playout.statistics if hooks.implementers("treehouse_step_statistics") else (),
    )


def play(playout: CompiledPlayout, seeds: Sequence[int | str]) -> list[GameSummary]:
    """One game from each of ``seeds`` (each game's ``random.Random`` seed),
    summarised as :class:`~treehouse.playtest.work.Observer` summarises it."""
    keys = [seed_key(seed) for seed in seeds]
    starts = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum([key.shape[0] for key in keys], out=starts[1:])
    games, seats, game = len(keys), playout.seats, playout.game
    ints = np.zeros((games, INTS), dtype=np.int64)
    faces = np.zeros((games, len(playout.faces), len(FACE_COLUMNS)), dtype=np.int64)
    counts = np.zeros((games, len(game.playout.statistics)), dtype=np.int64)
    last_not_leading = np.zeros((games, seats), dtype=np.int64)
    stuck = game.playout.games(
        game.tables, playout.start, playout.die,
        np.concatenate(keys) if keys else np.zeros(0, dtype=np.int64), starts,
        seats, playout.turn_cap, int(playout.lead), game.choices,
        ints, faces, counts, last_not_leading,
    )  # fmt: skip
    if stuck >= 0:
        from treehouse.errors import PluginError

        raise PluginError(f"{MAX_ROLLS_PER_STEP} rolls in a row left nothing to play (game seeded {seeds[stuck]!r})")
    summaries = []
    names = playout.statistics
    outcome = game.playout.outcome
    for row, face_rows, tallies, not_leading in zip(ints.tolist(), faces.tolist(), counts.tolist(), last_not_leading.tolist()):
        if row[TIMEOUT]:
            result = Outcome((), "turn cap")
        else:
            result = outcome(row[WINNERS], row[LAST_STEP_MOVER])
        winners, steps = result.winners, row[EVALUATED_STEPS]
        decided = None
        if playout.lead and len(winners) == 1 and steps:
            decided = (steps - not_leading[winners[0]]) / steps
        summaries.append(
            GameSummary(
                winners=winners,
                reason=result.reason,
                timeout=bool(row[TIMEOUT]),
                turns=row[TURNS],
                decisions=row[DECISIONS],
                multi=row[MULTI],
                faces={face: counted for face, counted in zip(playout.faces, face_rows) if counted[ROLLED]},
                counters={name: count for name, count in zip(names, tallies) if count},
                last_mover=None if row[LAST_MOVER] < 0 else row[LAST_MOVER],
                lead_changes=row[LEAD_CHANGES] if playout.lead else None,
                evaluated_steps=steps,
                decided_share=decided,
            )
        )
    return summaries

