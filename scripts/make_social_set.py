"""Write brain/data/social_acts.jsonl: messages that only greet, thank or close a talk.

`greeting` says hello or makes small talk with no request ("hi there", "how's it going?",
"在吗"); `thanks` thanks or praises a help ("thanks, that fixed it", "辛苦了"); `closing`
acknowledges or says goodbye ("ok cool", "got it", "bye", "收到", "晚安"). `none` is every
other message: the speech-act set's questions, problems and requests (read from
`brain/data/speech_acts.jsonl` at fit time, not copied here), and here the messages that open or
close with a social phrase around a request ("hi, my laptop will not boot", "thanks, but the
printer still jams", "谢了，另外能帮我开通 Jira 吗"): those are requests; and terse messages
that are no social act ("vpn", "still broken", "help", "yes", "进度呢"). Questions about the
bot itself ("who are you", "what can you do?") are greetings: the greeting's reply says what
it does.

The `train` split's phrases were written first; the `holdout` split was written after them,
with its own phrases and requests (none shared), and is never fitted or tuned on; both were
written by the same hand as the model, so its figure is one of wordings the fit has not seen,
not of another author's. `template` names the phrase, so cross-validation keeps a phrase's
rows (its decorated forms) in one fold.

Run: .venv/bin/python scripts/make_social_set.py [--fit]; `--fit` then fits the social-act
model (`brain.chain.social`) on the train split and ships it beside the data
(`brain/data/social-<key>.npz`).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "brain" / "data" / "social_acts.jsonl"
#: Decorated forms per phrase.
PER_PHRASE = 3

TRAIN = {
    "greeting": {
        "en": [
            "hi",
            "hello",
            "hey",
            "hi there",
            "hello there",
            "hey there",
            "good morning",
            "morning",
            "good afternoon",
            "hi team",
            "hello bot",
            "hi again",
            "hey, how are you?",
            "how are you doing",
            "how's it going?",
            "hope you are well",
            "what's up",
            "greetings",
            "hi all",
            "howdy",
            "yo",
            "hello, anyone there?",
            "are you there?",
            "hi, it's me again",
            "good day",
            "who are you",
            "what can you do?",
            "are you a bot?",
            "what are you",
        ],
        "zh": [
            "你好",
            "您好",
            "早上好",
            "早",
            "下午好",
            "在吗",
            "哈喽",
            "嗨",
            "你好呀",
            "大家好",
            "你好，机器人",
            "最近好吗",
            "在不在",
            "早安",
            "有人吗",
            "您好，打扰了",
            "你是谁",
            "你能做什么",
            "你是机器人吗",
        ],
    },
    "thanks": {
        "en": [
            "thanks",
            "thank you",
            "thx",
            "ty",
            "thanks a lot",
            "many thanks",
            "thank you so much",
            "cheers",
            "appreciate it",
            "thanks, that fixed it",
            "great, it works now, thanks",
            "perfect, thank you",
            "awesome, thanks",
            "much appreciated",
            "you're a star",
            "that helped, thanks",
            "brilliant, cheers",
            "thanks for the quick help",
            "works like a charm now, thank you",
            "thank you very much",
            "great job, thanks",
            "nice, thanks!",
        ],
        "zh": [
            "谢谢",
            "多谢",
            "谢谢你",
            "感谢",
            "非常感谢",
            "谢啦",
            "好的谢谢",
            "搞定了，谢谢",
            "太好了，谢谢",
            "辛苦了",
            "麻烦你了，谢谢",
            "已经好了，谢谢",
            "感谢帮忙",
            "谢谢，解决了",
            "可以了，多谢",
            "太棒了，谢谢",
        ],
    },
    "closing": {
        "en": [
            "ok",
            "okay",
            "ok cool",
            "got it",
            "bye",
            "goodbye",
            "see you",
            "have a nice day",
            "good night",
            "talk later",
            "cool",
            "sounds good",
            "alright",
            "noted",
            "great",
            "ok, will do",
            "understood, thanks",
            "see you tomorrow",
            "bye for now",
            "all good",
            "fine",
            "ok then",
        ],
        "zh": [
            "好的",
            "好",
            "知道了",
            "收到",
            "明白了",
            "拜拜",
            "再见",
            "回头见",
            "晚安",
            "好嘞",
            "行",
            "没问题",
            "了解了",
            "好的，明白",
            "嗯嗯",
            "先这样",
        ],
    },
}

HOLDOUT = {
    "greeting": {
        "en": [
            "hiya",
            "good evening",
            "what do you do?",
            "are you human?",
            "hey folks",
            "morning all",
            "how's your day going?",
            "hello hello",
            "hey buddy",
            "hi, happy monday",
            "evening!",
            "hey you",
        ],
        "zh": [
            "你好啊",
            "各位早",
            "嗨，在不在",
            "晚上好呀",
            "中午好",
            "哈喽哈喽",
            "老师好",
            "周一好",
            "你会干嘛",
        ],
    },
    "thanks": {
        "en": [
            "thanks heaps",
            "ta",
            "grateful for the help",
            "appreciate you",
            "that did the trick, thanks",
            "legend, thank you",
            "super helpful, thanks",
            "thanks mate",
            "thank you kindly",
            "many thanks for sorting it",
        ],
        "zh": [
            "感谢感谢",
            "谢了",
            "太感谢了",
            "谢谢你的帮助",
            "真是帮大忙了",
            "多谢多谢",
            "谢谢，没问题了",
            "给你点个赞",
        ],
    },
    "closing": {
        "en": [
            "catch you later",
            "later!",
            "have a good weekend",
            "roger that",
            "understood",
            "will do",
            "cheers, bye",
            "ok sure",
            "cool cool",
            "that's all",
        ],
        "zh": [
            "好的收到",
            "了解",
            "周末愉快",
            "下次见",
            "辛苦啦，再见",
            "OK的",
            "没事了",
            "那就这样吧",
        ],
    },
}

#: Terse messages that are no social act (`none`): a topic, a report, a plea, an answer.
TRAIN_TERSE = {
    "en": [
        "vpn",
        "printer",
        "outlook",
        "wifi",
        "password",
        "laptop",
        "badge",
        "jira",
        "monitor",
        "email",
        "zoom",
        "still broken",
        "not working",
        "broken again",
        "down",
        "error 500",
        "same problem",
        "help",
        "help me",
        "urgent",
        "asap",
        "please hurry",
        "yes",
        "no",
        "maybe",
        "both",
        "the second one",
        "any update?",
        "why?",
        "how?",
        "when?",
        "status?",
        "urgent!!",
        "vpn down",
        "printer jammed",
        "need help",
    ],
    "zh": [
        "打印机",
        "密码",
        "网络",
        "电脑",
        "邮箱",
        "权限",
        "还是不行",
        "又坏了",
        "打不开",
        "急",
        "救命",
        "帮忙",
        "是的",
        "不是",
        "对",
        "进度呢",
        "为什么",
        "怎么办",
        "报错",
        "登录不了",
        "VPN",
        "急急急",
    ],
}
HOLDOUT_TERSE = {
    "en": [
        "scanner",
        "sso",
        "teams",
        "keyboard",
        "broken",
        "doesn't work",
        "hurry please",
        "need assist",
        "the first one",
        "nope",
        "any news?",
        "crashed",
        "mfa",
        "still down",
    ],
    "zh": [
        "显示器",
        "登不上",
        "卡了",
        "没网",
        "不对",
        "第一个",
        "蓝屏",
        "快点",
        "有进展吗",
        "投影仪",
    ],
}

#: Requests wrapped in a social phrase: `none` (the message asks for something).
TRAIN_MIXED = {
    "en": [
        "hi, my laptop will not boot",
        "hello, I need access to the finance share",
        "good morning, the printer on floor 3 is jammed",
        "hey, how do I reset my password?",
        "thanks, but the VPN still drops every hour",
        "ok, and can you also order me a monitor",
        "hi team, the wifi in room 4 is down",
        "morning, could someone look at my keyboard",
        "thank you! one more thing: Outlook keeps crashing",
        "bye, and please close INC-0042",
        "hello, is there a shuttle from the station?",
        "hey, can I get a new badge",
        "ok but the error is still 0x80070005",
        "cheers, now I also need Jira access",
    ],
    "zh": [
        "你好，我的电脑开不了机",
        "您好，我想申请财务共享盘的权限",
        "早上好，三楼打印机卡纸了",
        "在吗，VPN 连不上",
        "谢谢，但是还是登录不了",
        "好的，另外帮我订个会议室",
        "你好，怎么修改邮箱密码",
        "收到，不过报错还在",
        "谢谢，再帮我开通一下 Jira",
        "嗨，显示器一直闪",
        "你好，请问报销流程是什么",
        "好的，那 INC-0042 可以关了",
    ],
}
HOLDOUT_MIXED = {
    "en": [
        "hiya, the scanner won't turn on",
        "good evening, I need a new badge",
        "thanks heaps, though Teams still logs me out",
        "roger that, also my mouse is dead",
        "hey folks, is the canteen open on saturday?",
        "later! oh and please reset my MFA",
    ],
    "zh": [
        "感谢感谢，不过打印机还是卡纸",
        "谢了，另外能帮我开通 Confluence 吗",
        "各位早，会议室投影仪坏了",
        "了解，那怎么申请加班餐补",
        "晚上好呀，我的账号被锁了",
        "好的收到，麻烦再装个 Visio",
    ],
}

_TAILS_EN = ["", "!", ".", " :)", " 🙂", "!!", " 👋", "~"]
_TAILS_ZH = ["", "！", "。", "~", "😊", "！！", "哈"]
_NAMES_EN = ["", "", " brain", " bot", " team", " all"]


def _decorated(phrase: str, lang: str, rng: random.Random) -> str:
    """A phrase as people type it: a tail, sometimes an addressee, sometimes capitalised."""
    if lang == "zh":
        return phrase + rng.choice(_TAILS_ZH)
    text = phrase
    if not phrase.endswith(("?", "!")) and len(phrase.split()) <= 2:
        text += rng.choice(_NAMES_EN)
    text += "" if text.endswith(("?", "!")) else rng.choice(_TAILS_EN)
    return text[0].upper() + text[1:] if rng.random() < 0.4 else text


def _rows(table: dict[str, dict[str, list[str]]], split: str, rng: random.Random) -> list[dict]:
    rows = []
    for label, by_lang in table.items():
        for lang, phrases in by_lang.items():
            for number, phrase in enumerate(phrases):
                forms = {_decorated(phrase, lang, rng) for _ in range(PER_PHRASE)} | {phrase}
                for text in sorted(forms):
                    rows.append({"text": text, "label": label, "lang": lang, "split": split,
                                 "template": f"{split}-{label}-{lang}-{number}"})  # fmt: skip
    return rows


def _mixed(table: dict[str, list[str]], split: str, kind: str = "mixed") -> list[dict]:
    return [
        {
            "text": text,
            "label": "none",
            "lang": lang,
            "split": split,
            "template": f"{split}-{kind}-{lang}-{number}",
        }
        for lang, texts in table.items()
        for number, text in enumerate(texts)
    ]


def fit() -> None:
    """Fit the model on the train split and ship it."""
    from brain.chain.social import SHIPPED_NAME, fit_model, labelled_rows
    from core.model_files import ship_fits

    rows = labelled_rows("train")
    for _, path in ship_fits("brain.data", SHIPPED_NAME, lambda _: fit_model(rows), None):
        print(f"wrote {path.name}")


def main() -> None:
    rows = _rows(TRAIN, "train", random.Random(7)) + _mixed(TRAIN_MIXED, "train")
    rows += _mixed(TRAIN_TERSE, "train", "terse")
    rows += _rows(HOLDOUT, "holdout", random.Random(8)) + _mixed(HOLDOUT_MIXED, "holdout")
    rows += _mixed(HOLDOUT_TERSE, "holdout", "terse")
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
    if "--fit" in sys.argv[1:]:
        fit()
