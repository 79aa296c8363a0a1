"""The admin web console (the design's debug console, docs/operating.md): a surface beside
the Slack bot.

It reads decisions, lessons, cases and the knowledge base through the brain's APIs and the
store protocols, and changes only what an admin asks for (approve or retire an evolved
controller; a try-a-message decision is logged like any other, in its own thread).
"""

from console.app import console_app, enabled, mount, standalone

__all__ = ["console_app", "enabled", "mount", "standalone"]
