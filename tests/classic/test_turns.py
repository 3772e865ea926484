"""A classic turn: own trio first, the House or a decline, rerolls, WILD, and winning."""

from __future__ import annotations

import pytest

from treehouse.kernel.engine import ONE_ROLLED_STEP, PASS, REROLL, Outcome
from treehouse.variants.classic.game import ClassicPosition, ClassicRules
from treehouse.variants.classic.trio import HOUSE, TREE, parse_trio

STEP = ONE_ROLLED_STEP[0]


def position(house: str, *trios: str, to_move: int = 0) -> ClassicPosition:
    return ClassicPosition(parse_trio(house), tuple(parse_trio(t) for t in trios), to_move)


def moves(variant, state, face):
    return variant.treehouse_legal_moves(state, STEP, face)


def test_an_action_that_fits_your_trio_must_be_done_there(classic):
    found = moves(classic, position("L< S^ M>", "L^/M^/S^", "L^/M^/S^"), "HOP")
    assert found and all(m.target == "own" for m in found)


def test_otherwise_the_house_or_a_pass(classic):
    found = moves(classic, position("L< S^ M>", "L^/M^/S^", "L^/M^/S^"), "AIM")
    assert found[-1] is PASS
    assert all(m.target == "house" for m in found[:-1]) and len(found) == 7


def test_the_wiki_declines_by_rerolling(classic_class):
    wiki = classic_class(ClassicRules(dig_in_place=False, house_decline="reroll"))
    found = moves(wiki, position("L< S^ M>", "L^/M^/S^", "L^/M^/S^"), "AIM")
    assert found[-1] is REROLL


def test_nothing_to_do_anywhere_means_roll_again(classic_class):
    wiki = classic_class(ClassicRules(dig_in_place=False))
    assert moves(wiki, position("L< S^ M>", "L^/M^/S^", "L^/M^/S^"), "DIG") == ()


def test_wild_offers_both_trios_even_when_yours_fits(classic):
    found = moves(classic, position("L< S^ M>", "L^/M^/S^", "L^/M^/S^"), "WILD")
    targets = {m.target for m in found}
    assert targets == {"own", "house"}
    assert PASS not in found
    # Only a WILD can swap the House.
    assert any(m.target == "house" and m.result == parse_trio("M> S^ L<") for m in found)


def test_applying_a_move_changes_only_its_trio(classic):
    state = position("L< S^ M>", "L^/M^/S^", "L^/M^/S^", to_move=1)
    move = next(m for m in moves(classic, state, "HOP"))
    after = classic.treehouse_apply_move(state, STEP, move)
    assert after.trios[0] == TREE and after.trios[1] == move.result and after.house == HOUSE
    house_move = next(m for m in moves(classic, state, "AIM") if m is not PASS)
    after = classic.treehouse_apply_move(state, STEP, house_move)
    assert after.house == house_move.result and after.trios == state.trios


def test_the_mover_wins_when_their_trio_matches(classic):
    state = position("L< S^ M>", "L< S^ M>", "L< S^ M>")
    assert classic.treehouse_outcome(state, 1) == Outcome((1,), "matched the House")


def test_another_player_can_win_on_your_turn(classic):
    state = position("L< S^ M>", "L< S^ M>", "L^/M^/S^")
    outcome = classic.treehouse_outcome(state, 1)
    assert outcome.winners == (0,) and "another player's turn" in outcome.reason


def test_several_other_matches_tie(classic):
    state = position("L< S^ M>", "L< S^ M>", "L^/M^/S^", "L< S^ M>")
    assert classic.treehouse_outcome(state, 1).winners == (0, 2)


def test_no_match_no_outcome(classic):
    assert classic.treehouse_outcome(position("L< S^ M>", "L^/M^/S^", "L^/M^/S^"), 0) is None


def test_mirror_matches_only_when_the_option_says(classic_class):
    state = position("L< S^ M>", "M< S^ L>", "L^/M^/S^")
    assert classic_class().treehouse_outcome(state, 0) is None
    assert classic_class(ClassicRules(mirror_matches=True)).treehouse_outcome(state, 0).winners == (0,)


def test_turn_passes_round_the_table(classic):
    state = position("L< S^ M>", "L^/M^/S^", "L^/M^/S^", "L^/M^/S^", to_move=2)
    assert classic.treehouse_end_turn(state).to_move == 0


def test_player_counts(classic_class):
    assert classic_class().player_range() == (2, 4)
    assert classic_class(ClassicRules(max_players=6)).player_range() == (2, 6)
    with pytest.raises(ValueError):
        ClassicRules(max_players=1)


# -- the first player (option first_player; issue 47, item 5) -----------------


def test_seat_1_plays_first_by_default_and_the_setup_draws_nothing(classic):
    import random

    rng = random.Random(4)
    before = rng.getstate()
    assert classic.rules.first_player == 1
    assert classic.treehouse_setup(classic, 3, rng) == ClassicPosition(HOUSE, (TREE,) * 3, 0)
    assert rng.getstate() == before


def test_a_named_first_player_moves_first(classic_class):
    """The official page: "Whoever's holding the die goes first!": the table says who."""
    import random

    from treehouse.bots.random_bot import RandomBot
    from treehouse.kernel.engine import Game
    from treehouse.kernel.records import Record

    variant = classic_class({"first_player": 3})
    assert variant.treehouse_setup(variant, 4, random.Random(0)).to_move == 2
    record = Record()
    Game(variant, [RandomBot() for _ in range(4)], random.Random(1), record=record, turn_cap=8).play()
    movers = {e[1]: e[2] for e in record.events if e[0] == "roll"}  # each turn's seat
    assert len(movers) >= 4 and [movers[turn] for turn in sorted(movers)][:4] == [2, 3, 0, 1]


def test_a_drawn_first_player_comes_from_the_games_seed(classic_class):
    import random

    variant = classic_class({"first_player": "drawn"})
    firsts = [variant.treehouse_setup(variant, 3, random.Random(seed)).to_move for seed in range(30)]
    assert firsts == [variant.treehouse_setup(variant, 3, random.Random(seed)).to_move for seed in range(30)]
    assert set(firsts) == {0, 1, 2}


def test_a_first_player_the_game_does_not_have_is_refused_in_one_line():
    from typer.testing import CliRunner

    from treehouse.cli import app

    result = CliRunner().invoke(app, ["simulate", "-v", "classic", "-n", "1", "-p", "3", "--set", "first_player=4"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "first_player: 4, but the game has 3 players: name a seat from 1 to 3, or drawn" in result.output
