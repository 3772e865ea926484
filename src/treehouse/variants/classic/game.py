"""Classic Treehouse as a variant: its position, its moves, and its answers to the game hooks.

A turn (the official rules page; the options are in docs/rules/classic.md):

* roll; if the action can be done to your own trio, you must do it there;
* if not, you may do it to the House, or decline (``house_decline``: ``pass``
  ends the turn, ``reroll`` rolls again, the wiki's reading);
* if it fits neither, roll again;
* WILD: any of the five actions, on your trio or on the House.

After each move: if the mover's trio matches the House, the mover wins;
otherwise one other matching trio wins; several others tie.
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Literal, NamedTuple

from pydantic import Field

from treehouse.errors import IllegalPositionError, NotationError, TreehouseError, unknown
from treehouse.hookspecs import hookimpl
from treehouse.kernel.engine import ONE_ROLLED_STEP, PASS, REROLL, Outcome
from treehouse.kernel.turn import Applied
from treehouse.kernel.variant import Rules, Variant, chance_outcome, legal_moves
from treehouse.variants.classic.actions import ACTIONS, blocked_actions, results, wild_results
from treehouse.variants.classic.fast.looks import GAME_HOOKS, LOOK_ALL_HOOKS, LOOK_HOOKS, core_for
from treehouse.variants.classic.distance import distances_to
from treehouse.variants.first_player import FirstPlayer, first_player_field, first_seat
from treehouse.variants.classic.trio import HOUSE, TREE, Trio, format_trio, mirror, parse_trio, trio_rank

OWN = "own"
HOUSE_TARGET = "house"


class ClassicRules(Rules):
    """The rule options of classic Treehouse (defaults: the official rules page)."""

    dig_in_place: bool = Field(True, description="A lying piece may Dig by standing up where it lies.")
    house_decline: Literal["pass", "reroll"] = Field(
        "pass", description="When the roll fits only the House: decline by passing, or by rolling again (the wiki)."
    )
    mirror_matches: bool = Field(False, description="A left-right mirror image of the House also wins.")
    max_players: int = Field(4, ge=2, le=12, description="The most players allowed (a second set allows more).")
    first_player: FirstPlayer = first_player_field()
    wild_choice: Literal["either", "own_first"] = Field(
        "either",
        description="WILD: either (the official page: 'apply it to your trio or the House'): the chosen action on either trio,"
        " even when it fits your own; own_first (the wiki: 'Choose one of the above', and 'If you can perform the action"
        " on your trio, you must'): the chosen action on your own trio when it fits there, else on the House.",
    )


class ClassicPosition(NamedTuple):
    """The House, every player's trio, and the seat (0-based) to move."""

    house: Trio
    trios: tuple[Trio, ...]
    to_move: int = 0


class _MoveIdentity(NamedTuple):
    target: str
    rank: int  # the result's index among all trios: unequal moves differ here, cheaply
    result: Trio


class ClassicMove(_MoveIdentity):
    """An action played on a trio, known by what the trio becomes.

    Two moves are the same when they act on the same trio (``own`` or
    ``house``) and give the same result; ``action`` and ``words`` only say
    how.  Equality and hashing are the tuple's own, in C, and the result's
    rank comes before the result so that unequal moves are told apart without
    comparing trios piece by piece: the engine checks every chosen move
    against the legal ones.  Notation: ``ACTION RESULT`` or
    ``house:ACTION RESULT``, e.g. ``hop L^/M^ S^`` or ``house:aim L< S^ M^``.
    """

    def __new__(cls, target: str, result: Trio, action: str = "", words: str = "") -> ClassicMove:
        move = super().__new__(cls, target, trio_rank(result), result)
        object.__setattr__(move, "action", action)
        object.__setattr__(move, "words", words)
        return move

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError("moves are immutable")

    def __getnewargs__(self):
        # pickle and copy rebuild a move through __new__, which takes the result, not its rank
        return (self.target, self.result, self.action, self.words)


def format_position(state: ClassicPosition) -> str:
    """``HOUSE :: TRIO | TRIO ... :: N``, N the 1-based seat to move."""
    trios = " | ".join(format_trio(t) for t in state.trios)
    return f"{format_trio(state.house)} :: {trios} :: {state.to_move + 1}"


def parse_position(text: str) -> ClassicPosition:
    parts = text.split("::")
    if len(parts) != 3:
        raise NotationError(f"bad classic position {text!r}: expected 'HOUSE :: TRIO | TRIO ... :: N', e.g. 'L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 1'")
    house = parse_trio(parts[0])
    trios = tuple(parse_trio(t) for t in parts[1].split("|"))
    try:
        to_move = int(parts[2]) - 1
    except ValueError:
        raise NotationError(f"bad seat to move {parts[2].strip()!r} in {text!r}: expected a number from 1 to {len(trios)}") from None
    if not 0 <= to_move < len(trios):
        raise IllegalPositionError(f"seat {to_move + 1} is to move in {text!r}, but there are {len(trios)} trios")
    return ClassicPosition(house, trios, to_move)


def format_move(move: ClassicMove) -> str:
    prefix = "house:" if move.target == HOUSE_TARGET else ""
    return f"{prefix}{move.action.lower()} {format_trio(move.result)}"


def parse_move(text: str) -> ClassicMove:
    head, _, rest = text.strip().partition(" ")
    target, _, action = head.rpartition(":")
    target = target.lower() or OWN
    if target not in (OWN, HOUSE_TARGET):
        raise NotationError(f"bad move {text!r}: a move is 'ACTION TRIO' or 'house:ACTION TRIO', e.g. 'house:aim L< S^ M^'")
    if action.upper() not in ACTIONS:
        raise unknown("action", action, [a.lower() for a in ACTIONS])
    return ClassicMove(target, parse_trio(rest), action.upper())


@lru_cache(maxsize=None)
def action_moves(trio: Trio, action: str, target: str, dig_in_place: bool) -> tuple[ClassicMove, ...]:
    """Every move ``action`` offers on ``trio`` (cached: the moves are values)."""
    if action == "WILD":
        return tuple(ClassicMove(target, r, a, w) for a, r, w in wild_results(trio, dig_in_place))
    return tuple(ClassicMove(target, r, action, w) for r, w in results(trio, action, dig_in_place))


@lru_cache(maxsize=None)
def wild_house_moves(house: Trio, own: Trio, dig_in_place: bool, wild_choice: str) -> tuple[ClassicMove, ...]:
    """A WILD's moves on the House: any action's (``wild_choice: either``), or
    under ``own_first`` only those of the actions that cannot be done to ``own``."""
    if wild_choice == "either":
        return action_moves(house, "WILD", HOUSE_TARGET, dig_in_place)
    actions = blocked_actions(own, dig_in_place)
    return tuple(ClassicMove(HOUSE_TARGET, r, a, w) for a, r, w in wild_results(house, dig_in_place, actions))


def outcome(state: ClassicPosition, mover: int, mirror_matches: bool = False) -> Outcome | None:
    """Who has won: the mover if their trio matches the House; else the one
    other matching trio; several others tie.  ``None`` while nobody matches."""
    house, trios, _ = state
    if mirror_matches:
        image = mirror(house)
        matching = [i for i, trio in enumerate(trios) if trio == house or trio == image]
    elif house not in trios:
        return None
    else:
        matching = [i for i, trio in enumerate(trios) if trio == house]
    if not matching:
        return None
    if mover in matching:
        return Outcome((mover,), "matched the House")
    if len(matching) == 1:
        return Outcome((matching[0],), "matched the House on another player's turn")
    return Outcome(tuple(matching), "tie: several trios matched the House at once")


def _scores(away: list[int]) -> list[float]:
    """Every seat's evaluation from every trio's distance to the House: 100
    once its trio matches, -100 once only an opponent's does, else the
    nearest opponent's distance minus its own."""
    nearest, runner_up = sorted(away)[:2]
    scores = []
    for mine in away:
        theirs = runner_up if mine == nearest else nearest  # the nearest of the others
        scores.append(100.0 if mine == 0 else -100.0 if theirs == 0 else float(theirs - mine))
    return scores


#: The step statistics' three answers, made once (read-only: every step returns one of them).
_PASSED, _HOUSE_MOVE, _OWN_MOVE = (MappingProxyType({name: 1}) for name in ("passes", "house_moves", "own_moves"))

#: What a face of the Treehouse die means in classic Treehouse (``th play`` says it after a roll).
FACE_WORDS = {
    "TIP": "tip an upright stack or piece over, left or right",
    "SWAP": "swap two pieces",
    "HOP": "hop an upright piece, with what is on it, to a gap or onto a stack",
    "DIG": "stand a lying piece up: in place, in a gap, or under a stack",
    "AIM": "aim a single piece another way",
    "WILD": "any of the five actions",
}


class Classic(Variant):
    name = "classic"
    aliases = ("treehouse",)
    default_rank = 1  # offered when no variant is named, after Fences
    #: The hooks without which the compiled core answers no look (kernel/fast/gate.py);
    #: classic's core takes in no house rule answering them.
    FAST_HOOKS = LOOK_HOOKS
    FAST_FORMS: dict = {}
    description = "Race to make your trio of pyramids match the House."
    min_players = 2
    max_players = 4
    Rules = ClassicRules

    # -- notation --
    def players_in(self, state):
        return len(state.trios)

    def format_position(self, state):
        return format_position(state)

    def parse_position(self, text):
        state = parse_position(text)
        lo, hi = self.player_range()
        if not lo <= len(state.trios) <= hi:
            raise IllegalPositionError(f"{len(state.trios)} trios in {text!r}: {self.name} is played by {lo} to {hi} players")
        return state

    def format_move(self, move):
        return format_move(move)

    def parse_move(self, text):
        return parse_move(text)

    def render_text(self, text, console_width=80, hooks=None):
        """``th show`` takes a lone trio (``L< S^ M>``), drawn as a trio (no
        position, so no hook draws it), or a whole position, drawn by the
        game's ``treehouse_render`` (house rules first, then this variant)."""
        from treehouse.variants.classic.render import render_trio

        if "::" in text:
            return super().render_text(text, console_width, hooks)
        return render_trio(parse_trio(text), "Trio", "bold")

    def successors(self, text, face, hooks=None):
        """``th moves`` works on a lone trio: the trios one action can make of it
        (the face must be able to come up with that trio as one's own)."""
        if "::" in text:
            return super().successors(text, face, hooks)
        trio = parse_trio(text)
        hooks = hooks if hooks is not None else self.hooks
        own = ClassicPosition(HOUSE, (trio, TREE), 0)
        face = chance_outcome(hooks.treehouse_chance(own, ONE_ROLLED_STEP[0]), face)
        # the game's legal moves (house rules first), those on one's own trio
        moves = [m for m in legal_moves(hooks, own, ONE_ROLLED_STEP[0], face) if getattr(m, "target", None) == OWN]
        return sorted((format_trio(m.result), m.words) for m in moves)

    def describe_face(self, face):
        """What a face of the Treehouse die lets a player do in classic Treehouse."""
        return FACE_WORDS.get(face, "")

    def describe_move(self, move):
        if not isinstance(move, ClassicMove):
            return str(move)
        return ("house: " if move.target == HOUSE_TARGET else "") + move.words

    # -- game hooks --
    @hookimpl
    def treehouse_setup(self, variant, players, rng):
        return ClassicPosition(HOUSE, (TREE,) * players, first_seat(self.rules.first_player, players, rng))

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        """Own trio first; else the House or a decline; else nothing (reroll).
        WILD: both trios, even when your own would do (``wild_choice: own_first``:
        the House only for the actions your own trio cannot take)."""
        house, trios, to_move = state
        dig_in_place = self.rules.dig_in_place
        mine = action_moves(trios[to_move], face, OWN, dig_in_place)
        if face == "WILD":
            return mine + wild_house_moves(house, trios[to_move], dig_in_place, self.rules.wild_choice)
        if mine:
            return mine
        theirs = action_moves(house, face, HOUSE_TARGET, dig_in_place)
        if not theirs:
            return ()
        return theirs + (PASS if self.rules.house_decline == "pass" else REROLL,)

    @hookimpl
    def treehouse_apply_move(self, state, step, move):
        house, trios, to_move = state
        if move.target == HOUSE_TARGET:
            return ClassicPosition(move.result, trios, to_move)
        changed = list(trios)
        changed[to_move] = move.result
        return ClassicPosition(house, tuple(changed), to_move)

    @hookimpl
    def treehouse_outcome(self, state, mover):
        if state[0] not in state[1] and not self.rules.mirror_matches:
            return None  # nobody matches the House (outcome's first test, inline: after every step)
        return outcome(state, mover, self.rules.mirror_matches)

    @hookimpl
    def treehouse_end_turn(self, state):
        house, trios, to_move = state
        return ClassicPosition(house, trios, (to_move + 1) % len(trios))

    @hookimpl
    def treehouse_explain_illegal(self, state, step, face, move, moves):
        """Which rule a typed move breaks: the roll, the House's turn, or the action itself."""
        if not isinstance(move, ClassicMove):
            return None
        house, trios, to_move = state
        own = trios[to_move]
        if face != "WILD" and move.action != face:
            return f"you rolled {face}, so the action is {face}, not {move.action}"
        own_moves = action_moves(own, face, OWN, self.rules.dig_in_place)
        if move.target == HOUSE_TARGET and own_moves and face != "WILD":
            return f"your own trio has a {face} move, so you may not change the House (only when yours has none, or on a WILD)"
        if move.target == HOUSE_TARGET and face == "WILD" and self.rules.wild_choice == "own_first":
            fits = action_moves(own, move.action, OWN, self.rules.dig_in_place) if move.action in ACTIONS else ()
            if fits:
                return (
                    f"your own trio has a {move.action} move, so under wild_choice: own_first a WILD's {move.action}"
                    " goes to your trio, not the House (only an action your trio cannot take goes to the House)"
                )
        if move.target == OWN and not own_moves:
            return f"no {face} changes your trio, so this turn acts on the House ('house:{face.lower()} ...') or passes"
        trio = house if move.target == HOUSE_TARGET else own
        whose = "the House" if move.target == HOUSE_TARGET else "your trio"
        if move.result == trio:
            return f"that leaves {whose} as it is ({format_trio(trio)}); a move must change it"
        return f"no single {move.action.lower()} turns {whose} {format_trio(trio)} into {format_trio(move.result)}"

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover, face):
        """Playtest counters: moves on the House, on the mover's own trio, and passes."""
        if move is PASS:
            return _PASSED
        if move is REROLL:
            return None
        return _HOUSE_MOVE if move.target == HOUSE_TARGET else _OWN_MOVE

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        """The bots' score for ``seat``: the fewest actions any opponent's trio
        needs to reach the House minus the fewest ``seat``'s trio needs (exact,
        from a search of the 204-trio action graph; measured against the House
        as it stands, since the House moves too).  A trio already matching the
        House scores 100 (-100 when only an opponent's does)."""
        return _scores(self._distances(state))[seat]

    @hookimpl
    def treehouse_evaluate_seats(self, state, players):
        """``treehouse_evaluate`` for every seat at once (the playtest's lead
        tracking): the distances are found once, not once per seat.  Only
        while classic alone evaluates (a house rule's evaluation is asked seat by seat)."""
        if not self.hooks.variant_alone("treehouse_evaluate"):
            return None
        return _scores(self._distances(state))

    def prepare_compiled(self) -> None:
        from treehouse.kernel.fast import compiled

        if compiled.enabled():
            from treehouse.variants.classic.fast.looks import prepare

            prepare()

    def compiled_prepared(self) -> bool:
        from treehouse.kernel.fast import compiled

        return compiled.ready("classic")

    @hookimpl
    def treehouse_look_moves(self, state, step, face, moves, seat):
        """Many moves looked at in one call of the compiled core (core.py) while
        classic alone answers the hooks a look stands for; else ``None``, and
        the kernel plays every move through the hooks (house rules included)."""
        if step.setup or not all(type(move) is ClassicMove for move in moves):
            return None  # classic has no setup phase, nor moves of other kinds: a house rule's are played through the hooks
        core = self._compiled_core(LOOK_HOOKS)
        return None if core is None else core.look(state, moves, seat)

    @hookimpl
    def treehouse_look_all_moves(self, state, step, faces, seat):
        """Every choice of every face looked at in one call of the compiled core,
        without making a move, while classic alone answers the hooks a look
        stands for; else ``None``, and the search lists the moves."""
        if step.setup:
            return None
        core = self._compiled_core(LOOK_ALL_HOOKS)
        return None if core is None else core.look_all(state, faces, seat)

    @hookimpl
    def treehouse_compiled_game(self, state, step):
        """The game as the compiled search plays it (looks.ClassicCore.game),
        while classic alone answers every hook of a turn; else ``None``."""
        core = self._compiled_core(GAME_HOOKS)
        return None if core is None else core.game

    def _compiled_core(self, hooks):
        """What answers this game's looks for ``hooks`` (looks.core_for: the core
        of these rules, or Unused); ``None`` (the hooks answer) while the core
        is still being prepared in the background.  Asked each time, not kept
        on the variant (a variant object may serve several games)."""
        return core_for(self, hooks)

    def _distances(self, state):
        house, trios, _ = state
        return distances_to(trios, house, self.rules.dig_in_place, self.rules.mirror_matches)

    @hookimpl
    def treehouse_render(self, state, console_width):
        from treehouse.variants.classic.render import render_position

        return render_position(state, console_width)

    def exact_odds(self, players):
        """Two-player classic's winning chances from the solved table (the perfect bot's)."""
        from treehouse.variants.classic.perfect import SOLVE_TIME, PerfectBot

        if not PerfectBot.solvable(self, players):
            raise TreehouseError(f"it exists for two-player classic only, not {players}-player {self.name}")
        if not PerfectBot.ready(self, players):
            raise TreehouseError(f"these rules have none yet: run th solve first ({SOLVE_TIME})")
        from treehouse.variants.classic.solver import load_cached

        return PerfectBot.from_solution(load_cached(self.rules))

    def exact_solver(self):
        """The exact solve of two-player classic under these rules (``th solve``;
        variants/classic/solver.py)."""
        from treehouse.variants.classic.solver import ClassicSolver

        return ClassicSolver(self.rules)

    # -- integer ids and vectors for other frameworks (treehouse.interop) --
    def action_encoding(self, players):
        """Every move's id (variants/classic/encoding.py; docs/interop.md)."""
        from treehouse.variants.classic.encoding import ClassicActions

        return ClassicActions()

    def observation(self, players):
        """Positions as numbers for one seat (variants/classic/encoding.py)."""
        from treehouse.variants.classic.encoding import ClassicObservation

        return ClassicObservation(players)

    def how_to_play(self):
        """Classic in a few lines, with this game's rule options woven in (``th play``'s ``r``)."""
        rules = self.rules
        decline = "pass" if rules.house_decline == "pass" else "roll again"
        return "\n".join(
            [
                "How to play classic Treehouse:",
                "  Make your trio (Small, Medium, Large) match the House, piece for piece and",
                "  direction for direction" + (" (or its mirror image)." if rules.mirror_matches else ", left to right as it lies (not its mirror)."),
                "  Each turn roll the die and do what it says to your own trio:",
                *(f"    {face}: {words}" for face, words in FACE_WORDS.items()),
                f"  If the roll fits only the House, change the House instead, or {decline}.",
                "  A move that leaves a trio as it was is a pass, and not allowed.",
                "  Digging in place (a lying piece stands up where it lies) is "
                + ("allowed." if rules.dig_in_place else "not allowed."),
                "  The first trio to match the House wins, even on another player's turn.",
            ]
        )

    def hint_reason(self, state, step, face, move, hooks, next_best=None):
        """How many actions the mover's trio is from the House after the move,
        against the nearest opponent's (the bots' measure, ``treehouse_evaluate``)."""
        if not isinstance(move, ClassicMove):
            return ""
        after = hooks.treehouse_apply_move(state, step, move)
        after = after.state if type(after) is Applied else after
        seat = state.to_move
        was, now = self._distances(state), self._distances(after)
        if now[seat] == 0:
            return "your trio matches the House: you win"
        rivals = [now[s] for s in range(len(now)) if s != seat]
        if min(rivals) == 0:
            return "an opponent's trio matches the House"
        actions = lambda n: f"{n} action{'s' if n != 1 else ''}"  # noqa: E731
        nearest = min(was[s] for s in range(len(was)) if s != seat)
        return f"leaves you {actions(now[seat])} from the House ({was[seat]} before), the nearest opponent {min(rivals)} ({nearest} before)"

    def score_unit(self):
        """The evaluation counts actions to the House (one each), so hints speak in actions."""
        return ("action", 1.0)

    def picture_legend(self):
        from treehouse.variants.classic.svg import LEGEND

        return LEGEND

    @hookimpl
    def treehouse_render_svg(self, state):
        from treehouse.variants.classic.svg import render_svg

        return render_svg(state)
