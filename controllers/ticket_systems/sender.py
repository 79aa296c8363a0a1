"""Sending the outbox to Jira: each ticket's changes in the order they were made, a failed one
retried with backoff, none done twice.

An attempt is counted (and its next time set) in the store before the call, so a process that
dies mid-call leaves the change to be retried. A retry first checks whether the earlier
attempt was carried out after all: a filing is looked up by its label (`<label>-<ticket id>`)
and, since search may not see a new issue yet, by reading the keys numbered after the highest
one known before it was sent (`controllers.ticket_systems.keys`); a comment among the
account's own comments by its text, and a transition by the issue's status (a change already
there is not made again). A change Jira refuses (4xx) is kept as "failed" for a person, and
the ticket's later changes still go.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controllers.ticket_systems import keys
from controllers.ticket_systems.forgetting import BODY_HASH, body_hash
from controllers.ticket_systems.jira_client import (
    JiraClient,
    JiraRejected,
    JiraUnavailable,
    RemoteIssue,
    Transition,
)
from controllers.ticket_systems.outbox import Outbox
from controllers.ticket_systems.records import OutboxChange, TicketLink, comment_body
from core.errors import BrainError

if TYPE_CHECKING:
    from controllers.tickets import TicketStore
    from core.stores.records import Ticket
    from core.ticket_systems import JiraConfig

log = logging.getLogger(__name__)

#: The category of status each transition action leads to, and words its name carries.
TARGETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "resolve": ("done", ("resol", "done", "complete")),
    "close": ("done", ("clos",)),
    "reopen": ("new", ("reopen", "open", "waiting for support")),
    "progress": ("indeterminate", ("progress",)),
}


class SyncRefused(BrainError):
    """The change cannot be made in Jira as things are (no desk, no request type, no
    transition that does it): kept as failed, not retried."""


@dataclass(slots=True)
class SendReport:
    """What one round of sending did."""

    sent: int = 0
    retrying: int = 0
    failed: int = 0
    waiting: int = 0


class Sender:
    """Sends due changes of one outbox to one Jira site."""

    def __init__(
        self,
        client: JiraClient,
        outbox: Outbox,
        tickets: TicketStore,
        config: JiraConfig,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.outbox = outbox
        self.tickets = tickets
        self.config = config
        self.clock = clock
        self._me: str | None = None
        #: Service desk id -> its project's key (read once).
        self._projects: dict[str, str] = {}

    def myself(self) -> str:
        """The connector's own account id (read once)."""
        if self._me is None:
            self._me = self.client.myself()
        return self._me

    def send_due(self) -> SendReport:
        """Send every change that is due, ticket by ticket in order; a ticket whose change
        failed waits for its retry with the rest of its changes. When Jira cannot be reached
        at all the round stops there."""
        report = SendReport()
        by_ticket: dict[str, list[OutboxChange]] = {}
        for change in self.outbox.pending():
            by_ticket.setdefault(change.ticket_id, []).append(change)
        down = False
        for changes in by_ticket.values():
            changes.sort(key=lambda c: c.seq)
            for index, change in enumerate(changes):
                if down or change.next_at > self.clock():
                    report.waiting += len(changes) - index
                    break
                outcome = self._attempt(change)
                if outcome == "sent":
                    report.sent += 1
                elif outcome == "failed":
                    report.failed += 1
                else:
                    report.retrying += 1
                    report.waiting += len(changes) - index - 1
                    down = outcome == "down"
                    break
        return report

    # -- one change ----------------------------------------------------------------------------

    def _attempt(self, change: OutboxChange) -> str:
        change.attempts += 1
        change.next_at = self.clock() + self._backoff(change.attempts)
        self.outbox.update(change)
        try:
            remote = self._do(change)
        except JiraUnavailable as exc:
            change.maybe_done = change.maybe_done or exc.maybe_done
            change.last_error = str(exc)[:300]
            self.outbox.update(change)
            log.info("jira: %s not sent yet (%s)", change.change_id, change.last_error)
            return "retry" if exc.maybe_done else "down"
        except (JiraRejected, SyncRefused) as exc:
            change.state = "failed"
            change.last_error = str(exc)[:300]
            self.outbox.update(change)
            if change.action not in ("create", "comment", "remove", "unassign", "update"):
                self._seen_status(change, None)  # refused: Jira's status may apply again
            log.warning("jira: %s failed for good: %s", change.change_id, change.last_error)
            return "failed"
        change.state = "sent"
        change.sent_at = self.clock()
        change.remote = remote
        change.text = ""  # the words are in Jira and in the ticket: not kept a third time
        self.outbox.update(change)
        return "sent"

    def _backoff(self, attempts: int) -> float:
        base, most = self.config.retry_base_s, self.config.retry_max_s
        return float(min(most, base * 2 ** (attempts - 1)))

    def _do(self, change: OutboxChange) -> str:
        if change.action == "create":
            return self._create(change)
        link = self.outbox.link(change.ticket_id)
        if change.action == "remove":
            return "nothing to remove" if link is None else self._remove(change, link)
        if link is None:
            raise SyncRefused(f"ticket {change.ticket_id} was never filed in Jira")
        if change.action == "comment":
            return self._comment(change, link)
        if change.action == "unassign":  # a hand-off to a team: unassigned, and agents told
            done = self._assign(change, link, None)
            return f"{done}; noted {self._comment(change, link, self._handoff_note(change))}"
        if change.action == "update":
            return self._update(change, link)
        done = self._transition(change, link)
        account = self.config.people.get(change.by)
        if change.action == "progress" and account is not None:  # a Claim: theirs in Jira too
            done += "; " + self._assign(change, link, account)
        return done

    def _create(self, change: OutboxChange) -> str:
        known = self.outbox.link(change.ticket_id)
        if known is not None:
            return known.issue
        ticket = self.tickets.get(change.ticket_id)
        if ticket is None:
            raise SyncRefused(f"ticket {change.ticket_id} no longer exists")
        desk = self.config.desk_for(ticket.team)
        if desk is None:
            raise SyncRefused(f"no Jira desk takes the tickets of team {ticket.team!r}")
        label = f"{self.config.label}-{ticket.id}"
        issue: RemoteIssue | None = None
        if change.attempts > 1:  # an earlier attempt may have filed it
            found = self.client.search(f'labels = "{label}"')
            issue = found[0] if found else None
            if issue is None and change.floor:  # the index may not have caught up: by key

                def advance(key: str) -> None:  # kept by the attempt, even one cut short
                    change.floor = key

                issue = keys.filed_since(self.client, change.floor, label, advance)
        if issue is None:
            request_type = desk.request_type(ticket.kind)
            if request_type is None:
                raise SyncRefused(f"no request type is configured for {ticket.kind} tickets")
            if not change.floor:  # written before the first send, kept for every retry
                change.floor = self._floor(desk.service_desk_id)
                self.outbox.update(change)
            issue = self.client.create_request(
                service_desk_id=desk.service_desk_id,
                request_type_id=request_type,
                summary=ticket.title,
                description=description(ticket),
                labels=[self.config.label, label],
            )
        self.outbox.save_link(TicketLink(ticket.id, issue.key, status=issue.status))
        self.tickets.link(ticket.id, system="jira", key=issue.key)
        return issue.key

    def _floor(self, service_desk_id: str) -> str:
        """The highest key known in the desk's project ("IT-41"; "IT-0": none yet)."""
        project = self._projects.get(service_desk_id)
        if project is None:
            project = self._projects[service_desk_id] = self.client.project_of(service_desk_id)
        known = [link.issue for link in self.outbox.links().values()]
        return f"{project}-{keys.highest(known, project)}"

    def _handoff_note(self, change: OutboxChange) -> str:
        """The internal note telling Jira's agents who the ticket was handed to here."""
        ticket = self.tickets.get(change.ticket_id)
        entry = ticket.history[change.seq] if ticket and change.seq < len(ticket.history) else {}
        team = str(entry.get("team") or "another team")
        return f"Handed to team {team} in Slack by {change.by or 'someone'}; unassigned here."

    def _comment(self, change: OutboxChange, link: TicketLink, note: str | None = None) -> str:
        """Post the change's comment (public), or `note` as an internal note (agents only),
        once: a retry finds an earlier attempt's among the account's own first."""
        body = comment_body(change) if note is None else note
        me = self.myself()
        made = None
        if change.attempts > 1:  # an earlier attempt may have written it
            made = next(
                (
                    c
                    for c in self.client.comments(link.issue)
                    if c.author_id == me and c.body == body and c.id not in link.ours
                ),
                None,
            )
        if made is None:
            made = self.client.add_comment(link.issue, body, public=note is None)
        fresh = self.outbox.link(change.ticket_id) or link
        fresh.ours[made.id] = change.change_id
        if made.id not in fresh.seen_comments:
            fresh.seen_comments.append(made.id)
        self.outbox.save_link(fresh)
        return made.id

    def _update(self, change: OutboxChange, link: TicketLink) -> str:
        """Fields filled in after filing (or the ticket redacted by a forget): the request's
        summary and description written again from the ticket as it is now (so several
        updates waiting together make one state, and a retry is harmless)."""
        ticket = self.tickets.get(change.ticket_id)
        if ticket is None:
            return "the ticket is gone"
        self.client.edit(link.issue, summary=ticket.title, description=description(ticket))
        return "updated"

    def _assign(self, change: OutboxChange, link: TicketLink, account: str | None) -> str:
        """Assign the issue to `account` (None: unassign; a hand-off to a team), recorded as
        the assignee last seen, so the poll does not read it back as an agent's change."""
        self.client.assign(link.issue, account)
        fresh = self.outbox.link(change.ticket_id) or link
        fresh.assignee = account or ""
        self.outbox.save_link(fresh)
        return f"assigned to {account}" if account else "unassigned"

    def _remove(self, change: OutboxChange, link: TicketLink) -> str:
        """Delete a comment the connector posted (a forgotten user's words): by its id, or
        the account's own comments whose body has the hash (one that may have been posted);
        one deleted already counts as done."""
        if change.target.startswith(BODY_HASH):
            me = self.myself()
            ids = [
                c.id
                for c in self.client.comments(link.issue)
                if c.author_id == me and body_hash(c.body) == change.target
            ]
        else:
            ids = [change.target]
        removed = sum(self.client.delete_comment(link.issue, comment_id) for comment_id in ids)
        fresh = self.outbox.link(change.ticket_id) or link
        for comment_id in ids:
            fresh.ours.pop(comment_id, None)  # still seen: not read back as an agent's
        self.outbox.save_link(fresh)
        return f"removed {removed}"

    def _transition(self, change: OutboxChange, link: TicketLink) -> str:
        issue = self.client.request(link.issue)
        options = [] if _there(change.action, issue) else self.client.transitions(link.issue)
        chosen = choose(change.action, options, self.config.transitions)
        if chosen is None and change.action == "close" and issue.category != "done":
            chosen = choose("resolve", options, self.config.transitions)  # no closing step
        if chosen is None:
            if _there(change.action, issue) or change.action in ("progress", "close"):
                # already there (or the workflow has no such step: a closed-on-resolve desk)
                self._seen_status(change, issue.status)
                return f"already {issue.status}"
            raise SyncRefused(
                f"no transition of {link.issue} from {issue.status!r} does {change.action!r}"
            )
        try:
            self.client.transition(link.issue, chosen.id)
        except JiraRejected:
            # Moved since its transitions were read (an agent at work): done if it is now
            # where the action leads, refused otherwise.
            issue = self.client.request(link.issue)
            if not _there(change.action, issue):
                raise
            self._seen_status(change, issue.status)
            return f"already {issue.status}"
        self._seen_status(change, chosen.to_status)
        return chosen.name

    def _seen_status(self, change: OutboxChange, status: str | None) -> None:
        """The status change is done (or refused): Jira's status from now on is the one to
        compare with, and the status the connector set itself is not announced."""
        link = self.outbox.link(change.ticket_id)
        if link is None:
            return
        if status is not None:
            link.status = status
        link.synced_seq = max(link.synced_seq, change.seq)
        self.outbox.save_link(link)


def _there(action: str, issue: RemoteIssue) -> bool:
    """Is the issue where the action leads already?"""
    category = issue.category
    if action == "resolve":
        return category == "done"
    if action == "close":
        return category == "done" and "clos" in issue.status.lower()
    if action == "reopen":
        return category != "done"
    return category == "indeterminate"


def choose(action: str, options: Sequence[Transition], names: dict[str, str]) -> Transition | None:
    """The transition doing `action`: the one named in `[tickets.jira.transitions]`, else
    one leading to a status of the action's category whose name says it."""
    named = names.get(action)
    if named:
        return next((t for t in options if t.name.lower() == named.lower()), None)
    category, words = TARGETS[action]
    fits = [
        t
        for t in options
        if t.to_category == category or (category == "new" and t.to_category != "done")
    ]
    for word in words:
        for transition in fits:
            if word in transition.name.lower() or word in transition.to_status.lower():
                return transition
    if action == "close":
        return None  # only a closing step closes; a resolved issue counts as closed else
    return fits[0] if fits else None


def description(ticket: Ticket) -> str:
    """The request's description in Jira: the asker's words and the fields gathered, and
    where it came from (the fields are redacted already)."""
    fields = ticket.fields
    lines = [str(fields.get("description") or ticket.title)]
    skip = {"description", "channel", "thread", "decision_id", "jira_key", "upstream"}
    extra = [f"{key}: {value}" for key, value in fields.items() if key not in skip and value]
    if extra:
        lines += ["", *extra]
    lines += ["", f"Filed from Slack by {ticket.requester} as {ticket.id}."]
    return "\n".join(lines)
