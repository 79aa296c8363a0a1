"""Every request in a message is handled: the half-handled messages of the issue,
in new words, come back with one part per request, each routed to its own controller."""

from __future__ import annotations

import json

import pytest

from cli import main

CASES = {
    "alarm_unrelated_access": (
        "the memory alert on cache-02 is firing again. unrelated: could I get access to Kibana",
        {"alarm", "access"},
    ),
    "status_and_new_change": (
        "any update on INC0012345? and also I'd like to raise a change to add two more app servers",
        {"ticket", "change"},
    ),
    "two_things_network_code": (
        "two things: the office wifi keeps disconnecting me, and why does my python script "
        "throw KeyError",
        {"incident", "coding"},
    ),
    "numbered": (
        "1) my laptop screen is cracked 2) please give me read access to the HR share",
        {"incident", "access"},
    ),
    "zh_lingwai": ("VPN连不上了，另外帮我开通Jira权限", {"incident", "access"}),
    # Full-width item numbers with no space around them, as Chinese writes them.
    "zh_numbered": ("1）打印机一直卡纸2）帮我开通Jira权限", {"incident", "access"}),
}


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize("text,wanted", list(CASES.values()), ids=list(CASES))
def test_each_request_gets_its_own_decision(
    capsys: pytest.CaptureFixture[str], text: str, wanted: set[str]
) -> None:
    assert main(["ask", text, "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)

    assert decision["outcome"] == "composed"
    parts = decision["parts"]
    assert {p["controller"] for p in parts} == wanted
    assert all(p["outcome"] in ("routed", "composed") for p in parts)


@pytest.mark.usefixtures("home")
def test_an_urgent_outage_alone_is_routed_and_pages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "URGENT!! the checkout page is down", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)

    assert decision["escalate"] is True
    assert decision["outcome"] == "routed"
    assert decision["controller"] is not None


@pytest.mark.usefixtures("home")
def test_a_plain_and_does_not_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "error 500 and timeout on the payment API", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)

    assert not decision.get("parts")
