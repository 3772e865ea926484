"""docs/rules/fences.md's words on where a piece may land, held against the
rules: where the page says "Inside or Outside", the legal moves offer both;
where it says only Inside, they offer no Outside square.  A rule changed in
rules.py (and the core) without its words fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from treehouse.variants.fences.board import NEIGHBOUR, OUTSIDE, direction_between
from treehouse.variants.fences.game import STEPS
from treehouse.variants.fences.scenario import layout

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "fences.md").read_text()
FENCE, ACT, _STACK = STEPS


def said(marker: str) -> str:
    """The page's paragraph or list item that begins with ``marker``, on one line."""
    start = PAGE.index(marker)
    end = min(at for at in (PAGE.find("\n* ", start + 1), PAGE.find("\n\n", start + 1)) if at != -1)
    return " ".join(PAGE[start:end].split())


def lands_outside_too(words: str) -> bool:
    """Does the rule's text say the piece may land Outside as well as Inside?"""
    return bool(re.search(r"Inside or Outside", words))


def landings(fences, state, step, face, kind) -> set[str]:
    """Where the legal moves of ``kind`` put their Fence: 'inside', 'outside'."""
    found = set()
    stack = state.square_of(state.to_move)
    for move in fences.treehouse_legal_moves(state, step, face):
        if move.kind != kind:
            continue
        if kind == "hopfence":  # over the Stack, to the square on its other side
            landing = NEIGHBOUR[stack][direction_between(move.square, stack)]
        else:
            landing = move.arg
        found.add("outside" if landing in OUTSIDE else "inside")
    return found


def test_a_fence_moved_in_step_1_lands_where_the_page_says(pos, fences):
    words = said("Move one Fence one space")
    # Fences next to an empty Inside and an empty Outside square (W1 and a2 free around a1's Fence)
    state = pos(layout(c3="1", e5="2", a1="Lr*"), step="fence", empty=("W1", "S1"), spares_inside=True)
    found = landings(fences, state, FENCE, None, "move")
    assert "inside" in found
    assert ("outside" in found) is lands_outside_too(words), (words, found)


def test_a_fence_hopped_with_hopfence_lands_where_the_page_says(pos, fences):
    words = said("* `hopfence F@sq`")
    # the Stack on b1, a Fence on c1 (its far side a1: Inside) and on b2 (its far side S2: Outside, kept empty)
    state = pos(layout(b1="1", e5="2", c1="Lr*", b2="Mg*"), step="act", empty=("S2", "a1"), spares_inside=True)
    found = landings(fences, state, ACT, "HOP", "hopfence")
    assert "inside" in found
    assert ("outside" in found) is lands_outside_too(words), (words, found)


@pytest.mark.parametrize("marker", ["Move one Fence one space", "* `hopfence F@sq`"])
def test_the_words_checked_are_on_the_page(marker):
    assert "Inside" in said(marker)
