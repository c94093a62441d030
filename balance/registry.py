"""Games are found through the ``balance.games`` entry-point group.

The built-in games register there exactly like a third-party game would
(``pyproject.toml``); the toolkit never imports a game by name.

Registry order: the game a distribution names in the ``balance.default_game``
group first (this project: its flagship), then every other game by name, then
games registered in Python (:func:`register`).  The first is the default game
when no ``balance.toml`` names one (:func:`first_game`).  (Installers write
entry points sorted by name, so the order they are declared in is lost: the
default is declared, not implied.)
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points

from balance.errors import UserError
from balance.game import GameSpec

GROUP = "balance.games"
DEFAULT_GROUP = "balance.default_game"  # NAME = "package:SPEC": the game listed first


@lru_cache(maxsize=1)
def _entry_points() -> dict:
    """Entry points by name, in registry order (see the module docstring)."""
    found = {}
    for ep in entry_points(group=GROUP):
        if ep.name in found:
            raise RuntimeError(f"two games registered as {ep.name!r} in {GROUP}")
        found[ep.name] = ep
    first = sorted(ep.name for ep in entry_points(group=DEFAULT_GROUP) if ep.name in found)[:1]
    return {name: found[name] for name in [*first, *sorted(n for n in found if n not in first)]}


def game_names() -> list[str]:
    return sorted({*_entry_points(), *_EXTRA})


def first_game() -> str:
    """The first game in registry order: the default game without a ``balance.toml``."""
    names = [*_entry_points(), *_EXTRA]
    if not names:
        raise UserError(f"no game installed (none registered in the {GROUP} entry points)")
    return names[0]


def get_game(name: str) -> GameSpec:
    if name in _EXTRA:
        return _EXTRA[name]
    return _load(name)


@lru_cache(maxsize=None)
def _load(name: str) -> GameSpec:
    eps = _entry_points()
    if name not in eps:
        allowed = ", ".join(game_names()) or "(none installed)"
        raise UserError(f"unknown game {name!r}; allowed: {allowed}")
    spec = eps[name].load()
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise RuntimeError(f"entry point {name!r} in {GROUP} is not a GameSpec named {name!r}")
    return spec


def register(spec: GameSpec) -> None:
    """Register a game without an entry point (tests, notebooks).  Refuses duplicates."""
    if spec.name in _entry_points() or spec.name in _EXTRA:
        raise ValueError(f"a game named {spec.name!r} is already registered")
    _EXTRA[spec.name] = spec


_EXTRA: dict[str, GameSpec] = {}
