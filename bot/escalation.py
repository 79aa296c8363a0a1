"""On-call escalation: alert, re-send while unacknowledged, record acknowledgements.

Alerts live in the home's alert store (`core.stores`), so a restart keeps the pending ones and
keeps re-sending them.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.blocks import alert_blocks, defang, escape, fallback_text, resolved_blocks
from bot.posting import ClientFor, client_in, permalink_of
from bot.wording import say
from core.config import SlackConfig
from core.redact import redact
from core.stores.local import LocalCoordinator
from core.stores.protocols import AlertStore, Coordinator
from core.stores.records import Alert

log = logging.getLogger(__name__)

#: The lease one replica holds to run the re-escalation passes, renewed every pass; another
#: replica takes over when it was not renewed for `LEASE_TICKS` passes (the holder died).
REESCALATION_LEASE = "reescalation"
LEASE_TICKS = 4
#: Names the alert that follows the reply to an escalating decision (`follow_up_alert_id`).
_FOLLOW_UP = uuid.UUID("6f1d3c52-9a4e-4b7e-8f0a-2c4d5e6f7a8b")


def follow_up_alert_id(decision_id: str) -> str:
    """The id of the alert that follows the reply to `decision_id`: derived from the decision,
    so a replica that takes the message over after its first owner died can tell whether that
    alert was recorded (and send it if not)."""
    return uuid.uuid5(_FOLLOW_UP, decision_id).hex[:16]


def mention_markup(mention: str | None) -> str | None:
    """`U123` -> `<@U123>`, `S123` -> `<!subteam^S123>`; ready markup is kept."""
    if not mention:
        return None
    mention = mention.strip()
    if mention.startswith("<"):
        return mention
    if mention.startswith("S"):
        return f"<!subteam^{mention}>"
    return f"<@{mention}>"


class Escalations:
    """Sends and tracks on-call alerts (async Slack calls; file I/O in worker threads).

    Every change to a stored alert is a field-level `AlertStore.modify`, never a write-back of
    a row read earlier: a re-send first claims its turn with a compare-and-set on
    `last_sent_at` (refused once the alert is acknowledged), and afterwards only appends the
    new message's ts, so an Acknowledge that lands while a re-send is on the wire is kept.
    `clock` is injectable so tests can step time instead of sleeping.
    """

    def __init__(
        self,
        config: SlackConfig,
        store: AlertStore,
        coordinator: Coordinator | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.store = store
        self.clock = clock
        #: With several replicas on shared stores, only the holder of the re-escalation
        #: lease re-sends, so an alert is re-sent once per period, not once per replica.
        self.coordinator = coordinator or LocalCoordinator()
        self.holder = uuid.uuid4().hex
        #: What this process did, for `/metrics`: alerts sent, re-sent, acknowledged.
        self.counts = {"sent": 0, "resent": 0, "acknowledged": 0}

    # -- storage -------------------------------------------------------------------------------

    def _save(self, alert: Alert) -> None:
        self.store.save(alert)

    def get(self, alert_id: str) -> Alert | None:
        """One alert by id."""
        return self.store.get(alert_id)

    def pending(self) -> list[Alert]:
        """Alerts nobody acknowledged yet."""
        return self.store.pending()

    def _claim_resend(self, alert_id: str, seen_sent_at: float, now: float) -> bool:
        """Compare-and-set: take this re-send unless the alert was acknowledged or re-sent
        since it was read (by another pass or process)."""
        taken = False

        def claim(alert: Alert) -> None:
            nonlocal taken
            if alert.acknowledged_by is None and alert.last_sent_at == seen_sent_at:
                alert.last_sent_at = now
                taken = True

        self.store.modify(alert_id, claim)
        return taken

    def _record_sent(self, alert_id: str, ts: str) -> Alert | None:
        """Append one posted message's ts, touching no other field."""
        return self.store.modify(alert_id, lambda alert: alert.messages.append(ts))

    def _record_ack(self, alert_id: str, user: str, at: float) -> tuple[Alert | None, bool]:
        """Set who acknowledged unless someone did first; (the alert, whether this was first)."""
        first = False

        def ack(alert: Alert) -> None:
            nonlocal first
            if alert.acknowledged_by is None:
                alert.acknowledged_by = user
                alert.acknowledged_at = at
                first = True

        return self.store.modify(alert_id, ack), first

    # -- Slack ---------------------------------------------------------------------------------

    async def escalate(
        self,
        client: AsyncWebClient,
        *,
        decision_id: str,
        asker: str,
        text: str,
        urgency: str,
        summary: str,
        channel: str,
        thread_ts: str,
        alert_id: str | None = None,
        team: str | None = None,
        oncall_channel: str | None = None,
        mention: str | None = None,
    ) -> Alert | None:
        """Post the alert to the on-call channel; None when no channel is configured.
        `alert_id`: the id to record it under (default: a new random one); `team`: the
        decision's Slack workspace, which the alert carries; `oncall_channel` / `mention`:
        the source channel's own on-call (`[helpdesk.paging]`)."""
        target = oncall_channel or self.config.oncall_channel
        if not target:
            log.warning(
                "decision %s asks for escalation but no on-call channel is set", decision_id
            )
            return None
        permalink = await permalink_of(client, channel, thread_ts)
        now = self.clock()
        alert = Alert(
            alert_id=alert_id or uuid.uuid4().hex[:16],
            decision_id=decision_id,
            asker=asker,
            text=redact(text),  # stored and shown to on-call without the secrets typed
            urgency=urgency,
            summary=redact(summary),
            permalink=permalink,
            oncall_channel=target,
            source_channel=channel,
            source_thread=thread_ts,
            created_at=now,
            last_sent_at=now,
            team=team,
            mention=mention,
        )
        alert.messages.append(await self._send(client, alert, resend=0))
        self.counts["sent"] += 1
        await asyncio.to_thread(self._save, alert)
        return alert

    def _blocks(self, alert: Alert, resend: int) -> list[dict[str, Any]]:
        """The alert message's blocks (`resend`: how many times it was sent before)."""
        return alert_blocks(
            alert_id=alert.alert_id,
            mention=mention_markup(alert.mention or self.config.oncall_mention),
            asker=alert.asker,
            text=alert.text,
            urgency=alert.urgency,
            permalink=alert.permalink,
            summary=alert.summary,
            resend=resend,
        )

    async def _send(self, client: AsyncWebClient, alert: Alert, *, resend: int) -> str:
        """Post the alert message once; its ts."""
        blocks = self._blocks(alert, resend)
        mention = mention_markup(alert.mention or self.config.oncall_mention) or ""
        posted = await client.chat_postMessage(
            channel=alert.oncall_channel,
            text=fallback_text(
                f"{mention} Escalation from <@{alert.asker}>: {escape(defang(alert.text))}"
            ),
            blocks=blocks,
            parse="none",  # the quoted words link and mention nobody in the notification
            link_names=False,
        )
        return str(posted["ts"])

    async def resend_due(
        self, client: AsyncWebClient, now: float | None = None, client_for: ClientFor | None = None
    ) -> int:
        """Re-send every unacknowledged alert older than the re-escalation delay (with many
        workspaces, with its workspace's client from `client_for`: the shared one has no
        token)."""
        delay = self.config.reescalate_after_s
        if delay <= 0:
            return 0
        now = self.clock() if now is None else now
        sent = 0
        for alert in await asyncio.to_thread(self.pending):
            if now - alert.last_sent_at < delay:
                continue
            claimed = await asyncio.to_thread(
                self._claim_resend, alert.alert_id, alert.last_sent_at, now
            )
            if not claimed:
                continue
            try:
                poster = await client_in(client, client_for, alert.team)
                ts = await self._send(poster, alert, resend=len(alert.messages))
            except SlackApiError as exc:
                log.warning(
                    "re-sending alert %s failed: %s", alert.alert_id, exc.response.get("error")
                )
                continue
            stored = await asyncio.to_thread(self._record_sent, alert.alert_id, ts)
            self.counts["resent"] += 1
            sent += 1
            if stored is not None and stored.acknowledged_by is not None:
                # acknowledged while this copy was on the wire: mark the copy as handled too
                await self._mark_acknowledged(poster, stored, channel=alert.oncall_channel, ts=ts)
        return sent

    async def run(self, client: AsyncWebClient, client_for: ClientFor | None = None) -> None:
        """Background loop started with the app: re-sends unacknowledged alerts until cancelled."""
        delay = self.config.reescalate_after_s
        if delay <= 0:
            return
        tick = min(max(delay / 4, 0.05), 30.0)
        lease_s = max(tick * LEASE_TICKS, 1.0)
        while True:
            await asyncio.sleep(tick)
            try:
                lease = self.coordinator.lease
                if await asyncio.to_thread(lease, REESCALATION_LEASE, self.holder, lease_s):
                    await self.resend_due(client, client_for=client_for)
            except Exception:
                log.exception("re-escalation pass failed; will retry")

    async def acknowledge(
        self,
        client: AsyncWebClient,
        *,
        alert_id: str,
        user: str,
        channel: str,
        ts: str,
        original_blocks: list[dict[str, Any]],
    ) -> Alert | None:
        """Record who acknowledged (the first click wins); update the clicked message and
        tell the asker once."""
        alert, first = await asyncio.to_thread(self._record_ack, alert_id, user, self.clock())
        if alert is None:
            return None
        if first:
            self.counts["acknowledged"] += 1
        await self._mark_acknowledged(client, alert, channel=channel, ts=ts, blocks=original_blocks)
        if first:
            await client.chat_postMessage(
                channel=alert.source_channel,
                thread_ts=alert.source_thread,
                text=f"On-call <@{alert.acknowledged_by}> acknowledged the escalation.",
            )
        return alert

    async def _mark_acknowledged(
        self,
        client: AsyncWebClient,
        alert: Alert,
        *,
        channel: str,
        ts: str,
        blocks: list[dict[str, Any]] | None = None,
    ) -> None:
        """Edit one alert message to say who acknowledged it (its buttons go)."""
        who = alert.acknowledged_by or "someone"
        at = datetime.fromtimestamp(alert.acknowledged_at or self.clock(), UTC).strftime(
            "%H:%M UTC"
        )
        note = say("desk.acknowledged_by", False, user=f"<@{who}>", at=at)
        if blocks is None:
            blocks = self._blocks(alert, max(len(alert.messages) - 1, 0))
        await client.chat_update(
            channel=channel,
            ts=ts,
            text=fallback_text(f"Escalation acknowledged by <@{who}>"),
            blocks=resolved_blocks(blocks, note),
        )

    def close(self) -> None:
        """Nothing to release: the store is written on every change."""
        return None
