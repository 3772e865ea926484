"""Playtesting: many games played by bots, added up into statistics a designer can trust.

* :mod:`treehouse.playtest.work` -- the work unit (:func:`~treehouse.playtest.work.play_chunk`)
  and the local process-pool executor;
* :mod:`treehouse.playtest.aggregate` -- per-game summaries and mergeable aggregates;
* :mod:`treehouse.playtest.stats` -- Wilson intervals, quantiles, the delta method, SPRT;
* :mod:`treehouse.playtest.metrics` -- the metrics (Ludii's vocabulary) and paired differences;
* :mod:`treehouse.playtest.sweep` -- rule-value grids;
* :mod:`treehouse.playtest.html` -- the self-contained HTML report.

The commands are in :mod:`treehouse.cli.simulate`, :mod:`~treehouse.cli.compare`,
:mod:`~treehouse.cli.sweep` and :mod:`~treehouse.cli.tune` (what they share:
:mod:`treehouse.cli.playtest`); the guide is ``docs/playtesting.md``.
"""
