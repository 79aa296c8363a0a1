"""Reading back what people did in Jira: a status change or a public comment on a synced issue
becomes a change of the local ticket (written by "jira:...", so the outbox does not send it
back) and a piece of news for the surface to announce in the ticket's thread.

One poll searches the issues carrying the connector's label updated since the last poll
(JQL's relative time, so neither side's time zone matters; a minute more, as Jira counts whole
minutes), and reads again those a failed call left unread last time; an issue whose last
change was read already is skipped. A status differing from the one last seen (the connector
records those it made itself) is a change made there; a comment not seen before, by another
account than the connector's and public, is an agent's answer (internal notes stay in Jira);
an assignee differing from the one last seen or set is an assignment made there (its Slack
user when `[tickets.jira] people` names the account), unless a Claim or hand-off made here is
still waiting to be sent: it goes first, and Jira's assignee is read again after it.

An issue an agent moved to another project has a new key (its label still names the ticket):
the link follows it, the ticket keeps the new key, and when the project is a team's desk
(`[tickets.jira.desks]`) the open ticket is handed to that team here, as a hand-off made in
Jira. Before, a moved issue was "not one of ours" and nothing done to it came back.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from controllers.ticket_systems.jira_client import JiraClient, JiraUnavailable, RemoteIssue
from controllers.ticket_systems.outbox import REMOTE_PREFIX, Outbox
from controllers.ticket_systems.records import TicketLink
from controllers.tickets import TicketError

if TYPE_CHECKING:
    from controllers.tickets import TicketStore
    from core.stores.records import Ticket
    from core.ticket_systems import JiraConfig

#: Local history events that change a ticket's status (sent to Jira as transitions).
STATUS_EVENTS = frozenset({"resolved", "closed", "reopened", "claimed", "processing"})
#: How far back the first poll of a home looks.
FIRST_WINDOW_S = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class JiraNews:
    """A change made in Jira, as recorded on the local ticket, to announce once (`ref`)."""

    ticket: Ticket
    kind: str  # "status" | "comment" | "assignee" | "moved"
    issue: str
    #: The new status's name, the comment's text (as stored: redacted), or who the issue is
    #: assigned to now ("<@U123>" for a known person, else the name in Jira; "": nobody), or
    #: the team a moved issue's new desk belongs to ("": none).
    text: str
    #: The comment's author in Jira ("" for a status change).
    who: str
    ref: str


@dataclass(slots=True)
class PollResult:
    """What one poll brought back; `complete`: every updated issue was read (those that
    could not be are read by the next poll, whatever its window)."""

    news: list[JiraNews] = field(default_factory=list)
    complete: bool = True


def poll(
    client: JiraClient,
    outbox: Outbox,
    tickets: TicketStore,
    config: JiraConfig,
    me: str,
    clock: Callable[[], float] = time.time,
) -> PollResult:
    """One poll: apply Jira's changes since the last one to the local tickets; the news. An
    issue whose comments cannot be read now is left for the next poll, not the others."""
    started = clock()
    last = outbox.polled_at()
    window = FIRST_WINDOW_S if last is None else max(0.0, started - last)
    minutes = min(math.ceil(window / 60) + 1, math.ceil(FIRST_WINDOW_S / 60))
    issues = client.search(f'labels = "{config.label}" AND updated >= -{minutes}m')
    found = {issue.key for issue in issues}
    unread: list[str] = []
    for key in outbox.unread():  # issues a failed call left unread last time
        if key in found:
            continue
        try:
            issues.append(client.request(key))
        except JiraUnavailable:
            unread.append(key)
    links = outbox.links()
    assigning = {c.ticket_id for c in outbox.pending() if c.action in ("progress", "unassign")}
    result = PollResult()
    for issue in issues:
        link = links.get(issue.key)
        if link is None:
            link = _moved(client, issue, outbox, tickets, config, result)
        if link is None:
            continue  # not one of ours, or its filing is still being recorded
        if issue.updated and issue.updated == link.updated and issue.status == link.status:
            continue  # nothing happened to it since it was last read
        before = link.to_dict()
        try:
            result.news += _status(issue, link, tickets)
            if link.ticket_id not in assigning:
                result.news += _assignee(issue, link, tickets, config.people)
            result.news += _comments(client, issue, link, tickets, me)
            link.updated = issue.updated
        except JiraUnavailable:
            unread.append(issue.key)  # read again by the next poll; the others go on
        if link.to_dict() != before:
            outbox.save_link(link)
    outbox.set_polled_at(started, unread=unread)
    result.complete = not unread
    return result


def _moved(
    client: JiraClient,
    issue: RemoteIssue,
    outbox: Outbox,
    tickets: TicketStore,
    config: JiraConfig,
    result: PollResult,
) -> TicketLink | None:
    """The link of a labelled issue found under a key it does not know: moved in Jira to
    another project. The link and the ticket take the new key; a move to a team's desk hands
    the open ticket to that team (news either way). None: not one of ours."""
    prefix = f"{config.label}-"
    ticket_id = next((lb[len(prefix) :] for lb in issue.labels if lb.startswith(prefix)), "")
    link = outbox.link(ticket_id) if ticket_id else None
    if link is None or link.issue == issue.key:
        return None
    link.issue = issue.key
    outbox.save_link(link)
    ticket = tickets.link(ticket_id, system="jira", key=issue.key)
    project = issue.key.rpartition("-")[0]
    team = next(
        (
            name
            for name, desk in config.desks.items()
            if client.project_of(desk.service_desk_id) == project
        ),
        None,
    )
    if team is not None and ticket.is_open and ticket.team != team:
        ticket = tickets.hand_to(ticket_id, by=f"{REMOTE_PREFIX}{issue.key}", team=team)
        link.assignee = ""  # unassigned here by the hand-off: Jira's assignee applies anew
    result.news.append(
        JiraNews(
            ticket=ticket,
            kind="moved",
            issue=issue.key,
            text=team or "",
            who="",
            ref=f"{ticket_id}:{len(ticket.history)}",
        )
    )
    return link


def _status(issue: RemoteIssue, link: TicketLink, tickets: TicketStore) -> list[JiraNews]:
    """Apply a status Jira shows that is not the one last seen, unless the ticket has a
    status change made here that is newer (not sent yet: it is sent next and wins). The check
    is made in the same atomic change of the ticket, so a Reopen clicked while the poll runs
    is never overwritten by the status Jira showed before it."""
    if not issue.status or issue.status == link.status:
        return []
    synced = link.synced_seq

    def newer_here(ticket: Ticket) -> bool:
        return any(
            entry.get("event") in STATUS_EVENTS
            and not str(entry.get("by") or "").startswith(REMOTE_PREFIX)
            for entry in ticket.history[synced + 1 :]
        )

    if tickets.get(link.ticket_id) is None:
        return []  # the ticket is gone here
    ticket = tickets.external_status(
        link.ticket_id,
        by=f"{REMOTE_PREFIX}{issue.key}",
        status=f"{issue.status} in Jira ({issue.key})",
        done=issue.category == "done",
        closing="clos" in issue.status.lower(),
        unless=newer_here,
    )
    if ticket is None:
        return []  # the change made here goes first; Jira's status is read again after it
    link.status = issue.status
    return [
        JiraNews(
            ticket=ticket,
            kind="status",
            issue=issue.key,
            text=issue.status,
            who="",
            ref=f"{link.ticket_id}:{len(ticket.history)}",
        )
    ]


def _assignee(
    issue: RemoteIssue, link: TicketLink, tickets: TicketStore, people: dict[str, str]
) -> list[JiraNews]:
    """Apply an assignee Jira shows that is not the one last seen or set by the connector."""
    if issue.assignee is None or issue.assignee == link.assignee:
        return []
    if tickets.get(link.ticket_id) is None:
        return []
    account = issue.assignee
    slack = next((user for user, known in people.items() if known == account), None)
    name = issue.assignee_name or account
    local = slack or (f"{REMOTE_PREFIX}{name}" if account else None)
    ticket = tickets.external_assignee(
        link.ticket_id, by=f"{REMOTE_PREFIX}{issue.key}", assignee=local
    )
    link.assignee = account
    return [
        JiraNews(
            ticket=ticket,
            kind="assignee",
            issue=issue.key,
            text=f"<@{slack}>" if slack else name,
            who="",
            ref=f"{link.ticket_id}:{len(ticket.history)}",
        )
    ]


def _comments(
    client: JiraClient, issue: RemoteIssue, link: TicketLink, tickets: TicketStore, me: str
) -> list[JiraNews]:
    news = []
    seen = set(link.seen_comments)
    for comment in client.comments(issue.key):
        if comment.id in seen:
            continue
        link.seen_comments.append(comment.id)
        seen.add(comment.id)
        if comment.author_id == me or comment.id in link.ours or not comment.public:
            continue  # the connector's own, or an internal note
        name = comment.author_name or "an agent"
        try:
            ticket = tickets.comment(
                link.ticket_id, author=f"{REMOTE_PREFIX}{name}", text=comment.body
            )
        except TicketError:
            continue  # an empty comment, or the ticket is gone
        news.append(
            JiraNews(
                ticket=ticket,
                kind="comment",
                issue=issue.key,
                text=str(ticket.comments[-1].get("text") or ""),
                who=name,
                ref=f"{issue.key}:comment:{comment.id}",
            )
        )
    return news
