"""The balance report of a sweep: one self-contained HTML file and its JSON twin.

Everything is computed from the run directory's counts (:mod:`balance.store`),
never from a new game.  The HTML holds its CSS and its figures (matplotlib, Agg
canvas, SVG inlined): it asks nothing of any other file or host, so it can be
mailed, opened offline and printed.  The JSON twin (same name, ``.json``) holds
every number the HTML shows.

What it shows (docs/sweeps.md):

* a summary box (the answer in one or two sentences, with its players) and a
  table of contents;
* findings in plain words, computed from the data, each coloured by its
  verdict: each seat inside / outside / cannot tell against the fairness band
  (from its interval), the fairest values (every value the data cannot tell
  from the best), what the run could have detected (power), how each seat's
  win rate moves along each swept parameter (Newcombe interval of the change,
  or the smallest change that would have shown), how often games end each way
  (caps, the game's ``EndReason.is_cap``, flagged), how game length moves;
* per swept parameter: win rate per seat and per player against the value with
  95% Wilson bands, game length (median line, p10–p90 band, mean), end reasons
  stacked; with several swept parameters each plot pools the others, and every
  pair of swept parameters gets heatmaps;
* for a game with a per-cell heatmap (``GameSpec.heatmap_shape``): how often
  each cell is used, at every point (up to four) or at the first and last;
* a table with one row per point and every figure with its interval;
* a footer with the exact command, seed, versions and commit.

The fairness band is the fair share ``1/seats`` ± 10% of it (45–55% for two
seats) unless the caller gives another; a player's fair share is the seats it
holds over the seats, its band scaled the same way.

The package, one module per job: ``data`` (every number), ``findings`` (the
statements, one small function each, and the summary box), ``figures``
(matplotlib), ``html`` (the house style every page shares: the sweep report,
the run page, the check page, the tournament page), ``page`` (the HTML),
``write`` (:func:`report`, the files), ``run`` (:func:`run_report`: the page of
one ``balance run``) and ``compare`` (what changes between player lists).
"""

from __future__ import annotations

from balance.report.data import FAIR_TOLERANCE, REPORT_FORMAT, report_data
from balance.report.run import run_report
from balance.report.write import ReportResult, report

__all__ = ["FAIR_TOLERANCE", "REPORT_FORMAT", "ReportResult", "report", "report_data", "run_report"]
