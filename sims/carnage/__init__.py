"""Carnage: taxi companies race to deliver 7 commuters or own 4 cars.

Rulebook: ../shared/seeds/000_898c1d9018ac3fe3.txt (KerDelos & Tyrannas, made
for Ludum Dare).  Rules and their readings: ``RULES.md``; parameters:
``params.py``; board files: ``board.py``; the compiled rules: ``kernel.py``;
players: ``players.py``.  The toolkit finds the game through ``SPEC``
(entry point ``carnage = "sims.carnage:SPEC"``).

Numba is imported only when games are played or players listed, so listing
parameters stays instant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import GameSpec, Outcomes, PlayerInfo
from sims.carnage.board import CarnageBoard, board_json, load_board
from sims.carnage.params import PARAM_NAMES, PARAMS, check_params, param_array

END_REASONS = ("deliveries", "cars", "last_standing", "gridlock", "turn_limit")
POLICY_ARGS = ("kind", "seat", "car", "st")

_SPAWN_CAUSES = ("setup", "drop", "turn_end")
_LOSE_REASONS = ("stuck", "bankrupt")


@lru_cache(maxsize=1)
def _default_board() -> CarnageBoard:
    return load_board(None)


def _game_count(n_games: int) -> int:
    n = int(n_games)
    if n < 0:
        raise UserError(f"number of games must be at least 0, not {n}")
    return n


_DISPATCH: dict[tuple[int, ...], tuple[tuple[Any, ...], Any]] = {}


def _user_dispatch(funcs: tuple[Any, ...]) -> Any:
    """One compiled dispatcher per list of player functions (kept for the process,
    so a run in many chunks compiles its kernel once)."""
    from balance.plugins import compile_dispatch

    key = tuple(id(f) for f in funcs)
    if key not in _DISPATCH:
        _DISPATCH[key] = (funcs, compile_dispatch(funcs, POLICY_ARGS))
    return _DISPATCH[key][1]


class CarnageSpec(GameSpec):
    name = "carnage"
    title = "Carnage"
    rulebook = "../shared/seeds/000_898c1d9018ac3fe3.txt (Carnage, KerDelos & Tyrannas, Ludum Dare)"
    summary = (
        "taxi companies race to deliver 7 commuters or own 4 cars on a city-block grid"
    )
    params = PARAMS
    end_reasons = END_REASONS
    score_name = "delivered"
    min_players = 2
    max_players = 4
    default_players = ("greedy", "fleet")

    @property
    def players(self) -> tuple[PlayerInfo, ...]:  # type: ignore[override]
        from sims.carnage.players import PLAYERS

        return PLAYERS

    # ----- parameters and board ---------------------------------------------------
    def check_params(self, values: Mapping[str, Any]) -> None:
        check_params(values)

    def load_board(self, path: str | None = None) -> CarnageBoard:
        return _default_board() if path is None else load_board(path)

    def board_json(self, board: CarnageBoard | None = None) -> dict[str, Any]:
        return board_json(board if board is not None else _default_board())

    # ----- preparing a kernel call --------------------------------------------------
    def _prepare(
        self,
        params: Mapping[str, Any],
        players: Sequence[PlayerInfo],
        seatings: np.ndarray,
        board: CarnageBoard | None,
    ) -> tuple[Any, CarnageBoard, np.ndarray, np.ndarray, Any]:
        board = _default_board() if board is None else board
        if not isinstance(board, CarnageBoard):
            raise TypeError("board must come from SPEC.load_board")
        missing = [n for n in PARAM_NAMES if n not in params]
        if missing:
            raise TypeError(f"params miss {missing}; use SPEC.resolve_params")
        pa = param_array(params)
        seat_idx = np.ascontiguousarray(np.asarray(seatings, dtype=np.int64))
        if seat_idx.ndim == 1:
            seat_idx = seat_idx[None, :]
        if seat_idx.ndim != 2 or seat_idx.shape[0] < 1:
            raise TypeError("seatings must be an int array [P, n_seats]")
        n_seats = seat_idx.shape[1]
        if not self.min_players <= n_seats <= self.max_players:
            raise UserError(
                f"carnage plays with {self.min_players} to {self.max_players} players, not {n_seats}"
            )
        if n_seats > len(board.hq):
            raise UserError(
                f"board {board.source!r} has {len(board.hq)} HQ sites; {n_seats} players need one each"
            )
        if len(players) == 0 or seat_idx.min() < 0 or seat_idx.max() >= len(players):
            raise TypeError("seatings must index into players")
        builtin = self.players
        if all(p.builtin for p in players):
            index = {p.name: i for i, p in enumerate(builtin)}
            try:
                to_builtin = np.array([index[p.name] for p in players], dtype=np.int64)
            except KeyError as exc:
                raise UserError(
                    f"unknown built-in player {exc.args[0]!r} for carnage"
                ) from None
            policy = None  # the cached kernels with the built-in switch
            seat_idx = np.ascontiguousarray(to_builtin[seat_idx])
        else:
            policy = _user_dispatch(tuple(p.func for p in players))
        return (
            policy,
            board,
            pa,
            seat_idx,
            np.ascontiguousarray(board.hq_streets[:n_seats]),
        )

    # ----- playing ----------------------------------------------------------------------
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
        import numba

        from sims.carnage.kernel import kernels

        policy, board, pa, seat_idx, hq = self._prepare(
            params, players, seatings, board
        )
        n = _game_count(n_games)
        out = Outcomes.empty(n, seat_idx.shape[1])
        kernels(policy).simulate_batch(
            board.neighbours,
            board.n_neighbours,
            board.dist,
            hq,
            board.cards,
            pa,
            seat_idx,
            np.uint64(int(seed) % 2**64),
            np.int64(first_game),
            np.int64(n),
            np.int64(numba.get_num_threads()),
            out.winner,
            out.end_reason,
            out.turns,
            out.score,
        )
        return out

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
        from sims.carnage import gpu

        policy, board, pa, seat_idx, _ = self._prepare(params, players, seatings, board)
        gpu.check_players(policy)
        n = _game_count(n_games)
        out = Outcomes.empty(n, seat_idx.shape[1])
        gpu.simulate(board, pa, seat_idx, seed, first_game, n, out)
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
        from sims.carnage.kernel import trace_game

        policy, board, pa, seat_idx, hq = self._prepare(
            params, players, seatings, board
        )
        row = int(game) % seat_idx.shape[0]
        st = trace_game(board, pa, seat_idx[row], int(seed) % 2**64, int(game), policy)
        names = [
            players[int(i)].name
            for i in np.asarray(seatings, dtype=np.int64).reshape(seat_idx.shape)[row]
        ]
        setup = {
            "type": "setup",
            "game": "carnage",
            "seed": int(seed),
            "game_index": int(game),
            "params": {n: params[n] for n in PARAM_NAMES},
            "players": names,
            "board": {
                "nodes": list(board.names),
                "adjacency": [list(a) for a in board.adjacency],
                "hq": [int(s) for s in hq],
                "spawn_cards": [list(c) for c in board.spawn_cards],
            },
            "money": [int(params["start_money"])] * len(names),
        }
        return [setup, *events_from_state(st)]


def _ids(mask: int) -> list[int]:
    return [k for k in range(64) if mask >> k & 1]


def events_from_state(st: np.ndarray) -> list[dict[str, Any]]:
    """The trace rows of a recorded state as the dicts of issue 2's schema (all
    but ``setup``, which the caller builds from its inputs)."""
    from sims.carnage import kernel as K

    n = int(st[K.N_EVENTS])
    if n >= st[K.EVENT_ROWS]:  # the last row is the overflow sink
        raise RuntimeError(
            f"trace region too small: {n} rows for {int(st[K.EVENT_ROWS]) - 1}"
        )
    at = int(st[K.EVENTS_AT])
    rows = st[at : at + n * K.EVENT_WIDTH].reshape(n, K.EVENT_WIDTH).tolist()
    n_seats = int(st[K.N_SEATS])
    out: list[dict[str, Any]] = []
    for row in rows:
        kind, turn, a, b, c, d, e, _ = row
        if kind == K.EV_SPAWN:
            ev: dict[str, Any] = {
                "type": "spawn",
                "turn": turn,
                "cause": _SPAWN_CAUSES[a],
                "roll": None if b < 0 else b,
                "spawned": bool(c),
            }
            if c:
                ev.update(
                    card=d,
                    commuter=e,
                    origin=int(st[K.CARDS + 2 * d]),
                    dest=int(st[K.CARDS + 2 * d + 1]),
                )
        elif kind == K.EV_TURN:
            ev = {"type": "turn", "turn": turn, "seat": a}
        elif kind == K.EV_BUY:
            ev = {
                "type": "buy",
                "turn": turn,
                "seat": a,
                "car": b,
                "street": c,
                "cost": d,
            }
        elif kind == K.EV_DROP:
            ev = {
                "type": "drop",
                "turn": turn,
                "seat": a,
                "car": b,
                "street": c,
                "commuters": _ids(d),
            }
        elif kind == K.EV_MOVE:
            ev = {"type": "move", "turn": turn, "seat": a, "car": b, "from": c, "to": d}
        elif kind == K.EV_TAKE:
            ev = {
                "type": "take",
                "turn": turn,
                "seat": a,
                "car": b,
                "street": c,
                "commuters": _ids(d),
                "fare": e,
            }
        elif kind == K.EV_UPKEEP:
            ev = {"type": "upkeep", "turn": turn, "seat": a, "paid": b, "money": c}
        elif kind == K.EV_LOSE:
            ev = {"type": "lose", "turn": turn, "seat": a, "reason": _LOSE_REASONS[b]}
        elif kind == K.EV_END:
            ev = {
                "type": "end",
                "turn": turn,
                "winner": a,
                "reason": END_REASONS[b],
                "money": st[K.MONEY : K.MONEY + n_seats].tolist(),
                "delivered": st[K.DELIVERED : K.DELIVERED + n_seats].tolist(),
                "cars": st[K.N_CARS : K.N_CARS + n_seats].tolist(),
            }
        else:  # pragma: no cover - the kernel writes no other kind
            raise RuntimeError(f"unknown trace row {row}")
        out.append(ev)
    return out


SPEC = CarnageSpec()
