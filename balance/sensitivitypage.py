"""The page of a sensitivity run (``balance sensitivity``): one self-contained HTML
file in the house style of the reports.

A summary box names the game, the players and the cost; then the findings and,
per metric, a tornado chart (each parameter alone at the ends of its range,
with intervals), the Morris ranking with its bootstrap intervals, and the
index table (mu*, sigma, Sobol S1 and ST with their intervals).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from balance.trainpage import _EXTRA_CSS, _e, _v

TORNADO_ROWS = 12


def _scale(metric: str) -> tuple[float, str]:
    if metric.startswith("turns"):
        return 1.0, "player turns"
    if metric == "first_seat_edge":
        return 100.0, "seat 0's win rate minus the fair share (points)"
    return 100.0, "%"


def fig_tornado(metric: str, d: Mapping[str, Any], slug: str) -> str:
    """Each parameter alone at the low and the high end of its range: the metric's
    value (95% interval) against the current rules' (the vertical line)."""
    from balance.report.figures import _new_figure, svg_inline

    k, unit = _scale(metric)
    rows = list(reversed(d["tornado"][:TORNADO_ROWS]))
    fig = _new_figure(10.0, 1.0 + 0.38 * len(rows))
    ax = fig.add_subplot()
    base = k * d["baseline"]["value"]
    for i, r in enumerate(rows):
        for key, colour, dy in (("at_low", "#1f77b4", -0.17), ("at_high", "#d62728", 0.17)):
            v = r[key]
            ax.barh(i + dy, k * v["value"] - base, left=base, height=0.32, color=colour, alpha=0.75,
                    label=("low end" if key == "at_low" else "high end") if i == 0 else None)
            ax.errorbar([k * v["value"]], [i + dy], xerr=[[k * (v["value"] - v["ci95"][0])],
                                                         [k * (v["ci95"][1] - v["value"])]],
                        fmt="none", ecolor="#333", elinewidth=0.9, capsize=2)
    ax.axvline(base, color="#444", lw=1.0)
    ax.set_yticks(range(len(rows)), [f"{r['name']} {_v(r['low'])}..{_v(r['high'])}" for r in rows])
    ax.set_xlabel(f"{metric} ({unit})")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, frameon=False, fontsize=9)
    return svg_inline(fig, f"tornado-{slug}", f"Tornado of {metric}")


def fig_morris(metric: str, d: Mapping[str, Any], slug: str) -> str:
    from balance.report.figures import _new_figure, svg_inline

    k, unit = _scale(metric)
    rows = list(reversed(d["morris"][:TORNADO_ROWS]))
    fig = _new_figure(10.0, 1.0 + 0.3 * len(rows))
    ax = fig.add_subplot()
    ax.barh(range(len(rows)), [k * r["mu_star"] for r in rows], color="#1f77b4",
            xerr=[[k * (r["mu_star"] - r["ci95"][0]) for r in rows], [k * (r["ci95"][1] - r["mu_star"]) for r in rows]],
            error_kw={"elinewidth": 0.9, "capsize": 2, "ecolor": "#333"})
    ax.set_yticks(range(len(rows)), [r["name"] for r in rows])
    ax.set_xlabel(f"Morris mu* of {metric} ({unit}, per full range; 95% bootstrap interval)")
    return svg_inline(fig, f"morris-{slug}", f"Morris mu* of {metric}")


def _num(metric: str, x: float) -> str:
    k, _ = _scale(metric)
    return f"{k * x:.2f}" if metric.startswith("turns") else f"{k * x:.1f}"


def write_html(folder: Path, manifest: Mapping[str, Any], f: Mapping[str, Any]) -> Path:
    from balance.report.page import _CSS

    title = f"{f['game']}: which rules matter"
    c = f["cost"]
    lede = (f"{', '.join(f['players'])}; every point plays the same {f['games_per_point']:,} games (seed {f['seed']}): "
            "one parameter at a time at the ends of its range (the tornado), Morris screening over every parameter "
            "(SALib), then Sobol indices for the few that matter. Every figure carries its 95% interval and n.")
    summary = [
        ("players", _e(", ".join(f["players"]) + (" (seats rotated, every seating equally often)"
                                                  if f.get("rotate_seats") else ""))),
        ("parameters", _e("; ".join(f"{x['name']} {x['range']}" for x in f["factors"]))),
        ("held", _e(", ".join(f"{k}={_v(v)}" for k, v in f["held"].items()) or "none")),
        ("cost", _e(f"{f['points']:,} points x {f['games_per_point']:,} games = {f['games_played']:,} games "
                    f"(one at a time {c['oat']}, Morris {c['morris']} in {f['trajectories_kept']} trajectories, "
                    f"Sobol {f['sobol_points'] or 0} for {', '.join(f['selected']) or 'none'})")),
    ]
    if f["left_out"]:
        summary.append(("left out", _e(", ".join(f["left_out"]) + " (held: half to twice its value is that "
                                        "value, or no finite range is declared; give a range with --param)")))
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
    ]
    for i, (m, d) in enumerate(f["metrics"].items()):
        slug = f"m{i}"
        b = d["baseline"]
        parts.append(f'<section id="metric-{slug}"><h2>{_e(m)}</h2><p class="lede">At the current rules: '
                     f"{_e(_num(m, b['value']))} (95% CI {_e(_num(m, b['ci95'][0]))} to {_e(_num(m, b['ci95'][1]))}, "
                     f"n={b['n']:,}).</p>")
        parts.append(f"<figure>{fig_tornado(m, d, slug)}<figcaption><b>Tornado.</b> {_e(m)} with each parameter "
                     "alone at the low (blue) and the high (red) end of its range, the others at the current rules "
                     f"(the line); whiskers: 95% intervals, {f['games_per_point']:,} games each.</figcaption></figure>")
        parts.append(f"<figure>{fig_morris(m, d, slug)}<figcaption><b>Morris screening.</b> mu*, the mean absolute "
                     "change of the metric when a parameter moves across its range, over "
                     f"{f['trajectories_kept']} trajectories, with its bootstrap 95% interval.</figcaption></figure>")
        sob = {r["name"]: r for r in (d["sobol"] or {}).get("indices", [])} if d.get("sobol") else {}
        swing = {r["name"]: r for r in d["tornado"]}
        parts.append('<div class="scroll"><table><thead><tr><th class="l">parameter</th><th>range</th>'
                     "<th>at low (95% CI)</th><th>at high (95% CI)</th><th>mu*</th><th>mu* 95% CI</th><th>sigma</th>"
                     "<th>Sobol S1 (95% CI)</th><th>Sobol ST (95% CI)</th></tr></thead><tbody>")
        for r in d["morris"]:
            s = sob.get(r["name"])
            w = swing[r["name"]]
            lo, hi = w["at_low"], w["at_high"]
            parts.append(
                f'<tr><td class="l">{_e(r["name"])}</td><td>{_e(_v(w["low"]))}..{_e(_v(w["high"]))}</td>'
                f"<td>{_num(m, lo['value'])} ({_num(m, lo['ci95'][0])} to {_num(m, lo['ci95'][1])})</td>"
                f"<td>{_num(m, hi['value'])} ({_num(m, hi['ci95'][0])} to {_num(m, hi['ci95'][1])})</td>"
                f"<td>{_num(m, r['mu_star'])}</td><td>{_num(m, r['ci95'][0])} to {_num(m, r['ci95'][1])}</td>"
                f"<td>{_num(m, r['sigma'])}</td>"
                + (f"<td>{s['S1']:.2f} ({s['S1_ci95'][0]:.2f} to {s['S1_ci95'][1]:.2f})</td>"
                   f"<td>{s['ST']:.2f} ({s['ST_ci95'][0]:.2f} to {s['ST_ci95'][1]:.2f})</td>" if s else
                   "<td>–</td><td>–</td>")
                + "</tr>")
        parts.append("</tbody></table></div></section>")
    note = f" {f['sobol_note']}." if f.get("sobol_note") else ""
    parts.append(
        '<footer id="reproduce"><h3>Reproduce</h3>'
        f"<pre>{_e(manifest.get('command') or '')}</pre>"
        "<p>mu* and sigma are in the metric's unit (points for shares, turns for lengths) per move across the whole "
        "range; S1 is the share of the metric's variance a parameter explains alone, ST with its interactions "
        f"(Saltelli's design, {manifest['sobol_n']} base points). Intervals of the indices are SALib's bootstrap "
        "(1,000 resamples) and include the games' own noise only through the points' spread." + _e(note)
        + "</p></footer></main></body></html>\n")
    path = folder / "report.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


__all__: Sequence[str] = ("write_html", "fig_tornado", "fig_morris")
