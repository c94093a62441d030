"""Tournaments: which players are stronger, and by how much, with intervals.

``balance tournament GAME --players greedy,fleet,nearest,mc`` plays

* **every pairing** (two seats; with ``--seats K > 2``, every table of K distinct
  players), each table in every seat order in turn (seats rotated, so the seat
  effect cancels), every table on the same games ``0 .. N-1`` of the master seed
  (common random numbers: the same deals at every table);
* **the seat effect of each player**: the player alone in every seat, so what is
  left is the seat's own advantage under that player.

From the counts it computes the win-rate matrix (how often the row player won a
game against the column player, among the games one of them won, with Wilson
intervals), each player's overall win rate, and a Bradley–Terry rating for each
player: the maximum-likelihood strengths of the model P(a beats b) =
s_a / (s_a + s_b), fitted on every decided pair (a win at a table of K players
counts as a win over each other player there), shown on the Elo scale (400 ·
log10 of the strength, the mean rating 0) with 95% intervals from the observed
information.

A tournament directory holds ``manifest.json`` (what is played) and one JSON file
of counts per finished table; ``--resume`` plays only the tables not yet written,
and refuses a directory made for another tournament.  ``report.html`` and
``report.json`` are written at the end.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance.aggregate import Aggregate
from balance.errors import UserError

DEFAULT_GAMES = 20_000
ELO = 400.0 / math.log(10.0)
FORMAT = 1


# --------------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class Table:
    """One unit of play: ``players`` (labels) seated by every row of ``seatings``."""

    kind: str  # "match": distinct players, seats rotated; "seats": one player in every seat
    players: tuple[str, ...]
    seatings: tuple[tuple[int, ...], ...]

    @property
    def name(self) -> str:
        return (" vs ".join(self.players)) if self.kind == "match" else f"{self.players[0]} in every seat"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "players": list(self.players), "seatings": [list(r) for r in self.seatings]}


def tables_for(labels: Sequence[str], seats: int, seat_tables: bool = True) -> list[Table]:
    """Every table of ``seats`` distinct players (each in every seat order), then,
    with ``seat_tables``, each player alone in every seat."""
    out: list[Table] = []
    for combo in itertools.combinations(range(len(labels)), seats):
        rows = tuple(itertools.permutations(range(seats)))
        out.append(Table("match", tuple(labels[i] for i in combo), rows))
    if seat_tables:
        for label in labels:
            out.append(Table("seats", (label,), ((0,) * seats,)))
    return out


# --------------------------------------------------------------------------- statistics
def pair_wins(tables: Sequence[Table], aggregates: Sequence[Any], labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``wins[a, b]``: games player a won at a table where b sat; ``met[a, b]``:
    games a and b played together (match tables only)."""
    n = len(labels)
    wins = np.zeros((n, n), np.int64)
    met = np.zeros((n, n), np.int64)
    index = {label: i for i, label in enumerate(labels)}
    for table, agg in zip(tables, aggregates):
        if table.kind != "match" or agg is None:
            continue
        ids = [index[p] for p in table.players]
        for k, a in enumerate(ids):
            for b in ids:
                if a != b:
                    wins[a, b] += int(agg.strategy_wins[k])
                    met[a, b] += int(agg.games)
    return wins, met


def bradley_terry(wins: np.ndarray, iterations: int = 10_000, tol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """Bradley–Terry strengths on the log scale (mean 0) and their standard errors.

    ``wins[a, b]`` counts a's wins over b.  Fitted by Hunter's (2004) MM
    algorithm.  A player that never lost (or never won) has no finite estimate;
    then every pair that met gets half a win each way (a weak prior, stated in
    the output).  Standard errors come from the observed information with the
    mean-zero constraint (the pseudo-inverse of the Hessian).
    """
    w = np.asarray(wins, dtype=float)
    n = w.shape[0]
    games = w + w.T
    won = w.sum(axis=1)
    lost = w.sum(axis=0)
    if n and (np.any(won == 0) or np.any(lost == 0)):
        w = w + 0.5 * (games > 0)
        games = w + w.T
        won = w.sum(axis=1)
    strength = np.ones(n)
    for _ in range(iterations):
        denom = np.array(
            [sum(games[a, b] / (strength[a] + strength[b]) for b in range(n) if b != a and games[a, b]) for a in range(n)]
        )
        new = np.where(denom > 0, won / np.where(denom > 0, denom, 1.0), strength)
        new = new / math.exp(np.mean(np.log(new))) if np.all(new > 0) else new
        if np.max(np.abs(new - strength)) < tol:
            strength = new
            break
        strength = new
    beta = np.log(strength)
    beta -= beta.mean()
    info = np.zeros((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            if games[a, b]:
                p = 1.0 / (1.0 + math.exp(beta[b] - beta[a]))
                v = games[a, b] * p * (1 - p)
                info[a, a] += v
                info[b, b] += v
                info[a, b] -= v
                info[b, a] -= v
    cov = np.linalg.pinv(info)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return beta, se


def _rate(count: int, n: int) -> dict[str, Any]:
    from balance.stats import wilson

    lo, hi = wilson(int(count), int(n))
    return {"count": int(count), "n": int(n), "rate": float(count) / n if n else 0.0, "ci95": [lo, hi]}


def summarize(manifest: Mapping[str, Any], aggregates: Sequence[Any]) -> dict[str, Any]:
    """The tournament's figures from its tables' counts (None: not played yet)."""
    labels = list(manifest["players"])
    tables = [Table(t["kind"], tuple(t["players"]), tuple(tuple(r) for r in t["seatings"])) for t in manifest["tables"]]
    wins, met = pair_wins(tables, aggregates, labels)
    n = len(labels)
    matrix = []
    for a in range(n):
        row = []
        for b in range(n):
            if a == b or not met[a, b]:
                row.append(None)
                continue
            decided = int(wins[a, b] + wins[b, a])
            cell = _rate(wins[a, b], decided)
            cell.update(games=int(met[a, b]), decided=decided)
            row.append(cell)
        matrix.append(row)
    overall = []
    for i, label in enumerate(labels):
        played = won = 0
        for table, agg in zip(tables, aggregates):
            if table.kind == "match" and agg is not None and label in table.players:
                k = table.players.index(label)
                played += int(agg.games)
                won += int(agg.strategy_wins[k])
        overall.append({"player": label, **_rate(won, played)})
    played_pairs = wins + wins.T
    beta, se = bradley_terry(wins) if played_pairs.sum() else (np.zeros(n), np.zeros(n))
    z = 1.959963984540054
    prior = bool(np.any(wins.sum(axis=1) == 0) or np.any(wins.sum(axis=0) == 0))
    ratings = [
        {
            "player": labels[i],
            "elo": float(ELO * beta[i]),
            "ci95": [float(ELO * (beta[i] - z * se[i])), float(ELO * (beta[i] + z * se[i]))],
            "se": float(ELO * se[i]),
        }
        for i in range(n)
    ]
    seats = []
    for table, agg in zip(tables, aggregates):
        if table.kind != "seats" or agg is None:
            continue
        seats.append(
            {
                "player": table.players[0],
                "games": int(agg.games),
                "seats": [_rate(agg.seat_wins[s], agg.games) for s in range(agg.n_seats)],
                "no_winner": _rate(agg.no_winner, agg.games),
            }
        )
    return {
        "players": labels,
        "matrix": matrix,
        "overall": overall,
        "ratings": sorted(ratings, key=lambda r: -r["elo"]),
        "rating_model": "Bradley-Terry (Elo scale, mean 0), 95% intervals from the observed information"
        + ("; half a win each way added to every pair that met (a player never lost or never won)" if prior else ""),
        "seat_effect": seats,
    }


# --------------------------------------------------------------------------- storage
def _table_path(out: Path, i: int) -> Path:
    return out / "tables" / f"{i:04d}.json"


def load(out: str | os.PathLike[str]) -> tuple[dict[str, Any], list[Any]]:
    """A tournament directory's manifest and each table's counts (None: not played)."""
    folder = Path(out)
    path = folder / "manifest.json"
    if not path.is_file():
        raise UserError(f"{folder}: not a tournament directory (no manifest.json)")
    manifest = json.loads(path.read_text(encoding="utf-8"))
    aggregates: list[Any] = []
    for i in range(len(manifest["tables"])):
        p = _table_path(folder, i)
        aggregates.append(Aggregate.from_dict(json.loads(p.read_text(encoding="utf-8"))) if p.is_file() else None)
    return manifest, aggregates


# --------------------------------------------------------------------------- running
@dataclass
class TournamentResult:
    out: Path
    manifest: dict[str, Any]
    aggregates: list[Any]
    figures: dict[str, Any] = field(default_factory=dict)
    elapsed_s: float = 0.0
    html: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.manifest["game"],
            "games_per_table": self.manifest["games"],
            "seed": self.manifest["seed"],
            "seats": self.manifest["seats"],
            "params": self.manifest["params"],
            "tables": len(self.manifest["tables"]),
            **self.figures,
            "elapsed_s": self.elapsed_s,
        }


def tournament(
    game: str | None = None,
    *,
    players: str | Sequence[str],
    games: int = DEFAULT_GAMES,
    seats: int | None = None,
    seed: int = 0,
    params: Mapping[str, Any] | None = None,
    board: str | None = None,
    player_file: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    seat_tables: bool = True,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
    report: bool = True,
) -> TournamentResult:
    """Play a tournament between ``players`` and write its counts, figures and report.

    >>> import balance
    >>> from balance.api import tournament
    >>> r = tournament("GAME", players="greedy,fleet,mc", games=2000)  # doctest: +SKIP
    >>> r.figures["ratings"]                                          # doctest: +SKIP
    """
    from balance.config import default_game
    from balance.executors import make_executor
    from balance.registry import get_game
    from balance.runner import execute, tasks_for
    from balance.runspec import RunSpec, check_games, check_seed, split_players

    check_games(games)
    check_seed(seed)
    spec = get_game(game or default_game())
    labels_in = list(split_players(players)) if isinstance(players, str) else [str(p).strip() for p in players]
    if len(labels_in) < 2:
        raise UserError(f"--players {','.join(labels_in)}: a tournament needs at least 2 players")
    k = seats if seats is not None else spec.min_players
    if not spec.min_players <= k <= spec.max_players:
        raise UserError(f"--seats {k}: {spec.name} plays with {spec.min_players} to {spec.max_players}")
    if k > len(labels_in):
        raise UserError(f"--seats {k}: needs at least {k} distinct players, got {len(labels_in)}")
    values = spec.resolve_params(params)
    if board is not None:
        spec.board_for(board)
    extra = _extra(spec, player_file)
    labels = []
    for text in labels_in:  # a tournament may have more players than a table has seats
        label = spec.parse_player(text, extra).label
        if label in labels:
            raise UserError(f"--players: {label} given twice")
        labels.append(label)
    tables = tables_for(labels, k, seat_tables)
    folder = Path(out) if out is not None else Path("runs") / f"{spec.name}-tournament-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    manifest = {
        "format": FORMAT,
        "kind": "tournament",
        "game": spec.name,
        "players": labels,
        "seats": k,
        "games": int(games),
        "seed": int(seed),
        "params": values,
        "board": str(Path(board).resolve()) if board else None,
        "player_file": str(Path(player_file).resolve()) if player_file else None,
        "end_reasons": spec.end_reason_names,
        "tables": [t.to_dict() for t in tables],
    }
    existing = folder / "manifest.json"
    if existing.is_file():
        if not resume:
            raise UserError(f"{folder} already holds a tournament; pass --resume to continue it, or choose another --out")
        old = json.loads(existing.read_text(encoding="utf-8"))
        keys = ("game", "players", "seats", "games", "seed", "params", "board", "tables")
        differ = [key for key in keys if old.get(key) != json.loads(json.dumps(manifest[key]))]
        if differ:
            raise UserError(f"{folder}: --resume of another tournament (differs in {', '.join(differ)})")
    else:
        folder.mkdir(parents=True, exist_ok=True)
        from balance.store import atomic_write_json

        atomic_write_json(existing, manifest)
    _, aggregates = load(folder)
    tasks = []
    for i, table in enumerate(tables):
        if aggregates[i] is not None:
            continue
        # A match seats its players once each, every order in turn (the rows of
        # table.seatings are the seatings of a rotated run); a seat table one
        # player in every seat.
        by_seat = table.players if table.kind == "match" else table.players * k
        run = RunSpec(
            spec.name, tuple(values.items()), tuple(by_seat), seed, games, table.kind == "match",
            manifest["board"], manifest["player_file"],
        )
        tasks += tasks_for(run, chunk, point=i)
    left = {}
    for t in tasks:
        left[t.point] = left.get(t.point, 0) + 1
    start = time.perf_counter()
    merged: dict[int, Any] = {}

    def on_result(task: Any, agg: Any) -> None:
        from balance.store import atomic_write_json

        merged[task.point] = merged[task.point].merge(agg) if task.point in merged else agg
        left[task.point] -= 1
        if left[task.point] == 0:
            (folder / "tables").mkdir(exist_ok=True)
            atomic_write_json(_table_path(folder, task.point), merged[task.point].to_dict())
            aggregates[task.point] = merged[task.point]
        if progress is not None:
            progress(agg.games)

    with make_executor(threads, scheduler) as executor:
        execute(tasks, executor, on_result)
    elapsed = time.perf_counter() - start
    manifest, aggregates = load(folder)
    figures = summarize(manifest, aggregates)
    result = TournamentResult(folder, manifest, aggregates, figures, elapsed)
    from balance.store import atomic_write_json

    atomic_write_json(folder / "report.json", {**result.to_dict(), "elapsed_s": None})
    if report:
        result.html = write_html(folder, manifest, figures)
    return result


def _extra(spec: Any, player_file: str | None) -> tuple[Any, ...]:
    from balance.playerfile import players_in_file

    return players_in_file(spec, player_file)


# --------------------------------------------------------------------------- HTML
def write_html(folder: Path, manifest: Mapping[str, Any], figures: Mapping[str, Any]) -> Path:
    """A self-contained page: ratings, the win-rate matrix, the seat effect."""
    import html

    from balance import format as fmt

    def pct(cell: Mapping[str, Any]) -> str:
        d = fmt.decimals(cell["rate"], *cell["ci95"])
        return f"{fmt.percent(cell['rate'], d)} <small>({fmt.interval(cell['ci95'], d)}, n={cell['n']:,})</small>"

    labels = figures["players"]
    rows = []
    rows.append(f"<h1>{html.escape(manifest['game'])}: tournament</h1>")
    rows.append(
        f"<p>{len(labels)} players, {manifest['seats']} seats, {manifest['games']:,} games per table "
        f"(seed {manifest['seed']}, seats rotated, the same games at every table).</p>"
    )
    rows.append("<h2>Ratings</h2><table><tr><th>player</th><th>rating (Elo scale)</th><th>95% interval</th></tr>")
    for r in figures["ratings"]:
        rows.append(
            f"<tr><td>{html.escape(r['player'])}</td><td>{r['elo']:+.0f}</td>"
            f"<td>{r['ci95'][0]:+.0f} to {r['ci95'][1]:+.0f}</td></tr>"
        )
    rows.append(f"</table><p><small>{html.escape(figures['rating_model'])}</small></p>")
    rows.append("<h2>Win rate of the row player against the column player</h2><table><tr><th></th>")
    rows.extend(f"<th>{html.escape(b)}</th>" for b in labels)
    rows.append("</tr>")
    for a, row in zip(labels, figures["matrix"]):
        rows.append(f"<tr><th>{html.escape(a)}</th>")
        rows.extend("<td>–</td>" if cell is None else f"<td>{pct(cell)}</td>" for cell in row)
        rows.append("</tr>")
    rows.append("</table><p><small>Among the games one of the two won; Wilson 95% intervals.</small></p>")
    if figures["seat_effect"]:
        rows.append("<h2>Seat effect (the same player in every seat)</h2><table><tr><th>player</th>")
        rows.extend(f"<th>seat {s}</th>" for s in range(manifest["seats"]))
        rows.append("<th>no winner</th></tr>")
        for e in figures["seat_effect"]:
            rows.append(f"<tr><td>{html.escape(e['player'])}</td>")
            rows.extend(f"<td>{pct(c)}</td>" for c in e["seats"])
            rows.append(f"<td>{pct(e['no_winner'])}</td></tr>")
        rows.append("</table>")
    style = (
        "body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
        "th{background:#f4f4f4}small{color:#666}"
    )
    page = f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(manifest['game'])} tournament</title>"
    page += f"<style>{style}</style></head><body>{''.join(rows)}</body></html>"
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
