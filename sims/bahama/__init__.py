"""Bahama Taxi (seed 003_326e665aa3d4314a, rules v1.0, 2012-07-12) for ``balance``.

2–4 taxi drivers on a 52-field board labelled by playing cards carry citizens
drawn from a shuffled deck; the fare is the shortest-path distance of the ride
and the highest income wins when no citizen is left waiting.  Rules, board and
every reading: RULES.md.  The kernel and players load lazily (numba), so the
listings (params, board) start at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.errors import UserError
from balance.game import GameSpec, Outcomes, PlayerInfo
from sims.bahama.params import PARAMS, check_params

# board.py is imported on use, so `python -m sims.bahama.board` runs without a warning.
if TYPE_CHECKING:
    from sims.bahama import board as _board

_DISPATCH_CACHE: dict[tuple[Any, ...], Any] = {}
POLICY_ARGS = ("seat", "state", "rng")  # the player signature (players.py)


class BahamaSpec(GameSpec):
    name = "bahama"
    title = "Bahama Taxi"
    rulebook = "seed 003_326e665aa3d4314a (Bahama Taxi, rules v1.0, 2012-07-12); sims/bahama/RULES.md"
    summary = "2–4 taxis on a 52-field card board carry citizens for fares; the highest income wins"
    params = PARAMS
    end_reasons = ("no_waiting", "turn_limit")
    score_name = "income"
    min_players = 2
    max_players = 4
    # The strongest built-in, and the fastest (RULES.md, Players).
    default_players = ("nearest", "nearest")

    @property
    def players(self) -> tuple[PlayerInfo, ...]:  # type: ignore[override]
        from sims.bahama.players import PLAYERS

        return PLAYERS

    def check_params(self, values: Mapping[str, Any]) -> None:
        check_params(values)

    # ----- board ----------------------------------------------------------------
    def load_board(self, path: str | None = None) -> _board.Board:
        from sims.bahama.board import load_board

        return load_board(path)

    def board_json(self, board: _board.Board) -> dict[str, Any]:
        from sims.bahama.board import board_json

        return board_json(board)

    # ----- games ----------------------------------------------------------------
    def _prepare(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo],
        seatings: np.ndarray,
        board: Any,
    ) -> tuple[Any, np.ndarray, _board.Board]:
        """The policy (None: built-ins) and the seatings as policy indices."""
        seatings = np.asarray(seatings, dtype=np.int64)
        if seatings.ndim != 2 or seatings.shape[0] < 1:
            raise ValueError("seatings must be an int array [P, n_seats]")
        n_seats = seatings.shape[1]
        if not self.min_players <= n_seats <= self.max_players:
            raise UserError(
                f"{n_seats} players for {self.name}; allowed: {self.min_players} to {self.max_players}"
            )
        if seatings.min() < 0 or seatings.max() >= len(players):
            raise ValueError("seatings index a player that is not in players")
        board = board if board is not None else self.load_board(None)
        builtin = self.players
        if all(p.builtin for p in players):
            names = [b.name for b in builtin]
            index = np.asarray([names.index(p.name) for p in players], dtype=np.int64)
            return None, index[seatings], board
        funcs = tuple(p.func for p in players)
        policy = _DISPATCH_CACHE.get(funcs)
        if policy is None:
            from balance.plugins import compile_dispatch

            policy = _DISPATCH_CACHE[funcs] = compile_dispatch(funcs, POLICY_ARGS)
        return policy, seatings, board

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
        from sims.bahama import kernel

        policy, seats, board = self._prepare(params, players, seatings, board)
        n_seats = seats.shape[1]
        rules = kernel.rules_array(dict(params), n_seats)
        out = Outcomes.empty(n_games, n_seats)
        if n_games > 0:
            n_workers = kernel.workers_for(n_games)
            args = (
                rules,
                board.neighbours,
                board.degree,
                board.dist,
                seats,
                np.uint64(seed),
                np.int64(first_game),
                np.int64(n_games),
                np.int64(n_workers),
                out.winner,
                out.end_reason,
                out.turns,
                out.score,
            )
            if policy is None:
                kernel._simulate_batch(*args)
            else:
                kernel._simulate_batch_with(policy, *args)
        return out

    def trace(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo],
        seatings: np.ndarray,
        seed: int,
        game: int = 0,
        board: Any = None,
    ) -> list[dict[str, Any]]:
        from sims.bahama import kernel

        policy, seats, board = self._prepare(params, players, seatings, board)
        row = game % seats.shape[0]
        seat_row = seats[row]
        n_seats = seat_row.shape[0]
        values = dict(params)
        rules = kernel.rules_array(values, n_seats, record=True)
        events = np.zeros(
            (kernel.event_rows_for(values["max_turns"]), kernel.EVENT_WIDTH), np.int32
        )
        args = (
            rules,
            board.neighbours,
            board.degree,
            board.dist,
            seat_row,
            np.uint64(seed),
            np.int64(game),
            events,
        )
        holder = (
            kernel._trace_builtin(*args)
            if policy is None
            else kernel._trace_with(policy, *args)
        )
        st = holder[0]
        seating = np.asarray(seatings, dtype=np.int64)[row]
        setup = {
            "type": "setup",
            "game": self.name,
            "seed": int(seed),
            "game_index": int(game),
            "params": {p.name: values[p.name] for p in self.params},
            "players": [players[int(k)].name for k in seating],
            "board": board.to_json(),
            "deck": [int(x) for x in st["deck"]],
            "start": [int(x) for x in st["deck"][:n_seats]],
        }
        return [setup, *kernel.decode_events(st, events)]


SPEC = BahamaSpec()
