"""Three people's agreement reaches a fourth person's wordings that share meaning but hardly a
word with theirs, and the model's own examples keep Chinese look-alikes where they were.

- The corrections to a controller are one class example set compared in the multilingual
  space (`brain.memory.org_classes`): before, a message alike to none of the three wordings
  (or to too few of them) found no group and stayed where the model put it.
- The check that one of the model's own examples is nearer than the agreed ones existed for
  English only (a MiniLM cosine); a Chinese look-alike of a payslip lesson ("the payroll
  system will not let me log in") moved with it. It is now made in the multilingual space
  (`brain.memory.shipped_view`). Through the `brain` command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_calls import brain_call
from tests.engine.test_org_agreement_hub import _ask

#: Three people's own requests for guest wifi, each moved to `access`.
WIFI = [
    ("U1", "I have a customer visiting tomorrow, can I get a guest wifi code for them"),
    ("U2", "the auditors sitting with us for two weeks keep asking for a wifi password"),
    ("U3", "a partner is coming in for a workshop and will need to get online here"),
]
#: A fourth user's wordings, English and Chinese, alike to none of the three by the measure
#: that links corrections.
WIFI_FOURTH = [
    "our contractor's laptop needs to join the visitor wireless",
    "明天有客户来访，需要访客WiFi账号",
]
#: Another person's problem with the office wifi: not a guest's access.
WIFI_UNRELATED = "my laptop won't connect to the office wifi"

#: Three people's payslip complaints, each moved to `ticket` (two in Chinese).
PAYSLIP = [
    ("U1", "这个月工资条上的加班费少算了"),
    ("U2", "my payslip for november is missing the overtime hours I worked"),
    ("U3", "工资到账金额和工资单对不上，扣多了"),
]
PAYSLIP_FOURTH = "薪水发少了，少了大概两千块"
#: Chinese messages about the payroll system's login: their words are the lesson's, their
#: problem is another, and the model's own examples of logins are nearer.
PAYSLIP_LOOKALIKES = ["工资系统登录不上，提示密码错误", "薪资系统打不开，一直提示登录失败"]


@pytest.fixture(autouse=True, params=["gates", "learned"])
def _reach(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test with the hand-set gates and with the learned reach model
    (`[memory] learned_reach`, `brain.memory.reach_model`)."""
    monkeypatch.setenv("BRAIN_MEMORY_LEARNED_REACH", "1" if request.param == "learned" else "0")


def _teach(capsys: pytest.CaptureFixture[str], taught: list[tuple[str, str]], target: str) -> None:
    for user, text in taught:
        decision = _ask(capsys, text, user)
        assert decision["controller"] != target  # the mistake each person corrects
        brain_call(
            capsys, "feedback", str(decision["decision_id"]), "--correct", target, "--user", user
        )


def test_three_people_reach_a_fourth_users_wordings_alike_to_none_of_theirs(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = [_ask(capsys, text, "U4")["controller"] for text in WIFI_FOURTH]
    assert "access" not in before  # where the model alone puts them
    _teach(capsys, WIFI, "access")

    moved = [_ask(capsys, text, "U4") for text in WIFI_FOURTH]
    stranger = _ask(capsys, WIFI_UNRELATED, "U9")

    assert [d["controller"] for d in moved] == ["access", "access"], moved
    for decision in moved:
        assert "3 people moved messages like this to access" in str(decision["rationale"])
    assert stranger["controller"] != "access", stranger
    # The model's examples were encoded once and kept: the next command loads them (1.5 s less).
    assert list((home / "models").glob("shipped-multilingual-*.npy")), sorted(
        p.name for p in (home / "models").iterdir()
    )


def test_a_chinese_look_alike_stays_where_the_models_own_examples_put_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _teach(capsys, PAYSLIP, "ticket")

    paraphrase = _ask(capsys, PAYSLIP_FOURTH, "U4")
    lookalikes = [_ask(capsys, text, "U4") for text in PAYSLIP_LOOKALIKES]

    assert paraphrase["controller"] == "ticket", paraphrase
    assert [d["controller"] for d in lookalikes if d["controller"] == "ticket"] == [], lookalikes
    for decision in lookalikes:
        assert "people moved messages like this" not in str(decision["rationale"])
