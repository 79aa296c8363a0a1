"""Serving the bot: HTTP (aiohttp: `/slack/events`, `/healthz`, `/readyz`) or Socket Mode.

Ready means ready: in HTTP mode the port opens at once (so `/healthz`, liveness, answers
while the brain warms up), but `/readyz` says 503 and events get 503 (unacknowledged, so
Slack retries them) until `Brain.warm` has loaded and fitted every part; Socket Mode connects
only after the warm-up. Either way the first event taken is answered without waiting for a
model.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.adapter.socket_mode.aiohttp import AsyncSocketModeHandler
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier

from bot import access_log, metrics_endpoint, oauth, socket_mode
from bot.app import SlackBot
from bot.helpdesk import jira_sync
from bot.payload_shape import well_formed
from core.limits import MAX_REQUEST_BYTES, MAX_REQUEST_SECONDS

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
#: Seconds a caller refused during the warm-up is told to wait (`Retry-After`).
WARMING_RETRY_AFTER_S = 5


class _ClientFaults(logging.Filter):
    """aiohttp logs a request it cannot parse (after a lying `Content-Length`, say) or a client
    gone mid-body as an ERROR with a traceback, the first of them quoting up to 100 KB of the
    request. Those are the client's faults, not ours: one short INFO line each, so no one can
    flood the log with tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        fault = record.exc_info[1] if record.exc_info else None
        if isinstance(fault, HttpProcessingError | ConnectionResetError):
            record.msg = f"{record.msg} (the client's fault: {type(fault).__name__})"
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        return True


logging.getLogger("aiohttp.server").addFilter(_ClientFaults())


def _signed(verifier: SignatureVerifier, body: bytes, request: web.Request) -> bool:
    """Is the body signed with the app's signing secret, recently? Any malformed header
    (a timestamp that is not a number) is simply not signed."""
    try:
        return verifier.is_valid_request(body, dict(request.headers))
    except (ValueError, TypeError):
        return False


def _bolt_request(body: bytes, request: web.Request) -> AsyncBoltRequest | None:
    """The signed body as Bolt's request, or None when it is not a Slack payload (not UTF-8,
    not JSON or form data, or not an object)."""
    try:
        parsed = AsyncBoltRequest(
            body=body.decode("utf-8"),
            query=request.query_string,
            headers=dict(request.headers),
        )
    # Bolt reads the workspace, user and channel out of the body as it builds the request
    # (`authorizations: {"a": 1}` raised KeyError there); RecursionError: nested too deep.
    except (ValueError, TypeError, AttributeError, LookupError, RecursionError):
        return None
    if not isinstance(parsed.body, dict) or not well_formed(parsed.body):
        return None
    return parsed


@web.middleware
async def _read_in_time(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Read a POST body within `MAX_REQUEST_SECONDS` (aiohttp keeps it for the handler), or
    answer 408: a client that sends slowly or stops mid-body holds no handler for ever. Runs
    outside the metrics middleware, so requests refused here (408, 413) are not counted."""
    if request.method == "POST":
        try:
            async with asyncio.timeout(MAX_REQUEST_SECONDS):
                await request.read()
        except TimeoutError:
            raise web.HTTPRequestTimeout() from None
    return await handler(request)


#: Adds routes of another surface to the bot's server (the admin console, `cli.run`).
Mount = Callable[[web.Application], None]


def http_app(bot: SlackBot, *, mounts: Sequence[Mount] = ()) -> web.Application:
    """An aiohttp application serving Slack's Events API, interactivity and commands.

    The signature is checked on the raw bytes before anything parses them, so an unsigned
    request costs a hash and gets 401; a signed body that is not a Slack payload gets 400.
    Neither logs a traceback. Bodies over `MAX_REQUEST_BYTES` are refused by aiohttp (413),
    bodies not sent in `MAX_REQUEST_SECONDS` get 408.
    """
    secret = bot.settings.slack.signing_secret
    verifier = SignatureVerifier(secret.get_secret_value()) if secret else None

    async def events(request: web.Request) -> web.Response:
        if not bot.ready:  # not acknowledged: Slack sends it again once we are warm
            return web.json_response(
                {"error": "warming up"},
                status=503,
                headers={"Retry-After": str(WARMING_RETRY_AFTER_S)},
            )
        body = await request.read()
        if verifier is not None and not _signed(verifier, body, request):
            return web.json_response({"error": "invalid request"}, status=401)
        bolt_request = _bolt_request(body, request)
        if bolt_request is None:
            log.info("refused a signed request whose body is not a Slack payload")
            return web.json_response({"error": "malformed request body"}, status=400)
        bolt_response = await bot.app.async_dispatch(bolt_request)
        return await to_aiohttp_response(bolt_response)

    async def health(_: web.Request) -> web.Response:
        """Liveness only: the process serves requests (warm or not)."""
        return web.json_response(
            {"ok": True, "ready": bot.ready, "pending": bot.services.work.pending}
        )

    async def ready(_: web.Request) -> web.Response:
        """Readiness: 200 once warm and every check passes, else 503 with the reasons."""
        report = await asyncio.to_thread(bot.readiness.report)
        return web.json_response(report.to_dict(), status=200 if report.ready else 503)

    async def lifecycle(_: web.Application) -> AsyncIterator[None]:
        # Warm up beside serving, so liveness and readiness answer meanwhile.
        warming = asyncio.get_running_loop().create_task(bot.start(), name="bot-start")
        yield
        await asyncio.gather(warming, return_exceptions=True)
        await bot.stop()

    application = web.Application(client_max_size=MAX_REQUEST_BYTES, middlewares=[_read_in_time])
    application.router.add_post(EVENTS_PATH, events)
    application.router.add_get(HEALTH_PATH, health)
    application.router.add_get(READY_PATH, ready)
    application.cleanup_ctx.append(lifecycle)
    metrics_endpoint.install(application, bot.services, EVENTS_PATH)
    oauth.mount(application, bot.app)  # /slack/install, /slack/oauth_redirect (many workspaces)
    jira_sync.mount(application, bot.jira, bot.settings)  # /jira/webhook, when configured
    for add in mounts:
        add(application)
    return application


def socket_mode_handler(bot: SlackBot, app_token: str) -> AsyncSocketModeHandler:
    """A Socket Mode connection (aiohttp websocket) dispatching to the same app; one log
    line per failure and bounded backoff while Slack is unreachable (`bot.socket_mode`)."""
    return socket_mode.socket_mode_handler(bot.app, app_token, bot.client)


async def _wait_for_stop() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def serve_http(bot: SlackBot, host: str, port: int, *, mounts: Sequence[Mount] = ()) -> None:
    """Serve HTTP until SIGINT/SIGTERM; the line on stdout comes once the bot is ready."""
    # An idle connection, or one still sending its headers, is closed after the same time.
    app = http_app(bot, mounts=mounts)
    runner = web.AppRunner(
        app, keepalive_timeout=MAX_REQUEST_SECONDS, access_log_class=access_log.AccessLogger
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    log.info(
        "listening on http://%s:%d%s (ready when %s says 200)", host, bound, EVENTS_PATH, READY_PATH
    )
    if bot.app.oauth_flow is not None:
        log.info(
            "many workspaces: Slack's install flow at http://%s:%d%s",
            host,
            bound,
            oauth.INSTALL_PATH,
        )
    try:
        stop = asyncio.get_running_loop().create_task(_wait_for_stop())
        await asyncio.wait(
            {stop, asyncio.ensure_future(bot.start())}, return_when="FIRST_COMPLETED"
        )
        if not stop.done():
            print(f"brain bot: HTTP mode on http://{host}:{bound}{EVENTS_PATH}", flush=True)
        await stop
    finally:
        await runner.cleanup()


async def serve_socket_mode(bot: SlackBot, app_token: str) -> None:
    """Connect over Socket Mode until SIGINT/SIGTERM."""
    handler = socket_mode_handler(bot, app_token)
    await bot.start()  # warm first: no event is taken before the brain is ready
    await handler.connect_async()
    print("brain bot: Socket Mode connected", flush=True)
    try:
        await _wait_for_stop()
    finally:
        await handler.close_async()
        await bot.stop()
