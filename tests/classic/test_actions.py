"""Every classic action, on stacks, at the ends of the line, and with lying pieces."""

from __future__ import annotations

import pytest

from treehouse.variants.classic.actions import ACTIONS, results, wild_results
from treehouse.variants.classic.trio import TREE, format_trio, parse_trio


def outcomes(trio: str, action: str, dig_in_place: bool = True) -> set[str]:
    return {format_trio(result) for result, _ in results(parse_trio(trio), action, dig_in_place)}


# -- TIP -------------------------------------------------------------------


def test_tip_tree_right_reads_bottom_to_top():
    assert "L> M> S>" in outcomes("L^/M^/S^", "TIP")


def test_tip_tree_left_reads_top_to_bottom():
    assert "S< M< L<" in outcomes("L^/M^/S^", "TIP")


def test_tip_only_whole_upright_stacks_and_pushes_neighbours():
    # The L/M stack falls either way; the lying S cannot be tipped.
    assert outcomes("L^/M^ S>", "TIP") == {"L> M> S>", "M< L< S>"}


def test_tip_a_single_upright_piece_between_others():
    assert outcomes("M< S^ L>", "TIP") == {"M< S< L>", "M< S> L>"}


def test_tip_nothing_upright_is_impossible():
    assert outcomes("L< S> M>", "TIP") == set()


def test_tip_stack_in_the_middle_pushes_both_ways():
    assert outcomes("L> M^/S^ ", "TIP") >= {"L> M> S>"}
    assert "L> S< M<" in outcomes("L> M^/S^", "TIP")


# -- AIM -------------------------------------------------------------------


def test_aim_turns_each_single_piece_to_its_two_other_directions():
    assert outcomes("L< S^ M>", "AIM") == {
        "L^ S^ M>", "L> S^ M>", "L< S< M>", "L< S> M>", "L< S^ M^", "L< S^ M<",
    }


def test_aim_never_touches_stacked_pieces():
    assert outcomes("L^/M^/S^", "AIM") == set()
    assert outcomes("L^/M^ S>", "AIM") == {"L^/M^ S^", "L^/M^ S<"}


# -- HOP -------------------------------------------------------------------


def test_hop_from_the_tree_carries_what_is_above():
    assert outcomes("L^/M^/S^", "HOP") == {"M^/S^ L^", "L^ M^/S^", "S^ L^/M^", "L^/M^ S^"}


def test_hop_onto_a_lying_piece_stands_it_up():
    assert outcomes("L< S^ M>", "HOP") == {"L^/S^ M>", "L< M^/S^", "S^ L< M>", "L< M> S^"}


def test_hop_between_others_moves_them_aside():
    # The wiki's example: the Small jumps from the Large to between Large and Medium.
    assert "L^ S^ M^" in outcomes("L^/S^ M^", "HOP")


def test_hop_lands_at_either_end():
    found = outcomes("L^/S^ M^", "HOP")
    assert {"S^ L^ M^", "L^ M^ S^"} <= found


def test_hop_makes_stacks_of_any_order():
    assert "S^/L^/M^" in outcomes("L^/M^ S^", "HOP")


def test_hop_needs_an_upright_piece():
    assert outcomes("L< S> M>", "HOP") == set()


def test_hop_back_to_the_same_spot_is_a_pass():
    # A lone stack can only land where it was.
    assert parse_trio("L^/M^/S^") not in {r for r, _ in results(TREE, "HOP")}


# -- DIG -------------------------------------------------------------------


def test_dig_in_place_or_forward_gaps_or_under_stacks():
    assert outcomes("L> S^ M<", "DIG") == {
        "L^ S^ M<", "L^/S^ M<", "S^ L^ M<", "S^ L^/M^", "S^ M< L^",
        "L> S^ M^", "L> M^/S^", "L> M^ S^", "M^/L^ S^", "M^ L> S^",
    }


def test_dig_without_digging_in_place():
    found = outcomes("L> S^ M<", "DIG", dig_in_place=False)
    assert "L^ S^ M<" not in found and "L> S^ M^" not in found
    assert len(found) == 8


def test_dig_facing_away_from_everything():
    assert outcomes("L< S^ M>", "DIG") == {"L^ S^ M>", "L< S^ M^"}
    assert outcomes("L< S^ M>", "DIG", dig_in_place=False) == set()


def test_dig_under_a_stack_lifts_the_whole_stack():
    assert outcomes("L> M^/S^", "DIG") == {"L^ M^/S^", "L^/M^/S^", "M^/S^ L^"}


def test_dig_under_a_lying_piece_stands_it_up():
    assert "S^/M^ L>" in outcomes("S> M< L>", "DIG")


def test_dig_needs_a_lying_piece():
    assert outcomes("L^/M^/S^", "DIG") == set()


# -- SWAP ------------------------------------------------------------------


def test_swap_within_a_stack():
    assert outcomes("L^/M^/S^", "SWAP") == {"M^/L^/S^", "S^/M^/L^", "L^/S^/M^"}


def test_swap_single_pieces_keep_their_directions():
    assert "M> S^ L<" in outcomes("L< S^ M>", "SWAP")


def test_swap_a_lying_piece_into_a_stack_stands_it_up():
    # S enters the stack and stands; M lands on S's spot and stays upright.
    assert "L^/S^ M^" in outcomes("L^/M^ S>", "SWAP")


def test_swap_is_always_possible_and_gives_three_results():
    assert len(outcomes("L< S> M>", "SWAP")) == 3


# -- WILD and passes ---------------------------------------------------------


@pytest.mark.parametrize("action", ACTIONS)
def test_no_action_result_equals_the_trio(action):
    from treehouse.variants.classic.trio import all_trios

    for trio in all_trios():
        assert all(result != trio for result, _ in results(trio, action))


def test_wild_is_the_union_of_the_five_actions():
    trio = parse_trio("L> S^ M<")
    union = {r for action in ACTIONS for r, _ in results(trio, action)}
    assert {r for _, r, _ in wild_results(trio)} == union
