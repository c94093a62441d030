"""The contract between the toolkit and a game: the reference for writing one.

A game is a package ``sims/<game>/`` (or any installed package) with the same
few files, each doing the same job in every game::

    __init__.py     SPEC, the game's GameSpec (this module) and nothing else
    params.py       PARAMS: one Param per rule parameter; the kernel's P_* indices
    board.py        load_board(path) / board_json(board) when the game has a
                    board, map, sheet or decks as data (boards/default.toml)
    drawing.py      board_svg(board): its picture (balance.svg), when it has one
    state.py        the state layout (balance.state.Layout regions of one int64
                    array), the image built from params and board (encode), and
                    the rule helpers players may call; imports nothing of the game
                    but params
    players.py      the heuristic players: compiled functions with the one player
                    signature below, PLAYERS (their PlayerInfo) and ``heuristics``,
                    the switch over them; imports state.py, never kernel.py
    kernel.py       the rules: advance, apply, candidates, determinize, evaluate,
                    then KERNEL = balance.engine.compile_kernel(__name__, ...)
    events.py       decode(ctx): the trace rows as the game's event dicts
    gpu.py          (optional) the CUDA build of the same rules
    RULES.md        the rulebook's rules and every reading we made

and one entry point: ``[project.entry-points."balance.games"] NAME =
"package:SPEC"``.  ``docs/adding-a-game.md`` walks through it file by file.

What the contract fixes:

* **Parameters** are declared once (:class:`Param`) and validated here, in
  Python, before any kernel runs: a kernel never sees an invalid value.
* **Players** are compiled functions with one signature for every game::

      @njit
      def player(kind, seat, subject, st) -> int

  asked by the engine whenever the game's ``advance`` leaves a decision
  pending: ``kind`` is the game's decision kind, ``subject`` what it is about
  (a car, a card, ...), ``st`` the state (read through the game's state.py).
  Each has a :class:`PlayerInfo` (name, meaning, stochastic or not, its own
  parameters).  ``mc``, the search player, is added to every game's heuristics
  by the toolkit.
* **Outcomes** of a batch are four arrays, the same for every game
  (:class:`Outcomes`); each end reason is an :class:`EndReason` that says
  whether it is a simulation's cap rather than an end of the rulebook.
* **Seatings**: ``simulate`` receives ``seatings[P, n_seats]`` (indices into
  the list of seated players); game ``g`` is played with ``seatings[g % P]``.
* **Randomness**: game ``g`` under master seed ``S`` draws from its own
  stream seeded from ``(S, g)`` only (:mod:`balance.rng`).

The shared work (seat and player validation, user players, outcome arrays,
worker count, the CPU/GPU switch, traces, hand-built positions) is done once,
here, by :class:`GameSpec`.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from balance.errors import UserError

PARAM_KINDS = ("int", "float", "bool", "choice")
MAX_SEATS = 6  # balance.state.MAX_SEATS (not imported: numba stays unloaded for listings)
MAX_PLAYER_PARAMS = 16  # balance.state.MAX_PLAYER_PARAMS
MC_PARAMS = 8  # balance.state.MC_PARAMS: where mc's own values start
ALLOCATIONS = ("race", "even")  # balance.engine.ALLOCATIONS: how mc spends its playouts
HORIZON_UNITS = ("turns", "rounds")  # mc's horizon_unit: rounds are stored as a negative horizon
TRAINED = "trained"  # mc's rollout_policy: the game's trained heuristic (GameSpec.trained_heuristic)


@dataclass(frozen=True)
class Param:
    """One parameter (of the rules, or of a player): its type, default, allowed
    range, meaning and source.

    ``source`` quotes the rulebook line it comes from, or starts with
    ``"reading: "`` and says why we chose it where the rulebook is silent.
    """

    name: str
    kind: str
    default: Any
    meaning: str
    source: str
    low: float | int | None = None
    high: float | int | None = None
    choices: tuple[str, ...] = ()
    step: int | None = None  # an int parameter's values are multiples of this (money in $10 notes)

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"parameter {self.name}: kind must be one of {PARAM_KINDS}")
        if self.step is not None and (self.kind != "int" or int(self.step) < 1):
            raise ValueError(f"parameter {self.name}: a step is a whole number >= 1 of an int parameter")
        # The default must itself be valid: a declaration error, not a user error.
        self.validate(self.default)

    @property
    def allowed(self) -> str:
        """What values are allowed, in words (used by listings and errors)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        lo = "-inf" if self.low is None else self.low
        hi = "inf" if self.high is None else self.high
        word = "an integer" if self.kind == "int" else "a number"
        multiple = f", a multiple of {self.step}" if self.step and self.step > 1 else ""
        return f"{word} in {lo}..{hi}{multiple}"

    def parse(self, text: str) -> Any:
        """Parse a command-line value (``"12"``, ``"0.5"``, ``"true"``) and validate it."""
        raw = text.strip()
        bad = UserError(f"parameter {self.name}={text!s}: expected {self.allowed}")
        value: Any
        if self.kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise bad from None
        elif self.kind == "float":
            try:
                value = float(raw)
            except ValueError:
                raise bad from None
        elif self.kind == "bool":
            low = raw.lower()
            if low in ("true", "1", "yes", "on"):
                value = True
            elif low in ("false", "0", "no", "off"):
                value = False
            else:
                raise bad
        else:
            value = raw
        return self.validate(value)

    def validate(self, value: Any) -> Any:
        """Return ``value`` in its canonical type, or raise :class:`UserError`."""
        bad = f"parameter {self.name}={value!r}: expected {self.allowed}"
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                if isinstance(value, (float, np.floating)) and float(value).is_integer():
                    value = int(value)
                else:
                    raise UserError(bad)
            value = int(value)
        elif self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise UserError(bad)
            value = float(value)
            if not math.isfinite(value):
                raise UserError(bad)
        elif self.kind == "bool":
            if isinstance(value, (bool, np.bool_)):
                return bool(value)
            raise UserError(bad)
        else:
            if value not in self.choices:
                raise UserError(bad)
            return value
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise UserError(bad)
        if self.step and value % self.step:
            raise UserError(bad)
        return value

    def coerce(self, value: Any) -> Any:
        """A value from the command line (text) or from Python, validated."""
        if isinstance(value, str) and self.kind != "choice":
            return self.parse(value)
        return self.validate(value)

    def encode(self, value: Any) -> int:
        """The value as one ``int64`` kernel slot: a bool as 0/1, a choice as its
        index, a float as its bits (``balance.state.player_param_float``)."""
        if self.kind == "choice":
            return self.choices.index(value)
        if self.kind == "float":
            return int(np.float64(value).view(np.int64))
        return int(value)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "low": self.low,
            "high": self.high,
            "choices": list(self.choices) or None,
            "step": self.step,
            "allowed": self.allowed,
            "meaning": self.meaning,
            "source": self.source,
        }


def find_param(params: Sequence[Param], name: str, what: str) -> Param:
    """The parameter called ``name``, or a UserError listing the allowed ones."""
    for p in params:
        if p.name == name:
            return p
    allowed = ", ".join(p.name for p in params) or "none"
    raise UserError(f"unknown parameter {name!r} for {what}; allowed: {allowed}")


@dataclass(frozen=True)
class EndReason:
    """How a game can end.  ``is_cap``: a cut made by the simulation (a turn
    cap), not an end the rulebook gives; reports treat such games apart."""

    name: str
    meaning: str
    is_cap: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "meaning": self.meaning, "is_cap": self.is_cap}


@dataclass(frozen=True)
class Staller:
    """A player a game ships to probe a rule hole: it keeps a game from ending
    (``player`` in the player syntax, ``does`` what it does in words) and a
    rule setting that closes the hole (``closed_by``, ``NAME=VALUE``), measured
    in the game's RULES.md.  ``balance tournament --stallers`` seats it, and
    any output whose games hit a cap names it."""

    player: str
    does: str
    closed_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "does": self.does, "closed_by": self.closed_by}


@dataclass(frozen=True)
class BudgetRung:
    """One rung of the search player's budget ladder, as measured for a game
    (docs/players.md): mc with ``rollouts`` playouts against mc with
    ``against``, heads up with seats alternating, ``won`` and ``lost`` of the
    decided games; ``games_per_second``: that pair's games a second on the
    2-core machine of the measurement (its cost).  ``balance players GAME``
    shows them."""

    rollouts: int
    against: int
    won: int
    lost: int
    games_per_second: float
    command: str = ""

    def text(self, default: int) -> str:
        from balance.format import percent_ci
        from balance.stats import wilson

        n = self.won + self.lost
        lo, hi = wilson(self.won, n)
        share = percent_ci(self.won / n, (lo, hi)) if n else "–"
        return (
            f"{_times(self.rollouts, default)} against {_times(self.against, default)}: {share} of {n:,} decided "
            f"games ({self.games_per_second:,.1f} games/s for the pair, 2 cores)"
            + (f": {self.command}" if self.command else "")
        )

    def to_dict(self) -> dict[str, Any]:
        from balance.stats import wilson

        n = self.won + self.lost
        return {
            "rollouts": self.rollouts, "against": self.against, "won": self.won, "lost": self.lost,
            "share": self.won / n if n else None, "ci95": list(wilson(self.won, n)) if n else None,
            "games_per_second": self.games_per_second, "command": self.command,
        }


def _times(rollouts: int, default: int) -> str:
    if rollouts == default:
        return f"the default ({rollouts})"
    ratio = rollouts / default
    return f"{ratio:g}x ({rollouts})" if ratio >= 1 else f"1/{1 / ratio:g} ({rollouts})"


@dataclass(frozen=True)
class PlayerInfo:
    """A player (strategy): a compiled function with the player signature
    ``(kind, seat, subject, st) -> int``, what it does in one line, whether it
    draws random numbers, and its own parameters (read in the kernel with
    ``balance.state.player_param(st, seat, k)``, ``k`` its declaration index)."""

    name: str
    description: str
    func: Callable[..., Any] | None = field(default=None, repr=False, compare=False)
    builtin: bool = True
    stochastic: bool = False
    params: tuple[Param, ...] = ()
    notes: tuple[str, ...] = ()  # measured facts shown by `balance players` (mc: its budget ladder)

    def __post_init__(self) -> None:
        if len(self.params) > MAX_PLAYER_PARAMS:
            raise ValueError(f"player {self.name}: at most {MAX_PLAYER_PARAMS} parameters")

    def param(self, name: str) -> Param:
        return find_param(self.params, name, f"player {self.name}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "builtin": self.builtin,
            "stochastic": self.stochastic,
            "params": [p.to_dict() for p in self.params],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Player:
    """A seated player: a :class:`PlayerInfo` and its parameter values (the
    ones that differ from the defaults, in declaration order)."""

    info: PlayerInfo
    values: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, info: PlayerInfo, values: Mapping[str, Any] | None = None) -> "Player":
        given = dict(values or {})
        for key in given:
            info.param(key)  # a UserError naming the allowed ones
        kept = []
        for p in info.params:
            if p.name in given:
                value = p.coerce(given[p.name])
                if value != p.default:
                    kept.append((p.name, value))
        return cls(info, tuple(kept))

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def builtin(self) -> bool:
        return self.info.builtin

    @property
    def label(self) -> str:
        """``greedy`` or ``greedy:reserve=3;side_step=false``: how a user writes it."""
        if not self.values:
            return self.info.name
        return self.info.name + ":" + ";".join(f"{k}={_text(v)}" for k, v in self.values)

    def value(self, key: str) -> Any:
        for k, v in self.values:
            if k == key:
                return v
        return self.info.param(key).default

    def settings(self) -> dict[str, Any]:
        """Every parameter's value, defaults included."""
        return {p.name: self.value(p.name) for p in self.info.params}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def split_player_text(text: str) -> tuple[str, dict[str, str]]:
    """``"greedy:reserve=3;side_step=false"`` -> ``("greedy", {"reserve": "3", ...})``."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    values: dict[str, str] = {}
    if not name:
        raise UserError(f"player {text!r}: expected NAME or NAME:KEY=VALUE;KEY=VALUE")
    if rest.strip():
        for item in rest.split(";"):
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                raise UserError(f"player {text!r}: expected NAME:KEY=VALUE;KEY=VALUE, not {item!r}")
            if key.strip() in values:
                raise UserError(f"player {text!r}: {key.strip()} given twice")
            values[key.strip()] = value.strip()
    elif _:
        raise UserError(f"player {text!r}: expected NAME:KEY=VALUE after the colon")
    return name, values


@dataclass
class Outcomes:
    """Outcomes of games ``first_game .. first_game + n - 1`` (one row per game)."""

    winner: np.ndarray  # int8[n]: winning seat, -1 when nobody wins
    end_reason: np.ndarray  # int8[n]: index into GameSpec.end_reasons
    turns: np.ndarray  # int32[n]: player turns played
    score: np.ndarray  # int32[n, n_seats]: the game's per-seat score
    heat: np.ndarray | None = None  # int64[cells]: per-cell counts summed over these games (heatmap games)
    feel: np.ndarray | None = None  # int64[FEEL_COUNTS]: these games' game-feel counts (balance.feel.COUNTS); None: not kept

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    @classmethod
    def empty(cls, n_games: int, n_seats: int) -> Outcomes:
        """Uninitialised arrays for ``n_games`` games of ``n_seats`` seats, in the
        dtypes above, for a kernel to fill."""
        return cls(
            winner=np.empty(n_games, np.int8),
            end_reason=np.empty(n_games, np.int8),
            turns=np.empty(n_games, np.int32),
            score=np.empty((n_games, n_seats), np.int32),
        )


@dataclass
class TraceContext:
    """What a game's ``decode_trace`` gets: the inputs of one traced game, its
    final state and its trace rows (``rows[i]`` = kind, turn, six values)."""

    spec: "GameSpec"
    params: dict[str, Any]
    board: Any
    players: list[str]  # label of the player in each seat
    seed: int
    game: int
    st: np.ndarray
    rows: np.ndarray

    @property
    def n_seats(self) -> int:
        return len(self.players)

    def setup(self, **fields: Any) -> dict[str, Any]:
        """The ``setup`` event: the common fields, then the game's own."""
        return {
            "type": "setup",
            "game": self.spec.name,
            "seed": int(self.seed),
            "game_index": int(self.game),
            "params": {p.name: self.params[p.name] for p in self.spec.params},
            "players": list(self.players),
            **fields,
        }


@dataclass
class Job:
    """Everything a kernel call needs, validated and encoded (GameSpec._job)."""

    kernel: Any
    image: np.ndarray
    seat_index: np.ndarray  # int64[P, n_seats]: index of each seat's player in kernel.decide
    player_params: np.ndarray  # int64[P, n_seats, MAX_PLAYER_PARAMS]
    search: bool  # a search player is seated: states carry its workspace
    labels: np.ndarray  # object[P, n_seats]: each seat's player label
    board: Any
    builtin_only: bool


class GameSpec:
    """A game's specification.  Subclasses set the class attributes and implement
    :meth:`encode`, :meth:`max_events` and :meth:`decode_trace`; a game with a
    board overrides :meth:`load_board` and :meth:`board_json`.  Everything else
    (simulate, trace, positions, user players) is done here, the same for every
    game.

    The compiled parts are found by the package's file names: ``<package>.kernel``
    (``KERNEL``), ``<package>.players`` (``PLAYERS``), ``<package>.gpu``
    (``simulate``, when ``has_gpu``).
    """

    name: str = ""
    title: str = ""
    rulebook: str = ""  # where the rules come from
    summary: str = ""  # one line: what the game is
    params: tuple[Param, ...] = ()
    end_reasons: tuple[EndReason, ...] = ()
    score_name: str = "score"  # what the per-seat score counts (e.g. "delivered")
    # Game feel: what the kernel's ``standing`` reads to say who is ahead (its
    # score where the score means standing, else the search's win estimate),
    # and the player turns a round has (0: one per seat).
    standing_name: str = "win estimate"
    turns_per_round: int = 0
    margin_at_end: bool | None = None  # the final margin at the end (None: unless the standing is the win estimate)
    min_players: int = 2
    max_players: int = 4
    default_players: tuple[str, ...] = ()
    # The search player's defaults: the most playouts a decision may use, the
    # heuristic that plays them, turns per playout (0: to the end), whether the
    # answers of a round share its dice (common random numbers) and the evidence
    # (a one-sided z) an answer needs to replace the rollout policy's own.
    mc_rollouts: int = 64
    mc_rollout_policy: str = ""
    mc_horizon: int = 0
    mc_horizon_unit: str = "turns"  # what ``horizon`` counts: player turns, or rounds (a turn per seat in play)
    mc_crn: bool = True
    mc_evidence: float = 2.0
    mc_indifference: float = 0.005  # the smallest gain (a share of a win) worth the search's playouts
    mc_futility: float = 0.1  # the race drops a challenger whose chance of clearing the evidence falls below this
    # The search player's budget ladder as measured (BudgetRung: default, 4x, 16x).
    mc_ladder: tuple[BudgetRung, ...] = ()
    # Players that keep a game from ending where the rules let them (Staller).
    stallers: tuple[Staller, ...] = ()
    # The ladder of players a finding is checked along (balance sweep --ladder):
    # the game's best heuristic, its trained heuristic (the player syntax, from
    # balance train; "" when training kept the defaults) and mc.
    best_heuristic: str = ""
    trained_heuristic: str = ""
    has_gpu: bool = False
    # Table time of one player turn, in seconds (0: not declared), and where the
    # figure comes from: a rulebook line, or "reading: ..." with its reason.  Game
    # length in minutes is turns x seconds_per_turn / 60 (balance run, compare).
    seconds_per_turn: float = 0.0
    seconds_per_turn_source: str = ""

    def __init__(self) -> None:
        self._boards: dict[Any, Any] = {}
        self._images: dict[Any, np.ndarray] = {}
        self._user_kernels: dict[tuple[int, ...], tuple[Any, Any]] = {}
        if self.max_players > MAX_SEATS:
            raise ValueError(f"{self.name}: at most {MAX_SEATS} seats")

    # ----- what a game implements --------------------------------------------
    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        """The state image (``balance.state``): header sizes, rules, board tables."""
        raise NotImplementedError

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        """Most trace rows one game can write on ``board`` (sizes the trace region)."""
        raise NotImplementedError

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        """The trace of one game: ``setup``, the events, ``end``."""
        raise NotImplementedError

    def load_board(self, path: str | None = None) -> Any:
        """The default board (``path=None``) or the user's board file; UserError if
        bad.  A game without board data has none."""
        return None

    def board_json(self, board: Any) -> dict[str, Any]:
        """The board as data (``balance board GAME --json``)."""
        return {}

    def board_text(self, board: Any) -> str | None:
        """The board drawn in the terminal (``balance board GAME``); None: shown
        as a table of its data."""
        return None

    def board_svg(self, board: Any) -> str | None:
        """The board as an SVG picture (``balance board GAME --svg FILE``, and the
        board section of a report), drawn from ``board``'s data with
        :mod:`balance.svg`; None: the game has no drawing."""
        return None

    def heatmap_shape(self, board: Any) -> tuple[int, int] | None:
        """(rows, columns) of the per-cell heatmap a game opts into (its state
        layout's ``heat`` region, row-major); None: no heatmap."""
        return None

    def check_params(self, values: Mapping[str, Any]) -> None:
        """Cross-parameter checks (override to refuse inconsistent combinations)."""

    def check_seating(self, n_seats: int, board: Any) -> None:
        """Refuse a seat count the board cannot hold (UserError)."""

    # ----- parameters ---------------------------------------------------------
    def param(self, name: str) -> Param:
        return find_param(self.params, name, self.name)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def resolve_params(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every rule parameter's value: defaults updated by validated ``overrides``."""
        values = self.defaults()
        for key, value in (overrides or {}).items():
            values[key] = self.param(key).coerce(value)
        self.check_params(values)
        return values

    @property
    def end_reason_names(self) -> list[str]:
        return [r.name for r in self.end_reasons]

    # ----- players ------------------------------------------------------------
    @property
    def package(self) -> str:
        """The game's package: where the class that a game's ``__init__.py``
        defines lives (a subclass made elsewhere, to change a rule or a name,
        keeps its parent's compiled parts)."""
        for cls in type(self).__mro__:
            module = sys.modules.get(cls.__module__)
            if module is not None and hasattr(module, "__path__"):
                return cls.__module__
        raise RuntimeError(f"{type(self).__name__}: define a game's GameSpec in its package's __init__.py")

    def _module(self, name: str) -> Any:
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def heuristics(self) -> tuple[PlayerInfo, ...]:
        """The built-in heuristic players, in the order of ``players.heuristics``."""
        return tuple(self._module("players").PLAYERS)

    @property
    def players(self) -> tuple[PlayerInfo, ...]:
        """The built-in players: the heuristics, then the search player ``mc``."""
        heuristics = self.heuristics
        kernel = self._module("kernel").KERNEL
        return (*heuristics, self._search_player(heuristics, kernel.mc_player))

    def _search_player(self, heuristics: Sequence[PlayerInfo], func: Any) -> PlayerInfo:
        names = tuple(h.name for h in heuristics)
        policy = self.mc_rollout_policy or names[0]
        choices = (*names, TRAINED) if self.trained_heuristic else names
        shown = f"{TRAINED} ({self.trained_heuristic})" if policy == TRAINED else policy
        notes = tuple(f"budget ladder: {rung.text(self.mc_rollouts)}" for rung in self.mc_ladder)
        if not notes:
            notes = ("budget ladder: not measured for this game (docs/players.md says how)",)
        return PlayerInfo(
            "mc",
            f"Monte Carlo search: up to {self.mc_rollouts} playouts a decision raced against {shown}'s own "
            f"answer, {policy} in every seat of a playout; leaves {policy}'s answer only on evidence",
            func,
            builtin=True,
            stochastic=True,
            params=(
                Param("rollouts", "int", self.mc_rollouts,
                      "the most playouts a decision may use (a clear decision stops early)",
                      "reading: a budget; docs/players.md measures the ladder", low=1, high=100_000),
                Param("rollout_policy", "choice", policy, "the heuristic whose answer mc improves on, and that "
                      "plays every seat in a playout"
                      + (f" ({TRAINED}: {self.trained_heuristic}, the game's trained heuristic)" if self.trained_heuristic else ""),
                      "reading: the strongest fast heuristic of the game (docs/players.md)", choices=choices),
                Param("horizon", "int", self.mc_horizon,
                      "playout length in horizon_unit (0: to the end of the game)",
                      "reading: 0 scores real game ends", low=0, high=10_000),
                Param("crn", "bool", self.mc_crn,
                      "common random numbers: the answers of a round share its dice and deck",
                      "reading: on where it lowers the variance of a comparison (docs/players.md measures it)"),
                Param("evidence", "float", float(self.mc_evidence),
                      "how clearly (a one-sided z, Student-corrected) an answer must beat the rollout policy's "
                      "own before mc plays it (2.0: about 2.3% of false switches)",
                      "reading: docs/players.md", low=0.0, high=10.0),
                Param("allocation", "choice", "race",
                      "race: drop clear losers early and leave the policy's answer only on evidence; even: the "
                      "budget shared evenly, the best total wins (flat Monte Carlo, for comparison)",
                      "reading: docs/players.md", choices=ALLOCATIONS),
                Param("indifference", "float", float(self.mc_indifference),
                      "the smallest gain over the rollout policy's answer worth playouts, as a share of a win: the race "
                      "drops an answer once it clearly cannot gain that much", "reading: docs/players.md",
                      low=0.0, high=0.5),
                Param("futility", "float", float(self.mc_futility),
                      "the race drops a challenger once its predictive chance of ending with the evidence to be "
                      "played, in the rounds the budget has left, falls below this (0: never; a clear loser or a "
                      "challenger only a lucky streak would carry stops costing playouts)",
                      "reading: docs/players.md", low=0.0, high=1.0),
                Param("horizon_unit", "choice", self.mc_horizon_unit,
                      "what horizon counts: player turns, or rounds (one turn of every seat in play, so one "
                      "default fits every table size)",
                      "reading: docs/players.md", choices=HORIZON_UNITS),
            ),
            notes=notes,
        )

    def rollout_policy(self, mc: "Player | None" = None) -> "Player":
        """The heuristic (with its parameter values) that an ``mc`` plays its
        playouts with and improves on: its ``rollout_policy``, the game's trained
        heuristic for ``trained``."""
        name = (mc or self.parse_player("mc")).value("rollout_policy")
        if name == TRAINED:
            return self.parse_player(self.trained_heuristic)
        return self.parse_player(name)

    def ladder(self) -> tuple[str, ...]:
        """The players of the ladder, weakest first: the best heuristic, the
        trained one when it differs from it, and mc."""
        best = self.best_heuristic or self.mc_rollout_policy or self.heuristics[0].name
        rungs = [best]
        if self.trained_heuristic and self.parse_player(self.trained_heuristic).label != self.parse_player(best).label:
            rungs.append(self.trained_heuristic)
        return (*rungs, "mc")

    def player(self, name: str, extra: Sequence[PlayerInfo] = ()) -> PlayerInfo:
        found = [*self.players, *extra]
        for p in found:
            if p.name == name:
                return p
        allowed = ", ".join(p.name for p in found)
        raise UserError(f"unknown player {name!r} for {self.name}; allowed: {allowed}")

    def parse_player(self, text: str, extra: Sequence[PlayerInfo] = ()) -> Player:
        """``"greedy"`` or ``"greedy:reserve=3;side_step=false"`` as a Player."""
        name, values = split_player_text(text)
        return Player.of(self.player(name, extra), values)

    # ----- boards -------------------------------------------------------------
    def board_for(self, path: str | None = None) -> Any:
        """``load_board(path)``, loaded once per process and path."""
        if path not in self._boards:
            self._boards[path] = self.load_board(path)
        return self._boards[path]

    # ----- the shared work ----------------------------------------------------
    def _job(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo | Player],
        seatings: np.ndarray,
        board: Any,
    ) -> Job:
        missing = [p.name for p in self.params if p.name not in params]
        if missing:
            raise ValueError(f"params miss {missing}; use {self.name} SPEC.resolve_params")
        seat_rows = np.asarray(seatings, dtype=np.int64)
        if seat_rows.ndim == 1:
            seat_rows = seat_rows[None, :]
        if seat_rows.ndim != 2 or seat_rows.shape[0] < 1:
            raise ValueError("seatings must be an int array [P, n_seats]")
        n_seats = seat_rows.shape[1]
        if not self.min_players <= n_seats <= self.max_players:
            raise UserError(
                f"{n_seats} players for {self.name}; allowed: {self.min_players} to {self.max_players}"
            )
        seated = [p if isinstance(p, Player) else Player(p) for p in players]
        if not seated or seat_rows.min() < 0 or seat_rows.max() >= len(seated):
            raise ValueError("seatings must index into players")
        board = self.board_for(None) if board is None else board
        self.check_seating(n_seats, board)

        heuristics = self.heuristics
        builtin_names = [h.name for h in heuristics] + ["mc"]
        builtin_only = all(p.builtin for p in seated)
        kernel = self._module("kernel").KERNEL
        index = np.empty(len(seated), np.int64)
        if builtin_only:
            for i, p in enumerate(seated):
                if p.name not in builtin_names:
                    raise UserError(f"unknown built-in player {p.name!r} for {self.name}")
                index[i] = builtin_names.index(p.name)
        else:
            kernel, user_index = self._user_kernel(kernel, [p for p in seated if not p.builtin])
            for i, p in enumerate(seated):
                index[i] = builtin_names.index(p.name) if p.builtin else user_index[p.info.func]
        values = np.zeros((len(seated), MAX_PLAYER_PARAMS), np.int64)
        for i, p in enumerate(seated):
            values[i] = self._player_values(p, heuristics)
        search = any(p.builtin and p.name == "mc" for p in seated)
        image = self._image(params, board, n_seats)
        labels = np.empty(seat_rows.shape, dtype=object)
        for (r, s), k in np.ndenumerate(seat_rows):
            labels[r, s] = seated[k].label
        return Job(
            kernel=kernel,
            image=image,
            seat_index=np.ascontiguousarray(index[seat_rows]),
            player_params=np.ascontiguousarray(values[seat_rows]),
            search=search,
            labels=labels,
            board=board,
            builtin_only=builtin_only,
        )

    def _player_values(self, player: Player, heuristics: Sequence[PlayerInfo]) -> np.ndarray:
        """A seat's MAX_PLAYER_PARAMS slots: the player's values in declaration
        order; for mc, its rollout policy's defaults first, its own from MC_PARAMS."""
        out = np.zeros(MAX_PLAYER_PARAMS, np.int64)
        if player.builtin and player.name == "mc":
            policy = self.rollout_policy(player)
            for k, p in enumerate(policy.info.params):
                out[k] = p.encode(policy.value(p.name))
            names = [p.name for p in player.info.params]
            for k, p in enumerate(player.info.params):
                if p.name != "horizon_unit":  # no slot of its own: the horizon's sign
                    out[MC_PARAMS + k] = p.encode(player.value(p.name))
            out[MC_PARAMS + 1] = [h.name for h in heuristics].index(policy.name)  # the heuristic it plays
            if player.value("horizon_unit") == "rounds":  # balance.engine.playout_last_turn reads it so
                out[MC_PARAMS + names.index("horizon")] *= -1
            return out
        for k, p in enumerate(player.info.params):
            out[k] = p.encode(player.value(p.name))
        return out

    def _image(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        key = (tuple(sorted((k, params[k]) for k in params)), id(board), n_seats)
        image = self._images.get(key)
        if image is None:
            from balance.state import FEEL_TURNS, HEURISTIC_DEFAULTS, MAX_HEURISTICS

            if len(self._images) > 64:
                self._images.clear()
            image = np.array(self.encode(params, board, n_seats), dtype=np.int64, order="C")
            heuristics = self.heuristics
            if len(heuristics) > MAX_HEURISTICS:
                raise ValueError(f"{self.name}: at most {MAX_HEURISTICS} heuristic players")
            for h, info in enumerate(heuristics):  # what balance.state.lend_params lends
                for k, p in enumerate(info.params[:MC_PARAMS]):
                    image[HEURISTIC_DEFAULTS + h * MC_PARAMS + k] = p.encode(p.default)
            image[FEEL_TURNS] = int(self.turns_per_round)
            image.setflags(write=False)
            self._images[key] = image
        return image

    def _user_kernel(self, kernel: Any, users: Sequence[Player]) -> tuple[Any, dict[Any, int]]:
        """The drivers recompiled with a switch that also calls users' players
        (after the built-ins: the heuristics, then mc); once per process and set
        of functions."""
        funcs: list[Any] = []
        for p in users:
            if p.info.func not in funcs:
                funcs.append(p.info.func)
        key = tuple(id(f) for f in funcs)
        if key not in self._user_kernels:
            from balance.plugins import compile_dispatch

            decide = compile_dispatch(kernel.decide, kernel.mc + 1, funcs)
            self._user_kernels[key] = (funcs, kernel.with_decide(decide))
        first = kernel.mc + 1
        return self._user_kernels[key][1], {f: first + i for i, f in enumerate(funcs)}

    def simulate(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo | Player],
        seatings: np.ndarray,
        seed: int,
        first_game: int,
        n_games: int,
        board: Any = None,
        device: str = "cpu",
    ) -> Outcomes:
        """Play games ``first_game .. first_game + n_games - 1`` on every core
        (``device="gpu"``: on a CUDA GPU, game for game the same outcomes).

        ``players`` lists the distinct seated players; ``seatings[P, n_seats]``
        holds indices into it.  ``params`` are already resolved
        (:meth:`resolve_params`)."""
        job = self._job(params, players, seatings, board)
        n = int(n_games)
        if n < 0:
            raise UserError(f"number of games must be at least 0, not {n}")
        out = Outcomes.empty(n, job.seat_index.shape[1])
        if device == "gpu":
            self._compiled(job, None, ())
            self.gpu_simulate(job, seed, first_game, n, out)
            return out
        from balance.engine import FEEL_COUNTS

        out.feel = np.zeros(FEEL_COUNTS, np.int64)
        if n == 0:
            self._compiled(job, None, ())
            return out
        import numba

        workers = max(1, min(n, numba.get_num_threads()))
        cells = self.heat_cells(job.image)
        heat = np.zeros((workers, max(1, cells)), np.int64)
        feel = np.zeros((workers, FEEL_COUNTS), np.int64)
        args = (
            job.image,
            job.seat_index,
            job.player_params,
            np.uint64(int(seed) % 2**64),
            np.int64(first_game),
            np.int64(n),
            np.int64(workers),
            np.bool_(job.search),
            out.winner,
            out.end_reason,
            out.turns,
            out.score,
            heat,
            feel,
        )
        self._compiled(job, "play_batch", args)
        job.kernel.play_batch(*args)
        if cells:
            out.heat = heat[:, :cells].sum(axis=0)
        out.feel = feel.sum(axis=0)
        return out

    def _compiled(self, job: Job, part: str | None, args: tuple[Any, ...]) -> None:
        """Before the job's first call of its kernel's ``part`` (``play_batch``,
        ``play_traced``; None: no call follows): the game's own functions typed on
        their own (:func:`balance.engine.check_compiles`), then ``part`` compiled
        for the types of ``args``, or loaded from numba's cache.  A cold cache says
        so on stderr with the time it took last (:mod:`balance.coldstart`); a warm
        one says nothing."""
        from balance.coldstart import GUESS, cache_folder, compile_for, compiling
        from balance.engine import check_compiles

        builtin = self._module("kernel").KERNEL
        if part is None:
            check_compiles(self.name, builtin)
            return
        dispatcher = getattr(job.kernel, part)
        what = f"the {self.name} kernel" + ("" if job.builtin_only else " with your players")
        what += " for traces" if part == "play_traced" else ""
        folder = cache_folder(builtin.supplied["advance"])  # the game's own cache (balance.kernelcache's stamp)
        # the traced game after the batch reuses its compiled rules: a few seconds (docs/speed-history.md)
        after_batch = part == "play_traced" and bool(getattr(job.kernel.play_batch, "overloads", None))
        guess = "a few seconds" if after_batch else GUESS
        key = f"{self.name}:{part}" + ("" if job.builtin_only else "+players") + ("+after_batch" if after_batch else "")
        with compiling(what, dispatcher, key, folder, guess) as cold:
            check_compiles(self.name, builtin)
            if cold:
                compile_for(dispatcher, args)

    @staticmethod
    def heat_cells(image: np.ndarray) -> int:
        from balance.state import HEAT_CELLS

        return int(image[HEAT_CELLS])

    def gpu_simulate(self, job: Job, seed: int, first_game: int, n_games: int, out: Outcomes) -> None:
        """Fill ``out`` on a CUDA GPU (``<package>.gpu.simulate``)."""
        if not self.has_gpu:
            raise UserError(f"--device gpu: {self.name} has no GPU kernel")
        if not job.builtin_only:
            raise UserError("--device gpu plays the built-in players only; a --player-file runs with --device cpu")
        self._module("gpu").simulate(self, job, seed, first_game, n_games, out)

    @property
    def layout(self) -> Any:
        """The game's state layout (``<package>.state.LAYOUT``): its named regions."""
        return self._module("state").LAYOUT

    @property
    def events(self) -> Any:
        """The game's declared trace events (``<package>.events.EVENTS``), or None
        for a game that decodes its trace by hand."""
        return getattr(self._module("events"), "EVENTS", None)

    def describe(self, st: np.ndarray, *, static: bool = False) -> str:
        """A state of this game, region by region, by name (balance.state.describe)."""
        from balance.state import describe

        return describe(st, self.layout, static=static)

    def trace(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo | Player],
        seatings: np.ndarray,
        seed: int,
        game: int = 0,
        board: Any = None,
    ) -> list[dict[str, Any]]:
        """The events of game ``game``, exactly as :meth:`simulate` plays it."""
        job, row, st = self._traced(params, players, seatings, seed, game, board)
        return self.decode_trace(self._context(params, job, row, seed, game, st))

    def feel_record(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo | Player],
        seatings: np.ndarray,
        seed: int,
        game: int = 0,
        board: Any = None,
    ) -> np.ndarray:
        """Game ``game``'s game-feel record (int64[FEEL_OUT], the ``FO_*``
        columns of balance.engine), the one :meth:`simulate` counts."""
        from balance.engine import FEEL_OUT, feel_record

        _, _, st = self._traced(params, players, seatings, seed, game, board)
        rec = np.zeros((1, FEEL_OUT), np.int64)
        feel_record(st, rec, 0)
        return rec[0]

    def _traced(
        self, params: Mapping[str, Any], players: Sequence[PlayerInfo | Player], seatings: np.ndarray, seed: int,
        game: int, board: Any,
    ) -> tuple[Job, int, np.ndarray]:
        """Game ``game`` played with its trace recorded: the job, its seating row and the final state."""
        job = self._job(params, players, seatings, board)
        row = int(game) % job.seat_index.shape[0]
        n_seats = job.seat_index.shape[1]
        rows = int(self.max_events(params, n_seats, job.board)) + 1  # the last row is the overflow sink
        args = (
            job.image,
            np.ascontiguousarray(job.seat_index[row]),
            np.ascontiguousarray(job.player_params[row]),
            np.uint64(int(seed) % 2**64),
            np.int64(game),
            np.int64(rows),
            np.bool_(job.search),
        )
        self._compiled(job, "play_traced", args)
        st = job.kernel.play_traced(*args)
        return job, row, st

    def _context(self, params: Mapping[str, Any], job: Job, row: int, seed: int, game: int, st: np.ndarray) -> TraceContext:
        from balance.state import EVENT_WIDTH, EVENTS_AT, EVENT_ROWS, N_EVENTS

        n = int(st[N_EVENTS])
        if n >= int(st[EVENT_ROWS]):
            raise RuntimeError(f"{self.name}: trace region too small: {n} rows for {int(st[EVENT_ROWS]) - 1}")
        at = int(st[EVENTS_AT])
        rows = st[at : at + n * EVENT_WIDTH].reshape(n, EVENT_WIDTH)
        return TraceContext(self, dict(params), job.board, list(job.labels[row]), int(seed), int(game), st, rows)

    def position(
        self,
        params: Mapping[str, Any] | None,
        players: Sequence[str | PlayerInfo | Player],
        *,
        seed: int = 0,
        game: int = 0,
        board: Any = None,
        script: Sequence[int] = (),
        record: bool = True,
    ) -> "Position":
        """A game set up but not started, for building positions by hand in tests:
        seat ``i`` plays ``players[i]``; ``script`` forces the first random draws
        (a d6 as its face minus one, a card as its index)."""
        values = self.resolve_params(params)
        seated = [self.parse_player(p) if isinstance(p, str) else p for p in players]
        return Position(self, values, seated, seed, game, board, script, record)


class Position:
    """A game in progress, stepped from Python over the compiled rules: the
    engine's state ``st`` (read and written with the game's layout), the
    pending decision, answers, and the trace so far.  Nothing is duplicated:
    each step calls the game's own ``advance`` and ``apply``."""

    def __init__(
        self,
        spec: GameSpec,
        params: dict[str, Any],
        players: Sequence[PlayerInfo | Player],
        seed: int,
        game: int,
        board: Any,
        script: Sequence[int],
        record: bool,
    ) -> None:
        from balance import engine
        from balance.state import MAX_SCRIPT, SCRIPT, SCRIPT_LEN

        distinct: list[Player] = []
        for p in players:
            seated = p if isinstance(p, Player) else Player(p)
            if seated not in distinct:
                distinct.append(seated)
        seating = np.asarray(
            [[distinct.index(p if isinstance(p, Player) else Player(p)) for p in players]], np.int64
        )
        self.spec = spec
        self.params = params
        self.seed = int(seed)
        self.game = int(game)
        self.job = spec._job(params, distinct, seating, board)
        spec._compiled(self.job, None, ())
        n_seats = seating.shape[1]
        rows = int(spec.max_events(params, n_seats, self.job.board)) + 1 if record else 0
        self.st = engine.new_state(self.job.image, np.int64(n_seats), np.int64(rows), np.bool_(self.job.search))
        engine.reset_game(
            self.st, self.job.seat_index[0], self.job.player_params[0],
            np.uint64(self.seed), np.int64(self.game), np.bool_(record),
        )
        forced = np.asarray(script, dtype=np.int64)
        if len(forced) > MAX_SCRIPT:
            raise ValueError(f"at most {MAX_SCRIPT} forced draws")
        self.st[SCRIPT : SCRIPT + len(forced)] = forced
        self.st[SCRIPT_LEN] = len(forced)

    @property
    def kernel(self) -> Any:
        return self.job.kernel

    def advance(self) -> tuple[int, int, int] | None:
        """Run the rules to the next decision: ``(seat, kind, subject)``, or None
        once the game has ended (then nothing runs)."""
        if not self.ended:
            self.kernel.supplied["advance"](self.st)
        return self.pending

    @property
    def pending(self) -> tuple[int, int, int] | None:
        from balance.state import DECIDER, DECISION, END_REASON, SUBJECT

        if self.st[END_REASON] >= 0 or self.st[DECIDER] < 0:
            return None
        return int(self.st[DECIDER]), int(self.st[DECISION]), int(self.st[SUBJECT])

    def answer(self, value: int) -> None:
        """Resolve the pending decision with ``value``."""
        self.kernel.supplied["apply"](self.st, np.int64(value))

    def decide(self) -> int:
        """What the seated player would answer to the pending decision."""
        from balance.state import DECIDER, DECISION, SEATING, SUBJECT

        seat = self.st[DECIDER]
        return int(
            self.kernel.decide(self.st[SEATING + seat], self.st[DECISION], seat, self.st[SUBJECT], self.st)
        )

    def play(self) -> None:
        """Play on to the end with the seated players."""
        self.kernel.play_on(self.st)

    @property
    def ended(self) -> bool:
        from balance.state import END_REASON

        return bool(self.st[END_REASON] >= 0)

    def events(self) -> list[dict[str, Any]]:
        """The trace so far (setup first)."""
        return self.spec.decode_trace(self.spec._context(self.params, self.job, 0, self.seed, self.game, self.st))

    def describe(self, *, static: bool = False) -> str:
        """The state now, region by region, by name."""
        return self.spec.describe(self.st, static=static)

    def step(self) -> bool:
        """Answer the pending decision as the seated player would and run the
        rules to the next one; False once the game has ended."""
        if self.pending is None:
            self.advance()
        if self.pending is None:
            return False
        self.answer(self.decide())
        return self.advance() is not None
