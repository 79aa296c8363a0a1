"""Write tests/fixtures/secret_corpus.jsonl: secrets that must disappear and look-alikes that
must survive redaction, in English and Chinese sentences people paste into a help desk.

    python scripts/make_secret_corpus.py

Deterministic (one seeded generator): the values are made here, in their real formats (Luhn
for cards, mod-97 for IBANs, the token prefixes and lengths of each vendor), so none is a real
credential. Rows: ``{"kind", "lang", "text", "secret" | "keep"}``.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests/fixtures/secret_corpus.jsonl"
ALNUM = string.ascii_letters + string.digits
UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _luhn_complete(body: str) -> str:
    total = 0
    for position, char in enumerate(reversed(body + "0")):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return body + str((10 - total % 10) % 10)


def _iban(rng: random.Random, country: str, bban: str) -> str:
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    return f"{country}{check:02d}{bban}"


def _word(rng: random.Random, syllables: int) -> str:
    """A lower-case, pronounceable word that no dictionary or file of the home holds."""
    return "".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(syllables))


def _jwt(rng: random.Random) -> str:
    """A JWT whose header and payload are real base64url JSON, and a 43-character signature."""
    payload = json.dumps(
        {"sub": _pick(rng, string.digits, 8), "iat": rng.randint(10**9, 2 * 10**9)}
    )
    body = base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")
    header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    return f"{header}.{body}.{_pick(rng, ALNUM + '-_', 43)}"


def _uk_nino(rng: random.Random) -> str:
    first, second = rng.choice("ABCEGHJKLMNPRSTWXYZ"), rng.choice("ABCEGHJKLMNPRSTWXYZ")
    digits = _pick(rng, string.digits, 6)
    suffix = rng.choice("ABCD")
    if rng.random() < 0.5:
        return f"{first}{second} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
    return f"{first}{second}{digits}{suffix}"


def _cycle(items: tuple[str, ...]) -> Callable[[random.Random], str]:
    """Each look-alike of a fixed list in turn (every one of them is in the corpus)."""
    position = iter(range(10**6))
    return lambda _rng: items[next(position) % len(items)]


def _secrets(rng: random.Random) -> dict[str, Callable[[], str]]:
    def valid_card() -> str:
        while True:
            prefix = rng.choice(["4", "51", "55", "6011"])
            number = _luhn_complete(prefix + _pick(rng, "0123456789", 15 - len(prefix)))
            if len(number) == 16:
                return number

    def pem() -> str:
        kind = rng.choice(["RSA ", "EC ", "", "OPENSSH "])
        lines = "\n".join(_pick(rng, ALNUM + "+/", 64) for _ in range(4))
        return f"-----BEGIN {kind}PRIVATE KEY-----\n{lines}\n-----END {kind}PRIVATE KEY-----"

    return {
        "github": lambda: "ghp_" + _pick(rng, ALNUM, 36),
        "github-oauth": lambda: "gho_" + _pick(rng, ALNUM, 36),
        "aws": lambda: "AKIA" + _pick(rng, UPPER_DIGITS, 16),
        "anthropic": lambda: "sk-ant-api03-" + _pick(rng, ALNUM + "-_", 40),
        "openai": lambda: "sk-proj-" + _pick(rng, ALNUM, 40),
        "slack-bot": lambda: f"xoxb-{rng.randint(10**10, 10**11)}-{_pick(rng, ALNUM, 24)}",
        "slack-webhook": lambda: (
            "https://hooks.slack.com/services/T"
            + _pick(rng, UPPER_DIGITS, 8)
            + "/B"
            + _pick(rng, UPPER_DIGITS, 8)
            + "/"
            + _pick(rng, ALNUM, 24)
        ),
        "slack-webhook-path": lambda: (
            "/services/T"
            + _pick(rng, UPPER_DIGITS, 8)
            + "/B"
            + _pick(rng, UPPER_DIGITS, 10)
            + "/"
            + _pick(rng, ALNUM, 24)
        ),
        "gitlab": lambda: "glpat-" + _pick(rng, ALNUM, 20),
        "stripe": lambda: "sk_live_" + _pick(rng, ALNUM, 24),
        "jwt": lambda: (
            "eyJhbGciOiJIUzI1NiJ9." + _pick(rng, ALNUM, 30) + "." + _pick(rng, ALNUM + "-_", 43)
        ),
        "card": valid_card,
        "iban-gb": lambda: _iban(rng, "GB", "WEST" + _pick(rng, "0123456789", 14)),
        "iban-de": lambda: _iban(rng, "DE", _pick(rng, "0123456789", 18)),
        "ssn": lambda: f"{rng.randint(100, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}",
        "bearer": lambda: _pick(rng, ALNUM, 32),
        "hex-key": lambda: _pick(rng, HEX, 40),
        "password": lambda: (
            _pick(rng, string.ascii_lowercase, 5) + "#" + _pick(rng, "0123456789", 4)
        ),
        "url-password": lambda: "S" + _pick(rng, ALNUM, 10) + "9",
        "private-key": pem,
        "jwt-signed": lambda: _jwt(rng),
        "password-word": lambda: _word(rng, rng.randint(3, 5)),
        "passphrase": lambda: " ".join(_word(rng, 2) for _ in range(4)),
        "password-word-zh": lambda: _word(rng, rng.randint(3, 4)),
        "uk-nino": lambda: _uk_nino(rng),
        "redis-url-password": lambda: _pick(rng, ALNUM, 14),
        "npm": lambda: "npm_" + _pick(rng, ALNUM, 36),
        "command-line-password": lambda: _pick(rng, ALNUM, 10),
        "connection-string-key": lambda: _pick(rng, ALNUM + "+/", 43) + "=",
        "one-time-code": lambda: _pick(rng, "0123456789", rng.choice([6, 6, 8])),
        "network-key": lambda: _word(rng, 3) + _pick(rng, "0123456789", 2),
        "passport": lambda: rng.choice(["", "E", "G", "P"]) + _pick(rng, "0123456789", 8),
        "driving-licence": lambda: rng.choice("ABDMS") + _pick(rng, "0123456789", 7),
        "hk-identity-card": lambda: (
            rng.choice("ACDEGHKPRZ") + _pick(rng, "0123456789", 6) + f"({rng.randint(0, 9)})"
        ),
        "bank-account": lambda: "6222" + _pick(rng, "0123456789", rng.choice([12, 15])),
        "sort-code": lambda: "-".join(_pick(rng, "0123456789", 2) for _ in range(3)),
        "date-of-birth": lambda: (
            f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(1950, 2004)}"
        ),
        # Six digits: four are in many a timestamp the stores hold, so the test that greps
        # them (tests/bot/test_secrets_nowhere.py) could not tell a leak from a clock.
        "pin": lambda: _pick(rng, "0123456789", 6),
        "recovery-code": lambda: _pick(rng, HEX, 4) + "-" + _pick(rng, HEX, 4),
        "google-api-key": lambda: "AIza" + _pick(rng, ALNUM + "-_", 35),
    }


SECRET_TEMPLATES: dict[str, tuple[tuple[str, str], ...]] = {
    "bearer": (
        ("en", "curl fails with Authorization: Bearer {s} on the billing api"),
        ("zh", "调用接口时带了 Bearer {s} 还是 401"),
    ),
    "hex-key": (
        ("en", "the api key is {s}, can you rotate it?"),
        ("zh", "我们的密钥是 {s} 需要更换"),
    ),
    "password": (
        ("en", "passwd: {s} for the shared mailbox"),
        ("zh", "我的密码：{s} 登录不了"),
    ),
    "url-password": (
        ("en", "the job connects to postgres://report:{s}@db-07.internal/sales and times out"),
        ("zh", "连接串 https://admin:{s}@git.corp.example/ 报错"),
    ),
    "password-word": (
        ("en", "my password is {s}"),
        ("en", "the wifi password is {s}, please change it"),
        ("en", "my old password was {s} and it still works on the vpn"),
        ("en", "{s} is my password, is that ok?"),
        ("en", "I changed my password to {s} yesterday"),
        ("en", "my password is now {s}"),
    ),
    "passphrase": (
        ("en", "my passphrase is {s}"),
        ("en", "the vault passphrase: {s}"),
        ("en", "passphrase is {s} but the key will not unlock"),
    ),
    "password-word-zh": (
        ("zh", "我的密码是{s}，登录不了"),
        ("zh", "密码{s}登不上"),
        ("zh", "我的密碼是 {s} 一直提示错误"),
        ("zh", "VPN 密码 {s} 不对吗"),
        ("zh", "密码改成了{s}还是登不上"),
    ),
    "uk-nino": (
        ("en", "my NI number is {s} for the payroll form"),
        ("en", "national insurance: {s}"),
        ("en", "HR has {s} on file but the payslip is wrong"),
        ("zh", "英国同事的 National Insurance number {s} 填错了"),
    ),
    "command-line-password": (
        ("en", "curl -u admin:{s} https://jenkins.corp.example/api returns 401"),
        ("en", "sshpass -p '{s}' ssh deploy@web-03 hangs"),
        ("en", "mysql -u report -p{s} -h db-07 says access denied"),
        ("en", "PGPASSWORD={s} psql -h db-02 -U app fails"),
        ("zh", "redis-cli -h cache-01 -a {s} ping 报错 NOAUTH"),
        ("zh", "执行 curl --user ci:{s} https://nexus.corp.example 还是 403"),
    ),
    "connection-string-key": (
        ("en", "DefaultEndpointsProtocol=https;AccountName=logs;AccountKey={s};EndpointSuffix=x"),
        ("zh", "连接串 Endpoint=sb://bus/;SharedAccessKeyName=app;SharedAccessKey={s} 报错"),
    ),
    "one-time-code": (
        ("en", "my one-time code is {s} and it still says invalid"),
        ("en", "the MFA code {s} is not accepted"),
        ("en", "verification code: {s}, but the portal rejects it"),
        ("zh", "验证码是 {s} 但是登录不了"),
        ("zh", "短信验证码{s}输入后提示过期"),
    ),
    "network-key": (
        ("en", "the wifi key for the lab is {s}"),
        ("en", "network key: {s} does not work on the new laptop"),
        ("zh", "实验室的 wifi key 是 {s}，连不上"),
    ),
    "passport": (
        ("en", "my passport number is {s}, HR needs it for the visa letter"),
        ("zh", "护照号 {s} 填到系统里报错"),
    ),
    "driving-licence": (
        ("en", "driver license {s} for the car pool form"),
        ("en", "my driving licence number: {s}"),
    ),
    "hk-identity-card": (
        ("zh", "香港身份证 {s} 录入不了"),
        ("en", "HKID {s} is rejected by the onboarding portal"),
    ),
    "bank-account": (
        ("zh", "我的银行卡号 {s}，工资没到账"),
        ("en", "bank account number {s} for the expense refund"),
    ),
    "sort-code": (("en", "sort code {s}, account is in my profile"),),
    "date-of-birth": (
        ("en", "my date of birth is {s} and the portal says it is wrong"),
        ("zh", "出生日期 {s} 系统里填错了"),
    ),
    "pin": (
        ("en", "my pin is {s} and the printer rejects it"),
        ("zh", "PIN码是 {s} 但是门禁打不开"),
    ),
    "recovery-code": (
        ("en", "recovery codes: {s} and the rest are in my drawer"),
        ("en", "backup code {s} did not work either"),
    ),
    "google-api-key": (("en", "the maps call with key {s} returns 403"),),
    "redis-url-password": (
        ("en", "the worker connects to redis://:{s}@cache-03.internal:6379/0 and times out"),
        ("zh", "缓存连接 rediss://:{s}@redis.corp.example:6380 连不上"),
        ("en", "broker url amqp://:{s}@mq-01:5672/ refuses the login"),
    ),
}
DEFAULT_SECRET_TEMPLATES = (
    ("en", "I accidentally pasted {s} in the channel, please help"),
    ("en", "deploy log shows {s} in plain text"),
    ("zh", "不小心把 {s} 发到群里了，怎么办"),
    ("zh", "配置文件里有 {s} 这个要删吗"),
)
#: Everyday sentences about passwords: every word of them must survive.
PASSWORD_TALK = (
    "my password doesn't work",
    "my password expired",
    "password reset please",
    "my password is not working since Monday",
    "my password is expired again",
    "the password is too short for the new policy",
    "my password was changed by someone else",
    "what is my password for the printer portal",
    "my passphrase is not accepted by the vault",
    "the passphrase is required for the backup key",
    "my password is case sensitive?",
    "password expired yesterday, can you help",
    "my password is wrong, I keep getting locked out",
    "my password is going to expire tomorrow",
    "my password is similar to the old one",
    "the password is longer than 20 chars",
    "my password is about to expire",
    "my password is managed by Okta",
    "how long is my password valid",
    "is my password synced to Azure AD?",
    "my password is fine now, thanks",
    "reset my password to log in",
    "I need to change my password to access email",
    "change my password to something stronger",
    "my password is now expired",
    "my new password should be stronger",
)
PASSWORD_TALK_ZH = (
    "密码忘记了",
    "密码过期了怎么办",
    "密码错误 691",
    "VPN 密码 reset 不了",
    "密碼錯誤，登录不了",
    "我的密码是什么",
    "密码policy是什么",
    "口令过期了",
    "重置密码的链接打不开",
    "密码 expired 了，怎么改",
    "密码LDAP同步失败",
    "密码Outlook登不上",
    "密码 OK 了",
    "密码是多少位的",
    "密码改成功了",
    "密码改为什么好",
)
#: Command lines and talk about codes and keys that hold no secret: every word survives.
COMMAND_TALK = (
    "ssh -p 2222 deploy@web-03 refuses the connection",
    "docker run -p 8080:80 nginx fails to start",
    "docker run -u 1000:1000 app cannot write the volume",
    "mysql -p prompts me but I forgot the password",
    "mysql -h db-07 -P 3306 -u report times out",
    "curl -u admin https://jenkins.corp.example asks for a password",
    "my MFA code is not arriving",
    "the verification code never comes by sms",
    "the wifi key is printed on the router",
    "error code 552911 when installing the client",
    "the network key changed last week, where is the new one?",
)
#: Words about identity documents, accounts, birthdays, PINs and codes, with no number of theirs.
PERSONAL_TALK = (
    "the passport office wifi is down",
    "passport renewal process?",
    "order number 12345678 not delivered",
    "account number for the invoice is missing",
    "sort code field is greyed out",
    "my birthday party room booking",
    "license number field is empty in SAP",
    "PIN reset please",
    "the backup codes page does not load",
    "recovery code not accepted",
    "visio license 2024 expired",
    "the backup job failed at 02:00 on 12/04/2026",
)
COMMAND_TALK_ZH = (
    "卡号不对",
    "身份证过期了",
    "驾照照片上传失败",
    "生日会议室预订",
    "验证码收不到",
    "短信验证码一直不来",
    "动态口令过期了怎么办",
    "wifi key 在哪里看",
    "ssh -p 2222 登不上跳板机",
)
#: Look-alikes that are whole sentences, each in the corpus once.
SENTENCES = (
    ("password-talk", "en", PASSWORD_TALK),
    ("password-talk-zh", "zh", PASSWORD_TALK_ZH),
    ("command-talk", "en", COMMAND_TALK),
    ("command-talk-zh", "zh", COMMAND_TALK_ZH),
    ("personal-talk", "en", PERSONAL_TALK),
)
KEEP = (
    (
        "ticket-id",
        "en",
        "process ticket {k} please",
        lambda r: "20250603000" + _pick(r, "0123456789", 8),
    ),
    ("ticket-ref", "en", "status of INC-{k}?", lambda r: _pick(r, "0123456789", 6)),
    ("git-sha", "en", "build failed at commit {k} in main", lambda r: _pick(r, HEX, 40)),
    ("short-sha", "zh", "回滚到提交 {k} 之后服务正常吗", lambda r: _pick(r, HEX, 7)),
    (
        "stack-hash",
        "en",
        'File "/srv/app/{k}/worker.py", line 42, in run',
        lambda r: _pick(r, HEX, 32),
    ),
    (
        "uuid",
        "en",
        "request id {k} returned 502",
        lambda r: "-".join(_pick(r, HEX, n) for n in (8, 4, 4, 4, 12)),
    ),
    (
        "version",
        "en",
        "upgrade the agent to {k} on all hosts",
        lambda r: f"v{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 99)}",
    ),
    (
        "version-zh",
        "zh",
        "客户端版本 {k} 一直崩溃",
        lambda r: f"{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 99)}-rc{r.randint(1, 5)}",
    ),
    ("host", "en", "disk full on {k} since 03:00", lambda r: f"Fin-WS-{r.randint(100, 999)}"),
    ("error-code", "en", "sign-in fails with {k}", lambda r: f"AADSTS{r.randint(10000, 99999)}"),
    ("docker-digest", "en", "pull image sha256:{k} fails", lambda r: _pick(r, HEX, 64)),
    (
        "private-ip",
        "zh",
        "服务器 {k} ping 不通",
        lambda r: f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}",
    ),
    (
        "url",
        "en",
        "the wiki page {k} is down",
        lambda r: f"https://wiki.corp.example/page/{r.randint(100, 999)}",
    ),
    ("asset", "zh", "笔记本 LT-{k} 屏幕坏了", lambda r: _pick(r, "0123456789", 5)),
    ("order", "en", "order #{k} not delivered", lambda r: _pick(r, "0123456789", 5)),
    ("not-luhn", "en", "reference number {k} from the bank", lambda r: _not_luhn(r)),
    (
        "cron",
        "en",
        "the job runs at {k} every day",
        lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}",
    ),
    ("word", "zh", "什么是{k}？", lambda r: r.choice(["滚仓", "对账", "清算", "交割", "轧差"])),
    (
        "key-word",
        "en",
        "the {k} key on my keyboard is stuck",
        lambda r: r.choice(["F5", "Esc", "Enter", "Tab"]),
    ),
    (
        "token-word",
        "en",
        "token {k} expired, how do I renew the badge?",
        lambda r: f"BADGE-{r.randint(100, 999)}",
    ),
    (
        "dial-up-error",
        "en",
        "the VPN says error {k} when I connect",
        _cycle(("691", "809", "720", "868")),
    ),
    (
        "uuid-trace",
        "en",
        'File "/srv/app/jobs.py", line 88, in run: KeyError: job {k} not found',
        lambda r: "-".join(_pick(r, HEX, n) for n in (8, 4, 4, 4, 12)),
    ),
    (
        "work-order",
        "zh",
        "工单 {k} 还没人处理",
        lambda r: "2025" + _pick(r, "0123456789", 15),
    ),
    ("ticket-padded", "en", "any update on {k}?", lambda r: f"INC-{r.randint(1, 999):06d}"),
    (
        "url-without-password",
        "en",
        "{k} refuses connections since the upgrade",
        lambda r: f"redis://cache-{r.randint(1, 99):02d}.internal:6379/0",
    ),
    (
        "version-build",
        "en",
        "the installer {k} fails on Windows",
        lambda r: (
            f"v{r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 99)}+build.{r.randint(1, 999)}"
        ),
    ),
)


def _not_luhn(rng: random.Random) -> str:
    while True:
        number = "4" + _pick(rng, "0123456789", 15)
        if _luhn_complete(number[:-1]) != number:
            return number


def rows(per_kind_secret: int = 12, per_kind_keep: int = 12) -> list[dict[str, str]]:
    """The corpus: each secret kind in its sentences, each look-alike in its own."""
    rng = random.Random(31)
    out: list[dict[str, str]] = []
    for kind, make in _secrets(rng).items():
        templates = SECRET_TEMPLATES.get(kind, DEFAULT_SECRET_TEMPLATES)
        for n in range(per_kind_secret):
            lang, template = templates[n % len(templates)]
            secret = make()
            out.append(
                {"kind": kind, "lang": lang, "text": template.format(s=secret), "secret": secret}
            )
    for kind, lang, template, make_keep in KEEP:
        for _ in range(per_kind_keep):
            keep = make_keep(rng)
            out.append({"kind": kind, "lang": lang, "text": template.format(k=keep), "keep": keep})
    for kind, lang, sentences in SENTENCES:  # each one of them, whole
        out.extend({"kind": kind, "lang": lang, "text": text, "keep": text} for text in sentences)
    return out


def main() -> None:
    lines = [json.dumps(row, ensure_ascii=False) for row in rows()]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} rows -> {OUT}")


if __name__ == "__main__":
    main()
