"""A scripted day of two-way sync with Jira Service Management, against the fake Jira
(`tests/fakes/jira_api.py`) failing a share of its calls: are changes lost or duplicated, and
how long do they take?

The day (seeded) mixes what requesters do here (file a ticket, comment, resolve, reopen,
close, through the ticket store as the controllers and buttons do) with what agents do in
Jira (a public comment, an internal note, a status change), `--gap` apart (50 ms: a day in
about 30 s; at 10 ms the embedded stores' file locks, shared by the two threads, starve the
rounds and the latencies measure that). Which tickets the agents act on depends on what was
filed in Jira by then, so the counts differ a little between runs of one seed. Beside
it runs the bot's round (`bot/helpdesk/jira_sync.py`, without Slack): send what is due every
`--send-every` seconds and poll Jira every `--poll-every`. When the day is over the rounds go
on, with the failures still on, until the outbox is empty and a poll finds nothing new.

Counted afterwards, one by one: each local ticket filed once in Jira (0 lost, 0 duplicated);
each local comment in Jira exactly once; each agent's public comment on the local ticket
exactly once and no internal note; each status the two sides end in agreeing (done/not done);
changes that failed for good. Latency: a local change queued -> done in Jira, and an agent's
change in Jira -> on the local ticket. Run once without failures (the baseline) and once with.

    python benchmarks/jira_sync.py --events 500 --failure-share 0.1 [--seed N] [--json]

The failures are drawn from every mode of the fake (500, 503, 429, a dropped connection and a
slow answer after the change was made). `--index-lag S`: Jira's search finds a new issue only
S seconds after its creation (Jira Cloud's index catching up), so a filing retried within it
is not found by its label. `--assignees`: helpers here also claim tickets (assigning them in
Jira through `[tickets.jira] people`) and hand them to a team (unassigning), agents assign
issues in Jira (to a mapped account, an unknown one, or nobody), and each ticket's assignee
must end the same on both sides; agents also move issues to another project (a new key).
Exit 1 when anything was lost, duplicated or left disagreeing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controllers.ticket_systems.connector import JiraConnector
from controllers.tickets import TicketStateError, TicketStore
from core.config import load_settings
from tests.fakes.jira_api import API_TOKEN, EMAIL, FakeJira
from tests.ticket_systems.config import jira_config

#: With --assignees: the helpers `[tickets.jira] people` maps to Jira accounts, and the accounts
#: agents assign in Jira (one nobody here knows; None unassigns).
HELPERS = {"UHELPER1": "557058:helper-one", "UHELPER2": "557058:helper-two"}
PEOPLE = "[tickets.jira.people]\n" + "".join(f'{u} = "{a}"\n' for u, a in HELPERS.items())
JIRA_ASSIGNEES = [*HELPERS.values(), "557058:alice", None]
TITLES = ["VPN drops", "printer jams", "laptop will not boot", "no access to the drive",
          "mail not syncing", "scale the payments service"]  # fmt: skip


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of them lie (0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Day:
    """One scripted day against one fake Jira, in a throwaway brain home."""

    def __init__(self, args: argparse.Namespace, failure_share: float) -> None:
        self.args = args
        self.failure_share = failure_share
        self.random = random.Random(args.seed)
        self.fake = FakeJira(timeout_delay_s=args.timeout * 2, index_lag_s=args.index_lag)
        self.fake.start()
        self.home = Path(tempfile.mkdtemp(prefix="jira-day-"))
        config = jira_config(
            self.fake.url,
            timeout_s=args.timeout,
            retry_base_s=args.retry_base,
            retry_max_s=args.retry_max,
            send_every_s=args.send_every,
            poll_every_s=args.poll_every,
            extra=PEOPLE if args.assignees else "",
        )
        (self.home / "brain.toml").write_text(config, encoding="utf-8")
        os.environ.update({"BRAIN_HOME": str(self.home), "JIRA_EMAIL": EMAIL,
                           "JIRA_API_TOKEN": API_TOKEN})  # fmt: skip
        self.settings = load_settings()
        self.store = TicketStore.open(self.settings)
        self.tickets: list[str] = []
        #: Local comments written here, and agents' comments in Jira: text -> when made.
        self.local_comments: dict[str, float] = {}
        self.agent_comments: dict[str, float] = {}
        self.internal_notes: list[str] = []
        self.moves = 0
        self.agent_changes: dict[str, float] = {}  # news ref -> when made in Jira
        self.inbound_latency: list[float] = []
        self.news_refs: list[str] = []
        self._stop = threading.Event()
        #: How long each round's sending and polling took (seconds).
        self.send_s: list[float] = []
        self.poll_s: list[float] = []
        #: Tickets whose two sides end in different states (done here, open there...).
        self.disagreeing: list[dict[str, Any]] = []

    # -- the bot's round -------------------------------------------------------------------

    def rounds(self) -> None:
        connector = JiraConnector.open(self.settings, self.store)
        assert connector is not None
        polled = 0.0
        while not self._stop.is_set():
            self.round(connector, poll=time.monotonic() - polled >= self.args.poll_every)
            if time.monotonic() - polled >= self.args.poll_every:
                polled = time.monotonic()
            time.sleep(self.args.send_every)
        connector.close()

    def round(self, connector: JiraConnector, *, poll: bool) -> tuple[int, bool]:
        """One round as the bot's: (news, whether the poll was complete)."""
        try:
            started = time.monotonic()
            connector.send_due()
            self.send_s.append(time.monotonic() - started)
            if not poll:
                return 0, False
            started = time.monotonic()
            result = connector.poll()
            self.poll_s.append(time.monotonic() - started)
        except Exception:  # a poll that failed is tried again next round, as the bot does
            return 0, False
        now = time.time()
        news = result.news
        for item in news:
            self.news_refs.append(item.ref)
            made = self.agent_comments.get(item.text) if item.kind == "comment" else None
            if made is not None:
                self.inbound_latency.append(now - made)
        return len(news), result.complete

    # -- the day ---------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        self.fake.fail_share(self.failure_share, seed=self.args.seed)
        worker = threading.Thread(target=self.rounds, daemon=True)
        worker.start()
        started = time.monotonic()
        for number in range(self.args.events):
            self.event(number)
            time.sleep(self.args.gap)
        day_s = time.monotonic() - started
        self._stop.set()
        worker.join()
        # the last rounds, failures still on: until nothing is pending and a poll is quiet
        connector = JiraConnector.open(self.settings, self.store)
        assert connector is not None
        quiet = 0
        indexed = time.monotonic() + self.args.index_lag  # what search finds by then is all
        for _ in range(2000):
            pending = [c for c in connector.outbox.all() if c.state == "pending"]
            got, complete = self.round(connector, poll=True)
            if pending or got or not complete or time.monotonic() < indexed:
                quiet = 0
            else:
                quiet += 1
                if quiet >= 3:
                    break
            time.sleep(0.01)
        report = self.count(connector, day_s)
        connector.close()
        self.fake.stop()
        return report

    def event(self, number: int) -> None:
        draw = self.random.random()
        local = self.tickets
        if draw < 0.2 or not local:
            ticket = self.store.create(
                "incident" if number % 3 else "access",
                title=f"{self.random.choice(TITLES)} #{number}",
                requester=f"U{number % 40:03d}",
                fields={"description": f"event {number}", "channel": "C1"},
            )
            self.tickets.append(ticket.id)
            return
        ticket_id = self.random.choice(local)
        issue = self.fake.by_label(f"brain-{ticket_id}")
        if draw < 0.5 or (draw >= 0.7 and not issue):
            text = f"local comment {number}"
            self.local_comments[text] = time.time()
            self.store.comment(ticket_id, author="U001", text=text)
            return
        if draw < 0.7:
            ticket = self.store.get(ticket_id)
            assert ticket is not None
            try:
                choice = self.random.random()
                if ticket.is_open and self.args.assignees and choice < 0.4:
                    if choice < 0.3:  # a helper claims it (refused when someone holds it)
                        self.store.claim(ticket_id, by=self.random.choice(list(HELPERS)))
                    else:
                        self.store.hand_to(ticket_id, by="UAGENT", team="network")
                elif ticket.is_open:
                    if choice < 0.7:
                        self.store.resolve(ticket_id, by="UAGENT")
                    else:
                        self.store.close(ticket_id, by="UAGENT")
                else:
                    self.store.reopen(ticket_id, by=ticket.requester, reason="not solved")
            except TicketStateError:
                pass
            return
        key = issue[0].key
        if draw < 0.85:
            public = self.random.random() < 0.8
            text = f"agent comment {number}"
            self.fake.agent_comment(key, text, public=public)
            if public:
                self.agent_comments[text] = time.time()
            else:
                self.internal_notes.append(text)
            return
        if self.args.assignees and draw < 0.865:  # moved to another project: a new key
            self.fake.agent_move(key, "NET")
            self.moves += 1
            return
        if self.args.assignees and draw < 0.92:
            account = self.random.choice(JIRA_ASSIGNEES)
            self.fake.agent_assign(key, account, "Alice Agent" if account == "557058:alice" else "")
            return
        status = self.random.choice(["In Progress", "Waiting for customer", "Resolved",
                                     "Waiting for support", "Closed"])  # fmt: skip
        self.fake.agent_transition(key, status)

    # -- counting --------------------------------------------------------------------------

    def count(self, connector: JiraConnector, day_s: float) -> dict[str, Any]:
        issues = {t: self.fake.by_label(f"brain-{t}") for t in self.tickets}
        filed_lost = sum(len(found) == 0 for found in issues.values())
        filed_twice = sum(len(found) > 1 for found in issues.values())
        jira_bodies: dict[str, int] = {}
        for found in issues.values():
            for issue in found:
                for comment in issue.comments:
                    jira_bodies[comment.body] = jira_bodies.get(comment.body, 0) + 1
        out_lost = out_dup = 0
        for text in self.local_comments:
            seen = jira_bodies.get(f"U001 (Slack): {text}", 0)
            out_lost += seen == 0
            out_dup += seen > 1
        local_texts: dict[str, int] = {}
        agreeing = assignees_agreeing = assigned = 0
        for ticket_id, found in issues.items():
            ticket = self.store.find(ticket_id)
            for comment in ticket.comments:
                if comment["by"].startswith("jira:"):
                    local_texts[comment["text"]] = local_texts.get(comment["text"], 0) + 1
            if found and self.args.assignees:
                assignees_agreeing += _assignee_here(found[0]) == ticket.assignee
                assigned += ticket.assignee is not None
            if found:
                agree = (found[0].category == "done") == (not ticket.is_open)
                agreeing += agree
                if not agree:
                    self.disagreeing.append(
                        {"ticket": ticket.id, "local": ticket.status, "jira": found[0].status,
                         "jira_history": found[0].status_history,
                         "local_history": [(h["event"], h["by"]) for h in ticket.history]}
                    )  # fmt: skip
        in_lost = sum(local_texts.get(text, 0) == 0 for text in self.agent_comments)
        in_dup = sum(local_texts.get(text, 0) > 1 for text in self.agent_comments)
        leaked = sum(text in local_texts for text in self.internal_notes)
        changes = connector.outbox.all()
        latency = [c.sent_at - c.queued_at for c in changes if c.sent_at is not None]
        failed = [c for c in changes if c.state != "sent"]
        return {
            "failure_share": self.failure_share,
            "events": self.args.events,
            "tickets": len(self.tickets),
            "changes_sent": len(latency),
            "changes_not_sent": len(failed),
            "not_sent_reasons": sorted({c.last_error[:80] for c in failed})[:5],
            "lost": filed_lost + out_lost + in_lost,
            "duplicated": filed_twice
            + out_dup
            + in_dup
            + len(self.news_refs)
            - len(set(self.news_refs)),
            "status_disagreeing": len(self.disagreeing),
            "assignees_disagreeing": len([t for t, f in issues.items() if f]) - assignees_agreeing
            if self.args.assignees
            else 0,
            "detail": {
                "filed_lost": filed_lost,
                "filed_twice": filed_twice,
                "local_comments": len(self.local_comments),
                "to_jira_lost": out_lost,
                "to_jira_twice": out_dup,
                "agent_comments": len(self.agent_comments),
                "from_jira_lost": in_lost,
                "from_jira_twice": in_dup,
                "internal_notes_leaked": leaked,
                "status_agreeing": f"{agreeing}/{len(self.tickets)}",
                "assignees_agreeing": f"{assignees_agreeing}/{len(self.tickets)}"
                if self.args.assignees
                else "-",
                "assigned_at_end": assigned,
                "moves_in_jira": self.moves,
                "assignment_events": sum(
                    e.get("event") in ("claimed", "handed", "assigned")
                    for t in self.tickets
                    for e in self.store.find(t).history
                ),
                "disagreeing": self.disagreeing[:3],
            },
            "jira_calls": len(self.fake.calls),
            "jira_failures": sum(c.failure is not None for c in self.fake.calls),
            "day_s": round(day_s, 1),
            "to_jira_ms": {
                "p50": round(percentile(latency, 0.5) * 1000),
                "p99": round(percentile(latency, 0.99) * 1000),
            },
            "send_round_ms": {
                "p50": round(percentile(self.send_s, 0.5) * 1000),
                "max": round(max(self.send_s, default=0) * 1000),
            },
            "poll_ms": {
                "p50": round(percentile(self.poll_s, 0.5) * 1000),
                "max": round(max(self.poll_s, default=0) * 1000),
            },
            "from_jira_ms": {
                "p50": round(percentile(self.inbound_latency, 0.5) * 1000),
                "p99": round(percentile(self.inbound_latency, 0.99) * 1000),
            },
        }


def _assignee_here(issue: Any) -> str | None:
    """The local assignee an issue's assignee in Jira should be."""
    if issue.assignee is None:
        return None
    mapped = next((user for user, account in HELPERS.items() if account == issue.assignee), None)
    return mapped or f"jira:{issue.assignee_name}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--failure-share", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between events")
    parser.add_argument("--send-every", type=float, default=0.05)
    parser.add_argument("--poll-every", type=float, default=0.25)
    parser.add_argument("--timeout", type=float, default=0.2, help="the client's timeout (s)")
    parser.add_argument("--retry-base", type=float, default=0.05, help="first backoff (s)")
    parser.add_argument("--retry-max", type=float, default=1.0, help="longest backoff (s)")
    parser.add_argument("--index-lag", type=float, default=0.0,
                        help="seconds before Jira's search finds a new issue")  # fmt: skip
    parser.add_argument("--assignees", action="store_true",
                        help="claims and hand-offs here, assignments in Jira")  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = [Day(args, 0.0).run(), Day(args, args.failure_share).run()]
    if args.json:
        print(json.dumps(runs, indent=2))
    else:
        for run in runs:
            print(f"failures {run['failure_share']:.0%}: {run['events']} events, "
                  f"{run['tickets']} tickets, {run['changes_sent']} changes sent "
                  f"({run['changes_not_sent']} not), lost {run['lost']}, duplicated "
                  f"{run['duplicated']}, statuses disagreeing {run['status_disagreeing']}; "
                  f"to Jira p50 {run['to_jira_ms']['p50']} ms p99 "
                  f"{run['to_jira_ms']['p99']} ms, from Jira p50 {run['from_jira_ms']['p50']} ms "
                  f"p99 {run['from_jira_ms']['p99']} ms; {run['jira_calls']} calls, "
                  f"{run['jira_failures']} failed; {run['detail']}")  # fmt: skip
    clean = [
        run["lost"] + run["duplicated"] + run["status_disagreeing"] + run["assignees_disagreeing"]
        == 0
        for run in runs
    ]
    return 0 if all(clean) else 1


if __name__ == "__main__":
    raise SystemExit(main())
