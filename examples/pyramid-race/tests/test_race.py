"""Pyramid Race's own tests: its rules, and treehouse's conformance kit."""

from treehouse.kernel.engine import PASS
from treehouse.kernel.pieces import Size
from treehouse.plugins import load_plugins
from treehouse.testing import check_variant

from pyramid_race.game import Race, RaceMove, RacePosition


def test_the_variant_is_found_through_its_entry_point():
    assert load_plugins().variant("race") is Race


def test_the_kit_passes():
    report = check_variant("race", games=4)
    assert report.games == 4 * 4 and report.steps > 0  # the kit tries up to four player counts (2 to 5)


def test_sizes_move_differently_and_must_land_exactly():
    race = Race()
    state = RacePosition(((0, 0, 14), (0, 0, 0)), 0)
    assert race.treehouse_legal_moves(state, None, "3") == (RaceMove(Size.SMALL, 3), RaceMove(Size.MEDIUM, 2), RaceMove(Size.LARGE, 15))
    assert RaceMove(Size.LARGE, 15) not in race.treehouse_legal_moves(state, None, "6")


def test_bumping_sends_smaller_pyramids_back():
    race = Race()
    state = RacePosition(((0, 2, 2), (0, 5, 5)), 0)
    after = race.treehouse_apply_move(state, None, RaceMove(Size.MEDIUM, 5))
    assert after.spaces == ((0, 5, 2), (0, 0, 5))  # their M (no larger) went back; their L stays
    after = race.treehouse_apply_move(after, None, RaceMove(Size.LARGE, 5))
    assert after.spaces == ((0, 5, 5), (0, 0, 0))


def test_no_move_means_pass():
    race = Race()
    state = RacePosition(((15, 15, 14), (0, 0, 0)), 0)
    assert race.treehouse_legal_moves(state, None, "6") == (PASS,)


def test_a_position_must_have_two_to_six_players():
    import pytest

    from treehouse.errors import IllegalPositionError

    race = Race()
    assert race.parse_position("0 0 0 | 1 2 3 :: 2") == RacePosition(((0, 0, 0), (1, 2, 3)), 1)
    for text in ("0 0 0 :: 1", " | ".join(["0 0 0"] * 7) + " :: 1"):
        with pytest.raises(IllegalPositionError, match="race is played by 2 to 6"):
            race.parse_position(text)
