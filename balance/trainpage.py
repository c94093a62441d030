"""The page of a training (``balance train``): one self-contained HTML file in the
house style of the reports (their CSS; figures as inline SVG).

A summary box names the players and gives the answer; then the findings, the
trials over time with the running best, the importance of each parameter, the
confirmation on fresh games (the winner's curse, measured), the tuned player
against every player of the field and the default, every trial, and how to
reproduce the run.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

_EXTRA_CSS = """
.summary { border: 1px solid var(--rule); border-left: 4px solid var(--accent); background: #f7f9fc;
  padding: 10px 16px; margin: 12px 0 8px; }
.summary dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; }
.summary .spec { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
li.finding-mc { font-weight: 600; }
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _pct(cell: Mapping[str, Any]) -> str:
    from balance import format as fmt

    if cell.get("mirror"):
        return "50% (the same player: by symmetry, not played)"
    return fmt.percent_ci(cell["rate"], cell["ci95"])


def fig_trials(figures: Mapping[str, Any]) -> str:
    """Each trial's share against the field (with its interval) and the running best."""
    from balance.report.figures import _new_figure, svg_inline

    hist = figures["history"]
    fig = _new_figure(10.0, 3.8)
    ax = fig.add_subplot()
    xs = [h["trial"] for h in hist]
    ys = [100 * h["value"] for h in hist]
    lo = [100 * (h["value"] - h["score"]["ci95"][0]) for h in hist]
    hi = [100 * (h["score"]["ci95"][1] - h["value"]) for h in hist]
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", ms=4, color="#1f77b4", ecolor="#9ec5e8", elinewidth=1,
                capsize=0, label="trial (95% interval)")
    ax.step(xs, [100 * h["best"] for h in hist], where="post", color="#d62728", lw=1.6, label="best so far")
    default = next((r for r in figures["confirmation"] if r["default"]), None)
    if default is not None and default.get("tuning") is not None:
        ax.axhline(100 * default["tuning"]["rate"], color="#888", lw=0.9, ls="--", label="default")
    ax.set_xlabel("trial")
    ax.set_ylabel("mean share of decided games won (%)")
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, frameon=False, fontsize=9)  # above: no dot hidden
    return svg_inline(fig, "trials", "Each trial's share against the field and the running best")


def fig_importance(values: Mapping[str, float]) -> str:
    from balance.report.figures import _new_figure, svg_inline

    items = sorted(values.items(), key=lambda kv: kv[1])
    fig = _new_figure(10.0, 0.8 + 0.35 * len(items))
    ax = fig.add_subplot()
    ax.barh(range(len(items)), [v for _, v in items], color="#1f77b4")
    ax.set_yticks(range(len(items)), [k for k, _ in items])
    ax.set_xlabel("importance (share of the total)")
    ax.set_xlim(0, 1)
    return svg_inline(fig, "importance", "Importance of each parameter")


def _summary(manifest: Mapping[str, Any], f: Mapping[str, Any]) -> str:
    from balance import format as fmt

    w = f["winner"]
    c = w["confirmed"]
    rows = [
        ("tuned player", f'<span class="spec">{_e(f["tuned"])}</span>'),
        ("tuned from", f'<span class="spec">{_e(f["default"])}</span> (its defaults: '
                       + _e(", ".join(f"{k}={_v(v)}" for k, v in _default_settings(f).items())) + ")"),
        ("against the field", _e(", ".join(f["field"])) + f" (heads up, {f['seats']} seats, seats rotated)"),
        ("confirmed strength", _e(f"{fmt.percent_ci(c['rate'], c['ci95'])} of decided games, mean over the field "
                                  f"(n={c['n']:,}, fresh seed {f['confirm_seed']})")),
        ("against the default", _e(f"{_pct(f['against_default'])}, n={f['against_default']['n']:,}")),
    ]
    if w.get("tuning") is not None:
        t = w["tuning"]
        rows.append(("winner's curse", _e(f"tuning score {fmt.percent_ci(t['rate'], t['ci95'])} overstated it by "
                                          f"{fmt.points(w['overstated_by'])} points")))
    rows.append(("search", _e(f"{f['trials']} trials ({f['distinct_settings']} distinct settings) of "
                              f"{f['games_per_trial']:,} games per opponent, seed {f['seed']}; the best "
                              f"{manifest['confirm_top']} and the default confirmed on {f['confirm_games']:,} games "
                              "per opponent")))
    body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f'<section id="summary" class="summary"><dl>{body}</dl></section>'


def _v(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _default_settings(f: Mapping[str, Any]) -> dict[str, Any]:
    return f.get("default_settings") or {}


def write_html(folder: Path, manifest: Mapping[str, Any], figures: Mapping[str, Any]) -> Path:
    """``folder/report.html`` for a finished training."""
    from balance import format as fmt
    from balance.report.page import _CSS

    f = figures
    field = f["field"]
    title = f"{f['game']}: {f['player']} trained against {', '.join(field)}"
    lede = (
        f"Optuna's TPE sampler searched {f['player']}'s parameters; every trial played the same "
        f"{f['games_per_trial']:,} games per opponent (seed {f['seed']}, seats rotated), and the best settings were "
        f"played again on fresh games (seed {f['confirm_seed']}). Every figure carries its 95% interval and n."
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}{_EXTRA_CSS}</style></head><body><main>",
        f'<header><h1>{_e(title)}</h1><p class="lede">{_e(lede)}</p></header>',
        _summary(manifest, f),
        '<section id="findings"><h2>Findings</h2><ul class="findings">',
        *(("<li class=\"finding-mc\">" if line.startswith("Finding:") else "<li>") + f"{_e(line)}</li>"
          for line in f["findings"]),
        "</ul></section>",
        '<section id="trials"><h2>Trials</h2>',
        f"<figure>{fig_trials(f)}<figcaption><b>Trials.</b> Each trial's share of the decided games it won, the "
        "mean over the players of the field, on the tuning games (the same games every trial); the line is the "
        "best so far, the dashed one the untuned default.</figcaption></figure></section>",
    ]
    imp = f["importance"]
    parts.append('<section id="importance"><h2>Parameter importance</h2>')
    if imp.get("values"):
        parts.append(
            f"<figure>{fig_importance(imp['values'])}<figcaption><b>Importance.</b> {_e(imp['method'])}: how much "
            "of the spread of the trials' scores each parameter explains."
            + (f" {_e(imp['note'])}." if imp.get("note") else "")
            + "</figcaption></figure>"
        )
    else:
        parts.append(f'<p class="lede">{_e(imp["method"])}: {_e(imp.get("note") or "not computed")}.</p>')
    parts.append("</section>")
    parts.append(
        '<section id="confirmation"><h2>Confirmation on fresh games</h2><p class="lede">The best settings on the '
        f"tuning games and the untuned default, played again on seed {f['confirm_seed']} ({f['confirm_games']:,} "
        "games per opponent): the tuning score of the best trial is optimistic (it was chosen for it); the winner "
        "is the best confirmed setting. Mean over the field with 95% intervals; n = decided games.</p>"
        '<div class="scroll"><table><thead><tr><th class="l">setting</th><th>trial</th><th>tuning score</th>'
        "<th>n</th><th>confirmed score</th><th>n</th><th>overstated by (points)</th>"
        + "".join(f"<th>vs {_e(o)} (confirmed)</th>" for o in field)
        + "</tr></thead><tbody>"
    )
    for r in f["confirmation"]:
        mark = " (winner)" if r["label"] == f["tuned"] else ""
        mark += " (default)" if r["default"] else ""
        t = r.get("tuning")
        parts.append(
            f'<tr><td class="l">{_e(r["label"])}{_e(mark)}</td><td>{"–" if r["trial"] is None else r["trial"]}</td>'
            f"<td>{'–' if t is None else _e(fmt.percent_ci(t['rate'], t['ci95']))}</td>"
            f"<td>{'–' if t is None else format(t['n'], ',')}</td>"
            f"<td>{_e(fmt.percent_ci(r['confirmed']['rate'], r['confirmed']['ci95']))}</td>"
            f"<td>{r['confirmed']['n']:,}</td>"
            f"<td>{'–' if t is None else _e(fmt.points(r['overstated_by']))}</td>"
            + "".join(f"<td>{_e(_pct(r['vs'][o]))}<br><small>n={r['vs'][o]['n']:,}</small></td>" for o in field)
            + "</tr>"
        )
    parts.append("</tbody></table></div></section>")
    parts.append(
        '<section id="strength"><h2>The tuned player against each player</h2><p class="lede">'
        f"{_e(f['tuned'])} on the fresh games: its share of the decided games against each player of the field and "
        "against the untuned default (Wilson 95% intervals; n = decided games of the match).</p>"
        '<div class="scroll"><table><thead><tr><th class="l">opponent</th><th>tuned wins</th><th>95% interval</th>'
        "<th>n (decided)</th><th>games</th><th>the default's share</th></tr></thead><tbody>"
    )
    default_vs = {m["opponent"]: m for m in f["default_against"]}
    for m in [*f["against"], f["against_default"]]:
        is_default = m is f["against_default"]
        name = f"{m['opponent']} (the untuned default)" if is_default else m["opponent"]
        rate = "50%" if m["mirror"] else fmt.percent(m["rate"], fmt.decimals(m["rate"], *m["ci95"]))
        ci = "the same player" if m["mirror"] else fmt.interval(m["ci95"], unit="%")
        d = default_vs.get(m["opponent"]) if not is_default else None
        parts.append(
            f'<tr><td class="l">{_e(name)}</td><td>{_e(rate)}</td><td>{_e(ci)}</td><td>{m["n"]:,}</td>'
            f"<td>{m['games']:,}</td><td>{'–' if d is None else _e(_pct(d))}</td></tr>"
        )
    parts.append("</tbody></table></div></section>")
    parts.append(
        '<section id="all-trials"><h2>Every trial</h2><p class="lede">On the tuning games; a repeat is a setting '
        "tried before (not played again: the same games give the same counts).</p>"
        '<div class="scroll"><table><thead><tr><th>trial</th><th class="l">setting</th><th>score</th><th>n</th>'
        "<th>best so far</th><th>repeat of</th></tr></thead><tbody>"
    )
    for h in f["history"]:
        parts.append(
            f'<tr><td>{h["trial"]}</td><td class="l">{_e(h["label"])}</td>'
            f"<td>{_e(fmt.percent_ci(h['value'], h['score']['ci95']))}</td><td>{h['score']['n']:,}</td>"
            f"<td>{_e(fmt.percent(h['best'], 1))}</td><td>{'' if h['repeat_of'] is None else h['repeat_of']}</td></tr>"
        )
    parts.append("</tbody></table></div></section>")
    space = "; ".join(
        f"{d['name']} {d['searched']}" if "searched" in d else f"{d['name']} held at {_v(d['fixed'])}"
        for d in manifest["space"]
    )
    rules = ", ".join(f"{k}={_v(v)}" for k, v in manifest["params"].items())
    parts.append(
        '<footer id="reproduce"><h3>Reproduce</h3>'
        f"<pre>{_e(manifest.get('command') or '')}</pre>"
        f"<p>Searched: {_e(space)}. Rules: {_e(rules)}. The share of a trial is the mean over the field of the "
        "candidate's share of decided games; its interval combines the per-opponent Wilson intervals as independent "
        "normal errors. Same command, same numbers: game g of a match uses the random stream of (seed, g), and the "
        "sampler is seeded from (seed, trials completed).</p></footer></main></body></html>\n"
    )
    path = folder / "report.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


__all__: Sequence[str] = ("write_html", "fig_trials", "fig_importance")
