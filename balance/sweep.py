"""Sweeps: play a grid of rule variants and store each point's counts.

``balance sweep GAME --param NAME=8..14`` plays the same games (common random
numbers: game ``g`` uses the stream of ``(seed, g)`` at every point) under each
value, so differences between points are not seed noise.  Every point is one
run description (:class:`~balance.runspec.RunSpec`): the sweep's, under the
point's rules.

A SPEC says which values one parameter takes:

=====================  =====================================================
``8..14``              every integer from 8 to 14, both ends included
``8..14:2``            8, 10, 12, 14 (a step; the high end only if reached)
``3000..9000``         a parameter with a step of its own (money in $10
                       notes) steps by it: 3000, 3010, ..., 9000
``0.25..0.5:0.05``     a float range needs a step; computed in decimal, so
                       0.25, 0.3, 0.35, ... exactly as written
``8,10,12``            a list (any kind of parameter; no value twice)
``9``                  one value (a fixed parameter of the sweep)
=====================  =====================================================

Several parameters make the full grid (the first one varies slowest).
Everything is validated, every point included, before the run directory is
created: bad input writes nothing.  The run itself is in :func:`run_plan`; the
store in :mod:`balance.store`; a sweep file is read by :func:`balance.config.load_sweep`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import itertools
import math
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from balance.errors import Interrupted, UserError
from balance.format import format_value
from balance.game import Param
from balance.runspec import RunSpec

DEFAULT_MAX_POINTS = 10_000
DEFAULT_RUNS_DIR = "runs"

_NUM = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_RANGE = re.compile(rf"^\s*(?P<lo>{_NUM})\s*\.\.\s*(?P<hi>{_NUM})\s*(?::\s*(?P<step>{_NUM})\s*)?$")
_ALLOWED_FORMS = "LOW..HIGH, LOW..HIGH:STEP, a list A,B,C or one value"


# --------------------------------------------------------------------------- SPEC parsing
def parse_spec(param: Param, text: str, max_values: int | None = None) -> list[Any]:
    """The values of ``param`` that the SPEC ``text`` names, validated, in order.

    Raises :class:`UserError` with one line for anything not allowed.
    """
    raw = str(text).strip()
    where = f"--param {param.name}={text}"
    if not raw:
        raise UserError(f"{where}: empty; expected {_ALLOWED_FORMS}")
    if ".." in raw:
        if param.kind in ("bool", "choice"):
            raise UserError(
                f"{where}: a range needs a number; {param.name} is {param.allowed}, give a list (a,b) or one value"
            )
        m = _RANGE.match(raw)
        if m is None:
            raise UserError(f"{where}: expected {_ALLOWED_FORMS}")
        lo, hi, step = _range_parts(param, text, m)
        count = int((hi - lo) // step) + 1
        if max_values is not None and count > max_values:
            raise UserError(
                f"{where}: {count:,} values, more than --max-points {max_values:,}; raise --max-points to run it"
            )
        if param.kind == "int":
            return [param.validate(int(lo + i * step)) for i in range(count)]
        return [param.validate(float(lo + i * step)) for i in range(count)]
    if "," in raw:
        items = [t.strip() for t in raw.split(",")]
        if any(not t for t in items):
            raise UserError(f"{where}: an empty item in the list; expected A,B,C")
        values = [param.parse(t) for t in items]
        seen: list[Any] = []
        for v in values:
            if v in seen and type(v) is type(seen[seen.index(v)]):
                raise UserError(f"{where}: {format_value(v)} given twice")
            seen.append(v)
        return values
    return [param.parse(raw)]


def _range_parts(param: Param, text: str, m: re.Match[str]) -> tuple[Decimal, Decimal, Decimal]:
    where = f"--param {param.name}={text}"
    lo_t, hi_t, step_t = m.group("lo"), m.group("hi"), m.group("step")
    # Both ends go through the parameter's own parser: type and range checked once.
    lo_v, hi_v = param.parse(lo_t), param.parse(hi_t)
    if hi_v < lo_v:
        raise UserError(f"{where}: reversed range (empty); write LOW..HIGH with LOW <= HIGH, e.g. {hi_t}..{lo_t}")
    if param.kind == "int":
        # A stepped parameter (money in $10 notes) steps by its own step unless told
        # otherwise, so that every value of the range is one the parameter takes.
        unit = int(param.step or 1)
        if step_t is None:
            step = Decimal(unit)
        else:
            try:
                step_i = int(step_t)
            except ValueError:
                raise UserError(f"{where}: step {step_t} must be a whole number of at least 1") from None
            if step_i <= 0:
                raise UserError(f"{where}: step {step_t} must be a whole number of at least 1")
            if step_i % unit:
                raise UserError(
                    f"{where}: step {step_t}: {param.name} takes multiples of {unit}, so the step must be a "
                    f"multiple of {unit} too"
                )
            step = Decimal(step_i)
        return Decimal(lo_v), Decimal(hi_v), step
    if step_t is None:
        raise UserError(f"{where}: a float range needs a step, e.g. {lo_t}..{hi_t}:0.05")
    try:
        step = Decimal(step_t)
        lo, hi = Decimal(lo_t.strip()), Decimal(hi_t.strip())
    except InvalidOperation:  # pragma: no cover - the regex admits only numbers
        raise UserError(f"{where}: expected {_ALLOWED_FORMS}") from None
    if not step > 0:
        raise UserError(f"{where}: step {step_t} must be positive")
    return lo, hi, step


def format_spec(param: Param, values: Sequence[Any]) -> str:
    """A SPEC that parses back to exactly ``values`` (the shortest of range or list)."""
    if len(values) == 1:
        return format_value(values[0])
    if param.kind == "int" and len(values) >= 3:
        step = values[1] - values[0]
        if step > 0 and all(b - a == step for a, b in itertools.pairwise(values)):
            return f"{values[0]}..{values[-1]}" + ("" if step == (param.step or 1) else f":{step}")
    return ",".join(format_value(v) for v in values)


def describe_values(values: Sequence[Any], limit: int = 12) -> str:
    text = [format_value(v) for v in values]
    if len(text) > limit:
        text = [*text[: limit // 2], "…", *text[-2:]]
    return ", ".join(text)


# --------------------------------------------------------------------------- the grid
@dataclass(frozen=True)
class Axis:
    """One swept parameter: its values in order (one value: a fixed parameter)."""

    name: str
    kind: str
    values: tuple[Any, ...]
    spec: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "spec": self.spec, "values": list(self.values)}


def expand_grid(axes: Sequence[Axis]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, the first axis varying slowest."""
    names = [a.name for a in axes]
    return [dict(zip(names, combo)) for combo in itertools.product(*(a.values for a in axes))]


def build_axes(spec: Any, specs: Mapping[str, Any], max_points: int, seated: Sequence[Any] = ()) -> list[Axis]:
    """Parse every SPEC (string from the command line, or a TOML value) into an Axis.

    A name ``PLAYER.KEY`` sweeps parameter KEY of player PLAYER, for every seat
    that PLAYER plays (``seated``: the seated players, balance.game.Player)."""
    axes: list[Axis] = []
    for name, value in specs.items():
        param = player_param(spec, name, seated) if "." in name else spec.param(name)
        if isinstance(value, str):
            values = parse_spec(param, value, max_points)
        elif isinstance(value, (list, tuple)):
            if not value:
                raise UserError(f"parameter {name}: an empty list of values")
            values = [param.coerce(v) for v in value]
            if len(set(map(repr, values))) != len(values):
                raise UserError(f"parameter {name}: a value given twice in {value!r}")
        else:
            values = [param.validate(value)]
        if "." in name:
            param = dataclasses.replace(param, name=name)
        axes.append(Axis(name, param.kind, tuple(values), format_spec(param, values)))
    total = math.prod(len(a.values) for a in axes) if axes else 1
    if total > max_points:
        sizes = " × ".join(str(len(a.values)) for a in axes)
        raise UserError(
            f"the grid has {total:,} points ({sizes}), more than --max-points {max_points:,}; "
            "raise --max-points to run it"
        )
    return axes


def player_param(spec: Any, name: str, seated: Sequence[Any]) -> Param:
    """The parameter ``PLAYER.KEY`` names: PLAYER must be seated, with one set of
    values in every seat it plays (the sweep sets KEY in all of them)."""
    player, _, key = name.partition(".")
    if not player or not key:
        raise UserError(f"--param {name}: expected a rule parameter or PLAYER.KEY")
    here = [p for p in seated if p.name == player]
    if not here:
        names = ", ".join(dict.fromkeys(p.name for p in seated))
        raise UserError(f"--param {name}: player {player!r} is not seated (players: {names})")
    if len(set(here)) > 1:
        labels = ", ".join(dict.fromkeys(p.label for p in here))
        raise UserError(f"--param {name}: {player} sits with different values ({labels}); a sweep sets {key} in every seat")
    return here[0].info.param(key)


def players_at(names: Sequence[str], point: Mapping[str, Any], spec: Any, extra: Sequence[Any] = ()) -> tuple[str, ...]:
    """The players by seat with a point's ``PLAYER.KEY`` values applied."""
    out = []
    for text in names:
        seated = spec.parse_player(text, extra)
        values = {k: v for k, v in seated.values}
        for key, value in point.items():
            player, dot, param = key.partition(".")
            if dot and player == seated.name:
                values[param] = value
        out.append(type(seated).of(seated.info, values).label)
    return tuple(out)


# --------------------------------------------------------------------------- plan
@dataclass
class SweepPlan:
    """A validated sweep: everything needed to run it, nothing written yet.

    ``run`` is what every point plays (players by seat, seed, games per point,
    seat rotation, board and player file as absolute paths); point ``i`` plays it
    under the rules ``params[i]``, its players' ``PLAYER.KEY`` values applied
    (:meth:`point_run`).
    """

    spec: Any
    run: RunSpec
    axes: list[Axis]
    points: list[dict[str, Any]]  # the swept values of each point
    params: list[dict[str, Any]]  # every rule parameter of each point
    strategies: list[str]  # each distinct player's label
    seatings: Any  # int64[P, seats]
    out: Path
    resume: bool
    done: list[int]  # points already finished in ``out``
    keep_games: bool
    max_points: int
    chunk: int
    threads: int | None
    scheduler: str | None
    report: str | None
    png: str | None
    command: str
    board_sha256: str | None = None
    player_file_sha256: str | None = None
    existing_manifest: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    device: str = "cpu"  # not part of the identity: both devices give the same numbers
    precision: float | None = None  # --precision: rounds until every point's seat intervals are this narrow
    max_games: int | None = None

    @property
    def game(self) -> str:
        return self.spec.name

    def point_run(self, i: int) -> RunSpec:
        """What point ``i`` plays: its rules, and its players' swept values."""
        run = self.run.with_params(self.params[i])
        if any("." in name for name in self.points[i]):
            from balance.playerfile import players_in_file

            extra = players_in_file(self.spec, self.run.player_file)
            run = run.replace(players=players_at(self.run.players or (), self.points[i], self.spec, extra))
        return run

    # The run's fields under the names a sweep has always used.
    @property
    def players(self) -> list[str]:
        return list(self.run.players or ())

    @property
    def rotate_seats(self) -> bool:
        return self.run.rotate_seats

    @property
    def seed(self) -> int:
        return self.run.seed

    @property
    def games(self) -> int:
        """Games per point."""
        return self.run.games

    @property
    def board(self) -> str | None:
        return self.run.board

    @property
    def player_file(self) -> str | None:
        return self.run.player_file

    @property
    def n_points(self) -> int:
        return len(self.points)

    @property
    def pending(self) -> list[int]:
        done = set(self.done)
        return [i for i in range(self.n_points) if i not in done]

    @property
    def total_games(self) -> int:
        return self.n_points * self.games

    @property
    def pending_games(self) -> int:
        return len(self.pending) * self.games

    @property
    def swept(self) -> list[Axis]:
        return [a for a in self.axes if len(a.values) > 1]

    def identity(self) -> dict[str, Any]:
        """What makes two sweeps the same sweep (``--resume`` compares these)."""
        return {
            "game": self.game,
            "axes": [a.to_dict() for a in self.axes],
            "fixed": {k: v for k, v in self.params[0].items() if k not in self.points[0]},
            "players": self.players,
            "rotate_seats": self.rotate_seats,
            "seed": self.seed,
            "games_per_point": self.games,
            "board_sha256": self.board_sha256,
            "player_file_sha256": self.player_file_sha256,
            "keep_games": self.keep_games,
        }

    def describe(self) -> list[str]:
        lines = [f"{self.game} sweep"]
        for a in self.axes:
            if len(a.values) > 1:
                lines.append(f"  {a.name} = {describe_values(a.values)}  ({len(a.values)} values)")
            else:
                lines.append(f"  {a.name} = {format_value(a.values[0])}  (fixed)")
        if not self.axes:
            lines.append("  no --param: one point at the default rules")
        lines.append(
            f"{self.n_points:,} point{'s' if self.n_points != 1 else ''} × {self.games:,} games = "
            f"{self.total_games:,} games  (seed {self.seed}, players {','.join(self.players)}"
            f"{', seats rotated' if self.rotate_seats else ''}{', on the GPU' if self.device == 'gpu' else ''})"
        )
        if self.done:
            lines.append(
                f"resume: {len(self.done):,} of {self.n_points:,} points already done; "
                f"{len(self.pending):,} to play ({self.pending_games:,} games)"
            )
        lines.append(f"results: {self.out}")
        lines.extend(f"note: {w}" for w in self.warnings)
        return lines

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "axes": [a.to_dict() for a in self.axes],
            "points": self.n_points,
            "games_per_point": self.games,
            "total_games": self.total_games,
            "points_done": len(self.done),
            "games_to_play": self.pending_games,
            "seed": self.seed,
            "players": self.players,
            "rotate_seats": self.rotate_seats,
            "out": str(self.out),
            "warnings": self.warnings,
        }


def equivalent_command(plan_args: Mapping[str, Any]) -> str:
    """The command line that asks for this sweep (recorded when called from Python)."""
    argv = ["balance", "sweep", plan_args["game"]]
    for name, spec in plan_args["specs"].items():
        argv += ["--param", f"{name}={spec}"]
    argv += ["--games", str(plan_args["games"]), "--seed", str(plan_args["seed"])]
    argv += ["--players", ",".join(plan_args["players"])]
    if plan_args.get("rotate_seats"):
        argv.append("--rotate-seats")
    if plan_args.get("board"):
        argv += ["--board", str(plan_args["board"])]
    if plan_args.get("player_file"):
        argv += ["--player-file", str(plan_args["player_file"])]
    if plan_args.get("keep_games"):
        argv.append("--keep-games")
    argv += ["--out", str(plan_args["out"])]
    return shlex.join(argv)


def plan(
    game: str | None = None,
    *,
    params: Mapping[str, Any] | None = None,
    games: int | None = None,
    players: str | Sequence[str] | None = None,
    seed: int | None = None,
    board: str | None = None,
    rotate_seats: bool | None = None,
    player_file: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    keep_games: bool | None = None,
    max_points: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    config: str | os.PathLike[str] | None = None,
    report: str | None = None,
    png: str | None = None,
    command: str | None = None,
    device: str | None = None,
) -> SweepPlan:
    """Validate a sweep completely (every point) and say what running it will do.

    Arguments left at ``None`` come from ``config`` (a sweep file or a
    ``balance.toml`` with a ``[sweep]`` table, see
    :func:`balance.config.load_sweep`), then from the defaults.  Nothing is written.
    """
    from balance.config import default_game, load_sweep
    from balance.play import check_gpu_run
    from balance.runner import DEFAULT_CHUNK, GPU_CHUNK
    from balance.runspec import DEFAULT_GAMES, DEFAULT_SEED, check_device, check_games, check_seed
    from balance.seating import uneven_warning
    from balance.store import RunDir, file_sha256

    cfg = load_sweep(config) if config is not None else {}

    def pick(value: Any, key: str, default: Any) -> Any:
        return value if value is not None else cfg.get(key, default)

    game_name = game or cfg.get("game") or default_game()
    specs: dict[str, Any] = dict(cfg.get("params", {}))
    for name, value in (params or {}).items():
        specs.pop(name, None)  # a flag wins over the file, and takes the flag's place in the order
        specs[name] = value
    games = check_games(pick(games, "games", DEFAULT_GAMES))
    seed = check_seed(pick(seed, "seed", DEFAULT_SEED))
    players = pick(players, "players", None)
    board = pick(board, "board", None)
    player_file = pick(player_file, "player_file", None)
    rotate_seats = bool(pick(rotate_seats, "rotate_seats", False))
    keep_games = bool(pick(keep_games, "keep_games", False))
    max_points = pick(max_points, "max_points", DEFAULT_MAX_POINTS)
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 1:
        raise UserError(f"--max-points {max_points}: expected a whole number of at least 1")
    threads = pick(threads, "threads", None)
    scheduler = pick(scheduler, "scheduler", None)
    device = check_device(pick(device, "device", "cpu"))
    report = pick(report, "report", None)
    png = pick(png, "png", None)
    out = pick(out, "out", None)
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise UserError(f"--chunk {chunk}: expected a whole number of at least 1")
    if threads is not None and (isinstance(threads, bool) or threads < 1):
        raise UserError(f"--threads {threads}: expected a whole number of at least 1")
    if keep_games and scheduler:
        raise UserError("--keep-games plays on this machine (it writes every game); drop --scheduler to use it")
    for opt, path in (("--report", report), ("--png", png)):
        if path is not None and Path(path).is_dir():
            raise UserError(f"{opt} {path}: is a directory; give a file name")

    from balance.registry import get_game

    spec = get_game(game_name)
    base = RunSpec.of(
        spec.name, players=players, seed=seed, games=games, rotate_seats=rotate_seats, board=board, player_file=player_file,
    )
    seated = RunSpec.of(spec.name, players=players, player_file=player_file, games=1).resolved().strategies
    axes = build_axes(spec, specs, max_points, seated)
    points = expand_grid(axes)
    rules_of = [{k: v for k, v in point.items() if "." not in k} for point in points]
    first = base.replace(params=tuple(rules_of[0].items())).resolved()
    if device == "gpu":
        check_gpu_run(spec, scheduler, player_file)
    all_params = []
    for point, rules in zip(points, rules_of):
        try:
            all_params.append(spec.resolve_params({**first.rules, **rules}))
        except UserError as exc:
            where = ", ".join(f"{k}={format_value(v)}" for k, v in point.items())
            raise UserError(f"point {where}: {exc}") from None
    names, strategies, seatings = first.names, first.labels, first.seatings
    warnings = []
    warning = uneven_warning(games, seatings.shape[0], "games per point")
    if rotate_seats and warning:
        warnings.append(warning)

    run_dir = Path(out) if out is not None else _default_out(spec.name)
    existing = None
    done: list[int] = []
    store = RunDir(run_dir)
    if store.exists() and not store.path.is_dir():
        raise UserError(f"--out {run_dir}: exists and is not a directory")
    if resume:
        if out is None:
            raise UserError("--resume needs --out DIR: the run directory to continue")
        if store.is_run():
            existing = store.read_manifest()
        elif store.exists() and not store.is_empty():
            raise UserError(f"--resume {run_dir}: holds files but no sweep ({'manifest.json'} is missing)")
    elif store.exists() and not store.is_empty():
        raise UserError(f"--out {run_dir}: already holds a run; add --resume to continue it, or choose another --out")

    common = first.run.replace(params=()).absolute()
    board_path, pfile = common.board, common.player_file
    args = {
        "game": spec.name, "specs": {a.name: a.spec for a in axes}, "games": games, "seed": seed,
        "players": names, "rotate_seats": rotate_seats, "board": board, "player_file": player_file,
        "keep_games": keep_games, "out": run_dir,
    }
    the_plan = SweepPlan(
        spec=spec,
        run=common,
        axes=axes,
        points=points,
        params=all_params,
        strategies=strategies,
        seatings=seatings,
        out=run_dir,
        resume=resume,
        done=done,
        keep_games=keep_games,
        max_points=max_points,
        chunk=chunk or (GPU_CHUNK if device == "gpu" else DEFAULT_CHUNK),
        threads=threads,
        scheduler=scheduler,
        report=report,
        png=png,
        command=command or equivalent_command(args),
        board_sha256=file_sha256(board_path) if board_path else None,
        player_file_sha256=file_sha256(pfile) if pfile else None,
        existing_manifest=existing,
        warnings=warnings,
        device=device,
    )
    if existing is not None:
        _check_same_sweep(run_dir, existing.get("identity", {}), the_plan.identity())
        finished = store.finished_points()
        bad = [i for i in finished if i >= the_plan.n_points]
        if bad:
            raise UserError(f"--resume {run_dir}: holds point {bad[0]} beyond this grid of {the_plan.n_points}")
        the_plan.done = finished
    return the_plan


def _default_out(game: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = Path(DEFAULT_RUNS_DIR) / f"{game}-{stamp}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def _check_same_sweep(run_dir: Path, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    import json

    # Compare through JSON so tuples, numpy scalars and paths read the same way.
    old_n = json.loads(json.dumps(old, default=str))
    new_n = json.loads(json.dumps(new, default=str))
    for key in new_n:
        if old_n.get(key) != new_n[key]:
            was, now = old_n.get(key), new_n[key]
            if key == "axes":
                was = " ".join(f"{a['name']}={a['spec']}" for a in was or []) or "(none)"
                now = " ".join(f"{a['name']}={a['spec']}" for a in now) or "(none)"
            elif isinstance(now, dict):
                diff = sorted(k for k in set(was or {}) | set(now) if (was or {}).get(k) != now.get(k))
                was = ", ".join(f"{k}={(old_n.get(key) or {}).get(k)}" for k in diff)
                now = ", ".join(f"{k}={new_n[key].get(k)}" for k in diff)
            raise UserError(
                f"--resume {run_dir}: that directory holds another sweep ({key} {was} there, {now} here); "
                "use the same command, or another --out"
            )


# --------------------------------------------------------------------------- run
@dataclass
class SweepResult:
    """A finished (or resumed) sweep: where it is and every point's figures."""

    out: Path
    manifest: dict[str, Any]
    aggregates: dict[int, Any]
    points_played: int
    games_played: int
    elapsed_s: float
    report: Path | None = None
    png: Path | None = None

    def frame(self) -> Any:
        """The tidy counts as a polars DataFrame (:func:`balance.store.load`)."""
        from balance.store import load

        return load(self.out)

    def figures(self) -> list[dict[str, Any]]:
        """Every point's figures (the same dictionary as ``balance run --json``)."""
        from balance.summary import summarize

        m = self.manifest
        seat_players = ["rotated"] * len(m["players"]) if m["rotate_seats"] else m["players"]
        out = []
        for i, point in enumerate(m["points"]):
            agg = self.aggregates.get(i)
            if agg is None:
                continue
            out.append(
                {
                    "point": i,
                    "params": point,
                    **summarize(agg, m["strategies"], seat_players, m["end_reasons"], m["score_name"], m.get("feel")),
                }
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "report": str(self.report) if self.report else None,
            "points_played": self.points_played,
            "games_played": self.games_played,
            "elapsed_s": self.elapsed_s,
            "games_per_second": self.games_played / self.elapsed_s if self.elapsed_s > 0 else None,
            "manifest": self.manifest,
            "points": self.figures(),
        }


def _versions() -> dict[str, str]:
    import platform

    try:
        from balance import __version__
    except ImportError:  # a broken editable install can load balance as a namespace package
        from importlib.metadata import version

        __version__ = version("balance")
    versions = {"balance": __version__, "python": platform.python_version()}
    for mod in ("numpy", "numba", "polars"):
        try:
            versions[mod] = __import__(mod).__version__
        except ImportError:  # pragma: no cover - a missing optional module
            continue
    return versions


def git_commit() -> str | None:
    """The commit of the code that ran (the package's checkout), ``+dirty`` if modified."""
    here = Path(__file__).resolve().parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here, capture_output=True, text=True, timeout=5, check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (sha + ("+dirty" if dirty else "")) or None


def _manifest(p: SweepPlan) -> dict[str, Any]:
    from balance.feel import reading as feel_reading
    from balance.store import FORMAT, param_column

    manifest = {
        "format": FORMAT,
        "game": p.game,
        "title": getattr(p.spec, "title", p.game),
        "axes": [a.to_dict() for a in p.axes],
        "grid": {a.name: list(a.values) for a in p.axes},
        "columns": {a.name: param_column(a.name) for a in p.axes},
        "points": p.points,
        "params": p.params[0],
        "players": p.players,
        "strategies": p.strategies,
        "seatings": p.seatings.tolist(),
        "rotate_seats": p.rotate_seats,
        "seed": p.seed,
        "games_per_point": p.games,
        "board": p.board,
        "board_sha256": p.board_sha256,
        "player_file": p.player_file,
        "player_file_sha256": p.player_file_sha256,
        "keep_games": p.keep_games,
        "end_reasons": p.spec.end_reason_names,
        # Names, meanings and which are caps: a report reads them without the game installed.
        "end_reason_info": [r.to_dict() for r in p.spec.end_reasons],
        "score_name": p.spec.score_name,
        "seconds_per_turn": float(p.spec.seconds_per_turn or 0.0) or None,  # lengths in minutes (the game's table time)
        "seconds_per_turn_source": p.spec.seconds_per_turn_source or None,
        "feel": feel_reading(p.spec),  # how the game's standing reads (balance.feel)
        "param_info": {prm.name: prm.to_dict() for prm in p.spec.params},
        "identity": p.identity(),
        "command": p.command,
        "version": _versions()["balance"],
        "versions": _versions(),
        "commit": git_commit(),
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "sessions": [],
        "complete": False,
    }
    shape = p.spec.heatmap_shape(p.spec.board_for(p.board))
    if shape is not None:  # only games that opt into a per-cell heatmap
        manifest["heatmap"] = {"shape": [int(shape[0]), int(shape[1])]}
    return manifest


def _tasks(p: SweepPlan) -> list[Any]:
    from balance.runner import tasks_for

    return [t for i in p.pending for t in tasks_for(p.point_run(i), p.chunk, point=i, device=p.device)]


def _keep_games_results(p: SweepPlan, tasks: Sequence[Any], store: Any) -> Iterator[tuple[Any, Any]]:
    """Play tasks here, writing each chunk's per-game rows, and yield their aggregates."""
    from balance.aggregate import Aggregate
    from balance.store import game_rows

    kinds = {a.name: a.kind for a in p.axes}
    for task in tasks:
        r = task.run.resolved()
        out = r.spec.simulate(
            r.rules, list(r.strategies), r.seatings, task.run.seed, task.first_game, task.n_games, r.board,
            device=task.device,
        )
        rows = game_rows(
            out, task.point, task.first_game, r.seatings.shape[0], p.points[task.point], kinds,
            r.spec.end_reason_names,
        )
        store.write_games_chunk(task.point, task.first_game, rows)
        del rows
        yield task, Aggregate.from_outcomes(out, r.seatings, task.first_game, len(r.strategies), len(r.spec.end_reasons))


def _numba_threads() -> int:
    import numba

    return numba.get_num_threads()


def _play(
    p: SweepPlan,
    tasks: Sequence[Any],
    store: Any,
    kinds: Mapping[str, str],
    games_left: dict[int, int],
    progress: Callable[[int], None] | None,
    on_point: Callable[[int, int], None] | None,
) -> int:
    """Run the tasks; merge each point's chunks and write the point when its last games are in
    (counted in games: an executor may split a task)."""
    from balance.executors import make_executor
    from balance.store import aggregate_rows

    partial: dict[int, Any] = {}
    done = len(p.done)
    played = 0
    with make_executor(p.threads, p.scheduler) as executor:
        results = _keep_games_results(p, tasks, store) if p.keep_games else executor.map_unordered(tasks)
        for task, agg in results:
            i = task.point
            partial[i] = partial[i].merge(agg) if i in partial else agg
            games_left[i] -= agg.games
            played += agg.games
            if progress is not None:
                progress(agg.games)
            if games_left[i] == 0:
                merged = partial.pop(i)
                store.write_point(i, aggregate_rows(merged, i, p.points[i], kinds, p.strategies, p.spec.end_reason_names))
                done += 1
                if on_point is not None:
                    on_point(done, p.n_points)
    return played


def _play_to_precision(
    p: SweepPlan,
    store: Any,
    kinds: Mapping[str, str],
    progress: Callable[[int], None] | None,
    on_point: Callable[[int, int], None] | None,
) -> tuple[int, Any]:
    """``--precision``: rounds of the seed's next games at every point (the same games
    at each: common random numbers) until every point's seats and players have
    intervals at most ``p.precision`` points wide on each side (balance.precision);
    the points are written when the last round is in."""
    from balance.executors import make_executor
    from balance.precision import play_points_rounds
    from balance.store import aggregate_rows

    with make_executor(p.threads, p.scheduler) as executor:
        runs = {i: p.point_run(i).absolute() for i in p.pending}
        total, rounds = play_points_rounds(runs, executor, p.precision, p.max_games, p.seatings.shape[0], p.chunk,
                                           p.device, progress)
    for done, (i, agg) in enumerate(sorted(total.aggs.items()), start=1):
        store.write_point(i, aggregate_rows(agg, i, p.points[i], kinds, p.strategies, p.spec.end_reason_names))
        if on_point is not None:
            on_point(done, p.n_points)
    return rounds.games[-1] * len(total.aggs), rounds


def run_plan(
    p: SweepPlan,
    progress: Callable[[int], None] | None = None,
    on_point: Callable[[int, int], None] | None = None,
) -> SweepResult:
    """Play every pending point of a plan, writing each point as it finishes.

    ``progress(n)`` is called with the games of each finished chunk;
    ``on_point(done, total)`` after each point is written.
    """
    from balance.store import RunDir, open_run

    store = RunDir(p.out)
    if p.existing_manifest is None:
        manifest = _manifest(p)
        store.path.mkdir(parents=True, exist_ok=True)
        store.write_manifest(manifest)
    else:
        manifest = p.existing_manifest
    store.clean_partial(p.done)
    session = {
        "command": p.command,
        "device": p.device,
        "started": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "points_before": len(p.done),
        "versions": _versions(),
        "commit": git_commit(),
    }

    kinds = {a.name: a.kind for a in p.axes}
    tasks = _tasks(p) if p.precision is None else []
    games_left: dict[int, int] = {}
    for t in tasks:
        games_left[t.point] = games_left.get(t.point, 0) + t.n_games
    start = time.perf_counter()
    threads_before = _numba_threads() if p.threads else None
    rounds = None
    try:
        if p.precision is None:
            played = _play(p, tasks, store, kinds, games_left, progress, on_point)
        else:
            played, rounds = _play_to_precision(p, store, kinds, progress, on_point)
    except KeyboardInterrupt as exc:
        if isinstance(exc, Interrupted):
            raise
        raise interrupted([p], p.out) from None
    finally:
        if threads_before:  # --threads is for this sweep only, not for the rest of the process
            import numba

            numba.set_num_threads(threads_before)
    elapsed = time.perf_counter() - start

    session.update(
        {
            "finished": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            "points_played": len(p.pending),
            "games_played": played,
            "elapsed_s": round(elapsed, 3),
        }
    )
    manifest = dict(manifest)
    if "end_reason_info" not in manifest and manifest.get("end_reasons") == p.spec.end_reason_names:
        # A run begun before the manifest recorded them: the game is here now, so record its caps.
        manifest["end_reason_info"] = [r.to_dict() for r in p.spec.end_reasons]
    if rounds is not None:  # every point played the same first N games of the seed
        manifest["games_per_point"] = rounds.games[-1]
        manifest["precision"] = rounds.to_dict()
    manifest["sessions"] = [*manifest.get("sessions", []), session]
    manifest["complete"] = len(store.finished_points()) == p.n_points
    store.write_manifest(manifest)
    _, aggregates = open_run(p.out)
    return SweepResult(p.out, manifest, aggregates, len(p.pending), played, elapsed)


def interrupted(plans: Sequence[SweepPlan], out: Path) -> Interrupted:
    """What a Ctrl-C leaves of a sweep (or of a sweep per player list): the points saved."""
    from balance.store import RunDir

    saved = sum(len(RunDir(p.out).finished_points()) for p in plans)
    total = sum(p.n_points for p in plans)
    return Interrupted(
        f"{saved:,} of {total:,} point{'s' if total != 1 else ''} saved in {out}: --resume continues "
        f"(the same command with --out {out} --resume)"
    )


def check_sweep_precision(
    precision: float | None, max_games: int | None, *, several: bool, resume: bool, keep_games: bool, games: int | None
) -> None:
    """``--precision`` of a sweep: a valid half-width, one list of players, from the start."""
    from balance.precision import check_precision

    check_precision(precision, max_games)
    if precision is not None and (several or resume or keep_games or games is not None):
        raise UserError(
            "--precision plays one list of players from the start: leave out --games, --resume, --keep-games "
            "and a second --players (or --ladder)"
        )


def sweep(
    game: str | None = None,
    *,
    params: Mapping[str, Any] | None = None,
    games: int | None = None,
    players: str | Sequence[str] | None = None,
    seed: int | None = None,
    board: str | None = None,
    rotate_seats: bool | None = None,
    player_file: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    keep_games: bool | None = None,
    max_points: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    config: str | os.PathLike[str] | None = None,
    report: str | None = None,
    png: str | None = None,
    progress: Callable[[int], None] | None = None,
    device: str | None = None,
    player_sets: Sequence[str] | None = None,
    ladder: bool = False,
    seats: int | None = None,
    precision: float | None = None,
    max_games: int | None = None,
) -> SweepResult:
    """Play a grid of rule variants and store it (see :func:`plan` for the arguments).

    ``precision`` (points) plays every point in rounds of the same games until each
    seat's and player's 95% interval is at most that wide on each side
    (:mod:`balance.precision`), ``max_games`` at most.

    ``params`` maps a parameter name to a SPEC (``"8..14"``, ``"8,10"``), a list of
    values or one value.  Returns a :class:`SweepResult`; with ``report`` the HTML
    report (and its JSON twin) is written too.  ``player_sets`` (several player
    lists, ``["greedy,greedy", "mc,mc"]``) plays the same grid once per list
    (:func:`sweep_set`).

    >>> from balance.api import sweep
    >>> r = sweep("GAME", params={"car_cost": "8..14"}, games=100_000)  # doctest: +SKIP
    >>> balance.load(r.out)                                             # doctest: +SKIP
    """
    check_sweep_precision(precision, max_games, several=(player_sets is not None and len(player_sets) > 1) or ladder,
                          resume=resume, keep_games=bool(keep_games), games=games)
    kwargs = dict(
        params=params, games=games, seed=seed, board=board, rotate_seats=rotate_seats, player_file=player_file,
        keep_games=keep_games, max_points=max_points, threads=threads, scheduler=scheduler, chunk=chunk,
        config=config, device=device,
    )
    if ladder:
        if players is not None or player_sets:
            raise UserError("--ladder plays the game's ladder of players: leave out --players")
        player_sets = ladder_sets(game, seats)
    if player_sets is not None and len(player_sets) > 1:
        return sweep_set(game, player_sets, out=out, resume=resume, report=report, png=png, progress=progress, **kwargs)
    if player_sets:
        players = player_sets[0]
    p = plan(game, players=players, out=out, resume=resume, report=report, png=png, **kwargs)
    p.precision, p.max_games = precision, max_games
    return finish(p, progress=progress)


def ladder_sets(game: str | None, seats: int | None = None) -> list[str]:
    """The ladder of players (``GameSpec.ladder``: the best heuristic, the
    trained one, mc), each in every one of ``seats`` seats (default: as many
    as the game's default players), as player lists for a sweep."""
    from balance.config import default_game
    from balance.registry import get_game

    spec = get_game(game or default_game())
    n = len(spec.default_players) if seats is None else int(seats)
    if not spec.min_players <= n <= spec.max_players:
        raise UserError(f"--seats {n}: {spec.name} plays with {spec.min_players} to {spec.max_players}")
    return [",".join([rung] * n) for rung in spec.ladder()]


SET_MANIFEST = "sweep-set.json"


def set_plans(
    game: str | None,
    player_sets: Sequence[str],
    *,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    command: str | None = None,
    **kwargs: Any,
) -> tuple[Path, list[SweepPlan]]:
    """One plan per player list, each in ``OUT/players-<i>``; every plan is
    validated before anything is written."""
    if len(set(player_sets)) != len(player_sets):
        raise UserError("--players: the same player list given twice")
    folder = Path(out) if out is not None else _default_out(game or "sweep")
    if folder.exists() and not resume and any(folder.iterdir()):
        raise UserError(f"--out {folder}: already holds a run; add --resume to continue it, or choose another --out")
    plans = [
        plan(game, players=text, out=folder / f"players-{i}", resume=resume, command=command, **kwargs)
        for i, text in enumerate(player_sets)
    ]
    counts = {len(p.players) for p in plans}
    if len(counts) > 1:
        raise UserError("--players: every player list of a sweep needs the same number of seats")
    return folder, plans


def write_set_manifest(folder: Path, plans: Sequence[SweepPlan], command: str | None) -> None:
    """``OUT/sweep-set.json``: which player list each sub-run plays."""
    from balance.store import atomic_write_json

    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_json(
        folder / SET_MANIFEST,
        {
            "kind": "sweep-set",
            "game": plans[0].game,
            "players": [list(p.players) for p in plans],
            "runs": [p.out.name for p in plans],
            "command": command or plans[0].command,
        },
    )


def sweep_set(
    game: str | None,
    player_sets: Sequence[str],
    *,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    report: str | None = None,
    png: str | None = None,
    progress: Callable[[int], None] | None = None,
    command: str | None = None,
    **kwargs: Any,
) -> SweepResult:
    """The same grid played by each list of players (common random numbers across
    lists too), stored side by side in ``OUT/players-<i>``; the report compares
    them and says where a finding changes sign between players."""
    folder, plans = set_plans(game, player_sets, out=out, resume=resume, command=command, **kwargs)
    write_set_manifest(folder, plans, command)
    try:
        results = [run_plan(p, progress=progress) for p in plans]
    except KeyboardInterrupt:
        raise interrupted(plans, folder) from None
    total = SweepResult(
        folder,
        {"kind": "sweep-set", "runs": [r.manifest for r in results]},
        {},
        sum(r.points_played for r in results),
        sum(r.games_played for r in results),
        sum(r.elapsed_s for r in results),
    )
    if report or png:
        from balance.report import report as write_report

        written = write_report(folder, report, png=png)
        total.report = written.html if report else None
        total.png = written.png
    return total


def finish(
    p: SweepPlan,
    progress: Callable[[int], None] | None = None,
    on_point: Callable[[int, int], None] | None = None,
) -> SweepResult:
    """Run a plan, then write its report when the plan asks for one."""
    result = run_plan(p, progress=progress, on_point=on_point)
    if p.report or p.png:
        from balance.report import report

        written = report(p.out, p.report, png=p.png)
        result.report = written.html if p.report else None
        result.png = written.png
    return result


def command_line() -> str:
    """This process's command line as the user typed it (``balance sweep ...``)."""
    argv = list(sys.argv)
    prog = Path(argv[0]).name if argv else "balance"
    if prog in ("__main__.py", "-m"):
        prog = "balance"
    return shlex.join([prog if prog == "balance" else "balance", *argv[1:]])
