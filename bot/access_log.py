"""The HTTP server's access line, written with the Slack event id of the request it answers.

aiohttp writes its access line after the handler returned, outside the block that binds the
event id to the handling's log lines (`bot.metrics_endpoint`), so with `BRAIN_LOG_FORMAT=json`
the one line an operator sees for every delivered event carried no id to follow it by. The
request keeps the id it was read with (`EVENT_ID`); this logger passes it explicitly.
"""

from __future__ import annotations

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web import BaseRequest, RequestKey, StreamResponse

#: Where the request keeps the event id of the Events API callback it carries.
EVENT_ID = RequestKey("brain_event_id", str)


class AccessLogger(AbstractAccessLogger):
    """One line per request: client, method, path, status and time, with the event id."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        event_id = request.get(EVENT_ID)
        self.logger.info(
            '%s "%s %s" %d in %.1f ms',
            request.remote,
            request.method,
            request.path,
            response.status,
            time * 1000,
            extra={"event_id": event_id} if isinstance(event_id, str) else None,
        )
