"""Which rules matter: global sensitivity of the headline metrics to the rule parameters.

``balance sensitivity GAME [--param NAME=LOW..HIGH ...] [--metric NAME ...]``
plays three designs, every point on the same games ``0 .. G-1`` of the master
seed (common random numbers: two points differ by their rules, not their dice):

1. **One at a time** (the tornado): the rules at their current values, then
   each parameter alone at the low and at the high end of its range; every
   figure with its 95% interval and n.
2. **Morris screening** (SALib): ``r`` trajectories of ``k + 1`` points over
   every parameter's range: the one given, else half to twice its current
   value inside its allowed range (``span="local"``; a parameter at 0 is held:
   0 is often a switch, "off" or "no limit"), or its whole allowed range
   (``span="allowed"``);
   ``mu*`` (the mean absolute elementary effect, in the metric's unit per full
   range) ranks the parameters, with a bootstrap 95% interval.  A trajectory
   through a combination the game refuses is dropped before anything is played.
3. **Sobol indices** (SALib, Saltelli's design) for the few parameters that
   matter (``mu*`` at least a tenth of the largest, for some metric; at most
   ``--sobol-params``): first-order ``S1`` (the share of the metric's variance
   one parameter explains alone) and total-order ``ST`` (with its
   interactions), each with a bootstrap 95% interval; the others held.

The headline metrics: ``first_seat_edge`` (seat 0's win rate minus the fair
share 1/seats), ``turns_mean``, every end reason's share ``end_reason[NAME]``,
and each player's win rate ``strategy_win_rate[NAME]`` when the line-up seats
different players (who then rotate through the seats, every seating equally
often, so that the first seat's edge is the seat's and not its player's); ``--metric`` picks others (``seat_win_rate[1]``,
``turns_median``, ``no_winner_rate``).

The cost (points × games) is known before a game is played (``plan``) and
shown; the points are kept in ``points.jsonl`` as they finish, so Ctrl-C loses
at most the points in flight and ``--resume`` goes on.  Run folder:
``manifest.json``, ``points.jsonl``, ``sensitivity.json`` and ``report.html``
(:mod:`balance.sensitivitypage`).  SALib is imported only here, when a
sensitivity runs.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance.errors import Interrupted, UserError

DEFAULT_GAMES = 1000  # per point
DEFAULT_TRAJECTORIES = 10
LEVELS = 4  # Morris's grid: 4 levels, a jump of 2/3 of the range
DEFAULT_SOBOL_N = 64  # Saltelli base sample (a power of 2): N * (k + 2) points
DEFAULT_SOBOL_PARAMS = 4
MATTER = 0.1  # mu* at least this share of the largest for a metric: the parameter matters for it
RESAMPLES = 1000  # bootstrap resamples of the indices' intervals
FORMAT = 1
PHASES = ("oat", "morris", "sobol")
RESUME_KEYS = ("game", "players", "rotate_seats", "span", "factors", "held", "metrics", "games", "seed", "trajectories", "sobol_n",
               "sobol_params", "board", "player_file")


# --------------------------------------------------------------------------- factors
@dataclass(frozen=True)
class Factor:
    """One parameter over its range: ``bounds`` on SALib's scale, ``value`` back to the rule."""

    name: str
    kind: str
    low: Any
    high: Any
    step: int = 1
    values: tuple[Any, ...] = ()  # bool, choice or a given set: SALib's scale is the index in [0, len)

    @property
    def bounds(self) -> list[float]:
        if self.values:
            return [0.0, float(len(self.values))]
        return [float(self.low), float(self.high)]

    def value(self, x: float) -> Any:
        if self.values:
            return self.values[min(int(math.floor(x)), len(self.values) - 1)]
        if self.kind == "int":
            k = round((x - self.low) / self.step)
            return int(min(self.high, max(self.low, self.low + k * self.step)))
        return float(min(self.high, max(self.low, x)))

    def describe(self) -> str:
        if self.values:
            return "{" + ", ".join(_text(v) for v in self.values) + "}"
        return f"{_text(self.low)}..{_text(self.high)}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "low": self.low, "high": self.high, "step": self.step,
                "values": list(self.values) or None, "range": self.describe()}


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


SPANS = ("local", "allowed")


def local_range(p: Any, value: Any) -> tuple[Any, Any] | None:
    """Half to twice the current value, inside the allowed range; None when that
    is one value (a value of 0, often a switch: 0 = off or no limit, is varied only
    over a range given)."""
    lo_allowed = -math.inf if p.low is None else p.low
    hi_allowed = math.inf if p.high is None else p.high
    lo, hi = sorted((value / 2, value * 2))
    lo, hi = max(lo_allowed, lo), min(hi_allowed, hi)
    if p.kind == "int":
        step = int(p.step or 1)
        base = 0 if p.low is None else int(p.low)
        lo = base + math.ceil((lo - base) / step) * step
        hi = base + math.floor((hi - base) / step) * step
        lo, hi = int(lo), int(hi)
    return None if hi <= lo else (lo, hi)


def factors_for(spec: Any, given: Mapping[str, str], span: str = "local",
                current: Mapping[str, Any] | None = None) -> tuple[list[Factor], dict[str, Any], list[str]]:
    """The factors (every declared parameter over its span, or the ranges given),
    the values held (``NAME=V``) and the parameters left out (no range to vary).

    ``span="local"``: half to twice the current value, inside the allowed range;
    ``"allowed"``: the whole declared range.  A bool or choice takes all its values."""
    from balance.sweep import parse_spec

    if span not in SPANS:
        raise UserError(f"--span {span}: allowed: {', '.join(SPANS)}")
    current = current or {}

    for name in given:
        spec.param(name)  # a UserError naming the allowed ones
    out: list[Factor] = []
    held: dict[str, Any] = {}
    left: list[str] = []
    for p in spec.params:
        text = given.get(p.name)
        if text is None:
            if p.kind == "bool":
                out.append(Factor(p.name, p.kind, False, True, values=(False, True)))
            elif p.kind == "choice":
                out.append(Factor(p.name, p.kind, None, None, values=tuple(p.choices)))
            elif span == "local":
                ends = local_range(p, current.get(p.name, p.default))
                if ends is None:
                    left.append(p.name)
                else:
                    out.append(Factor(p.name, p.kind, ends[0], ends[1], int(p.step or 1) if p.kind == "int" else 1))
            elif p.low is None or p.high is None or p.high <= p.low:
                left.append(p.name)
            else:
                step = int(p.step or 1) if p.kind == "int" else 1
                out.append(Factor(p.name, p.kind, p.low, p.high, step))
            continue
        if ".." in text and p.kind in ("int", "float"):
            lo_t, _, hi_t = text.partition("..")
            try:
                lo, hi = p.parse(lo_t), p.parse(hi_t)
            except UserError as exc:
                raise UserError(f"--param {p.name}={text}: {exc}") from None
            if hi <= lo:
                raise UserError(f"--param {p.name}={text}: expected LOW..HIGH with LOW < HIGH ({p.allowed})")
            out.append(Factor(p.name, p.kind, lo, hi, int(p.step or 1) if p.kind == "int" else 1))
            continue
        values = parse_spec(p, text)
        if len(values) == 1:
            held[p.name] = values[0]
        else:
            out.append(Factor(p.name, p.kind, None, None, values=tuple(values)))
    if not out:
        raise UserError("--param holds every parameter: nothing to vary")
    return out, held, left


# --------------------------------------------------------------------------- metrics
def headline_metrics(spec: Any, strategies: Sequence[str]) -> list[str]:
    names = ["first_seat_edge", "turns_mean"] + [f"end_reason[{r}]" for r in spec.end_reason_names]
    if len(strategies) > 1:
        names += [f"strategy_win_rate[{s}]" for s in strategies]
    return names


def metric_values(counts: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Every metric of a point's counts: value, 95% interval, n, kind (and first_seat_edge)."""
    from balance.check.metrics import metrics_of

    out = {name: {"value": m.value, "ci95": list(m.ci95), "n": m.n, "kind": m.kind}
           for name, m in metrics_of(counts).items()}
    seat0 = out["seat_win_rate[0]"]
    fair = 1.0 / len(counts["seat_wins"])
    out["first_seat_edge"] = {"value": seat0["value"] - fair, "ci95": [seat0["ci95"][0] - fair, seat0["ci95"][1] - fair],
                              "n": seat0["n"], "kind": "difference"}
    return out


def known_metrics(spec: Any, strategies: Sequence[str], seats: int) -> list[str]:
    from balance.check.metrics import QUANTILES

    names = ["first_seat_edge", "turns_mean", *QUANTILES, "no_winner_rate"]
    names += [f"seat_win_rate[{s}]" for s in range(seats)]
    names += [f"end_reason[{r}]" for r in spec.end_reason_names]
    if len(strategies) > 1:
        names += [f"strategy_win_rate[{s}]" for s in strategies]
    return names


# --------------------------------------------------------------------------- the plan
def _seed32(seed: int, salt: int) -> int:
    from balance.studies import splitmix64

    return splitmix64(seed ^ salt) >> 33


def morris_design(factors: Sequence[Factor], trajectories: int, seed: int) -> Any:
    from SALib.sample import morris

    problem = {"num_vars": len(factors), "names": [f.name for f in factors], "bounds": [f.bounds for f in factors]}
    return morris.sample(problem, trajectories, num_levels=LEVELS, seed=_seed32(seed, 0x5A11B))


def sobol_design(factors: Sequence[Factor], n: int, seed: int) -> Any:
    import warnings

    from SALib.sample import sobol

    problem = {"num_vars": len(factors), "names": [f.name for f in factors], "bounds": [f.bounds for f in factors]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SALib warns when N is not a power of 2; we check it ourselves
        return sobol.sample(problem, n, calc_second_order=False, seed=_seed32(seed, 0x50B01))


def _rules(factors: Sequence[Factor], row: Sequence[float], base: Mapping[str, Any]) -> dict[str, Any]:
    return {**base, **{f.name: f.value(x) for f, x in zip(factors, row)}}


def oat_points(factors: Sequence[Factor], base: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The current rules, then each factor alone at its low and its high end."""
    points = [dict(base)]
    for f in factors:
        lo = f.values[0] if f.values else f.low
        hi = f.values[-1] if f.values else f.high
        points += [{**base, f.name: lo}, {**base, f.name: hi}]
    return points


# --------------------------------------------------------------------------- result
@dataclass
class SensitivityResult:
    out: Path
    manifest: dict[str, Any]
    figures: dict[str, Any] = field(default_factory=dict)
    elapsed_s: float = 0.0
    html: Path | None = None

    def ranking(self, metric: str) -> list[str]:
        """The parameters from most to least influential on ``metric`` (Morris mu*)."""
        return [r["name"] for r in self.figures["metrics"][metric]["morris"]]

    def to_dict(self) -> dict[str, Any]:
        return {**self.figures, "out": str(self.out), "elapsed_s": self.elapsed_s}


# --------------------------------------------------------------------------- the run
def sensitivity(
    game: str | None = None,
    *,
    params: Sequence[str] | Mapping[str, str] | None = None,
    metrics: Sequence[str] | None = None,
    players: str | Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    trajectories: int = DEFAULT_TRAJECTORIES,
    sobol_n: int = DEFAULT_SOBOL_N,
    sobol_params: int = DEFAULT_SOBOL_PARAMS,
    seed: int = 0,
    span: str = "local",
    board: str | None = None,
    player_file: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    report: bool = True,
    command: str | None = None,
    on_plan: Callable[[Mapping[str, Any]], None] | None = None,
    on_games: Callable[[int], None] | None = None,
    on_point: Callable[[Mapping[str, Any]], None] | None = None,
) -> SensitivityResult:
    """Rank the rule parameters by their effect on each headline metric.

    >>> import balance.api
    >>> r = balance.api.sensitivity("GAME", params=["car_cost=6..16"])    # doctest: +SKIP
    >>> r.ranking("first_seat_edge")                                       # doctest: +SKIP

    ``on_plan(cost)`` before anything is played (the points and games of each
    design), ``on_games(n)`` as games finish, ``on_point(event)`` as points do.
    """
    from balance.config import default_game
    from balance.registry import get_game
    from balance.runspec import RunSpec, check_games, check_seed, split_players
    from balance.studies import check_folder
    from balance.train import parse_space

    check_games(games)
    check_seed(seed)
    for name, value, least in (("--trajectories", trajectories, 2), ("--sobol-n", sobol_n, 2),
                               ("--sobol-params", sobol_params, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UserError(f"{name} {value}: expected a whole number of at least {least}")
    if sobol_n & (sobol_n - 1):
        raise UserError(f"--sobol-n {sobol_n}: expected a power of 2 (Sobol's sequence), e.g. 64")
    spec = get_game(game or default_game())
    given = parse_space(params) if not isinstance(params, Mapping) else {str(k): str(v) for k, v in params.items()}
    held_first = {}
    for name, text in given.items():  # the values held set the current rules the local spans are around
        if ".." not in text and "," not in text:
            held_first[name] = spec.param(name).parse(text)
    factors, held, left = factors_for(spec, given, span, spec.resolve_params(held_first))
    base = spec.resolve_params(held)
    names = list(split_players(players)) if players is not None else list(spec.default_players)
    resolved = RunSpec(spec.name, tuple(base.items()), tuple(names), seed, games, False, board, player_file).resolved()
    # Different players rotate through the seats: the first seat's edge is then the seat's, not its player's.
    rotate = len(resolved.strategies) > 1
    if rotate:
        seatings = len(RunSpec(spec.name, tuple(base.items()), tuple(names), seed, games, True, board,
                               player_file).resolved().seatings)
        if games % seatings:
            raise UserError(f"--games {games}: expected a multiple of {seatings} (the seatings of "
                            f"{','.join(names)}, which rotate)")
    allowed = known_metrics(spec, resolved.labels, len(names))
    chosen = list(metrics) if metrics else headline_metrics(spec, resolved.labels)
    for m in chosen:
        if m not in allowed:
            raise UserError(f"--metric {m}: unknown; allowed: {', '.join(allowed)}")
    if len(set(chosen)) < len(chosen):
        raise UserError("--metric: a metric given twice")

    # ----- the designs, and the cost before anything is played
    morris_x = morris_design(factors, trajectories, seed)
    k = len(factors)
    keep = []
    refused = None
    for t in range(trajectories):
        rows = morris_x[t * (k + 1):(t + 1) * (k + 1)]
        try:
            for row in rows:
                spec.resolve_params(_rules(factors, row, base))
            keep.append(t)
        except UserError as exc:
            refused = refused or str(exc)
    if len(keep) < 2:
        raise UserError(f"the game refuses the combinations of {trajectories - len(keep)} of {trajectories} "
                        f"trajectories ({refused}); narrow the ranges with --param")
    oat = oat_points(factors, base)
    for p in oat:
        spec.resolve_params(p)
    n_sobol = min(sobol_params, k)
    cost = {"oat": len(oat), "morris": len(keep) * (k + 1), "sobol_at_most": sobol_n * (n_sobol + 2) if n_sobol else 0,
            "games_per_point": games}
    cost["games_at_most"] = (cost["oat"] + cost["morris"] + cost["sobol_at_most"]) * games
    folder = Path(out) if out is not None else (
        Path("runs") / f"{spec.name}-sensitivity-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}")
    manifest = {
        "format": FORMAT, "kind": "sensitivity", "game": spec.name, "players": names, "rotate_seats": rotate,
        "factors": [f.to_dict() for f in factors], "held": {k_: v for k_, v in base.items()
                                                             if k_ not in {f.name for f in factors}},
        "left_out": left, "span": span, "metrics": chosen, "games": games, "seed": seed, "trajectories": trajectories,
        "trajectories_kept": len(keep), "refused": refused, "sobol_n": sobol_n, "sobol_params": sobol_params,
        "board": str(Path(board).resolve()) if board else None,
        "player_file": str(Path(player_file).resolve()) if player_file else None,
        "cost": cost, "command": command,
    }
    check_folder(folder, manifest, RESUME_KEYS, resume, "sensitivity run")

    from balance.executors import make_executor
    from balance.store import atomic_write_json

    start = time.perf_counter()
    try:
        with make_executor(threads, scheduler) as executor:  # --threads and a scheduler checked before anything is said
            if on_plan is not None:
                on_plan(cost)
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_json(folder / "manifest.json", manifest)
            player = _Player(spec, names, rotate, seed, games, manifest["board"], manifest["player_file"], executor, chunk,
                             folder, on_games, on_point)
            oat_counts = player.play("oat", oat)
            rows = [r for t in keep for r in morris_x[t * (k + 1):(t + 1) * (k + 1)]]
            morris_points = [_rules(factors, r, base) for r in rows]
            morris_counts = player.play("morris", morris_points)
            figures = _morris(factors, rows, morris_counts, chosen, seed)
            selected = _select(figures, chosen, factors, n_sobol)
            sobol = None
            if selected:
                sel = [f for f in factors if f.name in selected]
                sx = sobol_design(sel, sobol_n, seed)
                sobol_points = [_rules(sel, r, base) for r in sx]
                bad = None
                for p in sobol_points:
                    try:
                        spec.resolve_params(p)
                    except UserError as exc:
                        bad = str(exc)
                        break
                if bad is None:
                    sobol = _sobol(sel, player.play("sobol", sobol_points), chosen, seed)
                else:
                    sobol = {"note": f"not computed: the game refuses some of its points ({bad}); narrow with --param"}
        out_figures = _figures(manifest, factors, oat, oat_counts, figures, selected, sobol, chosen, len(keep), k)
        result = SensitivityResult(folder, manifest, out_figures, time.perf_counter() - start)
        atomic_write_json(folder / "sensitivity.json", out_figures)
        if report:
            from balance.sensitivitypage import write_html

            result.html = write_html(folder, manifest, out_figures)
    except Interrupted:
        raise
    except KeyboardInterrupt:  # between two kernel calls (a design, an analysis, the page): the points stay
        points = folder / "points.jsonl"
        n = len(points.read_text(encoding="utf-8").splitlines()) if points.is_file() else 0
        raise Interrupted(f"{n} points kept in {points}; continue with --resume --out {folder}" if n
                          else "nothing written") from None
    return result


class _Player:
    """Plays points through the executor, keeping each in ``points.jsonl`` as it finishes."""

    def __init__(self, spec, names, rotate, seed, games, board, player_file, executor, chunk, folder, on_games,
                 on_point):
        self.spec, self.names, self.rotate, self.seed, self.games = spec, names, rotate, seed, games
        self.board, self.player_file, self.executor, self.chunk = board, player_file, executor, chunk
        self.path = folder / "points.jsonl"
        self.on_games, self.on_point = on_games, on_point
        self.kept: dict[tuple[str, int], dict[str, Any]] = {}
        if self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rec = json.loads(line)
                    self.kept[(rec["phase"], rec["index"])] = rec

    def play(self, phase: str, points: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        from balance.check.metrics import counts_of
        from balance.runner import tasks_for
        from balance.runspec import RunSpec

        runs = [RunSpec(self.spec.name, tuple(p.items()), tuple(self.names), self.seed, self.games, self.rotate,
                        self.board,
                        self.player_file) for p in points]
        for i, p in enumerate(points):
            rec = self.kept.get((phase, i))
            if rec is not None and rec["rules"] != json.loads(json.dumps(dict(p))):
                raise UserError(f"{self.path}: point {i} of {phase} was played under other rules; "
                                "start a new --out (SALib's designs changed?)")
        todo = [i for i in range(len(points)) if (phase, i) not in self.kept]
        tasks = [t for i in todo for t in tasks_for(runs[i], self.chunk, point=i)]
        remaining = {i: self.games for i in todo}  # games, not tasks: an executor may yield a task in slices
        partial: dict[int, Any] = {}
        labels = runs[0].resolved().labels if runs else []
        try:
            with open(self.path, "a", encoding="utf-8") as fh:
                for task, agg in self.executor.map_unordered(tasks):
                    i = task.point
                    partial[i] = partial[i].merge(agg) if i in partial else agg
                    remaining[i] -= task.n_games
                    if self.on_games is not None:
                        self.on_games(agg.games)
                    if remaining[i] == 0:
                        rec = {"phase": phase, "index": i, "rules": json.loads(json.dumps(dict(points[i]))),
                               "counts": counts_of(partial.pop(i), labels, self.spec.end_reason_names)}
                        fh.write(json.dumps(rec) + "\n")
                        fh.flush()
                        self.kept[(phase, i)] = rec
                        if self.on_point is not None:
                            self.on_point({"phase": phase, "done": sum(1 for k in self.kept if k[0] == phase),
                                           "total": len(points)})
        except KeyboardInterrupt:
            raise Interrupted(f"{len(self.kept)} points kept in {self.path}; continue with --resume --out "
                              f"{self.path.parent}") from None
        return [self.kept[(phase, i)]["counts"] for i in range(len(points))]


# --------------------------------------------------------------------------- the analyses
def _column(counts: Sequence[Mapping[str, Any]], metric: str) -> list[float]:
    return [metric_values(c)[metric]["value"] for c in counts]


def _morris(factors, rows, counts, metrics, seed) -> dict[str, list[dict[str, Any]]]:
    import numpy as np
    from SALib.analyze import morris

    problem = {"num_vars": len(factors), "names": [f.name for f in factors], "bounds": [f.bounds for f in factors]}
    x = np.asarray(rows, dtype=float)
    out = {}
    for m in metrics:
        y = np.asarray(_column(counts, m), dtype=float)
        res = morris.analyze(problem, x, y, num_resamples=RESAMPLES, conf_level=0.95, num_levels=LEVELS,
                             seed=_seed32(seed, 0xB007))
        table = []
        for i, f in enumerate(factors):
            mu_star, conf = float(res["mu_star"][i]), float(res["mu_star_conf"][i])
            table.append({"name": f.name, "mu_star": mu_star, "ci95": [max(0.0, mu_star - conf), mu_star + conf],
                          "mu": float(res["mu"][i]), "sigma": float(res["sigma"][i])})
        out[m] = sorted(table, key=lambda r: (-r["mu_star"], r["name"]))
    return out


def _select(morris_tables, metrics, factors, most: int) -> list[str]:
    """The parameters that matter: mu* a tenth of the largest for some metric, its
    interval clear of zero; the most influential first, at most ``most``."""
    if most == 0:
        return []
    weight: dict[str, float] = {}
    for m in metrics:
        table = morris_tables[m]
        top = max(r["mu_star"] for r in table)
        if top <= 0:
            continue
        for r in table:
            if r["mu_star"] >= MATTER * top and r["ci95"][0] > 0:
                weight[r["name"]] = max(weight.get(r["name"], 0.0), r["mu_star"] / top)
    order = sorted(weight, key=lambda n: (-weight[n], [f.name for f in factors].index(n)))
    return order[:most]


def _sobol(sel, counts, metrics, seed) -> dict[str, Any]:
    import warnings

    import numpy as np
    from SALib.analyze import sobol

    problem = {"num_vars": len(sel), "names": [f.name for f in sel], "bounds": [f.bounds for f in sel]}
    out: dict[str, Any] = {"params": [f.name for f in sel], "points": len(counts), "metrics": {}}
    for m in metrics:
        y = np.asarray(_column(counts, m), dtype=float)
        if float(np.var(y)) == 0.0:
            out["metrics"][m] = {"note": "the metric is the same at every point", "indices": [
                {"name": f.name, "S1": 0.0, "S1_ci95": [0.0, 0.0], "ST": 0.0, "ST_ci95": [0.0, 0.0]} for f in sel]}
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = sobol.analyze(problem, y, calc_second_order=False, num_resamples=RESAMPLES, conf_level=0.95,
                                seed=_seed32(seed, 0x5E0B))
        rows = []
        for i, f in enumerate(sel):
            s1, c1, st, ct = (float(res[k][i]) for k in ("S1", "S1_conf", "ST", "ST_conf"))
            rows.append({"name": f.name, "S1": s1, "S1_ci95": [s1 - c1, s1 + c1], "ST": st, "ST_ci95": [st - ct, st + ct]})
        out["metrics"][m] = {"note": None, "indices": sorted(rows, key=lambda r: (-r["ST"], r["name"]))}
    return out


def _figures(manifest, factors, oat, oat_counts, morris_tables, selected, sobol, metrics, kept, k) -> dict[str, Any]:
    base_vals = metric_values(oat_counts[0])
    per: dict[str, Any] = {}
    for m in metrics:
        swings = []
        for j, f in enumerate(factors):
            lo, hi = metric_values(oat_counts[1 + 2 * j])[m], metric_values(oat_counts[2 + 2 * j])[m]
            swings.append({"name": f.name, "low": oat[1 + 2 * j][f.name], "high": oat[2 + 2 * j][f.name],
                           "at_low": lo, "at_high": hi, "swing": abs(hi["value"] - lo["value"])})
        per[m] = {
            "baseline": base_vals[m],
            "tornado": sorted(swings, key=lambda r: (-r["swing"], r["name"])),
            "morris": morris_tables[m],
            "sobol": None if sobol is None or "metrics" not in sobol else sobol["metrics"][m],
        }
    figures = {
        "game": manifest["game"], "players": manifest["players"], "rotate_seats": manifest["rotate_seats"], "seed": manifest["seed"],
        "games_per_point": manifest["games"], "factors": manifest["factors"], "held": manifest["held"],
        "left_out": manifest["left_out"], "metrics": per, "selected": selected,
        "sobol_note": None if sobol is None else sobol.get("note"),
        "sobol_points": None if sobol is None else sobol.get("points"),
        "trajectories": manifest["trajectories"], "trajectories_kept": kept, "refused": manifest["refused"],
        "cost": manifest["cost"],
        "points": len(oat) + kept * (k + 1) + (sobol.get("points", 0) if sobol else 0),
    }
    figures["games_played"] = figures["points"] * manifest["games"]
    figures["findings"] = findings(figures)
    return figures


def _show(metric: str, v: float) -> str:
    from balance import format as fmt

    if metric.startswith("turns"):
        return f"{v:.2f} turns"
    return fmt.points(v, sign=False) + " points"


def findings(f: Mapping[str, Any]) -> list[str]:
    """Each metric's ranking in plain words, with its interval and the games behind it."""
    out = []
    n = f["games_per_point"]
    for m, d in f["metrics"].items():
        table = d["morris"]
        top = table[0]
        if top["mu_star"] <= 0:
            out.append(f"{m}: no parameter moves it within the ranges screened ({n:,} games per point).")
            continue
        line = (f"{m}: {top['name']} matters most (Morris mu* {_show(m, top['mu_star'])}, 95% CI "
                f"{_show(m, top['ci95'][0])} to {_show(m, top['ci95'][1])}")
        rest = [r for r in table[1:3] if r["mu_star"] > 0]
        if rest:
            line += "; then " + ", ".join(f"{r['name']} ({_show(m, r['mu_star'])})" for r in rest)
        line += f"; {f['trajectories_kept']} trajectories of {n:,} games per point)"
        s = d.get("sobol")
        if s and s.get("indices") and s.get("note") is None:
            best = s["indices"][0]
            line += (f"; Sobol: {best['name']} explains {best['S1']:.0%} of its variance alone (95% CI "
                     f"{best['S1_ci95'][0]:.0%} to {best['S1_ci95'][1]:.0%}), {best['ST']:.0%} with its interactions")
        out.append(line + ".")
    none = [fa["name"] for fa in f["factors"]
            if all(next(r for r in d["morris"] if r["name"] == fa["name"])["ci95"][0] <= 0 for d in f["metrics"].values())]
    if none:
        out.append(f"No effect told apart from zero on any metric: {', '.join(none)}.")
    return out
