"""What a reader is shown of the knowledge base and of an alert, through `brain ask --json`.

A reply cites a document by its folder and file name, never by the path where this
installation keeps the knowledge base (an absolute server path means nothing in Slack and tells
a stranger how the server is laid out); an alert that names no host says so plainly instead of
"on an unnamed host".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import main

#: Where this checkout (and so the shipped sample knowledge base) lives on disk.
INSTALLED_AT = str(Path(__file__).resolve().parents[2])


def _shown(text: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What the reader is shown of the decision's result: its summary, details and citations
    (the retrieval record beside them is the audit trail and keeps the full source)."""
    assert main(["ask", text, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["result"]
    return json.dumps(
        [result["summary"], result["details"], result["citations"]], ensure_ascii=False
    )


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "document"),
    [
        (
            "Can you check why the nightly settlement batch failed? job id 4471",
            "runbooks/failed-batch-job.md",
        ),
        ("what is the rollback policy for releases?", "policies/release-rollback.md"),
    ],
)
def test_a_reply_cites_a_document_by_its_folder_and_name(
    text: str, document: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = _shown(text, capsys)
    assert document in shown
    assert INSTALLED_AT not in shown


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Can you check why the nightly settlement batch failed? job id 4471", "no host"),
        ("订单服务的错误率超过了5%", "订单服务"),
        ("错误率超过了5%，帮忙看下", "未注明主机"),
        ("数据库 ledger-db 的主从延迟到了 600 秒", "ledger-db 上的"),
        ("order-db replication lag is at 600s", "on order-db"),
    ],
)
def test_an_alert_without_a_host_says_so_plainly(
    text: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = _shown(text, capsys)
    assert said in summary
    assert "unnamed host" not in summary and "未注明的主机" not in summary
