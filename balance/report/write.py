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
from balance.report.figures import _RC, build_figures, svg_inline
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
        import matplotlib

        png_path = Path(png)
        buf = io.BytesIO()
        main_figure = figures[0]["figure"]
        main_figure.suptitle(f"{data['title']}: {figures[0]['title'].lower()}", fontsize=12)
        with matplotlib.rc_context(_RC):
            main_figure.savefig(buf, format="png", dpi=150, metadata={"Software": None})
        atomic_write_bytes(png_path, buf.getvalue())
    return ReportResult(out_path, json_path, png_path, data)


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
            f["svg"] = svg_inline(f["figure"], f"r{i}f{k}", f["title"])
        runs.append((label, data, figures, manifest))
        datas.append(data)
    between = between_players(labels, datas)
    title = f"{datas[0]['title']}: the same sweep with {len(labels)} player lists"
    lede = (
        "Players: " + "; ".join(labels) + ". Every list plays the same games (seeds) at every point, so differences "
        "between lists are the players', not the dice's. Every figure carries its 95% interval."
    )
    page = render_set_html(title, lede, between, runs)
    twin = {
        "kind": "sweep-set",
        "title": title,
        "players": meta["players"],
        "between_players": between,
        "findings": between,
        "runs": [dict(d, figures=[{"id": f["id"], "title": f["title"]} for f in r[2]]) for d, r in zip(datas, runs)],
    }
    json_path = out_path.with_suffix(".json")
    atomic_write_bytes(out_path, page.encode("utf-8"))
    atomic_write_bytes(json_path, (json.dumps(_finite(twin), indent=1, default=json_default) + "\n").encode("utf-8"))
    png_path = None
    if png is not None:
        import matplotlib

        png_path = Path(png)
        buf = io.BytesIO()
        main_figure = runs[0][2][0]["figure"]
        with matplotlib.rc_context(_RC):
            main_figure.savefig(buf, format="png", dpi=150, metadata={"Software": None})
        atomic_write_bytes(png_path, buf.getvalue())
    return ReportResult(out_path, json_path, png_path, twin)
