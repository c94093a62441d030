"""The one error type for a user's mistake.

A :class:`UserError` carries a single line that names the bad input and what
is allowed.  The CLI prints it and exits with status 2, without a traceback;
library callers can catch it like any ``ValueError``.
"""

from __future__ import annotations


class UserError(ValueError):
    """A mistake in what the user asked for (unknown name, bad value, bad file)."""

    def __init__(self, message: str) -> None:
        # One line, always: a multi-line message would read like a traceback.
        super().__init__(" ".join(str(message).split()))

    @property
    def message(self) -> str:
        return str(self)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a command, with one line saying what was kept
    (``3 of 7 points saved in runs/x: --resume continues``).

    A :class:`KeyboardInterrupt`, so that callers who catch that still do; the
    CLI prints ``interrupted: MESSAGE`` on stderr and exits 130.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))

    @property
    def message(self) -> str:
        return str(self)


class GameDoesNotCompile(UserError):
    """A game's own compiled code has a typing error: one line naming the
    game, its file and line, the function and numba's reason (exit status 2,
    like a user's mistake: the person running the game wrote it)."""
