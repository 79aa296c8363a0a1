"""Configuration: one TOML file plus environment overrides, validated with clear messages.

The file is `$BRAIN_CONFIG` when set, else `$BRAIN_HOME/brain.toml` (optional). Environment
variables win over the file. Secrets are `SecretStr` so they never print or log by accident.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from core.errors import ConfigError as ConfigError  # defined apart: no pydantic to catch it
from core.limits import LLM_MAX_TIMEOUT_S, MAX_FILE_CHUNKS, MAX_FILE_CHUNKS_CEILING
from core.teams import HelpdeskConfig
from core.ticket_systems import TicketSystemsConfig

DEFAULT_HOME = Path.home() / ".brain"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: The built-in signals whose weights are also settings of their own (`weight_<name>`).
BUILTIN_WEIGHTS: tuple[str, ...] = ("keyword", "semantic", "knowledge", "session", "memory")
_SIGNAL_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class RoutingConfig(_Section):
    """Routing thresholds, the signals' weights and the supporting-controller rule.

    Each routing signal has a weight, by its name: the five built-ins as `weight_<name>`, any
    signal in the `[routing.weights]` table (`channel = 0.05`). Together they must sum to 1.
    Whether every named signal exists is checked where the signals are registered.
    """

    fast_threshold: float = Field(0.8, ge=0, le=1)
    verify_threshold: float = Field(0.4, ge=0, le=1)
    weight_keyword: float = Field(0.30, ge=0, le=1)
    weight_semantic: float = Field(0.30, ge=0, le=1)
    weight_knowledge: float = Field(0.20, ge=0, le=1)
    weight_session: float = Field(0.10, ge=0, le=1)
    weight_memory: float = Field(0.10, ge=0, le=1)
    #: Signal name -> weight, for signals beyond the five (or a built-in, instead of its field).
    weights: dict[str, float] = Field(default_factory=dict)
    supporting_min: float = Field(0.45, ge=0, le=1)
    supporting_ratio: float = Field(0.55, ge=0, le=1)
    max_parallel: int = Field(3, ge=1, le=10)
    #: Role -> the controller that takes it, instead of the one that declares it
    #: (`controllers.roles`: records, answers, outages), e.g. `records = "jira_desk"`.
    roles: dict[str, str] = Field(default_factory=dict)
    #: Never ask back when the semantic model gives the top controller more than half its mass
    #: and at least this many times the runner-up's (and its calibrated confidence is at least
    #: `far_ahead_min`): route it through the dry-run instead. 0 = off (the built-ins'
    #: default); `brain eval --train` turns it on (`brain.routing.cost.far_ahead`).
    far_ahead_ratio: float = Field(0.0, ge=0)
    far_ahead_min: float = Field(0.2, ge=0, le=1)
    #: The share of messages no controller should take that a fit on labelled history (`brain
    #: eval --train`, `brain controllers import`) calibrates and chooses the out-of-scope bar
    #: for: its out-of-scope rows weigh this share of the held-out decisions, whatever their
    #: share of the rows (no weight when the rows hold none) (`brain.routing.cost`). Where
    #: asking back starts is chosen on the in-scope decisions alone.
    out_of_scope_share: float = Field(0.1, ge=0, lt=1)
    #: The semantic model's P(out of scope) at or above which a message is declared out of
    #: scope (never on the fast path). None: the model's own level, which at most 0.2% of its
    #: training examples reach; a fit on labelled history with out-of-scope rows chooses one
    #: by expected cost at `out_of_scope_share` (`brain.routing.cost.out_of_scope_bar`).
    out_of_scope_above: float | None = Field(None, ge=0, le=1)
    #: Learn the signals' weights in such a fit (`brain.routing.combiner`: a conditional logit
    #: on the held-out decisions, these weights as prior, kept when they rank the right
    #: controller first more often on cross-validation; its figures: benchmarks/HISTORY.md).
    learn_weights: bool = True

    @model_validator(mode="after")
    def _check(self) -> RoutingConfig:
        if self.verify_threshold > self.fast_threshold:
            raise ValueError("verify_threshold must not exceed fast_threshold")
        for name, weight in self.weights.items():
            if not _SIGNAL_NAME.match(name):
                raise ValueError(f"weights: signal name {name!r} must be lower_snake")
            if not 0.0 <= weight <= 1.0:
                raise ValueError(f"weights.{name} must be between 0 and 1, not {weight}")
            if name in BUILTIN_WEIGHTS and f"weight_{name}" in self.model_fields_set:
                raise ValueError(f"the {name} weight is set twice: weight_{name}, weights.{name}")
        total = sum(self.signal_weights().values())
        if abs(total - 1.0) > 1e-6:
            raise ValueError(f"the signal weights must sum to 1.0, not {total:.3f}")
        return self

    def signal_weights(self) -> dict[str, float]:
        """Every configured weight by signal name: the five built-ins first, then the table."""
        builtin = {name: float(getattr(self, f"weight_{name}")) for name in BUILTIN_WEIGHTS}
        return {**builtin, **{name: float(w) for name, w in self.weights.items()}}


class KnowledgeConfig(_Section):
    """Where the vector store lives and which embedder to use."""

    #: The registered vector store by name (`knowledge.vectors.kinds`: "edge" embedded,
    #: "server" a Qdrant server); unset: "server" when `qdrant_url` is set, else "edge".
    vector_store: str | None = Field(None, pattern=r"^[a-z][a-z0-9_]*$")
    qdrant_url: str | None = None
    qdrant_api_key: SecretStr | None = None
    #: "minilm" (offline all-MiniLM-L6-v2) or "none" (sparse channel only).
    embedder: str = "minilm"
    #: "onnx" (ONNX Runtime, the default) or "torch" (sentence-transformers, for comparison).
    embedding_engine: str = "onnx"
    #: Where MiniLM's ONNX export is cached (default: `<home>/models/encoder`).
    encoder_cache: Path | None = None
    #: The installation's shared cache that the install step exports MiniLM into (default:
    #: `<sys.prefix>/share/brain`, `core.text.embedder.install_cache_dir`).
    install_cache: Path | None = None
    #: Intra-op threads of the embedding engine (default: `training.torch_threads`, else 1).
    encoder_threads: int | None = Field(None, ge=1)
    #: Batches embedded at once when embedding many texts (default: the CPUs this process has).
    encoder_workers: int | None = Field(None, ge=1)
    collection: str = "knowledge"
    ingest_sample: bool = True
    #: Most chunks one file may yield; `brain ingest` skips a larger file, saying so
    #: (`core.limits.MAX_FILE_CHUNKS`).
    max_file_chunks: int = Field(MAX_FILE_CHUNKS, ge=1, le=MAX_FILE_CHUNKS_CEILING)

    @model_validator(mode="after")
    def _check(self) -> KnowledgeConfig:
        if self.embedder not in ("minilm", "none"):
            raise ValueError(f"embedder must be 'minilm' or 'none', not {self.embedder!r}")
        if self.embedding_engine not in ("onnx", "torch"):
            raise ValueError(
                f"embedding_engine must be 'onnx' or 'torch', not {self.embedding_engine!r}"
            )
        return self


class LLMConfig(_Section):
    """Optional Anthropic model; without a key the brain uses its non-LLM paths."""

    api_key: SecretStr | None = None
    base_url: str | None = None
    model: str = "claude-haiku-4-5"
    timeout_s: float = Field(8.0, gt=0, le=LLM_MAX_TIMEOUT_S)
    max_tokens: int = Field(512, ge=16, le=8192)


class TrainingConfig(_Section):
    """Labelled routing examples the semantic signal and the shipped calibration are fitted on."""

    #: Use the shipped examples for the built-in controllers (brain/data/training.jsonl) and the
    #: calibration fitted with them; `$BRAIN_HOME/training/*.jsonl` is always used.
    shipped: bool = True
    #: Leave out the shipped file's calibration split (only to refit the shipped calibration).
    holdout: bool = False
    #: Fine-tune the encoder's top layers on the controllers' texts when the semantic model is
    #: fitted ("tuned encoder"): minutes a fit and a third of an embedding a decision, worth it
    #: with thousands of examples (CLINC150), not on the built-ins' (benchmarks/HISTORY.md).
    tune_encoder: bool = False
    #: The routing model also reads the multilingual encoder's vector of Chinese texts when the
    #: controllers' texts are partly Chinese (`brain.semantic.features`; benchmarks/HISTORY.md).
    multilingual_view: bool = False
    #: PyTorch threads when tuning the encoder (default: every core); also the embedding
    #: engine's threads when `knowledge.encoder_threads` is not set.
    torch_threads: int | None = Field(None, ge=1)


class SlackConfig(_Section):
    """Slack app credentials and behaviour."""

    bot_token: SecretStr | None = None
    signing_secret: SecretStr | None = None
    app_token: SecretStr | None = None
    api_url: str | None = None
    oncall_channel: str | None = None
    #: A user id ("U123") or user-group id ("S123") mentioned in on-call alerts.
    oncall_mention: str | None = None
    #: Channels where the bot answers every message, not only mentions.
    brain_channels: list[str] = Field(default_factory=list)
    #: Re-send an unacknowledged on-call alert after this many seconds (0 = never).
    reescalate_after_s: float = Field(900.0, ge=0)
    #: A replica's heartbeat lease: an answer owed by a replica silent this long (it died) is
    #: given by another one (`bot.recovery`); the heartbeat is renewed every third of it.
    claim_lease_s: float = Field(30.0, gt=0)
    port: int = Field(3000, ge=0, le=65535)
    #: OAuth install flow for many workspaces (with no bot token): the app's credentials.
    client_id: str | None = None
    client_secret: SecretStr | None = None
    #: Fernet key (urlsafe base64, 32 bytes) encrypting installed bot tokens at rest.
    token_key: SecretStr | None = None


class WebhookConfig(_Section):
    """Admin-trusted limits on webhook controllers (YAML files under BRAIN_HOME/controllers).

    Whoever can write a controller file chooses where messages are sent; these lists let the
    admin who runs the brain bound that choice.
    """

    #: Hosts webhook controllers may call (exact names, lower case); empty: any host that is
    #: not link-local or a cloud metadata service (those are always refused).
    allowed_hosts: list[str] = Field(default_factory=list)
    #: Environment variables a webhook header may name (`Bearer ${PAYROLL_TOKEN}`); any other
    #: `$NAME` in a header refuses the call, so no file can send out the bot's own tokens.
    header_env: list[str] = Field(default_factory=list)


Audience = Literal["requester", "channel", "oncall"]
DEFAULT_AUDIENCE: tuple[Audience, ...] = ("requester", "oncall")


class AccessConfig(_Section):
    """Who may see and act on what is not theirs (tickets, decisions, on-call alerts).

    A ticket or decision belongs to the user who asked (its owner) in the channel it was asked
    in. `visible_to` says who else's look-ups are answered with its contents: "requester"
    (the owner), "channel" (anyone asking from the owner's channel), "oncall" (the users in
    `oncall_users`). Everyone else is told only that no such ticket/decision is theirs to see.
    """

    visible_to: list[Audience] = Field(default_factory=lambda: list(DEFAULT_AUDIENCE))
    #: Slack user ids of on-call engineers and admins (see every ticket and decision).
    oncall_users: list[str] = Field(default_factory=list)
    #: Who may press Acknowledge on an on-call alert: "group" (members of the user group that
    #: `oncall_mention` names, read with usergroups.users.list; the named user when it is a
    #: user id; anyone in the on-call channel when it names neither), "channel" (anyone who
    #: can click in the on-call channel).
    acknowledge: Literal["group", "channel"] = "group"


_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class StorageConfig(_Section):
    """Which backend keeps the records (decisions, feedback, lessons, tickets, Slack state)."""

    #: The name of a registered store backend (`core.stores.backends`; an unknown name is
    #: refused when the stores open, naming the registered ones). Built in: "tinydb", JSON
    #: files under the brain home (default; safe for several processes on one machine);
    #: "memory", nothing persists past the process (tests, throwaway runs); "postgres", one
    #: PostgreSQL database shared by every replica (`database_url`).
    backend: str = Field("tinydb", pattern=r"^[a-z][a-z0-9_]*$")
    #: libpq URL or DSN of the PostgreSQL database (it may hold a password: a secret).
    database_url: SecretStr | None = None
    #: The PostgreSQL schema the brain's tables live in (several brains can share a database).
    database_schema: str = "brain"
    #: Connections per process in the PostgreSQL pool.
    pool_size: int = Field(8, ge=1, le=100)

    @model_validator(mode="after")
    def _check(self) -> StorageConfig:
        if not _SCHEMA_NAME.match(self.database_schema):
            raise ValueError(
                f"database_schema must be a lower_snake SQL name, not {self.database_schema!r}"
            )
        return self


class DynamicConfig(_Section):
    """The dynamic tier: Draft-Critique-Refine and the fallback ladder (brain/dynamic)."""

    #: Off: the dynamic tier asks or admits the boundary as the router decided (no DCR).
    enabled: bool = True
    #: DCR rounds before the fallback ladder (the design's limit: at most three).
    max_rounds: int = Field(3, ge=1, le=3)
    #: Let the LLM (when configured) draft and criticise; its plans are validated, and the
    #: deterministic stages decide whenever it fails. Off by default: each round may cost two
    #: calls, on top of the intent vote's one (`BRAIN_DCR_LLM=1`).
    use_llm: bool = False
    #: Two unknown messages at least this similar (MiniLM cosine; character n-grams without
    #: the dense model) are "the same problem" (memory drafts, evolution clusters).
    same_problem: float = Field(0.58, ge=0, le=1)
    #: The generic capability hook of the ladder (e.g. a documentation search webhook): it is
    #: POSTed the message and the expanded queries and may answer `{"found": true,
    #: "summary": ...}`. Bounded by `[webhooks]` like any webhook.
    hook_url: str | None = None
    hook_timeout_s: float = Field(3.0, gt=0, le=30)
    #: Who can help, named in an honest boundary explanation.
    help_contact: str = "the IT service desk"


class EvolutionConfig(_Section):
    """Type A consolidation: repeated, confirmed unknown problems become controllers."""

    enabled: bool = True
    #: Confirmed resolutions of the same problem by the same plan before a controller is made.
    repeats: int = Field(3, ge=2, le=20)
    #: An evolved controller waits for `brain controllers approve NAME` before it routes.
    require_approval: bool = False
    #: Where the bot posts an Approve button for a new evolved controller (Slack channel id).
    admin_channel: str | None = None


class MemoryConfig(_Section):
    """How lessons from feedback shape later decisions (docs/design.md, "Learning from
    feedback")."""

    #: Users whose same correction of alike messages makes it everyone's (else the author's).
    agreement_users: int = Field(3, ge=1, le=1000)
    #: How similar (0..1) a message must be to one the user corrected to follow that lesson.
    preference_similarity: float = Field(0.4, gt=0, le=1)
    #: The online layer (`brain.memory.online_layer`): after 20 corrections, the vote of the
    #: model's examples and the corrections a person sees, blended with the model's confidence.
    online_layer: bool = True
    #: Who agreed corrections reach is decided by a learned model (`brain.memory.reach_model`).
    learned_reach: bool = False
    #: Compliance hard constraints, which no preference overrides: intent -> the controller
    #: such messages always go to (and they escalate as their urgency says).
    compliance: dict[str, str] = Field(default_factory=lambda: {"security_incident": "incident"})
    #: Refit the semantic model with the agreed lessons in the background (`org_training`).
    org_training: bool = True
    #: Seconds a refit waits after a correction (more corrections within it make one refit);
    #: also how often decisions look for lessons other processes wrote.
    org_refit_delay_s: float = Field(5.0, ge=0, le=3600)


class ConsoleConfig(_Section):
    """The admin web console (`/console`): off unless enabled; admins only.

    Sign-in is with the admin token (local use) or with Slack (OpenID Connect, when the
    Slack app's client id and secret are set); a Slack user is an admin when listed in
    `admins`. `team` limits Slack sign-in (and the decisions shown) to one workspace.
    """

    enabled: bool = False
    #: The token an admin types to sign in locally (`BRAIN_CONSOLE_TOKEN`).
    admin_token: SecretStr | None = None
    #: Signs the session cookie; default: derived from the admin token or a random per-run key.
    session_secret: SecretStr | None = None
    #: Slack user ids allowed in (a signed-in Slack user not listed gets 403).
    admins: list[str] = Field(default_factory=list)
    #: The workspace (Slack team id) admins sign in from; empty: any.
    team: str | None = None
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    #: Where Slack sends the admin back (`.../console/auth/slack/callback`).
    redirect_uri: str | None = None
    #: Slack's OpenID Connect authorize page (tests point it elsewhere).
    authorize_url: str = "https://slack.com/openid/connect/authorize"
    #: Hours a session lasts.
    session_hours: float = Field(8.0, gt=0, le=168)


class Settings(_Section):
    """All settings of one brain home."""

    home: Path = DEFAULT_HOME
    routing: RoutingConfig = Field(default_factory=RoutingConfig)
    knowledge: KnowledgeConfig = Field(default_factory=KnowledgeConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    training: TrainingConfig = Field(default_factory=TrainingConfig)
    slack: SlackConfig = Field(default_factory=SlackConfig)
    webhooks: WebhookConfig = Field(default_factory=WebhookConfig)
    storage: StorageConfig = Field(default_factory=StorageConfig)
    access: AccessConfig = Field(default_factory=AccessConfig)
    dynamic: DynamicConfig = Field(default_factory=DynamicConfig)
    evolution: EvolutionConfig = Field(default_factory=EvolutionConfig)
    memory: MemoryConfig = Field(default_factory=MemoryConfig)
    console: ConsoleConfig = Field(default_factory=ConsoleConfig)
    helpdesk: HelpdeskConfig = Field(default_factory=HelpdeskConfig)  # core/teams.py
    tickets: TicketSystemsConfig = Field(default_factory=TicketSystemsConfig)  # ticket_systems

    def path(self, *parts: str) -> Path:
        """A path under the brain home."""
        return self.home.joinpath(*parts)


#: Environment variable -> (section, key). Section "" means top level.
ENV_OVERRIDES: dict[str, tuple[str, str]] = {
    "BRAIN_HOME": ("", "home"),
    "BRAIN_QDRANT_URL": ("knowledge", "qdrant_url"),
    "BRAIN_VECTOR_STORE": ("knowledge", "vector_store"),
    "BRAIN_QDRANT_API_KEY": ("knowledge", "qdrant_api_key"),
    "BRAIN_EMBEDDER": ("knowledge", "embedder"),
    "BRAIN_EMBEDDING_ENGINE": ("knowledge", "embedding_engine"),
    "BRAIN_ENCODER_CACHE": ("knowledge", "encoder_cache"),
    "BRAIN_INSTALL_CACHE": ("knowledge", "install_cache"),
    "BRAIN_ENCODER_THREADS": ("knowledge", "encoder_threads"),
    "BRAIN_ENCODER_WORKERS": ("knowledge", "encoder_workers"),
    "BRAIN_TORCH_THREADS": ("training", "torch_threads"),
    "BRAIN_KB_MAX_FILE_CHUNKS": ("knowledge", "max_file_chunks"),
    "BRAIN_TUNE_ENCODER": ("training", "tune_encoder"),
    "BRAIN_MULTILINGUAL_VIEW": ("training", "multilingual_view"),
    "BRAIN_STORE_BACKEND": ("storage", "backend"),
    "BRAIN_DATABASE_URL": ("storage", "database_url"),
    "BRAIN_DATABASE_SCHEMA": ("storage", "database_schema"),
    "BRAIN_DATABASE_POOL": ("storage", "pool_size"),
    "BRAIN_SIGNAL_WEIGHTS": ("routing", "weights"),
    "ANTHROPIC_API_KEY": ("llm", "api_key"),
    "ANTHROPIC_BASE_URL": ("llm", "base_url"),
    "BRAIN_LLM_MODEL": ("llm", "model"),
    "BRAIN_LLM_TIMEOUT": ("llm", "timeout_s"),
    "SLACK_BOT_TOKEN": ("slack", "bot_token"),
    "SLACK_SIGNING_SECRET": ("slack", "signing_secret"),
    "SLACK_APP_TOKEN": ("slack", "app_token"),
    "SLACK_API_URL": ("slack", "api_url"),
    "SLACK_CLIENT_ID": ("slack", "client_id"),
    "SLACK_CLIENT_SECRET": ("slack", "client_secret"),
    "BRAIN_TOKEN_KEY": ("slack", "token_key"),
    "BRAIN_ONCALL_CHANNEL": ("slack", "oncall_channel"),
    "BRAIN_ONCALL_MENTION": ("slack", "oncall_mention"),
    "BRAIN_CHANNELS": ("slack", "brain_channels"),
    "BRAIN_REESCALATE_AFTER": ("slack", "reescalate_after_s"),
    "BRAIN_CLAIM_LEASE": ("slack", "claim_lease_s"),
    "BRAIN_WEBHOOK_HOSTS": ("webhooks", "allowed_hosts"),
    "BRAIN_WEBHOOK_HEADER_ENV": ("webhooks", "header_env"),
    "BRAIN_VISIBLE_TO": ("access", "visible_to"),
    "BRAIN_ONCALL_USERS": ("access", "oncall_users"),
    "BRAIN_ACK_POLICY": ("access", "acknowledge"),
    "BRAIN_CAPABILITY_HOOK": ("dynamic", "hook_url"),
    "BRAIN_DCR_LLM": ("dynamic", "use_llm"),
    "BRAIN_EVOLUTION_APPROVAL": ("evolution", "require_approval"),
    "BRAIN_MEMORY_AGREEMENT": ("memory", "agreement_users"),
    "BRAIN_MEMORY_ONLINE_LAYER": ("memory", "online_layer"),
    "BRAIN_MEMORY_LEARNED_REACH": ("memory", "learned_reach"),
    "BRAIN_CONSOLE": ("console", "enabled"),
    "BRAIN_CONSOLE_TOKEN": ("console", "admin_token"),
    "BRAIN_CONSOLE_SECRET": ("console", "session_secret"),
    "BRAIN_CONSOLE_ADMINS": ("console", "admins"),
    "BRAIN_CONSOLE_TEAM": ("console", "team"),
    "BRAIN_CONSOLE_CLIENT_ID": ("console", "slack_client_id"),
    "BRAIN_CONSOLE_CLIENT_SECRET": ("console", "slack_client_secret"),
    "BRAIN_CONSOLE_REDIRECT_URI": ("console", "redirect_uri"),
}
#: Keys whose environment value is a comma-separated list.
_LIST_KEYS = (
    "brain_channels",
    "allowed_hosts",
    "header_env",
    "visible_to",
    "oncall_users",
    "admins",
)


def _config_file(env: Mapping[str, str]) -> Path | None:
    explicit = env.get("BRAIN_CONFIG")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise ConfigError(f"BRAIN_CONFIG points to {path}, which is not a readable file")
        return path
    home = Path(env.get("BRAIN_HOME") or DEFAULT_HOME).expanduser()
    candidate = home / "brain.toml"
    return candidate if candidate.is_file() else None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read configuration {path}: {exc}") from exc


def _format_errors(error: ValidationError, source: str) -> str:
    lines = [f"invalid configuration ({source}):"]
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        lines.append(f"  {where}: {item['msg']}")
    return "\n".join(lines)


def _weights_of(value: str) -> dict[str, str]:
    """`BRAIN_SIGNAL_WEIGHTS="keyword=0.25,channel=0.05"` -> the `[routing.weights]` table."""
    table: dict[str, str] = {}
    for part in value.split(","):
        name, _, weight = part.partition("=")
        if name.strip():
            table[name.strip()] = weight.strip()
    return table


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read the configuration file and apply environment overrides."""
    env = os.environ if env is None else env
    path = _config_file(env)
    data: dict[str, Any] = _read_toml(path) if path else {}
    for variable, (section, key) in ENV_OVERRIDES.items():
        value = env.get(variable)
        if value is None or value == "":
            continue
        parsed: Any = value
        if key in _LIST_KEYS:
            parsed = [part.strip() for part in value.split(",") if part.strip()]
        elif key == "weights":
            parsed = _weights_of(value)
        target = data if not section else data.setdefault(section, {})
        target[key] = parsed
    try:
        settings = Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_format_errors(exc, str(path) if path else "environment")) from exc
    settings.home = settings.home.expanduser()
    return settings
