"""docs/interop.md's examples run as written, and its figures match the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_has_an_openspiel_and_a_pettingzoo_example():
    found = blocks()
    assert any("pyspiel.load_game" in block for block in found)
    assert any("action_mask" in block and "pettingzoo" in block for block in found)
    assert any("gymnasium.make" in block for block in found)


@pytest.mark.parametrize("index", range(3))
def test_each_example_runs(index, capsys):
    block = blocks()[index]
    extra = "pyspiel" if "pyspiel" in block else "pettingzoo" if "pettingzoo" in block else "gymnasium"
    pytest.importorskip(extra, reason="the example's extra is not installed")
    exec(compile(block, f"docs/interop.md example {index + 1}", "exec"), {})
    if "print(state.returns())" in block:
        assert capsys.readouterr().out.strip() == "[1.0, -1.0]"
    if "print(reward, info" in block:  # the Gymnasium episode ended with the seat's return
        reward, _outcome = capsys.readouterr().out.strip().split(" ", 1)
        assert float(reward) in (1.0, -1.0, 0.0)


@pytest.mark.parametrize("players, ids, observed", [(2, 40682, 868), (3, 11558, 930), (4, 5086, 982)])
def test_the_fences_sizes_in_the_doc_are_the_codes(plugins, players, ids, observed):
    from treehouse.interop.actions import Actions, Observation
    from treehouse.interop.flow import GameFlow

    flow = GameFlow(plugins.variant("fences")(), players)
    assert Actions(flow).size == ids and Observation(flow).size == observed
    text = DOC.read_text()
    assert f"{ids:,}" in text and str(observed) in text


@pytest.mark.parametrize("players, channels, board", [(2, 82, 36), (3, 87, 32), (4, 92, 28)])
def test_the_fences_plane_counts_in_the_doc_are_the_codes(plugins, players, channels, board):
    from treehouse.interop.actions import PlaneObservation
    from treehouse.interop.flow import GameFlow

    planes = PlaneObservation(GameFlow(plugins.variant("fences")(), players))
    assert planes.shape == (channels, 7, 7) and planes.board.shape[0] == board
    assert f"{channels} channels with two players ({board} of the board)" in DOC.read_text() if players == 2 else str(channels) in DOC.read_text()
