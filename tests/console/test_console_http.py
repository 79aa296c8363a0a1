"""The console over HTTP: access (401/redirect, 403, CSRF), try-a-message as seed 002 draws
it, escaping, the decisions list's keyset pages, and Slack sign-in against the fake Slack."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest

from core.records import Message
from tests.console.conftest import ADMIN, Console, csrf_of, signed_in

URLS = ["/console/", "/console/try", "/console/decisions", "/console/decisions/d-000000000000",
        "/console/learning", "/console/knowledge?q=vpn", "/console/replay"]  # fmt: skip
POSTS = ["/console/try", "/console/learning/approve", "/console/learning/retire",
         "/console/replay", "/console/logout"]  # fmt: skip
MIXED = (
    "After last night's release 2.3 the VPN fails with error 691 on all laptops, "
    "roll back the change"
)


async def test_without_sign_in_every_url_is_refused_or_redirected(console: Console) -> None:
    async with aiohttp.ClientSession() as client:
        for url in URLS:
            async with client.get(console.url + url, allow_redirects=False) as response:
                assert response.status == 401, url
            headers = {"Accept": "text/html"}
            async with client.get(
                console.url + url, headers=headers, allow_redirects=False
            ) as response:
                assert response.status == 303 and response.headers["Location"] == "/console/login"
        for url in POSTS:
            async with client.post(console.url + url, data={"x": "1"}) as response:
                assert response.status == 401, url
        forged = {"brain_console": "eyJ3aG8iOiJ0b2tlbjphZG1pbiJ9.forged.sig"}
        async with client.get(console.url + "/console/", cookies=forged) as response:
            assert response.status == 401


async def test_a_wrong_token_and_a_post_without_csrf_are_refused(console: Console) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.get(console.url + "/console/login") as response:
            csrf = csrf_of(await response.text())
        login = console.url + "/console/login"
        async with client.post(login, data={"token": "console-test-token"}) as response:
            assert response.status == 403  # the sign-in form's own CSRF token is missing
        async with client.post(login, data={"csrf": csrf, "token": "wrong"}) as response:
            assert response.status == 401
    session = await signed_in(console)
    async with session:
        async with session.post(console.url + "/console/try", data={"text": "VPN"}) as response:
            assert response.status == 403
        async with session.post(
            console.url + "/console/try", data={"text": "VPN", "csrf": "not-the-token"}
        ) as response:
            assert response.status == 403


async def test_try_a_mixed_message_shows_votes_domains_signals_and_hits(console: Console) -> None:
    session = await signed_in(console)
    async with session:
        async with session.get(console.url + "/console/try") as response:
            csrf = csrf_of(await response.text())
        text = MIXED.replace(", roll", " <script>alert('x')</script>, roll")
        async with session.post(
            console.url + "/console/try", data={"csrf": csrf, "text": text, "user": "U1"}
        ) as response:
            assert response.status == 200
            assert "script-src" not in response.headers["Content-Security-Policy"]
            page = await response.text()
    assert "<script>" not in page and "&lt;script&gt;alert(" in page
    votes = _table(page, "votes")
    assert [row[0] for row in votes[1:4]] == ["LLM", "semantic", "pattern"]
    assert [row[2] for row in votes[1:4]] == ["0.70", "0.20", "0.10"]
    domains = _table(page, "domains")
    roles = {row[0]: row[1] for row in domains[1:]}
    assert roles["incident"] == "primary" and roles["change"] == "supporting"
    signals = _table(page, "signals")
    assert signals[0][1:7] == ["keyword", "semantic", "knowledge", "session", "memory", "total"]
    hits = _table(page, "retrieval")[1:]
    assert hits and any("691" in row[0] for row in hits)
    assert re.search(r'<ol id="tier-path">\s*<li>', page)
    decision_id = re.search(r"/console/decisions/(d-[0-9a-f]+)", page)
    assert decision_id
    why = console.brain.explain(decision_id.group(1)).to_dict()
    assert "retrieval" in json.loads(json.dumps(why))


async def test_a_decision_page_names_the_plan_rules_that_decided(console: Console) -> None:
    """A question the tiers would have filed is answered by a rule: the page says which."""
    session = await signed_in(console)
    async with session:
        async with session.get(console.url + "/console/try") as response:
            csrf = csrf_of(await response.text())
        text = "how do i get access to a Bloomberg terminal?"
        async with session.post(
            console.url + "/console/try", data={"csrf": csrf, "text": text, "user": "U1"}
        ) as response:
            page = await response.text()
    rules = re.search(r'<ol id="plan-rules">(.*?)</ol>', page, re.DOTALL)
    assert rules and "questions stay questions" in rules.group(1)


async def test_a_decision_page_reads_as_text_not_as_raw_values(console: Console) -> None:
    """Chinese stays Chinese (not \\u escapes), nothing and booleans read as a dash and
    yes/no (not None/False), retrieval hits come best first, and a passage's source is its
    file, not the installation's absolute path."""
    session = await signed_in(console)
    async with session:
        async with session.get(console.url + "/console/try") as response:
            csrf = csrf_of(await response.text())
        text = "紧急：全公司的邮件都发不出去了，所有人都收不到邮件"
        async with session.post(
            console.url + "/console/try", data={"csrf": csrf, "text": text, "user": "U1"}
        ) as response:
            page = await response.text()
    escalation = _table(page, "escalation")
    cells = [cell for row in escalation for cell in row[1:]]
    assert cells and not {"None", "False", "True"} & set(cells), escalation
    assert not re.search(r"\\u[0-9a-f]{4}", page)
    hits = _table(page, "retrieval")[1:]
    scores = [float(row[2]) for row in hits]
    assert scores and scores == sorted(scores, reverse=True)
    assert all("/" not in row[1] for row in hits), [row[1] for row in hits]


async def test_the_decisions_list_pages_by_keyset_and_filters(console: Console) -> None:
    for number in range(60):
        text = "VPN error 691 again" if number % 2 else "please reset my password"
        console.brain.decide(Message(f"{text} #{number}", user=f"U{number % 3}", channel="C1"))
    session = await signed_in(console)
    seen: list[str] = []
    async with session:
        url = console.url + "/console/decisions?user=U1"
        while url:
            async with session.get(url) as response:
                page = await response.text()
            seen += re.findall(r'<td><a href="/console/decisions/(d-[0-9a-f]+)"', page)
            more = re.search(r'id="next-page" href="([^"]+)"', page)
            url = console.url + more.group(1).replace("&amp;", "&") if more else ""
    assert len(seen) == 20 == len(set(seen))
    assert all(console.brain.get_decision(i).user == "U1" for i in seen)
    created = [console.brain.get_decision(i).created_at for i in seen]
    assert created == sorted(created, reverse=True)


async def test_the_decisions_list_filters_by_team(console: Console) -> None:
    for team in ("T1", "T2", None):
        console.brain.decide(
            Message(f"VPN error 691 from {team}", user="U1", channel="C1", team=team)
        )
    session = await signed_in(console)
    async with session, session.get(console.url + "/console/decisions?team=T2") as response:
        page = await response.text()
    seen = re.findall(r'<td><a href="/console/decisions/(d-[0-9a-f]+)"', page)
    assert [console.brain.get_decision(i).team for i in seen] == ["T2"]
    assert 'name="team" value="T2"' in page


async def test_slack_sign_in_lets_admins_in_and_refuses_others(console: Console) -> None:
    console.slack.oidc_codes = {"code-admin": (ADMIN, "T1"), "code-other": ("UOTHER", "T1")}
    for code, status in (("code-other", 403), ("code-admin", 200)):
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(cookie_jar=jar) as client:
            async with client.get(
                console.url + "/console/auth/slack", allow_redirects=False
            ) as response:
                assert response.status == 303
                target = urlparse(response.headers["Location"])
                state = parse_qs(target.query)["state"][0]
                assert parse_qs(target.query)["client_id"] == ["111.222"]
                console.slack.oidc_nonces[code] = parse_qs(target.query)["nonce"][0]
            callback = console.url + "/console/auth/slack/callback"
            async with client.get(callback, params={"code": code, "state": "forged"}) as response:
                assert response.status == 403
            async with client.get(callback, params={"code": code, "state": state}) as response:
                assert response.status == status
            async with client.get(console.url + "/console/learning") as response:
                assert response.status == (401 if status == 403 else 200)


@pytest.mark.parametrize("nonce", ["another-sign-ins-nonce", None])
async def test_slack_sign_in_refuses_an_id_token_of_another_sign_in(
    console: Console, nonce: str | None
) -> None:
    """A code whose ID token carries another sign-in's nonce (or none: a code injected from
    elsewhere) gets no session, even for an admin with the right state."""
    console.slack.oidc_codes = {"code-admin": (ADMIN, "T1")}
    if nonce is not None:
        console.slack.oidc_nonces["code-admin"] = nonce
    jar = aiohttp.CookieJar(unsafe=True)
    async with aiohttp.ClientSession(cookie_jar=jar) as client:
        async with client.get(console.url + "/console/auth/slack", allow_redirects=False) as sent:
            state = parse_qs(urlparse(sent.headers["Location"]).query)["state"][0]
        callback = console.url + "/console/auth/slack/callback"
        async with client.get(callback, params={"code": "code-admin", "state": state}) as answer:
            assert answer.status == 403
            assert "nonce" in await answer.text()
        async with client.get(console.url + "/console/learning") as response:
            assert response.status == 401


def _table(page: str, table_id: str) -> list[list[str]]:
    found = re.search(rf'<table id="{table_id}">(.*?)</table>', page, re.S)
    assert found, f"no table {table_id}"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", found.group(1), re.S)
    return [
        [
            re.sub(r"<[^>]+>|\s+", " ", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


async def test_the_knowledge_page_shows_what_each_ingest_added_and_its_reingest_status(
    console: Console, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """From the manifest: each file's chunks and when they were ingested, newest first, and
    whether the file on disk is still what was ingested (current, changed, missing)."""
    folder = tmp_path_factory.mktemp("kb")
    for name in ("same", "edited", "deleted"):
        (folder / f"{name}.md").write_text(
            f"# {name} guide\n\nHow to reset the {name} printer queue.\n", encoding="utf-8"
        )
    knowledge = console.brain.knowledge
    assert knowledge is not None
    report = knowledge.ingest([folder])
    assert len(report.added) == 3
    (folder / "edited.md").write_text("# edited guide\n\nNow about VPN tokens.\n", "utf-8")
    (folder / "deleted.md").unlink()

    async def rows() -> dict[str, list[str]]:
        session = await signed_in(console)
        async with session, session.get(console.url + "/console/knowledge") as response:
            page = await response.text()
        assert "changed or missing" in page or "as it was ingested" in page
        table = _table(page, "manifest")
        assert table[0] == ["source", "ingested", "status", "chunks", "dense", "digest"]
        return {Path(row[0]).stem: row for row in table[1:] if row[0].startswith(str(folder))}

    before = await rows()
    assert {name: row[2] for name, row in before.items()} == {
        "same": "current",
        "edited": "changed",
        "deleted": "missing",
    }
    assert all(row[1][:4].isdigit() and int(row[3]) >= 1 for row in before.values())
    knowledge.ingest([folder])  # the re-ingest: the edit is taken, the deleted file dropped
    after = await rows()
    assert {name: row[2] for name, row in after.items()} == {"same": "current", "edited": "current"}
    assert after["edited"][1] >= before["edited"][1]
    assert after["same"][1] == before["same"][1]  # unchanged: not re-ingested
