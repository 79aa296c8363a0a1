"""Finding a filing whose answer was lost without Jira's search index.

Jira Cloud's search (JQL) is eventually consistent: a request created a moment ago may not be
found by its label for seconds. A retry that searched, missed it and filed again made two
issues of one ticket. Reads by key are consistent, and Jira numbers a project's issues in
the order they are created (`IT-41`, `IT-42`...), never reusing a number. So before a filing
is first sent, the highest key the connector knows in the desk's project is written with it
in the outbox (`OutboxChange.floor`); its issue, if it was created, has a higher number. A
retry reads the keys above the floor one by one until `GAP` numbers in a row are unused (a
deleted issue leaves a hole; the numbers after the newest issue are all unused) and takes the
issue carrying the filing's label. What it costs is one read per issue created in the project
since the floor, paid only by a filing whose first answer was lost; and each issue read that
is not the filing's raises the floor (`advance`, kept with the change), so a look-up cut short
by a failed call goes on from there next time instead of starting over (under 10% failing
calls a look-up across 50 issues seldom finished in one go, and the filing waited for ever).
"""

from __future__ import annotations

from collections.abc import Callable

from controllers.ticket_systems.jira_client import JiraClient, RemoteIssue

#: Unused numbers in a row after which no later issue exists.
GAP = 5


def split(key: str) -> tuple[str, int] | None:
    """("IT", 42) of "IT-42" (None: not an issue key)."""
    project, _, number = key.rpartition("-")
    if not project or not number.isdigit():
        return None
    return project, int(number)


def highest(keys: list[str], project: str) -> int:
    """The highest number of `keys` in `project` (0: none)."""
    return max((n for p, n in filter(None, map(split, keys)) if p == project), default=0)


def filed_since(
    client: JiraClient, floor: str, label: str, advance: Callable[[str], None] | None = None
) -> RemoteIssue | None:
    """The issue above `floor` ("IT-41": a project and the number the filing came after)
    carrying `label` (None: it was not created). `advance` is told each key read that is not
    it: a floor as good as the first for the next look-up."""
    parts = split(floor)
    if parts is None:
        return None
    project, number = parts
    unused = 0
    while unused < GAP:
        number += 1
        issue = client.issue(f"{project}-{number}")
        if issue is None:
            unused += 1
            continue
        unused = 0
        if label in issue.labels:
            return issue
        if advance is not None:
            advance(f"{project}-{number}")
    return None
