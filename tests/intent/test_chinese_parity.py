"""Chinese parity: entities, incident categories and alert readings are found in
Chinese text as in English, also when an English name touches a CJK character ("VPN连不上")."""

from __future__ import annotations

import pytest

from brain.intent.entities import extract_entities
from controllers.alerts import parse_alerts
from controllers.base import ControllerContext
from controllers.builtin.incident import IncidentController


@pytest.mark.parametrize(
    ("english", "chinese", "kind", "value"),
    [
        ("disk full on web-03", "web-03磁盘满了", "host", "web-03"),
        ("CPU is high on db-01 server", "db-01服务器CPU很高", "host", "db-01"),
        ("error code 0x80070005", "错误码0x80070005", "error_code", "0x80070005"),
        ("grafana does not open", "grafana打不开", "service", "grafana"),
        ("payment-api times out", "服务payment-api超时", "service", "payment-api"),
    ],
)
def test_entities_in_both_languages(english: str, chinese: str, kind: str, value: str) -> None:
    assert value in extract_entities(english).get(kind, [])
    assert value in extract_entities(chinese).get(kind, [])


def test_a_server_is_no_service() -> None:
    assert "service" not in extract_entities("db-01服务器CPU很高")


def _category(text: str) -> str | None:
    context = ControllerContext(
        text=text,
        user="u1",
        channel="C1",
        thread=None,
        decision_id="d-000000000000",
        intent="other",
        urgency="low",
        entities={},
    )
    return IncidentController().fields(context)["category"]


@pytest.mark.parametrize(
    ("english", "chinese", "category"),
    [
        ("my VPN will not connect", "我的VPN连不上了", "vpn"),
        ("the printer is jammed", "打印机卡纸了", "printer"),
        ("my mailbox is full", "邮箱满了", "email"),
        ("my laptop disk is broken", "硬盘坏了", "hardware"),
        ("the network is down", "网断了", "network"),
        ("I cannot reach the intranet", "内网访问不了", "network"),
    ],
)
def test_incident_categories_in_both_languages(english: str, chinese: str, category: str) -> None:
    assert _category(english) == category
    assert _category(chinese) == category


@pytest.mark.parametrize(
    ("text", "metric", "value"),
    [
        ("CPU usage 95% on db-01", "cpu", "95%"),
        ("db-01 的CPU使用率95%", "cpu", "95%"),
        ("web-03磁盘使用率超过90%", "disk", "90%"),
    ],
)
def test_alert_readings_in_both_languages(text: str, metric: str, value: str) -> None:
    readings = {(s.name, s.value) for s in parse_alerts(text).signals if s.kind == "metric"}
    assert (metric, value) in readings
