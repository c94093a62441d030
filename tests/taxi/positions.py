"""Hand-built TAXI! positions for the rules tests: a game stepped from Python over
the compiled rules (``SPEC.position``), with helpers to set holdings, stack a
deck, force the dice and drive a chosen path step by step."""

from __future__ import annotations

from typing import Any

from balance.registry import get_game
from balance.state import SCRIPT, SCRIPT_LEN, SCRIPT_POS
from sims.taxi import state as S

SPEC = get_game("taxi")
BOARD = SPEC.board_for(None)
DECK_INDEX = {"journey": 0, "passenger": 1, "expense": 2}
HOLDINGS = {"money": S.money_at, "greens": S.greens_at, "whites": S.whites_at, "barriers": S.barriers_at,
            "plates": S.plates_at, "node": S.pos_at, "dest": S.dest_at, "out": S.out_at}


def node(name: str, board: Any = None) -> int:
    return (board or BOARD).node(name)


def card_id(deck: str, name_part: str, board: Any = None) -> int:
    """The first card of ``deck`` whose name contains ``name_part``."""
    cards = (board or BOARD).decks[deck]
    return next(i for i, c in enumerate(cards) if name_part in c.name)


class Game:
    """A game in progress; ``pending`` is (seat, kind, subject) or None."""

    def __init__(self, players=("cautious", "cautious"), params=None, board=None, seed=0):
        self.board = SPEC.board_for(board) if isinstance(board, str) or board is None else board
        self.pos = SPEC.position(params or {}, list(players), seed=seed, board=self.board)
        self.pending = self.pos.advance()

    @property
    def st(self):
        return self.pos.st

    # ---- setting the table
    def set(self, seat: int, **values: int) -> None:
        """Holdings of ``seat``: money, greens, whites, barriers, plates, node, dest, out."""
        for key, value in values.items():
            if isinstance(value, str):
                value = node(value, self.board)
            self.st[HOLDINGS[key](seat)] = value

    def get(self, seat: int, key: str) -> int:
        return int(self.st[HOLDINGS[key](seat)])

    def supply(self, **values: int) -> None:
        slots = {"green": S.SUPPLY_GREEN, "freeway": S.SUPPLY_WHITE, "barrier": S.SUPPLY_BARRIER,
                 "plate": S.SUPPLY_PLATE}
        for key, value in values.items():
            self.st[slots[key]] = value

    def top(self, deck: str, *cards: int) -> None:
        """Put ``cards`` on top of ``deck``'s draw pile, in this order."""
        d = DECK_INDEX[deck]
        at = int(S.order_at(self.st, d, 0))
        top = int(self.st[S.top_at(d)])
        size = int(S.deck_size(self.st, d))
        pile = [int(x) for x in self.st[at + top : at + size]]
        for c in cards:
            assert c in pile, f"card {c} is not in the {deck} pile"
            pile.remove(c)
        pile = list(cards) + pile
        self.st[at + top : at + size] = pile

    def pile(self, deck: str) -> list[int]:
        d = DECK_INDEX[deck]
        top = int(self.st[S.top_at(d)])
        return [int(self.st[S.order_at(self.st, d, i)]) for i in range(top, int(S.deck_size(self.st, d)))]

    def drawn(self, deck: str, n: int) -> None:
        """Leave only ``n`` cards in ``deck``'s draw pile (the others as discards)."""
        d = DECK_INDEX[deck]
        self.st[S.top_at(d)] = int(S.deck_size(self.st, d)) - n

    def force(self, *draws: int) -> None:
        """The next random draws (a d6 as its face - 1, the d12 as its face - 1)."""
        st = self.st
        assert st[SCRIPT_POS] == st[SCRIPT_LEN], "forced draws left unused"
        start = int(st[SCRIPT_LEN])
        for k, v in enumerate(draws):
            st[SCRIPT + start + k] = v
        st[SCRIPT_LEN] = start + len(draws)

    def die(self, move: int, tablet: int = 12) -> None:
        """Force the movement die and the tablet die (12: blank by default)."""
        self.force(move - 1, tablet - 1)

    # ---- playing
    def answer(self, value: int) -> None:
        self.pos.answer(value)
        self.pending = self.pos.advance()

    def kind(self) -> int:
        return -1 if self.pending is None else int(self.pending[1])

    def decide(self) -> None:
        """Let the seated player answer the pending decision."""
        self.answer(self.pos.decide())

    def until(self, kind: int, seat: int | None = None, limit: int = 500) -> None:
        """Let the players answer until ``seat`` is asked a decision of ``kind``."""
        for _ in range(limit):
            if self.pending is None:
                raise AssertionError("the game ended")
            if self.pending[1] == kind and (seat is None or self.pending[0] == seat):
                return
            self.decide()
        raise AssertionError("no such decision")

    def menu(self) -> list[dict[str, Any]]:
        st = self.st
        out = []
        columns = {
            "node": S.MENU_NODE, "parent": S.MENU_PARENT, "steps": S.MENU_STEPS, "greens": S.MENU_GREENS,
            "whites": S.MENU_WHITES, "streets": S.MENU_STREETS,
        }
        values = {key: region.values(st) for key, region in columns.items()}
        for i in range(int(st[S.MENU_N])):
            out.append({key: int(v[i]) for key, v in values.items()})
        return out

    def route(self, i: int) -> list[int]:
        entries = self.menu()
        nodes = []
        while i >= 0:
            nodes.append(entries[i]["node"])
            i = entries[i]["parent"]
        return nodes[::-1]

    def entry(self, *names: str) -> int:
        """The menu entry whose route is exactly these nodes (-1: none)."""
        want = [node(n, self.board) for n in names]
        for i in range(len(self.menu())):
            if self.route(i) == want:
                return i
        return -1

    def step(self, name: str) -> None:
        """Drive one segment to ``name`` (a menu entry of depth 1)."""
        assert self.kind() == S.KIND_MOVE, f"no move pending: {self.pending}"
        i = self.entry(name)
        assert i >= 0, f"no step to {name} in the menu"
        self.answer(i)

    def drive(self, *names: str, stop: bool = True) -> None:
        for name in names:
            self.step(name)
        if stop and self.kind() == S.KIND_MOVE:
            self.answer(S.STOP)

    def events(self) -> list[dict[str, Any]]:
        return self.pos.events()

    def last(self, kind: str) -> dict[str, Any]:
        return [e for e in self.events() if e["type"] == kind][-1]

    def all(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events() if e["type"] == kind]

    def names(self, nodes: list[int]) -> list[str]:
        return [self.board.nodes[n] for n in nodes]
