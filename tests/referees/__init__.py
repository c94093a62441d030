"""Referees: independent replays of game traces.

A referee reads a trace (a list of event dicts, already parsed from JSON Lines),
rebuilds the game from the ``setup`` event alone and checks every event against
the rules as written in the game's issue.  It shares no code with the kernels:
nothing here imports ``sims`` or ``balance`` -- only the standard library -- so a
rule misread in a kernel cannot be misread the same way here by construction.

The first violation raises :class:`IllegalTrace` naming the event index, the
event type and what was expected.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any


class IllegalTrace(AssertionError):
    """A trace breaks a rule.  ``index`` is the offending event's position."""

    def __init__(self, index: int, event: Any, message: str) -> None:
        self.index = index
        self.event = event
        self.reason = message
        kind = event.get("type", "?") if isinstance(event, dict) else "?"
        super().__init__(f"event {index} ({kind}): {message}")


def bfs_distances(adjacency: Sequence[Sequence[int]]) -> list[list[int]]:
    """All-pairs shortest path lengths (in edges) by BFS; -1 when unreachable."""
    n = len(adjacency)
    table = []
    for source in range(n):
        dist = [-1] * n
        dist[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for v in adjacency[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        table.append(dist)
    return table


def check_graph(adjacency: Any) -> str | None:
    """Why ``adjacency`` is not a simple undirected connected graph, or None."""
    if not isinstance(adjacency, list) or not adjacency:
        return "adjacency must be a non-empty list of lists"
    n = len(adjacency)
    for u, row in enumerate(adjacency):
        if not isinstance(row, list):
            return f"adjacency[{u}] is not a list"
        if len(set(row)) != len(row):
            return f"adjacency[{u}] lists a neighbour twice"
        for v in row:
            if not is_int(v) or not 0 <= v < n:
                return f"adjacency[{u}] names {v!r}, not a node 0..{n - 1}"
            if v == u:
                return f"adjacency[{u}] lists itself"
            if u not in adjacency[v]:
                return (
                    f"adjacency not symmetric: {u} lists {v} but {v} does not list {u}"
                )
    dist = bfs_distances(adjacency)
    if any(d < 0 for d in dist[0]):
        return "board is disconnected"
    return None


def is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def strict_equal(got: Any, want: Any) -> bool:
    """Equality that does not let ``True`` pass for 1 or ``2.0`` for 2 (JSON types matter)."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is type(want) and got == want
    if isinstance(want, int):
        return is_int(got) and got == want
    if isinstance(want, (list, tuple)):
        return (
            isinstance(got, (list, tuple))
            and len(got) == len(want)
            and all(strict_equal(g, w) for g, w in zip(got, want))
        )
    return got == want


class EventCursor:
    """Walks a trace event by event: the part every referee shares.

    A subclass sets ``self.st`` (its replayed state, with ``check_invariants()``
    and a ``counts`` dict) and may refine :meth:`count_key`.
    """

    def __init__(self, events: Sequence[dict], observer: Callable[[int, dict, Any], None] | None = None) -> None:
        self.events = list(events)
        self.i = 0
        self.observer = observer
        self.st: Any = None

    def fail(self, msg: str, index: int | None = None) -> None:
        idx = self.i if index is None else index
        ev = self.events[idx] if idx < len(self.events) else {}
        raise IllegalTrace(idx, ev, msg)

    def peek(self) -> dict | None:
        return self.events[self.i] if self.i < len(self.events) else None

    def take(self, *types: str, why: str = "") -> dict:
        ev = self.peek()
        want = " or ".join(types) + (f" ({why})" if why else "")
        if ev is None:
            raise IllegalTrace(self.i, {}, f"trace ends early: expected {want}")
        if not isinstance(ev, dict) or ev.get("type") not in types:
            got = ev.get("type") if isinstance(ev, dict) else ev
            self.fail(f"expected {want}, got {got!r}")
        return ev

    def count_key(self, ev: dict) -> str:
        """The name an accepted event is counted under (coverage statistics)."""
        return str(ev.get("type"))

    def done(self, ev: dict) -> None:
        """Accept the current event: check invariants, count it, tell the observer."""
        why = self.st.check_invariants()
        if why:
            self.fail(f"invariant broken: {why}")
        key = self.count_key(ev)
        self.st.counts[key] = self.st.counts.get(key, 0) + 1
        if self.observer is not None:
            self.observer(self.i, ev, self.st)
        self.i += 1
