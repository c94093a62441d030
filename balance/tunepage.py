"""The page of a tuning (``balance tune``): one self-contained HTML file in the house
style of the reports (the training page's summary box; figures as inline SVG).

A summary box gives the answer; then the findings, the confirmed figures of the
answer (each with its interval and n, per line-up), the trials over time, the
importance of each parameter per target, the confirmation of the best settings,
the trade-off (Pareto front) of a multi-objective study, every trial, and how
to reproduce the run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from balance.trainpage import _EXTRA_CSS, _e, _v


def fig_trials(f: Mapping[str, Any]) -> str:
    """Each trial's score (its worst target, in half-widths from the band's middle) by
    the games it played, and the running best."""
    from balance.report.figures import _new_figure, svg_inline

    hist = [h for h in f["history"] if not h.get("invalid")]
    fig = _new_figure(10.0, 3.8)
    ax = fig.add_subplot()
    rungs = f["rungs"]
    colours = ["#9ec5e8", "#1f77b4", "#08306b", "#000000"]
    for i, g in enumerate(rungs):
        pts = [h for h in hist if h["games"] == g]
        if pts:
            ax.plot([h["trial"] for h in pts], [h["score"] for h in pts], "o", ms=5,
                    color=colours[min(i, len(colours) - 1)], label=f"{g:,} games per line-up")
    ax.step([h["trial"] for h in f["history"]], [h["best"] for h in f["history"]], where="post", color="#d62728",
            lw=1.4, label="best so far")
    ax.axhline(1.0, color="#888", lw=0.9, ls="--", label="edge of a band")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("trial")
    ax.set_ylabel("worst target (half-widths from\nthe band's middle; at most 1: inside)")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, frameon=False, fontsize=9)
    return svg_inline(fig, "tune-trials", "Each trial's worst target and the running best")


def fig_importance(importance: Mapping[str, Mapping[str, Any]]) -> str | None:
    """One group of bars per parameter, one bar per target."""
    from balance.report.figures import _new_figure, svg_inline

    keys = [k for k, v in importance.items() if v.get("values")]
    if not keys:
        return None
    names = sorted({n for k in keys for n in importance[k]["values"]})
    fig = _new_figure(10.0, 0.9 + 0.45 * len(names) * max(1, len(keys)) ** 0.5)
    ax = fig.add_subplot()
    h = 0.8 / len(keys)
    for j, k in enumerate(keys):
        vals = importance[k]["values"]
        ax.barh([i + j * h for i in range(len(names))], [vals.get(n, 0.0) for n in names], height=h, label=k)
    ax.set_yticks([i + h * (len(keys) - 1) / 2 for i in range(len(names))], names)
    ax.set_xlim(0, 1)
    ax.set_xlabel("importance (share of the total, per target)")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=4, frameon=False, fontsize=9)
    return svg_inline(fig, "tune-importance", "Importance of each parameter per target")


def _figures_table(rows: Sequence[Mapping[str, Any]]) -> str:
    from balance import format as fmt

    out = ['<div class="scroll"><table><thead><tr><th class="l">line-up</th><th class="l">figure</th><th>value</th>'
           "<th>95% interval</th><th>n</th><th>target</th><th class=\"l\">reading</th></tr></thead><tbody>"]
    for x in rows:
        v, lo, hi = fmt.values(x["kind"], (x["value"], *x["ci95"]))
        blo, bhi = fmt.values(x["kind"], tuple(x["band"]))
        out.append(f'<tr><td class="l">{_e(x["lineup"])}</td><td class="l">{_e(x["metric"])}</td><td>{_e(v)}</td>'
                   f"<td>{_e(lo)} to {_e(hi)}</td><td>{x['n']:,}</td><td>{_e(blo)} to {_e(bhi)}</td>"
                   f'<td class="l">{_e(x["reading"])}</td></tr>')
    out.append("</tbody></table></div>")
    return "".join(out)


def write_html(folder: Path, manifest: Mapping[str, Any], f: Mapping[str, Any]) -> Path:
    """``folder/report.html`` for a finished tuning."""
    from balance.report.page import _CSS

    a = f["answer"]
    lineups = "; ".join(" vs ".join(lu) for lu in f["lineups"])
    title = f"{f['game']}: rules tuned to the targets"
    searched = "; ".join(f"{d['name']} {d['searched']}" for d in f["space"])
    targets = "; ".join(
        f"{k} {v[0]:g}..{v[1]:g}" for k, v in f["targets"].items() if k != "end_reason"
    ) + "".join(f"; end_reason.{r} {b[0]:g}..{b[1]:g}" for r, b in f["targets"].get("end_reason", {}).items())
    lede = (f"Optuna's TPE sampler searched {searched}; every trial played the same games (seed {f['seed']}), "
            f"{' / '.join(format(g, ',') for g in f['rungs'])} games per line-up by rung (the best 1/{f['eta']} go on), "
            f"and the best settings were played again on fresh games (seed {f['confirm_seed']}). "
            "Every figure carries its 95% interval and n.")
    verdict = ("meets every target with 95% confidence for every line-up" if a["meets"]
               else "the nearest miss: no setting tried meets every target with 95% confidence")
    summary = [
        ("answer", f'<span class="spec">{_e(a["label"])}</span>'),
        ("verdict", _e(verdict)),
        ("targets", _e(targets)),
        ("line-ups", _e(lineups)),
        ("search", _e(f"{f['trials']} trials ({f['distinct_settings']} distinct settings), "
                      f"{f['games_played']:,} games in all; the best {len(f['confirmation'])} confirmed on "
                      f"{f['confirm_games']:,} games per line-up")),
    ]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}{_EXTRA_CSS}</style></head><body><main>",
        f'<header><h1>{_e(title)}</h1><p class="lede">{_e(lede)}</p></header>',
        '<section id="summary" class="summary"><dl>' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in summary)
        + "</dl></section>",
        '<section id="findings"><h2>Findings</h2><ul class="findings">',
        *(f"<li>{_e(line)}</li>" for line in f["findings"]),
        "</ul></section>",
        f'<section id="answer"><h2>{_e(a["label"])} on fresh games</h2><p class="lede">Each target\'s figure for each '
        f"line-up on {f['confirm_games']:,} fresh games (seed {f['confirm_seed']}): inside when its whole 95% "
        "interval lies in the band (Wilson for shares, distribution-free for quantiles).</p>"
        + _figures_table(a["figures"]) + "</section>",
        '<section id="trials"><h2>Trials</h2>',
        f"<figure>{fig_trials(f)}<figcaption><b>Trials.</b> Each trial's worst target on the tuning games: the "
        "largest distance, over the targets and the line-ups, of a figure from the middle of its band, in "
        "half-widths (at most 1: every figure inside its band as an estimate). Darker dots played more games "
        "(promoted); the line is the best so far.</figcaption></figure></section>",
    ]
    parts.append('<section id="importance"><h2>Parameter importance</h2>')
    svg = fig_importance(f["importance"])
    notes = "; ".join(f"{k}: {v['note']}" for k, v in f["importance"].items() if v.get("note"))
    method = next(iter(f["importance"].values()))["method"]
    if svg is not None:
        parts.append(f"<figure>{svg}<figcaption><b>Importance.</b> {_e(method)}: how much of the spread of the "
                     "trials' distance from each target each parameter explains." + (f" {_e(notes)}." if notes else "")
                     + "</figcaption></figure>")
    else:
        parts.append(f'<p class="lede">{_e(method)}: {_e(notes or "not computed")}.</p>')
    parts.append("</section>")
    parts.append('<section id="confirmation"><h2>Confirmation on fresh games</h2><p class="lede">The best settings '
                 "on the tuning games, played again on fresh games: the tuning distance of the best trial is "
                 "optimistic (it was chosen for it). Distances in half-widths from the band's middle.</p>"
                 '<div class="scroll"><table><thead><tr><th class="l">setting</th><th>trial</th>'
                 "<th>tuning: worst target</th><th>games</th><th>confirmed: worst target</th><th>games</th>"
                 '<th class="l">meets every target (95%)</th></tr></thead><tbody>')
    for r in f["confirmation"]:
        mark = " (answer)" if r["label"] == a["label"] else ""
        parts.append(f'<tr><td class="l">{_e(r["label"] + mark)}</td><td>{r["trial"]}</td>'
                     f"<td>{r['tuning']['score']:.2f}</td><td>{r['tuning']['games']:,}</td>"
                     f"<td>{r['confirmed']['score']:.2f}</td><td>{f['confirm_games']:,}</td>"
                     f'<td class="l">{"yes" if r["confirmed"]["meets"] else "no"}</td></tr>')
    parts.append("</tbody></table></div>")
    for r in f["confirmation"]:
        if r["label"] != a["label"]:
            parts.append(f"<h3>{_e(r['label'])}</h3>" + _figures_table(r["confirmed"]["figures"]))
    parts.append("</section>")
    keys = list(f["importance"])
    if f.get("front"):
        parts.append('<section id="front"><h2>The trade-off</h2><p class="lede">The Pareto front of the settings '
                     "tried: none of them does better on every target. Distances in half-widths from the band's "
                     "middle on the tuning games (at most 1: inside as an estimate).</p>"
                     '<div class="scroll"><table><thead><tr><th class="l">setting</th><th>trial</th><th>games</th>'
                     + "".join(f"<th>{_e(k)}</th>" for k in keys) + "</tr></thead><tbody>")
        for r in f["front"]:
            parts.append(f'<tr><td class="l">{_e(r["label"])}</td><td>{r["trial"]}</td><td>{r["games"]:,}</td>'
                         + "".join(f"<td>{r['objectives'][k]:.2f}</td>" for k in keys) + "</tr>")
        parts.append("</tbody></table></div></section>")
    parts.append('<section id="all-trials"><h2>Every trial</h2><p class="lede">On the tuning games (games per '
                 "line-up: the last rung it reached); a repeat is a setting tried before (not played again).</p>"
                 '<div class="scroll"><table><thead><tr><th>trial</th><th class="l">setting</th><th>games</th>'
                 + "".join(f"<th>{_e(k)}</th>" for k in keys)
                 + "<th>worst</th><th>best so far</th><th>repeat of</th></tr></thead><tbody>")
    for h in f["history"]:
        cells = ("".join(f"<td>{h['objectives'][k]:.2f}</td>" for k in keys) if not h.get("invalid")
                 else f'<td colspan="{len(keys)}">{_e(h["invalid"])}</td>')
        parts.append(f'<tr><td>{h["trial"]}</td><td class="l">{_e(h["label"])}</td><td>{h["games"]:,}</td>{cells}'
                     f"<td>{h['score']:.2f}</td><td>{h['best']:.2f}</td>"
                     f"<td>{'' if h['repeat_of'] is None else h['repeat_of']}</td></tr>")
    parts.append("</tbody></table></div></section>")
    fixed = ", ".join(f"{k}={_v(v)}" for k, v in f["fixed"].items())
    parts.append(
        '<footer id="reproduce"><h3>Reproduce</h3>'
        f"<pre>{_e(manifest.get('command') or '')}</pre>"
        f"<p>Searched: {_e(searched)}. Other rules: {_e(fixed)}. Same command, same numbers: game g uses the random "
        "stream of (seed, g), and the sampler is seeded from (seed, trials completed). Each figure's interval is "
        "its own 95% interval (not corrected for the number of figures).</p></footer></main></body></html>\n"
    )
    path = folder / "report.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


__all__: Sequence[str] = ("write_html", "fig_trials", "fig_importance")
