"""Classic's one-line reason for a hinted move (Variant.hint_reason): actions from the House before and after."""

from __future__ import annotations

import re

from treehouse.kernel.variant import legal_moves
from treehouse.variants.classic.game import Classic


def test_classic_says_how_far_each_trio_is_from_the_house():
    classic = Classic()
    hooks = classic.hooks
    state = classic.parse_position("L< S^ M> :: L^/M^/S^ | L^/M^/S^ :: 1")
    step = next(iter(hooks.treehouse_turn_steps(state)))
    moves = legal_moves(hooks, state, step, "TIP")
    reasons = {classic.describe_move(m): classic.hint_reason(state, step, "TIP", m, hooks) for m in moves}
    pattern = re.compile(r"leaves you \d+ actions? from the House \((\d+) before\), the nearest opponent \d+ \(\1 before\)")
    assert reasons and all(pattern.fullmatch(r) for r in reasons.values()), reasons  # both trios start alike
