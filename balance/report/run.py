"""The page of one run (``balance run GAME --report R.html``): one rule set in
the house style of the sweep report.

The run is described as a sweep of one point (:func:`run_manifest`), so the
page reads the same numbers the same way as a sweep's report: the summary box,
win rates per seat and per player with their intervals and verdicts (a
player's fair share is the seats it holds over the seats), end reasons, the
histogram of game lengths, the rules that differ from the game's defaults and
the board file, and how to reproduce the run.  Its JSON twin (``R.json``)
holds every number of the page.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from balance.errors import UserError


def check_out(out: str | os.PathLike[str], option: str = "--report", example: str = "run.html") -> Path:
    """A page's file name, refused before any game is played when it cannot be one."""
    path = Path(out)
    if path.is_dir():
        raise UserError(f"{option} {out}: is a directory; give a file name such as {example}")
    if path.suffix.lower() not in (".html", ".htm"):
        raise UserError(f"{option} {out}: expected a file name ending in .html, such as {example}")
    return path


def equivalent_command(result: Any) -> str:
    """The ``balance run`` command line that plays this run again."""
    from balance.registry import get_game

    spec = get_game(result.game)
    run = result.run
    words = ["balance", "run", run.game, "--games", str(run.games), "--seed", str(run.seed)]
    if run.players:
        words += ["--players", ",".join(run.players)]
    defaults = {p.name: p.default for p in spec.params}
    for name, value in run.params:
        if name in defaults and defaults[name] != value:
            words += ["--param", f"{name}={value}"]
    if run.rotate_seats:
        words.append("--rotate-seats")
    if run.board:
        words += ["--board", str(run.board)]
    if run.player_file:
        words += ["--player-file", str(run.player_file)]
    return shlex.join(words)


def run_manifest(result: Any, command: str | None = None, provenance: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A run as the manifest of a sweep of one point (what the report reads)."""
    from balance.registry import get_game
    from balance.store import file_sha256

    spec = get_game(result.game)
    run = result.run
    prov = dict(provenance or {})
    board_sha = file_sha256(run.board) if run.board and Path(run.board).is_file() else None
    manifest: dict[str, Any] = {
        "game": spec.name,
        "title": getattr(spec, "title", spec.name),
        "axes": [],
        "points": [{}],
        "params": dict(run.params),
        "players": list(run.players or ()),
        "strategies": list(result.strategies),
        "rotate_seats": bool(run.rotate_seats),
        "seed": run.seed,
        "games_per_point": run.games,
        "board": str(run.board) if run.board else None,
        "board_sha256": board_sha,
        "player_file": str(run.player_file) if run.player_file else None,
        "end_reasons": list(result.end_reasons),
        "end_reason_info": [r.to_dict() for r in spec.end_reasons],
        "score_name": result.score_name,
        "feel": result.feel_reading,
        "param_info": {p.name: p.to_dict() for p in spec.params},
        "command": command or equivalent_command(result),
        "version": (prov.get("versions") or {}).get("balance"),
        "versions": prov.get("versions") or {},
        "commit": prov.get("commit"),
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "sessions": [],
        "complete": True,
    }
    shape = spec.heatmap_shape(spec.board_for(run.board))
    if shape is not None:
        manifest["heatmap"] = {"shape": [int(shape[0]), int(shape[1])]}
    return manifest


def run_report(
    result: Any,
    out: str | os.PathLike[str],
    *,
    png: str | os.PathLike[str] | None = None,
    band: tuple[float, float] | None = None,
    command: str | None = None,
    provenance: Mapping[str, Any] | None = None,
) -> Any:
    """Write the page of one run (:class:`balance.play.RunResult`) and its JSON
    twin; ``png`` also writes the win rate by seat as a stand-alone PNG."""
    from balance.report.data import report_data
    from balance.report.figures import build_figures, png_figure, svg_inline
    from balance.report.page import render_html
    from balance.report.write import ReportResult, _finite, _png_bytes
    from balance.store import atomic_write_bytes, json_default

    out_path = check_out(out)
    if png is not None and Path(png).is_dir():
        raise UserError(f"--png {png}: is a directory; give a file name such as figure.png")
    if band is not None and not (0 <= band[0] < band[1] <= 1):
        raise UserError(f"fairness band {band}: expected two shares 0 <= low < high <= 1")
    manifest = run_manifest(result, command, provenance)
    data = report_data(manifest, {0: result.aggregate}, band)
    warning = result.extra.get("warning")
    if warning:  # seatings played unevenly (--rotate-seats with games not a multiple of them)
        data["findings"].append({"kind": "note", "verdict": "unsure", "text": warning[:1].upper() + warning[1:] + "."})
    spt = result.extra.get("seconds_per_turn")
    if spt and data["points"]:  # the length at the table (the game's declared, or --seconds-per-turn)
        from balance.summary import minutes

        m = minutes(data["points"][0]["turns"], spt, result.extra.get("seconds_per_turn_source", ""))
        data["minutes"] = m
        data["findings"].append({
            "kind": "length", "verdict": "info",
            "text": f"At {spt:g} seconds a player turn ({m['source']}), a game lasts {m['mean']:.1f} minutes on average "
            f"(95% CI {m['mean_ci95'][0]:.1f} to {m['mean_ci95'][1]:.1f}, n={result.games:,}); median {m['median']:.1f}, "
            f"90th percentile {m['p90']:.1f} minutes.",
        })
    figures = build_figures(data, manifest)
    for k, f in enumerate(figures):
        f["svg"] = svg_inline(f["figure"], f"f{k}", f["title"])
    players = ", ".join(manifest["players"]) + (" (seats rotated)" if manifest["rotate_seats"] else "")
    title = f"{manifest['title']}: one run"
    lede = (
        f"{result.games:,} games, players {players}, seed {result.seed}. Every figure carries its 95% interval "
        "and the number of games behind it."
    )
    page = render_html(data, figures, manifest, title=title, lede=lede)
    data = dict(data, kind="run", figures=[{"id": f["id"], "title": f["title"], "caption": f["caption"]} for f in figures])
    json_path = out_path.with_suffix(".json")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out_path, page.encode("utf-8"))
    atomic_write_bytes(json_path, (json.dumps(_finite(data), indent=1, default=json_default) + "\n").encode("utf-8"))
    png_path = None
    if png is not None:
        png_path = Path(png)
        atomic_write_bytes(png_path, _png_bytes(lambda: png_figure(data, manifest)))
    return ReportResult(out_path, json_path, png_path, data)
