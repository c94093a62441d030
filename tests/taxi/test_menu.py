"""The move menu: ``build_menu`` (the board's drive trees walked, state.py "The
drive trees") lists the same entries in the same order as the breadth-first
search over the arcs (``_search_menu``), in every state tried.

What is measured: at every move decision of games on the default map and the
test village, with every player and several rule sets, both menus (their
number and all seven fields of every entry), there and in states made from
there: random tablets, barriers (next to the taxi, so that they cut drives),
streets used against the allowance, the path's room (down to none), the taxi
moved to any node with any arc into it driven last.  Then the same on boards
whose trees hit a small TREE_LIMIT (the nodes past it are searched)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from balance.registry import get_game
from balance.state import DECIDER, DECISION, SEAT
from sims.taxi import kernel as K
from sims.taxi import state as S
from sims.taxi.board import load_board

SPEC = get_game("taxi")
VILLAGE = "tests/taxi/boards/village.toml"
FIELDS = (S.MENU_NODE, S.MENU_PARENT, S.MENU_ARC, S.MENU_STEPS, S.MENU_GREENS, S.MENU_WHITES, S.MENU_STREETS)
LINEUPS = (
    ["random", "random", "random", "random"],
    ["router", "gambler", "investor", "cautious"],
)
RULES = (
    {},
    {"stop_on_freeway": True, "freeway_faces": 5, "green_faces": 5},
    {"freeway_faces": 8, "green_faces": 4, "green_supply": 200, "freeway_supply": 200, "barrier_supply": 40},
)


def menu(st: np.ndarray, search: bool) -> tuple[int, list[list[int]]]:
    """The menu of a copy of ``st``: by its tree, or by the search."""
    work = st.copy()
    n = int(K._search_menu(work) if search else K.build_menu(work))
    assert n == int(work[S.MENU_N])
    return n, [r.values(work)[:n].tolist() for r in FIELDS]


def same_menu(st: np.ndarray) -> int:
    walked = menu(st, search=False)
    searched = menu(st, search=True)
    assert walked == searched
    return walked[0]


def variant(st: np.ndarray, board, rng: random.Random) -> np.ndarray:
    """A state made from a move decision: tablets, barriers, streets, room and
    the taxi's node drawn at random (everything build_menu reads)."""
    st = st.copy()
    seat = int(st[SEAT])
    cap = int(st[S.PATH_CAP])
    if rng.random() < 0.5:  # the taxi anywhere, mid-move or at its start
        v = rng.randrange(board.n_nodes)
        into = [a for a in range(board.n_arcs) if board.arc_to[a] == v]
        plen = 1 if not into or rng.random() < 0.3 else rng.choice([2, 3, 10, cap - 2, cap - 1, cap])
        st[S.PATH_LEN] = plen
        st[S.path_at(st, plen - 1)] = v
        st[S.LAST_ARC] = rng.choice(into) if plen > 1 else -1
    u = int(st[S.path_at(st, int(st[S.PATH_LEN]) - 1)])
    st[S.greens_at(seat)] = rng.choice([0, 0, 1, 2, 3, 5, 40])
    st[S.whites_at(seat)] = rng.choice([0, 0, 1, 2, 3, 40])
    st[S.GREENS_USED] = min(int(st[S.greens_at(seat)]), rng.choice([0, 0, 1]))
    st[S.WHITES_USED] = min(int(st[S.whites_at(seat)]), rng.choice([0, 0, 1]))
    allowance = rng.randint(1, 9)
    st[S.ALLOWANCE] = allowance
    st[S.STREETS_USED] = rng.randint(0, allowance)
    near = [int(board.arc_seg[a]) for a in range(board.n_arcs) if u in (board.arc_from[a], board.arc_to[a])]
    far = list(range(len(board.segments)))
    k = rng.choice([0, 0, 1, 2, 6])
    st[S.N_BARRED] = k
    for i in range(k):
        st[S.barred_at(i)] = rng.choice(near if near and rng.random() < 0.6 else far)
    return st


def play_and_compare(board_path, players, rules, seed, rng, variants=3) -> tuple[int, int]:
    """Every move decision of one game (and ``variants`` states made from each)
    compared.  Returns (states compared, menu entries in them)."""
    board = SPEC.board_for(board_path) if isinstance(board_path, (str, type(None))) else board_path
    pos = SPEC.position(rules, players[: len(board.guides)], seed=seed, board=board, record=False)
    states = entries = 0
    pos.advance()
    while pos.pending is not None:
        st = pos.st
        if st[DECISION] == S.KIND_MOVE:
            entries += same_menu(st)
            states += 1
            for _ in range(variants):
                entries += same_menu(variant(st, board, rng))
                states += 1
        assert st[DECIDER] >= 0
        pos.answer(pos.decide())
        pos.advance()
    return states, entries


@pytest.mark.parametrize("board", [None, VILLAGE])
def test_the_walked_tree_lists_the_searched_menu(board):
    rng = random.Random(12)
    states = entries = 0
    for players in LINEUPS:
        for rules in RULES:
            for seed in range(2):
                s, e = play_and_compare(board, players, dict(rules, max_turns=400), seed, rng)
                states += s
                entries += e
    assert states > 1000 and entries > 2 * states


def test_every_node_from_every_arc_with_every_room():
    """The taxi on every node, arriving by every arc into it (or starting
    there), with unlimited tablets or none and each amount of room."""
    board = SPEC.board_for(None)
    pos = SPEC.position({"stop_on_freeway": True}, ["cautious", "cautious"], seed=0, board=board, record=False)
    st = pos.st.copy()
    seat = int(st[SEAT])
    cap = int(st[S.PATH_CAP])
    st[S.ALLOWANCE] = 6
    for v in range(board.n_nodes):
        into = [a for a in range(board.n_arcs) if board.arc_to[a] == v]
        for last in [-1, *into]:
            for tablets in (0, 1, 99):
                for plen in ((1,) if last < 0 else (2, cap - 3, cap)):
                    st[S.PATH_LEN] = plen
                    st[S.path_at(st, plen - 1)] = v
                    st[S.LAST_ARC] = last
                    st[S.greens_at(seat)] = tablets
                    st[S.whites_at(seat)] = tablets
                    st[S.STREETS_USED] = 6 if last >= 0 and tablets == 1 else 2
                    same_menu(st)


@pytest.mark.parametrize("limit", [0, 1000])
def test_a_board_past_the_tree_limit_keeps_the_trees_that_fit(monkeypatch, limit):
    """Trees past TREE_LIMIT words are not kept: the nodes they start from are
    searched, the others walked, and every menu is the same."""
    monkeypatch.setattr(S, "TREE_LIMIT", limit)
    board = load_board(None)  # a fresh board: its trees are built under the small limit
    words = S.drive_trees(board)
    first = [words[board.out_start[u]] for u in range(board.n_nodes) if board.out_start[u] < board.out_start[u + 1]]
    assert len(words) <= max(limit, board.n_arcs) and any(w < 0 for w in first)
    assert any(w >= 0 for w in first) and (limit > 0 or len(words) == board.n_arcs)
    rng = random.Random(8 + limit)
    states, _ = play_and_compare(board, LINEUPS[1], {"max_turns": 300, "freeway_faces": 6}, 1, rng, variants=2)
    assert states > 100


def test_the_trees_are_shared_and_small():
    """Identical subtrees are one block: the default map's 113 nodes hold
    5,536 menu entries with unlimited tablets, in under 2,000 words."""
    board = SPEC.board_for(None)
    words = S.drive_trees(board)
    assert (words[: board.n_arcs] >= 0).all()
    assert len(words) < 2000
