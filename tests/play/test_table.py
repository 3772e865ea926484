"""A table a person enjoys: forced moves, why a move is illegal, takeback, hints, the two questions of WILD.

Through Typer's runner (a plain transcript); the steady 80x24 screen is
tested in a real terminal in test_screen.py.
"""

from __future__ import annotations

import json
import re
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.cli.layout import numbered, page_lines, paginate, text_pages
from treehouse.cli.menu import Menu
from treehouse.kernel.engine import Game
from treehouse.kernel.records import Record
from treehouse.kernel.replay import replay
from treehouse.plugins import game_hooks, load_plugins

runner = CliRunner()
PLUGINS = load_plugins()
MANY = "1\n" * 1500


def th(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output[-3000:]
    return result


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


# --------------------------------------------------------------------------
# forced moves
# --------------------------------------------------------------------------

# the seed's setup (start: chosen) with two players: seat 2 may only take the corner opposite
# seat 1's, and every later draw goes on top of the Stack: forced moves, all of them
FORCED = ("play", "-v", "fences", "--seat", "random", "--seat", "human", "--set", "start=chosen", "--seed", "3", "--delay", "0")


def test_a_forced_move_plays_itself_announced_in_one_line(tmp_path):
    result = th(*FORCED, "--record", tmp_path / "g.jsonl", input="q\n")
    assert result.exit_code == 0, result.output[-2000:]
    announced = [line for line in result.stdout.splitlines() if "the only move, played for you" in line]
    assert announced[0] == (
        "Setup (place) · Player 2 (you) drew yellow: place the yellow small drawn on a5, starting the stack (the only move, played for you)"
    )
    assert len(announced) == 4 and all(line.startswith("Setup (draw) · Player 2 (you) drew ") for line in announced[1:])
    assert "Setup · place · Player 2 (you) to move" not in result.stdout  # never asked
    moves = [e for e in lines_of(tmp_path / "g.jsonl") if e["event"] == "move"]
    assert moves[1] == {"event": "move", "turn": 0, "seat": 2, "step": "place", "move": "place y a5"}


def test_ask_forced_asks_even_for_the_only_move(tmp_path):
    result = th(*FORCED, "--ask-forced", "--record", tmp_path / "g.jsonl", input="q\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "Setup · place · Player 2 (you) to move" in result.stdout
    assert "played for you" not in result.stdout


# --------------------------------------------------------------------------
# why a move is illegal: the variant names the rule, in one line
# --------------------------------------------------------------------------


def fences_game(seed=3, **rules):
    variant = PLUGINS.variant("fences")(rules={"start": "corners", **rules})  # Stacks on a1 and e5 from the start
    seats = [PLUGINS.bots["random"].factory(), PLUGINS.bots["random"].factory()]
    return Game(variant, seats, random.Random(seed))


def explain(game, step_name, face, text):
    hooks = game_hooks(game.variant)
    state = game.state
    step = next(s for s in hooks.treehouse_turn_steps(state) if s.name == step_name) if step_name != "act" else None
    from treehouse.variants.fences.game import STEPS

    step = step or STEPS[1]
    moves = hooks.treehouse_legal_moves(state, step, face)
    move = game.variant.parse_move(text)
    assert move not in moves
    return hooks.treehouse_explain_illegal(state, step, face, move, moves)


@pytest.mark.parametrize(
    "step, face, typed, reason",
    [
        ("fence", None, "move Lb@S2 S1", "S1 is occupied"),
        ("fence", None, "move Lb@S2 b3", "S2 to b3 is not one space: a Fence moves one space north, east, south or west"),
        ("fence", None, "move Lb@N1 N2", "the Fence at N1 is Lg (L(green)), not Lb"),
        ("fence", None, "move Lb@c3 c4", "c3 is empty: there is no Fence Lb there"),
        ("fence", None, "move Lb@a1 a2", "a1 holds player 1's Stack, not a Fence"),
        ("fence", None, "step n", "step 1 moves a Fence one space, e.g. 'move Lb@S2 b1'"),
        ("fence", None, "tip Lb@S2 n", "step 1 moves a Fence one space, e.g. 'move Lb@S2 b1'"),
        ("act", "TIP", "swap Lb@S2", "you rolled TIP, so the action is TIP, not SWAP"),
        ("act", "TIP", "tip Mb@W1 w", "a Fence at W1 tips toward the Inside: east"),
        ("act", "TIP", "tip Lb@S2 n", "S2 is not in line with your Stack at a1: Tip a Standing Fence in its row or column"),
        ("act", "SWAP", "wild:bgro swap Lb@S2", "'wild:' is only for a WILD roll; you rolled SWAP"),
        ("act", "WILD", "swap Lb@S2", "you rolled WILD: put the reorder first (your Stack bottom to top), e.g."),
        ("act", "WILD", "wild:rrrr swap Lb@S2", "a WILD reorder uses your Stack's own smalls (blue, green, red, orange), not red, red, red, red"),
        ("act", "HOP", "hop Lb@S2", "S2 is not next to your Stack at a1: Hop over (or with) a Fence beside it"),
        ("act", "DIG", "dig +r", "you have no destroyed red small to put back (destroyed: none)"),
        ("act", "AIM", "aim Lg@N1:s", "N1 is not next to your Stack at a1: Aim turns the Fences around it"),
        ("act", "TIP", "fail", "'fail' is only for a rolled action that is impossible, and TIP is possible here"),
    ],
)
def test_the_variant_names_the_rule_a_typed_move_breaks(step, face, typed, reason):
    said = explain(fences_game(), step, face, typed)
    assert said is not None and said.startswith(reason), said
    assert "\n" not in said and len(said) <= 110


def test_a_pointing_fence_cannot_move_backwards():
    variant = PLUGINS.variant("fences")()
    game = fences_game()
    # tip the Standing Fence at S2 north (it slides in along b-file and points north), then try to move it back south
    from treehouse.variants.fences.rules import perform
    from treehouse.variants.fences.moves import FencesMove
    from treehouse.kernel.pieces import Direction

    from treehouse.variants.fences.board import BY_NAME

    tipped = perform(game.state, 0, FencesMove("tip", "Lb", BY_NAME["S2"], Direction.NORTH)).state
    square = next(s for s, cell in enumerate(tipped.board) if cell is not None and type(cell) is not int and cell.direction is Direction.NORTH)
    from treehouse.variants.fences.board import NAMES, NEIGHBOUR

    below = NEIGHBOUR[square][Direction.SOUTH]
    assert tipped.board[below] is None
    from treehouse.variants.fences.explain import why_illegal
    from treehouse.variants.fences.game import STEPS
    from treehouse.variants.fences.moves import piece_key

    move = FencesMove("move", piece_key(tipped.board[square]), square, below)
    said = why_illegal(tipped, STEPS[0], None, move, (), variant.rules)
    assert said == f"a Pointing Fence cannot move backwards (Lb at {NAMES[square]} points north)"


def test_classic_names_the_rule_too():
    variant = PLUGINS.variant("classic")()
    hooks = game_hooks(variant)
    state = hooks.treehouse_setup(variant, 2, random.Random(0))
    from treehouse.kernel.engine import ONE_ROLLED_STEP

    step = ONE_ROLLED_STEP[0]
    moves = hooks.treehouse_legal_moves(state, step, "HOP")
    said = lambda text: hooks.treehouse_explain_illegal(state, step, "HOP", variant.parse_move(text), moves)  # noqa: E731
    assert said("aim L^ M^ S^") == "you rolled HOP, so the action is HOP, not AIM"
    assert said("house:hop L< M> S^") == "your own trio has a HOP move, so you may not change the House (only when yours has none, or on a WILD)"
    assert said("hop L^/M^/S^") == "that leaves your trio as it is (L^/M^/S^); a move must change it"
    assert said("hop L^ S^ M^") == "no single hop turns your trio L^/M^/S^ into L^ S^ M^"


def test_an_illegal_move_at_the_prompt_is_one_line_naming_the_rule(tmp_path):
    result = th(
        "play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seed", "3", "--delay", "0", "--record", tmp_path / "g.jsonl",
        input="move Lb@S2 S1\nq\n",
    )
    assert "✗ move Lb@S2 S1: S1 is occupied\n" in result.stdout
    assert "not one of your moves" not in result.stdout


# --------------------------------------------------------------------------
# takeback
# --------------------------------------------------------------------------

CLASSIC = ("play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "12", "--delay", "0")


def test_take_back_rewinds_to_the_same_roll_and_keeps_the_undone_moves_in_the_record(tmp_path):
    path = tmp_path / "g.jsonl"
    result = th(*CLASSIC, "--record", path, input="u\n1\n2\nu\n1\nq\n")
    out = result.stdout
    assert result.exit_code == 0, out[-2000:]
    assert "✗ nothing to take back: this is the first decision a person makes in this game" in out
    assert "Took back 2 moves: back to turn 3." in out
    # the second decision is asked twice, with the same roll and the same moves
    screens = out.split("Turn 3 · Player 1 (you) to move")
    assert len(screens) == 3
    first, again = (s.split("Your move")[0] for s in screens[1:])
    assert first == again
    events = lines_of(path)
    undone = [e for e in events if e.get("undone")]
    assert [e["event"] for e in undone] == ["move", "roll", "move", "roll"] and {e["undone"] for e in undone} == {1}
    assert undone[0]["turn"] == 3 and undone[0]["seat"] == 1
    kept = [e for e in events if e["event"] == "move" and not e.get("undone")]
    assert [e["seat"] for e in kept] == [1, 2, 1, 2]  # the bot answered the new move
    assert kept[2]["move"] != undone[0]["move"]  # 2 was taken back, 1 played instead
    # the record replays (the undone moves skipped), and resumes exactly to the end
    record = Record.read(path)
    assert len(record.undone) == 1
    replay(record, PLUGINS)
    resumed = th("play", "--resume", path, "--delay", "0", input=MANY)
    assert resumed.exit_code == 0, resumed.output[-2000:]
    final = lines_of(path)
    assert final[: len(events)] == events  # undone events stay where they were played
    assert final[-1]["event"] == "end"
    replay(Record.read(path), PLUGINS)


def test_the_log_of_a_resumed_game_tells_every_step_and_takeback_since_the_first(tmp_path):
    path = tmp_path / "g.jsonl"
    played = th(*CLASSIC, "--record", path, input="1\n2\nu\n1\ng\nq\n").stdout
    before = played[played.rindex("Took back") :].split("Turn 5 · Player 1 (you) to move")[0]  # g's log, up to the board again
    resumed = th("play", "--resume", path, "--delay", "0", input="g\nq\n").stdout
    log = resumed[resumed.index("Turn 1 · Player 1 (you)") :]
    steps = [line for line in log.splitlines() if re.match(r"Turn \d+ · Player \d", line)]
    assert [e["turn"] for e in lines_of(path) if e["event"] == "move" and not e.get("undone")] == [int(re.match(r"Turn (\d+)", s).group(1)) for s in steps]
    assert "Took back 2 moves: back to turn 3." in log.split(steps[1])[1].split(steps[2])[0]  # where it happened: before the new turn-3 move
    assert log.index("Took back") < log.index("Resumed where it was saved: turn 5.")
    assert "Took back 2 moves: back to turn 3." in before  # the session's own log says it too


def test_a_game_with_takebacks_ends_as_the_same_seed_without_them_does(tmp_path):
    """Taking back and choosing the same again gives the very game played without takebacks."""
    straight, undoing = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    th(*CLASSIC, "--record", straight, input=MANY)
    th(*CLASSIC, "--record", undoing, input="1\n1\nu\n1\nu\nu\n1\n1\n" + MANY)
    kept = lambda path: [e for e in lines_of(path) if not e.get("undone")]  # noqa: E731
    assert kept(undoing) == kept(straight)
    assert any(e.get("undone") == 3 for e in lines_of(undoing))


def test_replay_shows_the_moves_taken_back(tmp_path):
    path = tmp_path / "g.jsonl"
    th(*CLASSIC, "--record", path, input="1\n2\nu\n1\nq\n")
    result = th("replay", "--all", path)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Taken back here: Turn 3 · Player 1" in result.stdout


# --------------------------------------------------------------------------
# hints
# --------------------------------------------------------------------------


def test_a_hint_in_fences_gives_the_search_bots_choice_and_value(tmp_path):
    result = th("play", "-v", "fences", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", tmp_path / "g.jsonl", input="h\nq\n")
    hint = [line.partition("Hint (")[2] for line in result.stdout.splitlines() if "Hint (" in line]
    assert len(hint) == 1 and re.match(r"search\): \d+( \(page \d+\))?( then \d+)? \(.+\), (about even|about [\d.]+ smalls? (ahead|behind))", hint[0]), hint
    assert "Next best: " in result.stdout
    assert "search value" not in result.stdout and not re.search(r"[+-]\d+\.\d\d\b", hint[0])  # no raw score


def test_a_hint_in_classic_gives_each_moves_exact_winning_chance(tmp_path, solved_classic):
    from treehouse.variants.classic.perfect import PerfectBot

    path = tmp_path / "g.jsonl"
    result = th(*CLASSIC, "--record", path, input="h\nq\n")
    hint = ["Hint (" + line.partition("Hint (")[2] for line in result.stdout.splitlines() if "Hint (" in line]
    assert len(hint) == 1 and hint[0].startswith("Hint (perfect, winning chance "), hint
    # the chance shown is the table's value of the move named
    record = Record.read(path)
    game = replay(record, PLUGINS)
    bot = PerfectBot.from_solution(solved_classic)
    face = record.events[-1][4]
    hooks = game_hooks(game.variant)
    from treehouse.kernel.engine import ONE_ROLLED_STEP

    moves = hooks.treehouse_legal_moves(game.state, ONE_ROLLED_STEP[0], face)
    values = bot.advise(game.state, ONE_ROLLED_STEP[0], face, moves)
    best = max(range(len(moves)), key=values.__getitem__)
    assert hint[0].startswith(f"Hint (perfect, winning chance {100 * values[best]:.1f}%): {best + 1} (")


def test_show_odds_prints_the_winning_chances_after_every_turn(tmp_path, solved_classic):
    result = th(*CLASSIC, "--show-odds", "--record", tmp_path / "g.jsonl", input="1\n1\nq\n")
    odds = [line.partition("Winning chances now: ")[2] for line in result.stdout.splitlines() if "Winning chances now: " in line]
    assert len(odds) >= 3
    for line in odds:
        numbers = [float(part.rstrip("%")) for part in line.replace(",", "").split() if part.endswith("%")]
        assert len(numbers) == 2 and abs(sum(numbers) - 100) < 0.11, line


def test_show_odds_outside_two_player_classic_is_refused_in_one_line(tmp_path):
    result = th("play", "-v", "fences", "--show-odds", "--seed", "1", "--record", tmp_path / "g.jsonl", input="q\n")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --show-odds needs the exact table: fences has none (th solve makes one for the games it can solve)"


# --------------------------------------------------------------------------
# WILD in two questions, and the layout of pages
# --------------------------------------------------------------------------


def test_a_fences_wild_roll_is_asked_as_the_action_then_the_order(tmp_path):
    path = tmp_path / "g.jsonl"
    # seed 5: player 1 rolls WILD on turn 1 (after the fence step)
    result = th(
        "play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", path,
        input="1\n4\n2\nq\n",
    )
    out = result.stdout
    # the face in Fences' own words (treehouse_describe_face), then what to do
    assert "Rolled WILD: reorder your Stack as you like, then do any one of the five actions. Choose the action; the order comes next." in " ".join(out.split())
    assert " 1. keep the order as it is " in out
    assert "WILD: tip L(orange) at b1 east. Then the order (top first); b goes back." in out
    played = [e["move"] for e in lines_of(path) if e["event"] == "move"]
    assert played[1] == "wild:rroy tip Lo@b1 e"  # the second order offered: yellow, orange, red, red (top first)


def test_the_menu_groups_wild_moves_by_their_action():
    game = fences_game(seed=5)
    hooks = game_hooks(game.variant)
    from treehouse.variants.fences.game import STEPS

    state = game.state._replace(phase=1)
    moves = hooks.treehouse_legal_moves(state, STEPS[1], "WILD")
    menu = Menu(game.variant, state, moves)
    assert len(menu.first) < len(moves) / 5
    assert sum(len(entry.moves) for entry in menu.first) == len(moves)
    entry = next(e for e in menu.first if len(e.moves) > 1)
    menu.open(entry)
    assert menu.entries[0].words == "keep the order as it is"
    assert all(e.words.startswith("reorder to ") for e in menu.entries[1:])
    menu.back()
    assert menu.entries is menu.first


def test_pages_fill_columns_and_fit_the_width():
    texts = [f"{n}. move fence L(red) at W{n}" for n in range(1, 41)]
    pages = paginate(texts, 80, 5)
    assert sum(p.count for p in pages) == 40 and pages[0].columns == 2
    for page in pages:
        lines = page_lines(texts, page, 80, 5)
        assert len(lines) <= 5 and all(len(line) <= 80 for line in lines)
    long = ["x" * 100, "short"]
    pages = paginate(long, 80, 3)
    assert pages[0].columns == 1
    assert page_lines(long, pages[0], 80, 3) == ["x" * 80, "x" * 20, "short"]  # even a word longer than the screen is not cut


def test_a_long_entry_wraps_under_its_words_and_is_never_cut():
    entry = "wild: swap the stack with M(red) at c2 ⚠ you lose 1 small, and are out"
    texts = numbered([entry] * 9 + ["hop"])
    pages = paginate(texts, 40, 5)
    assert [p.count for p in pages] == [2, 2, 2, 2, 2]  # two lines each: two entries a page of five rows (the short one shares the last)
    lines = page_lines(texts, pages[0], 40, 5)
    assert lines == [" 1. wild: swap the stack with M(red) at", "    c2 ⚠ you lose 1 small, and are out", " 2. wild: swap the stack with M(red) at", "    c2 ⚠ you lose 1 small, and are out"]
    assert [line for p in pages for line in page_lines(texts, p, 40, 5)][-1] == "10. hop"


@pytest.mark.parametrize("count, rows, sizes", [(0, 5, [0]), (5, 5, [5]), (6, 5, [5, 1]), (23, 10, [10, 10, 3]), (3, 0, [1, 1, 1])])
def test_long_text_is_cut_into_screens(count, rows, sizes):
    lines = [f"line {n}" for n in range(count)]
    pages = text_pages(lines, rows)
    assert [len(page) for page in pages] == sizes
    assert [line for page in pages for line in page] == lines  # nothing lost, nothing repeated, in order


def test_the_rules_screen_says_each_setting_in_words_and_classic_how_to_play(tmp_path):
    result = th("play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", tmp_path / "g.jsonl", input="r\n\nq\n")
    out = result.stdout
    assert "How to play classic Treehouse:" in out
    # the setting in words, its value as a word, and its name for --set, on one row of the table
    assert re.search(r"│ A lying piece may Dig by\s+│ yes\s+│ rules\.dig_in_place", out), out[-3000:]
    assert '"pass"' not in out and re.search(r"│ When the roll fits only the\s+│ pass\s+│ rules\.house_decline", out)


def test_classic_without_a_table_says_what_th_solve_brings_and_asks_nothing_through_a_pipe(tmp_path, monkeypatch):
    monkeypatch.setenv("TREEHOUSE_CACHE_DIR", str(tmp_path / "cache"))  # no table
    result = th("play", "-v", "classic", "--seed", "5", "--delay", "0", "--record", tmp_path / "g.jsonl", input="q\n")
    assert result.exit_code == 0, result.output[-2000:]
    said = " ".join(result.stdout.split())
    assert "The perfect bot and exact hints (each move's winning chance) come with the solved table: th solve makes it" in said
    assert "Start it now?" not in said  # a pipe is not asked: its input is the game's
    assert "Player 2 (search)" in said
    result = th("play", "-v", "classic", "--seat", "random", "--seat", "random", "--watch", "--seed", "5", "--delay", "0", "--record", tmp_path / "w.jsonl")
    assert "th solve makes it" not in result.stdout  # every seat given, nobody to hint: nothing to offer


def test_the_header_names_the_others_at_the_table_and_a_draw_agrees_with_the_bag(tmp_path):
    out = th("play", "-v", "fences", "--set", "start=chosen", "--seat", "human", "--seat", "random", "--seed", "5", "--delay", "0", "--record", tmp_path / "g.jsonl", input="q\n").stdout
    assert "Setup · place · Player 1 (you) to move · against Player 2 (random)" in out
    bag = re.search(r"in the bag: (\w+)", out).group(1)
    drawn = re.search(r"Drew (\w+) \(the bag above still counts it until it is placed\)\.", out).group(1)
    assert drawn[0] in bag  # the small drawn is in the bag the board shows, and the line says why


def test_a_paged_text_wraps_at_words_not_at_the_terminal_edge(monkeypatch):
    from io import StringIO

    from rich.console import Console
    from rich.text import Text

    from treehouse.cli.screen import page_through

    console = Console(file=StringIO(), width=30, height=10, soft_wrap=True, force_terminal=False)  # soft-wrapping, as th play's is
    monkeypatch.setattr(console, "input", lambda prompt="": "")
    log = "Turn 3 (fence) · Player 2 (search): move fence L(orange) at S2 to b1"
    page_through(console, Text(log))
    shown = [line.rstrip() for line in console.file.getvalue().splitlines() if line.strip() and "Press Enter" not in line]
    assert shown == ["Turn 3 (fence) · Player 2", "(search): move fence L(orange)", "at S2 to b1"]
