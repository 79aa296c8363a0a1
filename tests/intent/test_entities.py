"""Entity extraction through `extract_entities`, with and without the knowledge base."""

from __future__ import annotations

from brain.intent.entities import extract_entities
from knowledge.types import IdMatch


def test_seed_example_keeps_error_code_and_ticket() -> None:
    assert extract_entities("VPN 连不上，报错 691，工单 #10086") == {
        "ticket_id": ["10086"],
        "error_code": ["691"],
    }


def test_ticket_id_formats() -> None:
    text = (
        "process ticket 2025060300011279027, see INC0012345, req-000123 and CHG0034567; "
        "工单号 88812 和 工单 2025060300011279027"
    )
    assert extract_entities(text)["ticket_id"] == [
        "2025060300011279027",
        "INC0012345",
        "REQ-000123",
        "CHG0034567",
        "88812",
    ]


def test_error_code_formats() -> None:
    text = (
        "error 691 then HTTP 500, ORA-00942 in the log, 0x80070005 on install, "
        "exit code 137, 502 Bad Gateway, 错误码: E1234"
    )
    assert extract_entities(text)["error_code"] == [
        "691",
        "HTTP 500",
        "ORA-00942",
        "0x80070005",
        "137",
        "HTTP 502",
        "E1234",
    ]


def test_hosts_ips_urls_emails_services_assets() -> None:
    text = (
        "[FIRING:1] DiskFull host=db-01 service=payments on web-prod-3 (10.1.2.3:9100), "
        "see https://grafana.corp.local/d/abc?x=1. laptop LT-12345 of jane.doe@corp.com, "
        "nginx on api.corp.internal"
    )
    entities = extract_entities(text)
    assert entities["host"] == ["db-01", "web-prod-3", "api.corp.internal"]
    assert entities["ip"] == ["10.1.2.3"]
    assert entities["url"] == ["https://grafana.corp.local/d/abc?x=1"]
    assert entities["email"] == ["jane.doe@corp.com"]
    assert entities["asset_tag"] == ["LT-12345"]
    assert entities["service"] == ["payments", "nginx"]


def test_hosts_of_the_sample_companys_domain() -> None:
    """The sample knowledge base's company lives under corp.example (RFC 2606): a change to
    api.corp.example names its host (the change was filed with its service missing)."""
    text = "rotate the TLS cert on api.corp.example next tuesday, see https://itsm.corp.example"
    entities = extract_entities(text)
    assert entities["host"] == ["api.corp.example"]
    assert entities["url"] == ["https://itsm.corp.example"]


def test_lookalikes_are_not_entities() -> None:
    entities = extract_entities("file is utf-8, called at 10:30, meet on 2025-06-03, std::vector")
    assert entities == {}


def test_empty_and_whitespace() -> None:
    assert extract_entities("") == {}
    assert extract_entities("  \n\t ") == {}


class _IdPatterns:
    """The `find_ids` part of the knowledge skill, with one business id format."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    def find_ids(self, text: str) -> list[IdMatch]:
        if self.fail:
            raise RuntimeError("store locked")
        token = "DSB-2025-000042"
        return [IdMatch(token, "Disbursement Order", "ticket")] if token in text else []


def test_knowledge_ids_are_added_under_their_kind() -> None:
    entities = extract_entities("钱没到, DSB-2025-000042 查一下", knowledge=_IdPatterns())
    assert entities["disbursement_order"] == ["DSB-2025-000042"]


def test_unfamiliar_ticket_format_becomes_a_ticket_id_via_the_knowledge_base() -> None:
    entities = extract_entities("钱没到, DSB-2025-000042 查一下", knowledge=_IdPatterns())
    assert entities["ticket_id"] == ["DSB-2025-000042"]


def test_slack_links_and_smtp_codes() -> None:
    entities = extract_entities("see <https://wiki.corp.local/vpn|the wiki>: 550 5.7.1 rejected")
    assert entities["url"] == ["https://wiki.corp.local/vpn"]
    assert entities["error_code"] == ["SMTP 550 5.7.1"]


def test_knowledge_failure_keeps_pattern_entities() -> None:
    entities = extract_entities("error 691", knowledge=_IdPatterns(fail=True))
    assert entities == {"error_code": ["691"]}
