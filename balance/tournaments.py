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
        "feel": _feel_by_table(manifest, tables, aggregates),
        "holes": _holes(manifest, tables, aggregates),
    }


def _feel_by_table(manifest: Mapping[str, Any], tables: Sequence[Table], aggregates: Sequence[Any]) -> list[dict[str, Any]]:
    """Each played table's game feel (balance.feel): per pairing, and per player alone in every seat."""
    from balance.feel import summarize as summarize_feel

    out = []
    for table, agg in zip(tables, aggregates):
        if agg is None:
            continue
        feel = summarize_feel(agg.feel, agg.n_seats, **(manifest.get("feel") or {}))
        if feel is not None:
            out.append({"table": table.name, "kind": table.kind, "players": list(table.players), "feel": feel})
    return out


def _holes(manifest: Mapping[str, Any], tables: Sequence[Table], aggregates: Sequence[Any]) -> list[dict[str, Any]]:
    """The tables whose games hit a cap in more than 1% of games (balance.holes)."""
    from balance.errors import UserError
    from balance.holes import find_holes
    from balance.registry import get_game

    try:
        spec = get_game(manifest["game"])
    except UserError:
        return []
    names = list(manifest["end_reasons"])
    out = []
    for i, (table, agg) in enumerate(zip(tables, aggregates)):
        if agg is None:
            continue
        counts = {name: int(agg.end_reasons[k]) for k, name in enumerate(names)}
        for hole in find_holes(spec, counts, table.players, manifest["params"]):
            out.append({"table": i, **hole.to_dict()})
    return out


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
    command: str | None = None,
    on_start: Callable[[int], None] | None = None,
    stallers: bool = False,
    precision: float | None = None,
    max_games: int | None = None,
) -> TournamentResult:
    """Play a tournament between ``players`` and write its counts, figures and report.
    ``stallers`` adds the game's stalling players (``GameSpec.stallers``), so
    that the tables say whether the rules let a player keep a game from ending.

    >>> import balance
    >>> r = balance.tournament("GAME", players="greedy,fleet,mc", games=2000)  # doctest: +SKIP
    >>> r.figures["ratings"]                                                  # doctest: +SKIP
    """
    from balance.config import default_game
    from balance.executors import make_executor
    from balance.registry import get_game
    from balance.runner import execute, tasks_for
    from balance.runspec import RunSpec, check_games, check_seed, split_players

    check_games(games)
    check_seed(seed)
    if precision is not None or max_games is not None:
        from balance.precision import check_precision

        check_precision(precision, max_games)
        if resume:
            raise UserError("--precision plays a tournament from the start: leave out --resume")
    spec = get_game(game or default_game())
    labels_in = list(split_players(players)) if isinstance(players, str) else [str(p).strip() for p in players]
    if stallers:
        if not spec.stallers:
            raise UserError(f"--stallers: {spec.name} has no stalling players to add; leave it out")
        labels_in += [s.player for s in spec.stallers if s.player not in labels_in]
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
    from balance.feel import reading as feel_reading

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
        "feel": feel_reading(spec),  # how the game's standing reads (balance.feel)
        "tables": [t.to_dict() for t in tables],
        "command": command or _equivalent(spec.name, labels, k, games, seed, values, spec, board, player_file),
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
    runs = {}
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
        runs[i] = run.absolute()
    if precision is not None:
        tasks = []  # played in rounds below
    left = {}
    for t in tasks:
        left[t.point] = left.get(t.point, 0) + t.n_games  # games: an executor may split a task
    if on_start is not None:
        on_start(sum(t.n_games for t in tasks))
    start = time.perf_counter()
    merged: dict[int, Any] = {}

    def on_result(task: Any, agg: Any) -> None:
        from balance.store import atomic_write_json

        merged[task.point] = merged[task.point].merge(agg) if task.point in merged else agg
        left[task.point] -= agg.games
        if left[task.point] == 0:
            (folder / "tables").mkdir(exist_ok=True)
            atomic_write_json(_table_path(folder, task.point), merged[task.point].to_dict())
            aggregates[task.point] = merged[task.point]
        if progress is not None:
            progress(agg.games)

    try:
        with make_executor(threads, scheduler) as executor:
            if precision is None:
                execute(tasks, executor, on_result)
            else:  # every table the same first N games of the seed (balance.precision)
                from balance.precision import play_points_rounds
                from balance.runner import DEFAULT_CHUNK
                from balance.store import atomic_write_json

                multiple = max(int(np.lcm.reduce([r.resolved().seatings.shape[0] for r in runs.values()])), 1)
                total, rounds = play_points_rounds(runs, executor, precision, max_games, multiple,
                                                   chunk or DEFAULT_CHUNK, "cpu", progress)
                (folder / "tables").mkdir(exist_ok=True)
                for i, agg in total.aggs.items():
                    atomic_write_json(_table_path(folder, i), agg.to_dict())
                atomic_write_json(existing, {**manifest, "games": rounds.games[-1], "precision": rounds.to_dict()})
    except KeyboardInterrupt:
        from balance.errors import Interrupted

        saved = sum(_table_path(folder, i).is_file() for i in range(len(tables)))  # what is on disk
        raise Interrupted(
            f"{saved:,} of {len(tables):,} tables saved in {folder}: --resume continues "
            f"(the same command with --out {folder} --resume)"
        ) from None
    elapsed = time.perf_counter() - start
    manifest, aggregates = load(folder)
    figures = summarize(manifest, aggregates)
    result = TournamentResult(folder, manifest, aggregates, figures, elapsed)
    from balance.store import atomic_write_json

    found = verdict_findings(manifest, figures)
    atomic_write_json(
        folder / "report.json",
        {**result.to_dict(), "elapsed_s": None, "findings": found, "summary": summary(manifest, figures, found)},
    )
    if report:
        result.html = write_html(folder, manifest, figures)
    return result


def _equivalent(game, labels, seats, games, seed, values, spec, board, player_file) -> str:
    """The command line that plays this tournament (for the report's footer)."""
    import shlex

    words = ["balance", "tournament", game, "--players", ",".join(labels), "--games", str(games), "--seats", str(seats)]
    words += ["--seed", str(seed)]
    for p in spec.params:
        if values[p.name] != p.default:
            words += ["--param", f"{p.name}={values[p.name]}"]
    if board:
        words += ["--board", str(board)]
    if player_file:
        words += ["--player-file", str(player_file)]
    return shlex.join(words)


def _extra(spec: Any, player_file: str | None) -> tuple[Any, ...]:
    from balance.playerfile import players_in_file

    return players_in_file(spec, player_file)


# --------------------------------------------------------------------------- findings and HTML
SEAT_TOLERANCE = 0.10  # the seat-effect band: the fair share 1/seats ± 10% of it, as in the sweep report


def verdict_findings(manifest: Mapping[str, Any], figures: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The tournament in plain words, each statement with its interval, its n
    and its verdict (``good``, ``bad``, ``unsure``, ``info``: the page's colours).
    A statement that something does not show says how large it would have had
    to be to show (80% power, :func:`balance.summary.detectable_shift`)."""
    from balance import format as fmt
    from balance.summary import CANNOT_TELL, OUTSIDE, POWER, band_verdict, detectable_shift

    out: list[dict[str, Any]] = []
    games = int(manifest["games"])
    seats = int(manifest["seats"])
    fair = 1.0 / seats
    z = 1.959963984540054 + 0.8416212335729143  # two-sided 95% test, 80% power
    ratings = figures["ratings"]
    if len(ratings) >= 2:
        top, second = ratings[0], ratings[1]
        a, b = figures["players"].index(top["player"]), figures["players"].index(second["player"])
        cell = figures["matrix"][a][b]
        clear = top["ci95"][0] > second["ci95"][1]
        line = (
            f"{top['player']} is the strongest player ({top['elo']:+.0f} on the Elo scale, "
            f"95% interval {top['ci95'][0]:+.0f} to {top['ci95'][1]:+.0f})"
        )
        if cell is not None:
            line += f"; against {second['player']} it wins {fmt.percent_ci(cell['rate'], cell['ci95'])} of the decided games (n={cell['n']:,})"
        if clear:
            line += "."
        else:
            gap = z * math.hypot(top["se"], second["se"])
            line += (
                f", but its interval overlaps that of {second['player']}: not clearly stronger (at these games, a "
                f"rating gap smaller than about {gap:.0f} Elo would not show)."
            )
        out.append({"kind": "strongest", "verdict": "info" if clear else "unsure", "text": line,
                    "player": top["player"], "clear": clear})
    for e in figures["seat_effect"]:
        n = int(e["games"])
        rates = [c["rate"] for c in e["seats"]]
        best = max(range(len(rates)), key=rates.__getitem__)
        worst = min(range(len(rates)), key=rates.__getitem__)
        b, w = e["seats"][best], e["seats"][worst]
        band = (fair * (1 - SEAT_TOLERANCE), fair * (1 + SEAT_TOLERANCE))
        readings = [band_verdict(c["ci95"], band) for c in e["seats"]]
        above = [s for s, c in enumerate(e["seats"]) if c["ci95"][0] > fair]
        below = [s for s, c in enumerate(e["seats"]) if c["ci95"][1] < fair]
        edge = detectable_shift(n, fair)
        text = (
            f"With {e['player']} in every seat, seat {best} wins {fmt.percent_ci(b['rate'], b['ci95'])} and seat {worst} "
            f"{fmt.percent_ci(w['rate'], w['ci95'])} (n={n:,} each)"
        )
        if above or below:
            parts = [f"seat {s} clearly above" for s in above] + [f"seat {s} clearly below" for s in below]
            text += f": the seat matters ({', '.join(parts)} its fair share {fmt.percent(fair)})"
        else:
            text += (
                f": no seat is clearly favoured, but at n={n:,} a seat edge smaller than "
                f"{fmt.points(edge, 1, sign=False)} points (a seat winning {fmt.percent(fair + edge, 1)} where "
                f"{fmt.percent(fair, 1)} is fair) would usually not show ({POWER:.0%} power)"
            )
        if OUTSIDE in readings:
            text += f"; outside the {fmt.band(*band)} band: seat " + ", ".join(
                str(s) for s, r in enumerate(readings) if r == OUTSIDE)
            verdict = "bad"
        elif CANNOT_TELL in readings:
            text += f"; the intervals cannot tell whether every seat is inside the {fmt.band(*band)} band"
            verdict = "unsure"
        else:
            text += f"; every seat inside the {fmt.band(*band)} band"
            verdict = "good"
        out.append({"kind": "seat_effect", "verdict": verdict, "text": text + ".", "player": e["player"],
                    "games": n, "detectable_seat_edge": edge, "band": list(band),
                    "readings": readings, "favoured": above, "disfavoured": below})
    pairs = [c for row in figures["matrix"] for c in row if c is not None]
    if pairs:
        smallest = min(c["n"] for c in pairs)
        out.append(
            {
                "kind": "power",
                "verdict": "info",
                "text": f"Power: at {games:,} games a table, a head-to-head win rate within "
                f"{fmt.points(detectable_shift(smallest, 0.5), 1, sign=False)} points of 50% (n={smallest:,} decided "
                f"games, the fewest of any pair) and a seat edge smaller than "
                f"{fmt.points(detectable_shift(games, fair), 1, sign=False)} points would usually not show "
                f"(two-sided 95% test, {POWER:.0%} power).",
                "games": games,
            }
        )
    for hole in figures.get("holes") or ():
        out.append({"kind": "hole", "verdict": "bad", "text": hole["message"][:1].upper() + hole["message"][1:] + "."})
    return out


def findings(manifest: Mapping[str, Any], figures: Mapping[str, Any]) -> list[str]:
    """The tournament in plain words, each sentence with its interval and n."""
    return [f["text"] for f in verdict_findings(manifest, figures)]


def summary(manifest: Mapping[str, Any], figures: Mapping[str, Any], found: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The page's summary box: who is strongest and what the seats do, naming the players."""
    from balance.report.html import worst

    sentences = [
        f"{len(figures['players'])} players ({', '.join(figures['players'])}), {manifest['seats']} seats, "
        f"{manifest['games']:,} games a table, seats rotated."
    ]
    strongest = next((f for f in found if f["kind"] == "strongest"), None)
    if strongest is not None:
        sentences.append(strongest["text"])
    seats = [f for f in found if f["kind"] == "seat_effect"]
    if seats:
        sentences.append(seats[0]["text"])
    holes = [f for f in found if f["kind"] == "hole"]
    if holes:
        sentences.append(holes[0]["text"] + (f" ({len(holes)} tables in all)" if len(holes) > 1 else ""))
    return {"sentences": sentences, "verdict": worst([f["verdict"] for f in found if f["kind"] in ("seat_effect", "hole")])}


def _ratings_figure(figures: Mapping[str, Any]) -> str:
    from balance.report.figures import _new_figure, svg_inline

    ratings = list(reversed(figures["ratings"]))
    fig = _new_figure(8.0, 0.9 + 0.42 * len(ratings))
    ax = fig.add_subplot()
    ys = range(len(ratings))
    elo = [r["elo"] for r in ratings]
    lo = [r["elo"] - r["ci95"][0] for r in ratings]
    hi = [r["ci95"][1] - r["elo"] for r in ratings]
    cont = ax.errorbar(elo, list(ys), xerr=[lo, hi], fmt="o", color="#1f77b4", capsize=3)
    cont.lines[0].set_gid("s-ratings-line")
    cont.lines[2][0].set_gid("s-ratings-band")
    fig.tips["s-ratings-line"] = [
        f"{r['player']}: {r['elo']:+.0f} Elo (95% interval {r['ci95'][0]:+.0f} to {r['ci95'][1]:+.0f})" for r in ratings
    ]
    ax.axvline(0.0, color="#888", lw=0.8)
    ax.set_yticks(list(ys), [r["player"] for r in ratings])
    ax.set_xlabel("rating, Elo scale (mean 0), with 95% interval")
    return svg_inline(fig, "ratings", "Ratings of the players with 95% intervals")


def write_html(folder: Path, manifest: Mapping[str, Any], figures: Mapping[str, Any]) -> Path:
    """A self-contained page in the report's house style: the summary box, a
    table of contents, findings coloured by verdict, ratings, the win-rate
    matrix, overall win rates, the seat effect, how to reproduce."""
    from balance import format as fmt
    from balance.report.html import e, findings_list, head, summary_box, tail, toc
    from balance.summary import band_verdict

    def pct(cell: Mapping[str, Any]) -> str:
        return f"{fmt.percent_ci(cell['rate'], cell['ci95'])}"

    labels = figures["players"]
    found = verdict_findings(manifest, figures)
    box = summary(manifest, figures, found)
    title = f"{manifest['game']}: tournament of {len(labels)} players"
    lede = (
        f"{manifest['seats']} seats, {manifest['games']:,} games per table, seats rotated (every order of the "
        f"players at a table equally often), the same games (seed {manifest['seed']}) at every table. "
        "Every figure carries its 95% interval."
    )
    sections = [("findings", "Findings"), ("ratings", "Ratings"), ("matrix", "Head to head")]
    if figures["seat_effect"]:
        sections.append(("seats", "Seat effect"))
    if figures.get("feel"):
        sections.append(("feel", "Game feel"))
    sections.append(("reproduce", "Reproduce"))
    parts = [
        *head(title),
        f'<header><h1>{e(title)}</h1><p class="lede">{e(lede)}</p></header>',
        summary_box(box["sentences"], box["verdict"]),
        toc(sections),
        '<section id="findings"><h2>Findings</h2>',
        findings_list(found),
        '<p class="rule">A seat is clearly favoured when its whole 95% Wilson interval lies above its fair share '
        "(1/seats); against the band (the fair share ± 10%) it is inside, outside, or 'cannot tell' when its interval "
        "reaches across an edge.</p></section>",
        '<section id="ratings"><h2>Ratings</h2>',
        f"<figure>{_ratings_figure(figures)}<figcaption><b>Ratings.</b> {e(figures['rating_model'])}. Hover over a "
        "marker for its value.</figcaption></figure>",
        '<div class="scroll"><table><thead><tr><th class="l">player</th><th>rating</th><th>95% interval</th>'
        "<th>win rate, all its games</th><th>games</th></tr></thead><tbody>",
    ]
    overall = {o["player"]: o for o in figures["overall"]}
    for r in figures["ratings"]:
        o = overall[r["player"]]
        parts.append(
            f'<tr><td class="l">{e(r["player"])}</td><td>{r["elo"]:+.0f}</td>'
            f"<td>{r['ci95'][0]:+.0f} to {r['ci95'][1]:+.0f}</td><td>{pct(o)}</td><td>{o['n']:,}</td></tr>"
        )
    parts.append("</tbody></table></div></section>")
    parts.append(
        '<section id="matrix"><h2>Head to head</h2><p class="lede">How often the row player won against the column '
        "player, among the games one of the two won (Wilson 95% intervals; n = those games).</p>"
        '<div class="scroll"><table><thead><tr><th class="l"></th>'
        + "".join(f"<th>{e(b)}</th>" for b in labels)
        + "</tr></thead><tbody>"
    )
    for a, row in zip(labels, figures["matrix"]):
        cells = "".join(
            "<td>–</td>" if c is None
            else f'<td title="{e(a)} against {e(b)}: {e(pct(c))} of {c["n"]:,} decided games">{pct(c)}<br><small>n={c["n"]:,}</small></td>'
            for b, c in zip(labels, row)
        )
        parts.append(f'<tr><th class="l">{e(a)}</th>{cells}</tr>')
    parts.append("</tbody></table></div></section>")
    if figures["seat_effect"]:
        fair = 1.0 / manifest["seats"]
        band = (fair * (1 - SEAT_TOLERANCE), fair * (1 + SEAT_TOLERANCE))
        parts.append(
            '<section id="seats"><h2>Seat effect</h2><p class="lede">The same player in every seat: what is left is '
            f"the seat's own advantage under that player (Wilson 95% intervals), each seat coloured by its reading "
            f"against the {e(fmt.band(*band))} band.</p>"
            '<div class="scroll"><table><thead><tr><th class="l">player</th>'
            + "".join(f"<th>seat {s}</th>" for s in range(manifest["seats"]))
            + "<th>no winner</th><th>games</th></tr></thead><tbody>"
        )
        colour = {"inside": "good", "outside": "bad", "cannot tell": "unsure"}
        for row in figures["seat_effect"]:
            parts.append(
                f'<tr><td class="l">{e(row["player"])}</td>'
                + "".join(
                    f'<td class="verdict-{colour[band_verdict(c["ci95"], band)]}" '
                    f'title="seat {s}: {e(pct(c))}, n={row["games"]:,}: {band_verdict(c["ci95"], band)}">{pct(c)}</td>'
                    for s, c in enumerate(row["seats"])
                )
                + f"<td>{pct(row['no_winner'])}</td><td>{row['games']:,}</td></tr>"
            )
        parts.append("</tbody></table></div></section>")
    if figures.get("feel"):
        parts.append(
            '<section id="feel"><h2>Game feel by table</h2><p class="lede">Per table, the seat strictly ahead at '
            f"half time (who is ahead: {e(figures['feel'][0]['feel']['standing'])}) and how often it wins, how often "
            "the last at half time wins, lead changes per game and the decisive moment (the share of the game after "
            "which the winner leads for good), each with its 95% interval (Wilson for shares, normal for means) and "
            "its games.</p>"
            '<div class="scroll"><table><thead><tr><th class="l">table</th><th>P(win | leading at half time)</th>'
            "<th>fair share</th><th>comeback</th><th>lead changes</th><th>decisive moment</th><th>games</th></tr>"
            "</thead><tbody>"
        )
        for row in figures["feel"]:
            f = row["feel"]
            half, back, changes, moment = f["lead_wins"][1], f["comeback"], f["lead_changes"], f["decisive_moment"]
            parts.append(
                f'<tr><td class="l">{e(" vs ".join(row["players"]) if row["kind"] == "match" else row["players"][0] + " in every seat")}</td>'
                f"<td>{pct(half)}<br><small>n={half['n']:,}</small></td><td>{fmt.percent(half['fair_share'])}</td>"
                f"<td>{pct(back)}<br><small>n={back['n']:,}</small></td>"
                f"<td>{changes['mean']:.2f} ({changes['ci95'][0]:.2f} to {changes['ci95'][1]:.2f})</td>"
                f"<td>{fmt.percent_ci(moment['mean'], moment['ci95'])}</td><td>{f['games']:,}</td></tr>"
            )
        parts.append("</tbody></table></div></section>")
    params = ", ".join(f"{k}={v}" for k, v in manifest["params"].items())
    parts.append(
        '<footer id="reproduce"><h3>Reproduce</h3>'
        f"<pre>{e(manifest.get('command') or '')}</pre>"
        f"<p>Rules: {e(params)}. Same command, same numbers: game g of every table uses the random stream of "
        f"(seed, g).</p></footer>"
    )
    parts.append(tail())
    path = folder / "report.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
