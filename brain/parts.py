"""The brain's parts, each opened on first use (or all at once by `warm`).

Heavy parts (the knowledge base, the embedder, the semantic model, the LLM client) load only when
a decision needs them, so `brain why` and `brain feedback` never load a model. Each is a `Lazy`;
the model and keyword index follow the controller set. The signals read them (`SignalSources`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from brain.routing.calibration import HomeCalibration
from brain.signals.keyword_index import KeywordIndex
from brain.signals.registry import SignalRegistry
from controllers import incident_categories
from controllers.base import feeds_of, files_requests, label_in
from controllers.roles import role_holders
from core.lazy import Lazy

if TYPE_CHECKING:
    from brain.continuation.model import ContinuationModel, Reading, Thread
    from brain.decisions.log import DecisionLog
    from brain.escalation.model import EscalationModel
    from brain.intent import IntentRecognizer
    from brain.learning.org_training import OrgTraining
    from brain.memory.agreed import AgreedExamples
    from brain.memory.lessons import LessonRecall
    from brain.signals.semantic_model import SemanticModel
    from brain.signals.session_cache import SessionCache, SessionEntry
    from controllers.base import Controller, ControllerServices
    from controllers.registry import ControllerRegistry
    from core.config import Settings
    from core.llm import LLMClient
    from core.stores import Stores
    from core.text.embedder import DenseEmbedder
    from knowledge.skill import KnowledgeSkill

log = logging.getLogger(__name__)

#: Text the signals look at: enough for any real message, bounded cost for a 100 KB paste.
SCORING_TEXT_CAP = 2_000


@dataclass(frozen=True, slots=True)
class RegistryView:
    """What a decision needs from the controller set, computed once per registry version."""

    version: str
    controllers: list[Controller]
    names: list[str]
    labels: dict[str, str]
    #: Producer -> the controllers its output feeds (declared by the controllers).
    feeds: dict[str, tuple[str, ...]]
    #: Controllers that file new tickets (`controllers.base.files_requests`).
    filers: frozenset[str] = frozenset()
    #: Controller -> its label in Chinese (its label when it has none), for Chinese askers.
    labels_zh: dict[str, str] = field(default_factory=dict)
    #: Role -> the controller that takes it (`controllers.roles`); a role nobody holds is absent.
    roles: dict[str, str] = field(default_factory=dict)

    def holder(self, role: str) -> str | None:
        """The controller that takes `role`, or None when no registered controller does."""
        return self.roles.get(role)

    @classmethod
    def of(
        cls, registry: ControllerRegistry, roles: Mapping[str, str] | None = None
    ) -> RegistryView:
        """The view of `registry`; `roles`: configured role holders (`[routing.roles]`)."""
        controllers = registry.all()
        return cls(
            version=registry.version,
            controllers=controllers,
            names=[c.name for c in controllers],
            labels={c.name: (getattr(c, "label", "") or c.name) for c in controllers},
            feeds={c.name: feeds_of(c) for c in controllers if feeds_of(c)},
            filers=frozenset(c.name for c in controllers if files_requests(c)),
            labels_zh={c.name: label_in(c, "zh") for c in controllers},
            roles=role_holders(controllers, roles),
        )


class BrainParts:
    """Lazily opened parts of one brain home; safe to use from several threads."""

    def __init__(
        self,
        settings: Settings,
        *,
        stores: Stores,
        log: DecisionLog,
        memory: LessonRecall,
        sessions: SessionCache,
        lock: threading.RLock,
        registry: ControllerRegistry | None = None,
    ) -> None:
        self.settings = settings
        #: The brain's stores, opened once by `Brain` (the parts never open their own).
        self.stores = stores
        self.log = log
        self._memory = memory
        self._sessions = sessions
        self._lock = lock  # the brain's store lock: loading a session reads the decision log
        self._registry = Lazy(self._open_registry if registry is None else lambda: registry)
        self._view = Lazy(
            lambda: RegistryView.of(self.registry, settings.routing.roles),
            key=self._registry_version,
        )
        self._knowledge = Lazy(self._open_knowledge)
        self._llm = Lazy(self._open_llm)
        self._embedder = Lazy(self._open_embedder)
        self._recognizer = Lazy(self._open_recognizer)
        self._calibration = Lazy(self._open_calibration)
        self._services = Lazy(self._open_services)
        self._signals = Lazy(lambda: SignalRegistry.from_config(settings.routing))
        self._keywords = Lazy(
            lambda: KeywordIndex(self.view.controllers), key=self._registry_version
        )
        self._semantic = Lazy(self._fit_semantic, key=self._registry_version)
        self._refitting = threading.Lock()
        self._refit_thread: threading.Thread | None = None
        self._refit_again = False
        self._escalation = Lazy(self._open_escalation)
        self._continuation = Lazy(self._open_continuation)
        from brain.learning.org_training import OrgTraining
        from brain.learning.training import load_training
        from brain.memory.agreed import AgreedExamples
        from brain.memory.model_examples import ModelExamples

        #: Corrections as examples of their controllers, everyone's once people agree.
        shipped, models = lambda: load_training(settings).examples, settings.path("models")
        agreement, learned = settings.memory.agreement_users, settings.memory.learned_reach
        seen = ModelExamples(lambda: self.view.controllers, shipped, self._embedder.peek, models)
        self.agreed_examples = AgreedExamples(memory, shipped, models, agreement, learned, seen)
        #: The semantic model trained on the organisation's lessons (`brain.learning.org_training`).
        self.org_training = OrgTraining(
            settings,
            memory,
            self.agreed_examples,
            controllers=lambda: self.view.controllers,
            registry_version=self._registry_version,
            base=self._semantic.get,
            embedder=lambda: self.embedder,
            stores=lambda: self.stores,
        )

    # -- the parts -------------------------------------------------------------------------
    @property
    def registry(self) -> ControllerRegistry:
        """The open controller set (entry points + YAML controllers of the home)."""
        return self._registry.get()

    @property
    def view(self) -> RegistryView:
        """The controller set as decisions read it (follows the registry's version)."""
        return self._view.get()

    @property
    def knowledge(self) -> KnowledgeSkill | None:
        """The KB routing skill (None when it cannot be opened; decisions still work)."""
        return self._knowledge.get()

    @property
    def llm(self) -> LLMClient | None:
        """The LLM client, or None without an API key."""
        return self._llm.get()

    @property
    def embedder(self) -> DenseEmbedder | None:
        """The process-wide MiniLM embedder, or None (sparse-only mode)."""
        return self._embedder.get()

    @property
    def recognizer(self) -> IntentRecognizer:
        """Step 1's intent recognizer."""
        return self._recognizer.get()

    @property
    def calibration(self) -> HomeCalibration:
        """Raw weighted total -> calibrated confidence."""
        return self._calibration.get()

    @property
    def services(self) -> ControllerServices:
        """What controllers may use (knowledge base, ticket store, LLM)."""
        return self._services.get()

    @property
    def signals(self) -> SignalRegistry:
        """The registered signals and their configured weights."""
        return self._signals.get()

    @property
    def memory(self) -> LessonRecall:
        return self._memory

    @property
    def sessions(self) -> SessionCache:
        return self._sessions

    @property
    def escalation_model(self) -> EscalationModel | None:
        """The escalation model (`brain.escalation.model`), fitted once per home and cached."""
        return self._escalation.get()

    @property
    def continuation_model(self) -> ContinuationModel:
        """Whether a message continues its thread's record (`brain.continuation.model`),
        shipped or fitted once per home and cached."""
        return self._continuation.get()

    def semantic_model(self) -> SemanticModel | None:
        """The semantic model fitted on the current controller set (None without one): the
        one trained on the organisation's lessons too, once it is fitted."""
        base = self._semantic.get()
        if base is None:
            return None
        org = self.org_training.model()
        return org if org is not None else base

    def keyword_index(self) -> KeywordIndex:
        """The keywords of the current controller set, compiled once per version."""
        return self._keywords.get()

    def session_entries(self, session_key: str) -> list[SessionEntry]:
        """The conversation's earlier decisions (read from the log on first use; at every
        use when replicas share the log, since another one may have decided in the thread)."""
        shared = self.stores.capabilities.shared
        with self._lock:
            if shared or not self._sessions.known(session_key):
                self._sessions.load(session_key, self.log.session(session_key))
        return self._sessions.entries(session_key)

    def embedder_if_loaded(self) -> DenseEmbedder | None:
        """The embedder when something already opened it (never loads the model)."""
        return self._embedder.peek()

    def embed_if_loaded(self, text: str) -> np.ndarray | None:
        """The text's query embedding when the model is already loaded, else None."""
        embedder = self._embedder.peek()
        if embedder is None:
            return None
        return embedder.embed_query(text[:SCORING_TEXT_CAP])

    def semantic_if_fitted(self) -> SemanticModel | None:
        """The semantic model when it has been fitted (never fits it)."""
        return self._semantic.peek()

    def knowledge_if_open(self) -> KnowledgeSkill | None:
        """The knowledge base when something already opened it."""
        return self._knowledge.peek()

    def warm(self) -> None:
        """Open and fit everything a decision needs, now (a part that cannot open is logged
        and left to degrade the decisions, as it would on first use)."""
        from core.text.embedder import EmbedderMissing

        for name, (_, part) in self._warm_parts().items():
            try:
                part()
            except EmbedderMissing:
                raise  # not installed, not degraded: its message says the command
            except Exception as exc:  # a missing part degrades the brain; it must not stop it
                log.warning("could not open the brain's %s: %s", name, exc)
        try:
            self.agreed_examples.warm()
        except Exception as exc:  # compared by n-grams until the encoder loads
            log.warning("could not prepare the corrections as examples: %s", exc)
        self.org_training.follow()  # a warmed brain keeps learning the organisation's lessons

    def opened(self) -> dict[str, bool]:
        """Which of the parts `warm` opens are open now (never opens one); the embedder
        counts once its model is loaded, not when its lazy wrapper exists."""
        opened = {name: lazy.built for name, (lazy, _) in self._warm_parts().items()}
        embedder = self._embedder.peek()
        if embedder is not None:
            opened["embedder"] = embedder.loaded
        return opened

    def _load_embedder(self) -> DenseEmbedder | None:
        """The embedder with its model loaded and run once (the first run of an inference
        session allocates), so the first decision does not pay for either."""
        embedder = self.embedder
        if embedder is not None:
            embedder.load()
            embedder.embed(["warm-up"])
        return embedder

    def _warm_parts(self) -> dict[str, tuple[Lazy[Any], Callable[[], object]]]:
        """The parts `warm` opens, in order: name -> (its Lazy, how to open it)."""
        return {
            "controller registry": (self._registry, lambda: self.registry),
            "knowledge base": (self._knowledge, lambda: self.knowledge),
            "embedder": (self._embedder, self._load_embedder),
            "LLM client": (self._llm, lambda: self.llm),
            "intent recognizer": (self._recognizer, lambda: self.recognizer),
            "calibration": (self._calibration, lambda: self.calibration),
            "signals": (self._signals, lambda: self.signals),
            "keyword index": (self._keywords, self.keyword_index),
            "semantic model": (self._semantic, self.semantic_model),
            "escalation model": (self._escalation, lambda: self.escalation_model),
            "continuation model": (self._continuation, lambda: self.continuation_model),
            # Fitted in-process from its examples: at warm-up, not on the first incident.
            "incident category model": (incident_categories.MODEL, incident_categories.MODEL.get),
            "controller services": (self._services, lambda: self.services),
        }

    # -- builders --------------------------------------------------------------------------
    def _registry_version(self) -> str:
        return self.registry.version

    def _open_registry(self) -> ControllerRegistry:
        from controllers.registry import ControllerRegistry

        registry = ControllerRegistry.load(self.settings)
        registry.on_change(self.refit_ahead)
        return registry

    def refit_ahead(self) -> None:
        """The controller set changed (an evolved controller made, approved or retired): fit
        the semantic model for it now, on a thread of its own, so that the approval returns at
        once and the next message waits only for what is left of the fit (it takes the same
        lock), not for all of it (40-50 s at a desk's size). One thread at a time; it fits
        again when the set changed meanwhile."""
        with self._refitting:
            if self._refit_thread is not None and self._refit_thread.is_alive():
                self._refit_again = True
                return
            self._refit_again = False
            self._refit_thread = threading.Thread(
                target=self._refit_until_current, name="brain-semantic-refit", daemon=True
            )
            self._refit_thread.start()

    def refit_done(self, timeout: float | None = None) -> bool:
        """Wait for a refit started by a controller change; False on timeout."""
        thread = self._refit_thread
        if thread is not None:
            thread.join(timeout)
        return thread is None or not thread.is_alive()

    def semantic_if_current(self) -> SemanticModel | None:
        """The semantic model if it is fitted for the current controller set (never fits)."""
        return self._semantic.peek_current()

    def _refit_until_current(self) -> None:
        while True:
            try:
                self._semantic.get()
            except Exception as exc:  # the next message fits it (and says why it cannot)
                log.warning("fitting the semantic model after a controller change: %s", exc)
            with self._refitting:
                if not self._refit_again:
                    return
                self._refit_again = False

    def _open_knowledge(self) -> KnowledgeSkill | None:
        from core.text.embedder import EmbedderMissing
        from knowledge import open_knowledge
        from knowledge.store import StoreLockedError

        try:
            return open_knowledge(self.settings)
        except (StoreLockedError, EmbedderMissing):
            raise  # its message says what holds the store, or what to install, and how
        except Exception as exc:  # decide without the KB rather than not at all
            log.warning(
                "knowledge base unavailable (%s: %s); deciding without it",
                type(exc).__name__,
                exc,
            )
            return None

    def _open_llm(self) -> LLMClient | None:
        from core.llm import LLMClient

        return LLMClient.from_settings(self.settings.llm)

    def _open_embedder(self) -> DenseEmbedder | None:
        from core.text.embedder import get_dense_embedder

        embedder = get_dense_embedder(self.settings)
        if embedder is not None:
            self._memory.embed = lambda texts: embedder.embed(texts)
        return embedder

    def _open_recognizer(self) -> IntentRecognizer:
        from brain.intent import IntentRecognizer

        return IntentRecognizer(self.llm, self.knowledge)

    def _open_calibration(self) -> HomeCalibration:
        from brain.learning.training import shipped_calibration

        shared = self.stores.artifacts  # replicas on PostgreSQL share it
        return HomeCalibration(
            self.settings.home, shipped_calibration(self.settings), shared=shared
        )

    def _open_services(self) -> ControllerServices:
        from controllers.services import build_services
        from controllers.tickets import TicketStore

        tickets = TicketStore.on_stores(self.stores, self.settings)
        return build_services(self.settings, self.knowledge, self.llm, tickets=tickets)

    def _open_escalation(self) -> EscalationModel | None:
        from brain.escalation.model import load_or_fit

        embedder = self.embedder
        return load_or_fit(
            self.settings.home / "models", embedder.embed if embedder is not None else None
        )

    def _open_continuation(self) -> ContinuationModel:
        from brain.continuation.model import load_or_fit

        embedder = self.embedder
        return load_or_fit(
            self.settings.home / "models", embedder.embed if embedder is not None else None
        )

    def _fit_semantic(self) -> SemanticModel | None:
        from brain.learning.org_training import fit_model

        # replicas on PostgreSQL share fitted models
        return fit_model(self.settings, self.view.controllers, self.embedder, self.stores)


class PartsFacade:
    """The parts a brain shows its callers (`brain.engine.Brain`), each read from its
    `parts` on use, so a caller's `brain.registry` opens the registry and nothing else."""

    parts: BrainParts

    @property
    def registry(self) -> ControllerRegistry:
        """The open controller set (entry points + YAML controllers of the home)."""
        return self.parts.registry

    @property
    def knowledge(self) -> KnowledgeSkill | None:
        """The KB routing skill (None when it cannot be opened; decisions still work)."""
        return self.parts.knowledge

    @property
    def llm(self) -> LLMClient | None:
        """The LLM client, or None without an API key."""
        return self.parts.llm

    @property
    def embedder(self) -> DenseEmbedder | None:
        """The process-wide MiniLM embedder, or None (sparse-only mode)."""
        return self.parts.embedder

    @property
    def recognizer(self) -> IntentRecognizer:
        return self.parts.recognizer

    @property
    def calibration(self) -> HomeCalibration:
        return self.parts.calibration

    @property
    def services(self) -> ControllerServices:
        return self.parts.services

    def read_continuation(self, thread: Thread) -> Reading | None:
        """Does a message continue its thread's record (`brain.continuation.model`)?
        None when the model cannot be opened (the thread's rules decide then)."""
        try:
            model = self.parts.continuation_model
            embedder = self.parts.embedder
            return model.read([thread], embedder.embed if embedder is not None else None)[0]
        except Exception as exc:  # a missing part degrades the thread to its rules
            log.warning("continuation model unavailable: %s", exc)
            return None

    @property
    def semantic_model(self) -> SemanticModel | None:
        """The semantic model fitted on the current controller set (None without one)."""
        return self.parts.semantic_model()

    @property
    def org_training(self) -> OrgTraining:
        """The semantic model's training on the organisation's lessons."""
        return self.parts.org_training

    @property
    def agreed_examples(self) -> AgreedExamples:
        """The corrections as examples of their controllers (the embedder opens first: they
        are compared by meaning in every process, a report's as a decision's)."""
        _ = self.parts.embedder
        return self.parts.agreed_examples
