"""A fake Jira Service Management (Cloud REST API) on 127.0.0.1, written from the public API
documentation, for the ticket-system connector's tests and benchmark.

Served by a thread of its own (`http.server`), so a synchronous client, a test's event loop
and the bot's worker threads can all call it. What it implements, with the documented shapes:

- `GET  /rest/api/3/myself` (who the API token belongs to: `accountId`, `displayName`);
- `POST /rest/servicedeskapi/request` (create a customer request: `serviceDeskId`,
  `requestTypeId`, `requestFieldValues` with `summary`, `description`, `labels`) -> 201, the
  request with `issueId`, `issueKey`, `currentStatus` (`status`, `statusCategory`);
- `GET  /rest/servicedeskapi/request/{key}`;
- `GET  /rest/servicedeskapi/servicedesk/{id}` (the desk's `projectKey`: IT unless
  `desk_projects` says otherwise);
- `GET  /rest/api/3/issue/{key}` (`fields`: status, labels; 404 for a key never used);
- `GET|POST /rest/servicedeskapi/request/{key}/comment` (paged `values`; `body`, `public`);
- `DELETE /rest/api/3/issue/{key}/comment/{id}` (-> 204; 404 when there is none);
- `PUT  /rest/api/2/issue/{key}` (`fields`: `summary`, `description` as plain text -> 204);
- `PUT  /rest/api/3/issue/{key}/assignee` (`{"accountId": id or null}` -> 204);
- `GET|POST /rest/api/3/issue/{key}/transitions` (`transitions` with `to.statusCategory.key`;
  POST `{"transition": {"id": ...}}` -> 204);
- `GET  /rest/api/3/search/jql` (JQL: `labels = "x"`, `labels in (...)`, `project = KEY`,
  `updated >= -5m` joined by AND; `fields`, `maxResults`, `nextPageToken`).

Reads by key are consistent: an issue is there as soon as its creation answered. Search is
not: Jira Cloud's search index catches up with a new issue after a lag (seconds), which
`index_lag_s` models: `search/jql` finds an issue only that long after its creation.

Calls need HTTP Basic auth with the e-mail and API token given. A test plays a Jira agent
with `agent_transition`, `agent_comment`, `agent_assign` and `agent_move` (the issue moved to
another project: a new key, the old one still answering for it, as Jira redirects it), and
scripts failures: `fail_share` fails a deterministic share of calls (seeded), `fail_next`
the next calls, `down` every call; a failure is a 500, 503 or 429 that changes nothing, a
dropped connection after the change was made (the client cannot know), or a response slower
than the client's timeout (also after it). `before_next` runs an agent's action between two
calls of the connector.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

EMAIL = "helpdesk-bot@example.com"
API_TOKEN = "jira-api-token-for-tests"
#: The integration's own account (comments it writes carry it as their author).
BOT_ACCOUNT = "557058:brain-integration"
PROJECT = "IT"
SERVICE_DESK_ID = "1"

#: A Jira Service Management IT workflow: status -> category.
STATUSES: dict[str, str] = {
    "Waiting for support": "new",
    "In Progress": "indeterminate",
    "Waiting for customer": "indeterminate",
    "Resolved": "done",
    "Closed": "done",
}
#: Transitions: id -> (name, target status, the statuses it can start from).
TRANSITIONS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "11": ("Start progress", "In Progress", ("Waiting for support", "Waiting for customer")),
    "21": ("Pending", "Waiting for customer", ("Waiting for support", "In Progress")),
    "31": (
        "Resolve this issue",
        "Resolved",
        ("Waiting for support", "In Progress", "Waiting for customer"),
    ),
    "41": (
        "Close",
        "Closed",
        ("Waiting for support", "In Progress", "Waiting for customer", "Resolved"),
    ),
    "51": ("Reopen", "Waiting for support", ("Resolved", "Closed")),
}
FAILURE_MODES = ("error", "unavailable", "throttled", "drop", "timeout")
_RELATIVE = re.compile(r"^-(\d+)([mhd])$")


def _stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")


@dataclass
class FakeComment:
    id: str
    body: str
    public: bool
    author_id: str
    author_name: str
    created: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "body": self.body,
            "public": self.public,
            "author": {"accountId": self.author_id, "displayName": self.author_name},
            "created": {"iso8601": _stamp(self.created), "epochMillis": int(self.created * 1000)},
        }


@dataclass
class FakeIssue:
    id: str
    key: str
    service_desk_id: str
    request_type_id: str
    summary: str
    description: str
    labels: list[str]
    status: str
    created: float
    updated: float
    comments: list[FakeComment] = field(default_factory=list)
    #: Every status it was moved to, in order (what a test asserts on).
    status_history: list[str] = field(default_factory=list)
    #: The assignee's account id (None: unassigned) and display name.
    assignee: str | None = None
    assignee_name: str = ""

    @property
    def category(self) -> str:
        return STATUSES[self.status]

    def request_json(self) -> dict[str, Any]:
        """The customer request as /rest/servicedeskapi/request answers."""
        return {
            "issueId": self.id,
            "issueKey": self.key,
            "serviceDeskId": self.service_desk_id,
            "requestTypeId": self.request_type_id,
            "createdDate": {"iso8601": _stamp(self.created)},
            "currentStatus": {
                "status": self.status,
                "statusCategory": self.category.upper(),
                "statusDate": {"iso8601": _stamp(self.updated)},
            },
            "requestFieldValues": [
                {"fieldId": "summary", "label": "Summary", "value": self.summary},
                {"fieldId": "description", "label": "Description", "value": self.description},
                {"fieldId": "labels", "label": "Labels", "value": list(self.labels)},
            ],
        }

    def issue_json(self, fields: list[str]) -> dict[str, Any]:
        """The issue as /rest/api/3/search/jql answers, with the fields asked for."""
        every = {
            "status": {"name": self.status, "statusCategory": {"key": self.category}},
            "labels": list(self.labels),
            "summary": self.summary,
            "updated": _stamp(self.updated),
            "assignee": None
            if self.assignee is None
            else {"accountId": self.assignee, "displayName": self.assignee_name},
        }
        return {
            "id": self.id,
            "key": self.key,
            "fields": {k: every[k] for k in fields if k in every},
        }


@dataclass
class Call:
    """One call the fake received (and how it answered)."""

    method: str
    path: str
    status: int
    failure: str | None = None


class FakeJira:
    """Start with `start()` (or use as a context manager); `url` is the site's base URL."""

    def __init__(self, *, timeout_delay_s: float = 1.0, index_lag_s: float = 0.0) -> None:
        self.issues: dict[str, FakeIssue] = {}
        #: Service desk id -> the key of the project it files into (others: PROJECT).
        self.desk_projects: dict[str, str] = {}
        #: Keys of moved issues -> their key now.
        self._moved: dict[str, str] = {}
        self._project_numbers: dict[str, itertools.count[int]] = {}
        self.calls: list[Call] = []
        #: How long a "timeout" failure waits before answering (longer than the client's).
        self.timeout_delay_s = timeout_delay_s
        #: How long after its creation search finds an issue (the index's lag).
        self.index_lag_s = index_lag_s
        self._lock = threading.RLock()
        self._numbers = itertools.count(1)
        self._ids = itertools.count(10001)
        self._comment_ids = itertools.count(20001)
        self._share = 0.0
        self._modes: tuple[str, ...] = ("error",)
        self._random = random.Random(0)
        self._next: list[tuple[str, str]] = []
        self._before: list[tuple[str, str, Callable[[], None]]] = []
        self._down = False
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.url = ""

    # -- lifecycle -----------------------------------------------------------------------------

    def start(self) -> FakeJira:
        """Listen on an ephemeral port of 127.0.0.1 in a daemon thread."""
        fake = self

        class Handler(_Handler):
            jira = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeJira:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- failures ------------------------------------------------------------------------------

    def fail_share(
        self, share: float, *, seed: int = 0, modes: tuple[str, ...] = FAILURE_MODES
    ) -> None:
        """Fail `share` of the calls from now on, drawn from a seeded sequence in the order
        the calls arrive (so the same calls fail in every run), in one of `modes` each."""
        unknown = set(modes) - set(FAILURE_MODES)
        if unknown:
            raise ValueError(f"unknown failure modes {sorted(unknown)}")
        self._share, self._modes, self._random = share, modes, random.Random(seed)

    def before_next(self, method: str, path: str, action: Callable[[], None]) -> None:
        """Run `action` (an agent at work) just before the next `method` call whose path
        contains `path` is handled: what changed between two calls of the connector."""
        self._before.append((method, path, action))

    def fail_next(self, count: int = 1, mode: str = "error", *, path: str = "") -> None:
        """Fail the next `count` calls in `mode` (only calls whose path contains `path`)."""
        if mode not in FAILURE_MODES:
            raise ValueError(f"unknown failure mode {mode!r}")
        self._next.extend([(mode, path)] * count)

    @contextlib.contextmanager
    def down(self) -> Iterator[None]:
        """Every call answers 503 while inside the block (Jira down)."""
        self._down = True
        try:
            yield
        finally:
            self._down = False

    def _failure(self, path: str) -> str | None:
        with self._lock:
            if self._down:
                return "unavailable"
            for index, (mode, where) in enumerate(self._next):
                if where in path:
                    del self._next[index]
                    return mode
            if self._share and self._random.random() < self._share:
                return self._random.choice(self._modes)
            return None

    # -- a Jira agent at work ------------------------------------------------------------------

    def agent_transition(self, key: str, status: str) -> None:
        """Move an issue to `status` as an agent would in Jira's UI."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        with self._lock:
            issue = self.issues[key]
            issue.status = status
            issue.status_history.append(status)
            issue.updated = time.time()

    def agent_assign(self, key: str, account_id: str | None, name: str = "") -> None:
        """Assign an issue in Jira's UI (None: unassign)."""
        with self._lock:
            issue = self.issues[key]
            issue.assignee, issue.assignee_name = account_id, name or (account_id or "")
            issue.updated = time.time()

    def agent_move(self, key: str, project: str) -> str:
        """Move an issue to another project (its new key; the old one still finds it)."""
        with self._lock:
            issue = self.issues.pop(key)
            issue.key = self._next_key(project)
            self.issues[issue.key] = issue
            self._moved[key] = issue.key
            issue.updated = time.time()
            return issue.key

    def _next_key(self, project: str) -> str:
        """The project's next issue key (numbered in order, as Jira does)."""
        numbers = self._numbers if project == PROJECT else self._project_numbers.get(project)
        if numbers is None:
            numbers = self._project_numbers[project] = itertools.count(1)
        return f"{project}-{next(numbers)}"

    def _find(self, key: str) -> FakeIssue | None:
        """The issue a key names (a moved issue's old key too)."""
        while key in self._moved:
            key = self._moved[key]
        return self.issues.get(key)

    def agent_comment(
        self, key: str, body: str, *, public: bool = True, agent: str = "Alice Agent"
    ) -> FakeComment:
        """An agent's comment (public: the customer sees it; else internal)."""
        with self._lock:
            comment = self._add_comment(
                self.issues[key], body, public, f"agent:{agent.lower()}", agent
            )
        return comment

    def by_label(self, label: str) -> list[FakeIssue]:
        """The issues carrying `label`."""
        with self._lock:
            return [issue for issue in self.issues.values() if label in issue.labels]

    # -- the API -------------------------------------------------------------------------------

    def _add_comment(
        self, issue: FakeIssue, body: str, public: bool, author_id: str, author_name: str
    ) -> FakeComment:
        now = time.time()
        comment = FakeComment(
            str(next(self._comment_ids)), body, public, author_id, author_name, now
        )
        issue.comments.append(comment)
        issue.updated = now
        return comment

    def handle(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any]:
        """Answer one authenticated call: (status, JSON body or None)."""
        with self._lock:
            for index, (wanted, part, action) in enumerate(self._before):
                if wanted == method and part in path:
                    del self._before[index]
                    action()
                    break
            return self._route(method, path, query, body)

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> tuple[int, Any]:
        parts = [part for part in path.split("/") if part]
        if parts[:4] == ["rest", "api", "2", "issue"] and len(parts) == 5 and method == "PUT":
            issue = self._find(parts[4])
            if issue is None:
                return _not_found(parts[4])
            fields = (body or {}).get("fields") or {}
            issue.summary = str(fields.get("summary", issue.summary))
            issue.description = str(fields.get("description", issue.description))
            issue.updated = time.time()
            return 204, None
        if parts[:3] == ["rest", "api", "3"]:
            rest = parts[3:]
            if rest == ["myself"] and method == "GET":
                return 200, {
                    "accountId": BOT_ACCOUNT,
                    "displayName": "Brain",
                    "emailAddress": EMAIL,
                }
            if rest == ["search", "jql"] and method == "GET":
                return self._search(query)
            if len(rest) == 2 and rest[0] == "issue" and method == "GET":
                issue = self._find(rest[1])
                if issue is None:
                    return _not_found(rest[1])
                fields = ",".join(query.get("fields", ["status,labels"])).split(",")
                return 200, issue.issue_json(fields)
            if len(rest) == 4 and rest[0] == "issue" and rest[2] == "comment":
                issue = self._find(rest[1])
                if issue is None or method != "DELETE":
                    return _not_found(rest[1])
                kept = [c for c in issue.comments if c.id != rest[3]]
                if len(kept) == len(issue.comments):
                    return 404, {
                        "errorMessages": [f"Can not find a comment for the id: {rest[3]}."]
                    }
                issue.comments = kept
                issue.updated = time.time()
                return 204, None
            if rest[:1] == ["issue"] and rest[2:] == ["assignee"] and method == "PUT":
                issue = self._find(rest[1])
                if issue is None:
                    return _not_found(rest[1])
                account = (body or {}).get("accountId")
                issue.assignee = None if account is None else str(account)
                issue.assignee_name = issue.assignee or ""
                issue.updated = time.time()
                return 204, None
            if len(rest) == 3 and rest[0] == "issue" and rest[2] == "transitions":
                issue = self._find(rest[1])
                if issue is None:
                    return _not_found(rest[1])
                if method == "GET":
                    return 200, {"transitions": _transitions_of(issue)}
                if method == "POST":
                    return self._transition(issue, body)
        if parts[:3] == ["rest", "servicedeskapi", "servicedesk"] and len(parts) == 4:
            project = self.desk_projects.get(parts[3], PROJECT)
            return 200, {"id": parts[3], "projectId": "10000",
                         "projectName": f"{project} help", "projectKey": project}  # fmt: skip
        if parts[:3] == ["rest", "servicedeskapi", "request"]:
            rest = parts[3:]
            if not rest and method == "POST":
                return self._create(body)
            if rest:
                issue = self._find(rest[0])
                if issue is None:
                    return _not_found(rest[0])
                if len(rest) == 1 and method == "GET":
                    return 200, issue.request_json()
                if rest[1:] == ["comment"] and method == "GET":
                    return 200, _page([c.to_json() for c in issue.comments], query)
                if rest[1:] == ["comment"] and method == "POST":
                    return self._comment(issue, body)
        return 404, {"errorMessage": f"no such resource: {method} {path}"}

    def _create(self, body: Any) -> tuple[int, Any]:
        if (
            not isinstance(body, dict)
            or not body.get("serviceDeskId")
            or not body.get("requestTypeId")
        ):
            return 400, {"errorMessage": "serviceDeskId and requestTypeId are required"}
        values = body.get("requestFieldValues") or {}
        summary = str(values.get("summary") or "").strip()
        if not summary:
            return 400, {"errorMessage": "Summary: you must specify a summary of the issue."}
        labels = values.get("labels") or []
        if any(not isinstance(label, str) or " " in label for label in labels):
            return 400, {"errorMessage": "Labels: a label cannot contain spaces."}
        now = time.time()
        key = self._next_key(self.desk_projects.get(str(body["serviceDeskId"]), PROJECT))
        issue = FakeIssue(
            id=str(next(self._ids)),
            key=key,
            service_desk_id=str(body["serviceDeskId"]),
            request_type_id=str(body["requestTypeId"]),
            summary=summary,
            description=str(values.get("description") or ""),
            labels=list(labels),
            status="Waiting for support",
            created=now,
            updated=now,
        )
        self.issues[key] = issue
        return 201, issue.request_json()

    def _comment(self, issue: FakeIssue, body: Any) -> tuple[int, Any]:
        text = str((body or {}).get("body") or "").strip()
        if not text:
            return 400, {"errorMessage": "Comment body can not be empty!"}
        public = bool((body or {}).get("public", True))
        comment = self._add_comment(issue, text, public, BOT_ACCOUNT, "Brain")
        return 201, comment.to_json()

    def _transition(self, issue: FakeIssue, body: Any) -> tuple[int, Any]:
        wanted = str(((body or {}).get("transition") or {}).get("id") or "")
        found = TRANSITIONS.get(wanted)
        if found is None or issue.status not in found[2]:
            return 400, {
                "errorMessages": [f"Transition id '{wanted}' is not valid for this issue."]
            }
        issue.status = found[1]
        issue.status_history.append(found[1])
        issue.updated = time.time()
        return 204, None

    def _search(self, query: dict[str, list[str]]) -> tuple[int, Any]:
        try:
            matches = _jql_filter(query.get("jql", [""])[0])
        except ValueError as exc:
            return 400, {"errorMessages": [str(exc)]}
        fields = ",".join(query.get("fields", ["status"])).split(",")
        indexed = time.time() - self.index_lag_s
        found = sorted(
            (i for i in self.issues.values() if i.created <= indexed and matches(i)),
            key=lambda i: i.updated,
        )
        limit = int(query.get("maxResults", ["50"])[0])
        start = int(query.get("nextPageToken", ["0"])[0] or 0)
        page = found[start : start + limit]
        last = start + limit >= len(found)
        answer: dict[str, Any] = {"issues": [i.issue_json(fields) for i in page], "isLast": last}
        if not last:
            answer["nextPageToken"] = str(start + limit)
        return 200, answer


def _not_found(key: str) -> tuple[int, Any]:
    return 404, {"errorMessage": f"Issue does not exist or you do not have permission: {key}"}


def _transitions_of(issue: FakeIssue) -> list[dict[str, Any]]:
    return [
        {
            "id": tid,
            "name": name,
            "to": {"name": target, "statusCategory": {"key": STATUSES[target]}},
        }
        for tid, (name, target, sources) in TRANSITIONS.items()
        if issue.status in sources
    ]


def _page(values: list[dict[str, Any]], query: dict[str, list[str]]) -> dict[str, Any]:
    start = int(query.get("start", ["0"])[0])
    limit = int(query.get("limit", ["50"])[0])
    page = values[start : start + limit]
    return {
        "size": len(page),
        "start": start,
        "limit": limit,
        "isLastPage": start + limit >= len(values),
        "values": page,
    }


def _jql_filter(jql: str) -> Any:
    """A predicate for the little JQL the connector writes (anything else: 400)."""
    text = re.split(r"(?i)\s+order\s+by\s+", jql.strip())[0]
    checks = []
    for clause in re.split(r"(?i)\s+and\s+", text) if text else []:
        clause = clause.strip()
        found = re.fullmatch(r'(?i)labels\s*=\s*"?([^"\s]+)"?', clause)
        if found:
            label = found.group(1)
            checks.append(lambda i, label=label: label in i.labels)
            continue
        found = re.fullmatch(r"(?i)labels\s+in\s*\((.*)\)", clause)
        if found:
            wanted = {part.strip().strip('"') for part in found.group(1).split(",")}
            checks.append(lambda i, wanted=wanted: bool(wanted & set(i.labels)))
            continue
        found = re.fullmatch(r'(?i)project\s*=\s*"?([A-Z][A-Z0-9]*)"?', clause)
        if found:
            prefix = found.group(1) + "-"
            checks.append(lambda i, prefix=prefix: i.key.startswith(prefix))
            continue
        found = re.fullmatch(r'(?i)updated\s*>=\s*"?(-\d+[mhd])"?', clause)
        if found:
            amount = _RELATIVE.match(found.group(1))
            assert amount is not None
            seconds = int(amount.group(1)) * {"m": 60, "h": 3600, "d": 86400}[amount.group(2)]
            since = time.time() - seconds
            checks.append(lambda i, since=since: i.updated >= since)
            continue
        raise ValueError(f"Error in the JQL Query: cannot read {clause!r}")
    return lambda issue: all(check(issue) for check in checks)


class _Handler(BaseHTTPRequestHandler):
    jira: FakeJira
    protocol_version = "HTTP/1.1"
    #: Headers and body go out in two writes: without this, each answer waits for the
    #: client's delayed ACK (40 ms a call).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        return None

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def _serve(self, method: str) -> None:
        url = urlparse(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        jira = self.jira
        if not self._authorized():
            jira.calls.append(Call(method, url.path, 401))
            self._answer(401, {"errorMessages": ["Client must be authenticated"]})
            return
        failure = jira._failure(url.path)
        if failure in ("error", "unavailable", "throttled"):
            status = {"error": 500, "unavailable": 503, "throttled": 429}[failure]
            jira.calls.append(Call(method, url.path, status, failure))
            self._answer(status, {"errorMessages": ["Internal server error"]})
            return
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            jira.calls.append(Call(method, url.path, 400))
            self._answer(400, {"errorMessages": ["Unexpected character in the JSON body"]})
            return
        status, answer = jira.handle(method, url.path, parse_qs(url.query), body)
        jira.calls.append(Call(method, url.path, status, failure))
        if failure == "drop":
            self.close_connection = True  # done in Jira, and the client hears nothing
            return
        if failure == "timeout":
            time.sleep(jira.timeout_delay_s)
        self._answer(status, answer)

    def _authorized(self) -> bool:
        header = self.headers.get("Authorization") or ""
        expected = base64.b64encode(f"{EMAIL}:{API_TOKEN}".encode()).decode()
        return header == f"Basic {expected}"

    def _answer(self, status: int, body: Any) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        try:
            self.end_headers()
            if data:
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (a "timeout" failure): as a real server would
