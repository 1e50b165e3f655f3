"""Errors raised on bad input; each names what is wrong and where."""


class MyriadError(ValueError):
    """Base of every error Myriad raises for bad input."""


class GameDefinitionError(MyriadError):
    """A game declaration is inconsistent (unknown square, piece, direction...)."""


class PositionError(MyriadError):
    """A position string cannot be read."""


class InvalidMoveError(MyriadError):
    """A move string is not written in the game's notation."""


class IllegalMoveError(MyriadError):
    """A move is well formed but not legal in the position; ``reason`` says why in words
    (the rule it breaks where one is known: "your king would be in check", "a capture is
    compulsory"), and the message quotes it."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason


class UnknownGameError(MyriadError):
    """No game is registered under that id."""
