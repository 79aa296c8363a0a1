"""`brain tickets sync`: one round of the Jira connector from the command line (the bot runs
it on its own every `[tickets.jira] send_every_s`), and what is left in the outbox."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controllers.tickets import TicketStore
    from core.config import Settings


def sync(settings: Settings, store: TicketStore, *, poll: bool, as_json: bool) -> int:
    """Send what is due (and with `poll` read Jira's changes back); exit 1 when Jira could
    not be read, 2 when no Jira is configured."""
    from controllers.ticket_systems.connector import JiraConnector
    from controllers.ticket_systems.jira_client import JiraError
    from core.errors import ConfigError

    try:
        connector = JiraConnector.open(settings, store)
    except ConfigError as exc:
        print(f"brain: {exc}", file=sys.stderr)
        return 2
    if connector is None:
        print("brain: no ticket system is configured ([tickets.jira])", file=sys.stderr)
        return 2
    code = 0
    try:
        connector.recover()  # changes a crash left out of the outbox
        report = connector.send_due()
        news = []
        if poll:
            try:
                result = connector.poll()
                news = result.news
                if not result.complete:
                    print("brain: some issues could not be read; the next poll reads them",
                          file=sys.stderr)  # fmt: skip
                    code = 1
            except JiraError as exc:
                print(f"brain: cannot read Jira's changes: {exc}", file=sys.stderr)
                code = 1
    finally:
        connector.close()
    changes = connector.outbox.all()
    figures = {
        "sent": report.sent,
        "retrying": report.retrying,
        "failed_now": report.failed,
        "pending": sum(change.state == "pending" for change in changes),
        "failed": sum(change.state == "failed" for change in changes),
        "read_back": len(news),
    }
    if as_json:
        print(json.dumps(figures))
    else:
        print(
            f"sent {figures['sent']}, retrying {figures['retrying']}, pending "
            f"{figures['pending']}, failed {figures['failed']}, read back {figures['read_back']}"
        )
        for change in changes:
            if change.state == "failed":
                print(f"  failed {change.change_id} ({change.action}): {change.last_error}")
    return code
