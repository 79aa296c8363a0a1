"""Questions about the thread's record that name no subject of their own, for the continuation
set's train split (`make_continuation_set.py`).

"VPN drops every 10 minutes when I'm at home", two details, then "what should I try next?":
the question asks about the record's problem, and only the record says what it is about. The
set held such questions only as status questions ("any update?") and held many questions with
a subject of their own as new work ("how do I book a meeting room?"), so the model read every
question that is not about progress as new (P(continue) 0.04): alone, the chain could place it
nowhere and the bot fell back ("none of my controllers covers it"). Here they are a class of
their own, `question` (answered from the knowledge base on the record's subject, the record
kept), beside questions that bring their own subject in the same threads (new) and status
questions (status), so the model learns what a question borrows from the record, not that a
question is one or the other.

How they were written: patterns invented for this file in English and Chinese (what to try,
workarounds, forms, who else is affected, devices and places, what the user must do), none
from the conversation benchmark's splits; the records are the train split's own records with
no question waiting. Appended after the other families with a random stream of their own.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

#: Questions that ask about the record's problem or request and name nothing of their own.
ABOUT_RECORD = {
    "en": [
        "what should I try next?", "is there anything I can do in the meantime?",
        "is there a workaround?", "any workaround for now?", "what else can I try?",
        "is there a form I need to fill in?", "do I need to fill in a form for this?",
        "is there a temporary fix?", "what's the usual fix for this?", "is there a known fix?",
        "how do I do that?", "where do I find that setting?", "which version should I install?",
        "do I need admin rights for that?", "would a reboot help?", "should I reinstall it?",
        "can I still work in the meantime?", "can I use my phone for now?",
        "what about on my phone?", "does the same apply on a mac?", "is it the same at home?",
        "do I need to bring it to the desk?", "can you do it remotely?",
        "do I need to be in the office for that?", "will I lose my files?",
        "is my data safe?", "do I need to do anything on my side?",
        "what do you need from me?", "do you need anything else from me?",
        "is there a guide for this somewhere?", "where can I read more about it?",
        "what causes this usually?", "why does this keep happening?",
        "should I stop using it until then?", "is it safe to keep working on it?",
        "can I do it myself?", "how do I check that?", "what settings should I use?",
        "do I need a new one?", "can someone walk me through it?",
        "what should I tell my team in the meantime?", "is there a self-service option?",
        "who has to sign this off?", "does my manager have to approve it?",
        "who signs off on requests like this?", "how long do approvals usually take?",
        "who do I ask for the approval?", "does this need anyone's approval?",
        "how long does this normally take?", "what happens once it's approved?",
    ],
    "zh": [
        "有什么临时办法吗", "我现在该怎么办", "需要填什么表吗", "还能试点什么", "有没有变通的办法",
        "要不要重启一下试试", "需要我这边做什么吗", "数据会丢吗", "能远程处理吗", "要我拿过去吗",
        "手机上能先用吗", "Mac 上也是这样处理吗", "有没有什么办法先用着", "要装哪个版本",
        "在哪里设置", "这个要管理员权限吗", "有已知的解决方法吗", "还需要我提供什么吗",
        "一般是什么原因", "为什么老是这样", "我能自己弄吗", "有操作指南吗", "怎么检查",
        "要不要先别用了", "在家也是这样处理吗", "需要换新的吗", "有人能教我一下吗",
        "要先卸载吗", "这期间我能继续干活吗", "有自助的办法吗",
        "这个要谁批", "需要领导审批吗", "审批一般要几天", "找谁签字", "要走什么审批流程",
        "一般多久能办好", "批完之后还要做什么",
    ],
}  # fmt: skip
#: Questions with a subject of their own, asked in a thread about something else: new.
OWN_SUBJECT = {
    "en": [
        "how do I book a meeting room?", "what's the guest wifi password?",
        "when does the cafeteria open?", "how do I request parental leave?",
        "where's the travel expense policy?", "how do I add a printer on my mac?",
        "who do I ask about my payslip?", "how many vacation days do I have left?",
        "can I bring my dog to the office?", "how do I share a calendar with my assistant?",
        "what's the process for ordering business cards?", "how do I get a parking permit?",
        "where do I submit my timesheet?", "how do I set an out of office reply?",
        "is there a policy for working abroad?", "how do I join the all-hands call?",
        "what is a standard change?", "how do I reset my voicemail pin?",
    ],
    "zh": [
        "会议室怎么预订", "访客 WiFi 密码是多少", "食堂几点开门", "产假怎么申请",
        "差旅报销标准在哪看", "Mac 上怎么添加打印机", "工资条找谁问", "我还剩几天年假",
        "停车证怎么办", "工时在哪填",
        "怎么设置自动回复", "名片怎么申请", "出国办公有规定吗", "什么是标准变更",
    ],
}  # fmt: skip
KINDS = ("incident", "access", "change")
#: What the user already did, said before the question about what comes next ("I've changed my
#: password already, anything else I should do?"): the question names nothing of its own, the
#: first half is the record's story. Written for this file, none from the conversation splits.
DONE_THEN_ASK = {
    "en": (
        [
            "restarted it", "cleared the cache", "reinstalled the app", "reset my password",
            "updated everything", "logged out and back in", "rebooted twice",
            "tried another network", "followed the guide", "deleted the email",
            "filled in the form", "asked my manager", "unplugged it for a minute",
        ],
        [
            "anything else I should do?", "what else can I try?", "what now?",
            "what's the next step?", "is there anything more I need to do?",
            "should I do anything else?", "now what?", "what do I do next?",
        ],
        ["I already {d}, {a}", "I've {d} already, {a}", "already {d}, {a}", "{d}. {a}"],
    ),
    "zh": (
        [
            "重启过了", "缓存也清了", "应用重装了", "密码已经改了", "都更新了", "退出重新登录了",
            "重启了两次", "换了网络试", "按指南做了", "邮件已经删了", "表已经填了", "问过领导了",
            "拔了电源等了一分钟",
        ],
        [
            "还需要做什么吗", "还能试什么", "接下来怎么办", "下一步呢", "还要做别的吗",
            "然后呢", "我还需要做什么",
        ],
        ["{d}，{a}", "{d}，{a}？", "{d}。{a}"],
    ),
}  # fmt: skip
#: A guess at the record's cause, asked: it continues the record ("I was on parental leave for
#: four months, maybe that's why?" after a locked account).
CAUSE_GUESS = {
    "en": (
        [
            "I was on holiday for two weeks", "I changed my password yesterday",
            "I got a new phone last week", "my laptop was reimaged on Monday",
            "I moved desks this morning", "I haven't logged in since March",
            "we switched to the new Wi-Fi", "I installed an update last night",
        ],
        ["maybe that's why?", "could that be it?", "is that the reason?", "would that explain it?"],
        ["{d}, {a}", "{d} - {a}", "hmm, {d}, {a}"],
    ),
    "zh": (
        [
            "我休了两周假", "我昨天刚改了密码", "我上周换了手机", "电脑周一重装过系统",
            "我今天早上换了工位", "我三月以后就没登录过", "我们换了新的 WiFi", "我昨晚装了个更新",
        ],
        ["是不是这个原因", "会不会是因为这个", "跟这个有关系吗", "是这个原因吗"],
        ["{d}，{a}", "{d}，{a}？"],
    ),
}  # fmt: skip


def first_rows(
    rows: Sequence[dict[str, object]], kinds: Collection[str] | None = None
) -> dict[str, list[dict[str, object]]]:
    """The first row of each train record with no question waiting, by language (English,
    Chinese), of the `kinds` of record given (every kind when None): the threads a family
    appended here and in the other `continuation_*` scripts sends one more message in."""
    records: dict[str, list[dict[str, object]]] = {"en": [], "zh": []}
    seen: set[str] = set()
    for base in rows:
        record, lang = str(base["record"]), str(base["lang"])
        if base["split"] != "train" or base["question"]:
            continue
        if kinds is not None and base["kind"] not in kinds:
            continue
        if record in seen or lang not in records:
            continue
        seen.add(record)
        records[lang].append(base)
    return records


def question_rows(rows: Sequence[dict[str, object]], seed: int = 7) -> list[dict[str, object]]:
    """For train records with no question waiting (per language, the first of each record):
    two questions about the record (`question`) and one with its own subject (`new`)."""
    rng = random.Random(f"{seed}-questions")
    records = first_rows(rows, KINDS)
    added: list[dict[str, object]] = []
    for lang, bases in records.items():
        for base in rng.sample(bases, k=min(len(bases), 160 if lang == "en" else 110)):
            picks = [(p, "question") for p in rng.sample(ABOUT_RECORD[lang], k=2)]
            picks.append((rng.choice(OWN_SUBJECT[lang]), "new"))
            for pattern, label in picks:
                message = pattern.capitalize() if lang == "en" and rng.random() < 0.3 else pattern
                if lang == "zh" and rng.random() < 0.5:
                    message += "？"
                family = "record_question" if label == "question" else "new_question"
                added.append(
                    _asked_row(rng, base, message, label, family, f"{lang}:{label}:{pattern}")
                )
    added.extend(_said_then_asked(records, seed))
    return added


def _said_then_asked(
    records: dict[str, list[dict[str, object]]], seed: int
) -> list[dict[str, object]]:
    """What the user did or suspects, then a question about what comes next or whether that is
    the cause: one of each for a sample of the records, with a random stream of its own so the
    questions above keep their rows."""
    rng = random.Random(f"{seed}-said-then-asked")
    added: list[dict[str, object]] = []
    for lang, bases in records.items():
        for base in rng.sample(bases, k=min(len(bases), 90 if lang == "en" else 60)):
            for family, (said, asks, forms) in (
                ("done_then_ask", DONE_THEN_ASK[lang]),
                ("cause_guess", CAUSE_GUESS[lang]),
            ):
                form = rng.choice(forms)
                message = form.format(d=rng.choice(said), a=rng.choice(asks))
                if lang == "en" and rng.random() < 0.4:
                    message = message[0].upper() + message[1:]
                added.append(
                    _asked_row(rng, base, message, "question", family, f"{lang}:{family}:{form}")
                )
    return added


def _asked_row(
    rng: random.Random,
    base: dict[str, object],
    message: str,
    label: str,
    family: str,
    template: str,
) -> dict[str, object]:
    """`message` sent in `base`'s thread: by its requester nine times in ten, some time
    after the record last changed."""
    return {
        **base,
        "message": message,
        "same_user": rng.random() < 0.9,
        "minutes": round(rng.uniform(1.0, 900.0), 1),
        "label": label,
        "family": family,
        "template": template,
    }
