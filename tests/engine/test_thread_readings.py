"""A later reading of the measurement a thread's record reports ("lag is down to 30 seconds
now") goes on that record; it is not a second alert. An alert about another measurement of
another service in the same thread is still filed on its own.

A figure made the continuation model read a follow-up as new work: "error rate is back under
1%, looks recovered" after an error-rate alert filed a second alarm for the same spike."""

from __future__ import annotations

import pytest

from tests.cli_calls import all_tickets, ask_json, comments


@pytest.mark.usefixtures("home")
@pytest.mark.parametrize(
    ("report", "readings"),
    [
        (
            "kafka consumer lag on the invoices topic hit 40 minutes, the alert is firing",
            ["lag is down to 30 seconds now, looks ok", "creeping up again, 5 minutes"],
        ),
        ("settle-api 的错误率刚才涨到 15%，用户都在报错", ["现在降到 1% 以下了，好像恢复了"]),
        (
            "the error rate on payments-api spiked to 9%",
            ["error rate is back under 1%, looks recovered"],
        ),
    ],
)
def test_a_later_reading_of_the_records_measurement_stays_on_it(
    capsys: pytest.CaptureFixture[str], report: str, readings: list[str]
) -> None:
    ask_json(capsys, report, "--thread", "T1", "--user", "u1")
    [filed] = all_tickets(capsys)

    for text in readings:
        decision = ask_json(capsys, text, "--thread", "T1", "--user", "u1")
        assert filed["id"] in decision["result"]["summary"], decision["rationale"]

    [ticket] = all_tickets(capsys)
    assert ticket["id"] == filed["id"]
    assert comments(ticket) == readings


@pytest.mark.usefixtures("home")
def test_an_alert_on_another_service_in_the_thread_is_not_put_on_the_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Filed on its own or asked about ("Is this about INC-…, or something new?"; the model
    reads it near its bar, 0.4-0.55), never a comment on the first alert's record."""
    ask_json(
        capsys,
        "kafka consumer lag on the invoices topic hit 40 minutes, the alert is firing",
        "--thread",
        "T1",
    )
    [filed] = all_tickets(capsys)

    decision = ask_json(capsys, "[FIRING:1] DiskSpaceLow host=db-07 free=3%", "--thread", "T1")

    assert f"to {filed['id']}" not in decision["result"]["summary"], decision["result"]
    first = next(t for t in all_tickets(capsys) if t["id"] == filed["id"])
    assert comments(first) == []
