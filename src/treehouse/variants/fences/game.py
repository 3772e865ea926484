"""Fences as a variant: its rule options, setup, turn and outcome.

A turn is three steps (:data:`STEPS`): ``fence`` (move a Fence, no roll),
``act`` (roll the die and act) and ``stack`` (move the Stack, no roll).
Before the first turn, under ``start: chosen`` (the seed's setup), the
kernel's setup phase plays :data:`PLACE` and :data:`DRAW` steps: each is a
blind draw from the bag (a chance node, :meth:`Fences.treehouse_chance`)
and the drawer's placing of that small.
After every step :meth:`Fences.treehouse_resolve` checks for Hits and
resolves the Damage simultaneously (:mod:`treehouse.variants.fences.hits`),
reporting each Hit and loss as an event.  What a move did (its attempt Hits,
the Stacks that bounced) reaches resolve from ``treehouse_apply_move``
through the engine, as an :class:`~treehouse.kernel.engine.Applied` effect.
The position records the step to play next, so a position can be shown or
explored between steps.  See docs/rules/fences.md.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from treehouse.errors import IllegalPositionError
from treehouse.hookspecs import hookimpl
from treehouse.kernel.added_moves import performs_only_its_own
from treehouse.kernel.engine import PASS, Applied, Resolved, play_move
from treehouse.kernel.fast import compiled, gate
from treehouse.kernel.fast.gate import Form
from treehouse.kernel.turn import Looks, look_moves, merged_looks
from treehouse.kernel.variant import Rules, Variant
from treehouse.variants.first_player import FirstPlayer, first_player_field
from treehouse.variants.fences import hookspecs as fences_hookspecs
from treehouse.variants.fences.evaluate import evaluate, evaluate_seats
from treehouse.variants.fences.hit_table import ALL_STAND, Refused, read_rule, table
from treehouse.variants.fences.hits import HitReport, StackOut
from treehouse.variants.fences.moves import FencesMove, describe_move, format_move, parse_move
from treehouse.variants.fences.position import ALL_COLOURS, PLACE_PHASE, drawn, format_position, from_fields, parse_position, pieces, sets_of
from treehouse.variants.fences.rules import (
    DRAW,
    PLACE,
    STEPS,
    action_moves,
    advance,
    advance_setup,
    check_hits,
    check_number,
    draw_chances,
    end_turn,
    fence_moves,
    outcome,
    perform,
    resolve_damage,
    setup_moves,
    setup_position,
    stack_moves,
)


class FencesRules(Rules):
    """The rule options of Fences (defaults: the seed as docs/rules/fences.md reads it)."""

    stack_height_2p: int = Field(4, ge=1, le=5, description="Smalls in each Stack with 2 players.")
    stack_height_3p: int = Field(3, ge=1, le=3, description="Smalls in each Stack with 3 players.")
    stack_height_4p: int = Field(2, ge=1, le=2, description="Smalls in each Stack with 4 players.")
    sets: Literal["two-rainbow", "rainbow-xeno"] = Field(
        "two-rainbow",
        description="The two Treehouse sets the game needs: two-rainbow: two of one colour scheme, so two of each of five"
        " colours; rainbow-xeno: a Rainbow and a Xeno set, ten colours, one of each (colour immunity is rarer).",
    )
    draft: Literal["random", "distinct"] = Field(
        "random",
        description="random: blind draws from the bag in turn order; distinct: as random, but no Stack gets a colour twice.",
    )
    start: Literal["chosen", "corners", "random"] = Field(
        "chosen",
        description="chosen (the seed's setup): in turn order each player draws a small blind and places it on an empty"
        " Inside square (2 players: opposite corners, the first player picks), then the draws go on round the table onto the Stacks;"
        " corners: Stacks drawn at once, in the corners; random: on random Inside squares (3-4 players; 2 use corners).",
    )
    first_player: FirstPlayer = first_player_field()
    line_hits: Literal["new", "every_check"] = Field(
        "new", description="new: a line Hits when it appears (or its Stack moved); every_check: every line Hits at every check."
    )
    one_hit_per_piece: bool = Field(
        True,
        description="A piece Hits a Stack at most once per check (stepping into a Fence that points at the Stack is one Hit),"
        " except a Swap with an Outside Fence while swap_outside_considered_moved is true: the seed's 'in addition to any"
        " other Hits', so a Swap with the Outside Fence whose line is on the Stack is two Hits; false: once for each rule it meets.",
    )
    outside_attempts: bool = Field(
        False,
        description="false (the seed: 'to an Inside space'): step 3 moves only toward Inside squares;"
        " true: it may also try to move Outside (always a Damaging Hit).",
    )
    swap_outside_ignores_colour: bool = Field(
        True, description="A Swap with an Outside Fence Damages whatever the Stack's top colour."
    )
    swap_outside_considered_moved: bool = Field(
        True,
        description="A Swap with an Outside Fence leaves the Stack in place but 'still considered moved' (the seed):"
        " under line_hits: new a line already on it Hits too, in addition to the Swap's own Hit;"
        " false: the Stack is not considered moved (the reading before issue 22).",
    )
    mover_hit_on_stack: bool = Field(
        False,
        description="A Stack that tries to move onto another Stack stays: false (the seed: 'only the stationary Stack is Hit'):"
        " it is not considered moved, so under line_hits: new no line already on it Hits it; true: it is 'still considered"
        " moved', and a line already on it Hits it (the reading before issue 47).",
    )
    uniform_dig: Literal["noop", "hit", "reroll"] = Field(
        "noop",
        description="A Dig of 2+ smalls all of one colour: noop (the seed: the top piece can always go to the bottom):"
        " done, changing nothing, no Hit; hit: impossible, so Hit; reroll: roll again.",
    )
    all_out_at_once: Literal["draw", "tie"] = Field(
        "draw",
        description="The last Stacks emptied at one check: draw (the seed: an emptied Stack loses): nobody wins;"
        " tie: those players share the win.",
    )
    turn_limit: int = Field(0, ge=0, le=1_000_000, description="End the game after this many turns and score it (0: no limit; at most 1,000,000).")
    turn_limit_scoring: Literal["draw", "most_smalls"] = Field(
        "most_smalls", description="At the turn limit: a draw, or the Stacks with the most smalls win (ties shared)."
    )

    @model_validator(mode="after")
    def _heights_fit(self):
        for players, height in ((2, self.stack_height_2p), (3, self.stack_height_3p), (4, self.stack_height_4p)):
            if players * height > len(pieces(self.sets)):
                raise ValueError(f"{players} Stacks of {height} need more than the {len(pieces(self.sets))} smalls")
        return self

    def height(self, players: int) -> int:
        return {2: self.stack_height_2p, 3: self.stack_height_3p, 4: self.stack_height_4p}[players]


#: What a face lets the player do in step 2, for ``th play`` (docs/rules/fences.md, Actions).
FACE_WORDS = {
    "TIP": "tip a Standing Fence in your Stack's row or column to point along it; it slides to the last empty Inside square",
    "SWAP": "swap your Stack with a Fence in its row or column (an Outside Fence Hits your Stack instead)",
    "HOP": "hop your Stack over an adjacent Inside Fence, or an adjacent Fence over your Stack",
    "DIG": "move your Stack's top small to the bottom (a lone small: put a destroyed one under it)",
    "AIM": "turn one or more Fences next to your Stack to stand or point another way",
    "WILD": "reorder your Stack as you like, then do any one of the five actions",
}


class Fences(Variant):
    name = "fences"
    aliases = ("fence",)
    default_rank = 2  # the game th play starts when no variant is named
    description = "Stacks of smalls dodge the lines of Pointing Fences on a 5x5 grid; the last Stack standing wins."
    min_players = 2
    max_players = 4
    default_players = 2
    Rules = FencesRules
    #: The setup's blind draws (``start: chosen``) draw a small's colour.
    draws = ALL_COLOURS
    #: Fences' own hooks (the Fences API for house rules): ``treehouse_fences_hits``.
    hookspecs = fences_hookspecs
    #: ``th moves`` lists every move of the step a position is at (fence, act, stack, place).
    lists_step_moves = True

    # -- notation --
    def players_in(self, state):
        return len(state.stacks)

    def format_position(self, state):
        return format_position(state)

    def parse_position(self, text):
        state = parse_position(text)
        sets = sets_of(state.aside + sum(state.stacks, ()) + sum(state.destroyed, ()))
        if sets != self.rules.sets:
            raise IllegalPositionError(
                f"the position's pieces are those of sets: {sets}, but these rules play with sets: {self.rules.sets}"
                f" (--set sets={sets})"
            )
        lo, hi = self.player_range()
        if not lo <= state.players <= hi:
            raise IllegalPositionError(f"{state.players} seats in the position: {self.name} is played by {lo} to {hi} players")
        height = self.rules.height(state.players)
        if state.setting_up:
            if drawn(state) >= state.players * height:
                raise IllegalPositionError(
                    f"the setup is over once every Stack is {height} high ({state.players} players): this position is not in it"
                )
            return state
        for seat, (stack, destroyed) in enumerate(zip(state.stacks, state.destroyed)):
            if len(stack) + len(destroyed) != height:
                raise IllegalPositionError(
                    f"seat {seat + 1} has {len(stack)} smalls in its Stack and {len(destroyed)} destroyed:"
                    f" with {state.players} players a Stack starts {height} high"
                )
        return state

    def format_move(self, move):
        return format_move(move)

    def parse_move(self, text):
        return parse_move(text)

    def describe_move(self, move):
        if not isinstance(move, FencesMove):
            return str(getattr(move, "value", move))
        return describe_move(move)

    def describe_face(self, face):
        """What a face lets a Stack do in step 2 (docs/rules/fences.md, Actions)."""
        return FACE_WORDS.get(face, "")

    def split_choice(self, state, move):
        """WILD: the action first, then the order (see :meth:`Variant.split_choice`)."""
        from treehouse.variants.fences.moves import split_choice

        return split_choice(state, move) if isinstance(move, FencesMove) else None

    # -- game hooks --
    @hookimpl
    def treehouse_setup(self, variant, players, rng):
        return setup_position(self.rules, players, rng)

    @hookimpl
    def treehouse_setup_step(self, state):
        """The seed's setup, one draw at a time (``start: chosen``); ``None`` once it is over."""
        if not state.setting_up:
            return None
        return PLACE if state.phase == PLACE_PHASE else DRAW

    @hookimpl
    def treehouse_chance(self, state, step):
        """A setup step draws a small blind from the bag; the turn's steps roll the die (the kernel's answer)."""
        if getattr(step, "setup", False):
            return draw_chances(state, self.rules.draft == "distinct")
        return None

    @hookimpl
    def treehouse_turn_steps(self, state):
        if state.setting_up:
            return ()  # the setup's steps are the kernel's setup phase, not a turn
        return STEPS[state.phase :]

    @hookimpl
    def treehouse_legal_moves(self, state, step, face):
        seat = state.to_move
        name = step.name
        if not state.stacks[seat] and name != "place":
            return (PASS,) if step.rolls else ()  # only in a typed position: in play, a seat's turn ends when it goes out
        if name == "fence":
            return fence_moves(state, seat)
        if name == "act":
            return action_moves(state, seat, face, self.rules.uniform_dig)
        if name in ("place", "draw"):
            return setup_moves(state, seat, face)
        return stack_moves(state, seat, self.rules.outside_attempts)

    @hookimpl
    def treehouse_apply_move(self, state, step, move):
        """The move performed (:func:`~treehouse.variants.fences.rules.perform`) and the step advanced;
        what it did (its attempt Hits, the Stacks considered moved) goes on to resolve as the effect."""
        rules = self.rules
        effect = perform(
            state, state.to_move, move, rules.swap_outside_ignores_colour, rules.swap_outside_considered_moved, rules.mover_hit_on_stack
        )
        if state.phase >= PLACE_PHASE:  # a setup step (setting_up; no check follows it)
            return Applied(advance_setup(effect.state, rules.height(state.players)), effect)
        return from_fields(Applied, (advance(effect.state, step), effect))  # Applied(...), made as the rules make positions

    @hookimpl
    def treehouse_resolve(self, state, before, step, move, effect):
        """The check after a step and its Damage, with what happened as events."""
        if before.phase >= PLACE_PHASE:  # setting_up
            return state  # the setup is not play: no check (docs/rules/fences.md, Setup); the engine does not call this
        if move is PASS:
            state = advance(state, step)
        hits = self.check_hits(state, before, step, effect)
        after, events = resolve_damage(state, hits, check_number(before, step)) if hits else (state, ())
        if after.phase and not after.stacks[after.to_move] and len(after.live()) > 1:
            # "at the end of each Step" is a step of a player in the game: a seat
            # that goes out in its own step plays no more steps (turn_cut_short)
            after = end_turn(after)
        return from_fields(Resolved, (after, events)) if events else after  # Resolved(after, events)

    def check_hits(self, state, before, step, effect) -> tuple:
        """The Hits of the check after a move took ``before`` to ``state`` that
        stand: those the rules find (:func:`~treehouse.variants.fences.rules.check_hits`),
        passed through the ``treehouse_fences_hits`` hook (house rules say there which stand)."""
        hits = tuple(check_hits(before, state, effect, self.rules))
        if not hits or not self.house_judges_hits:
            return hits  # Fences' own answer, without the call: every Hit stands
        return tuple(self.hooks.treehouse_fences_hits(state, before, step, hits))

    def hits(self, before, step, move):
        """Every Hit a move makes (attempts and lines) that stands, before Damage: for tests and tools."""
        applied = self.treehouse_apply_move(before, step, move)
        return list(self.check_hits(applied.state, before, step, applied.effect))

    @hookimpl
    def treehouse_fences_hits(self, state, before, step, hits):
        """Fences' own answer: every Hit found stands (docs/fences-api.md)."""
        return hits

    @cached_property
    def house_judges_hits(self) -> bool:
        """Does a house rule answer ``treehouse_fences_hits``?  Then a check, and
        the bots' evaluation, ask the hook which Hits stand; otherwise every one
        does (Fences' own answer), and neither makes the call.  Asked at every
        check and evaluation, so answered once: the plugins of a game's manager
        never change (:meth:`bind_hooks` and pickling forget the answer)."""
        return not self.hooks.variant_alone("treehouse_fences_hits")

    @cached_property
    def house_rules_on_hits(self) -> tuple[tuple[object, dict | Refused], ...]:
        """Each plugin but Fences that answers ``treehouse_fences_hits``, with
        its verdicts per cause and source size, or why its answers are no
        table (``hit_table.read_rule``: it is asked about Hits on their own,
        once a binding)."""
        caller = self.hooks.manager.hook.treehouse_fences_hits
        return tuple((impl.plugin, read_rule(impl, STEPS)) for impl in caller.get_hookimpls() if impl.plugin is not self)

    @cached_property
    def hit_table(self) -> tuple[int, ...] | None:
        """The house rules' verdicts on Hits as the core's table (``hit_table.table``);
        ``None`` where one rule's answers are no table."""
        rules = [verdicts for _plugin, verdicts in self.house_rules_on_hits]
        return None if any(isinstance(rule, Refused) for rule in rules) else table(rules)

    #: What a binding works out once (:meth:`bind_hooks` and pickling forget it).
    _BOUND = ("house_judges_hits", "house_rules_on_hits", "hit_table")

    def bind_hooks(self, hooks) -> None:
        super().bind_hooks(hooks)
        for name in self._BOUND:
            self.__dict__.pop(name, None)

    def __getstate__(self) -> dict:
        state = super().__getstate__()
        for name in self._BOUND:
            state.pop(name, None)  # the hooks where it lands answer it afresh
        return state

    def legend(self):
        from treehouse.variants.fences.guide import LEGEND

        return LEGEND

    def score_unit(self):
        """The evaluation counts 10 a small (variants/fences/evaluate.py), so hints speak in smalls."""
        return ("small", 10.0)

    def choice_questions(self, face):
        if face == "AIM":
            return "Choose the Fences to turn; their directions come next.", "Then their new directions"
        return "Choose the action; the order comes next.", "Then the order (top first)"

    def picture_legend(self):
        from treehouse.variants.fences.svg import LEGEND

        return LEGEND

    def seat_panel(self, state, seat):
        from treehouse.variants.fences.svg import seat_panel

        return seat_panel(state, seat)

    def seats_out(self, state):
        """The seats whose Stack was emptied (``out`` records the check)."""
        return tuple(seat for seat, check in enumerate(state.out) if check)

    def how_to_play(self):
        from treehouse.variants.fences.guide import how_to_play

        return how_to_play(self.rules)

    def move_notes(self, state, step, moves, hooks):
        """Moves that Damage the mover's own Stack, with how many smalls it
        would lose: each move applied and resolved through the game's hooks
        (the very resolution the engine runs), its losses counted."""
        seat, notes = state.to_move, {}
        for move in moves:
            if not isinstance(move, FencesMove):
                continue
            _after, events = play_move(hooks, state, step, move)
            lost = sum(1 for e in events if isinstance(e, HitReport) and e.lost is not None and e.hit.seat == seat)
            if lost:
                out = any(isinstance(e, StackOut) and e.seat == seat for e in events)
                notes[move] = f"⚠ you lose {lost} small{'s' if lost != 1 else ''}" + (", and are out" if out else "")
        return notes

    def hint_reason(self, state, step, face, move, hooks, next_best=None):
        """What the move changes for the mover's Stack and the others'; a quiet
        move, what it keeps or avoids against ``next_best`` (variants/fences/reason.py)."""
        from treehouse.variants.fences.reason import hint_reason

        return hint_reason(state, step, move, hooks, next_best)

    @hookimpl
    def treehouse_outcome(self, state, mover):
        return outcome(state, self.rules)

    @hookimpl
    def treehouse_end_turn(self, state):
        return end_turn(state)

    @hookimpl
    def treehouse_explain_illegal(self, state, step, face, move, moves):
        from treehouse.variants.fences.explain import why_illegal

        return why_illegal(state, step, face, move, moves, self.rules)

    @hookimpl
    def treehouse_step_statistics(self, before, after, step, move, mover):
        lost = sum(len(b) - len(a) for b, a in zip(before.stacks, after.stacks) if len(b) > len(a))
        counts = {f"{step.name}_steps": 1}
        if lost:
            counts["damage"] = lost
        if isinstance(move, FencesMove) and move.kind == "fail":
            counts["failed_actions"] = 1
        return counts

    @hookimpl
    def treehouse_evaluate(self, state, seat):
        """The bots' score for ``seat``: smalls, threats, colour shields, room to move (see fences/evaluate.py)."""
        if self.house_judges_hits:
            return evaluate(state, seat, self._stand(state))
        return evaluate(state, seat)  # every Hit stands

    def _stand(self, state):
        """The evaluation's judge of threatened Hits in ``state``: the
        ``treehouse_fences_hits`` hook, where a house rule answers it; else
        ``None`` (every Hit stands, and the hook is not called)."""
        if not self.house_judges_hits:
            return None
        hooks = self.hooks
        return lambda hits: hooks.treehouse_fences_hits(state, state, None, hits)

    @hookimpl
    def treehouse_render(self, state, console_width):
        from treehouse.variants.fences.render import render_position

        outcome = self.treehouse_outcome(state, state.to_move)  # a finished game says so, not who is to play
        return render_position(state, console_width, None if outcome is None else outcome.reason)

    # -- integer ids and vectors for other frameworks (treehouse.interop) --
    def action_encoding(self, players):
        """Every move's id (variants/fences/encoding.py; docs/interop.md).  The
        fixed numbering covers the Rainbow colours; with ``sets: rainbow-xeno``
        there is none (``None``), and the generic numbering serves."""
        from treehouse.variants.fences.encoding import FencesActions

        if self.rules.sets != "two-rainbow":
            return None
        return FencesActions(self.rules.height(players))

    def observation(self, players):
        """Positions as numbers for one seat (variants/fences/encoding.py); the
        Rainbow colours only (``None`` with ``sets: rainbow-xeno``)."""
        from treehouse.variants.fences.encoding import FencesObservation

        if self.rules.sets != "two-rainbow":
            return None
        return FencesObservation(players, self.rules.height(players))

    @hookimpl
    def treehouse_render_compact(self, state, console_width):
        from treehouse.variants.fences.render import render_compact

        outcome = self.treehouse_outcome(state, state.to_move)
        return render_compact(state, console_width, None if outcome is None else outcome.reason)

    @hookimpl
    def treehouse_render_svg(self, state):
        from treehouse.variants.fences.svg import render_svg

        return render_svg(state)

    #: The hooks a look at many moves stands for: while Fences alone answers
    #: them, its compiled core answers the look (docs/rules/tiers.md).
    LOOK_HOOKS = ("treehouse_apply_move", "treehouse_resolve", "treehouse_outcome", "treehouse_evaluate", "treehouse_fences_hits")
    #: The compiled search plays whole turns in its head: every hook of a turn.
    GAME_HOOKS = (
        "treehouse_legal_moves", *LOOK_HOOKS, "treehouse_chance", "treehouse_end_turn", "treehouse_turn_steps",
        "treehouse_look_moves", "treehouse_look_all_moves",
    )
    #: The hooks without which the compiled core answers no look (kernel/fast/gate.py).
    FAST_HOOKS = LOOK_HOOKS
    #: The forms of house rule the core takes in: each Hit judged by its cause
    #: and source size alone, in any form (the verdicts go to the core as a
    #: table), and moves of a rule's own kinds (only those go through the hooks).
    FAST_FORMS = {
        "treehouse_fences_hits": Form(
            lambda hooks, plugin: hooks.variant.hits_refusal(plugin),
            "a wrapper that judges each Hit by its cause and source size alone (docs/fences-api.md)",
        ),
        "treehouse_apply_move": Form(performs_only_its_own, "an AddsMoves rule (docs/fences-api.md)"),
    }

    def hits_refusal(self, plugin) -> str | None:
        """Why ``plugin``'s ``treehouse_fences_hits`` is no table of verdicts (``None``: it is one)."""
        for answering, verdicts in self.house_rules_on_hits:
            if answering is plugin:
                return verdicts.reason if isinstance(verdicts, Refused) else None
        return None

    def core_verdicts(self, *hooks: str) -> tuple[int, ...] | None:
        """May the compiled core answer for ``hooks`` in this game (the gate,
        kernel/fast/gate.py), and with which verdicts on Hits
        (:attr:`hit_table`)?  ``None``: the hooks answer."""
        if not gate.may_answer(self.hooks, hooks, self.FAST_FORMS):
            return None
        return self.hit_table if "treehouse_fences_hits" in hooks else ALL_STAND

    @hookimpl
    def treehouse_look_moves(self, state, step, face, moves, seat):
        """Many moves looked at in one call of the compiled core (variants/fences/fast/looks.py),
        while Fences alone answers the hooks it stands for; else ``None``: the
        kernel's default plays each move through the hooks, house rules included."""
        if step.setup or compiled.waiting("fences") or not compiled.enabled():
            return None
        from treehouse.variants.fences.fast import looks  # imports numba: only once the core is enabled

        judged = self.core_verdicts(*self.LOOK_HOOKS)
        if judged is None:
            return None
        if all(type(move) is FencesMove for move in moves):
            return looks.look_moves(self.rules, judged, state, step, moves, seat)
        # a house rule's own moves (AddsMoves) through the hooks, Fences' on the core
        own = [index for index, move in enumerate(moves) if type(move) is FencesMove]
        others = [index for index, move in enumerate(moves) if type(move) is not FencesMove]
        on_core = looks.look_moves(self.rules, judged, state, step, [moves[i] for i in own], seat) if own else Looks([])
        if on_core is None:
            return None
        return merged_looks(len(moves), (own, on_core), (others, look_moves(self.hooks, state, step, [moves[i] for i in others], seat)))

    @hookimpl
    def treehouse_evaluate_seats(self, state, players):
        """Every seat's evaluation at once (the playtest's lead tracking, after
        every step), each Stack valued once, while Fences alone answers
        ``treehouse_evaluate`` (else ``None``, and each seat is asked in
        turn; so too while tracing, which shows every call): by the compiled
        core once a bot's look has loaded it and while it may answer
        (``core_verdicts``; for lead tracking alone, as in a game of random
        seats, loading numba costs more than it saves), else by the
        reference rules, which judge Hits through the hook as
        ``treehouse_evaluate`` does."""
        if self.hooks.tracing or not self.hooks.variant_alone("treehouse_evaluate"):
            return None
        on_core = not state.setting_up and compiled.ready("fences")
        judged = self.core_verdicts("treehouse_evaluate", "treehouse_fences_hits") if on_core else None
        if judged is None:
            return evaluate_seats(state, self._stand(state))
        from treehouse.variants.fences.fast import looks

        return looks.evaluate_seats(self.rules, judged, state)

    def prepare_compiled(self) -> None:
        if compiled.enabled():
            from treehouse.variants.fences.fast import looks

            looks.prepare()

    @hookimpl
    def treehouse_look_all_moves(self, state, step, faces, seat):
        """Every legal move of every face generated and looked at in one call of
        the compiled core, while Fences alone answers the legal moves and the
        hooks a look stands for; else ``None``: the search lists the moves and looks at them."""
        if step.setup or compiled.waiting("fences") or not compiled.enabled():
            return None
        from treehouse.variants.fences.fast import looks

        judged = self.core_verdicts("treehouse_legal_moves", *self.LOOK_HOOKS)
        if judged is None:
            return None
        return looks.look_all_moves(self.rules, judged, state, step, faces, seat)

    @hookimpl
    def treehouse_compiled_game(self, state, step):
        """The game as the compiled search plays it (looks.compiled_game), while
        Fences alone answers every hook of a turn, or a house rule answers
        one in a form the core takes in (``core_verdicts``: the verdicts of
        rules that judge each Hit alone go into the tables); else ``None``.
        Not for a seat that is out (it only passes: the hooks answer)."""
        if step.setup or compiled.waiting("fences") or not compiled.enabled() or not state.stacks[state.to_move]:
            return None
        judged = self.core_verdicts(*self.GAME_HOOKS)
        if judged is None:
            return None
        from treehouse.variants.fences.fast import looks

        return looks.compiled_game(self.rules, judged, state)
