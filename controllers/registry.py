"""The open set of controllers: Python ones via entry points, declarative ones via YAML.

Load order decides name collisions (the first wins, the others are skipped with a warning):
this package's built-ins, then third-party entry points (by distribution and name), then the YAML
files of BRAIN_HOME/controllers (by file name).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from typing import TYPE_CHECKING

from controllers.base import Controller
from controllers.declarative import validate_name
from controllers.evolved import load_evolved
from controllers.yaml_loader import load_yaml_controllers

if TYPE_CHECKING:
    from core.config import Settings

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "brain.controllers"
#: The distribution that ships the built-ins (see pyproject.toml).
OWN_DISTRIBUTION = "digital-employee-brain"
BUILTIN_ORIGIN = "builtin"


class ControllerRegistry:
    """Registered controllers by name, in registration order; thread-safe."""

    def __init__(self, controllers: Iterable[Controller] = ()) -> None:
        self._controllers: dict[str, Controller] = {}
        self._lock = threading.RLock()
        self._version: str | None = None
        #: Called after each change of the set (`on_change`).
        self._listeners: list[Callable[[], None]] = []
        #: Why a controller or file was skipped, one line each (also logged).
        self.warnings: list[str] = []
        for controller in controllers:
            self.add(controller)

    @classmethod
    def load(
        cls,
        settings: Settings | None = None,
        *,
        entry_points: bool = True,
        yaml_files: bool = True,
    ) -> ControllerRegistry:
        """Discover the entry-point controllers and the YAML ones of `settings.home`."""
        if settings is None:
            from core.config import load_settings

            settings = load_settings()
        registry = cls()
        if entry_points:
            for controller in registry._from_entry_points():
                registry._add_or_warn(controller)
        if yaml_files:
            loaded = load_yaml_controllers(settings.home / "controllers")
            registry.warnings.extend(loaded.warnings)
            for declarative in loaded.controllers:
                registry._add_or_warn(declarative)
            evolved = load_evolved(settings.home)
            registry.warnings.extend(evolved.warnings)
            for controller in evolved.active:
                registry._add_or_warn(controller)
        return registry

    # -- reading ---------------------------------------------------------------------------

    def all(self) -> list[Controller]:
        """Every controller, in registration order."""
        with self._lock:
            return list(self._controllers.values())

    def get(self, name: str) -> Controller:
        """The controller with this name; raises KeyError naming the known ones."""
        with self._lock:
            try:
                return self._controllers[name]
            except KeyError:
                known = ", ".join(self._controllers) or "none"
                raise KeyError(f"no controller named {name!r} (known: {known})") from None

    def names(self) -> list[str]:
        """Controller names, in registration order."""
        with self._lock:
            return list(self._controllers)

    def __contains__(self, name: object) -> bool:
        with self._lock:
            return name in self._controllers

    def __iter__(self) -> Iterator[Controller]:
        return iter(self.all())

    def __len__(self) -> int:
        with self._lock:
            return len(self._controllers)

    @property
    def version(self) -> str:
        """A stable hash of names, descriptions, keywords and examples (changes with them)."""
        with self._lock:
            if self._version is None:
                content = [
                    [c.name, c.description, list(c.keywords), list(c.examples)]
                    for c in sorted(self._controllers.values(), key=lambda c: c.name)
                ]
                blob = json.dumps(content, ensure_ascii=False, separators=(",", ":"))
                self._version = hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
            return self._version

    # -- writing ---------------------------------------------------------------------------

    def add(self, controller: Controller) -> None:
        """Register a controller; raises ValueError if it is invalid or its name is taken."""
        problem = _problem_with(controller)
        if problem:
            raise ValueError(problem)
        with self._lock:
            if controller.name in self._controllers:
                existing = self._controllers[controller.name]
                raise ValueError(
                    f"controller name {controller.name!r} from {controller.origin} is already "
                    f"taken by {existing.origin}"
                )
            self._controllers[controller.name] = controller
            self._version = None
        self._changed()

    def remove(self, name: str) -> bool:
        """Unregister a controller (a retired evolved one); False when it was not there."""
        with self._lock:
            if self._controllers.pop(name, None) is None:
                return False
            self._version = None
        self._changed()
        return True

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every later change of the set (an evolved controller added,
        approved or retired), outside the registry's lock."""
        with self._lock:
            self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    def _add_or_warn(self, controller: Controller) -> None:
        try:
            self.add(controller)
        except ValueError as exc:
            self._warn(f"skipped controller: {exc}")

    def _warn(self, message: str) -> None:
        log.warning("%s", message)
        self.warnings.append(message)

    def _from_entry_points(self) -> list[Controller]:
        found: list[tuple[int, str, str, Controller]] = []
        seen: set[tuple[str, str]] = set()
        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            if (entry.name, entry.value) in seen:
                continue  # the same distribution visible twice on sys.path
            seen.add((entry.name, entry.value))
            origin = _origin_of(entry)
            where = f"entry point {entry.name!r} ({entry.value}, {origin})"
            try:
                loaded = entry.load()
                controller = loaded() if isinstance(loaded, type) else loaded
            except Exception as exc:  # a broken plugin must not take the brain down
                self._warn(f"skipped {where}: {type(exc).__name__}: {exc}")
                continue
            problem = _problem_with(controller)
            if problem:
                self._warn(f"skipped {where}: {problem}")
                continue
            if getattr(controller, "origin", None) != origin:
                with contextlib.suppress(AttributeError):
                    controller.origin = origin
            builtin_first = 0 if origin == BUILTIN_ORIGIN else 1
            found.append((builtin_first, origin, entry.name, controller))
        found.sort(key=lambda item: item[:3])
        return [controller for *_, controller in found]


def _origin_of(entry: metadata.EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    try:
        dist_name: str | None = dist.name if dist is not None else None
    except (KeyError, AttributeError):  # a dist-info without a Name field
        dist_name = None
    if dist_name is None:
        return BUILTIN_ORIGIN if entry.value.startswith("controllers.builtin.") else "entry_point"
    if _canonical(dist_name) == _canonical(OWN_DISTRIBUTION):
        return BUILTIN_ORIGIN
    return f"entry_point:{dist_name}"


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _problem_with(controller: object) -> str | None:
    """Why an object cannot be registered as a controller, or None."""
    if not isinstance(controller, Controller):
        missing = [
            attr
            for attr in (
                "name",
                "label",
                "description",
                "keywords",
                "examples",
                "required_entities",
                "origin",
                "dry_run",
                "handle",
            )
            if not hasattr(controller, attr)
        ]
        kind = type(controller).__name__
        return f"a {kind} object is not a controller (it lacks {', '.join(missing)})"
    try:
        validate_name(controller.name)
    except (ValueError, TypeError) as exc:
        return str(exc)
    if not str(controller.description or "").strip():
        return f"controller {controller.name!r} has no description"
    return None
