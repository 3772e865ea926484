"""Metrics and counting on small hand-built sets of games."""

from __future__ import annotations

import pytest

from treehouse.kernel.engine import PASS, REROLL, Step
from treehouse.playtest.aggregate import Aggregate, GameSummary, Paired
from treehouse.playtest.metrics import differences, face_usage, length_summary, metric_estimates, seat_rates
from treehouse.playtest.work import Observer

ROLL = Step("act")


def game(winners, turns, *, timeout=False, decisions=None, multi=0, last=None, counters=None, lead=None, steps=0, decided=None):
    return GameSummary(
        winners=tuple(winners), reason="turn cap" if timeout else "x", timeout=timeout, turns=turns,
        decisions=turns if decisions is None else decisions, multi=multi, faces={}, counters=counters or {},
        last_mover=last, lead_changes=lead, evaluated_steps=steps, decided_share=decided,
    )


def hand_built() -> Aggregate:
    agg = Aggregate(2)
    for g in (
        game([0], 10, multi=5, last=0, counters={"house_moves": 2}),
        game([0], 20, multi=10, last=1, counters={"house_moves": 4}),  # won on the other player's turn
        game([1], 30, multi=15, last=1),
        game([0, 1], 40, multi=20, last=0),  # a tie: half a point each
        game([], 50, multi=25),  # a draw
        game([], 1000, timeout=True, multi=500),  # the turn cap
    ):
        agg.add(g)
    return agg


def test_counts_and_lengths_by_hand():
    agg = hand_built()
    assert (agg.games, agg.wins, agg.ties, agg.draws, agg.timeouts) == (6, [2, 1], 1, 1, 1)
    assert agg.tie_shares == [1, 1]
    length = length_summary(agg)
    assert length == {"mean": 1150 / 6, "median": 30, "p90": 1000, "min": 10, "max": 1000}
    rates = seat_rates(agg)
    assert rates[0]["rate"] == pytest.approx(2 / 6) and rates[1]["wins"] == 1


def test_ludii_metrics_by_hand():
    m = {k: e.value for k, e in metric_estimates(hand_built()).items()}
    assert m["AdvantageP1"] == pytest.approx((1 + 1 + 0 + 0.5 + 0 + 0) / 6)
    assert m["Balance"] == pytest.approx(1 - (2.5 / 6 - 1.5 / 6))
    assert m["Completion"] == pytest.approx(4 / 6)
    assert m["Drawishness"] == pytest.approx(1 / 6)
    assert m["Timeouts"] == pytest.approx(1 / 6)
    assert m["Duration"] == pytest.approx(1150 / 6)
    assert m["DecisionMoves"] == pytest.approx(575 / 1150)
    assert m["OtherTurnWins"] == pytest.approx(1 / 4)
    assert m["LeadChange"] is None and m["Decisiveness"] is None  # no evaluation hook


def test_evaluation_metrics_by_hand():
    agg = Aggregate(2)
    agg.add(game([0], 5, last=0, lead=2, steps=5, decided=0.4))  # 2 changes over 4 transitions
    agg.add(game([1], 3, last=1, lead=0, steps=3, decided=1.0))
    m = {k: e.value for k, e in metric_estimates(agg).items()}
    assert m["LeadChange"] == pytest.approx((2 / 4 + 0 / 2) / 2)
    assert m["Decisiveness"] == pytest.approx((0.4 + 1.0) / 2)


def test_observer_counts_face_usage():
    obs = Observer()
    choice, step = obs.on_choice, obs.on_step
    choice(None, 0, ROLL, "TIP", ())  # impossible: rerolled by the engine
    choice(None, 0, ROLL, "DIG", ("m",))  # forced
    step(None, 0, ROLL, "m", 1, 2, ())
    choice(None, 1, ROLL, "HOP", ("h", REROLL))  # declined by rolling again
    choice(None, 1, ROLL, "HOP", ("h", PASS))  # declined by passing
    step(None, 1, ROLL, PASS, 2, 2, ())
    choice(None, 0, ROLL, "WILD", ("a", "b"))
    step(None, 0, ROLL, "a", 2, 3, ())
    assert obs.faces == {
        "TIP": [1, 0, 1, 0, 0],
        "DIG": [1, 1, 0, 0, 0],
        "HOP": [2, 0, 0, 1, 1],
        "WILD": [1, 0, 0, 0, 0],
    }
    assert (obs.decisions, obs.multi, obs.last_mover) == (4, 3, 0)
    agg = Aggregate(2)
    agg.faces = obs.faces
    hop = next(r for r in face_usage(agg, ("TIP", "HOP")) if r["face"] == "HOP")
    assert hop["rerolled_share"] == 0.5 and hop["passed_share"] == 0.5


def test_observer_tracks_the_leader():
    obs = Observer()
    obs.players = 2
    obs.last_not_leading = [0, 0]
    obs.evaluate = lambda state: list(state)  # every seat's score at once
    for state in ((1, 0), (0, 1), (1, 1), (0, 2), (0, 3)):  # leaders: 0, 1, none, 1, 1
        obs._track_lead(state)
    assert obs.lead_changes == 1 and obs.evaluated_steps == 5
    # seat 2 has led for good since step 4: two steps of five
    assert (obs.evaluated_steps - obs.last_not_leading[1]) / obs.evaluated_steps == pytest.approx(2 / 5)


def test_paired_differences_by_hand():
    a, b, paired = Aggregate(2), Aggregate(2), Paired.empty(2)
    for ga, gb in (
        (game([0], 10), game([0], 12, counters={"passes": 1})),
        (game([1], 10), game([0], 14, counters={"passes": 1})),
        (game([1], 10), game([1], 10, counters={"passes": 1})),
        (game([0], 10), game([0], 12, counters={"passes": 1})),
    ):
        paired.add(a.add(ga), b.add(gb), ga.counters, gb.counters)
    rows = {d.name: d for d in differences(a, b, paired)}
    assert rows["AdvantageP1"].diff.value == pytest.approx(0.25)  # (0 + 1 + 0 + 0) / 4
    # paired differences 0, 1, 0, 0: sample variance 1/4, standard error 1/4
    assert rows["AdvantageP1"].diff.high - 0.25 == pytest.approx(1.959964 * 0.25, rel=1e-5)
    assert rows["Duration"].diff.value == pytest.approx(2.0)
    assert rows["passes per game"].diff.value == 1.0 and rows["passes per game"].diff.low == 1.0
    assert rows["passes per game"].significant  # a constant difference of one pass a game


def test_aggregates_merge_like_one_pass():
    games = [game([0], 10), game([1], 20, counters={"x": 3}), game([], 30)]
    whole, left, right = Aggregate(2), Aggregate(2), Aggregate(2)
    for i, g in enumerate(games):
        whole.add(g)
        (left if i == 0 else right).add(g)
    assert left.merge(right) == whole
