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
