"""Tuned rules: rule values that meet the balance targets for every listed line-up.

``balance tune GAME --param car_cost=6..16 --param start_money=5..20
--target seat_win_rate=0.48..0.52 --target turns_median=18..24
--players greedy,greedy --players mc,mc`` searches the rule parameters given as
ranges (``LOW..HIGH``) or sets (``A,B,C``) with Optuna's TPE sampler; a
``--param NAME=V`` holds a rule at V.  The targets are the command's
``--target``s, else the ``[targets]`` of ``./balance.toml`` (for this game).

* **A trial** is one setting of the searched rules, played by every line-up of
  ``--players`` on games ``0 .. g-1`` of the master seed: every trial plays the
  same deals (common random numbers).  Each target's objective is the worst,
  over the line-ups and the metrics it covers (``seat_win_rate`` covers every
  seat), of the figure's distance from the middle of its band in half-widths:
  at most 1 means inside the band, 0 its middle (a band that starts at 0, or a
  share's band that ends at 1, aims at that end instead).  One target: a
  single-objective study; several: a multi-objective one (TPE), whose Pareto
  front is the trade-off when no setting meets them all.
* **Rungs** (successive halving, asynchronous): a trial plays ``rungs[0]``
  games per line-up; it goes on to the next rung (the games up to
  ``rungs[1]``, the earlier ones kept: the same game indices) only when its
  score, the worst of its objectives, is among the best ``1/ETA`` of the
  trials that reached that rung before it.  A trial is told its objectives at
  the last rung it played.
* **The study** lives in ``study.db`` (SQLite, :mod:`balance.studies`): Ctrl-C
  loses at most the trial in flight, and ``--resume`` continues (more
  ``--trials`` allowed).  The sampler is seeded afresh per trial, so a resumed
  study proposes what an unbroken one would have.
* **Confirmation** (the winner's curse): the best ``--confirm-top`` distinct
  settings are played again by every line-up on a fresh master seed (never the
  tuning seed) with ``--confirm-games`` games each, kept in ``confirm.json`` as
  they finish.  A setting *meets* the targets when every target's figure, for
  every line-up, has its 95% interval inside the band (``balance check``'s
  reading).  The answer is the best confirmed setting that meets them all, or
  else the nearest miss and the targets it fails.

Run folder: ``manifest.json``, ``study.db``, ``confirm.json``, ``tuned.json``
(every figure) and ``report.html`` (:mod:`balance.tunepage`).
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
from types import SimpleNamespace
from typing import Any

from balance.errors import Interrupted, UserError

DEFAULT_TRIALS = 30
DEFAULT_RUNGS = (100, 400, 1600)  # games per line-up at each rung
ETA = 4  # successive halving: the best 1/ETA of a rung go on to the next
DEFAULT_CONFIRM_TOP = 2
DEFAULT_CONFIRM_GAMES = 6000  # per line-up: a Wilson half-width of 1.3 points at 50%
STARTUP_TRIALS = 8  # TPE's random start (the current rules are the first trial when searched)
FORMAT = 1
STUDY_NAME = "tune"
INVALID = 1e6  # the objective of a setting the game refuses (its reason is the trial's "invalid")
RESUME_KEYS = (
    "game", "lineups", "targets", "space", "fixed", "rungs", "eta", "seed", "board", "player_file",
    "confirm_top", "confirm_games", "confirm_seed",
)


# --------------------------------------------------------------------------- targets
def parse_target_options(items: Sequence[str] | None) -> dict[str, list[float]]:
    """``["seat_win_rate=0.48..0.52", "end_reason.gridlock=0..0.01"]`` as a
    ``[targets]`` table (read by :func:`balance.config.parse_targets`)."""
    out: dict[str, Any] = {}
    for item in items or ():
        key, eq, text = str(item).partition("=")
        key, text = key.strip(), text.strip()
        lo, dots, hi = text.partition("..")
        try:
            band = [_number(lo), _number(hi)] if dots else None
        except ValueError:
            band = None
        if not eq or not key or band is None:
            raise UserError(f"--target {item!r}: expected NAME=LOW..HIGH, e.g. seat_win_rate=0.48..0.52")
        if key.startswith("end_reason."):
            table = out.setdefault("end_reason", {})
            reason = key.split(".", 1)[1]
            if reason in table:
                raise UserError(f"--target {key} given twice")
            table[reason] = band
        else:
            if key in out:
                raise UserError(f"--target {key} given twice")
            out[key] = band
    return out


def _number(text: str) -> float | int:
    text = text.strip()
    return int(text) if text.lstrip("+-").isdigit() else float(text)


def check_targets(bands: Mapping[str, Any], spec: Any, lineups: Sequence[Any], where: str) -> None:
    """Refuse targets no rules can meet: an empty band, seats' win rates that
    cannot add up, end reasons' shares above one in all, a player's win rate
    with no line-up of two players."""
    for key, band in bands.items():
        if band.high <= band.low:
            raise UserError(f"{where} {key}={band.low:g}..{band.high:g}: an empty band (no interval fits inside it); "
                            "give LOW < HIGH")
    seats = min(len(r.seat_index) for r in lineups)
    if "seat_win_rate" in bands and bands["seat_win_rate"].low * seats > 1 + 1e-12:
        b = bands["seat_win_rate"]
        raise UserError(f"{where} seat_win_rate={b.low:g}..{b.high:g}: impossible: {seats} seats' win rates add up "
                        f"to at most 1, so each can be at least {1 / seats:.3g} only")
    reasons = [k for k in bands if k.startswith("end_reason.")]
    if sum(bands[k].low for k in reasons) > 1 + 1e-12:
        raise UserError(f"{where} {', '.join(reasons)}: impossible: the end reasons' shares add up to 1, "
                        "and these lower ends add up to more")
    if "strategy_win_rate" in bands and not any(len(r.strategies) > 1 for r in lineups):
        raise UserError(f"{where} strategy_win_rate: every line-up seats one player only; "
                        "a player's win rate needs a line-up of two different players")


def offset(value: float, low: float, high: float, kind: str = "proportion") -> float:
    """The distance of ``value`` from the band's aim, in units that put the band's
    edges at 1 (at most 1: inside).  The aim is the middle of the band, or the end
    of it that is the figure's own bound (0 for any figure, 1 for a share): a band
    ``0..0.01`` of gridlocks aims at none, not at half a percent."""
    if low <= 0:
        return max(0.0, value - low) / (high - low)
    if kind == "proportion" and high >= 1:
        return max(0.0, high - value) / (high - low)
    half = (high - low) / 2
    return abs(value - (low + high) / 2) / half


# --------------------------------------------------------------------------- playing
@dataclass
class _Plan:
    """What every trial shares: the game, the line-ups, the targets, where to play."""

    spec: Any
    lineups: list[Any]  # Resolved, one per --players
    bands: dict[str, Any]  # target key -> Band
    board: str | None
    player_file: str | None
    executor: Any
    chunk: int | None
    on_games: Callable[[int], None] | None

    @property
    def keys(self) -> list[str]:
        return list(self.bands)

    def play(self, rules: Mapping[str, Any], seed: int, first: int, n: int) -> list[Any]:
        """Games ``first .. first+n-1`` of ``seed`` under ``rules`` by every line-up: one Aggregate each."""
        from balance.runner import Task, execute, split
        from balance.runspec import RunSpec

        tasks = []
        for i, r in enumerate(self.lineups):
            run = RunSpec(self.spec.name, tuple(rules.items()), tuple(r.names), seed, first + n, False, self.board,
                          self.player_file).absolute()
            run.resolved()  # the game's own checks of a combination of rules, before anything is played
            tasks += [Task(run, f, k, i) for f, k in split(first, n, self.chunk or (1 << 17))]

        def on_result(task: Any, agg: Any) -> None:
            if self.on_games is not None:
                self.on_games(agg.games)

        merged = execute(tasks, self.executor, on_result)
        return [merged[i] for i in range(len(self.lineups))]

    def counts(self, aggs: Sequence[Any]) -> list[dict[str, Any]]:
        from balance.check.metrics import counts_of

        return [counts_of(a, r.labels, self.spec.end_reason_names) for a, r in zip(aggs, self.lineups)]

    def read(self, counts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Every target read on ``counts`` (one per line-up): the objectives, the
        score (their worst) and each figure with its interval and verdict."""
        return read_targets(counts, self.bands, [" vs ".join(r.names) for r in self.lineups])


def read_targets(counts: Sequence[Mapping[str, Any]], bands: Mapping[str, Any],
                 lineup_names: Sequence[str]) -> dict[str, Any]:
    from balance.check.comparison import evaluate_targets
    from balance.check.metrics import metrics_of

    objectives = {k: 0.0 for k in bands}
    rows = []
    for c, name in zip(counts, lineup_names):
        for t in evaluate_targets(metrics_of(c), bands):
            off = offset(t.metric.value, t.band.low, t.band.high, t.metric.kind)
            objectives[t.target] = max(objectives[t.target], off)
            rows.append({**t.to_dict(), "lineup": name, "offset": off, "kind": t.metric.kind})
    meets = bool(rows) and all(r["verdict"] == "ok" for r in rows)
    return {"objectives": objectives, "score": max(objectives.values()), "meets": meets, "figures": rows}


# --------------------------------------------------------------------------- result
@dataclass
class TuneResult:
    """A tuning's outcome: the run folder and every figure (``figures``)."""

    out: Path
    manifest: dict[str, Any]
    figures: dict[str, Any] = field(default_factory=dict)
    elapsed_s: float = 0.0
    html: Path | None = None

    @property
    def meets(self) -> bool:
        return bool(self.figures["answer"]["meets"])

    @property
    def values(self) -> dict[str, Any]:
        """The answer's rule values (the searched ones)."""
        return dict(self.figures["answer"]["values"])

    def to_dict(self) -> dict[str, Any]:
        return {**self.figures, "out": str(self.out), "elapsed_s": self.elapsed_s}


# --------------------------------------------------------------------------- the tuning
def tune(
    game: str | None = None,
    *,
    params: Sequence[str] | Mapping[str, str],
    targets: Sequence[str] | Mapping[str, Any] | None = None,
    players: Sequence[str | Sequence[str]] | None = None,
    trials: int = DEFAULT_TRIALS,
    rungs: Sequence[int] = DEFAULT_RUNGS,
    seed: int = 0,
    confirm_top: int = DEFAULT_CONFIRM_TOP,
    confirm_games: int = DEFAULT_CONFIRM_GAMES,
    board: str | None = None,
    player_file: str | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    verbose: bool = False,
    report: bool = True,
    command: str | None = None,
    on_games: Callable[[int], None] | None = None,
    on_trial: Callable[[Mapping[str, Any]], None] | None = None,
) -> TuneResult:
    """Search the rules given as ranges for values meeting every target for every line-up.

    >>> import balance.api
    >>> r = balance.api.tune("GAME", params=["car_cost=6..16"], targets=["turns_median=18..24"],
    ...                      players=["greedy,greedy", "mc,mc"])                       # doctest: +SKIP
    >>> r.meets, r.values                                                                # doctest: +SKIP

    ``targets``: ``NAME=LOW..HIGH`` texts or a ``[targets]`` table; None: the
    ``[targets]`` of ``./balance.toml``.  ``players``: line-ups, each ``"a,b"``
    or a list; None: ``[game] players`` of ``./balance.toml``, else the game's
    default players.  ``on_games(n)`` as games finish; ``on_trial(event)``
    after each trial and as the confirmation starts (``{"phase": "confirm"}``).
    """
    from balance.config import default_game, find_config, parse_targets
    from balance.registry import get_game
    from balance.runspec import RunSpec, check_seed, split_players
    from balance.studies import check_folder, confirm_seed_for, load_optuna, open_study
    from balance.train import parse_space, search_space

    # ----- everything checked before a game is played or a file written
    for name, value, least in (("--trials", trials, 1), ("--confirm-top", confirm_top, 1),
                               ("--confirm-games", confirm_games, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UserError(f"{name} {value}: expected a whole number of at least {least}")
    rungs = [int(g) for g in rungs]
    if not rungs or any(g < 1 for g in rungs) or any(b <= a for a, b in zip(rungs, rungs[1:])):
        raise UserError(f"--rungs {','.join(map(str, rungs))}: expected increasing game counts, e.g. 100,400,1600")
    check_seed(seed)
    spec = get_game(game or default_game())
    config = find_config()
    if config is not None and config.game != spec.name:
        config = None
    space = parse_space(params) if not isinstance(params, Mapping) else {str(k): str(v) for k, v in params.items()}
    for name in space:
        spec.param(name)  # a UserError naming the allowed ones
    dims, fixed = search_space(SimpleNamespace(params=[spec.param(n) for n in space], param=spec.param),
                               space, option="--param")
    if not dims:
        raise UserError("--param: give at least one rule as a range (NAME=LOW..HIGH) or a set (NAME=A,B,C) to search")
    base = {**(config.params if config is not None else {}), **fixed}
    rules = spec.resolve_params(base)
    if isinstance(targets, Mapping):
        table, where = dict(targets), "targets"
    elif targets:
        table, where = parse_target_options(targets), "--target"
    elif config is not None and config.targets:
        from balance.config import targets_to_dict

        table, where = targets_to_dict(config.targets), config.where
    else:
        raise UserError("no targets: give --target NAME=LOW..HIGH (e.g. seat_win_rate=0.48..0.52), "
                        "or a [targets] table in ./balance.toml")
    try:
        bands = parse_targets(table, spec, where)
    except UserError as exc:  # the table's words for a file; the option's for a command line
        raise UserError(str(exc).replace("--target: [targets] ", "--target ")) from None
    if not bands:
        raise UserError("no targets: give --target NAME=LOW..HIGH")
    texts = list(players) if players else [config.players if config is not None and config.players else
                                           list(spec.default_players)]
    lineups = []
    for text in texts:
        names = split_players(text)
        try:
            lineups.append(RunSpec(spec.name, tuple(rules.items()), names, seed, 1, False, board,
                                   player_file).resolved())
        except UserError as exc:
            raise UserError(f"--players {','.join(names)}: {exc}") from None
    if len({tuple(r.names) for r in lineups}) < len(lineups):
        raise UserError("--players: a line-up given twice")
    check_targets(bands, spec, lineups, "--target" if where == "--target" else where)
    confirm_seed = confirm_seed_for(seed)
    folder = Path(out) if out is not None else (
        Path("runs") / f"{spec.name}-tune-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    )
    from balance.config import targets_to_dict

    manifest = {
        "format": FORMAT,
        "kind": "tune",
        "game": spec.name,
        "lineups": [list(r.names) for r in lineups],
        "targets": targets_to_dict(bands),
        "space": [d.to_dict() for d in dims],
        "fixed": {k: v for k, v in rules.items() if k not in {d.name for d in dims}},
        "rungs": rungs,
        "eta": ETA,
        "seed": int(seed),
        "board": str(Path(board).resolve()) if board else None,
        "player_file": str(Path(player_file).resolve()) if player_file else None,
        "confirm_top": int(confirm_top),
        "confirm_games": int(confirm_games),
        "confirm_seed": confirm_seed,
        "trials": int(trials),
        "cost": {"search_games_at_most": trials * rungs[-1] * len(lineups),
                 "search_games_at_least": trials * rungs[0] * len(lineups),
                 "confirm_games": confirm_top * confirm_games * len(lineups)},
        "command": command or _equivalent(spec, space, bands, lineups, trials, rungs, seed, confirm_top,
                                          confirm_games, board, player_file, folder),
    }
    check_folder(folder, manifest, RESUME_KEYS, resume, "tuning")

    optuna = load_optuna(verbose, "balance tune")
    from balance.executors import make_executor
    from balance.store import atomic_write_json

    start = time.perf_counter()
    try:
        with make_executor(threads, scheduler) as executor:  # --threads and a scheduler checked before anything is written
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write_json(folder / "manifest.json", manifest)
            study = open_study(optuna, folder, STUDY_NAME, ["minimize"] * len(bands))
            plan = _Plan(spec, lineups, bands, manifest["board"], manifest["player_file"], executor, chunk, on_games)
            distributions = {d.name: d.distribution() for d in dims}
            current = {d.name: rules[d.name] for d in dims}
            from balance.train import _inside

            first = current if all(_inside(d, current[d.name]) for d in dims) else None
            _search(study, optuna, plan, dims, manifest["fixed"], distributions, first, trials, rungs, seed, folder,
                    on_trial)
            figures = _confirm(study, optuna, plan, manifest, folder, on_trial)
        from balance.studies import importance

        names = [d.name for d in dims]
        figures["importance"] = {
            key: importance(study, optuna, names, target=(lambda t, i=i: t.values[i]))
            for i, key in enumerate(plan.keys)
        }
        figures["history"] = _history(study, optuna, plan.keys)
        figures["front"] = _front(study, optuna, plan.keys) if len(plan.keys) > 1 else []
        figures["findings"] = findings(figures)
        result = TuneResult(folder, manifest, figures, time.perf_counter() - start)
        atomic_write_json(folder / "tuned.json", {**figures, "command": manifest["command"]})
        if report:
            from balance.tunepage import write_html

            result.html = write_html(folder, manifest, figures)
    except Interrupted:
        raise
    except KeyboardInterrupt:  # between two games' calls (the sampler, the study, the page): what is kept stays
        raise Interrupted(_kept(folder)) from None
    return result


def _kept(folder: Path) -> str:
    """What an interrupted tuning kept, in words (read from the study itself)."""
    import sqlite3

    if not (folder / "study.db").is_file():
        return "nothing written"
    n = 0
    try:
        with sqlite3.connect(folder / "study.db") as db:
            n = db.execute("SELECT count(*) FROM trials WHERE state = 'COMPLETE'").fetchone()[0]
    except sqlite3.Error:
        pass
    return (f"{n} trial{'s' if n != 1 else ''} kept in {folder / 'study.db'} (the one in flight is dropped); "
            f"continue with --resume --out {folder}")


def _label(values: Mapping[str, Any]) -> str:
    from balance.train import _text

    return ";".join(f"{k}={_text(v)}" for k, v in values.items())


def _search(study, optuna, plan, dims, fixed, distributions, first, trials, rungs, seed, folder, on_trial) -> None:
    """Complete trials until ``trials`` are done (the first at the current rules)."""
    from balance.studies import complete, tpe_sampler

    TS = optuna.trial.TrialState
    done = complete(study, optuna)
    seen = {t.user_attrs["label"]: t for t in done}
    while len(done) < trials:
        n = len(done)
        study.sampler = tpe_sampler(optuna, seed, n, STARTUP_TRIALS)
        if n == 0 and first is not None and not study.get_trials(deepcopy=False, states=(TS.WAITING,)):
            study.enqueue_trial(first)
        trial = study.ask(distributions)
        values = {d.name: trial.params[d.name] for d in dims}
        label = _label(values)
        try:
            if label in seen:
                attrs = {k: v for k, v in seen[label].user_attrs.items()}
                attrs["repeat_of"] = seen[label].number
            else:
                attrs = _play_trial(plan, {**fixed, **values}, rungs, seed, done)
                attrs["label"] = label
                attrs["values"] = values
        except KeyboardInterrupt:
            study.tell(trial, state=TS.FAIL)
            raise Interrupted(
                f"{n} trial{'s' if n != 1 else ''} kept in {folder / 'study.db'} (the one in flight is dropped); "
                f"continue with --resume --out {folder}"
            ) from None
        for key, value in attrs.items():
            trial.set_user_attr(key, value)
        study.tell(trial, [attrs["objectives"][k] for k in plan.keys])
        done = complete(study, optuna)
        frozen = next(t for t in reversed(done) if t.number == trial.number)
        seen.setdefault(label, frozen)
        if on_trial is not None:
            best = min(done, key=lambda t: (t.user_attrs["score"], t.number))
            on_trial({"done": len(done), "total": trials, "label": label, "score": attrs["score"],
                      "games": attrs.get("games", 0), "best": best.user_attrs["score"],
                      "best_label": best.user_attrs["label"]})


def _play_trial(plan: _Plan, rules: Mapping[str, Any], rungs: Sequence[int], seed: int,
                done: Sequence[Any]) -> dict[str, Any]:
    """One setting through the rungs: the games up to each rung, on until it is
    not among the best 1/ETA of the trials that reached that rung before it."""
    aggs: list[Any] | None = None
    played = 0
    record: list[dict[str, Any]] = []
    reading: dict[str, Any] = {}
    for r, games in enumerate(rungs):
        try:
            new = plan.play(rules, seed, played, games - played)
        except UserError as exc:  # a combination of rules the game refuses: the worst score, and why
            return {"invalid": str(exc), "objectives": {k: INVALID for k in plan.keys}, "score": INVALID,
                    "games": 0, "rungs": [], "counts": None, "figures": []}
        aggs = new if aggs is None else [a.merge(b) for a, b in zip(aggs, new)]
        played = games
        counts = plan.counts(aggs)
        reading = plan.read(counts)
        record.append({"games": games, "objectives": reading["objectives"], "score": reading["score"]})
        if r + 1 < len(rungs) and not _promoted(reading["score"], r, done):
            break
    return {"objectives": reading["objectives"], "score": reading["score"], "meets_estimate": reading["meets"],
            "games": played, "rungs": record, "counts": counts, "figures": reading["figures"]}


def _promoted(score: float, rung: int, done: Sequence[Any]) -> bool:
    """Asynchronous successive halving: among the best ``1/ETA`` of the scores at
    ``rung`` of the trials before it and itself."""
    earlier = [t.user_attrs["rungs"][rung]["score"] for t in done
               if "repeat_of" not in t.user_attrs and len(t.user_attrs.get("rungs", ())) > rung]
    better = sum(1 for s in earlier if s < score)
    return better < (len(earlier) + 1) // ETA


def _confirm(study, optuna, plan, manifest, folder, on_trial) -> dict[str, Any]:
    """The best distinct settings played again on the confirmation seed; the answer."""
    from balance.store import atomic_write_json
    from balance.studies import complete

    done = [t for t in complete(study, optuna) if "invalid" not in t.user_attrs]
    if not done:
        raise UserError("every setting tried was refused by the game; narrow the --param ranges")
    ranked: list[Any] = []
    # Fewest targets missed (as estimates) first, then the nearest: a setting that meets the length and misses
    # the edge reads better to a designer than one that misses both by a little less.
    for t in sorted(done, key=lambda t: (_missed(t.user_attrs["objectives"]), t.user_attrs["score"],
                                         -t.user_attrs["games"], t.number)):
        if t.user_attrs["label"] not in [r.user_attrs["label"] for r in ranked]:
            ranked.append(t)
    top = ranked[: manifest["confirm_top"]]
    seed, games = manifest["confirm_seed"], manifest["confirm_games"]
    path = folder / "confirm.json"
    kept = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if on_trial is not None:
        on_trial({"phase": "confirm", "settings": sum(1 for t in top if t.user_attrs["label"] not in kept),
                  "games": games * len(plan.lineups)})
    rows = []
    for t in top:
        label = t.user_attrs["label"]
        if label not in kept:
            try:
                aggs = plan.play({**manifest["fixed"], **t.user_attrs["values"]}, seed, 0, games)
            except KeyboardInterrupt:
                raise Interrupted(
                    f"during the confirmation: {len(done)} trials and {len(kept)} confirmed setting"
                    f"{'s' if len(kept) != 1 else ''} kept in {folder}; continue with --resume --out {folder}"
                ) from None
            kept[label] = plan.counts(aggs)
            atomic_write_json(path, kept)
        reading = plan.read(kept[label])
        rows.append({
            "label": label, "values": t.user_attrs["values"], "trial": t.number,
            "tuning": {"objectives": t.user_attrs["objectives"], "score": t.user_attrs["score"],
                       "games": t.user_attrs["games"], "figures": t.user_attrs["figures"]},
            "confirmed": reading,
        })
    meeting = [r for r in rows if r["confirmed"]["meets"]]
    answer_row = min(meeting or rows, key=lambda r: (_failed_targets(r["confirmed"]), r["confirmed"]["score"],
                                                     r["trial"]))
    failing = [f for f in answer_row["confirmed"]["figures"] if f["verdict"] != "ok"]
    return {
        "game": manifest["game"],
        "lineups": manifest["lineups"],
        "targets": manifest["targets"],
        "space": manifest["space"],
        "fixed": manifest["fixed"],
        "seed": manifest["seed"],
        "confirm_seed": seed,
        "rungs": manifest["rungs"],
        "eta": manifest["eta"],
        "confirm_games": games,
        "trials": len(complete(study, optuna)),
        "distinct_settings": len(ranked),
        "games_played": sum(t.user_attrs["games"] for t in done if "repeat_of" not in t.user_attrs)
        * len(plan.lineups) + len(kept) * games * len(plan.lineups),
        "confirmation": rows,
        "answer": {"label": answer_row["label"], "values": answer_row["values"], "meets": bool(meeting),
                   "trial": answer_row["trial"], "figures": answer_row["confirmed"]["figures"],
                   "failing": failing, "score": answer_row["confirmed"]["score"]},
    }


def _missed(objectives: Mapping[str, float]) -> int:
    return sum(1 for v in objectives.values() if v > 1)


def _failed_targets(reading: Mapping[str, Any]) -> int:
    """How many targets have a figure not inside its band with 95% confidence."""
    return len({x["target"] for x in reading["figures"] if x["verdict"] != "ok"})


def _history(study: Any, optuna: Any, keys: Sequence[str]) -> list[dict[str, Any]]:
    from balance.studies import complete

    out = []
    best = math.inf
    for t in complete(study, optuna):
        a = t.user_attrs
        best = min(best, a["score"])
        out.append({"trial": t.number, "label": a["label"], "values": a.get("values"), "score": a["score"],
                    "best": best, "objectives": a["objectives"], "games": a["games"],
                    "repeat_of": a.get("repeat_of"), "invalid": a.get("invalid")})
    return out


def _front(study: Any, optuna: Any, keys: Sequence[str]) -> list[dict[str, Any]]:
    """The Pareto front of the distinct settings tried: none does better on every target."""
    seen = {}
    for t in study.best_trials:
        a = t.user_attrs
        if "invalid" in a or a["label"] in seen:
            continue
        seen[a["label"]] = {"trial": t.number, "label": a["label"], "objectives": a["objectives"],
                            "games": a["games"], "figures": a["figures"]}
    return sorted(seen.values(), key=lambda r: [r["objectives"][k] for k in keys])


def findings(f: Mapping[str, Any]) -> list[str]:
    """The answer in plain words, each figure with its interval and n."""
    a = f["answer"]
    lineups = " and ".join(" vs ".join(lu) for lu in f["lineups"])
    out = []
    if a["meets"]:
        out.append(f"{a['label']} meets every target for {lineups} with 95% confidence on fresh games "
                   f"({f['confirm_games']:,} games per line-up, seed {f['confirm_seed']}).")
    else:
        out.append(f"No setting tried meets every target with 95% confidence for {lineups}; the nearest miss is "
                   f"{a['label']} (on fresh games, {f['confirm_games']:,} per line-up):")
        for x in a["failing"]:
            out.append(_figure_sentence(x))
        for key in dict.fromkeys(x["target"] for x in a["failing"]):
            sides = {}
            for x in a["figures"]:
                if x["target"] == key and x["verdict"] == "fail":
                    sides.setdefault("above" if x["value"] > x["band"][1] else "below", []).append(x)
            if len(sides) == 2:
                out.append(f"The line-ups pull {key} apart: " + "; ".join(
                    f"{', '.join(sorted({x['lineup'] for x in xs}))} {side} the band" for side, xs in sides.items())
                    + ", so no one setting near this one fits both; a wider range, other rules or a line-up's own "
                    "target may.")
    tried = [h for h in f["history"] if not h.get("invalid")]
    keys = list(tried[0]["objectives"]) if tried else []
    never = [k for k in keys if not any(h["objectives"][k] <= 1 for h in tried)]
    for k in never:
        best = min(tried, key=lambda h: h["objectives"][k])
        out.append(f"No setting tried brings {k} inside its band even as an estimate on the tuning games; the "
                   f"closest, {best['label']}, is {best['objectives'][k]:.2f} half-widths from its middle "
                   f"({best['games']:,} games per line-up; 1 = the band's edge).")
    if len(keys) > 1 and not never and not any(all(v <= 1 for v in h["objectives"].values()) for h in tried):
        out.append("On the tuning games the targets conflict: each is met as an estimate by some setting tried, never "
                   "all at once; the trade-off is the Pareto front (the page's table): " + "; ".join(
                       f"{r['label']} ({r['games']:,} games per line-up): "
                       + ", ".join(f"{k} {v:.2f}" for k, v in r["objectives"].items())
                       for r in f.get("front", [])[:4]) + " (distance from the band's middle in half-widths).")
    return out


def _figure_sentence(x: Mapping[str, Any]) -> str:
    from balance import format as fmt

    kind = x["kind"]
    v, lo, hi = fmt.values(kind, (x["value"], *x["ci95"]))
    blo, bhi = fmt.values(kind, tuple(x["band"]))
    word = {"ok": "inside", "warn": "cannot tell whether it is inside", "fail": "outside"}[x["verdict"]]
    return (f"{x['metric']} for {x['lineup']} is {v} (95% CI {lo} to {hi}, n={x['n']:,}): {word} the target "
            f"[{blo}, {bhi}]")


def _equivalent(spec, space, bands, lineups, trials, rungs, seed, top, confirm_games, board, player_file,
                folder) -> str:
    import shlex

    from balance.config import targets_to_dict

    words = ["balance", "tune", spec.name]
    for k, v in space.items():
        words += ["--param", f"{k}={v}"]
    for key, band in targets_to_dict(bands).items():
        if key == "end_reason":
            for reason, b in band.items():
                words += ["--target", f"end_reason.{reason}={b[0]:g}..{b[1]:g}"]
        else:
            words += ["--target", f"{key}={band[0]:g}..{band[1]:g}"]
    for r in lineups:
        words += ["--players", ",".join(r.names)]
    words += ["--trials", str(trials), "--rungs", ",".join(map(str, rungs)), "--seed", str(seed)]
    if top != DEFAULT_CONFIRM_TOP:
        words += ["--confirm-top", str(top)]
    if confirm_games != DEFAULT_CONFIRM_GAMES:
        words += ["--confirm-games", str(confirm_games)]
    if board:
        words += ["--board", str(board)]
    if player_file:
        words += ["--player-file", str(player_file)]
    words += ["--out", str(folder)]
    return shlex.join(words)


def load(out: str | os.PathLike[str]) -> dict[str, Any]:
    """A finished tuning's figures (``tuned.json``)."""
    path = Path(out) / "tuned.json"
    if not path.is_file():
        raise UserError(f"{out}: not a finished tuning (no tuned.json)")
    return json.loads(path.read_text(encoding="utf-8"))
