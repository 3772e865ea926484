"""``start: chosen``: each player's first turn is a no-roll ``place`` step that
puts their Stack on the board (docs/rules/fences.md, Setup step 5)."""

from __future__ import annotations

import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.errors import IllegalPositionError, NotationError
from treehouse.kernel.engine import Game, play_move
from treehouse.testing import check_variant
from treehouse.variants.fences.board import BY_NAME, INSIDE, NAMES, OUTSIDE
from treehouse.variants.fences.game import PLACE, STEPS
from treehouse.variants.fences.position import PLACE_PHASE

runner = CliRunner()
FENCE = STEPS[0]
#: Two players, nobody placed yet: seat 1 to place on turn 0.
UNPLACED = "Mr*Ly*Mg*Mb*Lb*/Ly*.....Lr*/Mb*.....Mg*/Lo*.....Lr*/Lb*.....My*/Lo*.....Lg*/Lg*Mo*My*Mo*Mr* gbrr,oyog -,- yb 1 place 0"
#: Seat 1 placed on a1; seat 2 to place on turn 1.
SEAT_2_PLACES = UNPLACED.replace("/Lo*.....Lg*/", "/Lo*1....Lg*/").replace(" 1 place 0", " 2 place 1")


@pytest.fixture
def chosen(fences_class):
    return fences_class({"start": "chosen"})


def names(moves):
    return [NAMES[m.arg] for m in moves]


def place(variant, state, square):
    """Play one whole place turn: the step, its (empty) check, the hand-on."""
    move = variant.parse_move(f"place {square}")
    assert move in variant.treehouse_legal_moves(state, PLACE, None)
    after, _events = play_move(variant, state, PLACE, move)
    return variant.treehouse_end_turn(after)


# -- setup and the turn's steps ----------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_leaves_every_stack_to_place_and_seat_1_places_first(chosen, players):
    state = chosen.treehouse_setup(chosen, players, random.Random(players))
    assert not any(type(cell) is int for cell in state.board)
    assert state.unplaced() == tuple(range(players))
    assert all(len(s) == chosen.rules.height(players) for s in state.stacks)
    assert (state.to_move, state.phase, state.turn, state.step_name) == (0, PLACE_PHASE, 0, "place")
    assert chosen.treehouse_turn_steps(state) == (PLACE,)
    assert not PLACE.rolls


def test_the_draft_and_fences_are_those_of_the_other_starts(fences_class):
    corners, chosen = fences_class(), fences_class({"start": "chosen"})
    for seed in range(5):
        a = corners.treehouse_setup(corners, 3, random.Random(seed))
        b = chosen.treehouse_setup(chosen, 3, random.Random(seed))
        assert a.stacks == b.stacks and a.aside == b.aside
        assert [a.board[s] for s in OUTSIDE] == [b.board[s] for s in OUTSIDE]


# -- legal place moves -------------------------------------------------------


def test_two_players_seat_1_picks_a_corner_and_seat_2_takes_the_opposite_one(chosen):
    state = chosen.treehouse_setup(chosen, 2, random.Random(1))
    assert sorted(names(chosen.treehouse_legal_moves(state, PLACE, None))) == ["a1", "a5", "e1", "e5"]
    for corner, opposite in (("a1", "e5"), ("a5", "e1"), ("e5", "a1"), ("e1", "a5")):
        after = place(chosen, state, corner)
        assert (after.to_move, after.phase, after.turn) == (1, PLACE_PHASE, 1)
        moves = chosen.treehouse_legal_moves(after, PLACE, None)
        assert names(moves) == [opposite]  # exactly one move
        done = place(chosen, after, opposite)
        assert (done.to_move, done.phase, done.turn) == (0, 0, 2)
        assert done.square_of(0) == BY_NAME[corner] and done.square_of(1) == BY_NAME[opposite]
        assert chosen.treehouse_turn_steps(done) == STEPS


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_take_any_empty_inside_square_in_turn_order(chosen, players):
    state = chosen.treehouse_setup(chosen, players, random.Random(7))
    picks = ["c3", "c4", "a1", "e5"][:players]
    for seat, square in enumerate(picks):
        assert (state.to_move, state.phase, state.turn) == (seat, PLACE_PHASE, seat)
        moves = chosen.treehouse_legal_moves(state, PLACE, None)
        assert len(moves) == 25 - seat
        assert set(names(moves)) == {NAMES[s] for s in INSIDE} - set(picks[:seat])
        state = place(chosen, state, square)
    assert (state.to_move, state.phase, state.turn) == (0, 0, players)
    assert [NAMES[state.square_of(s)] for s in range(players)] == picks
    assert state.unplaced() == ()


def test_a_placed_stack_has_no_place_move_and_other_steps_offer_nothing_unplaced(chosen):
    state = chosen.parse_position(SEAT_2_PLACES)
    seat_1_done = chosen.parse_position(UNPLACED.replace("/Lo*.....Lg*/", "/Lo*1....Lg*/"))
    assert chosen.treehouse_legal_moves(seat_1_done, PLACE, None) == ()  # its step is played
    assert names(chosen.treehouse_legal_moves(state, PLACE, None)) == ["e5"]


def test_placing_makes_no_hit_and_changes_only_the_board(chosen):
    state = chosen.parse_position(SEAT_2_PLACES)
    move = chosen.parse_move("place e5")
    assert chosen.hits(state, PLACE, move) == []
    after = play_move(chosen, state, PLACE, move)[0]
    assert after == state._replace(board=after.board)
    assert after.board[BY_NAME["e5"]] == 1
    assert chosen.treehouse_outcome(after, 1) is None


def test_bots_evaluate_an_unplaced_stack_by_its_smalls(chosen):
    from treehouse.variants.fences.evaluate import SMALL, evaluate, stack_value

    state = chosen.parse_position(UNPLACED)
    assert stack_value(state, 0) == stack_value(state, 1) == 4 * SMALL
    assert evaluate(state, 0) == 0.0  # two unplaced Stacks of four: even
    state = chosen.parse_position(SEAT_2_PLACES)
    assert stack_value(state, 1) == 4 * SMALL
    assert evaluate(state, 1) == 4 * SMALL - stack_value(state, 0) != 0.0


# -- notation ----------------------------------------------------------------


@pytest.mark.parametrize("text", [UNPLACED, SEAT_2_PLACES])
def test_unplaced_positions_round_trip(chosen, fences, text):
    for variant in (chosen, fences):  # the notation does not depend on the start option
        state = variant.parse_position(text)
        assert variant.format_position(state) == text
        assert variant.parse_position(variant.format_position(state)) == state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_the_placing_turns_round_trips(chosen, players):
    for seed in range(10):
        state = chosen.treehouse_setup(chosen, players, random.Random(seed))
        rng = random.Random(seed)
        while state.phase == PLACE_PHASE:
            assert chosen.parse_position(chosen.format_position(state)) == state
            move = rng.choice(chosen.treehouse_legal_moves(state, PLACE, None))
            after = play_move(chosen, state, PLACE, move)[0]
            assert chosen.parse_position(chosen.format_position(after)) == after
            state = chosen.treehouse_end_turn(after)
        assert chosen.parse_position(chosen.format_position(state)) == state


def test_place_moves_round_trip_and_are_described(chosen):
    move = chosen.parse_move("place c3")
    assert move.kind == "place" and move.arg == BY_NAME["c3"]
    assert chosen.format_move(move) == "place c3"
    assert chosen.describe_move(move) == "place the stack on c3"


@pytest.mark.parametrize(
    "text, fault",
    [
        ("place", "'place' takes 1 argument(s), not 0"),
        ("place c3 c4", "'place' takes 1 argument(s), not 2"),
        ("place z9", "bad square 'z9'"),
        ("place N3", "a Stack is placed on an Inside square"),
        ("wild:gr place c3", "takes no 'wild:' reorder"),
    ],
)
def test_bad_place_moves_name_the_fault(chosen, text, fault):
    with pytest.raises(NotationError) as error:
        chosen.parse_move(text)
    assert fault in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(
    "text, fault",
    [
        (UNPLACED.replace(" place 0", " fence 0"), "has a Stack (gbrr) but no square"),
        (UNPLACED.replace(" place 0", " place 3"), "TURN must be 0"),
        (UNPLACED.replace(" 1 place 0", " 2 place 1"), "seat 1 has not placed its Stack"),
        (UNPLACED.replace("/Lo*.....Lg*/", "/Lo*....2Lg*/"), "seat 2's Stack is placed before seat 1's"),
        (UNPLACED.replace("/Lo*.....Lg*/", "/Lo*..1..Lg*/"), "start on opposite corners"),
        (SEAT_2_PLACES.replace("/Ly*.....Lr*/", "/Ly*2....Lr*/"), "the corner opposite seat 1's, e5"),
        (UNPLACED.replace("/Ly*.....Lr*/", "/Ly>.....Lr*/"), "has moved"),
        (UNPLACED.replace("/Ly*.....Lr*/", "/.Ly*....Lr*/"), "has moved"),
        (UNPLACED.replace("gbrr,oyog -,- yb", "gbr,oyog r,- yb"), "before any Hit"),
    ],
)
def test_impossible_placing_positions_are_refused_in_one_line(chosen, text, fault):
    with pytest.raises(IllegalPositionError) as error:
        chosen.parse_position(text)
    assert fault in str(error.value) and "\n" not in str(error.value)


def test_render_lists_unplaced_stacks(chosen):
    console = Console(width=100, no_color=True, record=True)
    console.print(chosen.render_text(SEAT_2_PLACES, 100))
    text = console.export_text()
    assert "Player 1  a1  4 high" in text
    assert "Player 2  not placed yet  4 high" in text
    assert "Player 2 to place their Stack" in text


# -- games: the conformance kit, the bots ------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_chosen_conforms(plugins, players):
    report = check_variant("fences", overrides=["start=chosen"], players=[players], games=4, seed=11, plugins=plugins)
    assert report.games == 4 and report.steps > 4 * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_chosen_conforms_with_greedy_seats(plugins, players):
    report = check_variant("fences", overrides=["start=chosen"], players=[players], games=1, seat_kinds=("greedy",), plugins=plugins)
    assert report.games == 1


@pytest.mark.parametrize("bot", ["greedy", "search"])
@pytest.mark.parametrize("players", [2, 3])
def test_the_looking_ahead_bots_play_the_place_step(plugins, chosen, bot, players):
    factory = plugins.bot(bot).factory
    seats = [factory() for _ in range(players)]
    game = Game(chosen, seats, random.Random(5))
    for seat in range(players):
        state = game.state
        assert (state.to_move, state.step_name) == (seat, "place")
        moves = chosen.treehouse_legal_moves(state, PLACE, None)
        choice = seats[seat].choose(state, PLACE, None, moves, random.Random(0))
        assert choice in moves
        game.play_turn()
        assert game.state.square_of(seat) is not None
    assert game.state.step_name == "fence" and game.state.unplaced() == ()
    game.play_turn()  # and a normal turn follows
    assert game.state.turn == players + 1 or game.over


def test_search_plays_a_whole_game_with_start_chosen(plugins, chosen):
    from treehouse.bots.search import SearchBot

    game = Game(chosen, [SearchBot(depth=2), SearchBot(depth=2)], random.Random(2), turn_cap=200)
    outcome = game.play()
    assert outcome.winners or outcome.is_draw


# -- the command line --------------------------------------------------------


def th(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_th_play_watch_with_start_chosen_finishes(tmp_path):
    result = th("play", "--variant", "fences", "--set", "start=chosen", "--watch", "--seed", 3, "--delay", 0, "--record", tmp_path / "g.jsonl")
    assert result.exit_code == 0, result.output[-2000:]
    assert "Traceback" not in result.output
    assert "Turn 1 (place)" in result.stdout and "place the stack on" in result.stdout
    assert "Turn 2 (place)" in result.stdout and "Turn 3 (fence)" in result.stdout
    assert "last stack" in result.stdout or "turn cap" in result.stdout


def test_th_play_for_four_with_greedy_bots(tmp_path):
    result = th("play", "--variant", "fences", "--set", "start=chosen", "-p", 4, "--bot", "greedy", "--watch", "--seed", 1, "--delay", 0, "--record", tmp_path / "g.jsonl")
    assert result.exit_code == 0, result.output[-2000:]
    assert "Turn 4 (place)" in result.stdout and "Turn 5 (fence)" in result.stdout


def test_th_show_draws_an_unplaced_position():
    result = th("show", "--variant", "fences", SEAT_2_PLACES)
    assert result.exit_code == 0, result.output
    assert "not placed yet" in result.stdout


def test_th_moves_lists_the_placements():
    result = th("moves", "--variant", "fences", "-a", "tip", SEAT_2_PLACES)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("place the stack on") == 1 and "place the stack on e5" in result.stdout
    result = th("moves", "--variant", "fences", "-a", "tip", UNPLACED)
    assert result.stdout.count("place the stack on") == 4


def test_th_simulate_fifty_games_with_start_chosen():
    result = th("simulate", "--variant", "fences", "--set", "start=chosen", "--games", 50)
    assert result.exit_code == 0, result.output
    assert "place_steps" in result.stdout and "Completion" in result.stdout
