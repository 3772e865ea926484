"""The playtest's second tier: games between random seats, played whole in compiled code.

:func:`treehouse.playtest.work.play_game` is the specification: a
:class:`~treehouse.kernel.engine.Game` through the hooks, counted by the
:class:`~treehouse.playtest.work.Observer`.  Where every seat is the
``random`` bot and the variant offers a compiled game with a
:class:`~treehouse.kernel.compiled_game.Playout`, this module plays a
chunk's games in one call of numba code instead, over the variant's
kernels, and hands back the very summaries the observer would have written:
the same games, because it draws the same numbers.

* **Written once, bound by the variant.** :func:`games` knows no game: it
  takes the variant's kernels as its first seven arguments.  The variant
  binds it to them in the module of its kernels, a cached kernel of one
  line (``Playout.games``; classic's is ``core.playout``), so numba calls
  them directly: through function pointers, as the compiled search calls
  them, a third of a classic game's time went to the calls.

* **The same numbers.** Python's ``random.Random`` is the Mersenne Twister
  (MT19937).  This module writes it again (:func:`_seed`, :func:`_next`,
  :func:`_random`): each game's generator is seeded from the key that
  ``random.Random(f"{seed}:{game}")`` is seeded from, each seat's from the
  64 bits ``Game`` draws for it, and each number is drawn where the engine
  and the random bot draw theirs (``int(random() * n)``: the fair die's
  roll, the bot's pick).
* **The same counting.** :func:`games` counts faces, decisions, the lead
  and the variant's statistics step by step exactly as the observer's
  ``on_choice`` and ``on_step`` do; tests/playtest/test_compiled_playout.py
  checks the two give equal summaries, game by game, under every option.

It is used only where nothing else could answer differently: no house
rule or plugin answers a hook of the turn, no record is kept, the die is
the kernel's fair one, the setup draws nothing, and the variant's compiled
core is loaded already in this process (for a run long enough to pay for
loading it, :func:`treehouse.playtest.work.run_chunks` loads it first).
"""

from __future__ import annotations

import hashlib
import inspect
import random
from typing import Any, NamedTuple, Sequence

import numpy as np
from numba import njit

from treehouse.bots.random_bot import RandomBot
from treehouse.kernel import compiled
from treehouse.kernel.compiled import njit_cached
from treehouse.kernel.compiled_game import GOES_ON, NO_FACE, PASS, REROLL, CompiledGame
from treehouse.kernel.die import Die
from treehouse.kernel.engine import MAX_ROLLS_PER_STEP
from treehouse.kernel.turn import Outcome
from treehouse.playtest.aggregate import FACE_COLUMNS, FORCED, IMPOSSIBLE, PASSED, REROLLED, ROLLED, GameSummary

#: MT19937's sizes, as CPython's _randommodule.c has them: the state's words, and the twist's offset.
N, M = 624, 397
MASK = 0xFFFFFFFF

#: About how long a cold compile of the playout takes (the line on first use).
COMPILE_SECONDS = 6.0

#: The columns of each game's whole numbers in :func:`games`' ``ints``.
WINNERS, LAST_STEP_MOVER, TURNS, DECISIONS, MULTI, LAST_MOVER, LEAD_CHANGES, EVALUATED_STEPS, TIMEOUT = range(9)
INTS = 9

#: Hooks that must be the kernel's own for a game of random seats to play
#: as the compiled playout plays it: the die and its roll, the seats' own
#: choice, and no setup phase.
KERNEL_HOOKS = ("treehouse_chance", "treehouse_roll", "treehouse_choose_move", "treehouse_setup_step")
#: Hooks the variant must answer alone, besides those a compiled game stands for.
VARIANT_HOOKS = ("treehouse_setup", "treehouse_step_statistics", "treehouse_evaluate")


@njit_cached
def _unseeded():
    """init_genrand(19650218): where every seeding starts."""
    mt = np.empty(N + 1, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
    return mt


@njit_cached
def _seed(mt, key, start):
    """init_by_array: the state ``random.Random`` seeded with the integer
    whose 32-bit words (least significant first) are ``key``, from ``start``
    (:func:`_unseeded`)."""
    mt[:N] = start[:N]
    i, j = 1, 0
    for _ in range(max(N, key.shape[0])):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525) & MASK)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= key.shape[0]:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ (((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941) & MASK)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[N] = N  # the index of the next word: all N used, so the next draw twists first


@njit_cached
def _next(mt):
    """genrand_uint32: the next 32 random bits.

    genrand_uint32 twists all N words once every N draws.  Word ``k`` of a
    twist reads only words ``k + 1`` and ``k + M`` (mod N), already twisted
    if below ``k``, so twisting each word as it is drawn gives the very same
    words: and a game that draws 150 words of a seat's stream never twists
    the other 474."""
    k = mt[N]
    if k == N:  # all N drawn (as after a seeding): a new twist starts
        k = 0
    # the two words it reads, wrapped by comparisons (numba's %, with Python's sign rule, made a draw twice as slow)
    following = k + 1 if k + 1 < N else 0
    ahead = k + M if k + M < N else k + M - N
    y = (mt[k] & 0x80000000) | (mt[following] & 0x7FFFFFFF)
    y = mt[ahead] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mt[k] = y
    mt[N] = k + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


@njit_cached
def _random(mt):
    """random.random(): 53 random bits as a float in [0, 1)."""
    a = _next(mt) >> 5
    b = _next(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit_cached
def _key(low, high):
    """The key of ``random.Random(high << 32 | low)``: the fewest words the number needs."""
    key = np.empty(2 if high else 1, dtype=np.int64)
    key[0] = low
    if high:
        key[1] = high
    return key


@njit_cached
def _seat_key(mt):
    """The key of ``random.Random(rng.getrandbits(64))``, the seat's own
    stream (``Game``): getrandbits fills the low word first."""
    low = _next(mt)
    return _key(low, _next(mt))


@njit(inline="always")  # into each variant's binding (Playout.games), which numba caches: the kernels become direct calls
def games(status, legal, play, advance, evaluate, turn_ends, tally, tables, start, die, keys, key_starts, seats, turn_cap, lead, choices, ints, faces, counts, last_not_leading):
    """Over a variant's kernels (the compiled game's five, then the
    playout's ``turn_ends`` and ``tally``), play one game per key (``keys[key_starts[g]:key_starts[g + 1]]``) from
    ``start``, every seat random, and count each as the observer does:
    ``ints[g]`` (the columns above), ``faces[g, i]`` die face ``i``'s
    :data:`~treehouse.playtest.aggregate.FACE_COLUMNS`, ``counts[g]`` the
    tallies, ``last_not_leading[g, seat]`` (with ``lead``).  ``die`` holds
    each face's number for ``legal``; ``turn_cap`` 0 for none.  Returns -1,
    or the first game whose step rolled too often with nothing to play."""
    codes = np.empty(choices, dtype=np.int64)
    unseeded = _unseeded()
    mt = np.empty(N + 1, dtype=np.int64)
    seat_mts = np.empty((seats, N + 1), dtype=np.int64)
    scores = np.empty(seats)
    for g in range(key_starts.shape[0] - 1):
        _seed(mt, keys[key_starts[g] : key_starts[g + 1]], unseeded)
        for seat in range(seats):  # each seat's stream is drawn first (Game.__init__)
            _seed(seat_mts[seat], _seat_key(mt), unseeded)
        row, face_counts, mine, not_leading = ints[g], faces[g], counts[g], last_not_leading[g]
        position = start.copy()
        after = np.empty_like(position)
        pending, pending_face = False, -1
        leader = row[LAST_MOVER] = -1
        turn = 0
        at = status(tables, position)
        while True:  # Game._play_turns: a turn, step by step
            mover = at >> 1
            turn += 1
            winners = GOES_ON
            while True:
                rolls = at & 1
                rolled = 0
                chosen = REROLL  # none yet
                while True:  # the engine's roll_and_choose, with Observer.on_choice
                    face = -1
                    number = NO_FACE
                    if rolls:
                        face = int(_random(mt) * die.shape[0])
                        number = die[face]
                    n = legal(tables, position, number, codes)
                    if pending and pending_face >= 0:  # the choice before this one was a REROLL
                        face_counts[pending_face, REROLLED] += 1
                    if face >= 0:
                        face_counts[face, ROLLED] += 1
                    if n == 0:
                        pending = False
                        if face >= 0:
                            face_counts[face, IMPOSSIBLE] += 1
                    else:
                        row[DECISIONS] += 1
                        if n > 1:
                            row[MULTI] += 1
                        elif face >= 0:
                            face_counts[face, FORCED] += 1
                        pending, pending_face = True, face
                        chosen = codes[int(_random(seat_mts[mover]) * n)]  # RandomBot.choose
                        if chosen != REROLL:
                            break
                    if n == 0 and not rolls:
                        break  # a step without a roll had nothing to do
                    rolled += 1
                    if rolled == MAX_ROLLS_PER_STEP:
                        return g
                if chosen != REROLL:  # the step is played: Observer.on_step
                    winners = play(tables, position, chosen, after)
                    if pending_face >= 0 and chosen == PASS:
                        face_counts[pending_face, PASSED] += 1
                    pending, pending_face = False, -1
                    row[LAST_MOVER] = mover
                    tally(tables, position, chosen, mine)
                    if lead:  # Observer._track_lead
                        for seat in range(seats):
                            scores[seat] = evaluate(tables, after, seat)
                        row[EVALUATED_STEPS] += 1
                        steps = row[EVALUATED_STEPS]
                        best, leading = scores[0], 0
                        for seat in range(1, seats):
                            if scores[seat] > best:
                                best, leading = scores[seat], seat
                        for seat in range(seats):
                            if seat != leading and scores[seat] == best:
                                leading = -1  # a tie for the lead: nobody leads
                                break
                        if leading >= 0:
                            if leading != leader:
                                if leader >= 0:
                                    row[LEAD_CHANGES] += 1
                                leader = leading
                            for seat in range(seats):
                                if seat != leading:
                                    not_leading[seat] = steps
                        else:
                            not_leading[:] = steps
                    position, after = after, position
                    if winners != GOES_ON:
                        break
                last = turn_ends(tables, position)
                advance(tables, position, after)
                position, after = after, position
                at = status(tables, position)
                if last:
                    break
            if winners != GOES_ON:
                row[WINNERS] = winners
                row[LAST_STEP_MOVER] = mover
                break
            if turn_cap and turn >= turn_cap:
                row[TIMEOUT] = 1
                break
        row[TURNS] = turn
    return -1


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
    if not set(KERNEL_HOOKS) <= hooks.kernel_only or not hooks.variant_alone(*VARIANT_HOOKS):
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
    playout = CompiledPlayout(
        game,
        game.position(state, step),
        np.array([game.faces[face] for face in die.faces], dtype=np.int64),
        die.faces,
        len(seats),
        turn_cap or 0,
        bool(hooks.implementers("treehouse_evaluate")),
        game.playout.statistics if hooks.implementers("treehouse_step_statistics") else (),
    )
    binding = game.playout.games
    sources = (__file__, inspect.getsourcefile(binding.py_func))
    name = f"playout-{variant.name}"
    compiled.prepare(name, sources, COMPILE_SECONDS, lambda: warm(playout), "playout of random seats", rebuilt=(binding,))
    return playout


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


def warm(playout: CompiledPlayout) -> None:
    """Play one game (numba loads the playout from its cache, or compiles it)."""
    play(playout, ["warm"])
