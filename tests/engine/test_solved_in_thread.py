"""The requester says in the thread that the problem is gone: the ticket is resolved, and saying
it is back reopens it, through `brain ask --thread` and `brain tickets show`.

"nvm, it was an add-in, disabled it and it works now" was added to the incident as a comment,
which stayed open for someone to find it solved. The continuation model reads such a message
as `resolved` (its own class, learned from the conversation set's phrasings of a problem gone).
Only the requester's word resolves: a colleague's "works for me" in the thread does not, and a
message saying it is still broken never does.
"""

from __future__ import annotations

import json

import pytest

from cli import main


def _ask(capsys: pytest.CaptureFixture[str], text: str, thread: str, user: str = "U1") -> str:
    assert main(["ask", text, "--thread", thread, "--user", user, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["result"]
    return str(result["summary"])


def _status(capsys: pytest.CaptureFixture[str], ticket_id: str) -> str:
    assert main(["tickets", "show", ticket_id, "--json"]) == 0
    return str(json.loads(capsys.readouterr().out)["status"])


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "gone", "back", "said"),
    [
        (
            "excel crashes every time I open the quarterly forecast file",
            "nvm, it was an add-in, disabled it and it works now",
            "it's crashing again on the same file",
            "marked it resolved",
        ),
        (
            "我的电脑连不上公司VPN，一直报错",
            "重启了一下，现在好了",
            "又连不上了，还是一样的报错",
            "标记为已解决",
        ),
    ],
)
def test_the_requester_saying_it_works_resolves_and_saying_it_is_back_reopens(
    report: str, gone: str, back: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "INC-000001" in _ask(capsys, report, "T1")
    assert said in _ask(capsys, gone, "T1")
    assert _status(capsys, "INC-000001") == "resolved"
    _ask(capsys, back, "T1")
    assert _status(capsys, "INC-000001") == "open"


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("follow_up", "user"),
    [
        ("still not fixed, it crashes as soon as the file opens", "U1"),
        ("works for me on my laptop, weird", "U2"),
    ],
)
def test_a_message_that_is_no_word_of_the_requester_that_it_is_gone_leaves_it_open(
    follow_up: str, user: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _ask(capsys, "excel crashes every time I open the quarterly forecast file", "T2")
    _ask(capsys, follow_up, "T2", user=user)
    assert _status(capsys, "INC-000001") == "open"


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "coping"),
    [
        (
            "the wifi in meeting room 4B drops every few minutes",
            "ok I'll use the ethernet cable then, thanks",
        ),
        (
            "the printer on our floor keeps jamming on every second page",
            "guess I'll print on the 3rd floor until someone fixes it, cheers",
        ),
        (
            "my headset microphone stopped working in teams",
            "alright, I'll take calls on my mobile till it's sorted, thanks",
        ),
        ("会议室的投影仪连不上笔记本", "那我今天先把电脑接大屏幕凑合用，谢谢"),
    ],
)
def test_saying_how_one_copes_meanwhile_keeps_the_problem_open(
    report: str, coping: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plan to get by ("I'll use the cable then") is no word that the problem is gone."""
    assert "INC-000001" in _ask(capsys, report, "T3")
    _ask(capsys, coping, "T3")
    assert _status(capsys, "INC-000001") == "open"
