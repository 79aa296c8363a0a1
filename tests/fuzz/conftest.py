"""The fuzz tests use the engine's fitted home, the bot's harness and the knowledge embedder."""

from tests.bot.conftest import (  # noqa: F401  (fixtures)
    brain_factory,
    brain_template,
    fake_slack,
    harness,
    slack_env,
    start_bot,
)
from tests.engine.conftest import home  # noqa: F401  (fixture)
from tests.knowledge.conftest import embedder, empty_home  # noqa: F401  (fixtures)
