"""One error tree: every error the project raises for a user to act on is a `BrainError`.

The packages' exception classes are enumerated by importing every module, so a new one that
forgets the root fails here. Private classes (a leading underscore) are control flow inside
their module and never reach a caller; they are exempt.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from core.errors import BrainError, ConfigError, StorageError
from tests.architecture.packages import PACKAGES


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.rsplit(".", 1)[-1] == "__main__":
                continue  # runs the command line
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == module.__name__
                ):
                    found[f"{module.__name__}.{name}"] = value
    return found


def test_configuration_and_storage_errors_are_brain_errors() -> None:
    assert issubclass(ConfigError, BrainError) and issubclass(StorageError, BrainError)


def test_every_public_exception_class_of_the_packages_is_a_brain_error() -> None:
    classes = _exception_classes()
    public = {name: kind for name, kind in classes.items() if name.split(".")[-1][0] != "_"}
    # the enumeration sees the known ones (so an empty or broken walk cannot pass)
    assert {
        "core.errors.StorageError",
        "knowledge.vectors.base.StoreLockedError",
        "controllers.tickets.TicketError",
        "brain.intent.taxonomy.TaxonomyError",
    } <= set(public)
    outside = sorted(name for name, kind in public.items() if not issubclass(kind, BrainError))
    assert outside == []


def test_the_tree_keeps_the_builtin_bases_callers_catch() -> None:
    """Rooting an error at `BrainError` must not change what an `except` elsewhere catches."""
    import yaml

    from controllers.tickets import TicketNotFound
    from controllers.webhook import WebhookRefused
    from core.safe_regex import RegexTimeout, UnsafePattern
    from core.safe_yaml import YamlLimitError
    from knowledge.vectors.base import StoreLockedError

    assert issubclass(StoreLockedError, RuntimeError)
    assert issubclass(TicketNotFound, KeyError)
    assert issubclass(WebhookRefused, ValueError) and issubclass(UnsafePattern, ValueError)
    assert issubclass(RegexTimeout, TimeoutError)
    assert issubclass(YamlLimitError, yaml.YAMLError)
