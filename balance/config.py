"""``balance.toml``: a designer's rules, balance goals and check settings in one file.

This module is the only reader of ``balance.toml`` (and of sweep files, which
are its ``[sweep]`` table on their own).  The file has six tables, each
optional except ``[game] name``::

    [game]      name, players, games, seed, rotate_seats, board, player_file
    [params]    the current rules: one ``key = value`` per rule parameter to set
    [targets]   balance goals: ``seat_win_rate = [0.45, 0.55]`` and friends
    [check]     alpha, correction and ``[check.tolerance]`` for ``balance check``
    [cluster]   scheduler: a Dask scheduler address (the optional extra)
    [sweep]     a sweep's settings (``balance sweep --config balance.toml``):
                the keys of a sweep file (:data:`SWEEP_KEYS`), ``[sweep.params]``
                the SPECs of the swept parameters

``[game]`` and ``[params]`` are one run description
(:class:`~balance.runspec.RunSpec`): what ``balance baseline`` plays and
``balance check`` replays, and what a ``[sweep]`` starts from.

Everything is validated once, when the file is read: an unknown key, a value
of the wrong type or out of range raises :class:`UserError` naming the file,
the key and the reason.  ``balance init GAME`` (:func:`init`) writes a starter
file with every rule parameter of the game at its default.

The default game of every command is ``[game] name`` of ``./balance.toml``,
else the registry's first game (:func:`default_game`).  ``balance run`` (and
``balance trace``) play the file's run: its ``[game]`` keys and ``[params]``,
each option given on the command line overriding the file's value
(:func:`run_for`); a file for another game than the one named on the command
line does not apply.

The ``[targets]`` and ``[check]`` tables are also recorded in each baseline
(``balance baseline``) and read back through :func:`parse_targets` and
:func:`parse_check`, so a baseline is checked the same way without the file.
"""

from __future__ import annotations

import difflib
import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from balance.errors import UserError
from balance.runspec import DEFAULT_SEED, MAX_SEED, RunSpec

CONFIG_FILE = "balance.toml"
DEFAULT_GAMES = 100_000  # per baseline/check: detects ~1-point shifts in a win rate

# Target names whose values are proportions (0..1) and those measured in turns.
PROPORTION_TARGETS = (
    "seat_win_rate", "strategy_win_rate", "no_winner_rate",
    # game feel (balance.feel): P(win | leading at 25%, half time, 75%), comeback, kingmaking,
    # the decisive moment (a share of the game)
    "lead_at_25_wins", "lead_at_half_wins", "lead_at_75_wins", "comeback_rate", "kingmaking_rate",
    "decisive_moment_mean",
)
LENGTH_TARGETS = ("turns_median", "turns_p90", "turns_mean")
MINUTE_TARGETS = ("minutes_median", "minutes_p90", "minutes_mean")  # for a game that declares seconds_per_turn
COUNT_TARGETS = ("lead_changes_mean",)  # game feel: lead changes per game
END_REASON = "end_reason"

# Tolerances: a statistically significant change no larger than this passes.
# Proportions in 0..1 (0.02 = 2 points), lengths in player turns.
DEFAULT_TOLERANCE: dict[str, float] = {
    "seat_win_rate": 0.02,
    "strategy_win_rate": 0.02,
    "no_winner_rate": 0.01,
    "end_reason": 0.02,
    "turns_mean": 1.0,
    "turns_median": 1.0,
    "turns_p90": 2.0,
}
TOLERANCE_MEANING = {
    "seat_win_rate": "each seat's win rate (0.02 = 2 points)",
    "strategy_win_rate": "each player's win rate over the games it took part in",
    "no_winner_rate": "share of games nobody wins",
    "end_reason": "each end reason's share of games (or a table: end_reason.NAME = ...)",
    "turns_mean": "mean game length, in player turns",
    "turns_median": "median game length, in player turns",
    "turns_p90": "90th percentile of game length, in player turns",
}
CORRECTIONS = ("holm", "bonferroni")

_GAME_KEYS = (
    "name",
    "players",
    "games",
    "seed",
    "rotate_seats",
    "board",
    "player_file",
)
_SECTIONS = ("game", "params", "targets", "check", "cluster", "sweep")

# A sweep's settings: a sweep file's keys, or the [sweep] table of a balance.toml.
SWEEP_KEYS = (
    "game", "games", "seed", "players", "board", "rotate_seats", "player_file",
    "out", "report", "png", "keep_games", "max_points", "threads", "scheduler", "device", "params",
)
_SWEEP_TYPES: dict[str, type] = {
    "game": str, "games": int, "seed": int, "board": str, "rotate_seats": bool, "player_file": str,
    "out": str, "report": str, "png": str, "keep_games": bool, "max_points": int, "threads": int,
    "scheduler": str, "device": str,
}
_SWEEP_PATHS = ("board", "player_file", "out", "report", "png")


@dataclass(frozen=True)
class Band:
    """A target band ``[low, high]`` (inclusive)."""

    low: float
    high: float

    def to_list(self) -> list[float]:
        return [self.low, self.high]


@dataclass
class CheckSettings:
    """How ``balance check`` decides: family-wise level, correction, tolerances."""

    alpha: float = 0.05
    correction: str = "holm"
    # Keys of DEFAULT_TOLERANCE, plus "end_reason.NAME" for one end reason.
    tolerance: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_TOLERANCE))

    def tolerance_for(self, metric: str) -> float:
        """Tolerance of a metric named like ``seat_win_rate[0]`` or ``end_reason[gridlock]``."""
        family, _, item = metric.partition("[")
        item = item.rstrip("]")
        if family == END_REASON and f"{END_REASON}.{item}" in self.tolerance:
            return self.tolerance[f"{END_REASON}.{item}"]
        return self.tolerance.get(family, DEFAULT_TOLERANCE.get(family, 0.0))

    def to_dict(self) -> dict[str, Any]:
        tol = {
            k: v
            for k, v in self.tolerance.items()
            if not k.startswith(END_REASON + ".")
        }
        per_reason = {
            k.split(".", 1)[1]: v
            for k, v in self.tolerance.items()
            if k.startswith(END_REASON + ".")
        }
        if per_reason:  # "*" keeps the all-reasons value next to the named ones
            tol[END_REASON] = {
                "*": tol.pop(END_REASON, DEFAULT_TOLERANCE[END_REASON]),
                **per_reason,
            }
        return {"alpha": self.alpha, "correction": self.correction, "tolerance": tol}


@dataclass
class Config:
    """A validated ``balance.toml``.

    ``run`` is its ``[game]`` and ``[params]``: the params only what the file
    sets, players None when it names none, board and player file as usable from
    the current folder.  ``sweep`` is its ``[sweep]`` table (paths anchored at
    the file), None without one.
    """

    path: Path | None
    run: RunSpec
    targets: dict[str, Band] = field(default_factory=dict)
    game_keys: frozenset[str] = frozenset()  # the [game] keys the file sets
    check: CheckSettings = field(default_factory=CheckSettings)
    scheduler: str | None = None
    sweep: dict[str, Any] | None = None

    @classmethod
    def for_game(cls, game: str) -> Config:
        """No file: a game at its default rules and players, the baseline defaults."""
        return cls(path=None, run=RunSpec(game, games=DEFAULT_GAMES))

    @property
    def where(self) -> str:
        return str(self.path) if self.path is not None else CONFIG_FILE

    # The run's fields, read (and ``game`` set) as the file's keys.
    @property
    def game(self) -> str:
        return self.run.game

    @game.setter
    def game(self, name: str) -> None:
        self.run = self.run.replace(game=name)

    @property
    def players(self) -> list[str] | None:
        return None if self.run.players is None else list(self.run.players)

    @property
    def games(self) -> int:
        return self.run.games

    @property
    def seed(self) -> int:
        return self.run.seed

    @property
    def rotate_seats(self) -> bool:
        return self.run.rotate_seats

    @property
    def board(self) -> str | None:
        return self.run.board

    @property
    def player_file(self) -> str | None:
        return self.run.player_file

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.run.params)

    def resolved_params(self) -> dict[str, Any]:
        """Every rule parameter: the game's defaults updated by ``[params]``."""
        from balance.registry import get_game

        return _resolve(get_game(self.game), self.params, self.where)


# --------------------------------------------------------------------------- reading
def find_config(
    path: str | Path | None = None, *, use_default: bool = True
) -> Config | None:
    """The rule file in force: ``path`` if given (it must exist), else
    ``./balance.toml`` when present and ``use_default``, else ``None``."""
    if path is not None:
        return load_config(path)
    if use_default and Path(CONFIG_FILE).is_file():
        return load_config(CONFIG_FILE)
    return None


def _read_toml(path: Path, where: str, style: str = ": ") -> dict[str, Any]:
    """The tables of a TOML file: the one place the project's TOML files are read.
    ``style`` joins ``where`` and the reason (``": "`` or ``" ("``)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise UserError(f"{where}: not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as exc:
        reason = " ".join(str(exc).split())
        raise UserError(f"{where}: not valid TOML: {reason}" if style == ": " else f"{where}: not valid TOML ({reason})") from None


def project_game(cwd: str | Path | None = None) -> str | None:
    """``[game] name`` of ``./balance.toml`` (or of ``cwd``'s), None without one.
    Only that key is read: a file whose other tables are wrong still names its game."""
    path = Path(cwd or ".") / CONFIG_FILE
    if not path.is_file():
        return None
    data = _read_toml(path, str(path), style=" (")
    table = data.get("game")
    name = table.get("name") if isinstance(table, dict) else None
    if name is not None and not isinstance(name, str):
        raise UserError(f"{path}: [game] name must be a string")
    return name


def default_game(cwd: str | Path | None = None) -> str:
    """The game named in ``./balance.toml`` when there is one, else the registry's first."""
    from balance.registry import first_game

    return project_game(cwd) or first_game()


def load_config(path: str | Path) -> Config:
    """Read and validate a ``balance.toml``; :class:`UserError` names file, key and reason."""
    p = Path(path)
    if not p.is_file():
        raise UserError(f"{p}: no such file (write one with 'balance init GAME')")
    return config_from_dict(_read_toml(p, str(p)), p)


def config_from_dict(data: Mapping[str, Any], path: Path | None = None) -> Config:
    """Validate the parsed tables of a ``balance.toml`` (``path`` only names it in errors
    and anchors relative file paths)."""
    where = str(path) if path is not None else CONFIG_FILE
    for key, value in data.items():
        if key not in _SECTIONS and not isinstance(value, dict):  # "seeds = 3" above every table
            raise UserError(
                f"{where}: {key}: a key outside any table{_suggest_place(key, data)}; keys belong in the tables "
                + ", ".join(f"[{s}]" for s in _SECTIONS)
            )
    _refuse_unknown(data, _SECTIONS, where, "")
    for section in _SECTIONS:
        if section in data and not isinstance(data[section], dict):
            raise UserError(f"{where}: [{section}] must be a table")
    game = dict(data.get("game", {}))
    for key in game:
        if key not in _GAME_KEYS and _is_rule(data, key):
            raise UserError(
                f"{where}: [game] {key}: a rule parameter; put it under [params] "
                f"([game] takes: {', '.join(_GAME_KEYS)})"
            )
    _refuse_unknown(game, _GAME_KEYS, where, "[game] ")
    if "name" not in game:
        raise UserError(
            f'{where}: [game] name: missing (the game these rules are for, e.g. name = "GAME"; see \'balance games\')'
        )
    name = game["name"]
    if not isinstance(name, str):
        raise UserError(f"{where}: [game] name: expected a string, got {_show(name)}")
    from balance.registry import game_names, get_game

    if name not in game_names():
        raise UserError(
            f"{where}: [game] name: unknown game {name!r}; allowed: {', '.join(game_names()) or '(none installed)'}"
        )
    spec = get_game(name)
    base = path.parent if path is not None else Path(".")
    run: dict[str, Any] = {"game": name, "games": DEFAULT_GAMES, "seed": DEFAULT_SEED}
    if "players" in game:
        run["players"] = tuple(_players(game["players"], spec, where))
    if "games" in game:
        run["games"] = _int(game["games"], where, "[game] games", 1, None)
    if "seed" in game:
        run["seed"] = _int(game["seed"], where, "[game] seed", 0, MAX_SEED)
    if "rotate_seats" in game:
        if not isinstance(game["rotate_seats"], bool):
            raise UserError(
                f"{where}: [game] rotate_seats: expected true or false, got {_show(game['rotate_seats'])}"
            )
        run["rotate_seats"] = game["rotate_seats"]
    for key in ("board", "player_file"):
        if key in game:
            value = game[key]
            if not isinstance(value, str) or not value.strip():
                raise UserError(
                    f"{where}: [game] {key}: expected a file name, got {_show(value)}"
                )
            file = _relative(base / value)
            if not Path(file).is_file():
                raise UserError(f"{where}: [game] {key}: no such file {file}")
            run[key] = file
    if run.get("players") is not None and run.get("player_file") is None:
        from balance.game import split_player_text

        known = [p.name for p in spec.players]
        for n in run["players"]:
            name = split_player_text(n)[0]
            if name not in known:
                raise UserError(
                    f"{where}: [game] players: unknown player {name!r} of {spec.name}{_suggest(name, known)}; "
                    f"allowed: {', '.join(known)}"
                )
            try:
                spec.parse_player(n)
            except UserError as exc:
                raise UserError(f"{where}: [game] players: {exc}") from None
    if run.get("board") is not None:
        try:
            spec.load_board(run["board"])
        except UserError as exc:
            raise UserError(f"{where}: [game] board: {exc}") from None
    run["params"] = tuple(_params(data.get("params", {}), spec, where).items())
    cfg = Config(path=path, run=RunSpec(**run), game_keys=frozenset(game))
    cfg.targets = parse_targets(data.get("targets", {}), spec, where)
    cfg.check = parse_check(data.get("check", {}), spec, where)
    cluster = data.get("cluster", {})
    _refuse_unknown(cluster, ("scheduler",), where, "[cluster] ")
    if "scheduler" in cluster:
        value = cluster["scheduler"]
        if not isinstance(value, str) or not value.strip():
            raise UserError(
                f'{where}: [cluster] scheduler: expected an address like "tcp://HOST:8786", got {_show(value)}'
            )
        cfg.scheduler = value.strip()
    if "sweep" in data:
        cfg.sweep = sweep_table(data["sweep"], f"{where}: [sweep]", base)
        if cfg.sweep.get("game", name) != name:
            raise UserError(f"{where}: [sweep] game: {cfg.sweep['game']!r}, but [game] name is {name!r}")
    return cfg


# --------------------------------------------------------------------------- a run from the file
def run_for(
    game: str | None = None,
    *,
    config: str | Path | Config | None = None,
    use_config: bool = True,
    params: Mapping[str, Any] | None = None,
    players: str | Sequence[str] | None = None,
    games: int | None = None,
    seed: int | None = None,
    rotate_seats: bool | None = None,
    board: str | None = None,
    player_file: str | None = None,
) -> tuple[RunSpec, Config | None]:
    """The run ``balance run`` plays, and the rule file it came from (None without one).

    The rule file is ``config`` (which must be for ``game`` when both are given),
    else ``./balance.toml`` when ``use_config`` and it is for ``game`` (or no game
    is named); it is validated completely.  Its ``[game]`` keys and ``[params]``
    describe the run; every argument that is not None overrides the file's value
    (``params`` one parameter at a time).  What neither sets takes the defaults:
    the game's rules and players, seed 0, 1,000,000 games, fixed seats.
    """
    from balance.runspec import DEFAULT_GAMES

    cfg: Config | None
    if isinstance(config, Config):
        cfg = config
    elif config is not None:
        cfg = load_config(config)
    elif use_config and Path(CONFIG_FILE).is_file():
        named = project_game()
        cfg = load_config(CONFIG_FILE) if game is None or named == game else None
    else:
        cfg = None
    if cfg is not None and game is not None and game != cfg.game:
        raise UserError(f"game {game!r} given, but {cfg.where} is for {cfg.game!r}")
    name = cfg.game if cfg is not None else game
    if name is None:
        name = default_game()
    keys = cfg.game_keys if cfg is not None else frozenset()

    def pick(value: Any, key: str, default: Any) -> Any:
        if value is not None:
            return value
        return getattr(cfg, key) if key in keys else default

    run = RunSpec.of(
        name,
        params={**(cfg.params if cfg is not None else {}), **(params or {})},
        players=pick(players, "players", None),
        games=pick(games, "games", DEFAULT_GAMES),
        seed=pick(seed, "seed", DEFAULT_SEED),
        rotate_seats=pick(rotate_seats, "rotate_seats", False),
        board=pick(board, "board", None),
        player_file=pick(player_file, "player_file", None),
    )
    return run, cfg


# --------------------------------------------------------------------------- sweep settings
def sweep_table(data: Mapping[str, Any], where: str, base: Path) -> dict[str, Any]:
    """A sweep's settings validated (``where`` names them in errors); paths
    anchored at ``base``, the folder of their file."""
    data = dict(data)
    unknown = sorted(set(data) - set(SWEEP_KEYS))
    if unknown:
        raise UserError(f"{where}: unknown key {unknown[0]!r}; allowed: {', '.join(SWEEP_KEYS)}")
    if "params" in data and not isinstance(data["params"], dict):
        raise UserError(f"{where}: [params] must be a table of NAME = SPEC")
    for key, kind in _SWEEP_TYPES.items():
        if key in data and (not isinstance(data[key], kind) or (kind is int and isinstance(data[key], bool))):
            raise UserError(f"{where}: {key} must be {'a ' + kind.__name__ if kind is not int else 'a whole number'}")
    if "players" in data and not (
        isinstance(data["players"], str)
        or (isinstance(data["players"], list) and all(isinstance(x, str) for x in data["players"]))
    ):
        raise UserError(f"{where}: players must be a string 'a,b' or a list of names")
    for key in _SWEEP_PATHS:
        if key in data:
            data[key] = str(base / data[key])
    return data


def load_sweep(path: str | Path) -> dict[str, Any]:
    """A sweep's settings from ``path`` (``balance sweep --config``): a sweep file
    (the keys of :data:`SWEEP_KEYS` at its top level), or a ``balance.toml``
    whose ``[sweep]`` table holds them.

    From a ``balance.toml`` the sweep starts from the file's run: the keys its
    ``[game]`` sets, its ``[params]`` (each a fixed value of the sweep) and its
    ``[cluster] scheduler``, then ``[sweep]`` (its ``[sweep.params]`` add to or
    replace the rules).  Paths are relative to the file's folder.
    """
    p = Path(path)
    if not p.is_file():
        raise UserError(f"--config {path}: no such file")
    data = _read_toml(p, f"--config {path}", style=" (")
    if not (isinstance(data.get("game"), dict) or "sweep" in data):
        return sweep_table(data, f"--config {path}", p.parent)
    cfg = config_from_dict(data, p)
    if cfg.sweep is None:
        raise UserError(f"--config {path}: no [sweep] table (the settings of a sweep); see docs/sweeps.md")
    game = data["game"]
    out: dict[str, Any] = {"game": cfg.game}
    for key in ("players", "games", "seed", "rotate_seats", "board", "player_file"):
        if key in game:
            value = getattr(cfg, key)
            out[key] = str(Path(value).resolve()) if key in ("board", "player_file") else value
    if cfg.scheduler:
        out["scheduler"] = cfg.scheduler
    sweep = dict(cfg.sweep)
    out["params"] = {**cfg.params, **sweep.pop("params", {})}
    out.update(sweep)
    return out


def _params(table: Mapping[str, Any], spec: Any, where: str) -> dict[str, Any]:
    names = [p.name for p in spec.params]
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key not in names:
            raise UserError(
                f"{where}: [params] {key}: unknown rule parameter of {spec.name}{_suggest(key, names)}"
            )
        p = spec.param(key)
        try:
            out[key] = p.validate(value)
        except UserError:
            raise UserError(
                f"{where}: [params] {key}: expected {p.allowed}, got {_show(value)}"
            ) from None
    _resolve(spec, out, where)  # cross-parameter checks of the whole rule set
    return out


def _resolve(spec: Any, overrides: Mapping[str, Any], where: str) -> dict[str, Any]:
    try:
        return spec.resolve_params(overrides)
    except UserError as exc:
        raise UserError(f"{where}: [params] {exc}") from None


def _players(value: Any, spec: Any, where: str) -> list[str]:
    if isinstance(value, str):
        names = [v.strip() for v in value.split(",")]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        names = [v.strip() for v in value]
    else:
        raise UserError(
            f'{where}: [game] players: expected a list of player names like ["a", "b"], got {_show(value)}'
        )
    if not (spec.min_players <= len(names) <= spec.max_players):
        raise UserError(
            f"{where}: [game] players: {len(names)} players; {spec.name} allows {spec.min_players} to {spec.max_players}"
        )
    if not all(names):
        raise UserError(f"{where}: [game] players: empty player name in {_show(value)}")
    return names


def parse_targets(table: Mapping[str, Any], spec: Any, where: str) -> dict[str, Band]:
    """``[targets]`` as bands keyed ``seat_win_rate`` ... and ``end_reason.NAME``."""
    if not isinstance(table, Mapping):
        raise UserError(f"{where}: [targets] must be a table")
    allowed = (*PROPORTION_TARGETS, *LENGTH_TARGETS, *MINUTE_TARGETS, *COUNT_TARGETS, END_REASON)
    out: dict[str, Band] = {}
    for key, value in table.items():
        if key not in allowed:
            raise UserError(
                f"{where}: [targets] {key}: unknown target{_suggest(key, allowed)}; allowed: {', '.join(allowed)}"
            )
        if key == END_REASON:
            if not isinstance(value, Mapping):
                raise UserError(
                    f"{where}: [targets] end_reason: expected end_reason.NAME = [low, high]"
                )
            for reason, band in value.items():
                if reason not in spec.end_reason_names:
                    raise UserError(
                        f"{where}: [targets] end_reason.{reason}: unknown end reason of {spec.name}; "
                        f"allowed: {', '.join(spec.end_reason_names)}"
                    )
                out[f"{END_REASON}.{reason}"] = _band(
                    band, where, f"end_reason.{reason}", proportion=True
                )
        else:
            if key in MINUTE_TARGETS and not getattr(spec, "seconds_per_turn", 0):
                raise UserError(
                    f"{where}: [targets] {key}: {spec.name} declares no table time of a turn; "
                    f"use {key.replace('minutes_', 'turns_')} (player turns)"
                )
            out[key] = _band(value, where, key, proportion=key in PROPORTION_TARGETS)
    return out


def targets_to_dict(targets: Mapping[str, Band]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, band in targets.items():
        if key.startswith(END_REASON + "."):
            out.setdefault(END_REASON, {})[key.split(".", 1)[1]] = band.to_list()
        else:
            out[key] = band.to_list()
    return out


def _band(value: Any, where: str, key: str, proportion: bool) -> Band:
    unit = (
        "proportions in 0..1" if proportion
        else "minutes, at least 0" if key.startswith("minutes_")
        else "turns, at least 0" if key in LENGTH_TARGETS else "at least 0"
    )
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
        )
    ):
        raise UserError(
            f"{where}: [targets] {key}: expected [low, high] ({unit}), got {_show(value)}"
        )
    low, high = float(value[0]), float(value[1])
    if low > high:
        raise UserError(
            f"{where}: [targets] {key}: low {value[0]} is above high {value[1]}"
        )
    if low < 0 or (proportion and high > 1):
        raise UserError(
            f"{where}: [targets] {key}: expected {unit}, got {_show(value)}"
        )
    return Band(low, high)


def parse_check(table: Mapping[str, Any], spec: Any, where: str) -> CheckSettings:
    """``[check]``: ``alpha``, ``correction`` and the ``tolerance`` table."""
    if not isinstance(table, Mapping):
        raise UserError(f"{where}: [check] must be a table")
    _refuse_unknown(table, ("alpha", "correction", "tolerance"), where, "[check] ")
    out = CheckSettings()
    if "alpha" in table:
        alpha = table["alpha"]
        if (
            isinstance(alpha, bool)
            or not isinstance(alpha, (int, float))
            or not 0 < alpha < 0.5
        ):
            raise UserError(
                f"{where}: [check] alpha: expected a number between 0 and 0.5 (e.g. 0.05), got {_show(alpha)}"
            )
        out.alpha = float(alpha)
    if "correction" in table:
        corr = table["correction"]
        if corr not in CORRECTIONS:
            raise UserError(
                f"{where}: [check] correction: expected one of {', '.join(CORRECTIONS)}, got {_show(corr)}"
            )
        out.correction = corr
    tol = table.get("tolerance", {})
    if not isinstance(tol, Mapping):
        raise UserError(
            f"{where}: [check] tolerance must be a table ([check.tolerance])"
        )
    for key, value in tol.items():
        if key not in DEFAULT_TOLERANCE:
            raise UserError(
                f"{where}: [check.tolerance] {key}: unknown metric{_suggest(key, DEFAULT_TOLERANCE)}; "
                f"allowed: {', '.join(DEFAULT_TOLERANCE)}"
            )
        if key == END_REASON and isinstance(value, Mapping):
            for reason, v in value.items():
                if reason == "*":  # the all-reasons value, as recorded in a baseline
                    out.tolerance[END_REASON] = _tolerance(v, where, END_REASON)
                    continue
                if reason not in spec.end_reason_names:
                    raise UserError(
                        f"{where}: [check.tolerance] end_reason.{reason}: unknown end reason of {spec.name}; "
                        f"allowed: {', '.join(spec.end_reason_names)}"
                    )
                out.tolerance[f"{END_REASON}.{reason}"] = _tolerance(
                    v, where, f"end_reason.{reason}"
                )
        else:
            out.tolerance[key] = _tolerance(value, where, key)
    return out


def _tolerance(value: Any, where: str, key: str) -> float:
    proportion = not key.startswith("turns_")
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value < 0
        or (proportion and value > 1)
    ):
        unit = (
            "a proportion in 0..1 (0.02 = 2 points)"
            if proportion
            else "a number of turns, at least 0"
        )
        raise UserError(
            f"{where}: [check.tolerance] {key}: expected {unit}, got {_show(value)}"
        )
    return float(value)


def _int(value: Any, where: str, key: str, low: int, high: int | None) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        rng = f"{low}..{high}" if high is not None else f"at least {low}"
        raise UserError(
            f"{where}: {key}: expected a whole number, {rng}, got {_show(value)}"
        )
    return value


def _refuse_unknown(
    table: Mapping[str, Any], allowed: Any, where: str, prefix: str
) -> None:
    for key in table:
        if key not in allowed:
            what = (
                f"[{key}]: unknown table"
                if not prefix
                else f"{prefix}{key}: unknown key"
            )
            raise UserError(
                f"{where}: {what}{_suggest(key, allowed)}; allowed: {', '.join(allowed)}"
            )


def _suggest(key: str, allowed: Any) -> str:
    close = difflib.get_close_matches(str(key), list(allowed), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _is_rule(data: Mapping[str, Any], key: str) -> bool:
    """Whether ``key`` is a rule parameter of the file's game (when it names a known one)."""
    table = data.get("game")
    name = table.get("name") if isinstance(table, dict) else None
    from balance.registry import game_names, get_game

    if not isinstance(name, str) or name not in game_names():
        return False
    return key in [p.name for p in get_game(name).params]


def _suggest_place(key: str, data: Mapping[str, Any]) -> str:
    """Where a key found outside every table probably belongs."""
    if _is_rule(data, key):
        return " (a rule parameter: put it under [params])"
    close = difflib.get_close_matches(str(key), list(_GAME_KEYS), n=1)
    return f" (did you mean [game] {close[0]}?)" if close else ""


def _show(value: Any) -> str:
    text = (
        json.dumps(value) if isinstance(value, (str, list, dict, bool)) else repr(value)
    )
    return text if len(text) <= 60 else text[:57] + "..."


def _relative(path: Path) -> str:
    """A path as seen from the current folder (relative when it is below it)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path.resolve())


# --------------------------------------------------------------------------- writing
def toml_value(value: Any) -> str:
    """A Python scalar or list as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")


INIT_GAMES = 2_000  # the short run that puts init's example targets on the game's scale


def measure_defaults(game: str, games: int = INIT_GAMES) -> dict[str, Any]:
    """A short run of ``game`` at its default rules and players (seed 0): the
    figures :func:`render_init` scales its example targets by."""
    from balance.play import play

    return play(RunSpec(game, games=games, seed=DEFAULT_SEED)).to_dict()


def _example_targets(spec: Any, measured: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The commented example ``[targets]`` lines: bands around what ``measured``
    (a run's figures, :func:`measure_defaults`) shows, so that they are on the
    game's own scale (a 12-round roll-and-write and a 200-turn race alike)."""
    n_seats = len(spec.default_players)
    fair = 1.0 / n_seats

    def share_band(low: float, high: float) -> str:
        return toml_value([round(max(0.0, low), 2), round(min(1.0, high), 2)])

    lines = [
        (f"# seat_win_rate = {share_band(fair - 0.05, fair + 0.05)}", f"every seat: its fair share 1/{n_seats} ± 5 points"),
        (f"# strategy_win_rate = {share_band(fair - 0.10, fair + 0.10)}", "every player, over the games it took part in"),
    ]
    if measured is None:  # no run to scale by: the bands are placeholders to edit
        lines += [("# no_winner_rate = [0.0, 0.05]", "games nobody wins")]
        lines += [(f"# {k} = [0, 1000]", "game length in player turns: set from 'balance run'") for k in LENGTH_TARGETS]
        lines += [(f"# end_reason.{r} = [0.0, 1.0]", "share of games ending this way") for r in spec.end_reason_names]
        return lines
    from balance import format as fmt

    n = measured["games"]
    nw = measured["no_winner_rate"]
    lines.append(
        (f"# no_winner_rate = {share_band(0.0, max(0.05, nw['ci95'][1] + 0.02))}",
         f"games nobody wins (measured {fmt.percent_ci(nw['rate'], nw['ci95'])})")
    )
    t = measured["turns"]
    for key, value, low, high in (
        ("turns_median", t["median"], 0.8, 1.2),
        ("turns_p90", t["p90"], 0.8, 1.25),
        ("turns_mean", t["mean"], 0.8, 1.2),
    ):
        band = [math.floor(value * low), math.ceil(value * high)]
        shown = f"{value:.1f} ± {1.96 * t['mean_se']:.1f}" if key == "turns_mean" else f"{value:g}"
        lines.append((f"# {key} = {toml_value(band)}", f"player turns (measured {shown})"))
    for r in spec.end_reason_names:
        sh = measured["end_reason_shares"][r]
        lines.append(
            (f"# end_reason.{r} = {share_band(sh['share'] - 0.10, sh['share'] + 0.10)}",
             f"share of games ending this way (measured {fmt.percent_ci(sh['share'], sh['ci95'])})")
        )
    lines[:0] = [
        ("# Example bands on this game's scale, around what 'balance init' measured: "
         f"{n:,} games of the default", ""),
        (f"# players ({', '.join(measured['players'])}) at the default rules, seed {measured['seed']}; "
         "shares with their 95% intervals.", ""),
    ]
    return lines


def render_init(game: str, measured: Mapping[str, Any] | None = None) -> str:
    """The text of a starter ``balance.toml`` for ``game``; ``measured`` (a short
    run's figures, :func:`measure_defaults`) scales the example targets."""
    from balance.registry import get_game

    spec = get_game(game)
    out: list[str] = []

    def block(lines: list[tuple[str, str]]) -> None:
        width = max((len(code) for code, comment in lines if comment), default=0)
        for code, comment in lines:
            out.append(f"{code:<{width}}  # {comment}" if comment else code)

    out += [
        f"# balance.toml: the rules of {spec.title or spec.name} under balance control.",
        "#   balance baseline   records today's figures in reports/baselines/"
        + f"{spec.name}.json",
        "#   balance check      replays the same games with the rules below and fails on a real shift",
        "# See docs/ci.md.  Every key is optional except [game] name.",
        "",
        "[game]",
    ]
    block(
        [
            (
                f"name = {toml_value(spec.name)}",
                spec.summary or "the game these rules are for",
            ),
            (
                f"players = {toml_value(list(spec.default_players))}",
                f"one player (strategy) per seat, {spec.min_players} to {spec.max_players}; see 'balance players {spec.name}'",
            ),
            (
                f"games = {DEFAULT_GAMES}",
                "games per baseline and check: more games, smaller shifts detected",
            ),
            (
                f"seed = {DEFAULT_SEED}",
                "master seed: a check replays the baseline's games (common random numbers)",
            ),
            (
                "rotate_seats = false",
                "true: play every seating of the players equally often",
            ),
            ('# board = "board.toml"', "a board file instead of the default board"),
            (
                '# player_file = "players.py"',
                "extra players of your own (see 'balance players')",
            ),
        ]
    )
    out += [
        "",
        "[params]",
        "# The rules: every parameter at its default.  Change a value to try a rule;",
        "# 'balance check' then shows what moved.  ('balance params "
        + spec.name
        + "' has the sources.)",
    ]
    if spec.params:
        block(
            [
                (f"{p.name} = {toml_value(p.default)}", f"{p.meaning} ({p.allowed})")
                for p in spec.params
            ]
        )
    out += [
        "",
        "[targets]",
        "# Balance goals, checked on today's figures: a target fails when its whole 95% interval",
        "# lies outside the band and warns when the interval straddles an edge.  Uncomment to use.",
    ]
    target_lines = _example_targets(spec, measured)
    block(target_lines)
    out += [
        "",
        "[check]",
    ]
    block(
        [
            (
                "alpha = 0.05",
                "chance of a false alarm per baseline when nothing changed (family-wise)",
            ),
            (
                'correction = "holm"',
                "multiple-comparison correction over the metrics: holm or bonferroni",
            ),
        ]
    )
    out += [
        "",
        "[check.tolerance]",
        "# A statistically significant change no larger than this still passes.",
    ]
    block(
        [
            (f"{k} = {toml_value(v)}", TOLERANCE_MEANING[k])
            for k, v in DEFAULT_TOLERANCE.items()
        ]
    )
    out += [
        "",
        "# [cluster]",
        '# scheduler = "tcp://127.0.0.1:8786"  # play on a Dask cluster (pip install balance[dask])',
        "",
    ]
    return "\n".join(out)


def init(
    game: str, path: str | Path = CONFIG_FILE, *, force: bool = False, measure_games: int | None = INIT_GAMES
) -> Path:
    """Write a starter ``balance.toml`` for ``game``; refuses to overwrite unless ``force``.

    Its example targets are scaled by a short run of the game's defaults
    (``measure_games`` games, seed 0; None: no run, placeholder bands)."""
    from balance.registry import get_game

    spec = get_game(game)  # UserError for an unknown game
    target = Path(path)
    if target.exists() and not force:
        raise UserError(f"{target}: already exists (use --force to overwrite)")
    measured = measure_defaults(spec.name, measure_games) if measure_games else None
    text = render_init(spec.name, measured)
    # The file we write must read back: a broken starter would be our bug.
    config_from_dict(tomllib.loads(text), target)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target
