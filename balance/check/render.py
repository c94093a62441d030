"""The check's renderers: a plain-text table, Markdown for a pull request, JUnit XML
and a self-contained HTML page (``balance check --html``).

Every percentage and interval goes through :mod:`balance.format` (one rule for
rare rates).  A renderer reads a :class:`~balance.check.commands.CheckReport`
and its parts; it computes nothing but the notes every renderer shares: what
the check could have detected (:func:`balance.check.comparison.detectable_change`)
and which player rates were compared once, as their seat's.
"""

from __future__ import annotations

from typing import Any

from balance import format as fmt


def _value_ci(kind: str, value: float, ci: tuple[float, float]) -> str:
    v, lo, hi = fmt.values(kind, (value, *ci))
    return f"{v} ({lo}–{hi})"


_VERDICT_TEXT = {
    "ok": "ok",
    "within tolerance": "ok (within ±{tol})",
    "cannot tell": "cannot tell (beyond ±{tol}, not significant)",
    "regression": "REGRESSION (beyond ±{tol})",
    "toward target": "toward target (beyond ±{tol})",
    "not compared": "not compared",
}
# The colour of each verdict on the HTML page (balance.report.html).
VERDICT_CLASS = {
    "ok": "good", "within tolerance": "good", "cannot tell": "unsure", "regression": "bad",
    "toward target": "unsure", "not compared": "info",
}
TARGET_CLASS = {"ok": "good", "warn": "unsure", "fail": "bad"}


def _row(c: Any) -> list[str]:
    if c.baseline is None or c.now is None:
        m = c.baseline or c.now
        cells = [
            fmt.value(c.kind, m.value) if c.baseline else "–",
            fmt.value(c.kind, m.value) if c.now else "–",
        ]
        return [c.name, *cells, "–", "–", "not compared"]
    unit = " pts" if c.kind == "proportion" else ""
    tol = fmt.difference(c.kind, c.tolerance, sign=False) + unit
    d, lo, hi = fmt.differences(c.kind, (c.diff, *c.ci95))
    return [
        c.name,
        _value_ci(c.kind, c.baseline.value, c.baseline.ci95),
        _value_ci(c.kind, c.now.value, c.now.ci95),
        f"{d}{unit} ({lo} to {hi})",
        fmt.p_value(c.p_adjusted),
        _VERDICT_TEXT[c.verdict].format(tol=tol),
    ]


_HEAD = [
    "metric",
    "baseline (95% CI)",
    "now (95% CI)",
    "change (95% CI)",
    "p adj.",
    "verdict",
]
_THEAD = ["target", "band", "now (95% CI)", "verdict"]


def _target_row(t: Any) -> list[str]:
    m = t.metric
    low, high = fmt.values(m.kind, (t.band.low, t.band.high))
    return [
        t.name,
        f"[{low}, {high}]",
        _value_ci(m.kind, m.value, m.ci95),
        {"ok": "inside", "warn": "cannot tell", "fail": "OUTSIDE"}[t.verdict],
    ]


def _header(r: Any) -> str:
    return (
        f"{r.game}: {r.path}: {r.games:,} games per side, seed {r.seed}, players {', '.join(r.players)}; "
        f"{r.correction} correction, alpha {r.alpha:g}"
    )


def notes(r: Any) -> list[str]:
    """What the check could have detected, and the player rates compared once as their seat's."""
    from balance.check.comparison import detectable_change

    out = []
    shift = detectable_change(r.comparisons, r.alpha)
    if shift is not None:
        tested = sum(c.verdict != "not compared" for c in r.comparisons)
        out.append(
            f"power: at {r.games:,} games per side, a seat's win rate moving by less than "
            f"{fmt.points(shift, 1, sign=False)} points would usually not show (80% power, {r.correction} over "
            f"{tested} metrics, alpha {r.alpha:g}): 'ok' means no change that large"
        )
    names = {c.name for c in r.comparisons}
    players = list(r.players)
    distinct = list(dict.fromkeys(players))
    rows = {n for n in names if n.startswith("strategy_win_rate[")}
    once = []
    if len(distinct) > 1 and len(rows) < len(distinct):
        once = [
            f"strategy_win_rate[{p}] = seat_win_rate[{players.index(p)}]"
            for p in distinct
            if players.count(p) == 1 and f"strategy_win_rate[{p}]" not in names
        ]
    if once:
        out.append(
            "compared once: " + ", ".join(once) + " (each of these players keeps its seat), so they do not enlarge "
            "the correction's family"
        )
    seq = getattr(r, "sequential", None)
    if seq:  # check --sequential (balance.check.sequential)
        out.append(
            f"sequential: {seq['games_played']:,} of {seq['games_planned']:,} games in {seq['looks_played']} of "
            f"{seq['looks_planned']} looks (O'Brien-Fleming-type alpha spending, sequential Holm); {seq['stopped']}"
        )
    return out


def _changed_line(r: Any) -> str | None:
    if not r.rules_changed:
        return None
    items = ", ".join(f"{k} {a!r} → {b!r}" for k, (a, b) in r.rules_changed.items())
    return f"rules changed since the baseline: {items}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]

    def line(cells: list[str]) -> str:
        return "  ".join(f"{c:<{w}}" for c, w in zip(cells, widths)).rstrip()

    return [line(head), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def _unsettled(r: Any) -> list[Any]:
    """Metrics beyond tolerance that do not fail: cannot tell, or toward the target."""
    return [c for c in r.comparisons if c.verdict in ("cannot tell", "toward target")]


def render_text(report: Any) -> str:
    """A plain-text table per baseline, then one line per regression or failed target."""
    out: list[str] = []
    for r in report.results:
        out.append(_header(r))
        if (changed := _changed_line(r)) is not None:
            out.append(changed)
        out += notes(r)
        out.append("")
        out += _table(_HEAD, [_row(c) for c in r.comparisons])
        if r.targets:
            out.append("")
            out += _table(_THEAD, [_target_row(t) for t in r.targets])
        out.append("")
        for c in r.regressions:
            out.append(f"REGRESSION: {c.sentence()}")
        for t in r.failed_targets:
            out.append(f"FAILED TARGET: {t.sentence()}")
        for c in _unsettled(r):
            out.append(f"{c.verdict}: {c.sentence()}")
        for t in r.warnings:
            out.append(f"warning: {t.sentence()}")
        out.append(f"{r.game}: {r.status()}  ({r.elapsed_s:.1f} s)")
        out.append("")
    out.append(
        "balance check: " + ("all baselines pass" if report.passed else "FAILED")
    )
    return "\n".join(out) + "\n"


def render_markdown(report: Any) -> str:
    """GitHub-flavoured Markdown for a pull-request comment."""

    def md(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    out = [
        "## Balance check: "
        + ("✅ all baselines pass" if report.passed else "❌ failed"),
        "",
    ]
    for r in report.results:
        icon = "✅" if r.passed else "❌"
        out.append(f"### {icon} `{r.game}`: {r.status()}")
        out.append("")
        out.append(
            f"`{r.path}`: {r.games:,} games per side, seed {r.seed}, players {', '.join(r.players)}; "
            f"{r.correction} correction, α = {r.alpha:g}."
        )
        if (changed := _changed_line(r)) is not None:
            out.append(
                f"Rules changed since the baseline: {changed.split(': ', 1)[1]}."
            )
        for note in notes(r):
            out.append(f"{note[:1].upper()}{note[1:]}.")
        out.append("")
        for c in r.regressions:
            out.append(f"- ❌ **{c.name}** {c.sentence()[len(c.name) + 1 :]}")
        for t in r.failed_targets:
            out.append(f"- ❌ target: {t.sentence()}")
        for c in _unsettled(r):
            out.append(f"- ⚠️ **{c.name}** {c.sentence()[len(c.name) + 1 :]}")
        for t in r.warnings:
            out.append(f"- ⚠️ target: {t.sentence()}")
        if r.regressions or r.targets or _unsettled(r):
            out.append("")
        out.append(md(_HEAD))
        out.append(md(["---"] * len(_HEAD)))
        for c in r.comparisons:
            cells = _row(c)
            if c.failed:
                cells = [f"**{x}**" for x in cells]
            out.append(md(cells))
        if r.targets:
            out += ["", md(_THEAD), md(["---"] * len(_THEAD))]
            out += [md(_target_row(t)) for t in r.targets]
        out.append("")
    return "\n".join(out)


def render_junit(report: Any) -> str:
    """JUnit XML: a test suite per baseline, a test case per metric and per target."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name="balance check")
    for r in report.results:
        failures = len(r.regressions) + len(r.failed_targets)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=f"balance check {r.game} ({r.path})",
            tests=str(len(r.comparisons) + len(r.targets)),
            failures=str(failures),
            errors="0",
            skipped=str(sum(c.verdict == "not compared" for c in r.comparisons)),
            time=f"{r.elapsed_s:.3f}",
        )
        props = ET.SubElement(suite, "properties")
        for k, v in (
            ("games", r.games),
            ("seed", r.seed),
            ("players", ",".join(r.players)),
            ("alpha", r.alpha),
        ):
            ET.SubElement(props, "property", name=k, value=str(v))
        for c in r.comparisons:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"balance.{r.game}.metrics",
                name=c.name,
                time="0",
            )
            if c.failed:
                ET.SubElement(
                    case, "failure", message=c.sentence(), type="regression"
                ).text = c.sentence()
            elif c.verdict == "not compared":
                ET.SubElement(case, "skipped", message=c.sentence())
            else:
                ET.SubElement(case, "system-out").text = c.sentence()
        for t in r.targets:
            case = ET.SubElement(
                suite,
                "testcase",
                classname=f"balance.{r.game}.targets",
                name=t.name,
                time="0",
            )
            if t.failed:
                ET.SubElement(
                    case, "failure", message=t.sentence(), type="target"
                ).text = t.sentence()
            else:
                ET.SubElement(case, "system-out").text = (
                    "warning: " if t.verdict == "warn" else ""
                ) + t.sentence()
    ET.indent(root)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + ET.tostring(root, encoding="unicode")
        + "\n"
    )


def render_html(report: Any) -> str:
    """A self-contained page in the report's house style: a summary box, a table
    of contents, then per baseline its notes, the verdict table with every
    interval (each row coloured by its verdict) and its targets."""
    from balance.report.html import e, head, summary_box, tail, toc, worst

    results = report.results
    n_fail = sum(not r.passed for r in results)
    n_unsettled = sum(len(_unsettled(r)) + len(r.warnings) for r in results)
    players = "; ".join(f"{r.game} with {', '.join(r.players)}" for r in results)
    if not results:
        first = "No baseline was checked."
    elif report.passed:
        first = (
            f"PASS: {len(results)} baseline{'s' if len(results) != 1 else ''} ({players}); no metric moved beyond "
            "its tolerance away from its target and every target holds"
            + (f", but {n_unsettled} reading{'s' if n_unsettled != 1 else ''} cannot be settled (amber below)." if n_unsettled else ".")
        )
    else:
        bad = [f"{r.game}: {r.status()}" for r in results if not r.passed]
        first = f"FAIL: {n_fail} of {len(results)} baselines ({players}): " + "; ".join(bad) + "."
    sentences = [first]
    for r in results:
        for c in r.regressions[:2]:
            sentences.append(f"{r.game}: {c.sentence()}.")
    powers = [n for r in results for n in notes(r) if n.startswith("power:")]
    if powers:
        sentences.append(powers[0][len("power: "):][:1].upper() + powers[0][len("power: ") + 1:] + ".")
    verdicts = []
    for r in results:
        verdicts += [VERDICT_CLASS[c.verdict] for c in r.comparisons] + [TARGET_CLASS[t.verdict] for t in r.targets]
    verdict = "bad" if not report.passed else worst([v for v in verdicts if v != "info"]) if verdicts else "info"
    title = "Balance check: " + ("pass" if report.passed else "FAILED")
    parts = head(title)
    parts.append(f'<header><h1>{e(title)}</h1><p class="lede">Each baseline\'s games played again with today\'s '
                 "code and rules (the same seeds: common random numbers), compared metric by metric with 95% "
                 "intervals; p-values adjusted for the number of metrics.</p></header>")
    parts.append(summary_box(sentences, verdict))
    parts.append(toc([(f"baseline-{i}", f"{r.game}: {r.status()}") for i, r in enumerate(results)] + [("how", "How to read it")]))
    for i, r in enumerate(results):
        parts.append(f'<section id="baseline-{i}"><h2>{e(r.game)}: {e(r.status())}</h2>')
        parts.append(f'<p class="lede">{e(_header(r))}.</p>')
        lines = ([_changed_line(r)] if _changed_line(r) else []) + notes(r)
        parts += [f'<p class="rule">{e(x[:1].upper() + x[1:])}.</p>' for x in lines]
        # The verdict next to the metric, so that it shows on a narrow screen before any scrolling.
        order = [0, 5, 3, 1, 2, 4]
        parts.append('<div class="scroll"><table id="metrics-' + str(i) + '"><thead><tr>'
                     + "".join(f'<th class="{"l" if k in (0, 5) else ""}">{e(_HEAD[k])}</th>' for k in order)
                     + "</tr></thead><tbody>")
        for c in r.comparisons:
            cells = _row(c)
            cls = VERDICT_CLASS[c.verdict]
            tds = f'<td class="l">{e(cells[0])}</td><td class="l verdict-{cls}">{e(cells[5])}</td>'
            tds += "".join(f"<td>{e(cells[k])}</td>" for k in order[2:])
            parts.append(f'<tr class="verdict-{cls}" title="{e(c.sentence())}">{tds}</tr>')
        parts.append("</tbody></table></div>")
        if r.targets:
            parts.append(f'<h3>Targets</h3><div class="scroll"><table id="targets-{i}"><thead><tr>'
                         '<th class="l">target</th><th class="l">verdict</th><th>now (95% CI)</th><th>band</th>'
                         "</tr></thead><tbody>")
            for t in r.targets:
                cells = _target_row(t)
                cls = TARGET_CLASS[t.verdict]
                tds = f'<td class="l">{e(cells[0])}</td><td class="l verdict-{cls}">{e(cells[3])}</td>'
                tds += f"<td>{e(cells[2])}</td><td>{e(cells[1])}</td>"
                parts.append(f'<tr class="verdict-{cls}" title="{e(t.sentence())}">{tds}</tr>')
            parts.append("</tbody></table></div>")
        said = [("bad", f"REGRESSION: {c.sentence()}") for c in r.regressions]
        said += [("bad", f"FAILED TARGET: {t.sentence()}") for t in r.failed_targets]
        said += [("unsure", f"{c.verdict}: {c.sentence()}") for c in _unsettled(r)]
        said += [("unsure", f"warning: {t.sentence()}") for t in r.warnings]
        if said:
            parts.append('<ul class="findings">' + "".join(f'<li class="verdict-{v}">{e(x)}</li>' for v, x in said) + "</ul>")
        parts.append("</section>")
    parts.append(
        '<section id="how"><h2>How to read it</h2><ul class="findings">'
        '<li class="verdict-good">ok: no significant change and within tolerance; within tolerance: a significant change '
        "no larger than the tolerance. Both pass.</li>"
        '<li class="verdict-unsure">cannot tell: beyond the tolerance by its estimate but not significant after the '
        "correction (more games would tell); toward target: a significant change beyond the tolerance that brings the "
        "metric closer to its target (record a new baseline if it is meant). Both pass.</li>"
        '<li class="verdict-bad">REGRESSION: a significant change beyond the tolerance, away from its target; a target '
        "fails when its whole 95% interval is outside it. Either fails the check.</li>"
        "</ul></section>"
    )
    parts.append(tail())
    return "\n".join(parts)
