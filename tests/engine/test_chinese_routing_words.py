"""Chinese messages in words the routing rows did not have, through `brain ask --json`.

"我的显示器一直闪屏" (my monitor keeps flickering) was asked about, "我的鼠标滚轮有点松"
declared out of scope, "需要重启生产环境的订单服务" (restart the order service in production)
filed as an access request: the routing set's Chinese incident rows rarely said
"我的 + device + fault", and its Chinese change rows were mostly releases and equipment.
Labelled rows of those kinds (`brain/data/training.jsonl`) teach the semantic model the kind,
not these sentences.
"""

from __future__ import annotations

import pytest

from tests.cli_calls import ask_json


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "controller"),
    [
        ("我的显示器一直闪屏", "incident"),
        ("我的鼠标滚轮有点松", "incident"),
        ("需要重启生产环境的订单服务", "change"),
        ("申请修改防火墙策略开放8443端口", "change"),
        ("出差住宿标准是多少", "consultation"),
    ],
)
def test_a_chinese_message_in_unseen_words_reaches_its_controller(
    text: str, controller: str, capsys: pytest.CaptureFixture[str]
) -> None:
    decision = ask_json(capsys, text)
    assert decision["controller"] == controller, (decision["outcome"], decision["rationale"])
    assert decision["outcome"] != "clarify"
