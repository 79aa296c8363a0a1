"""One error tree: every error the project raises for a user to act on is a `BrainError`."""

from __future__ import annotations

from core.errors import BrainError, ConfigError, StorageError


def test_configuration_and_storage_errors_are_brain_errors() -> None:
    assert issubclass(ConfigError, BrainError) and issubclass(StorageError, BrainError)
