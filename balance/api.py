"""The Python API behind every command.  The CLI only parses and prints."""

from __future__ import annotations

import os
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from balance.errors import UserError

DEFAULT_GAME = "carnage"
DEFAULT_GAMES = 1_000_000
DEFAULT_SEED = 0
PROJECT_FILE = "balance.toml"


def default_game(cwd: str | os.PathLike[str] | None = None) -> str:
    """The game named in ``./balance.toml`` when there is one, else the flagship."""
    path = Path(cwd or ".") / PROJECT_FILE
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"{path}: not valid TOML ({exc})") from None
        name = data.get("game", {}).get("name") if isinstance(data.get("game"), dict) else None
        if name is not None:
            if not isinstance(name, str):
                raise UserError(f"{path}: [game] name must be a string")
            return name
    return DEFAULT_GAME


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


def parse_players(text: str | Sequence[str] | None, spec: Any) -> list[str]:
    if text is None:
        return list(spec.default_players)
    names = [t.strip() for t in text.split(",")] if isinstance(text, str) else [str(t).strip() for t in text]
    if any(not n for n in names):
        raise UserError(f"--players {text!r}: expected comma-separated player names")
    return names


def check_games(games: int) -> int:
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise UserError(f"--games {games}: expected a whole number of at least 1")
    return games


def check_device(device: str) -> str:
    from balance.runner import DEVICES

    if device not in DEVICES:
        raise UserError(f"--device {device!r}: allowed: {', '.join(DEVICES)}")
    return device


def check_gpu_run(spec: Any, scheduler: str | None, player_file: str | None) -> None:
    """Everything ``--device gpu`` needs, checked before any game is played."""
    if not spec.has_gpu:
        from balance.registry import game_names, get_game

        with_gpu = [n for n in game_names() if get_game(n).has_gpu]
        raise UserError(
            f"--device gpu: {spec.name} has no GPU kernel; games with one: {', '.join(with_gpu) or 'none'}"
        )
    if scheduler or os.environ.get("BALANCE_SCHEDULER"):
        raise UserError("--device gpu runs on this machine; drop --scheduler (and BALANCE_SCHEDULER)")
    if player_file:
        raise UserError("--device gpu plays the built-in players only; a --player-file runs with --device cpu")
    from balance.gpu import require_cuda

    require_cuda()


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise UserError(f"--seed {seed}: expected a whole number in 0..2^63-1")
    return seed


@dataclass
class RunResult:
    """One rule set's results: the configuration, the aggregate and the figures."""

    game: str
    params: dict[str, Any]
    players: list[str]
    strategies: list[str]
    seed: int
    games: int
    rotate_seats: bool
    board: str | None
    aggregate: Any
    elapsed_s: float
    end_reasons: list[str]
    score_name: str
    extra: dict[str, Any] = field(default_factory=dict)
    device: str = "cpu"

    def to_dict(self) -> dict[str, Any]:
        from balance import __version__
        from balance.summary import summarize

        seat_players = ["rotated"] * len(self.players) if self.rotate_seats else self.players
        figures = summarize(self.aggregate, self.strategies, seat_players, self.end_reasons, self.score_name)
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "params": self.params,
            "players": self.players,
            "rotate_seats": self.rotate_seats,
            "board": self.board,
            "device": self.device,
            **figures,
            "elapsed_s": self.elapsed_s,
            "games_per_second": self.games / self.elapsed_s if self.elapsed_s > 0 else None,
            "version": __version__,
            **self.extra,
        }


def prepare(
    game: str | None,
    params: Mapping[str, Any] | None,
    players: str | Sequence[str] | None,
    board: str | None,
    player_file: str | None,
) -> tuple[Any, dict[str, Any], list[str], list[str], list[int]]:
    """Validate everything a run needs, before any kernel runs."""
    from balance.registry import get_game
    from balance.runner import resolve_players

    spec = get_game(game or default_game())
    values = spec.resolve_params(params)
    names = parse_players(players, spec)
    if board is not None:
        spec.board_for(board)  # refuse a bad board now, with its reason
    strategies, seat_index = resolve_players(spec, names, player_file)
    return spec, values, names, [s.label for s in strategies], seat_index


def run(
    game: str | None = None,
    *,
    games: int = DEFAULT_GAMES,
    players: str | Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    seed: int = DEFAULT_SEED,
    board: str | None = None,
    rotate_seats: bool = False,
    player_file: str | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
    device: str = "cpu",
) -> RunResult:
    """Play ``games`` games of one rule set and return their figures.

    ``progress`` is called with the number of games finished after each chunk.
    ``device="gpu"`` plays on a CUDA GPU (games with a GPU kernel; the same numbers).
    """
    from balance.runner import DEFAULT_CHUNK, GPU_CHUNK, Task, execute, make_executor, seatings_for, split

    check_games(games)
    check_seed(seed)
    check_device(device)
    spec, values, names, strategies, seat_index = prepare(game, params, players, board, player_file)
    if device == "gpu":
        check_gpu_run(spec, scheduler, player_file)
    seatings = seatings_for(seat_index, rotate_seats)
    board_path = str(Path(board).resolve()) if board else None
    pfile = str(Path(player_file).resolve()) if player_file else None
    tasks = [
        Task(
            spec.name,
            tuple(sorted(values.items())),
            tuple(strategies),
            tuple(tuple(int(x) for x in row) for row in seatings),
            seed,
            first,
            n,
            board_path,
            pfile,
            device=device,
        )
        for first, n in split(0, games, chunk or (GPU_CHUNK if device == "gpu" else DEFAULT_CHUNK))
    ]
    start = time.perf_counter()
    with make_executor(threads, scheduler) as executor:
        merged = execute(tasks, executor, (lambda t, a: progress(a.games)) if progress else None)
    elapsed = time.perf_counter() - start
    extra = {}
    if rotate_seats and games % seatings.shape[0]:
        extra["warning"] = (
            f"{games} games is not a multiple of the {seatings.shape[0]} seatings: "
            "some seatings were played once more than others"
        )
    return RunResult(
        game=spec.name,
        params=values,
        players=names,
        strategies=strategies,
        seed=seed,
        games=games,
        rotate_seats=rotate_seats,
        board=board,
        aggregate=merged[0],
        elapsed_s=elapsed,
        end_reasons=spec.end_reason_names,
        score_name=spec.score_name,
        extra=extra,
        device=device,
    )


def trace(
    game: str | None = None,
    *,
    seed: int = DEFAULT_SEED,
    game_index: int = 0,
    players: str | Sequence[str] | None = None,
    params: Mapping[str, Any] | None = None,
    board: str | None = None,
    player_file: str | None = None,
) -> list[dict[str, Any]]:
    """The events of one game (game ``game_index`` under ``seed``)."""
    import numpy as np

    from balance.runner import resolve_players

    check_seed(seed)
    if game_index < 0:
        raise UserError(f"--game-index {game_index}: expected a whole number of at least 0")
    from balance.registry import get_game

    spec = get_game(game or default_game())
    values = spec.resolve_params(params)
    board_data = spec.board_for(board)
    # The PlayerInfo objects themselves (a player file is loaded once).
    strategies, seat_index = resolve_players(spec, parse_players(players, spec), player_file)
    seatings = np.asarray([seat_index], dtype=np.int64)
    return spec.trace(values, strategies, seatings, seed, game_index, board_data)
