"""The check's renderers: a plain-text table, Markdown for a pull request, JUnit XML.

Every percentage and interval goes through :mod:`balance.format` (one rule for
rare rates).  A renderer reads a :class:`~balance.check.commands.CheckReport`
and its parts; it computes nothing.
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
    "regression": "REGRESSION (beyond ±{tol})",
    "not compared": "not compared",
}


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
        t.verdict.upper() if t.verdict != "ok" else "ok",
    ]


def _header(r: Any) -> str:
    return (
        f"{r.game}: {r.path}: {r.games:,} games per side, seed {r.seed}, players {', '.join(r.players)}; "
        f"{r.correction} correction, alpha {r.alpha:g}"
    )


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


def render_text(report: Any) -> str:
    """A plain-text table per baseline, then one line per regression or failed target."""
    out: list[str] = []
    for r in report.results:
        out.append(_header(r))
        if (changed := _changed_line(r)) is not None:
            out.append(changed)
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
        out.append("")
        for c in r.regressions:
            out.append(f"- ❌ **{c.name}** {c.sentence()[len(c.name) + 1 :]}")
        for t in r.failed_targets:
            out.append(f"- ❌ target: {t.sentence()}")
        for t in r.warnings:
            out.append(f"- ⚠️ target: {t.sentence()}")
        if r.regressions or r.targets:
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
