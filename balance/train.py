"""Trained heuristics: a heuristic's declared parameters tuned to win against a field.

``balance train GAME --player greedy --against mc,fleet`` searches the values of
``greedy``'s own parameters (its :class:`~balance.game.PlayerInfo` ``params``:
int, bool, choice and float) with Optuna's TPE sampler to maximise its win rate
against every player of ``--against``:

* **A trial** seats the candidate against each player of the field in turn,
  heads up (the candidate and one opponent; a game that seats more players at
  its smallest table seats copies of the opponent), seats rotated, on games
  ``0 .. M-1`` of the master seed: every trial plays the same deals (common
  random numbers), so trials are compared on paired games.  Its value is the
  share of decided games the candidate won, averaged over the opponents; the
  per-opponent wins, decided games and games are the trial's user attributes.
  The candidate at the player's defaults is the first trial.  A setting tried
  before is not played again (the same games give the same counts).
* **The study** lives in SQLite in the run folder (``study.db``, Optuna's
  RDBStorage): Ctrl-C loses at most the trial in flight, and ``--resume``
  continues with more ``--trials``.  The sampler is seeded afresh for each
  trial from (seed, trials completed), so a resumed study proposes exactly what
  an uninterrupted one would have.
* **The winner's curse**: the best trials on the tuning games are optimistic.
  The best few (``--confirm-top``, and the untuned default) are played again on
  a fresh master seed, disjoint from the tuning games, with more games
  (``--confirm-games``); the winner is the best confirmed setting, and the
  figures say by how much its tuning score overstated it.
* **The answer**: the tuned spec in the player syntax (``greedy:reserve=2``),
  its share against every player of the field and against the untuned default,
  each with its Wilson 95% interval and n, written to ``tuned.txt`` (the spec),
  ``tuned.json`` (every figure) and ``report.html``; a tuned player that beats
  ``mc`` (the lower end of its interval above 50%) is a finding: a strategy
  the search does not see.

Run folder: ``manifest.json`` (the options; ``--resume`` refuses a folder made
with other ones), ``study.db``, ``confirm.json`` (the confirmation matches, kept
as they finish), ``tuned.txt``, ``tuned.json``, ``report.html``.

Optuna (and SQLAlchemy under it) is imported only when a training runs.
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

from balance.errors import UserError
from balance.studies import complete, confirm_seed_for, importance, splitmix64, tpe_sampler  # noqa: F401

DEFAULT_TRIALS = 40
DEFAULT_GAMES_PER_TRIAL = 400
DEFAULT_CONFIRM_TOP = 3
CONFIRM_FACTOR = 4  # confirmation games per match: this many times the tuning games, by default
STARTUP_TRIALS = 10  # TPE's random start (the default trial is the first of them)
FORMAT = 1
STUDY_NAME = "train"
# What a --resume must match (trials, threads and the scheduler may change).
RESUME_KEYS = (
    "game", "player", "against", "seats", "games_per_trial", "seed", "params", "board", "player_file", "space",
    "confirm_top", "confirm_games", "confirm_seed",
)


# --------------------------------------------------------------------------- the search space
@dataclass(frozen=True)
class Dimension:
    """One searched parameter: a range (``low..high``, int or float; ``step``
    for ints) or a set of ``values`` (bool, choice, or a list a user gave)."""

    name: str
    kind: str
    low: float | int | None = None
    high: float | int | None = None
    step: int = 1
    values: tuple[Any, ...] = ()

    def distribution(self) -> Any:
        from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

        if self.values:
            return CategoricalDistribution(list(self.values))
        if self.kind == "float":
            return FloatDistribution(float(self.low), float(self.high))
        return IntDistribution(int(self.low), int(self.high), step=int(self.step))

    def describe(self) -> str:
        if self.values:
            return "{" + ", ".join(_text(v) for v in self.values) + "}"
        step = f" step {self.step}" if self.step > 1 else ""
        return f"{_text(self.low)}..{_text(self.high)}{step}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "low": self.low, "high": self.high, "step": self.step,
                "values": list(self.values) or None, "searched": self.describe()}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _declared(p: Any) -> Dimension | None:
    """The dimension a Param declares, or None when it has no finite range."""
    if p.kind == "bool":
        return Dimension(p.name, p.kind, values=(False, True))
    if p.kind == "choice":
        return Dimension(p.name, p.kind, values=tuple(p.choices))
    if p.low is None or p.high is None:
        return None
    if p.kind == "int":
        step = int(p.step or 1)
        low = int(math.ceil(p.low / step) * step)
        high = low + (int(p.high) - low) // step * step
        if high <= low:
            return None
        return Dimension(p.name, "int", low, high, step)
    if float(p.high) <= float(p.low):
        return None
    return Dimension(p.name, "float", float(p.low), float(p.high))


def tunable(info: Any) -> list[str]:
    """The names of a player's parameters a search can explore (a finite range,
    or bool/choice)."""
    return [p.name for p in info.params if _declared(p) is not None]


def search_space(info: Any, space: Mapping[str, str] | None = None,
                 option: str = "--space") -> tuple[list[Dimension], dict[str, Any]]:
    """The dimensions searched and the values held fixed.

    Without ``space`` every declared parameter with a range is searched over its
    declared range.  ``space`` narrows: ``NAME="LOW..HIGH"`` (an int or float
    range inside the declared one), ``NAME="A,B,C"`` (those values only),
    ``NAME="V"`` (held at V).
    """
    space = dict(space or {})
    for name in space:
        info.param(name)  # a UserError naming the allowed ones
    dims: list[Dimension] = []
    fixed: dict[str, Any] = {}
    for p in info.params:
        declared = _declared(p)
        if p.name not in space:
            if declared is not None:
                dims.append(declared)
            continue
        text = str(space[p.name]).strip()
        where = f"{option} {p.name}={text}"
        if ".." in text and p.kind in ("int", "float"):
            lo_text, _, hi_text = text.partition("..")
            lo, hi = p.parse(lo_text), p.parse(hi_text)
            if hi <= lo:
                raise UserError(f"{where}: expected LOW..HIGH with LOW < HIGH ({p.allowed})")
            dims.append(Dimension(p.name, p.kind, lo, hi, int(p.step or 1) if p.kind == "int" else 1))
            continue
        values: list[Any] = []
        for item in text.split(","):
            if not item.strip():
                raise UserError(f"{where}: expected LOW..HIGH, A,B,C or one value ({p.allowed})")
            value = p.parse(item)
            if value not in values:
                values.append(value)
        if len(values) == 1:
            fixed[p.name] = values[0]
        else:
            dims.append(Dimension(p.name, p.kind, values=tuple(values)))
    return dims, fixed


def parse_space(items: Sequence[str] | Mapping[str, str] | None) -> dict[str, str]:
    """``["reserve=0..8", "side_step=true"]`` as ``{"reserve": "0..8", ...}``."""
    if items is None:
        return {}
    if isinstance(items, Mapping):
        return {str(k): str(v) for k, v in items.items()}
    out: dict[str, str] = {}
    for item in items:
        key, eq, value = str(item).partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UserError(f"--space {item!r}: expected NAME=LOW..HIGH, NAME=A,B,C or NAME=VALUE")
        if key.strip() in out:
            raise UserError(f"--space {key.strip()} given twice")
        out[key.strip()] = value.strip()
    return out


# --------------------------------------------------------------------------- scores
def share(wins: int | None, decided: int, games: int, mirror: bool = False) -> dict[str, Any]:
    """One match's figure: the candidate's share of the decided games, its Wilson
    interval and n.  A mirror (the candidate is the opponent) is 1/2 by symmetry
    and is not played."""
    from balance.stats import wilson

    if mirror:
        return {"wins": None, "decided": 0, "games": 0, "rate": 0.5, "ci95": [0.5, 0.5], "n": 0, "mirror": True}
    lo, hi = wilson(int(wins), int(decided))
    rate = wins / decided if decided else 0.5
    return {"wins": int(wins), "decided": int(decided), "games": int(games), "rate": rate, "ci95": [lo, hi],
            "n": int(decided), "mirror": False}


def field_score(matches: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The mean over the opponents of the candidate's share of decided games, with
    a 95% interval that combines the per-opponent Wilson half-widths as
    independent normal errors (a mirror adds 1/2 and no error); n is the decided
    games behind it."""
    from balance.stats import z_value

    z = z_value()
    k = len(matches)
    mean = sum(m["rate"] for m in matches) / k
    se = math.sqrt(sum(((m["ci95"][1] - m["ci95"][0]) / (2 * z)) ** 2 for m in matches)) / k
    return {"rate": mean, "ci95": [max(0.0, mean - z * se), min(1.0, mean + z * se)],
            "n": int(sum(m["n"] for m in matches)), "opponents": k}


# --------------------------------------------------------------------------- playing
@dataclass
class _Field:
    """What every match of a training shares: the game, its rules and the field."""

    spec: Any
    rules: dict[str, Any]
    board: str | None
    player_file: str | None
    seats: int
    opponents: list[str]  # labels
    executor: Any
    chunk: int | None
    on_games: Callable[[int], None] | None

    def matches(self, candidate: str, against: Sequence[str], seed: int, games: int) -> dict[str, dict[str, Any]]:
        """The candidate against each player of ``against``: ``{opponent: share(...)}``."""
        from balance.runner import execute, tasks_for
        from balance.runspec import RunSpec

        tasks = []
        played: list[str] = []
        for i, opponent in enumerate(against):
            if opponent == candidate:
                continue
            run = RunSpec(
                self.spec.name, tuple(self.rules.items()), (candidate,) + (opponent,) * (self.seats - 1), seed, games,
                True, self.board, self.player_file,
            )
            tasks += tasks_for(run, self.chunk, point=i)
            played.append(opponent)

        def on_result(task: Any, agg: Any) -> None:
            if self.on_games is not None:
                self.on_games(agg.games)

        merged = execute(tasks, self.executor, on_result) if tasks else {}
        out: dict[str, dict[str, Any]] = {}
        for i, opponent in enumerate(against):
            if opponent == candidate:
                out[opponent] = share(None, 0, 0, mirror=True)
                continue
            agg = merged[i]
            # The candidate sits first, so it is strategy 0 of the run.
            out[opponent] = share(int(agg.strategy_wins[0]), int(agg.games - agg.no_winner), int(agg.games))
        return out


# --------------------------------------------------------------------------- result
@dataclass
class TrainResult:
    """A training's outcome: the run folder and every figure (``figures``)."""

    out: Path
    manifest: dict[str, Any]
    figures: dict[str, Any] = field(default_factory=dict)
    elapsed_s: float = 0.0
    html: Path | None = None

    @property
    def tuned(self) -> str:
        """The tuned spec in the player syntax (``greedy:reserve=2;detour=3``)."""
        return self.figures["tuned"]

    def to_dict(self) -> dict[str, Any]:
        return {**self.figures, "out": str(self.out), "elapsed_s": self.elapsed_s}


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a training: what was kept, and how to go on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------- the training
def train(
    game: str | None = None,
    *,
    player: str,
    against: str | Sequence[str],
    trials: int = DEFAULT_TRIALS,
    games_per_trial: int = DEFAULT_GAMES_PER_TRIAL,
    seed: int = 0,
    space: Sequence[str] | Mapping[str, str] | None = None,
    confirm_top: int = DEFAULT_CONFIRM_TOP,
    confirm_games: int | None = None,
    params: Mapping[str, Any] | None = None,
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
) -> TrainResult:
    """Tune ``player``'s parameters against ``against`` and confirm the best.

    >>> import balance.api
    >>> r = balance.api.train("GAME", player="greedy", against="mc,fleet", trials=40)  # doctest: +SKIP
    >>> r.tuned, r.figures["against"]                                              # doctest: +SKIP

    ``on_games(n)`` is called as games finish; ``on_trial(event)`` after each
    trial (``{"done", "total", "label", "value", "best", "best_label"}``) and
    as the confirmation starts (``{"phase": "confirm", "matches"}``).
    """
    from balance.config import default_game
    from balance.game import Player
    from balance.registry import get_game
    from balance.runspec import check_seed, split_players

    # ----- everything checked before a game is played or a file written
    for name, value, least in (("--trials", trials, 1), ("--games-per-trial", games_per_trial, 1),
                               ("--confirm-top", confirm_top, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise UserError(f"{name} {value}: expected a whole number of at least {least}")
    check_seed(seed)
    spec = get_game(game or default_game())
    rules = spec.resolve_params(params)
    if board is not None:
        spec.board_for(board)
    from balance.playerfile import players_in_file

    extra = players_in_file(spec, player_file)
    info = _heuristic(spec, player, extra)
    dims, fixed = search_space(info, parse_space(space))
    if not dims:
        raise UserError(f"--space holds every parameter of {info.name} fixed: nothing to search")
    field_texts = list(split_players(against)) if isinstance(against, str) else [str(a).strip() for a in against]
    if not field_texts or any(not t for t in field_texts):
        raise UserError("--against: name the players to beat, e.g. --against mc,fleet")
    opponents: list[str] = []
    for text in field_texts:
        try:
            label = spec.parse_player(text, extra).label
        except UserError as exc:
            raise UserError(f"--against {text}: {exc}") from None
        if label in opponents:
            raise UserError(f"--against: {label} given twice")
        opponents.append(label)
    seats = max(2, spec.min_players)
    if seats > spec.max_players:
        raise UserError(f"{spec.name} seats {spec.min_players} to {spec.max_players}: no heads-up table")
    if games_per_trial % seats:
        raise UserError(f"--games-per-trial {games_per_trial}: expected a multiple of {seats} (seats rotate)")
    confirm = CONFIRM_FACTOR * games_per_trial if confirm_games is None else confirm_games
    if isinstance(confirm, bool) or not isinstance(confirm, int) or confirm < seats or confirm % seats:
        raise UserError(f"--confirm-games {confirm}: expected a whole number, a multiple of {seats} (seats rotate)")
    default = Player.of(info, {}).label
    folder = Path(out) if out is not None else (
        Path("runs") / f"{spec.name}-train-{info.name}-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    )
    manifest = {
        "format": FORMAT,
        "kind": "train",
        "game": spec.name,
        "player": info.name,
        "default": default,
        "against": opponents,
        "seats": seats,
        "games_per_trial": int(games_per_trial),
        "seed": int(seed),
        "params": rules,
        "board": str(Path(board).resolve()) if board else None,
        "player_file": str(Path(player_file).resolve()) if player_file else None,
        "space": [d.to_dict() for d in dims] + [{"name": k, "fixed": v} for k, v in fixed.items()],
        "confirm_top": int(confirm_top),
        "confirm_games": int(confirm),
        "confirm_seed": confirm_seed_for(seed),
        "trials": int(trials),
        "command": command or _equivalent(spec, info.name, opponents, trials, games_per_trial, seed, space,
                                          confirm_top, confirm_games, rules, board, player_file, folder),
    }
    from balance.studies import check_folder, load_optuna, open_study

    existing = folder / "manifest.json"
    check_folder(folder, manifest, RESUME_KEYS, resume, "training")
    optuna = load_optuna(verbose)
    from balance.executors import make_executor
    from balance.store import atomic_write_json

    start = time.perf_counter()
    with make_executor(threads, scheduler) as executor:  # --threads and a scheduler checked before anything is written
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_json(existing, manifest)
        study = open_study(optuna, folder, STUDY_NAME, ["maximize"])
        distributions = {d.name: d.distribution() for d in dims}
        defaults = {d.name: info.param(d.name).default for d in dims}
        default_searched = all(_inside(d, defaults[d.name]) for d in dims)
        fld = _Field(spec, rules, manifest["board"], manifest["player_file"], seats, opponents, executor, chunk,
                     on_games)
        _search(study, optuna, fld, info, dims, fixed, distributions, defaults if default_searched else None,
                trials, games_per_trial, seed, folder, on_trial)
        figures = _confirm(study, optuna, fld, info, manifest, folder, on_trial)
    figures["importance"] = importance(study, optuna, [d.name for d in dims])
    figures["history"] = _history(study, optuna)
    result = TrainResult(folder, manifest, figures, time.perf_counter() - start)
    atomic_write_json(folder / "tuned.json", {**figures, "command": manifest["command"]})
    (folder / "tuned.txt").write_text(figures["tuned"] + "\n", encoding="utf-8")
    if report:
        from balance.trainpage import write_html

        result.html = write_html(folder, manifest, figures)
    return result


def _heuristic(spec: Any, text: str, extra: Sequence[Any]) -> Any:
    """The PlayerInfo of the heuristic to tune (a bare name with tunable parameters)."""
    from balance.game import split_player_text

    name, values = split_player_text(str(text))
    if values:
        raise UserError(f"--player {text}: give the name only (hold a parameter with --space NAME=VALUE)")
    info = spec.player(name, extra)
    with_params = [p.name for p in (*spec.heuristics, *extra) if tunable(p)]
    if info.builtin and info.name == "mc":
        raise UserError(f"--player mc: train tunes a heuristic; with parameters in {spec.name}: "
                        f"{', '.join(with_params) or 'none'}")
    if not tunable(info):
        raise UserError(f"--player {name}: no tunable parameters; players of {spec.name} with some: "
                        f"{', '.join(with_params) or 'none'}")
    return info


def _inside(d: Dimension, value: Any) -> bool:
    if d.values:
        return value in d.values
    return d.low <= value <= d.high and (d.kind != "int" or (value - d.low) % d.step == 0)






def _search(study, optuna, fld, info, dims, fixed, distributions, defaults, trials, games, seed, folder, on_trial):
    """Complete trials until ``trials`` are done (the first at the defaults)."""
    from balance.game import Player

    TS = optuna.trial.TrialState
    done = complete(study, optuna)
    seen = {t.user_attrs["label"]: t for t in done}
    best = max(done, key=lambda t: (t.value, -t.number), default=None)
    while len(done) < trials:
        n = len(done)
        study.sampler = tpe_sampler(optuna, seed, n, STARTUP_TRIALS)
        if n == 0 and defaults is not None and not study.get_trials(deepcopy=False, states=(TS.WAITING,)):
            study.enqueue_trial(defaults)
        trial = study.ask(distributions)
        values = {**fixed, **trial.params}
        label = Player.of(info, values).label
        try:
            if label in seen:
                attrs = {k: v for k, v in seen[label].user_attrs.items()}
                attrs["repeat_of"] = seen[label].number
            else:
                vs = fld.matches(label, fld.opponents, seed, games)
                attrs = {"label": label, "vs": vs, "score": field_score(list(vs.values()))}
        except KeyboardInterrupt:
            study.tell(trial, state=TS.FAIL)
            raise Interrupted(
                f"interrupted: {n} trial{'s' if n != 1 else ''} kept in {folder / 'study.db'} (the one in flight is "
                f"dropped); continue with --resume --out {folder}"
            ) from None
        for key, value in attrs.items():
            trial.set_user_attr(key, value)
        value = attrs["score"]["rate"]
        study.tell(trial, value)
        done = complete(study, optuna)
        frozen = done[-1] if done[-1].number == trial.number else next(t for t in done if t.number == trial.number)
        seen.setdefault(label, frozen)
        if best is None or value > best.value:
            best = frozen
        if on_trial is not None:
            on_trial({"done": len(done), "total": trials, "label": label, "value": value,
                      "best": best.value, "best_label": best.user_attrs["label"]})


def _confirm(study, optuna, fld, info, manifest, folder, on_trial) -> dict[str, Any]:
    """The best trials and the default, played again on the confirmation seed; the
    winner against the field and against the default."""
    from balance.store import atomic_write_json

    done = complete(study, optuna)
    default = manifest["default"]
    ranked: list[Any] = []
    for t in sorted(done, key=lambda t: (-t.value, t.number)):
        if t.user_attrs["label"] not in [r.user_attrs["label"] for r in ranked]:
            ranked.append(t)
    top = ranked[: manifest["confirm_top"]]
    labels = [t.user_attrs["label"] for t in top]
    tuning = {t.user_attrs["label"]: t for t in ranked}
    if default not in labels:
        labels.append(default)
    seed, games = manifest["confirm_seed"], manifest["confirm_games"]
    path = folder / "confirm.json"
    kept = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    if on_trial is not None:
        on_trial({"phase": "confirm", "matches": sum(1 for lab in labels if lab not in kept)})

    def confirmed(label: str, against: Sequence[str], key: str) -> dict[str, Any]:
        if key not in kept:
            try:
                kept[key] = fld.matches(label, against, seed, games)
            except KeyboardInterrupt:
                raise Interrupted(
                    f"interrupted during the confirmation: {len(done)} trials and {len(kept)} confirmation "
                    f"match{'es' if len(kept) != 1 else ''} kept in {folder}; continue with --resume --out {folder}"
                ) from None
            atomic_write_json(path, kept)
        return kept[key]

    rows = []
    for label in labels:
        vs = confirmed(label, fld.opponents, label)
        t = tuning.get(label)
        row = {
            "label": label,
            "trial": None if t is None else t.number,
            "default": label == default,
            "tuning": None if t is None else t.user_attrs["score"],
            "tuning_vs": None if t is None else t.user_attrs["vs"],
            "confirmed": field_score(list(vs.values())),
            "vs": vs,
        }
        if t is not None:
            row["overstated_by"] = row["tuning"]["rate"] - row["confirmed"]["rate"]
        rows.append(row)
    winner = max((r for r in rows if r["label"] in labels), key=lambda r: (r["confirmed"]["rate"], r["default"]))
    tuned = winner["label"]
    if tuned == default:
        against_default = share(None, 0, 0, mirror=True)
    else:
        against_default = confirmed(tuned, [default], f"{tuned} vs default")[default]
    from balance.game import Player

    figures: dict[str, Any] = {
        "game": manifest["game"],
        "player": manifest["player"],
        "default": default,
        "tuned": tuned,
        "settings": _settings(info, tuned, Player),
        "default_settings": Player.of(info, {}).settings(),
        "field": manifest["against"],
        "seed": manifest["seed"],
        "confirm_seed": seed,
        "games_per_trial": manifest["games_per_trial"],
        "confirm_games": games,
        "seats": manifest["seats"],
        "trials": len(done),
        "distinct_settings": len(ranked),
        "best_tuning": {"label": ranked[0].user_attrs["label"], "trial": ranked[0].number,
                        "score": ranked[0].user_attrs["score"]},
        "confirmation": rows,
        "winner": winner,
        "against": [{"opponent": o, **winner["vs"][o]} for o in manifest["against"]],
        "against_default": {"opponent": default, **against_default},
        "default_against": [{"opponent": o, **next(r for r in rows if r["default"])["vs"][o]}
                            for o in manifest["against"]],
    }
    figures["findings"] = findings(figures)
    return figures


def _settings(info: Any, label: str, Player: Any) -> dict[str, Any]:
    from balance.game import split_player_text

    _, values = split_player_text(label)
    return Player.of(info, values).settings()



def _history(study: Any, optuna: Any) -> list[dict[str, Any]]:
    out = []
    best = -1.0
    for t in complete(study, optuna):
        best = max(best, t.value)
        out.append({"trial": t.number, "label": t.user_attrs["label"], "value": t.value, "best": best,
                    "score": t.user_attrs["score"], "repeat_of": t.user_attrs.get("repeat_of")})
    return out


def findings(figures: Mapping[str, Any]) -> list[str]:
    """The training in plain words, each figure with its interval and n."""
    from balance import format as fmt

    out = []
    w = figures["winner"]
    tuned, default = figures["tuned"], figures["default"]
    c = w["confirmed"]
    if tuned == default:
        out.append(
            f"No setting beat the defaults on fresh games: {default} stays ({fmt.percent_ci(c['rate'], c['ci95'])} of "
            f"decided games against the field, n={c['n']:,})."
        )
    else:
        d = figures["against_default"]
        line = (
            f"{tuned} wins {fmt.percent_ci(c['rate'], c['ci95'])} of decided games against the field on fresh games "
            f"(n={c['n']:,}); against the untuned {default} it wins {fmt.percent_ci(d['rate'], d['ci95'])} "
            f"(n={d['n']:,})"
        )
        line += ": stronger than the default." if d["ci95"][0] > 0.5 else (
            ": weaker than the default." if d["ci95"][1] < 0.5 else ": not clearly stronger than the default.")
        out.append(line)
    if w.get("tuning") is not None:
        t = w["tuning"]
        out.append(
            f"Its tuning score, {fmt.percent_ci(t['rate'], t['ci95'])} (n={t['n']:,}), overstated it by "
            f"{fmt.points(w['overstated_by'])} points (the winner's curse, measured on seed {figures['confirm_seed']})."
        )
    for m in figures["against"]:
        if m["opponent"].split(":")[0] == "mc" and not m["mirror"]:
            if m["ci95"][0] > 0.5:
                out.append(
                    f"Finding: {tuned} beats {m['opponent']}, {fmt.percent_ci(m['rate'], m['ci95'])} of decided games "
                    f"(n={m['n']:,}): a strategy the search does not see."
                )
            else:
                verdict = "loses to it" if m["ci95"][1] < 0.5 else "is not clearly stronger"
                out.append(f"Against {m['opponent']} it wins {fmt.percent_ci(m['rate'], m['ci95'])} of decided games "
                           f"(n={m['n']:,}): it {verdict}.")
    return out


def beats_mc(figures: Mapping[str, Any]) -> bool:
    """Whether the tuned player beats an ``mc`` of the field (interval above 50%)."""
    return any(m["opponent"].split(":")[0] == "mc" and not m["mirror"] and m["ci95"][0] > 0.5
               for m in figures["against"])


def _equivalent(spec, player, opponents, trials, games, seed, space, top, confirm_games, rules, board, player_file,
                folder) -> str:
    """The command line that runs this training (for the page's footer)."""
    import shlex

    words = ["balance", "train", spec.name, "--player", player, "--against", ",".join(opponents),
             "--trials", str(trials), "--games-per-trial", str(games), "--seed", str(seed)]
    for k, v in parse_space(space).items():
        words += ["--space", f"{k}={v}"]
    if top != DEFAULT_CONFIRM_TOP:
        words += ["--confirm-top", str(top)]
    if confirm_games is not None:
        words += ["--confirm-games", str(confirm_games)]
    for p in spec.params:
        if rules[p.name] != p.default:
            words += ["--param", f"{p.name}={_text(rules[p.name])}"]
    if board:
        words += ["--board", str(board)]
    if player_file:
        words += ["--player-file", str(player_file)]
    words += ["--out", str(folder)]
    return shlex.join(words)


def load(out: str | os.PathLike[str]) -> dict[str, Any]:
    """A finished training's figures (``tuned.json``)."""
    path = Path(out) / "tuned.json"
    if not path.is_file():
        raise UserError(f"{out}: not a finished training (no tuned.json)")
    return json.loads(path.read_text(encoding="utf-8"))
