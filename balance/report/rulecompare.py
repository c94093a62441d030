"""The page of ``balance compare`` (``--report R.html``): B against A in the house
style, with its JSON (``R.json``) and Markdown (``R.md``) twins.

The summary box says in plain words what B changes, each change with its
paired 95% interval; per players list, the table of every metric under A and
under B with the paired difference, the Holm-adjusted p-value and the verdict
(a seat's clear move toward its fair share green, away from it red, when the
seats are comparable; every other row in ink, a clear change in bold); the game
feel under A and under B, each figure with its interval and n, and the unpaired
difference (:func:`balance.rulecompare.feel_rows`); then the same pictures for A
and for B side by side (the run page's figures, drawn from each side's counts),
and how the numbers were made.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from balance import format as fmt
from balance.errors import UserError


def check_report(out: str | os.PathLike[str]) -> Path:
    from balance.report.run import check_out

    return check_out(out, "--report", "compare.html")


def _side_figures(result: Any, section: Any, side: int, prefix: str) -> list[dict[str, Any]]:
    from balance.play import RunResult
    from balance.report.data import report_data
    from balance.report.figures import build_figures, svg_inline
    from balance.report.run import run_manifest

    agg = section.paired.a if side == 0 else section.paired.b
    run = section.runs[side].replace(games=agg.games)
    rr = RunResult(run, list(section.strategies), agg, 0.0, list(section.end_reasons), section.score_name)
    manifest = run_manifest(rr, command="balance compare")
    data = report_data(manifest, {0: agg})
    figures = build_figures(data, manifest)
    for k, f in enumerate(figures):
        f["svg"] = svg_inline(f["figure"], f"{prefix}{k}", f["title"])
    return figures


def row_verdict(section: Any, row: Any) -> str:
    """A row's colour (the house style's verdicts): a seat's clear move toward its fair
    share is good, away from it bad, when the seats are comparable (one player in every
    seat, or seats rotated); every other clear change, and no clear change, is info."""
    comparable = len(section.strategies) == 1 or section.runs[0].rotate_seats
    if not row.changed or not row.name.startswith("seat_win_rate[") or not comparable:
        return "info"
    fair = 1.0 / len(section.players)
    return "good" if abs(row.b.value - fair) < abs(row.a.value - fair) else "bad"


def render_html(result: Any) -> str:
    from balance.report.html import e, head, summary_box, tail, toc
    title = f"{result.title}: B against A"
    parts = head(title)
    a, b = result.sides
    parts.append(
        f'<header><h1>{e(title)}</h1><p class="lede">A: {e(a.source)}. B: {e(b.source)}. Rules changed: '
        f"{e(result.rules_text())}. Both played on seed {result.seed}, game for game the same deals (common random "
        "numbers); every difference is paired, with its 95% interval and the number of pairs behind it.</p></header>"
    )
    sentences = [x for s in result.sections for x in result.summary(s)[:1]]
    from balance.report.html import worst

    verdict = worst(row_verdict(s, r) for s in result.sections for r in s.rows)
    parts.append(summary_box(sentences, verdict))
    entries = [(f"players-{i}", f"{', '.join(s.players)}: {s.games:,} pairs") for i, s in enumerate(result.sections)]
    entries.append(("how", "How the numbers were made"))
    parts.append(toc(entries))
    for i, s in enumerate(result.sections):
        parts.append(f'<section id="players-{i}"><h2>{e(", ".join(s.players))}: {s.games:,} pairs of games</h2>')
        for sentence in result.summary(s)[1:]:
            parts.append(f'<p class="rule">{e(sentence)}</p>')
        if s.rounds is not None:
            parts.append(f'<p class="rule">{e(s.rounds.sentence())}.</p>')
        parts.append(f'<div class="scroll"><table id="metrics-{i}"><thead><tr>'
                     + "".join(f'<th class="{"l" if k in (0, 5) else ""}">{e(h)}</th>' for k, h in enumerate(HEADER))
                     + "</tr></thead><tbody>")
        for row, cells in zip(s.rows, table_rows(s)):
            cls = row_verdict(s, row)
            tds = "".join(
                f'<td class="{"l" if k in (0, 5) else ""}">{"<b>" if row.changed and k == 5 else ""}{e(c)}'
                f'{"</b>" if row.changed and k == 5 else ""}</td>' for k, c in enumerate(cells)
            )
            parts.append(f'<tr class="verdict-{cls}">{tds}</tr>')
        parts.append("</tbody></table></div>")
        if s.feel:
            parts.append(f'<h3 id="feel-{i}">{e(feel_title(s))}</h3>')
            parts += [f'<p class="rule">{e(x)}</p>' for x in feel_notes(s)]
            parts.append(f'<div class="scroll"><table id="feel-table-{i}"><thead><tr>'
                         + "".join(f'<th class="{"l" if k in (0, 5) else ""}">{e(h)}</th>'
                                   for k, h in enumerate(FEEL_HEADER))
                         + "</tr></thead><tbody>")
            for row, cells in zip(s.feel, feel_table_rows(s)):
                tds = "".join(
                    f'<td class="{"l" if k in (0, 5) else ""}">{"<b>" if row.changed and k == 5 else ""}{e(c)}'
                    f'{"</b>" if row.changed and k == 5 else ""}</td>' for k, c in enumerate(cells)
                )
                parts.append(f'<tr class="verdict-info">{tds}</tr>')
            parts.append("</tbody></table></div>")
        diff_fig = fig_differences(s)
        if diff_fig is not None:
            from balance.report.figures import svg_inline

            parts.append(f"<figure>{svg_inline(diff_fig, f'd{i}', 'Paired differences B − A with 95% intervals')}"
                         "<figcaption>Each metric's paired difference B − A with its 95% interval; filled: a clear "
                         "change after Holm's correction, hollow: no clear change.</figcaption></figure>")
        figs = [_side_figures(result, s, side, f"p{i}{'ab'[side]}") for side in (0, 1)]
        for fa, fb in zip(*figs):
            parts.append(f"<h3>{e(fa['title'])}</h3>")
            parts.append('<div style="display:grid;grid-template-columns:repeat(auto-fit,minmax(360px,1fr));gap:16px">')
            for label, f in (("A", fa), ("B", fb)):
                parts.append(f"<figure>{f['svg']}<figcaption><b>{label}</b>: {e(f['caption'])}</figcaption></figure>")
            parts.append("</div>")
        parts.append("</section>")
    parts.append('<section id="how"><h2>How the numbers were made</h2><ul class="findings">'
                 + "".join(f'<li class="verdict-info">{e(x)}</li>' for x in how_text(result)) + "</ul></section>")
    parts.append("<footer>" + e("Made by balance compare; the JSON and Markdown twins beside this page hold every number.")
                 + "</footer>")
    parts.append(tail())
    return "\n".join(parts)


def write_report(result: Any, out: str | os.PathLike[str]) -> dict[str, Path]:
    """Write ``out`` (HTML), its ``.json`` and ``.md`` twins; every file whole or none."""
    from balance.report.write import _finite
    from balance.store import atomic_write_bytes, json_default

    path = check_report(out)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    page = render_html(result)
    data = json.dumps(_finite(result.to_dict()), indent=1, default=json_default) + "\n"
    md = render_markdown(result)
    paths = {"html": path, "json": path.with_suffix(".json"), "markdown": path.with_suffix(".md")}
    try:
        atomic_write_bytes(paths["json"], data.encode("utf-8"))
        atomic_write_bytes(paths["markdown"], md.encode("utf-8"))
        atomic_write_bytes(paths["html"], page.encode("utf-8"))
    except OSError as exc:
        raise UserError(f"--report {out}: cannot write ({exc.strerror or exc})") from None
    return paths


# --------------------------------------------------------------------------- text
def table_rows(section: Any) -> list[list[str]]:
    """``metric, A (95% CI), B (95% CI), B − A (95% CI), adjusted p, verdict`` per metric."""
    out = []
    for r in section.rows:
        kind = r.kind
        av = fmt.values(kind, (r.a.value, *r.a.ci95))
        bv = fmt.values(kind, (r.b.value, *r.b.ci95))
        d, lo, hi = fmt.differences(kind, (r.diff, *r.ci95))
        unit = "" if kind == "proportion" else f" {r.unit}"
        verdict = ("changed" if r.changed else "no clear change") + ("" if r.tested else " (as turns)")
        out.append([
            r.name, f"{av[0]} ({av[1]}–{av[2]})", f"{bv[0]} ({bv[1]}–{bv[2]})", f"{d}{unit} ({lo} to {hi})",
            fmt.p_value(r.p_adjusted) if r.tested else "–", verdict,
        ])
    return out


HEADER = ["metric", "A (95% CI)", "B (95% CI)", "B − A (95% CI)", "Holm p", "verdict"]
FEEL_HEADER = ["game feel", "A (95% CI), n", "B (95% CI), n", "B − A (unpaired 95% CI)", "Holm p", "verdict"]


def feel_table_rows(section: Any) -> list[list[str]]:
    """``metric, A (95% CI), n, B (95% CI), n, B − A (unpaired 95% CI), adjusted p
    (the game feel's own family), verdict`` per game-feel metric."""
    out = []
    for r in section.feel:
        kind = r.kind
        av = fmt.values(kind, (r.a.value, *r.a.ci95))
        bv = fmt.values(kind, (r.b.value, *r.b.ci95))
        d, lo, hi = fmt.differences(kind, (r.diff, *r.ci95))
        out.append([  # proportions in points, means in their own units (the notes under the table)
            r.name, f"{av[0]} ({av[1]}–{av[2]}), n={r.a.n:,}", f"{bv[0]} ({bv[1]}–{bv[2]}), n={r.b.n:,}",
            f"{d} ({lo} to {hi})", fmt.p_value(r.p_adjusted), "changed" if r.changed else "no clear change",
        ])
    return out


def feel_title(section: Any) -> str:
    standing = section.feel_reading.get("standing") or "standing"
    return f"Game feel (who is ahead: {standing}): A and B apart, unpaired 95% intervals"


def feel_notes(section: Any) -> list[str]:
    """What the game-feel table says, in plain words (under it on every output)."""
    fair = 1.0 / len(section.players)
    at = "end" if section.feel_reading.get("margin_at_end", True) else "last round end"
    return [
        "These differences are unpaired and conservative: the game-feel counts are kept per side, not game by game, "
        "so B − A is read as if A and B were independent samples (Newcombe's interval for a proportion, the normal "
        "interval of a difference of means for a mean); the same deals make the sides positively correlated, so a "
        "paired interval would be narrower. Holm p is over the game-feel metrics alone, apart from the paired family; "
        "n is the games behind each figure.",
        f"P(win | leading at 25%, half time, 75%) and the comeback rate read against the fair share {fmt.percent(fair)}, "
        "their differences in points; lead changes per game; the decisive moment is a share of the game (0 its start, "
        f"1 its end); the final margin is in the standing's units, taken at the {at}.",
    ]


def how_text(result: Any) -> list[str]:
    lines = [
        f"Pairs: game g of seed {result.seed} under A and under B (common random numbers); every difference is the "
        "mean of the per-game differences B − A, its 95% interval the normal interval of their spread (proportions: "
        "McNemar's z; median and p90: a bootstrap of the pairs and a paired Mood test).",
        f"Holm's correction over the {sum(r.tested for r in result.sections[0].rows)} metrics of each players list, "
        f"family-wise α = {result.alpha:g}; 'changed' means a Holm-adjusted p of at most α.",
    ]
    if result.seconds_per_turn:
        lines.append(f"Minutes: {result.seconds_per_turn:g} s per player turn ({result.seconds_per_turn_source}); "
                     "a minute figure is its turn figure times that, tested once, as turns.")
    return lines


def render_markdown(result: Any) -> str:
    lines = [f"# {result.title}: B against A", ""]
    lines.append(f"- A: {result.sides[0].source}")
    lines.append(f"- B: {result.sides[1].source}")
    lines.append(f"- rules changed: {result.rules_text()}")
    lines.append("")
    for s in result.sections:
        lines.append(f"## {', '.join(s.players)}: {s.games:,} pairs of games")
        lines.append("")
        for sentence in result.summary(s):
            lines.append(f"**{sentence}**" if sentence is result.summary(s)[0] else sentence)
            lines.append("")
        if s.rounds is not None:
            lines += [s.rounds.sentence() + ".", ""]
        lines.append("| " + " | ".join(HEADER) + " |")
        lines.append("|" + "|".join("---" if i == 0 or i == 5 else "---:" for i in range(len(HEADER))) + "|")
        for row in table_rows(s):
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
        if s.feel:
            lines += [f"### {feel_title(s)}", ""]
            lines += [x for note in feel_notes(s) for x in (note, "")]
            lines.append("| " + " | ".join(FEEL_HEADER) + " |")
            lines.append("|" + "|".join("---" if i == 0 or i == 5 else "---:" for i in range(len(FEEL_HEADER))) + "|")
            for row in feel_table_rows(s):
                lines.append("| " + " | ".join(row) + " |")
            lines.append("")
    lines.append("## How to read it")
    lines.append("")
    lines += [f"- {x}" for x in how_text(result)]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the picture of the differences
def fig_differences(section: Any) -> Any:
    """Every tested metric's paired difference B − A with its 95% interval, one row
    a metric: win rates and end reasons in points (left), lengths in turns (right);
    a clear change (Holm) filled, no clear change hollow. ``None`` when no row has
    an interval."""
    from balance.report.figures import _RC, _new_figure

    import matplotlib

    groups = [
        [r for r in section.rows if r.tested and r.kind == "proportion"],
        [r for r in section.rows if r.tested and r.kind != "proportion"],
    ]
    groups = [g for g in groups if g]
    if not groups:
        return None
    rows = max(len(g) for g in groups)
    with matplotlib.rc_context(_RC):
        fig = _new_figure(height=max(2.2, 0.34 * rows + 1.1))
        axes = fig.subplots(1, len(groups), squeeze=False)[0]
        for ax, group in zip(axes, groups):
            scale = 100.0 if group[0].kind == "proportion" else 1.0
            unit = "points" if group[0].kind == "proportion" else group[0].unit or "turns"
            ys = list(range(len(group)))[::-1]
            ax.axvline(0.0, color="#555555", lw=0.8)
            for k, (y, r) in enumerate(zip(ys, group)):
                d, lo, hi = (scale * r.diff, scale * r.ci95[0], scale * r.ci95[1])
                color = "#c44e52" if r.changed else "#4c72b0"
                bars = ax.errorbar([d], [y], xerr=[[d - lo], [hi - d]], fmt="o", ms=5, color=color, capsize=3,
                                   mfc=color if r.changed else "white", mec=color)
                gid = f"s-differences-{'points' if unit == 'points' else 'turns'}-{k}"
                bars.lines[0].set_gid(gid)
                fig.tips[gid] = [f"{r.name}: B − A {d:+.2f} {unit} (95% CI {lo:+.2f} to {hi:+.2f}), "
                                 f"Holm p {fmt.p_value(r.p_adjusted)}, n={section.games:,} pairs"]
            ax.set_yticks(ys, [r.name for r in group])
            ax.set_xlabel(f"B − A ({unit}, paired 95% CI)")
            ax.grid(axis="y", visible=False)
        fig.suptitle(f"{', '.join(section.players)}: what B changes, {section.games:,} pairs "
                     "(filled: a clear change after Holm)", fontsize=10)
    return fig


def write_png(result: Any, out: str | os.PathLike[str]) -> Path:
    """The differences of the first players list as a PNG (``--png``), whole or not at all."""
    from balance.report.figures import _RC

    import matplotlib

    path = Path(out)
    fig = fig_differences(result.sections[0])
    if fig is None:
        raise UserError(f"--png {out}: no metric to draw")
    tmp = path.with_name(path.name + ".part")
    try:
        with matplotlib.rc_context(_RC):
            fig.savefig(tmp, format="png", dpi=110)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UserError(f"--png {out}: cannot write ({exc.strerror or exc})") from None
    return path
