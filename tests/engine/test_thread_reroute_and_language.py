"""A reroute in a thread moves the thread's record, and every reply is in the asker's
language: through `brain chat`'s loop and `brain ask --thread`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.wording import PHRASES as BOT_PHRASES
from brain.continuation import model as continuation
from brain.conversation.turns import Conversation
from brain.conversation.wording import PHRASES
from brain.engine import Brain
from cli import exit_codes, main
from cli.chat_session import chat_loop
from core.records import Message

_CJK = re.compile(r"[\u4e00-\u9fff]")
#: Three English words in a row: an English sentence (a product name is one or two words).
_ENGLISH_RUN = re.compile(r"[A-Za-z]+(?:[ '-]+[A-Za-z]+){2,}")


def _chat(brain: Brain, *lines: str) -> list[str]:
    """Each turn's printed reply (hints and rationale included), through `brain chat`'s loop."""
    out: list[str] = []
    chat_loop(Conversation(brain, brain.conversations), lines, out.append)
    return out[1:-1]


def _tickets(brain: Brain) -> dict[str, Any]:
    store = brain.services.tickets
    assert store is not None
    return {t.id: t for t in store.all()}


def test_wrong_on_a_follow_up_moves_the_threads_record(brain: Brain) -> None:
    """Before, /wrong after a follow-up rerouted "still broken" alone: a new access request
    filed from it, the incident left open beside it."""
    replies = _chat(
        brain,
        "my laptop keeps losing the VPN, error 809",
        "still broken",
        "/wrong access",
        "it's for the VPN portal",
        "bye",
    )
    tickets = _tickets(brain)
    # What each turn said and what was filed: a failure here has been seen once in CI only.
    story = "\n".join([*replies, *(f"{t.id} {t.status} {t.title}" for t in tickets.values())])
    assert "INC-000001" in replies[1], story
    assert set(tickets) == {"INC-000001", "REQ-000002"}, story
    incident, request = tickets["INC-000001"], tickets["REQ-000002"]
    assert incident.status == "closed" and "moved" in incident.history[-1]["reason"]
    assert request.is_open and request.fields["description"].startswith("my laptop keeps")
    assert "REQ-000002" in replies[3]  # the thread is about the moved record now
    assert [c["text"] for c in request.comments] == ["it's for the VPN portal"]
    assert "REQ-000002" in replies[4] and "bye" not in [c["text"] for c in request.comments]


def test_a_chinese_askers_reroute_and_feedback_are_in_chinese(brain: Brain) -> None:
    """Before, "Rerouted to 权限与账号." and an English rationale line."""
    replies = _chat(brain, "我的笔记本连不上VPN，报错809", "/wrong access", "/right", "/wrong")
    for reply in replies:
        # commands, ids, values, and knowledge-base text quoted and labelled as English
        shown = re.sub(r"/\w+|d-[0-9a-f]+|\[\w+\]|知识库原文（英文）：“[^”]*”", " ", reply)
        assert _CJK.search(shown) and not _ENGLISH_RUN.search(shown), reply
    assert replies[1].startswith("已改由权限与账号处理")


@pytest.mark.usefixtures("home")
def test_an_answer_naming_a_system_in_chinese_is_answered_in_chinese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Before, "要 Jenkins 的" counted as English (more Latin letters than Chinese
    characters) and got "I added the system Jenkins to REQ-000001"."""
    for text in ("我需要开通权限", "要 Jenkins 的"):
        assert main(["ask", text, "--json", "--thread", "T1"]) == exit_codes.OK
        decision: dict[str, Any] = json.loads(capsys.readouterr().out)
    summary = decision["result"]["summary"]
    assert "Jenkins" in summary and _CJK.search(summary)
    assert not _ENGLISH_RUN.search(summary), summary


def test_a_bare_name_or_ok_in_a_chinese_thread_is_answered_in_chinese(brain: Brain) -> None:
    """Before, "Jenkins" and "ok" (no Chinese characters) in a Chinese thread got "Routed to
    Access and accounts. I added the system Jenkins to REQ-000001." and "You're welcome!"."""
    replies = _chat(brain, "我需要开通权限", "Jenkins", "ok")
    for reply in replies:
        shown = re.sub(r"/\w+|d-[0-9a-f]+|\[\w+\]", " ", reply)  # commands, ids, values
        assert _CJK.search(shown) and not _ENGLISH_RUN.search(shown), reply
    assert "Jenkins" in replies[1]


def test_a_bare_number_in_a_chinese_thread_is_answered_in_chinese(brain: Brain) -> None:
    """Before, "No question is waiting for an answer…" after a Chinese conversation."""
    replies = _chat(brain, "VPN 一直连不上，报错 691，麻烦处理一下", "2")
    assert "现在没有等待回答的问题" in replies[1], replies


def test_a_short_reply_in_an_english_thread_stays_english(brain: Brain) -> None:
    replies = _chat(brain, "I need access to a system", "Jenkins", "ok")
    assert not any(_CJK.search(reply) for reply in replies), replies


@pytest.mark.usefixtures("home")
def test_brain_ask_in_a_chinese_thread_answers_a_bare_name_in_chinese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for text in ("我需要开通权限", "Jenkins"):
        assert main(["ask", text, "--json", "--thread", "T2"]) == exit_codes.OK
        decision: dict[str, Any] = json.loads(capsys.readouterr().out)
    summary = decision["result"]["summary"]
    assert "Jenkins" in summary and _CJK.search(summary), summary
    assert decision["language"] == "zh" and _CJK.search(decision["rationale"])


@pytest.mark.parametrize("table", [PHRASES, BOT_PHRASES], ids=["conversation", "bot"])
def test_every_phrase_has_an_english_and_a_chinese_wording(
    table: dict[str, tuple[str, str]],
) -> None:
    for key, (english, chinese) in table.items():
        assert not _CJK.search(english), key
        shown = re.sub(r"\{\w+\}|/\w+|BRAIN_ONCALL_CHANNEL|<#\{?\w+\}?>|Slack", " ", chinese)
        assert _CJK.search(chinese) and not _ENGLISH_RUN.search(shown), key


def test_a_chinese_askers_dynamic_plan_line_is_in_chinese(home: Path) -> None:
    """The line naming the plan the dynamic path ran (its rounds, topology, source and roles)
    was the one English sentence in a Chinese reply. Every decision goes the dynamic path here
    (no confidence clears the thresholds), so the premise does not rest on how unsure the
    routing model happens to be of this message."""
    (home / "brain.toml").write_text(
        "[routing]\nfast_threshold = 0.999\nverify_threshold = 0.999\n", encoding="utf-8"
    )
    text = "顺便说下，我耳机的麦克风没声音了"
    with Brain.open() as brain:
        decision = brain.decide(Message(text, "U1", "C1"))
        assert decision.dcr is not None, "precondition: decided on the dynamic path"
        [reply] = _chat(brain, text)
    assert "草拟-评审-修订" in reply and "（主要）" in reply, reply
    assert not _ENGLISH_RUN.search(reply.split("决策")[0]), reply


def _thread_rationales(capsys: pytest.CaptureFixture[str], *texts: str) -> list[dict[str, Any]]:
    decisions = []
    for text in texts:
        assert main(["ask", text, "--json", "--thread", "T3", "--user", "u1"]) == exit_codes.OK
        decisions.append(json.loads(capsys.readouterr().out))
    return decisions


@pytest.mark.usefixtures("home")
def test_a_chinese_follow_ups_rationale_is_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    """Before, "跟进：这条消息属于本会话的 REQ-000001（the thread's record: continues the record
    with probability …）": the continuation model's reading, and every other reason a turn
    went onto the record, were worded in English only."""
    *_, answer, status, retry = _thread_rationales(
        capsys, "我需要开通权限", "要 Jenkins 的", "大概要多久？", "还是不行"
    )
    for decision in (answer, status, retry):
        rationale = decision["rationale"]
        assert rationale.startswith("跟进") and "REQ-000001" in rationale, rationale
        shown = re.sub(r"d-[0-9a-f]+", " ", rationale)
        assert not re.search(r"[A-Za-z]{3,}", shown.replace("REQ", "")), rationale


@pytest.mark.usefixtures("home")
def test_a_chinese_which_record_question_gives_its_reason_in_chinese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked "is this about INC-000001, or something new?", the rationale said "unsure whether
    this is about INC-000001: continues the record with probability …" to a Chinese asker."""
    monkeypatch.setattr(continuation, "CONTINUE_AT", 1.01)  # every reading is unsure
    monkeypatch.setattr(continuation, "NEW_BELOW", -0.01)
    _, asked = _thread_rationales(capsys, "邮箱收不到邮件", "会议室的投影仪没有画面")
    assert asked["outcome"] == "clarify" and "INC-000001" in asked["clarification"]
    shown = asked["rationale"].replace("INC-000001", " ")
    assert "不确定" in shown and not re.search(r"[A-Za-z]{3,}", shown), asked["rationale"]
