"""The report page: one self-contained HTML file (CSS and SVG figures inline).

In page order (:mod:`balance.report.html` is the house style): the title, the
summary box (the answer in one or two sentences, naming the players, coloured
by its verdict), the table of contents, the findings (each coloured by its
verdict, with the rules that decide the verdicts), every figure in its
section, a table with every figure and its interval, the rules played (those
that differ from the game's defaults first, and the board file), then a
footer to reproduce the run.

Sections are a list of ``(id, title, html)``: the table of contents is made
from it, and a caller adds a section (a board picture, say) by passing it in
``extra_sections`` (placed before the tables).  Every id on a page goes through
one prefix, so a page holding several reports (a sweep played by several
player lists) keeps its ids unique and every in-page reference resolving.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from balance import format as fmt
from balance.format import format_value
from balance.report.board import run_board_body
from balance.report.findings import BAND_RULE, FAIREST_RULE, seats_held
from balance.report.html import BAND_VERDICT, CSS, e, findings_list, head, summary_box, tail, toc
from balance.summary import band_verdict

_CSS = CSS  # the house style (kept under its old name for callers of this module)
Section = tuple[str, str, str]  # (id, title, html)


def _cell(text: str, verdict: str | None = None, cls: str = "") -> str:
    classes = " ".join(c for c in (cls, f"verdict-{BAND_VERDICT[verdict]}" if verdict else "") if c)
    return f'<td class="{classes}">{e(text)}</td>' if classes else f"<td>{e(text)}</td>"


def _table(data: Mapping[str, Any], manifest: Mapping[str, Any], prefix: str) -> str:
    n_seats = len(manifest["players"])
    band = data["fairness"]["band"]
    pbands = data["fairness"].get("players") or []
    # A player that keeps one seat (no rotation) has that seat's rate: no column of its own.
    own = [k for k in range(len(manifest["strategies"]))
           if manifest["rotate_seats"] or not pbands or pbands[k]["seats"] != 1]
    several = len(manifest["strategies"]) > 1 and bool(own)
    axes = [a["name"] for a in data["axes"] if len(a["values"]) > 1] or [a["name"] for a in data["axes"]]
    head_ = ["point", *axes, "games"]
    head_ += [f"seat {s}" + ("" if manifest["rotate_seats"] else f" ({manifest['players'][s]})") + " wins" for s in range(n_seats)]
    if several:
        head_ += [f"{manifest['strategies'][k]} wins" for k in own]
    head_ += ["no winner"] + [f"end: {r}" for r in manifest["end_reasons"]]
    head_ += ["mean turns (95% CI)", "median (95% CI)", "p10–p90", "max"]
    rows = []
    for p in data["points"]:
        t = p["turns"]
        cells = [_cell(str(p["point"])), *(_cell(format_value(p["params"][a])) for a in axes), _cell(f"{p['games']:,}")]
        cells += [_cell(fmt.percent_ci(s["win_rate"], s["ci95"]), band_verdict(s["ci95"], band)) for s in p["seats"]]
        if several:
            cells += [
                _cell(fmt.percent_ci(s["win_rate"], s["ci95"]), band_verdict(s["ci95"], pbands[k]["band"]) if pbands else None)
                for k, s in enumerate(p["strategies"]) if k in own
            ]
        cells.append(_cell(fmt.percent_ci(p["no_winner_rate"]["rate"], p["no_winner_rate"]["ci95"])))
        cells += [_cell(fmt.percent_ci(p["end_reason_shares"][r]["share"], p["end_reason_shares"][r]["ci95"])) for r in manifest["end_reasons"]]
        cells += [
            _cell(f"{t['mean']:.2f} ({t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f})"),
            _cell(f"{t['median']} ({t['median_ci95'][0]}–{t['median_ci95'][1]})"),
            _cell(f"{t['p10']}–{t['p90']}"),
            _cell(str(t["max"])),
        ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f'<div class="scroll"><table id="{prefix}points-table"><thead><tr>'
        + "".join(f"<th>{e(h)}</th>" for h in head_)
        + "</tr></thead><tbody>\n"
        + "\n".join(rows)
        + "\n</tbody></table></div>"
    )


def _n(x: int) -> str:
    return f"{int(x):,}"


def _row(*cells: str) -> str:
    return "<tr>" + "".join(cells) + "</tr>"


def _single_tables(data: Mapping[str, Any], manifest: Mapping[str, Any], prefix: str) -> str:
    """One rule set: a table of seats, one of players (with their fair shares),
    one of end reasons and one of game length, every figure with its interval
    and its verdict."""
    p = data["points"][0]
    band = data["fairness"]["band"]
    n_seats = len(manifest["players"])
    parts = [
        f'<h3>Win rate by seat</h3><div class="scroll"><table id="{prefix}seats-table"><thead><tr><th>seat</th>'
        '<th class="l">player</th><th>wins</th><th>games</th><th>win rate (95% CI)</th><th>fairness band</th>'
        "<th>verdict</th></tr></thead><tbody>"
    ]
    for s in p["seats"]:
        v = band_verdict(s["ci95"], band)
        parts.append(_row(
            _cell(str(s["seat"])), _cell(s["player"], cls="l"), _cell(_n(s["wins"])), _cell(_n(s["games"])),
            _cell(fmt.percent_ci(s["win_rate"], s["ci95"]), v), _cell(fmt.band(*band)), _cell(v, v),
        ))
    nw = p["no_winner_rate"]
    parts.append(_row(
        _cell("–"), _cell("no winner", cls="l"), _cell(_n(p["no_winner"])), _cell(_n(p["games"])),
        _cell(fmt.percent_ci(nw["rate"], nw["ci95"])), _cell(""), _cell(""),
    ))
    parts.append("</tbody></table></div>")
    if len(manifest["strategies"]) > 1 or manifest["rotate_seats"]:
        parts.append(
            f'<h3>Win rate by player</h3><div class="scroll"><table id="{prefix}players-table"><thead><tr>'
            '<th class="l">player</th><th>seats</th><th>games</th><th>wins</th><th>win rate (95% CI)</th>'
            "<th>fair share</th><th>its band</th><th>verdict</th></tr></thead><tbody>"
        )
        for row, pb in zip(p["strategies"], data["fairness"]["players"]):
            v = band_verdict(row["ci95"], pb["band"])
            parts.append(_row(
                _cell(row["player"], cls="l"), _cell(seats_held(pb["seats"], n_seats)), _cell(_n(row["games"])),
                _cell(_n(row["wins"])), _cell(fmt.percent_ci(row["win_rate"], row["ci95"]), v),
                _cell(fmt.percent(pb["fair_share"])), _cell(fmt.band(*pb["band"])), _cell(v, v),
            ))
        parts.append("</tbody></table></div>")
    parts.append(
        f'<h3>How games end</h3><div class="scroll"><table id="{prefix}reasons-table"><thead><tr>'
        '<th class="l">end reason</th><th>games</th><th>share (95% CI)</th></tr></thead><tbody>'
    )
    for r in manifest["end_reasons"]:
        sh = p["end_reason_shares"][r]
        parts.append(_row(_cell(r, cls="l"), _cell(_n(p["end_reasons"][r])), _cell(fmt.percent_ci(sh["share"], sh["ci95"]))))
    parts.append("</tbody></table></div>")
    t = p["turns"]
    mean = f"{t['mean']:.2f} ({t['mean_ci95'][0]:.2f}–{t['mean_ci95'][1]:.2f})"
    median = f"{t['median']} ({t['median_ci95'][0]}–{t['median_ci95'][1]})"
    parts.append(
        f'<h3>Game length</h3><div class="scroll"><table id="{prefix}length-table"><thead><tr><th>games</th>'
        "<th>mean (95% CI)</th><th>median (95% CI)</th><th>p10</th><th>p90</th><th>min</th><th>max</th></tr></thead>"
        "<tbody>"
        + _row(_cell(_n(p["games"])), _cell(mean), _cell(median), _cell(str(t["p10"])), _cell(str(t["p90"])),
               _cell(str(t["min"])), _cell(str(t["max"])))
        + "</tbody></table></div>"
    )
    parts.append(_feel_table(p.get("feel"), prefix))
    return "".join(parts)


def _feel_table(feel: Mapping[str, Any] | None, prefix: str) -> str:
    """The game-feel table (balance.feel): each figure, its 95% interval, its games."""
    if not feel:
        return ""
    from balance.feel import rows

    body = "".join(_row(_cell(a, cls="l"), _cell(b), _cell(c)) for a, b, c in rows(feel, fmt.percent_ci))
    return (
        f'<h3>Game feel</h3><p>Who is ahead: {e(feel["standing"])}, sampled at every round end and at the end '
        f'(docs/architecture.md, game feel).</p><div class="scroll"><table id="{prefix}feel-table"><thead><tr>'
        '<th class="l">figure</th><th>value (95% CI)</th><th>games</th></tr></thead><tbody>' + body
        + "</tbody></table></div>"
    )


def changed_rules(data: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """``(name, value, default)`` of every rule that differs from the game's default (swept ones aside)."""
    info = data["param_info"]
    swept = set(data["swept"])
    out = []
    for name, value in data["rules"].items():
        default = info.get(name, {}).get("default")
        if name not in swept and default is not None and default != value:
            out.append((name, value, default))
    return out


def _rules_section(data: Mapping[str, Any], prefix: str) -> str:
    info = data["param_info"]
    swept = set(data["swept"])
    run = data["run"]
    changed = changed_rules(data)
    if changed:
        lead = "Rules that differ from the game's defaults: " + ", ".join(
            f"{n}={format_value(v)} (default {format_value(d)})" for n, v, d in changed
        ) + "."
    elif info:
        lead = "Every rule not swept is at the game's default."
    else:
        lead = ""
    board = run.get("board")
    lead += (
        f" Board: {board}" + (f" (sha256 {run['board_sha256'][:12]})" if run.get("board_sha256") else "") + "."
        if board
        else " Board: the game's default board."
    )
    if run.get("player_file"):
        lead += f" Players from {run['player_file']}."
    rows = []
    for name, value in data["rules"].items():
        meaning = info.get(name, {}).get("meaning", "")
        shown = "swept" if name in swept else format_value(value)
        default = info.get(name, {}).get("default")
        mark = "" if name in swept or default is None or default == value else " (default " + format_value(default) + ")"
        cls = ' class="verdict-unsure"' if mark else ""
        rows.append(f'<tr{cls}><td class="l"><code>{e(name)}</code></td><td>{e(shown + mark)}</td><td class="l">{e(meaning)}</td></tr>')
    return (
        f'<p class="lede" id="{prefix}rules-changed">{e(lead.strip())}</p>'
        f'<div class="scroll"><table id="{prefix}rules-table"><thead><tr><th class="l">parameter</th><th>value</th>'
        '<th class="l">meaning</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>"
    )


def title_of(data: Mapping[str, Any]) -> str:
    swept = data["swept"]
    return f"{data['title']}: sweep of {', '.join(swept)}" if swept else f"{data['title']}: one rule set"


def render_html(
    data: Mapping[str, Any],
    figures: Sequence[Mapping[str, Any]],
    manifest: Mapping[str, Any],
    extra_sections: Sequence[Section] = (),
    title: str | None = None,
    lede: str | None = None,
) -> str:
    parts = head(title or title_of(data)) + render_body(data, figures, manifest, extra_sections=extra_sections,
                                                        title=title, lede=lede)
    parts.append(tail())
    return "\n".join(parts)


def render_set_html(
    title: str,
    lede: str,
    between: Sequence[Mapping[str, Any]],
    runs: Sequence[tuple[str, Mapping[str, Any], Sequence[Mapping[str, Any]], Mapping[str, Any]]],
    summary: Mapping[str, Any],
) -> str:
    """One page for a sweep played by several player lists: the summary, what
    changes between them, then each list's whole report (its ids prefixed
    ``r<i>-``, so they stay unique and every reference resolves)."""
    parts = head(title)
    parts.append(f'<header><h1>{e(title)}</h1><p class="lede">{e(lede)}</p></header>')
    parts.append(summary_box(summary["sentences"], summary["verdict"]))
    entries = [("between-players", "Between players")] + [
        (f"players-{i}", f"Players: {label}") for i, (label, *_rest) in enumerate(runs)
    ]
    parts.append(toc(entries))
    parts.append('<section id="between-players"><h2>Between players</h2>')
    parts.append(findings_list(between))
    parts.append("</section>")
    for i, (label, data, figures, manifest) in enumerate(runs):
        body = "\n".join(render_body(data, figures, manifest, prefix=f"r{i}-", level=3, title=f"Players: {label}"))
        parts.append(f'<section class="players-run" id="players-{i}">{body}</section>')
    parts.append(tail())
    return "\n".join(parts)


def _sid(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text)


def render_body(
    data: Mapping[str, Any],
    figures: Sequence[Mapping[str, Any]],
    manifest: Mapping[str, Any],
    *,
    prefix: str = "",
    level: int = 2,
    own_toc: bool = True,
    extra_sections: Sequence[Section] = (),
    title: str | None = None,
    lede: str | None = None,
) -> list[str]:
    """The parts of a report page inside ``<main>``: every id starts with ``prefix``;
    ``level`` is the heading level of its sections (3 inside a page of several reports)."""
    run = data["run"]
    title = title or title_of(data)
    players = ", ".join(run["players"]) + (" (seats rotated)" if run["rotate_seats"] else "")
    if lede is None:
        lede = (
            f"{data['points_finished']:,} point{'s' if data['points_finished'] != 1 else ''} × "
            f"{run['games_per_point']:,} games, players {players}, seed {run['seed']}. "
            "Every figure carries its 95% interval; the same games (seeds) are played at every point."
        )
    h, hn = f"h{level}", f"h{level - 1}"
    sections: list[Section] = []
    rules = [BAND_RULE] + ([FAIREST_RULE] if data["points_finished"] > 1 else [])
    sections.append(
        (
            f"{prefix}findings",
            "Findings",
            findings_list(data["findings"]) + "".join(f'<p class="rule">{e(r)}</p>' for r in rules),
        )
    )
    by_section: dict[str, list[str]] = {}
    for f in figures:
        by_section.setdefault(f["section"], []).append(
            f'<figure id="{prefix}fig-{e(f["id"])}">{f["svg"]}'
            f"<figcaption><b>{e(f['title'])}.</b> {e(f['caption'])}</figcaption></figure>"
        )
    for section, items in by_section.items():
        sections.append((f"{prefix}sec-{_sid(section)}", section[:1].upper() + section[1:], "".join(items)))
    sections += list(extra_sections)
    if data["points_finished"] == 1 and not data["swept"]:
        sections.append(
            (f"{prefix}points", "Every figure",
             '<p class="lede">Win rates and end-reason shares with 95% Wilson intervals; mean length with its 95% '
             "interval; median with a distribution-free 95% interval. A win rate is coloured by its verdict against "
             "its band.</p>" + _single_tables(data, manifest, prefix))
        )
    else:
        sections.append(
            (f"{prefix}points", "Every point",
             '<p class="lede">Win rates and end-reason shares with 95% Wilson intervals (a win rate coloured by its '
             "verdict against its band); mean length with its 95% interval; median with a distribution-free 95% "
             "interval.</p>" + _table(data, manifest, prefix))
        )
    sections.append((f"{prefix}rules", "Rules played", _rules_section(data, prefix)))
    board = run_board_body(data)
    if board:
        sections.append((f"{prefix}board", "Board", board))
    versions = ", ".join(f"{k} {v}" for k, v in (run.get("versions") or {}).items())
    resumed = len(run.get("sessions") or [])
    footer = (
        f'<footer id="{prefix}reproduce"><h3>Reproduce</h3>'
        f"<pre>{e(run.get('command') or '')}</pre>"
        f"<p>Seed {e(run['seed'])} · {e(run['games_per_point'])} games{' per point' if data['swept'] else ''} · "
        f"versions: {e(versions)} · commit {e(run.get('commit') or 'unknown')} · "
        f"created {e(run.get('created') or '')}"
        + (f" · played in {resumed} sessions (resumed)" if resumed > 1 else "")
        + (f" · board sha256 {e(run['board_sha256'][:12])}" if run.get("board_sha256") else "")
        + ". Same command, same numbers: game g uses the random stream of (seed, g)"
        + (" at every point" if data["swept"] else "")
        + ".</p></footer>"
    )
    s = data["summary"]
    parts = [
        f'<header><{hn}>{e(title)}</{hn}><p class="lede">{e(lede)}</p></header>',
        summary_box(s["sentences"], s["verdict"], f"{prefix}summary"),
    ]
    if own_toc:
        parts.append(toc([(i, t) for i, t, _ in sections] + [(f"{prefix}reproduce", "Reproduce")], f"{prefix}contents"))
    for sid, stitle, body in sections:
        parts.append(f'<section id="{e(sid)}"><{h}>{e(stitle)}</{h}>{body}</section>')
    parts.append(footer)
    return parts
