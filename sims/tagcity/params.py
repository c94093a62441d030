"""Tag City's rule parameters (RULES.md, "Parameters"); the kernel reads them at
``st[state.rule_at(P_*)]``: a choice as its index, a bool as 0/1."""

from __future__ import annotations

from balance.game import Param

DEFAULT_REMOTE_BOXES = 5  # len(sheet.remote) of the default board: drone_boxes' high end

PARAMS = (
    Param(
        "hq_side",
        "choice",
        "A",
        "HQ side: A = the printed ring ring_a; B = the ring drawn at setup from the shuffled pool_b",
        "\"Il est composé d'une face A et d'une face B. La face A est conseillée pour une première partie.\" "
        "(reading: side B assigns tiles at random, reviews)",
        choices=("A", "B"),
    ),
    Param(
        "orientations",
        "choice",
        "all",
        "how a drawn shape may be turned: rotations and mirror images / rotations only / as printed",
        'reading: the rulebook is silent; reviews say "rotated and flipped as needed"',
        choices=("all", "rotate", "fixed"),
    ),
    Param(
        "drone_shapes",
        "choice",
        "hq",
        "shapes a drone may draw: every HQ shape (ring and centre) / only the small centre ones",
        "\"il peut dessiner n'importe quelle forme\" (reading: the HQ's shapes, ludidice; "
        "centre is meeplegamers' reading)",
        choices=("hq", "centre"),
    ),
    Param(
        "drone_boxes",
        "int",
        5,
        "boxes on each remote (the first values of sheet.remote); circling the last one ends the game",
        '"Toutes les cases sur la télécommande d\'un joueur ont été cochées" (reading: 5, reviews; '
        "at most the default remote's 5 boxes, and at most the board's remote)",
        low=1,
        high=DEFAULT_REMOTE_BOXES,
    ),
    Param(
        "social_circles",
        "int",
        5,
        "social-network circles shared by the table; all circled ends the game",
        '"Tous les cercles des réseaux sociaux ont été entourés ou cochés" (reading: 5, reviews)',
        low=1,
        high=16,
    ),
    Param(
        "social_points",
        "int",
        0,
        "points for each social circle circled",
        "reading: the rulebook gives social circles no value, only the tie-break; two reviews say a pass costs points",
        low=-10,
        high=10,
    ),
    Param(
        "tie_rule",
        "choice",
        "all_high",
        "who scores high when several players complete the same open target with the shared die: "
        "each of them / the earliest in the round's draft order",
        '"Le premier joueur qui réalise cette action entoure toujours la plus grande valeur." '
        "(reading: simultaneous completions are all first)",
        choices=("all_high", "draft_order"),
    ),
    Param(
        "finish_round",
        "bool",
        True,
        "after an end condition, play the round out (rest of the draft and the shared die); false: stop at once",
        '"Les joueurs terminent leur tour normalement." (reading: the turn is the round)',
    ),
    Param(
        "max_rounds",
        "int",
        200,
        "safety cap on rounds; reached: reason round_limit, no winner",
        "reading: the rulebook has no cap; the default data ends every game by round 51",
        low=1,
        high=1000,
    ),
)

P_HQ_SIDE = 0
P_ORIENTATIONS = 1
P_DRONE_SHAPES = 2
P_DRONE_BOXES = 3
P_SOCIAL_CIRCLES = 4
P_SOCIAL_POINTS = 5
P_TIE_RULE = 6
P_FINISH_ROUND = 7
P_MAX_ROUNDS = 8
N_PARAMS = 9

# Choice indices, as the kernel sees them.
SIDE_A = 0
SIDE_B = 1
ORIENT_ALL = 0
ORIENT_ROTATE = 1
ORIENT_FIXED = 2
DRONE_HQ = 0
DRONE_CENTRE = 1
TIE_ALL_HIGH = 0
TIE_DRAFT_ORDER = 1

assert [p.name for p in PARAMS][P_MAX_ROUNDS] == "max_rounds" and len(PARAMS) == N_PARAMS
