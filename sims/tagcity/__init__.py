"""Tag City: a roll-and-write for 2-4 players (Robin David, RUNES Editions, 2018).

The first player rolls players + 1 dice onto an HQ ring of graffiti tiles;
everyone drafts one die and paints its polyomino on an 8 x 12 city sheet of 5
districts (or uses a drone, or checks social networks); the last die is used by
all at once; completed rows, columns and districts score high for the first
and low for the rest.  Rules and readings: ``RULES.md``; parameters:
``params.py``; the board file: ``board.py``; the state: ``state.py``; players:
``players.py``; the rules: ``kernel.py``; the trace: ``events.py``.

Numba is imported only when games are played, so listings stay instant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.game import BudgetRung, EndReason, GameSpec, TraceContext
from sims.tagcity.params import PARAMS

MAX_ROUNDS_BOUND = 140  # no game on any valid board lasts longer (RULES.md, rule 4)


class TagCity(GameSpec):
    name = "tagcity"
    title = "Tag City"
    rulebook = "../shared/seeds/002_5ceeb26768fccaf1.txt (Tag City, Robin David, RUNES Editions, 2018)"
    summary = (
        "roll-and-write: draft dice, paint polyominoes on a city sheet, complete rows, columns and districts first"
    )
    params = PARAMS
    end_reasons = (
        EndReason("all_targets", "every row, column and district was completed by someone"),
        EndReason("social", "every social-network circle was circled"),
        EndReason("drones", "a player circled every box of their drone remote"),
        EndReason("round_limit", "max_rounds rounds were played", is_cap=True),
    )
    score_name = "score"
    standing_name = "points"
    turns_per_round = 1  # TURN counts rounds (rule 4)
    min_players = 2
    max_players = 4
    default_players = ("builder", "sniper")
    # The ladder a finding is checked along (balance sweep --ladder): the best
    # heuristic (docs/players.md) and the trained one (docs/train.md).
    best_heuristic = "builder"
    # Table time of a player turn (game length in minutes): reading.
    seconds_per_turn = 60.0
    seconds_per_turn_source = 'reading: a turn is a round of dice everybody paints (RULES.md, "Table time")'
    trained_heuristic = "sniper:gain_weight=1;contact_halves=6"
    # The search (docs/players.md, Tag City): 128 playouts two rounds deep over
    # builder, common random numbers, a switch at z >= 1.  At 64, 4x the budget
    # still won 53.2% (50.9-55.3) against it; at 128, 4x wins no more than half
    # (the ladder below was measured before the futility bound, whose race is
    # level with the race without it: 52.1% (48.1-56.1) of 600 games).
    mc_rollouts = 128
    mc_rollout_policy = "builder"
    mc_horizon = 2
    mc_evidence = 1.0
    # The budget ladder as measured (docs/players.md, the search player): mc with
    # 4x and 16x the budget heads up, seats alternating; balance players shows it.
    mc_ladder = (
        BudgetRung(512, 128, 970, 1004, 1.2,
                   "balance run tagcity --players mc:rollouts=512,mc:rollouts=128 --rotate-seats --games 2000 --seed 7"),
        BudgetRung(2048, 512, 54, 45, 0.7,
                   "balance run tagcity --players mc:rollouts=2048,mc:rollouts=512 --rotate-seats --games 100 --seed 11"),
        BudgetRung(256, 64, 1046, 922, 6.6,
                   "balance run tagcity --players mc:rollouts=256,mc:rollouts=64 --rotate-seats --games 2000 --seed 7"),
        BudgetRung(1024, 256, 51, 46, 2.3,
                   "balance run tagcity --players mc:rollouts=1024,mc:rollouts=256 --rotate-seats --games 100 --seed 11"),
    )

    def encode(self, params: Mapping[str, Any], board: Any, n_seats: int) -> np.ndarray:
        from sims.tagcity.state import encode

        return encode(params, board, n_seats)

    def max_events(self, params: Mapping[str, Any], n_seats: int, board: Any) -> int:
        rounds = min(int(params["max_rounds"]), MAX_ROUNDS_BOUND)
        return rounds * (2 + 2 * n_seats) + n_seats * 48 + 2

    def decode_trace(self, ctx: TraceContext) -> list[dict[str, Any]]:
        from sims.tagcity.events import decode

        return decode(ctx)

    def load_board(self, path: str | None = None) -> Any:
        from sims.tagcity.board import load_board

        return load_board(path)

    def board_json(self, board: Any) -> dict[str, Any]:
        from sims.tagcity.board import board_json

        return board_json(board)

    def board_text(self, board: Any) -> str | None:
        from sims.tagcity.board import board_text

        return board_text(board)

    def board_svg(self, board: Any) -> str | None:
        from sims.tagcity.drawing import board_svg

        return board_svg(board)

    def heatmap_shape(self, board: Any) -> tuple[int, int] | None:
        return (board.rows, board.cols)


SPEC = TagCity()
