"""The small interface between the toolkit and a game.

A game package (``sims/<game>/``) exposes one :class:`GameSpec` and registers it
under the ``balance.games`` entry-point group.  The toolkit only ever talks to
games through this interface, so it never names a game.

Contracts (docs/architecture.md):

* **Parameters** are declared once per game as :class:`Param` objects; the
  toolkit validates every value in Python before any kernel runs.
* **Players** are compiled functions with one signature per game, each with a
  :class:`PlayerInfo` (name and one-line description).
* **Outcomes** of a batch of games are four arrays, the same for every game:
  ``winner`` (seat or -1), ``end_reason`` (index into ``end_reasons``),
  ``turns`` and a per-seat ``score``.
* **Seatings**: ``simulate`` receives an ``int`` array ``seatings[P, n_seats]``
  of player indices; game ``g`` is played with seating ``seatings[g % P]``.
  Without seat rotation ``P == 1``.
* **Randomness**: game ``g`` under master seed ``S`` draws from its own stream
  seeded from ``(S, g)`` only (:mod:`balance.rng`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from balance.errors import UserError

PARAM_KINDS = ("int", "float", "bool", "choice")


@dataclass(frozen=True)
class Param:
    """One rule parameter: its type, default, allowed range, meaning and source.

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

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"parameter {self.name}: kind must be one of {PARAM_KINDS}")
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
        return f"{word} in {lo}..{hi}"

    def parse(self, text: str) -> Any:
        """Parse a command-line value (``"12"``, ``"0.5"``, ``"true"``) and validate it."""
        raw = text.strip()
        value: Any
        if self.kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise UserError(
                    f"parameter {self.name}={text!s}: expected {self.allowed}"
                ) from None
        elif self.kind == "float":
            try:
                value = float(raw)
            except ValueError:
                raise UserError(
                    f"parameter {self.name}={text!s}: expected {self.allowed}"
                ) from None
        elif self.kind == "bool":
            low = raw.lower()
            if low in ("true", "1", "yes", "on"):
                value = True
            elif low in ("false", "0", "no", "off"):
                value = False
            else:
                raise UserError(f"parameter {self.name}={text!s}: expected {self.allowed}")
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
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise UserError(bad)
        return value

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "low": self.low,
            "high": self.high,
            "choices": list(self.choices) or None,
            "allowed": self.allowed,
            "meaning": self.meaning,
            "source": self.source,
        }


@dataclass(frozen=True)
class PlayerInfo:
    """A player (strategy): a compiled function with the game's player signature."""

    name: str
    description: str
    func: Callable[..., Any] = field(repr=False, compare=False)
    builtin: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "builtin": self.builtin}


@dataclass
class Outcomes:
    """Outcomes of games ``first_game .. first_game + n - 1`` (one row per game)."""

    winner: np.ndarray  # int8[n]: winning seat, -1 when nobody wins
    end_reason: np.ndarray  # int8[n]: index into GameSpec.end_reasons
    turns: np.ndarray  # int32[n]: player turns played
    score: np.ndarray  # int32[n, n_seats]: the game's per-seat score

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


class GameSpec:
    """Base class of a game's specification.  Subclasses fill the class attributes
    and implement :meth:`load_board`, :meth:`board_json`, :meth:`simulate` and
    :meth:`trace`.
    """

    name: str = ""
    title: str = ""
    rulebook: str = ""  # where the rules come from
    summary: str = ""  # one line: what the game is
    params: tuple[Param, ...] = ()
    players: tuple[PlayerInfo, ...] = ()
    end_reasons: tuple[str, ...] = ()
    score_name: str = "score"  # what the per-seat score counts (e.g. "delivered")
    min_players: int = 2
    max_players: int = 4
    default_players: tuple[str, ...] = ()

    # ----- parameters ---------------------------------------------------------
    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        allowed = ", ".join(p.name for p in self.params)
        raise UserError(f"unknown parameter {name!r} for {self.name}; allowed: {allowed}")

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def resolve_params(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every rule parameter's value: defaults updated by validated ``overrides``."""
        values = self.defaults()
        for key, value in (overrides or {}).items():
            p = self.param(key)
            values[key] = p.parse(value) if isinstance(value, str) and p.kind != "choice" else p.validate(value)
        self.check_params(values)
        return values

    def check_params(self, values: Mapping[str, Any]) -> None:
        """Cross-parameter checks (override to refuse inconsistent combinations)."""

    # ----- players ------------------------------------------------------------
    def player(self, name: str, extra: Sequence[PlayerInfo] = ()) -> PlayerInfo:
        for p in (*self.players, *extra):
            if p.name == name:
                return p
        allowed = ", ".join(p.name for p in (*self.players, *extra))
        raise UserError(f"unknown player {name!r} for {self.name}; allowed: {allowed}")

    # ----- to implement -------------------------------------------------------
    def load_board(self, path: str | None = None) -> Any:
        """The default board (``path=None``) or the user's board file; UserError if bad."""
        raise NotImplementedError

    def board_json(self, board: Any) -> dict[str, Any]:
        """``{"nodes": [names], "adjacency": [[...], ...], ...}`` for ``balance board``."""
        raise NotImplementedError

    def simulate(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo],
        seatings: np.ndarray,
        seed: int,
        first_game: int,
        n_games: int,
        board: Any = None,
    ) -> Outcomes:
        """Play games ``first_game .. first_game + n_games - 1`` (all cores, prange).

        ``players`` is the list of distinct strategies; ``seatings[P, n_seats]``
        holds indices into it.  ``params`` are already validated.
        """
        raise NotImplementedError

    def simulate_gpu(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo],
        seatings: np.ndarray,
        seed: int,
        first_game: int,
        n_games: int,
        board: Any = None,
    ) -> Outcomes:
        """:meth:`simulate` on a CUDA GPU, game for game the same outcomes
        (``--device gpu``; only games that have a GPU kernel override it)."""
        raise self.no_gpu_error()

    @property
    def has_gpu(self) -> bool:
        """True when this game overrides :meth:`simulate_gpu`."""
        return type(self).simulate_gpu is not GameSpec.simulate_gpu

    def no_gpu_error(self) -> UserError:
        """The user error for ``--device gpu`` on a game without a GPU kernel."""
        from balance.registry import game_names, get_game

        with_gpu = [n for n in game_names() if get_game(n).has_gpu]
        return UserError(
            f"--device gpu: {self.name} has no GPU kernel; games with one: {', '.join(with_gpu) or 'none'}"
        )

    def trace(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo],
        seatings: np.ndarray,
        seed: int,
        game: int = 0,
        board: Any = None,
    ) -> list[dict[str, Any]]:
        """Events of game ``game``, exactly as :meth:`simulate` plays it."""
        raise NotImplementedError

    def player_decorator_kind(self) -> str:
        """The name a user's player file uses to target this game (its name)."""
        return self.name
