"""The intent taxonomy is a data file: what it holds, and that a malformed one is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.intent.taxonomy import (
    GENERIC_INTENTS,
    INTENT_NAMES,
    INTENTS,
    SPECIFIC_INTENTS,
    TaxonomyError,
    intent_group,
    load_taxonomy,
    spec,
)

SHIPPED = Path(__file__).resolve().parents[2] / "brain" / "intent" / "taxonomy.yaml"

#: The taxonomy as it was when it moved from Python code to the data file.
ORDER = [
    "query",
    "how_to",
    "definition",
    "request",
    "access_request",
    "password_reset",
    "software_install",
    "account_lockout",
    "incident",
    "network_vpn",
    "hardware_fault",
    "email_issue",
    "printer_issue",
    "security_incident",
    "alert",
    "job_failure",
    "resource_alert",
    "ticket",
    "ticket_status",
    "ticket_action",
    "change",
    "change_request",
    "release",
    "rollback",
    "asset",
    "asset_query",
    "code_help",
    "code_review",
    "sql",
    "complaint",
    "greeting",
    "feedback",
    "escalation",
    "human_handoff",
    "other",
]

VALID_ENTRY = """\
- name: incident
  group: incident
  description: Something is broken.
  keywords: [broken]
- name: other
  group: other
  description: Nothing fits.
"""


def test_the_loaded_taxonomy_equals_the_one_it_was_moved_from() -> None:
    assert [intent.name for intent in INTENTS] == ORDER
    assert sorted(GENERIC_INTENTS) == [
        "alert",
        "asset",
        "change",
        "code_help",
        "incident",
        "query",
        "request",
        "ticket",
    ]
    assert len(SPECIFIC_INTENTS) == 21 and set(ORDER) == INTENT_NAMES
    assert sum(len(i.keywords) for i in INTENTS) == 469
    assert sum(len(i.examples) for i in INTENTS) == 204
    vpn = spec("network_vpn")
    assert (vpn.parent, vpn.group) == ("incident", "incident")
    assert vpn.description == "VPN, Wi-Fi, network or internet connectivity problem."
    assert vpn.keywords[:3] == ("vpn", "wifi", "wi-fi") and vpn.keywords[-1] == "掉线"
    assert vpn.examples[3:5] == ("VPN error 691 when I log in", "VPN 连不上，报错 691")
    # a keyword the YAML writer folded over two lines comes back as one phrase
    assert "difference between" in spec("definition").keywords
    assert spec("how_to").keywords[0] == "how do i"
    assert spec("other").keywords == () and spec("other").examples == ()
    assert intent_group("human_handoff") == "escalation" and intent_group("nope") == "other"


def test_the_shipped_file_loads_by_path_to_the_same_intents() -> None:
    assert load_taxonomy(SHIPPED) == INTENTS


def test_a_minimal_valid_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(VALID_ENTRY, encoding="utf-8")
    loaded = load_taxonomy(path)
    assert [i.name for i in loaded] == ["incident", "other"]
    assert loaded[0].keywords == ("broken",)


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (
            "- {name: vpn, parent: network, group: incident, description: d, keywords: [vpn]}\n",
            "intent 'vpn': parent 'network' is not an intent",
        ),
        (
            "- {name: incident, group: incident, description: d, keywords: [down]}\n",
            "intent 'incident' is listed twice",
        ),
        (
            "- {name: printer, group: incident, description: d, keywords: []}\n",
            "intent 'printer': has no keywords",
        ),
        (
            "- {name: printer, group: incident, description: d, keywords: [' ']}\n",
            "entry 3 ('printer'): keywords.0",
        ),
        (
            "- {name: printer, group: incident, description: d, keywords: [x], colour: red}\n",
            "entry 3 ('printer'): colour",
        ),
        ("- {name: Printer Jam, group: incident, description: d, keywords: [x]}\n", "name"),
        ("- {name: printer, group: incident, keywords: [x]}\n", "description"),
        ("- just a string\n", "entry 3: expected a mapping"),
        (
            "- {name: vpn, parent: sub, group: incident, description: d, keywords: [x]}\n"
            "- {name: sub, parent: incident, group: incident, description: d, keywords: [x]}\n",
            "parent 'sub' has a parent itself",
        ),
    ],
)
def test_a_malformed_taxonomy_is_refused_naming_the_entry(
    tmp_path: Path, extra: str, problem: str
) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(VALID_ENTRY + extra, encoding="utf-8")
    with pytest.raises(TaxonomyError, match=r"taxonomy\.yaml") as refused:
        load_taxonomy(path)
    assert problem in str(refused.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("- name: [unclosed\n", "invalid YAML"),
        ("name: incident\n", "expected a non-empty list"),
        ("", "expected a non-empty list"),
        (VALID_ENTRY.split("- name: other")[0], "'other' (nothing fits) is missing"),
    ],
)
def test_a_file_that_is_no_taxonomy_is_refused(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "taxonomy.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TaxonomyError) as refused:
        load_taxonomy(path)
    assert problem in str(refused.value)
