"""Pages from Jinja2 templates, autoescaped: a message's text is always data, never markup.

Every page is sent with a Content-Security-Policy that allows no script at all (the console
needs none: plain forms and server-drawn SVG), so even a slip in a template could not run one.
"""

from __future__ import annotations

import json
from typing import Any

import jinja2
from aiohttp import web

from console.security import ADMIN_KEY
from core.wording import wording

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("console", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _shown(value: Any) -> str:
    """A recorded value as a reader reads it: yes/no, a dash for nothing, text and numbers as
    they are, anything else as JSON with its own characters (Chinese stays Chinese; the page's
    autoescaping makes it safe, it is never placed in a script)."""
    if value is None:
        return wording("en").say("common.nothing")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


_ENV.filters["shown"] = _shown
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self' https://slack.com; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def render(
    request: web.Request, template: str, *, status: int = 200, **context: Any
) -> web.Response:
    """The template filled in, with the signed-in admin and their CSRF token when there is one."""
    admin = request.get(ADMIN_KEY)
    values = {"admin": admin, "csrf": getattr(admin, "csrf", ""), "path": request.path, **context}
    text = _ENV.get_template(template).render(**values)
    return web.Response(text=text, status=status, content_type="text/html", headers=HEADERS)
