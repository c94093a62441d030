"""Graph helpers shared by game boards (plain Python/numpy, run once per board)."""

from __future__ import annotations

from collections import deque
from typing import Sequence

import numpy as np


def distances(adjacency: Sequence[Sequence[int]]) -> np.ndarray:
    """All-pairs shortest path lengths in moves (BFS); -1 where unreachable."""
    n = len(adjacency)
    dist = np.full((n, n), -1, dtype=np.int32)
    for src in range(n):
        dist[src, src] = 0
        queue = deque([src])
        while queue:
            u = queue.popleft()
            for v in adjacency[u]:
                if dist[src, v] < 0:
                    dist[src, v] = dist[src, u] + 1
                    queue.append(v)
    return dist


def padded_neighbours(adjacency: Sequence[Sequence[int]], width: int | None = None) -> np.ndarray:
    """``int32[n, width]`` neighbour table padded with -1 (kernels read this)."""
    width = width or max((len(a) for a in adjacency), default=0)
    table = np.full((len(adjacency), max(width, 1)), -1, dtype=np.int32)
    for i, nbrs in enumerate(adjacency):
        table[i, : len(nbrs)] = nbrs
    return table
