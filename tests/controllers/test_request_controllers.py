"""`access`, `incident`, `change`: typed requests with completed and missing parameters."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controllers.base import ControllerContext, ControllerServices
from controllers.builtin.access import AccessController
from controllers.builtin.change import ChangeController
from controllers.builtin.incident import IncidentController

ContextFactory = Callable[..., ControllerContext]


def _stored(services: ControllerServices) -> list[dict[str, object]]:
    assert services.tickets is not None
    return [t.to_dict() for t in services.tickets.all()]


@pytest.mark.parametrize(
    ("text", "request_type", "system", "role"),
    [
        ("I need read access to the finance share", "permission", "finance share", "read-only"),
        ("please grant me developer role on GitLab project settlement-core", "permission",
         "GitLab", "developer"),
        ("reset my Okta password please, I forgot it", "password_reset", "Okta", None),
        ("帮我重置一下邮箱密码", "password_reset", "邮箱", None),
        ("需要安装 Visio，有许可证吗", "install", "Visio", None),
        ("申请清算系统只读权限", "permission", "清算系统", "read-only"),
        ("申请 Jira 的管理员权限", "permission", "Jira", "admin"),
        ("lost my phone, need to re-enroll MFA", "mfa", "MFA", None),
        ("I forgot the password of the treasury reporting portal", "password_reset",
         "treasury reporting portal", None),
        ("please add me to the fund-ops distribution list", "permission",
         "fund-ops distribution list", None),
        ("need write access to \\\\nas02\\finance\\q3", "permission",
         "\\\\nas02\\finance\\q3", "write"),
        ("could I get a Figma licence for the design review?", "licence", "Figma", None),
        ("帮我开通资金清算平台的查看权限", "permission", "资金清算平台", "read-only"),
        ("new joiner starts monday, please create her account", "new_account",
         "domain account (AD)", None),
        ("员工下周离职，请停用他的账号", "disable", "domain account (AD)", None),
    ],
)  # fmt: skip
def test_access_request_is_filed_with_completed_parameters(
    make_context: ContextFactory,
    services: ControllerServices,
    text: str,
    request_type: str,
    system: str,
    role: str | None,
) -> None:
    access = AccessController()
    context = make_context(text)
    assert access.dry_run(context).ok
    assert _stored(services) == []  # dry-run created nothing
    result = access.handle(context)
    assert result.ok and result.missing == []
    ticket = result.data["ticket"]
    assert ticket["id"].startswith("REQ-") and ticket["kind"] == "access"
    assert ticket["status"] == "open"
    assert ticket["fields"]["request_type"] == request_type
    assert ticket["fields"]["system"] == system
    assert ticket["fields"].get("role") == role
    # a new joiner's or a leaver's account is not the asker's
    asker = None if request_type in ("new_account", "disable") else "U024BE7LH"
    assert ticket["fields"].get("account") == asker
    assert ticket["id"] in result.summary
    assert _stored(services)[0]["id"] == ticket["id"]


def test_access_asks_for_the_missing_system(
    make_context: ContextFactory, services: ControllerServices
) -> None:
    access = AccessController()
    context = make_context("can I get more permissions please")
    dry = access.dry_run(context)
    assert (dry.ok, dry.missing) == (False, ["system"])
    assert _stored(services) == []
    result = access.handle(context)
    assert result.missing == ["system"] and "still need: system" in result.summary
    assert result.data["ticket"]["status"] == "awaiting_info"
    # the user's answer completes it
    answered = make_context("can I get more permissions please", parameters={"system": "Grafana"})
    assert access.dry_run(answered).ok


def test_locked_account_assumes_the_directory_account_and_says_so(
    make_context: ContextFactory,
) -> None:
    fields = AccessController().fields(make_context("我的账号被锁了，登不上去"))
    assert fields["request_type"] == "unlock"
    assert fields["system"] == "domain account (AD)" and fields["system_assumed"] is True


def test_incident_keeps_error_code_and_ticket_entity(
    make_context: ContextFactory, services: ControllerServices
) -> None:
    context = make_context(
        "VPN 连不上，报错 691，工单 #10086",
        entities={"ticket_id": ["10086"], "error_code": ["691"]},
    )
    incident = IncidentController()
    assert incident.dry_run(context).reason == "vpn incident"
    result = incident.handle(context)
    fields = result.data["ticket"]["fields"]
    assert result.ok and result.data["ticket"]["id"].startswith("INC-")
    assert (fields["category"], fields["error_code"], fields["related_ticket"]) == (
        "vpn",
        "691",
        "10086",
    )
    assert not result.escalate


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("我点开了钓鱼邮件链接", "security"),
        ("I clicked a link in a phishing email", "security"),
        ("Outlook won't sync since this morning", "email"),
        ("the printer on floor 3 is jammed again", "printer"),
        ("电脑蓝屏了，开不了机", "hardware"),
        ("公司 wifi 连上了但是上不了网", "network"),
        ("my headset mic stopped working in Zoom meetings", "phone"),
        ("会议室座机没有拨号音", "phone"),
        ("a caller pretending to be the helpdesk asked for my password", "security"),
    ],
)
def test_incident_categories(make_context: ContextFactory, text: str, category: str) -> None:
    assert IncidentController().fields(make_context(text))["category"] == category


def test_security_incident_is_flagged_for_escalation(make_context: ContextFactory) -> None:
    # The brain's escalation decision puts the security taxonomy's finding in the entities.
    context = make_context(
        "我点开了钓鱼邮件链接", urgency="critical", entities={"category": ["security"]}
    )
    result = IncidentController().handle(context)
    assert result.ok and result.escalate
    assert "值班" in result.summary  # on-call, in the asker's language


def test_a_security_category_guessed_from_one_word_pages_nobody(
    make_context: ContextFactory,
) -> None:
    context = make_context("water leak from the ceiling right onto my laptop")
    assert IncidentController().fields(context)["category"] == "security"  # the guess
    assert not IncidentController().handle(context).escalate


def test_vague_incident_reports_missing_category(
    make_context: ContextFactory, services: ControllerServices
) -> None:
    dry = IncidentController().dry_run(make_context("help me, it's stuck"))
    assert (dry.ok, dry.missing) == (False, ["category"])
    assert _stored(services) == []


@pytest.mark.parametrize(
    ("text", "change_type", "operation", "service", "window"),
    [
        ("raise a change to deploy payments-api v2.3 tonight 22:00-23:00", "normal", "release",
         "payments-api", "tonight 22:00-23:00"),
        ("we need to roll back checkout-service to v1.8 now, emergency", "emergency", "rollback",
         "checkout-service", "immediately"),
        ("申请变更：周五晚上 22 点发布清算服务 v3.1", "normal", "release", "清算服务",
         "周五晚上 22 点"),
        ("scale order-service from 4 to 8 replicas this friday", "standard", "capacity",
         "order-service", "this friday"),
        ("hotfix release for the recon job, needs emergency CAB", "emergency", "release",
         "recon job", "immediately"),
        ("standard change: renew the TLS cert on the load balancer saturday 21:00", "standard",
         "change", "load balancer", "saturday 21:00"),
        ("roll back last night's pricing engine release immediately", "emergency", "rollback",
         "pricing engine", "immediately"),
        # A rollback plan is part of a planned change, not a rollback asked for now.
        ("raise a change to deploy payments-api v2.3 tonight 22:00-23:00, rollback plan: "
         "redeploy v2.2", "normal", "release", "payments-api", "tonight 22:00-23:00"),
        ("申请变更：周五晚上 22 点发布清算服务 v3.1，回滚方案：重新部署 v3.0", "normal",
         "release", "清算服务", "周五晚上 22 点"),
        ("please deploy invoice-api 3.4 on sunday 06:00-07:00, rollback by redeploying 3.3",
         "normal", "release", "invoice-api", "on sunday 06:00-07:00"),
        ("release ledger-svc v9 saturday 21:00, rollback: restore the v8 image", "normal",
         "release", "ledger-svc", "saturday 21:00"),
        ("周六晚上 22 点发布结算服务 v2.0，回滚的话重新部署 v1.9", "normal", "release",
         "结算服务", "周六晚上 22 点"),
        # a name that starts with 对 keeps it ("对账服务": reconciliation); "bump" is an
        # upgrade and names its target as "upgrade" does
        ("周日晚上 23 点发布对账服务 v1.4", "normal", "release", "对账服务", "周日晚上 23 点"),
        ("bump the invoicing service to v7.2 on saturday 02:00", "normal", "upgrade",
         "invoicing service", "on saturday 02:00"),
        # a service's name does not run across 的 (it was "产环境的结算服务")
        ("今晚 23 点重启一下生产环境的结算服务", "standard", "change", "结算服务", "今晚 23 点"),
        # hours in Chinese numerals and a range of them are part of the window
        ("请在周四晚上十点到十一点发布 billing-api v2.1", "normal", "release", "billing-api",
         "周四晚上十点到十一点"),
        ("明天下午两点半到三点给 order-service 扩容到 8 个实例", "standard", "capacity",
         "order-service", "明天下午两点半到三点"),
    ],
)  # fmt: skip
def test_change_request_fields(
    make_context: ContextFactory,
    text: str,
    change_type: str,
    operation: str,
    service: str,
    window: str,
) -> None:
    change = ChangeController()
    context = make_context(text)
    assert change.dry_run(context).ok
    result = change.handle(context)
    fields = result.data["ticket"]["fields"]
    assert result.ok and result.missing == []
    assert result.data["ticket"]["id"].startswith("CHG-")
    assert (fields["change_type"], fields["operation"]) == (change_type, operation)
    assert (fields["service"], fields["window"]) == (service, window)


@pytest.mark.parametrize(
    ("text", "version"),
    [
        # the version is the one the change installs, never the rollback plan's
        ("please restart the search-api tomorrow at 07:00, rollback by redeploying 5.1", None),
        ("raise a change to deploy payments-api v2.3 tonight 22:00-23:00, rollback plan: "
         "redeploy v2.2", "v2.3"),
        ("周六晚上 22 点发布结算服务 v2.0，回滚的话重新部署 v1.9", "v2.0"),
        ("重启搜索服务，周日早上 7 点，回滚方案：重新部署 4.2", None),
        # a rollback asked for now goes to the version it names
        ("we need to roll back checkout-service to v1.8 now, emergency", "v1.8"),
    ],
)  # fmt: skip
def test_change_version_is_not_read_from_the_rollback_plan(
    make_context: ContextFactory, text: str, version: str | None
) -> None:
    result = ChangeController().handle(make_context(text))
    assert result.data["ticket"]["fields"].get("version") == version


def test_change_asks_for_target_and_window(
    make_context: ContextFactory, services: ControllerServices
) -> None:
    change = ChangeController()
    vague = make_context("we should deploy the new version")
    dry = change.dry_run(vague)
    assert (dry.ok, dry.missing) == (False, ["service"])
    assert _stored(services) == []
    result = change.handle(make_context("给 order-service 扩容到 8 个实例"))
    assert result.missing == ["window"]
    assert result.data["ticket"]["status"] == "awaiting_info"


def test_a_little_is_not_an_hour(make_context: ContextFactory) -> None:
    """ "快一点" ("a bit faster") holds 一点, also "one o'clock": alone, it is no window."""
    result = ChangeController().handle(make_context("帮我快一点发布 billing-api v2.1"))
    assert result.missing == ["window"]


def test_asset_change_uses_the_asset_tag(make_context: ContextFactory) -> None:
    context = make_context(
        "资产编号 LT-20931 的电脑要归还，更新一下台账", entities={"asset_tag": ["LT-20931"]}
    )
    result = ChangeController().handle(context)
    fields = result.data["ticket"]["fields"]
    assert (fields["operation"], fields["service"], fields["asset_tag"]) == (
        "asset",
        "LT-20931",
        "LT-20931",
    )
    assert result.missing == []


def test_without_a_store_nothing_is_filed(make_context: ContextFactory) -> None:
    context = make_context("reset my Okta password", services=ControllerServices())
    result = AccessController().handle(context)
    assert not result.ok and "No ticket store" in result.summary


@pytest.mark.parametrize(
    ("text", "account"),
    [
        ("please unlock the account svc_batch_01, the nightly job is failing", "svc_batch_01"),
        ("帮 wang.li 重置密码，用户名：wang.li", "wang.li"),
        ("my account is locked, can you unlock it", "U024BE7LH"),  # a state names no account
        ("域账号 AD 被锁了，帮我解锁", "U024BE7LH"),  # the system, not an account
        # Written for someone else: the asker's account is not theirs (the desk asks whose).
        ("can someone give the new contractor a seat license for Figma, she starts Monday", None),
        ("please grant my manager access to the payroll share", None),
        ("帮新同事开通一下 Jira 权限", None),
        ("for my own account I need Tableau access", "U024BE7LH"),
    ],
)
def test_access_request_is_for_the_account_the_text_names(
    make_context: ContextFactory, text: str, account: str | None
) -> None:
    fields = AccessController().handle(make_context(text)).data["ticket"]["fields"]
    assert fields.get("account") == account


@pytest.mark.parametrize(
    "text",
    [
        "please create an AD account for our new intern, she starts on the 12th",
        "can you set up a GitLab account for the new colleague joining my team",
    ],
)
def test_an_account_for_a_new_joiner_is_a_new_account_not_the_askers(
    make_context: ContextFactory, text: str
) -> None:
    fields = AccessController().handle(make_context(text)).data["ticket"]["fields"]
    assert fields["request_type"] == "new_account"
    assert fields.get("account") != "U024BE7LH"  # the asker's own account is not the new one
