"""Errors of the decision engine, each with a message a user can act on."""

from __future__ import annotations


class BrainError(Exception):
    """Base class of the engine's errors."""


class UnknownDecision(BrainError, KeyError):
    """No decision with that id was ever logged here."""

    def __init__(self, decision_id: str) -> None:
        super().__init__(decision_id)
        self.decision_id = decision_id

    def __str__(self) -> str:
        return f"no decision with id {self.decision_id!r} (check the id, or BRAIN_HOME)"


class UnknownController(BrainError, KeyError):
    """A feedback or route names a controller that is not registered."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(name)
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return f"unknown controller {self.name!r}; registered: {', '.join(self.known) or 'none'}"


class InvalidFeedback(BrainError, ValueError):
    """The feedback kind or its arguments do not fit together."""


class ConfigError(BrainError):
    """The configuration is missing, unreadable or invalid; the message says what to fix."""


class StorageError(BrainError):
    """A record store could not be read or written; the message names the file."""


class EvalError(BrainError):
    """The evaluation cannot run as asked; the message says what to fix."""
