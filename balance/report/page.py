"""The report page: one self-contained HTML file (CSS and SVG figures inline).

The findings, every figure in its section, a table with one row per point (every
figure with its interval, :mod:`balance.format`), the rules played and a footer
to reproduce the run.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from balance import format as fmt
from balance.format import format_value
from balance.report.board import run_board_section


_CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --accent: #1f77b4; --warn: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 32px 0 8px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 4px; }
p.lede { color: var(--muted); margin: 0 0 12px; }
ul.findings { padding-left: 20px; }
ul.findings li { margin: 4px 0; }
ul.findings li.fairness, ul.findings li.incomplete { color: var(--warn); }
figure { margin: 12px 0 20px; break-inside: avoid; page-break-inside: avoid; }
figure svg { display: block; width: 100%; height: auto; max-height: 520px; }
figcaption { color: var(--muted); font-size: 13px; }
figcaption b { color: var(--ink); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--rule); text-align: right; white-space: nowrap; }
th { background: #f5f5f7; position: sticky; top: 0; }
td.l, th.l { text-align: left; }
footer { margin-top: 36px; border-top: 1px solid var(--rule); padding-top: 10px; color: var(--muted); font-size: 13px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { white-space: pre-wrap; word-break: break-all; background: #f5f5f7; padding: 8px; margin: 4px 0; }
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; page-break-after: avoid; }
  .scroll { overflow: visible; }
  table { font-size: 8pt; }
  th { position: static; }
}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _table(data: Mapping[str, Any], manifest: Mapping[str, Any]) -> str:
    n_seats = len(manifest["players"])
    several = len(manifest["strategies"]) > 1
    axes = [a["name"] for a in data["axes"] if len(a["values"]) > 1] or [a["name"] for a in data["axes"]]
    head = ["point", *axes, "games"]
    head += [f"seat {s}" + ("" if manifest["rotate_seats"] else f" ({manifest['players'][s]})") + " wins" for s in range(n_seats)]
    if several:
        head += [f"{name} wins" for name in manifest["strategies"]]
    head += ["no winner"] + [f"end: {r}" for r in manifest["end_reasons"]]
    head += ["mean turns (95% CI)", "median (95% CI)", "p10–p90", "max"]
    rows = []
    for p in data["points"]:
        t = p["turns"]
        cells = [str(p["point"]), *(format_value(p["params"][a]) for a in axes), f"{p['games']:,}"]
        cells += [fmt.percent_ci(s["win_rate"], s["ci95"]) for s in p["seats"]]
        if several:
            cells += [fmt.percent_ci(s["win_rate"], s["ci95"]) for s in p["strategies"]]
        cells.append(fmt.percent_ci(p["no_winner_rate"]["rate"], p["no_winner_rate"]["ci95"]))
        cells += [fmt.percent_ci(p["end_reason_shares"][r]["share"], p["end_reason_shares"][r]["ci95"]) for r in manifest["end_reasons"]]
        cells += [
            f"{t['mean']:.2f} ({t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f})",
            f"{t['median']} ({t['median_ci95'][0]}–{t['median_ci95'][1]})",
            f"{t['p10']}–{t['p90']}",
            str(t["max"]),
        ]
        rows.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    return (
        '<div class="scroll"><table id="points-table"><thead><tr>'
        + "".join(f"<th>{_e(h)}</th>" for h in head)
        + "</tr></thead><tbody>\n"
        + "\n".join(rows)
        + "\n</tbody></table></div>"
    )


def _rules_table(data: Mapping[str, Any]) -> str:
    info = data["param_info"]
    swept = set(data["swept"])
    rows = []
    for name, value in data["rules"].items():
        meaning = info.get(name, {}).get("meaning", "")
        shown = "swept" if name in swept else format_value(value)
        default = info.get(name, {}).get("default")
        mark = "" if name in swept or default is None or default == value else " (default " + format_value(default) + ")"
        rows.append(f'<tr><td class="l"><code>{_e(name)}</code></td><td>{_e(shown + mark)}</td><td class="l">{_e(meaning)}</td></tr>')
    return (
        '<div class="scroll"><table id="rules-table"><thead><tr><th class="l">parameter</th><th>value</th>'
        '<th class="l">meaning</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>"
    )


def title_of(data: Mapping[str, Any]) -> str:
    swept = data["swept"]
    return f"{data['title']}: sweep of {', '.join(swept)}" if swept else f"{data['title']}: one rule set"


def _head(title: str) -> list[str]:
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style></head><body><main>",
    ]


def render_html(data: Mapping[str, Any], figures: Sequence[Mapping[str, Any]], manifest: Mapping[str, Any]) -> str:
    parts = _head(title_of(data)) + render_body(data, figures, manifest)
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def render_set_html(
    title: str,
    lede: str,
    between: Sequence[Mapping[str, Any]],
    runs: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]], Mapping[str, Any]]],
) -> str:
    """One page for a sweep played by several player lists: what changes between
    them, then each list's whole report (its ids prefixed so they stay unique)."""
    parts = _head(title)
    parts.append(f'<header><h1>{_e(title)}</h1><p class="lede">{_e(lede)}</p></header>')
    parts.append('<section id="between-players"><h2>Between players</h2><ul class="findings">')
    parts += [f'<li class="{_e(f["kind"])}">{_e(f["text"])}</li>' for f in between]
    parts.append("</ul></section>")
    for i, (label, data, figures, manifest) in enumerate(runs):
        body = "\n".join(render_body(data, figures, manifest))
        body = body.replace(' id="', f' id="r{i}-').replace("<h1>", "<h2>").replace("</h1>", "</h2>")
        parts.append(f'<section class="players-run" id="players-{i}"><h2>Players: {_e(label)}</h2>{body}</section>')
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def render_body(data: Mapping[str, Any], figures: Sequence[Mapping[str, Any]], manifest: Mapping[str, Any]) -> list[str]:
    run = data["run"]
    title = title_of(data)
    players = ", ".join(run["players"]) + (" (seats rotated)" if run["rotate_seats"] else "")
    lede = (
        f"{data['points_finished']:,} point{'s' if data['points_finished'] != 1 else ''} × "
        f"{run['games_per_point']:,} games, players {players}, seed {run['seed']}. "
        "Every figure carries its 95% interval; the same games (seeds) are played at every point."
    )
    parts = [
        f"<header><h1>{_e(title)}</h1><p class=\"lede\">{_e(lede)}</p></header>",
        '<section id="findings"><h2>Findings</h2><ul class="findings">',
    ]
    parts += [f'<li class="{_e(f["kind"])}">{_e(f["text"])}</li>' for f in data["findings"]]
    parts.append("</ul></section>")
    section = None
    for k, f in enumerate(figures):
        if f["section"] != section:
            if section is not None:
                parts.append("</section>")
            section = f["section"]
            sid = re.sub(r"[^A-Za-z0-9_-]+", "-", section)
            parts.append(f'<section id="sec-{_e(sid)}"><h2>{_e(section)}</h2>')
        parts.append(
            f'<figure id="fig-{_e(f["id"])}">{f["svg"]}'
            f"<figcaption><b>{_e(f['title'])}.</b> {_e(f['caption'])}</figcaption></figure>"
        )
    if section is not None:
        parts.append("</section>")
    parts.append('<section id="points"><h2>Every point</h2>')
    parts.append(
        "<p class=\"lede\">Win rates and end-reason shares with 95% Wilson intervals; mean length with its 95% "
        "interval; median with a distribution-free 95% interval.</p>"
    )
    parts.append(_table(data, manifest))
    parts.append("</section>")
    parts.append('<section id="rules"><h2>Rules played</h2>')
    parts.append(_rules_table(data))
    parts.append("</section>")
    parts.append(run_board_section(data))
    versions = ", ".join(f"{k} {v}" for k, v in (run.get("versions") or {}).items())
    resumed = len(run.get("sessions") or [])
    parts.append(
        '<footer id="reproduce"><h3>Reproduce</h3>'
        f"<pre>{_e(run.get('command') or '')}</pre>"
        f"<p>Seed {_e(run['seed'])} · {_e(run['games_per_point'])} games per point · "
        f"versions: {_e(versions)} · commit {_e(run.get('commit') or 'unknown')} · "
        f"created {_e(run.get('created') or '')}"
        + (f" · played in {resumed} sessions (resumed)" if resumed > 1 else "")
        + (f" · board sha256 {_e(run['board_sha256'][:12])}" if run.get("board_sha256") else "")
        + ". Same command, same numbers: game g uses the random stream of (seed, g) at every point.</p></footer>"
    )
    return parts
