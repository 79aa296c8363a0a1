"""An HTTP client for tests that speak to the bot's server: a fresh connection per request.

The server closes an idle keep-alive connection after `core.limits.MAX_REQUEST_SECONDS`
(10 s: a client that holds a connection open holds a handler's slot), while aiohttp's client
keeps one for reuse for 15 s. A request sent 10-15 s after the previous one to the same server
can then go out on a socket the server is closing, and fails with "Server disconnected": seen
in a clean-clone run under load, where two `brain why` subprocesses between two requests to
one replica took that long. Real Slack retries such a delivery; a test must not depend on it.
"""

from __future__ import annotations

from typing import Any

import aiohttp


def client_session(**kwargs: Any) -> aiohttp.ClientSession:
    """An `aiohttp.ClientSession` that never reuses a connection."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True), **kwargs)
