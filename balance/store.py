"""The results store of a sweep: one run directory, a manifest and Parquet files.

Layout (docs/sweeps.md)::

    runs/<game>-<timestamp>/
      manifest.json                      what was asked: game, grid, players, seed, ...
      points/point-000003.parquet        one file per finished point (tidy long counts)
      games/point-000003/chunk-*.parquet per-game rows, only with --keep-games

A point's file is written once, when every chunk of its games is merged, to a
temporary name first and then renamed (``os.replace`` is atomic on one file
system): a file under ``points/`` is always whole, and a killed sweep loses at
most the points it was playing.  A point file holds only numbers that depend on
``(seed, rules, players)``, never a time, so an interrupted and resumed sweep
writes the same files as an uninterrupted one.

Each point file is in tidy long format: one row per count, with columns

* ``point`` (int32) and one column per swept parameter, typed like the parameter;
* ``measure`` (what is counted, see :data:`MEASURES`);
* ``seat`` (int16), ``player`` (str), ``end_reason`` (str), ``turns`` (int32): the
  keys of the count, null where they do not apply;
* ``cell`` (int32), only in the runs of a game with a per-cell heatmap
  (``GameSpec.heatmap_shape``): the cell of a ``heat`` count (row-major),
  null elsewhere;
* ``count`` (int64).

The game-feel counts (:mod:`balance.feel`) are measures ``feel_<count>`` without keys
(``feel_games``, ``feel_lead50_wins``, ...).

These are exactly the fields of :class:`balance.aggregate.Aggregate`, so every
figure of the report is computed from the store without playing a game again.
Up to six seats (``seat`` 0..5) and every seating of six distinct players
(``seating`` 0..719 in the per-game rows) fit the schema.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from balance.errors import UserError

FORMAT = "balance-sweep/1"
MANIFEST = "manifest.json"
POINTS_DIR = "points"
GAMES_DIR = "games"

# measure -> keys it uses (the rest are null)
MEASURES: dict[str, tuple[str, ...]] = {
    "games": (),  # games played at the point
    "no_winner": (),  # games nobody won
    "seat_wins": ("seat",),
    "score_sum": ("seat",),  # sum over games of the seat's score
    "player_games": ("player",),  # games the player (strategy) took part in
    "player_wins": ("player",),
    "seat_player_games": ("seat", "player"),
    "seat_player_wins": ("seat", "player"),
    "end_reason": ("end_reason",),
    "end_reason_by_winner": ("seat", "end_reason"),  # seat null: games nobody won
    "turns": ("turns",),  # histogram of game lengths (non-zero bins only)
    "heat": ("cell",),  # how often each cell was used, summed over the games (non-zero cells only)
}
# The game-feel counts (balance.feel.COUNTS), one measure each, no keys: feel_games,
# feel_changes_sum, ... (absent from a point whose games kept no record: a GPU run).
FEEL_MEASURE = "feel_"
KEY_COLUMNS = ("point", "measure", "seat", "player", "end_reason", "turns", "cell", "count")
_POINT_FILE = re.compile(r"^point-(\d{6,})\.parquet$")


# --------------------------------------------------------------------------- small helpers
def point_name(index: int) -> str:
    return f"point-{index:06d}"


def param_column(name: str) -> str:
    """The store column of a swept parameter: its name, unless that is a key column."""
    return f"param_{name}" if name in KEY_COLUMNS or name == "game" else name


def _polars_dtype(kind: str) -> Any:
    import polars as pl

    return {"int": pl.Int64, "float": pl.Float64, "bool": pl.Boolean, "choice": pl.String}[kind]


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (temp file in the same folder + rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a result file is as readable as any other
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


_UMASK: list[int] = []


def _umask() -> int:
    if not _UMASK:
        old = os.umask(0o022)
        os.umask(old)
        _UMASK.append(old)
    return _UMASK[0]


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2, default=json_default) + "\n").encode("utf-8"))


def _atomic_write_parquet(path: Path, frame: Any) -> None:
    import io

    buf = io.BytesIO()
    # Fixed compression and no statistics-dependent options: same data, same bytes.
    frame.write_parquet(buf, compression="zstd", statistics=False)
    atomic_write_bytes(path, buf.getvalue())


def json_default(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def file_sha256(path: str | os.PathLike[str]) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------- aggregate <-> rows
def aggregate_rows(
    agg: Any,
    point: int,
    axis_values: Mapping[str, Any],
    axis_kinds: Mapping[str, str],
    strategies: Sequence[str],
    end_reasons: Sequence[str],
) -> Any:
    """One point's :class:`~balance.aggregate.Aggregate` as a tidy long polars DataFrame
    (with a ``cell`` column when it has a heatmap)."""
    import polars as pl

    measure: list[str] = []
    seat: list[int | None] = []
    player: list[str | None] = []
    reason: list[str | None] = []
    turns: list[int | None] = []
    cell: list[int | None] = []
    count: list[int] = []

    def add(
        m: str, c: Any, s: int | None = None, p: str | None = None, r: str | None = None, t: int | None = None,
        k: int | None = None,
    ) -> None:
        measure.append(m)
        seat.append(s)
        player.append(p)
        reason.append(r)
        turns.append(t)
        cell.append(k)
        count.append(int(c))

    add("games", agg.games)
    add("no_winner", agg.no_winner)
    for s in range(agg.n_seats):
        add("seat_wins", agg.seat_wins[s], s=s)
    for s in range(agg.n_seats):
        # Scores are int32 per game by contract, so their sum is a whole number.
        add("score_sum", round(float(agg.score_sum[s])), s=s)
    for k, name in enumerate(strategies):
        add("player_games", agg.strategy_games[k], p=name)
        add("player_wins", agg.strategy_wins[k], p=name)
    for s in range(agg.n_seats):
        for k, name in enumerate(strategies):
            add("seat_player_games", agg.seat_strategy_games[s, k], s=s, p=name)
            add("seat_player_wins", agg.seat_strategy_wins[s, k], s=s, p=name)
    for r, name in enumerate(end_reasons):
        add("end_reason", agg.end_reasons[r], r=name)
    for row in range(agg.n_seats + 1):
        for r, name in enumerate(end_reasons):
            add("end_reason_by_winner", agg.reason_by_winner[row, r], s=row if row < agg.n_seats else None, r=name)
    for t in np.nonzero(agg.turns_hist)[0]:
        add("turns", agg.turns_hist[t], t=int(t))
    if agg.heat is not None:
        for k in np.nonzero(agg.heat)[0]:
            add("heat", agg.heat[k], k=int(k))
    if int(agg.feel[0]) > 0:
        from balance.feel import COUNTS

        for i, name in enumerate(COUNTS):
            add(FEEL_MEASURE + name, agg.feel[i])

    n = len(count)
    columns: dict[str, Any] = {"point": pl.Series("point", [point] * n, dtype=pl.Int32)}
    for name, value in axis_values.items():
        col = param_column(name)
        columns[col] = pl.Series(col, [value] * n, dtype=_polars_dtype(axis_kinds[name]))
    columns["measure"] = pl.Series("measure", measure, dtype=pl.String)
    columns["seat"] = pl.Series("seat", seat, dtype=pl.Int16)
    columns["player"] = pl.Series("player", player, dtype=pl.String)
    columns["end_reason"] = pl.Series("end_reason", reason, dtype=pl.String)
    columns["turns"] = pl.Series("turns", turns, dtype=pl.Int32)
    if agg.heat is not None:
        columns["cell"] = pl.Series("cell", cell, dtype=pl.Int32)
    columns["count"] = pl.Series("count", count, dtype=pl.Int64)
    return pl.DataFrame(columns)


def rows_aggregate(
    frame: Any, n_seats: int, strategies: Sequence[str], end_reasons: Sequence[str], heat_cells: int = 0
) -> Any:
    """The inverse of :func:`aggregate_rows`: one point's rows back to an Aggregate
    (``heat_cells``: the cells of the game's heatmap, 0 without one)."""
    from balance.aggregate import Aggregate

    agg = Aggregate(n_seats, len(strategies), len(end_reasons))
    if heat_cells and "cell" in frame.columns:
        heat = np.zeros(heat_cells, np.int64)
        for k, c in frame.filter(frame["measure"] == "heat").select("cell", "count").iter_rows():
            heat[k] = c
        agg.heat = heat
    k_of = {name: k for k, name in enumerate(strategies)}
    r_of = {name: r for r, name in enumerate(end_reasons)}
    turns: dict[int, int] = {}
    for m, s, p, r, t, c in frame.select("measure", "seat", "player", "end_reason", "turns", "count").iter_rows():
        if m == "games":
            agg.games = c
        elif m == "no_winner":
            agg.no_winner = c
        elif m == "seat_wins":
            agg.seat_wins[s] = c
        elif m == "score_sum":
            agg.score_sum[s] = float(c)
        elif m == "player_games":
            agg.strategy_games[k_of[p]] = c
        elif m == "player_wins":
            agg.strategy_wins[k_of[p]] = c
        elif m == "seat_player_games":
            agg.seat_strategy_games[s, k_of[p]] = c
        elif m == "seat_player_wins":
            agg.seat_strategy_wins[s, k_of[p]] = c
        elif m == "end_reason":
            agg.end_reasons[r_of[r]] = c
        elif m == "end_reason_by_winner":
            agg.reason_by_winner[n_seats if s is None else s, r_of[r]] = c
        elif m == "turns":
            turns[t] = c
        elif m.startswith(FEEL_MEASURE):
            from balance.feel import AT

            agg.feel[AT[m[len(FEEL_MEASURE):]]] = c
    if turns:
        hist = np.zeros(max(turns) + 1, np.int64)
        for t, c in turns.items():
            hist[t] = c
        agg.turns_hist = hist
    return agg


def game_rows(
    outcomes: Any,
    point: int,
    first_game: int,
    n_seatings: int,
    axis_values: Mapping[str, Any],
    axis_kinds: Mapping[str, str],
    end_reasons: Sequence[str],
) -> Any:
    """Per-game rows of one chunk (``--keep-games``): one row per game."""
    import polars as pl

    n = len(outcomes)
    games = np.arange(first_game, first_game + n, dtype=np.int64)
    columns: dict[str, Any] = {"point": pl.Series("point", np.full(n, point, np.int32))}
    for name, value in axis_values.items():
        col = param_column(name)
        columns[col] = pl.Series(col, [value] * n, dtype=_polars_dtype(axis_kinds[name]))
    columns["game"] = pl.Series("game", games)
    if n_seatings > 1:
        columns["seating"] = pl.Series("seating", (games % n_seatings).astype(np.int16))
    columns["winner"] = pl.Series("winner", outcomes.winner.astype(np.int8))
    reasons = pl.Enum(list(end_reasons))
    columns["end_reason"] = pl.Series(
        "end_reason", np.asarray(end_reasons, dtype=object)[outcomes.end_reason.astype(np.int64)], dtype=pl.String
    ).cast(reasons)
    columns["turns"] = pl.Series("turns", outcomes.turns.astype(np.int32))
    for s in range(outcomes.score.shape[1]):
        columns[f"score_{s}"] = pl.Series(f"score_{s}", outcomes.score[:, s].astype(np.int32))
    return pl.DataFrame(columns)


# --------------------------------------------------------------------------- the run directory
class RunDir:
    """A run directory on disk (it may not exist yet)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def exists(self) -> bool:
        return self.path.exists()

    def is_run(self) -> bool:
        return self.manifest_path.is_file()

    def is_empty(self) -> bool:
        return self.path.is_dir() and not any(self.path.iterdir())

    def read_manifest(self) -> dict[str, Any]:
        if not self.is_run():
            raise UserError(
                f"{self.path} is not a sweep run (no {MANIFEST}); give a directory written by 'balance sweep'"
            )
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"{self.manifest_path}: not valid JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise UserError(f"{self.path} is not a sweep run ({MANIFEST} is not of format {FORMAT})")
        return data

    def write_manifest(self, manifest: Mapping[str, Any]) -> None:
        atomic_write_json(self.manifest_path, manifest)

    def point_path(self, index: int) -> Path:
        return self.path / POINTS_DIR / f"{point_name(index)}.parquet"

    def games_dir(self, index: int) -> Path:
        return self.path / GAMES_DIR / point_name(index)

    def finished_points(self) -> list[int]:
        folder = self.path / POINTS_DIR
        if not folder.is_dir():
            return []
        found = []
        for entry in folder.iterdir():
            m = _POINT_FILE.match(entry.name)
            if m:
                found.append(int(m.group(1)))
        return sorted(found)

    def clean_partial(self, finished: Iterable[int]) -> None:
        """Remove what a killed run left half done: temp files and games of unfinished points."""
        done = set(finished)
        for folder in (self.path / POINTS_DIR, self.path):
            if folder.is_dir():
                for entry in folder.iterdir():
                    if entry.name.startswith(".") and entry.name.endswith(".tmp"):
                        entry.unlink(missing_ok=True)
        games = self.path / GAMES_DIR
        if games.is_dir():
            for entry in games.iterdir():
                m = re.match(r"^point-(\d+)$", entry.name)
                if m and int(m.group(1)) not in done:
                    shutil.rmtree(entry)
                elif entry.is_dir():
                    for f in entry.iterdir():
                        if f.name.startswith(".") and f.name.endswith(".tmp"):
                            f.unlink(missing_ok=True)

    def write_point(self, index: int, frame: Any) -> None:
        _atomic_write_parquet(self.point_path(index), frame)

    def write_games_chunk(self, index: int, first_game: int, frame: Any) -> None:
        _atomic_write_parquet(self.games_dir(index) / f"chunk-{first_game:012d}.parquet", frame)


# --------------------------------------------------------------------------- reading
def open_run(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[int, Any]]:
    """The manifest and the Aggregate of every finished point of a run directory."""
    run = RunDir(path)
    manifest = run.read_manifest()
    frame = load(path)
    out: dict[int, Any] = {}
    if frame.height:
        n_seats = len(manifest["players"])
        cells = heat_cells(manifest)
        for (point,), part in frame.partition_by("point", as_dict=True, maintain_order=True).items():
            out[int(point)] = rows_aggregate(part, n_seats, manifest["strategies"], manifest["end_reasons"], cells)
    return manifest, out


def heat_cells(manifest: Mapping[str, Any]) -> int:
    """Cells of the run's per-cell heatmap (0: the game has none, or the run predates them)."""
    shape = (manifest.get("heatmap") or {}).get("shape")
    return int(shape[0]) * int(shape[1]) if shape else 0


def load(path: str | os.PathLike[str], games: bool = False) -> Any:
    """A run's results as one polars DataFrame (``.to_pandas()`` works).

    By default the tidy counts of every finished point; with ``games=True`` the
    per-game rows (only for a sweep run with ``--keep-games``).
    """
    import polars as pl

    run = RunDir(path)
    manifest = run.read_manifest()
    finished = run.finished_points()
    if games:
        if not manifest.get("keep_games"):
            raise UserError(f"{run.path} has no per-game rows: sweep with --keep-games to keep them")
        files = sorted(str(f) for i in finished for f in run.games_dir(i).glob("chunk-*.parquet"))
        if not files:
            return pl.DataFrame()
        return pl.concat([pl.read_parquet(f) for f in files], how="vertical")
    if not finished:
        return _empty_frame(manifest)
    return pl.concat([pl.read_parquet(run.point_path(i)) for i in finished], how="vertical")


def _empty_frame(manifest: Mapping[str, Any]) -> Any:
    import polars as pl

    schema: dict[str, Any] = {"point": pl.Int32}
    for axis in manifest.get("axes", []):
        schema[param_column(axis["name"])] = _polars_dtype(axis["kind"])
    schema.update(
        {
            "measure": pl.String,
            "seat": pl.Int16,
            "player": pl.String,
            "end_reason": pl.String,
            "turns": pl.Int32,
            **({"cell": pl.Int32} if heat_cells(manifest) else {}),
            "count": pl.Int64,
        }
    )
    return pl.DataFrame(schema=schema)
