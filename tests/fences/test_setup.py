"""The seed's setup (``start: chosen``, the default), played by the kernel's setup phase.

The seed: "Players take turns drawing from the pool of 10 small pieces,
creating a Stack on any empty Inside space on the board (for two players,
this must be opposite corners of the board).  The first small piece taken by
each Player is placed on the board, later pieces are stacked on top of this
piece in order."  (docs/rules/fences.md, Setup step 4.)
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from rich.console import Console
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.errors import IllegalPositionError, NotationError, RecordError
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.kernel.resume import finish_catch_up, resume_game, saved_game, walk
from treehouse.testing import check_variant
from treehouse.variants.fences.board import BY_NAME, INSIDE, NAMES, OUTSIDE
from treehouse.variants.fences.game import DRAW, PLACE, STEPS
from treehouse.variants.fences.position import COLOURS, DRAW_PHASE, PLACE_PHASE

runner = CliRunner()
RING = "Mr*Ly*Mg*Mb*Lb*/Ly*{e5}Lr*/Mb*.....Mg*/Lo*.....Lr*/Lb*.....My*/Lo*{a1}Lg*/Lg*Mo*My*Mo*Mr*"
#: Two players, nothing drawn yet.
NOTHING_DRAWN = RING.format(e5=".....", a1=".....") + " -,- -,- rrooyyggbb 1 place 0"
#: Seat 1 drew green and placed it on a1; seat 2 to draw and place.
SEAT_2_PLACES = RING.format(e5=".....", a1="1....") + " g,- -,- rrooyygbb 2 place 0"
#: Both placed, seat 1 drew blue onto its Stack; seat 2 to draw.
SEAT_2_DRAWS = RING.format(e5="....2", a1="1....") + " gb,o -,- rroyygb 2 draw 0"


def th(*args):
    return runner.invoke(app, [str(a) for a in args])


def setup_game(fences, players, seed=1, seats=None, record=None):
    from treehouse.bots.random_bot import RandomBot

    return Game(fences, seats or [RandomBot() for _ in range(players)], random.Random(seed), record=record)


def applied(variant, state, step, move):
    """The position after a setup move (the setup is not resolved)."""
    return variant.treehouse_apply_move(state, step, move).state


def squares(moves):
    return [NAMES[m.square] for m in moves]


# -- the setup position and its chance nodes ----------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_setup_starts_with_every_small_in_the_bag_and_seat_1_to_draw(fences, players):
    """The seed's "pool of 10 small pieces": nothing is drawn before the setup phase."""
    state = fences.treehouse_setup(fences, players, random.Random(players))
    assert state.stacks == ((),) * players and not any(type(cell) is int for cell in state.board)
    assert Counter(state.aside) == Counter({c: 2 for c in COLOURS})
    assert (state.to_move, state.phase, state.turn, state.step_name) == (0, PLACE_PHASE, 0, "place")
    assert fences.treehouse_setup_step(state) == PLACE and PLACE.setup and PLACE.rolls
    assert fences.treehouse_turn_steps(state) == ()  # the setup is not a turn
    assert fences.treehouse_outcome(state, 0) is None  # nobody is out: they have not drawn yet


def test_a_draw_is_blind_each_colour_as_likely_as_its_count_in_the_bag(fences):
    """The blind draw is a chance node: the colours left, weighted by count."""
    state = fences.parse_position(SEAT_2_PLACES)
    chances = dict(fences.treehouse_chance(state, PLACE))
    assert chances == {"red": Fraction(2, 9), "orange": Fraction(2, 9), "yellow": Fraction(2, 9), "green": Fraction(1, 9), "blue": Fraction(2, 9)}
    assert fences.treehouse_chance(state, STEPS[1]) is None  # a turn's act step rolls the die (the kernel's answer)


def test_draft_distinct_leaves_out_the_drawers_colours_unless_only_they_are_left(fences_class):
    distinct = fences_class({"draft": "distinct"})
    state = distinct.parse_position(SEAT_2_DRAWS)
    assert [c for c, _ in distinct.treehouse_chance(state, DRAW)] == ["red", "yellow", "green", "blue"]  # seat 2 has orange
    state = applied(distinct, state, DRAW, distinct.parse_move("draw y"))  # seat 2: orange, yellow
    assert state.aside == ("red", "red", "orange", "yellow", "green", "blue")
    assert distinct.treehouse_chance(state, DRAW) == (("red", Fraction(2, 4)), ("orange", Fraction(1, 4)), ("yellow", Fraction(1, 4)))
    only = state._replace(aside=("green",), stacks=(("green", "blue", "red", "red"), state.stacks[1]))
    assert distinct.treehouse_chance(only, DRAW) == (("green", Fraction(1)),)


# -- what a drawn small may do ---------------------------------------------------


def test_two_players_seat_1_picks_the_corners_and_seat_2_takes_the_opposite_one(fences):
    """The seed: "for two players, this must be opposite corners of the board";
    which pair is the first player's pick."""
    state = fences.parse_position(NOTHING_DRAWN)
    assert sorted(squares(fences.treehouse_legal_moves(state, PLACE, "red"))) == ["a1", "a5", "e1", "e5"]
    for corner, opposite in (("a1", "e5"), ("a5", "e1"), ("e5", "a1"), ("e1", "a5")):
        after = applied(fences, state, PLACE, fences.parse_move(f"place r {corner}"))
        assert (after.to_move, after.phase, after.stacks) == (1, PLACE_PHASE, (("red",), ()))
        moves = fences.treehouse_legal_moves(after, PLACE, "blue")
        assert squares(moves) == [opposite]  # its only move
        done = applied(fences, after, PLACE, moves[0])
        assert done.square_of(0) == BY_NAME[corner] and done.square_of(1) == BY_NAME[opposite]
        assert (done.to_move, done.phase) == (0, DRAW_PHASE)


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_place_on_any_empty_inside_square_in_turn_order(fences, players):
    """The seed: "creating a Stack on any empty Inside space on the board"."""
    state = fences.treehouse_setup(fences, players, random.Random(7))
    picks = ["c3", "c4", "a1", "e5"][:players]
    for seat, (square, colour) in enumerate(zip(picks, "royg")):
        assert (state.to_move, state.step_name) == (seat, "place")
        moves = fences.treehouse_legal_moves(state, PLACE, COLOURS["royg".index(colour)])
        assert set(squares(moves)) == {NAMES[s] for s in INSIDE} - set(picks[:seat]) and len(moves) == 25 - seat
        state = applied(fences, state, PLACE, fences.parse_move(f"place {colour} {square}"))
    assert (state.to_move, state.step_name) == (0, "draw")
    assert [NAMES[state.square_of(s)] for s in range(players)] == picks


def test_later_draws_go_on_top_of_the_stack_the_first_stays_at_the_bottom(fences):
    """The seed: "The first small piece taken by each Player is placed on the
    board, later pieces are stacked on top of this piece in order"."""
    state = fences.parse_position(SEAT_2_DRAWS)
    assert fences.treehouse_legal_moves(state, DRAW, "yellow") == (fences.parse_move("draw y"),)  # no choice
    assert fences.treehouse_legal_moves(state, DRAW, "orange") == (fences.parse_move("draw o"),)
    after = applied(fences, state, DRAW, fences.parse_move("draw y"))
    assert after.stacks == (("green", "blue"), ("orange", "yellow")) and after.to_move == 0
    assert after.board == state.board and "yellow" in state.aside and after.aside.count("yellow") == 1


def test_the_setup_ends_when_every_stack_is_full_and_the_rest_is_set_aside(fences):
    """The seed: "Players continue drawing until each player stack is full ... Set
    aside the remaining small pieces from the game"."""
    state = fences.parse_position(SEAT_2_DRAWS)
    for colour, seat in (("y", 1), ("r", 0), ("r", 1), ("o", 0), ("g", 1)):
        assert state.to_move == seat and state.setting_up
        state = applied(fences, state, DRAW, fences.parse_move(f"draw {colour}"))
    assert not state.setting_up and fences.treehouse_setup_step(state) is None
    assert (state.to_move, state.step_name, state.turn) == (0, "fence", 0)
    assert [len(s) for s in state.stacks] == [4, 4] and state.aside == ("yellow", "blue")
    assert fences.treehouse_turn_steps(state) == STEPS


def test_a_small_not_in_the_bag_cannot_be_drawn(fences):
    state = fences.parse_position(SEAT_2_DRAWS)
    assert fences.treehouse_legal_moves(state._replace(aside=("red",)), DRAW, "blue") == ()


def test_the_setup_never_hits(fences):
    """The seed checks for Hits at the end of "the three Turn Steps" only."""
    state = fences.parse_position(SEAT_2_PLACES)
    move = fences.parse_move("place r e5")
    after = applied(fences, state, PLACE, move)
    assert fences.treehouse_resolve(after, state, PLACE, move, None) == after
    assert fences.treehouse_outcome(after, 1) is None


def test_bots_place_by_the_evaluation_of_the_one_small_drawn(fences):
    """During the setup a seat that has drawn nothing counts for nothing."""
    from treehouse.variants.fences.evaluate import SMALL, evaluate, stack_value

    state = fences.parse_position(SEAT_2_PLACES)
    assert evaluate(state, 0) == stack_value(state, 0) > SMALL - 5  # nobody else placed yet
    after = applied(fences, state, PLACE, fences.parse_move("place g e5"))
    assert evaluate(after, 1) == stack_value(after, 1) - stack_value(after, 0)


# -- notation --------------------------------------------------------------------


@pytest.mark.parametrize("text", [NOTHING_DRAWN, SEAT_2_PLACES, SEAT_2_DRAWS])
def test_setup_positions_round_trip_whatever_the_start_option(fences_class, text):
    for variant in (fences_class(), fences_class({"start": "corners"})):
        state = variant.parse_position(text)
        assert variant.format_position(state) == text and state.setting_up


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_the_setup_round_trips(fences, players):
    for seed in range(6):
        rng = random.Random(seed)
        state = fences.treehouse_setup(fences, players, rng)
        while (step := fences.treehouse_setup_step(state)) is not None:
            assert fences.parse_position(fences.format_position(state)) == state
            colour = rng.choice([c for c, _ in fences.treehouse_chance(state, step)])
            state = applied(fences, state, step, rng.choice(fences.treehouse_legal_moves(state, step, colour)))
        assert fences.parse_position(fences.format_position(state)) == state
        assert [len(s) for s in state.stacks] == [fences.rules.height(players)] * players


def test_setup_moves_round_trip_and_are_described(fences):
    place, draw = fences.parse_move("place r c3"), fences.parse_move("draw b")
    assert (place.kind, place.square, place.arg) == ("place", BY_NAME["c3"], "red")
    assert (draw.kind, draw.arg) == ("draw", "blue")
    assert [fences.format_move(m) for m in (place, draw)] == ["place r c3", "draw b"]
    assert fences.describe_move(place) == "place the red small drawn on c3, starting the stack"
    assert fences.describe_move(draw) == "put the blue small drawn on top of the stack"


@pytest.mark.parametrize(
    "text, fault",
    [
        ("place", "'place' takes 2 argument(s), not 0"),
        ("place c3", "'place' takes 2 argument(s), not 1"),
        ("place x c3", "bad colour 'x'"),
        ("place r z9", "bad square 'z9'"),
        ("place r N3", "a Stack is placed on an Inside square"),
        ("draw", "'draw' takes 1 argument(s), not 0"),
        ("draw red", "bad colour 'red'"),
        ("wild:gr place r c3", "takes no 'wild:' reorder"),
        ("wild:gr draw r", "takes no 'wild:' reorder"),
    ],
)
def test_bad_setup_moves_name_the_fault(fences, text, fault):
    with pytest.raises(NotationError) as error:
        fences.parse_move(text)
    assert fault in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(
    "text, fault",
    [
        (NOTHING_DRAWN.replace(" place 0", " fence 0"), "an empty Stack in STACKS"),
        (NOTHING_DRAWN.replace(" place 0", " place 3"), "TURN must be 0"),
        (SEAT_2_DRAWS.replace(" 2 draw 0", " 1 draw 0"), "the Stacks are 1, 2 high: the setup's draws go round the table from the first player (here seat 2)"),
        (SEAT_2_PLACES.replace(" 2 place 0", " 2 draw 0"), "its setup step is place, not draw"),
        (SEAT_2_DRAWS.replace(" 2 draw 0", " 2 place 0"), "its setup step is draw, not place"),
        (SEAT_2_PLACES.replace("/Lo*1....Lg*/", "/Lo*..1..Lg*/"), "start on opposite corners"),
        (SEAT_2_DRAWS.replace("/Ly*....2Lr*/", "/Ly*2....Lr*/"), "the corner opposite seat 1's, e5"),
        (NOTHING_DRAWN.replace("/Ly*.....Lr*/", "/Ly>.....Lr*/"), "has moved"),
        (NOTHING_DRAWN.replace("/Ly*.....Lr*/", "/.Ly*....Lr*/"), "has moved"),
        (SEAT_2_DRAWS.replace("gb,o -,- rroyygb", "gb,o -,r royygb"), "before any Hit"),
        (SEAT_2_PLACES.replace("/Ly*.....Lr*/", "/Ly*....2Lr*/"), "seat 2 has drawn nothing yet but its digit"),
        (SEAT_2_DRAWS.replace("gb,o -,- rroyygb 2 draw", "gbrr,oyog -,- yb 1 draw"), "the setup is over"),
    ],
)
def test_impossible_setup_positions_are_refused_in_one_line(fences, text, fault):
    with pytest.raises(IllegalPositionError) as error:
        fences.parse_position(text)
    assert fault in str(error.value) and "\n" not in str(error.value)


def test_render_shows_who_draws_and_the_bag(fences):
    console = Console(width=100, no_color=True, record=True)
    console.print(fences.render_text(SEAT_2_PLACES, 100))
    text = console.export_text()
    assert "Player 1  a1  1 high" in text and "Player 2  nothing drawn yet" in text
    assert "Setup: Player 2 to draw a small and place it; in the bag: rrooyygbb" in text


# -- whole setups through the engine: 2, 3 and 4 players -------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_engine_plays_the_setup_before_turn_1_and_records_it_as_turn_0(fences, players):
    record = Record(meta={"seed": 3})
    game = setup_game(fences, players, seed=3, record=record)
    assert game.setting_up
    game.play_turn()
    height = fences.rules.height(players)
    assert not game.setting_up and game.turn == 0 and game.state.step_name == "fence"
    assert [len(s) for s in game.state.stacks] == [height] * players
    setup = [e for e in record.events if e[1] == 0]
    assert len(setup) == 2 * players * height  # a draw (roll) and a placing (move) each
    rolls = [e for e in setup if e[0] == "roll"]
    assert [e[2] for e in rolls] == [i % players for i in range(players * height)]  # round the table from seat 1
    assert all(e[4] in COLOURS for e in rolls)
    moves = [fences.format_move(e[4]) for e in setup if e[0] == "move"]
    assert [m.split()[0] for m in moves] == ["place"] * players + ["draw"] * (players * (height - 1))
    assert [m.split()[1] for m in moves] == [fences.format_move(fences.parse_move(f"draw {e[4][0]}")).split()[1] for e in rolls]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_setup_replays_from_its_record(plugins, fences, players):
    record = Record(meta={"seed": 8})
    game = setup_game(fences, players, seed=8, record=record)
    game.play()
    again = replay(Record.loads(record.dumps()), plugins)
    assert again.state == game.state and again.outcome == game.outcome
    frames = walk(Record.loads(record.dumps()), plugins).frames
    assert [f.step for f in frames[: players * fences.rules.height(players)]] == [
        "place" if i < players else "draw" for i in range(players * fences.rules.height(players))
    ]


def test_an_edited_draw_is_refused_on_replay(plugins, fences):
    record = Record(meta={"seed": 8})
    setup_game(fences, 2, seed=8, record=record).play()
    events = Record.loads(record.dumps())
    kind, turn, seat, step, colour = events.events[0]
    other = next(c for c in COLOURS if c != colour)
    events.events[0] = (kind, turn, seat, step, other)  # the draw no longer matches the move that places it
    with pytest.raises(RecordError):
        replay(events, plugins)


@pytest.mark.parametrize("players, stop", [(2, 1), (2, 5), (3, 4), (4, 2), (4, 9)])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_game_saved_in_the_middle_of_the_setup_resumes_exactly(plugins, fences, players, stop, bot):
    factory = plugins.bot(bot).factory
    whole = Record(meta={"seed": 12, "seats": [bot] * players})
    Game(fences, [factory() for _ in range(players)], random.Random(12), record=whole, turn_cap=60).play()
    part = Record.loads(whole.dumps())
    part.events = part.events[:stop]  # saved after ``stop`` setup events (a draw without its placing, for odd ``stop``)
    part.footer = None
    assert all(e[1] == 0 for e in part.events)
    saved = saved_game(part, plugins)
    saved.turn_cap = 60
    again = Record(meta=dict(part.meta))
    game, check = resume_game(part, saved, [factory() for _ in range(players)], new_record=again)
    assert game.setting_up
    finish_catch_up(game, check)
    game.play()
    assert Record.loads(again.dumps()).events == Record.loads(whole.dumps()).events


# -- the conformance kit, the bots, the command line ------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_seeds_setup_conforms(plugins, players):
    report = check_variant("fences", players=[players], games=3, seed=11, plugins=plugins)
    assert report.games == 3 and report.steps > 3 * players * 2


@pytest.mark.parametrize("bot", ["greedy", "search"])
@pytest.mark.parametrize("players", [2, 3])
def test_the_looking_ahead_bots_place_by_evaluation(plugins, fences, bot, players):
    factory = plugins.bot(bot).factory
    seats = [factory() for _ in range(players)]
    game = Game(fences, seats, random.Random(5))
    state = game.state
    moves = fences.treehouse_legal_moves(state, PLACE, "red")
    choice = seats[0].choose(state, PLACE, "red", moves, random.Random(0))
    from treehouse.variants.fences.evaluate import evaluate

    best = max(evaluate(applied(fences, state, PLACE, m), 0) for m in moves)
    assert evaluate(applied(fences, state, PLACE, choice), 0) == best
    game.play_turn()  # the setup
    assert not game.setting_up and game.state.unplaced() == ()
    game.play_turn()  # and a normal turn follows
    assert game.turn == 1


def test_th_play_watch_shows_the_setup_then_the_turns(tmp_path):
    result = th("play", "--variant", "fences", "--watch", "--seed", 3, "--delay", 0, "--record", tmp_path / "g.jsonl")
    assert result.exit_code == 0, result.output[-2000:]
    assert "Traceback" not in result.output
    assert "Setup (place) · Player 1" in result.stdout and "drew" in result.stdout
    assert "Setup (draw) · Player 2" in result.stdout and "Turn 1 (fence)" in result.stdout


def test_th_show_draws_a_setup_position():
    result = th("show", "--variant", "fences", SEAT_2_PLACES)
    assert result.exit_code == 0, result.output
    assert "nothing drawn yet" in result.stdout


def test_th_moves_lists_where_a_drawn_small_may_go():
    result = th("moves", "--variant", "fences", "-a", "red", SEAT_2_PLACES)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("small drawn on") == 1 and "place the red small drawn on e5" in result.stdout
    result = th("moves", "--variant", "fences", "-a", "RED", NOTHING_DRAWN)
    assert result.stdout.count("small drawn on") == 4


def test_th_simulate_fifty_games_with_the_seeds_setup():
    result = th("simulate", "--variant", "fences", "--games", 50)
    assert result.exit_code == 0, result.output
    assert "Completion" in result.stdout and "place_steps" not in result.stdout  # the setup is not play


@pytest.mark.parametrize("start", ["corners", "random"])
def test_the_old_starts_stay_as_options_and_draw_at_once(fences_class, start):
    variant = fences_class({"start": start})
    state = variant.treehouse_setup(variant, 3, random.Random(4))
    assert not state.setting_up and variant.treehouse_setup_step(state) is None
    assert [len(s) for s in state.stacks] == [3, 3, 3]
    assert all(board_square in INSIDE for board_square in (state.square_of(s) for s in range(3)))
    assert all(state.board[s] is not None for s in OUTSIDE)


# -- the first player (option first_player; issue 47, item 5) -----------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_named_first_player_draws_first_and_plays_the_first_turn(fences_class, players):
    """The seed: "Choose a first Player"; then "Players take turns drawing": the
    setup's draws go round the table from the first player, who plays turn 1."""
    fences = fences_class({"first_player": 2})
    record = Record(meta={"seed": 3})
    game = setup_game(fences, players, seed=3, record=record)
    assert game.state.to_move == 1 and game.state.step_name == "place"
    game.play_turn()  # the setup
    height = fences.rules.height(players)
    rolls = [e for e in record.events if e[1] == 0 and e[0] == "roll"]
    assert [e[2] for e in rolls] == [(1 + i) % players for i in range(players * height)]
    assert not game.setting_up and game.state.to_move == 1 and game.state.step_name == "fence"
    game.play_turn()
    assert next(e for e in record.events if e[1] == 1)[2] == 1  # turn 1 is seat 2's


@pytest.mark.parametrize("start", ["corners", "random"])
def test_under_the_other_starts_the_first_player_drafts_first_and_moves_first(fences_class, start):
    fences = fences_class({"first_player": 3, "start": start})
    state = fences.treehouse_setup(fences, 3, random.Random(5))
    assert state.to_move == 2 and state.step_name == "fence"
    plain = fences_class({"start": start}).treehouse_setup(fences, 3, random.Random(5))
    # the same blind draws, dealt from seat 3 on: seat 3 gets what seat 1 got, and so on round the table
    assert (state.stacks[2], state.stacks[0], state.stacks[1]) == plain.stacks and state.aside == plain.aside


def test_a_drawn_first_player_comes_from_the_games_seed(fences_class):
    fences = fences_class({"first_player": "drawn", "start": "corners"})
    firsts = [fences.treehouse_setup(fences, 4, random.Random(seed)).to_move for seed in range(40)]
    assert firsts == [fences.treehouse_setup(fences, 4, random.Random(seed)).to_move for seed in range(40)]
    assert set(firsts) == {0, 1, 2, 3}


def test_the_default_first_player_is_seat_1_and_draws_nothing(fences_class):
    """``first_player: 1`` (the default) draws nothing from the seed: the games are the ones played before the option."""
    default = fences_class()
    assert default.rules.first_player == 1
    rng, again = random.Random(9), random.Random(9)
    assert default.treehouse_setup(default, 3, rng) == fences_class({"first_player": 1}).treehouse_setup(default, 3, again)
    assert rng.getstate() == again.getstate()


def test_a_first_player_the_game_does_not_have_is_refused_in_one_line(plugins):
    result = CliRunner().invoke(app, ["simulate", "-v", "fences", "-n", "1", "--set", "first_player=3"])
    assert result.exit_code != 0
    assert "first_player: 3, but the game has 2 players: name a seat from 1 to 2, or drawn" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("value", ["0", "13", "x", "true", "'2'"])
def test_a_first_player_that_is_no_seat_is_refused_in_one_line(value):
    result = CliRunner().invoke(app, ["rules", "-v", "fences", "--set", f"first_player={value}"])
    assert result.exit_code != 0
    assert "rules.first_player: Value error, expected a seat number from 1 to 12, or drawn" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_setup_positions_with_another_first_player_read_back(fences):
    """Seat 2 drew first: it has one small more, and seat 1 is to draw."""
    text = SEAT_2_DRAWS.replace("gb,o -,- rroyygb 2 draw", "o,gb -,- rroyygb 1 draw")
    assert fences.format_position(fences.parse_position(text)) == text
