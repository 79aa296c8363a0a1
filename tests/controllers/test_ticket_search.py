"""Ticket search by topic, through `brain ask` (the ticket desk) and `brain tickets search`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cli import main
from core.files import copy_tree
from tests.cli_calls import ask_json

FILED = (
    ("U1", "my keyboard is broken, some keys don't type"),
    ("U1", "VPN keeps disconnecting with error 809"),
    ("U1", "I need access to Jira"),
    ("U1", "打印机卡纸了，打不出来"),
    ("U2", "the keyboard on my desk phone is dead"),
)


@dataclass
class Filed:
    """The home the FILED messages were filed in by `brain ask`, and each one's ticket id."""

    home: Path | None = None
    ids: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="module")
def filed() -> Filed:
    """Filled in by the module's first `desk` (five asks, about 2 s), copied by the others."""
    return Filed()


@pytest.fixture
def desk(
    filed: Filed,
    isolated_env: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, str]:
    """Each filed message's ticket id, in this test's home: the first test of the module files
    them through `brain ask`, and its home, closed, is copied into every later test's."""
    if filed.home is not None:
        copy_tree(filed.home, isolated_env)
        return dict(filed.ids)
    for user, text in FILED:
        decision = ask_json(capsys, text, "--user", user)
        filed.ids[text] = decision["result"]["data"]["ticket"]["id"]
    template = tmp_path_factory.mktemp("ticket-desk") / "home"
    copy_tree(isolated_env, template)
    filed.home = template
    return dict(filed.ids)


def _found(decision: dict[str, object]) -> list[str]:
    result = decision["result"]
    assert isinstance(result, dict)
    assert result["data"]["action"] == "search"
    return [t["id"] for t in result["data"]["tickets"]]


def test_a_search_by_topic_finds_the_askers_ticket_and_no_other(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, "find my tickets about the keyboard", "--user", "U1")
    assert decision["controller"] == "ticket"
    assert _found(decision) == [desk[FILED[0][1]]]  # not U2's keyboard, not every open ticket
    assert "keyboard" in decision["result"]["summary"]
    vpn = ask_json(capsys, "search tickets about VPN", "--user", "U1")
    assert _found(vpn) == [desk[FILED[1][1]]]


def test_a_chinese_search_answers_in_chinese(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, "搜一下关于打印机的工单", "--user", "U1")
    assert _found(decision) == [desk[FILED[3][1]]]
    assert "相关的工单" in decision["result"]["summary"]


def test_a_search_with_no_match_says_so_and_lists_nothing(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, "find my tickets about the projector", "--user", "U1")
    assert _found(decision) == []
    assert "None of your tickets" in decision["result"]["summary"]
    tickets = len(json.loads(_cli(capsys, "tickets", "list", "--all", "--json")))
    assert tickets == len(FILED)  # the search filed nothing


def test_a_topic_sharing_only_a_word_with_a_ticket_lists_none(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Whether a ticket is about the topic is a bar learned from labelled pairs
    (`controllers.ticket_relevance`). Before, one shared word ("access", "broken", "error",
    机) or a cosine of 0.40 showed a ticket on each of these; the topics they ask about are
    in no ticket of the desk."""
    for topic in ("access to the parking garage", "the broken elevator", "my expense claim error"):
        decision = ask_json(capsys, f"find my tickets about {topic}", "--user", "U1")
        assert _found(decision) == [], topic
    assert "0 tickets about" in _cli(capsys, "tickets", "search", "洗衣机")
    # (the desk's own topics are still found: the tests above and below)


def test_brain_tickets_search_ranks_every_ticket_or_one_requesters(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    everyone = json.loads(_cli(capsys, "tickets", "search", "keyboard", "--json"))
    assert {t["id"] for t in everyone} == {desk[FILED[0][1]], desk[FILED[4][1]]}
    assert all(t["score"] > 0 for t in everyone)
    mine = json.loads(_cli(capsys, "tickets", "search", "keyboard", "--user", "U2", "--json"))
    assert [t["id"] for t in mine] == [desk[FILED[4][1]]]
    assert "0 tickets about" in _cli(capsys, "tickets", "search", "projector")
    assert main(["tickets", "search", "vpn", "--limit", "0"]) == 2


@pytest.mark.parametrize("text", ["my keyboard is broken", "list my tickets", "INC-000001?"])
def test_other_messages_are_no_search(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str], text: str
) -> None:
    decision = ask_json(capsys, text, "--user", "U1")
    data = (decision.get("result") or {}).get("data") or {}
    assert data.get("action") != "search"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_a_search_in_the_other_language_or_other_words_finds_the_ticket(
    desk: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, only the ticket's own words matched: "键盘" (keyboard) found nothing in an
    English keyboard ticket, "printer" nothing in a Chinese one."""
    keyboard = ask_json(capsys, "搜一下关于键盘的工单", "--user", "U1")
    assert _found(keyboard)[:1] == [desk[FILED[0][1]]]
    printer = ask_json(capsys, "find my tickets about the printer", "--user", "U1")
    assert _found(printer)[:1] == [desk[FILED[3][1]]]


def test_only_the_newest_tickets_are_read_by_meaning_older_ones_by_their_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search over a whole desk reads the newest MEANING_MAX_TICKETS by meaning (each text
    is encoded once): 100k tickets would encode for minutes. Older tickets still match by
    their words."""
    from controllers import ticket_search
    from core.stores.records import Ticket

    monkeypatch.setattr(ticket_search, "MEANING_MAX_TICKETS", 2)
    desk = [
        Ticket(id=f"INC-00000{n}", kind="incident", title=title, requester="U1",
               created_at=f"2026-12-0{n}T09:00:00+00:00")
        for n, title in enumerate(
            ["Keyboard keys stick when typing", "Keyboard is dead", "VPN error 809", "打印机卡纸"],
            start=1,
        )
    ]  # fmt: skip
    found = [h.ticket.id for h in ticket_search.search(desk, "键盘")]
    assert found == []  # the two Keyboard tickets are older than the newest two
    newest = [h.ticket.id for h in ticket_search.search(desk, "printer")]
    assert newest[:1] == ["INC-000004"]  # the newest, read by meaning
    by_words = {h.ticket.id for h in ticket_search.search(desk, "keyboard")}
    assert by_words == {"INC-000001", "INC-000002"}
