"""Bahama Taxi (seed 003_326e665aa3d4314a, rules v1.0, 2012-07-12) for ``balance``.

2–4 taxi drivers on a 52-field board labelled by playing cards carry citizens
drawn from a shuffled deck; the fare is the shortest-path distance of the ride
and the highest income wins when no citizen is left waiting.  Rules, board and
every reading: RULES.md.  The kernel and players load lazily (numba), so the
listings (params, board) start at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from balance.game import BudgetRung, EndReason, GameSpec, Staller, TraceContext
from sims.bahama.params import PARAMS, check_params

# board.py is imported on use, so `python -m sims.bahama.board` runs without a warning.
if TYPE_CHECKING:
    from sims.bahama import board as _board


class BahamaSpec(GameSpec):
    name = "bahama"
    title = "Bahama Taxi"
    rulebook = "seed 003_326e665aa3d4314a (Bahama Taxi, rules v1.0, 2012-07-12); sims/bahama/RULES.md"
    summary = "2–4 taxis on a 52-field card board carry citizens for fares; the highest income wins"
    params = PARAMS
    end_reasons = (
        EndReason(
            "no_waiting",
            "no citizen is left waiting: the highest income wins (a tie for first: no winner)",
        ),
        EndReason("turn_limit", "max_turns player turns were played; no winner", is_cap=True),
    )
    score_name = "income"
    standing_name = "income (fares collected)"
    min_players = 2
    max_players = 4
    # The strongest built-in, and the fastest (RULES.md, Players).
    default_players = ("nearest", "nearest")
    # The ladder a finding is checked along (balance sweep --ladder): the best
    # heuristic (docs/players.md) and the trained one (docs/train.md).
    best_heuristic = "nearest"
    # Table time of a player turn (game length in minutes): reading.
    seconds_per_turn = 15.0
    seconds_per_turn_source = 'reading: a turn is one move of one taxi and a pick-up or a drop (RULES.md, "Table time")'
    trained_heuristic = "best_fare:ride_discount=83;aboard_bonus=30"
    # The search (docs/players.md, Bahama Taxi): 256 playouts to the end over the
    # trained best_fare (it beats nearest, the best untuned heuristic, 63.6%),
    # common random numbers, a switch at z >= 1: the menu's plans are all good.
    # At 128, 4x the budget still won 53.5% (51.2-55.7) of 2,000 games; at 256,
    # 51.4% (50.4-52.4) of 10,000.  A challenger is dropped sooner than in the
    # other games (futility 0.25 against 0.1): as strong as 0.1 (49.9% of 1,875
    # decided, seed 7), about 40% fewer playouts a decision, and closer to
    # converged (4x against 0.1's default won 52.3% (51.2-53.3) of 10,000).
    mc_rollouts = 256
    mc_rollout_policy = "trained"
    mc_evidence = 1.0
    mc_futility = 0.25
    # The budget ladder as measured (docs/players.md, the search player): mc with
    # 4x and 16x the budget heads up, seats alternating; balance players shows it.
    mc_ladder = (
        BudgetRung(1024, 256, 4818, 4562, 74.1,
                   "balance run bahama --players mc:rollouts=1024,mc:rollouts=256 --rotate-seats --games 10000 --seed 7"),
        BudgetRung(4096, 1024, 87, 94, 29.0,
                   "balance run bahama --players mc:rollouts=4096,mc:rollouts=1024 --rotate-seats --games 200 --seed 11"),
        BudgetRung(512, 128, 1008, 876, 159.2,
                   "balance run bahama --players mc:rollouts=512,mc:rollouts=128 --rotate-seats --games 2000 --seed 7"),
        BudgetRung(2048, 512, 90, 93, 42.1,
                   "balance run bahama --players mc:rollouts=2048,mc:rollouts=512 --rotate-seats --games 200 --seed 11"),
    )
    # A losing player may stand on the last waiting citizen for ever: under the
    # rulebook's "may move" nothing makes it leave (RULES.md, Players).
    stallers = (
        Staller("waiter:patience=0", "stands on a waiting citizen while it is losing, so nobody can end the game",
                "must_move=true"),
        Staller("blocker:patience=0", "stands on the field the leader needs next while it is losing",
                "must_move=true"),
    )

    def check_params(self, values: Mapping[str, Any]) -> None:
        check_params(values)

    # ----- board ----------------------------------------------------------------
    def load_board(self, path: str | None = None) -> _board.Board:
        from sims.bahama.board import load_board

        return load_board(path)

    def board_json(self, board: _board.Board) -> dict[str, Any]:
        from sims.bahama.board import board_json

        return board_json(board)

    def board_svg(self, board: _board.Board) -> str | None:
        from sims.bahama.drawing import board_svg

        return board_svg(board)

    # ----- the compiled game ----------------------------------------------------
    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from sims.bahama.state import encode

        return encode(params, board, n_seats)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        """Setup citizens, then per turn at most turn, move, drop, pick-up and a
        replacement citizen, then end."""
        from sims.bahama.state import MAX_CITIZENS

        return MAX_CITIZENS + 5 * int(params["max_turns"]) + 2

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from sims.bahama.events import decode

        return decode(ctx)


SPEC = BahamaSpec()
