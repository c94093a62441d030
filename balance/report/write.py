"""``balance report``: write a sweep's report (HTML and its JSON twin, optionally a PNG)."""

from __future__ import annotations

import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance.errors import UserError
from balance.report.data import report_data
from balance.report.figures import _RC, build_figures, png_figure, png_set_figure, svg_inline
from balance.report.page import render_html


@dataclass
class ReportResult:
    """Where the report went and what it says."""

    html: Path
    json: Path
    png: Path | None
    data: dict[str, Any] = field(repr=False)


def report(
    run_dir: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    png: str | os.PathLike[str] | None = None,
    band: tuple[float, float] | None = None,
) -> ReportResult:
    """Write the HTML report of a sweep run and its JSON twin (``out`` with ``.json``).

    ``out`` defaults to ``<run_dir>/report.html``.  ``png`` also writes the main
    figure (win rate by seat against the first swept parameter) as a PNG.
    """
    from balance.store import atomic_write_bytes, json_default, open_run

    run = Path(run_dir)
    if not run.is_dir():
        raise UserError(f"{run_dir}: no such directory; give a run directory written by 'balance sweep'")
    if (run / "sweep-set.json").is_file():
        return report_set(run, out, png=png, band=band)
    out_path = Path(out) if out is not None else run / "report.html"
    if out_path.is_dir():
        raise UserError(f"-o {out}: is a directory; give a file name such as report.html")
    if png is not None and Path(png).is_dir():
        raise UserError(f"--png {png}: is a directory; give a file name such as figure.png")
    if band is not None and not (0 <= band[0] < band[1] <= 1):
        raise UserError(f"fairness band {band}: expected two shares 0 <= low < high <= 1")
    manifest, aggregates = open_run(run)
    if not aggregates:
        raise UserError(f"{run_dir}: no finished point yet; run or resume the sweep first")
    data = report_data(manifest, aggregates, band)
    figures = build_figures(data, manifest)
    for k, f in enumerate(figures):
        f["svg"] = svg_inline(f["figure"], f"f{k}", f["title"])
    page = render_html(data, figures, manifest)
    data = dict(data)
    data["figures"] = [{"id": f["id"], "title": f["title"], "caption": f["caption"]} for f in figures]
    json_path = out_path.with_suffix(".json")
    atomic_write_bytes(out_path, page.encode("utf-8"))
    atomic_write_bytes(json_path, (json.dumps(_finite(data), indent=1, default=json_default) + "\n").encode("utf-8"))
    png_path = None
    if png is not None:
        png_path = Path(png)
        atomic_write_bytes(png_path, _png_bytes(lambda: png_figure(data, manifest)))
    return ReportResult(out_path, json_path, png_path, data)


def _png_bytes(make: Any) -> bytes:
    """A stand-alone figure as a 150 dpi PNG (no timestamp: same data, same bytes)."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context(_RC):
        make().savefig(buf, format="png", dpi=150, metadata={"Software": None})
    return buf.getvalue()


def _finite(value: Any) -> Any:
    """NaN and infinities (e.g. the standard error of one game) as null: strict JSON."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def report_set(
    folder: Path,
    out: str | os.PathLike[str] | None = None,
    *,
    png: str | os.PathLike[str] | None = None,
    band: tuple[float, float] | None = None,
) -> ReportResult:
    """The report of one sweep played by several player lists: where a finding
    changes sign between players (:mod:`balance.report.compare`), then each
    list's report on the same page."""
    from balance.report.compare import between_players
    from balance.report.page import render_set_html
    from balance.store import atomic_write_bytes, json_default, open_run

    meta = json.loads((folder / "sweep-set.json").read_text(encoding="utf-8"))
    out_path = Path(out) if out is not None else folder / "report.html"
    if out_path.is_dir():
        raise UserError(f"-o {out}: is a directory; give a file name such as report.html")
    labels = [", ".join(p) for p in meta["players"]]
    runs, datas = [], []
    for i, (label, name) in enumerate(zip(labels, meta["runs"])):
        manifest, aggregates = open_run(folder / name)
        if not aggregates:
            raise UserError(f"{folder / name}: no finished point yet; run or resume the sweep first")
        data = report_data(manifest, aggregates, band)
        figures = build_figures(data, manifest)
        for k, f in enumerate(figures):
            f["svg"] = svg_inline(f["figure"], f"r{i}-f{k}", f["title"])
        runs.append((label, data, figures, manifest))
        datas.append(data)
    between = between_players(labels, datas)
    title = f"{datas[0]['title']}: the same sweep with {len(labels)} player lists"
    lede = (
        "Players: " + "; ".join(labels) + ". Every list plays the same games (seeds) at every point, so differences "
        "between lists are the players', not the dice's. Every figure carries its 95% interval."
    )
    summary = set_summary(labels, datas, between)
    page = render_set_html(title, lede, between, runs, summary)
    twin = {
        "kind": "sweep-set",
        "title": title,
        "players": meta["players"],
        "summary": summary,
        "between_players": between,
        "findings": between,
        "runs": [dict(d, figures=[{"id": f["id"], "title": f["title"]} for f in r[2]]) for d, r in zip(datas, runs)],
    }
    json_path = out_path.with_suffix(".json")
    atomic_write_bytes(out_path, page.encode("utf-8"))
    atomic_write_bytes(json_path, (json.dumps(_finite(twin), indent=1, default=json_default) + "\n").encode("utf-8"))
    png_path = None
    if png is not None:
        png_path = Path(png)
        atomic_write_bytes(png_path, _png_bytes(lambda: png_set_figure([(label, d, m) for label, d, _f, m in runs])))
    return ReportResult(out_path, json_path, png_path, twin)


def set_summary(labels: list[str], datas: list[dict[str, Any]], between: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary box of a sweep played by several player lists: whether a
    finding changes sign between them, then each list's own first sentence."""
    from balance.report.html import worst

    signs = [f for f in between if f["kind"] == "sign"]
    sizes = [f for f in between if f["kind"] == "size"]
    if signs:
        first = (
            f"{len(signs)} finding{'s change' if len(signs) != 1 else ' changes'} sign between the player lists "
            f"({'; '.join(labels)}): {signs[0]['text']}"
        )
    elif sizes:
        first = (
            f"No finding changes sign between the player lists ({'; '.join(labels)}), but {len(sizes)} "
            f"{'finding changes' if len(sizes) == 1 else 'findings change'} size: {sizes[0]['text']}"
        )
    else:
        first = f"No finding changes sign or size between the player lists ({'; '.join(labels)})."
    sentences = [first] + [d["summary"]["sentences"][0] for d in datas]
    verdicts = [d["summary"]["verdict"] for d in datas] + ([f["verdict"] for f in signs + sizes])
    return {"sentences": sentences, "verdict": worst(verdicts)}
