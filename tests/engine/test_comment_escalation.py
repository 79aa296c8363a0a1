"""A comment added to a named ticket pages only for what it says, through `brain ask --json`.

"add a comment to INC-000001: it also happens with the HDMI cable" paged on-call as a live
security event (the escalation model at p 0.88, the comment alone 0.11): the command around a
comment is no evidence of an event. A comment that reports one still pages.
"""

from __future__ import annotations

import pytest

from tests.cli_calls import ask_json


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text",
    [
        "add a comment to INC-000001: it also happens with the HDMI cable",
        "add a note to INC-000001: the flicker also shows on the second monitor",
        "给 INC-000001 补充一下：换了HDMI线也一样闪",
    ],
)
def test_an_ordinary_comment_on_a_ticket_pages_no_one(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, text)
    assert decision["escalate"] is False, decision["escalation"]


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    "text",
    [
        "add a note to INC-000001: ransomware just encrypted the whole file server, every share "
        "shows .locked files",
        "comment on INC-000002: all 300 users in the Shanghai office lost internet just now",
    ],
)
def test_a_comment_that_reports_a_live_event_still_pages(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, text)
    escalation = decision["escalation"]
    assert isinstance(escalation, dict)
    assert decision["escalate"] is True, escalation
    assert escalation["evidence"][0] == "read on the comment it adds to a ticket"
