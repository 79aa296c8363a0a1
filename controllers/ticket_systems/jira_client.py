"""A small client of Jira Service Management's REST API (Cloud): the calls the connector makes.

Customer requests are created, read and commented through `/rest/servicedeskapi/` (plain text
bodies, public or internal comments); transitions and searches go through the platform API
`/rest/api/3/` (the agent's transitions, not only the customer's). Every failure is one of two
errors: `JiraUnavailable` (a timeout, a dropped connection, 429 or 5xx: try again later; it
says whether the call may have been done all the same) and `JiraRejected` (Jira refused the
call as written: trying again changes nothing). The credentials go into the HTTP client's
auth only; no message of this module holds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import BrainError

if TYPE_CHECKING:  # imported where a client is made: httpx loads its command-line tools
    # (rich, pygments: 0.1-0.2 s), and every `brain run` imports this module
    import httpx

__all__ = [
    "JiraClient",
    "JiraError",
    "JiraRejected",
    "JiraUnavailable",
    "RemoteComment",
    "RemoteIssue",
    "Transition",
]

#: Page size of comment and search reads.
PAGE = 100
#: The fields read of an issue (platform API).
FIELDS = "status,labels,updated,assignee"


class JiraError(BrainError):
    """A call to Jira failed; the message says which and why."""


class JiraUnavailable(JiraError):
    """Jira did not answer, or answered that it could not now (try again later).

    `maybe_done`: the call reached Jira and may have been carried out (a timeout, a dropped
    connection or a 500 after a write), so a retry checks first."""

    def __init__(self, message: str, *, maybe_done: bool) -> None:
        super().__init__(message)
        self.maybe_done = maybe_done


class JiraRejected(JiraError):
    """Jira refused the call (4xx): the status and Jira's own words are in the message."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class RemoteIssue:
    """A request as Jira has it: its key, status and the status's category ("new",
    "indeterminate" or "done")."""

    key: str
    status: str
    category: str
    labels: tuple[str, ...] = ()
    #: When it last changed, as Jira writes it ("" when the call does not say).
    updated: str = ""
    #: The assignee's account id ("" nobody; None: the call does not say) and name.
    assignee: str | None = None
    assignee_name: str = ""


@dataclass(frozen=True, slots=True)
class RemoteComment:
    """A comment on a request (`public`: the customer sees it)."""

    id: str
    body: str
    public: bool
    author_id: str
    author_name: str


@dataclass(frozen=True, slots=True)
class Transition:
    """A transition the issue can take now, and the status it leads to."""

    id: str
    name: str
    to_status: str
    to_category: str


class JiraClient:
    """Calls to one Jira site with one account's e-mail and API token (HTTP Basic auth).

    `transport` lets tests and tools put another transport under the client; `timeout_s`
    bounds each call."""

    def __init__(
        self,
        base_url: str,
        *,
        email: str,
        token: str,
        timeout_s: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        import httpx

        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            auth=httpx.BasicAuth(email, token),
            timeout=timeout_s,
            headers={"Accept": "application/json"},
            transport=transport,
        )

    def close(self) -> None:
        """Release the connections."""
        self._http.close()

    # -- reading -------------------------------------------------------------------------------

    def myself(self) -> str:
        """The account id of the API token's user (the author of the connector's comments)."""
        return str(self._call("GET", "/rest/api/3/myself")["accountId"])

    def request(self, key: str) -> RemoteIssue:
        """One customer request's current status."""
        return _request_of(self._call("GET", f"/rest/servicedeskapi/request/{key}"))

    def issue(self, key: str) -> RemoteIssue | None:
        """One issue by key, its status and labels (None: no issue has that key). Unlike a
        search, a read by key sees an issue as soon as it was created."""
        try:
            answer = self._call("GET", f"/rest/api/3/issue/{key}", params={"fields": FIELDS})
        except JiraRejected as exc:
            if exc.status == 404:
                return None
            raise
        return _issue_of(answer)

    def project_of(self, service_desk_id: str) -> str:
        """The key of the project a service desk files into ("IT")."""
        answer = self._call("GET", f"/rest/servicedeskapi/servicedesk/{service_desk_id}")
        return str(answer["projectKey"])

    def search(self, jql: str) -> list[RemoteIssue]:
        """Every issue the JQL finds (all pages), with status and labels."""
        found: list[RemoteIssue] = []
        token: str | None = None
        while True:
            params: dict[str, Any] = {"jql": jql, "fields": FIELDS, "maxResults": PAGE}
            if token:
                params["nextPageToken"] = token
            answer = self._call("GET", "/rest/api/3/search/jql", params=params)
            found.extend(_issue_of(issue) for issue in answer.get("issues") or [])
            token = answer.get("nextPageToken")
            if answer.get("isLast", True) or not token:
                return found

    def comments(self, key: str) -> list[RemoteComment]:
        """Every comment of a request, oldest first (public and internal)."""
        found: list[RemoteComment] = []
        start = 0
        while True:
            page = self._call(
                "GET",
                f"/rest/servicedeskapi/request/{key}/comment",
                params={"start": start, "limit": PAGE},
            )
            values = page.get("values") or []
            found.extend(_comment_of(value) for value in values)
            if page.get("isLastPage", True) or not values:
                return found
            start += len(values)

    def transitions(self, key: str) -> list[Transition]:
        """The transitions the issue can take from its status."""
        answer = self._call("GET", f"/rest/api/3/issue/{key}/transitions")
        return [
            Transition(
                id=str(item["id"]),
                name=str(item.get("name") or ""),
                to_status=str((item.get("to") or {}).get("name") or ""),
                to_category=str(
                    ((item.get("to") or {}).get("statusCategory") or {}).get("key") or ""
                ),
            )
            for item in answer.get("transitions") or []
        ]

    # -- writing -------------------------------------------------------------------------------

    def create_request(
        self,
        *,
        service_desk_id: str,
        request_type_id: str,
        summary: str,
        description: str,
        labels: list[str],
    ) -> RemoteIssue:
        """File a customer request; its key and status."""
        body = {
            "serviceDeskId": service_desk_id,
            "requestTypeId": request_type_id,
            "requestFieldValues": {
                "summary": summary,
                "description": description,
                "labels": labels,
            },
        }
        return _request_of(self._call("POST", "/rest/servicedeskapi/request", json=body))

    def add_comment(self, key: str, body: str, *, public: bool = True) -> RemoteComment:
        """Comment on a request (public: the customer sees it)."""
        answer = self._call(
            "POST",
            f"/rest/servicedeskapi/request/{key}/comment",
            json={"body": body, "public": public},
        )
        return _comment_of(answer)

    def delete_comment(self, key: str, comment_id: str) -> bool:
        """Delete a comment (the platform API: the customer portal's cannot); False when
        there is no such comment (deleted already)."""
        try:
            self._call("DELETE", f"/rest/api/3/issue/{key}/comment/{comment_id}")
        except JiraRejected as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def edit(self, key: str, *, summary: str, description: str) -> None:
        """Rewrite a request's summary and description (the platform API's version 2 takes
        them as plain text; version 3 wants Atlassian Document Format)."""
        fields = {"summary": summary, "description": description}
        self._call("PUT", f"/rest/api/2/issue/{key}", json={"fields": fields})

    def assign(self, key: str, account_id: str | None) -> None:
        """Assign the issue to an account (None: unassign it)."""
        self._call("PUT", f"/rest/api/3/issue/{key}/assignee", json={"accountId": account_id})

    def transition(self, key: str, transition_id: str) -> None:
        """Take one of the issue's transitions."""
        self._call(
            "POST",
            f"/rest/api/3/issue/{key}/transitions",
            json={"transition": {"id": transition_id}},
        )

    # -- internals -----------------------------------------------------------------------------

    def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        """One call; its JSON answer ({} when none). Writes may have been done when the
        answer was lost: `JiraUnavailable.maybe_done` says so."""
        import httpx

        write = method != "GET"
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.ConnectError as exc:
            raise JiraUnavailable(
                f"{method} {path}: cannot connect ({type(exc).__name__})", maybe_done=False
            ) from exc
        except (httpx.TimeoutException, httpx.TransportError) as exc:
            raise JiraUnavailable(
                f"{method} {path}: no answer ({type(exc).__name__})", maybe_done=write
            ) from exc
        status = response.status_code
        if status == 429 or status >= 500:  # 429 and 503: refused before anything was done
            raise JiraUnavailable(
                f"{method} {path}: Jira answered {status}",
                maybe_done=write and status not in (429, 503),
            )
        if status >= 400:
            raise JiraRejected(f"{method} {path}: {status} {_reason(response)}", status=status)
        if not response.content:
            return {}
        try:
            answer = response.json()
        except ValueError as exc:
            raise JiraUnavailable(f"{method} {path}: unreadable answer", maybe_done=write) from exc
        return answer if isinstance(answer, dict) else {"values": answer}


def _reason(response: httpx.Response) -> str:
    """Jira's own words about a refusal (`errorMessages`, `errorMessage`, `errors`)."""
    try:
        body = response.json()
    except ValueError:
        return response.reason_phrase
    if not isinstance(body, dict):
        return response.reason_phrase
    words = [str(m) for m in body.get("errorMessages") or []]
    if body.get("errorMessage"):
        words.append(str(body["errorMessage"]))
    words.extend(f"{k}: {v}" for k, v in (body.get("errors") or {}).items())
    return "; ".join(words)[:300] or response.reason_phrase


def _issue_of(issue: dict[str, Any]) -> RemoteIssue:
    """An issue as the platform API answers (a search's or a read by key)."""
    fields = issue.get("fields") or {}
    status = fields.get("status") or {}
    assignee = fields.get("assignee") or {}
    return RemoteIssue(
        key=str(issue["key"]),
        status=str(status.get("name") or ""),
        category=str((status.get("statusCategory") or {}).get("key") or ""),
        labels=tuple(str(label) for label in fields.get("labels") or []),
        updated=str(fields.get("updated") or ""),
        assignee=str(assignee.get("accountId") or "") if "assignee" in fields else None,
        assignee_name=str(assignee.get("displayName") or ""),
    )


def _request_of(answer: dict[str, Any]) -> RemoteIssue:
    current = answer.get("currentStatus") or {}
    labels: list[Any] = []
    for value in answer.get("requestFieldValues") or []:
        if value.get("fieldId") == "labels" and isinstance(value.get("value"), list):
            labels = value["value"]
    return RemoteIssue(
        key=str(answer["issueKey"]),
        status=str(current.get("status") or ""),
        category=str(current.get("statusCategory") or "").lower(),
        labels=tuple(str(label) for label in labels),
    )


def _comment_of(value: dict[str, Any]) -> RemoteComment:
    author = value.get("author") or {}
    return RemoteComment(
        id=str(value["id"]),
        body=str(value.get("body") or ""),
        public=bool(value.get("public", True)),
        author_id=str(author.get("accountId") or ""),
        author_name=str(author.get("displayName") or ""),
    )
