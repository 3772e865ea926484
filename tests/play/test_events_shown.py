"""th play and th replay tell what happened at every step: each Hit, each
small lost and who went out, from the events resolution reported (Typer's
runner, and the real program in a pseudo-terminal as a person plays it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from treehouse.cli import app
from treehouse.plugins import load_plugins

runner = CliRunner()
PLUGINS = load_plugins()


def th(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output[-3000:]
    assert result.exit_code == 0, result.output[-3000:]
    return result.output


EVENT = re.compile(r"^  Player \d (?:loses|is Hit|is out)")


def event_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if EVENT.match(line)]


def lost_in(record_path: Path) -> int:
    """Smalls destroyed by the end of a recorded Fences game (none are at the start)."""
    end = json.loads(record_path.read_text().splitlines()[-1])
    destroyed = end["position"].split()[2]
    return sum(len(part) for part in destroyed.split(",") if part != "-")


@pytest.fixture(scope="module")
def bot_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("events") / "fences.jsonl"
    output = th("play", "-v", "fences", "--set", "start=corners", "--seat", "random", "--seat", "random", "--seed", 3, "--delay", 0, "--record", path)
    return path, output


def test_th_play_prints_every_loss_under_the_step_that_caused_it(bot_game):
    path, output = bot_game
    losses = re.findall(r"^  Player \d loses (?:red|orange|yellow|green|blue) \(.+\)$", output, re.M)
    assert len(losses) == lost_in(path) > 0
    assert "  Player 2 loses red (moved onto M(yellow) at d5)" in output
    assert re.search(r"^  Player \d is Hit \(.+\): \w+ top, no damage$", output, re.M)


def test_the_game_over_line_says_how_the_last_stack_fell(bot_game):
    _path, output = bot_game
    assert "Player 1 (random) wins on turn 4: last stack standing. Player 2 is out: the last small went (bounced in the line of L(yellow) at E5)." in output
    after = output.split("─ Game over ─")[-1]
    assert "to play" not in after  # the board under "Game over" says how the game ended instead
    assert "Game over on turn 4: last stack standing" in after


@pytest.mark.parametrize("seed", range(12))
def test_the_board_at_the_end_counts_turns_as_the_game_over_line_does(seed):
    """A game can end in any step of a turn: the drawing's "Game over on turn N"
    is the engine's turn, the one the game-over line names, never one short."""
    import random

    from treehouse.kernel.engine import Game
    from treehouse.plugins import load_plugins
    from treehouse.variants.fences.render import render_position

    plugins = load_plugins()
    variant = plugins.variant("fences")({"start": "corners"})
    bot = plugins.bot("random").factory
    game = Game(variant, [bot(), bot()], random.Random(seed), turn_cap=500)
    game.play()
    drawn = render_position(game.state, 80, game.outcome.reason).plain
    assert f"Game over on turn {game.turn}: " in drawn


def test_th_replay_shows_the_same_events_from_the_record(bot_game):
    path, output = bot_game
    shown = th("replay", path, "--all")
    played, replayed = event_lines(output), event_lines(shown)
    assert replayed == played
    assert "Player 2 is out: the last small went" in shown.splitlines()[-1]


def test_the_record_keeps_the_events_words(bot_game):
    path, output = bot_game
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    happened = [words for line in lines if line["event"] == "resolved" for words in line["happened"]]
    assert ["  " + words for words in happened] == event_lines(output)
    assert {line["seat"] for line in lines if line["event"] == "resolved"} <= {1, 2}


# --------------------------------------------------------------------------
# a person playing in a terminal
# --------------------------------------------------------------------------

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra: pip install -e '.[test]'")
TH = shutil.which("th") or str(Path(sys.executable).with_name("th"))
PROMPT = r"Your move\S* \((?:move|reorder) 1-\d+, (?:page \d+/\d+, \+ (?:more|first page), )?\? help, q quit\): "


@pytest.mark.skipif(not Path(TH).exists(), reason="the th program is not installed")
def test_a_whole_fences_game_played_by_a_person_shows_every_hit_and_loss(tmp_path):
    path = tmp_path / "person.jsonl"
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), NO_COLOR="1", COLUMNS="80", LINES="40", TERM="xterm")
    env.pop("TREEHOUSE_DEBUG", None)
    args = ["play", "-v", "fences", "--set", "start=corners", "--seat", "human", "--seat", "random", "--seed", "3", "--delay", "0", "--record", str(path)]
    child = pexpect.spawn(TH, args, env=env, encoding="utf-8", timeout=30, dimensions=(40, 80))
    seen = []
    for _ in range(400):
        index = child.expect([PROMPT, r"(?:wins|tie|A draw) on turn \d+: [^\r\n]*"])
        seen.append(child.before)
        if index == 1:
            seen.append(child.after)
            break
        child.sendline("1")  # the person takes the first move offered, every time
    else:
        pytest.fail("the game did not end in 400 moves")
    child.expect(pexpect.EOF)
    seen.append(child.before)  # the rest of the game-over line (a screen wraps it at words) and the record's name
    child.close()
    assert child.exitstatus == 0
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(seen))
    shown = {line.strip() for line in screen.splitlines()}
    recorded = [json.loads(line) for line in path.read_text().splitlines()]
    written = [words for line in recorded if line["event"] == "resolved" for words in line["happened"]]
    assert any(" loses " in words for words in written)
    assert [words for words in written if words not in shown] == []  # every Hit and loss was on the screen
    if recorded[-1]["reason"] == "last stack standing":
        assert "is out: the last small went" in " ".join(screen.split("on turn")[-1].split())


# --------------------------------------------------------------------------
# ? shows the board's legend, r a how-to-play with the options in force
# --------------------------------------------------------------------------


def test_help_has_the_legend_and_rules_a_how_to_play_with_the_options_in_force(tmp_path):
    args = ["play", "-v", "fences", "--seat", "human", "--seat", "random", "--seed", 3, "--delay", 0, "--record", tmp_path / "g.jsonl"]
    output = th(*args, input="?\nr\nq\n")
    assert "N1-N5" in output and "Lr▲  Mb→" in output and "1:Rgb" in output  # the legend, from the variant
    assert "How to play Fences" in output
    assert "3. stack: move your Stack one square, to an Inside square." in output  # outside_attempts: false
    assert "one_hit_per_piece" in output  # the table of settings follows
    args[-1] = tmp_path / "g2.jsonl"
    output = th(*args, "--set", "outside_attempts=true", "--set", "one_hit_per_piece=false", input="r\nq\n")
    words = " ".join(output.split())  # the guide is wrapped to the terminal
    assert "or try to move Outside (always a Damaging Hit)" in words
    assert "once for each rule it meets" in words


@pytest.mark.parametrize(
    "options",
    [{}, {"outside_attempts": True, "one_hit_per_piece": False, "line_hits": "every_check", "uniform_dig": "reroll", "all_out_at_once": "tie", "turn_limit": 60, "turn_limit_scoring": "draw"}],
)
def test_the_how_to_play_fits_an_80_column_terminal(plugins, options):
    cls = plugins.variant("fences")
    guide = cls(cls.Rules(**options)).how_to_play()
    assert guide.startswith("How to play Fences")
    assert max(len(line) for line in guide.splitlines()) <= 80


def test_classic_has_no_fences_legend(tmp_path):
    output = th("play", "-v", "classic", "--seat", "human", "--seat", "random", "--seed", 3, "--delay", 0, "--record", tmp_path / "c.jsonl", input="?\nq\n")
    assert "Lr▲  Mb→" not in output and "How to play Fences" not in output
