"""Carnage: taxi companies race to deliver 7 commuters or own 4 cars.

Rulebook: ../shared/seeds/000_898c1d9018ac3fe3.txt (KerDelos & Tyrannas, made
for Ludum Dare).  The game's files, each with its job in the game contract
(balance/game.py): rules and their readings ``RULES.md``; parameters
``params.py``; board files ``board.py`` (``boards/default.toml``); the state
layout and the rule helpers players call ``state.py``; players ``players.py``;
the rules as a state machine ``kernel.py``; the trace ``events.py``; the CUDA
build of the same rules ``gpu.py``.  The toolkit finds the game through
``SPEC`` (entry point ``carnage = "sims.carnage:SPEC"``).

Numba is imported only when games are played or players listed, so listing
parameters stays instant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import BudgetRung, EndReason, GameSpec, TraceContext
from sims.carnage.board import CarnageBoard, board_json, load_board
from sims.carnage.params import PARAMS, check_params


class CarnageSpec(GameSpec):
    name = "carnage"
    title = "Carnage"
    rulebook = "../shared/seeds/000_898c1d9018ac3fe3.txt (Carnage, KerDelos & Tyrannas, Ludum Dare)"
    summary = "taxi companies race to deliver 7 commuters or own 4 cars on a city-block grid"
    params = PARAMS
    end_reasons = (
        EndReason("deliveries", "a player delivered win_deliveries commuters"),
        EndReason("cars", "a player owned win_cars cars"),
        EndReason("last_standing", "every other player went bankrupt or was stuck"),
        EndReason(
            "gridlock",
            "more than gridlock_limit commuters waited at gridlock_turns turn ends in a row: everybody loses",
        ),
        EndReason("turn_limit", "max_turns player turns were played, no winner", is_cap=True),
    )
    score_name = "delivered"
    standing_name = "win estimate (mc's strength logit, thousandths)"
    margin_at_end = False  # at the end the winner is above every seat by definition: the margin of the last round end
    min_players = 2
    max_players = 4
    default_players = ("greedy", "fleet")
    # The search player's default budget (RULES.md, 'The search player'): 128
    # playouts of 6 turns, greedy in every seat, scored by kernel.evaluate.
    # The ladder a finding is checked along (balance sweep --ladder): the best
    # heuristic (docs/players.md) and the trained one (docs/train.md, which kept the defaults).
    best_heuristic = "greedy"
    trained_heuristic = ""
    # The search (docs/players.md, Carnage): at most 128 playouts 6 turns deep
    # over greedy, common random numbers, a switch at z >= 1.5: 4x its budget
    # wins 51.4% (49.8-52.9) of 4,000 games against it (at 64, 4x won 52.0%
    # and 52.5% of 2,000 on two seeds), at about the earlier default's cost.
    mc_rollouts = 128
    mc_rollout_policy = "greedy"
    mc_horizon = 6
    mc_evidence = 1.5
    # The budget ladder as measured (docs/players.md, the search player): mc with
    # 4x and 16x the budget heads up, seats alternating; balance players shows it.
    mc_ladder = (
        BudgetRung(512, 128, 2055, 1944, 66.8,
                   "balance run carnage --players mc:rollouts=512,mc:rollouts=128 --rotate-seats --games 4000 --seed 7"),
        BudgetRung(2048, 512, 86, 114, 2.0,
                   "balance run carnage --players mc:rollouts=2048,mc:rollouts=512 --rotate-seats --games 200 --seed 11"),
    )
    has_gpu = True
    # Table time of a player turn (game length in minutes): rulebook.
    seconds_per_turn = 60.0
    seconds_per_turn_source = 'rulebook: "Game Duration : ~20 minutes"; the default players average 20.2 player turns (20,000 games, seed 0): 1200 s / 20 turns'

    # ----- parameters and board ---------------------------------------------------
    def check_params(self, values: Mapping[str, Any]) -> None:
        check_params(values)

    def load_board(self, path: str | None = None) -> CarnageBoard:
        return load_board(path)

    def board_json(self, board: CarnageBoard | None = None) -> dict[str, Any]:
        return board_json(board if board is not None else self.board_for(None))

    def board_svg(self, board: CarnageBoard) -> str:
        from sims.carnage.drawing import board_svg

        return board_svg(board)

    def check_seating(self, n_seats: int, board: Any) -> None:
        if not isinstance(board, CarnageBoard):
            raise TypeError("board must come from SPEC.load_board")
        if n_seats > len(board.hq):
            raise UserError(f"board {board.source!r} has {len(board.hq)} HQ sites; {n_seats} players need one each")

    # ----- the compiled parts ------------------------------------------------------
    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from sims.carnage.state import encode

        return encode(params, board, n_seats)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        from sims.carnage.state import max_events

        return max_events(params)

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from sims.carnage.events import decode

        return decode(ctx)


SPEC = CarnageSpec()
