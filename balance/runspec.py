"""What to play: one frozen description of a run, shared by every command.

A :class:`RunSpec` names the game, its rule parameters, the players by seat,
the master seed, the number of games, the board and player files and whether
the seats rotate.  ``balance run`` plays one; a sweep plays one per point (the
same description with other rules); a baseline records one and a check plays
it again; ``balance.toml`` holds one.  It is plain, hashable, picklable data:
the runner's tasks carry it to any process, which resolves the game by name.

:meth:`RunSpec.resolved` validates everything (game, rules, players, board,
player file) before any game is played and returns what a kernel call needs;
every mistake is a one-line :class:`~balance.errors.UserError`.

How a run is played (device, threads, an executor, chunks) is not part of the
description: the numbers do not depend on it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.seating import seatings_for

DEFAULT_GAMES = 1_000_000
DEFAULT_SEED = 0
MAX_SEED = 2**63 - 1
DEVICES = ("cpu", "gpu")


# --------------------------------------------------------------------------- checks of single inputs
def check_games(games: int) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise UserError(f"--games {games}: expected a whole number of at least 1")
    return games


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed {seed}: expected a whole number in 0..2^63-1")
    return seed


def check_device(device: str) -> str:
    if device not in DEVICES:
        raise UserError(f"--device {device!r}: allowed: {', '.join(DEVICES)}")
    return device


def split_players(text: str | Sequence[str]) -> tuple[str, ...]:
    """``"a,b"`` or ``["a", "b"]`` as player texts by seat."""
    names = [t.strip() for t in text.split(",")] if isinstance(text, str) else [str(t).strip() for t in text]
    if any(not n for n in names):
        raise UserError(f"--players {text!r}: expected comma-separated player names")
    return tuple(names)


def parse_param_assignments(items: Sequence[str]) -> dict[str, str]:
    """``["car_cost=12", ...]`` to ``{"car_cost": "12"}`` (values parsed by the game)."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise UserError(f"--param {item!r}: expected NAME=VALUE")
        key, value = item.split("=", 1)
        key = key.strip()
        if not key or not value.strip():
            raise UserError(f"--param {item!r}: expected NAME=VALUE")
        if key in out:
            raise UserError(f"--param {key} given twice")
        out[key] = value
    return out


# --------------------------------------------------------------------------- the description
@dataclass(frozen=True)
class RunSpec:
    """What to play (see the module docstring).

    ``params`` are ``(name, value)`` pairs: the rules the run sets, the others
    at the game's defaults (a resolved run lists every parameter).  ``players``
    are player texts by seat (``greedy``, ``greedy:reserve=3``); None: the
    game's default players.  ``board`` and ``player_file`` are paths.
    """

    game: str
    params: tuple[tuple[str, Any], ...] = ()
    players: tuple[str, ...] | None = None
    seed: int = DEFAULT_SEED
    games: int = DEFAULT_GAMES
    rotate_seats: bool = False
    board: str | None = None
    player_file: str | None = None

    @classmethod
    def of(
        cls,
        game: str,
        *,
        params: Mapping[str, Any] | Sequence[tuple[str, Any]] | None = None,
        players: str | Sequence[str] | None = None,
        seed: int = DEFAULT_SEED,
        games: int = DEFAULT_GAMES,
        rotate_seats: bool = False,
        board: str | Path | None = None,
        player_file: str | Path | None = None,
    ) -> RunSpec:
        """A description from the arguments a user gives (players as ``"a,b"`` or a
        list, params as a mapping); nothing is validated yet."""
        pairs = tuple((params or {}).items()) if isinstance(params, Mapping) else tuple(params or ())
        return cls(
            game=game,
            params=tuple((str(k), v) for k, v in pairs),
            players=None if players is None else split_players(players),
            seed=seed,
            games=games,
            rotate_seats=bool(rotate_seats),
            board=None if board is None else str(board),
            player_file=None if player_file is None else str(player_file),
        )

    # ----- changes (a new description each time) --------------------------------
    def replace(self, **changes: Any) -> RunSpec:
        return dataclasses.replace(self, **changes)

    def with_params(self, params: Mapping[str, Any]) -> RunSpec:
        """The same run under other rules (a sweep point)."""
        return self.replace(params=tuple(params.items()))

    def absolute(self) -> RunSpec:
        """Board and player file as absolute paths (for a process with another folder)."""
        return self.replace(
            board=str(Path(self.board).resolve()) if self.board else None,
            player_file=str(Path(self.player_file).resolve()) if self.player_file else None,
        )

    @property
    def rules(self) -> dict[str, Any]:
        """The parameters the description sets, as a dictionary."""
        return dict(self.params)

    # ----- validation -------------------------------------------------------------
    def resolved(self) -> Resolved:
        """Everything checked and looked up (cached per process); UserError on the
        first mistake, in the order: games, seed, game, rules, players, board,
        player file."""
        try:
            hash(self)
        except TypeError:  # a value no rule parameter can take (a list ...): refused uncached
            return _resolve.__wrapped__(self)
        return _resolve(self)

    def validate(self) -> RunSpec:
        """This run with every rule parameter and its players listed (raises like
        :meth:`resolved`)."""
        return self.resolved().run

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "params": dict(self.params),
            "players": None if self.players is None else list(self.players),
            "seed": self.seed,
            "games": self.games,
            "rotate_seats": self.rotate_seats,
            "board": self.board,
            "player_file": self.player_file,
        }


@dataclass(frozen=True)
class Resolved:
    """A validated run: the game, every rule, the players and how they sit."""

    run: RunSpec  # every rule parameter (in the game's order) and the players by seat
    spec: Any  # the GameSpec
    rules: dict[str, Any]
    strategies: tuple[Any, ...]  # the distinct seated players (balance.game.Player), in order of first seat
    seat_index: tuple[int, ...]  # per seat, the index of its player in ``strategies``
    seatings: np.ndarray  # int64[P, n_seats]: game g is played with row g % P
    board: Any  # the loaded board data (the game's default when run.board is None)

    @property
    def labels(self) -> list[str]:
        """Each distinct player as a user writes it (``greedy:reserve=3``)."""
        return [p.label for p in self.strategies]

    @property
    def names(self) -> list[str]:
        """The player texts by seat, as given."""
        return list(self.run.players or ())


def resolve_players(spec: Any, names: Sequence[str], player_file: str | None) -> tuple[list[Any], list[int]]:
    """Distinct seated players (in order of first seat) and, per seat, the index of
    its player; a name may carry parameter values (``greedy:reserve=3``)."""
    from balance.playerfile import players_in_file

    extra = players_in_file(spec, player_file)
    if not spec.min_players <= len(names) <= spec.max_players:
        raise UserError(
            f"{len(names)} players for {spec.name}; allowed: {spec.min_players} to {spec.max_players}"
        )
    strategies: list[Any] = []
    seat_index: list[int] = []
    for name in names:
        seated = spec.parse_player(name, extra)
        if seated not in strategies:
            strategies.append(seated)
        seat_index.append(strategies.index(seated))
    return strategies, seat_index


@functools.lru_cache(maxsize=256)
def _resolve(run: RunSpec) -> Resolved:
    from balance.registry import get_game

    check_games(run.games)
    check_seed(run.seed)
    spec = get_game(run.game)
    rules = spec.resolve_params(dict(run.params))
    names = list(run.players) if run.players is not None else list(spec.default_players)
    if run.board is not None:
        spec.board_for(run.board)  # refuse a bad board now, with its reason
    strategies, seat_index = resolve_players(spec, names, run.player_file)
    seatings = seatings_for(seat_index, run.rotate_seats)
    seatings.setflags(write=False)
    return Resolved(
        run=run.replace(params=tuple(rules.items()), players=tuple(names)),
        spec=spec,
        rules=rules,
        strategies=tuple(strategies),
        seat_index=tuple(seat_index),
        seatings=seatings,
        board=spec.board_for(run.board),
    )
