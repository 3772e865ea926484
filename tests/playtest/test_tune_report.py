"""The th tune report: a choice option's values along the axis in their declared order, and labelled axes."""

from __future__ import annotations

import re

from treehouse.playtest.html import tune_report


def result(choices):
    trials = [
        {"trial": n, "rung": 0, "games": 30, "loss": loss, "params": {"uniform_dig": dig, "stack_height_2p": height},
         "values": {"mean_turns": {"value": turns, "low": turns - 1, "high": turns + 1}}}
        for n, (dig, height, loss, turns) in enumerate([("hit", 3, 0.4, 9.0), ("pass", 4, 0.2, 7.5), ("reroll", 2, 0.3, 8.0), ("hit", 5, 0.1, 6.0)])
    ]
    return {
        "rule_set": "fences", "variant": "fences", "seats": ["random", "random"], "seed": 1, "games_played": 120, "budget_games": 120,
        "stopped_by": "the budget", "seconds": 3.0, "best": [3, 1], "trials": trials,
        "targets": [{"name": "mean_turns", "target": "about 7", "low": 6.5, "high": 7.5}],
        "options": [
            {"name": "uniform_dig", "kind": "choice", "range": " | ".join(choices or ["hit", "pass", "reroll"]), **({"choices": choices} if choices else {})},
            {"name": "stack_height_2p", "kind": "int", "range": "2..5"},
        ],
    }


def chart(page: str, title: str) -> str:
    start = page.index(f'aria-label="{title}"')
    return page[start : page.index("</svg>", start)]


def category_order(svg: str, labels) -> list[str]:
    x = {label: float(re.search(rf'<text x="([\d.]+)"[^>]*>{label}</text>', svg).group(1)) for label in labels}
    return sorted(labels, key=x.__getitem__)


def test_a_choice_options_values_follow_their_declared_order():
    page = tune_report(result(["reroll", "pass", "hit"]))
    for title in ("loss by uniform_dig", "mean_turns by uniform_dig"):
        assert category_order(chart(page, title), ["hit", "pass", "reroll"]) == ["reroll", "pass", "hit"]


def test_a_report_without_the_declared_order_keeps_the_order_trials_met_them():
    page = tune_report(result(None))
    assert category_order(chart(page, "loss by uniform_dig"), ["hit", "pass", "reroll"]) == ["hit", "pass", "reroll"]


def test_every_chart_names_both_axes():
    page = tune_report(result(["reroll", "pass", "hit"]))
    axes = {
        "loss of each trial (lower is better)": ("trial", "loss"),
        "loss by uniform_dig": ("uniform_dig", "loss"),
        "mean_turns by uniform_dig": ("uniform_dig", "mean_turns"),
        "loss by stack_height_2p": ("stack_height_2p", "loss"),
        "mean_turns by stack_height_2p": ("stack_height_2p", "mean_turns"),
    }
    for title, (x, y) in axes.items():
        labels = re.findall(r'<text class="axis"[^>]*>([^<]*)</text>', chart(page, title))
        assert labels == [x, y], (title, labels)
