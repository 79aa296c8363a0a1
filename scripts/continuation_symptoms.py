"""What a user sees next, for the continuation set's train split (`make_continuation_set.py`):
the symptoms a person describes after a report, in words that share nothing with it.

"my laptop won't turn on", then "the fan spins but the screen stays dark": a person describes
what they see, not the category they reported, and the model read such a sentence as a new
problem (P(continue) 0.03) because nothing but its topic ties it to the record. The progress
family (`continuation_progress`) holds one or two symptoms per topic; this one holds many per
topic, for many more devices, applications and places, and, as new work, reports of other
areas' problems in the same thread (unmarked or marked), so the model learns whether the two are
about one thing. Other topics' symptoms were tried as new work too and cost the held-out
author's follow-ups (continued 0.923 -> 0.855): a bare symptom in a thread is nearly always
about the thread's problem.

How they were written: per topic, in English and Chinese separately, the ways a report is first
made and five to eight things a user then observes (lights, sounds, screens, timings, what
works and what does not), in words written for this file (none from the conversation
benchmark's splits). Each thread is a topic's report, two or three of its symptoms, and one or
two reports of other areas as new. The folds keep a topic together, so
calibration sees topics it was not fitted on. Appended after the other families with a random
stream of their own, so the other rows do not move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Symptoms:
    """One problem, the ways it is reported and what its reporter sees next."""

    #: What it is about; another topic's line is new work only from another area (a projector's
    #: blank wall after a monitor's report may well be the same problem).
    area: str
    reports: Sequence[str]
    seen: Sequence[str]
    kind: str = "incident"


S = Symptoms
EN: tuple[Symptoms, ...] = (
    S(
        "device",
        ["my laptop won't turn on", "laptop is dead, won't power up", "my notebook won't start"],
        [
            "the fan spins but the screen stays dark",
            "the charging light comes on, nothing else",
            "it clicks once when I press power and that's it",
            "the caps lock key blinks three times",
            "the keyboard backlight flashes then goes off",
            "I can hear it humming but no picture",
            "the logo shows for a second then it shuts off",
            "it gets warm on the bottom but stays black",
        ],
    ),
    S(
        "display",
        ["my monitor has no picture", "external screen shows nothing", "second display is blank"],
        [
            "the little light on it goes orange",
            "it says no signal and then sleeps",
            "it wakes up for a moment when I wiggle the cable",
            "the menu button still works on it",
            "my laptop's own screen is fine",
            "windows sees two displays but one stays black",
        ],
    ),
    S(
        "mail",
        ["outlook keeps crashing", "my mail app closes by itself", "outlook won't stay open"],
        [
            "it freezes first, then the window goes white",
            "it dies as soon as I click send",
            "the spinning wheel shows and then it's gone",
            "it happens right after the sync bar fills",
            "a box pops up asking to start in safe mode",
            "the calendar tab is the one that kills it",
        ],
    ),
    S(
        "network",
        ["the wifi is really slow", "internet on floor 4 is terrible", "wireless keeps dropping"],
        [
            "pages take a minute to load and calls stutter",
            "my phone gets full bars but nothing loads",
            "speed test gives under one megabit",
            "video calls freeze every few minutes",
            "it's fine near the kitchen and awful at my desk",
            "the icon shows a yellow exclamation",
        ],
    ),
    S(
        "network",
        ["the VPN won't connect", "I can't get on the VPN from home", "GlobalProtect fails"],
        [
            "it sits on 'connecting' forever",
            "it gets to authenticating and gives up",
            "it connects and drops after about a minute",
            "the little shield turns red",
            "it asks for the code from my phone then times out",
            "browsing works, only intranet sites fail",
        ],
    ),
    S(
        "audio",
        ["my headset doesn't work", "no sound in my headphones", "the jabra headset is broken"],
        [
            "people hear me but I can't hear them",
            "there's a loud buzz in the left ear",
            "it shows as connected but audio comes out of the laptop",
            "the mute light is stuck on",
            "the sound cuts in and out every few seconds",
            "the mic picks up nothing in teams",
        ],
    ),
    S(
        "print",
        ["the printer isn't working", "can't print anything", "printing on floor 2 is broken"],
        [
            "the job sits in the queue and never leaves",
            "it pulls the paper in then stops",
            "pages come out with grey streaks",
            "the display asks for a pin I don't have",
            "it prints half a page then beeps",
            "the status says offline though it's on",
        ],
    ),
    S(
        "mail",
        [
            "my phone isn't getting work email",
            "mail on my mobile stopped",
            "no emails on my iphone",
        ],
        [
            "the inbox shows last tuesday as newest",
            "pull to refresh just spins",
            "it keeps asking me to sign in again",
            "calendar still updates, only mail is stuck",
            "a banner says the account needs attention",
            "sent messages sit in the outbox",
        ],
    ),
    S(
        "meeting",
        ["teams is not working", "I can't join meetings in teams", "teams keeps failing"],
        [
            "it shows the purple loading screen forever",
            "my camera is black for everyone else",
            "chats load but calls drop after ten seconds",
            "the join button is greyed out",
            "it says we're having trouble connecting",
            "others see me frozen while I hear them",
        ],
    ),
    S(
        "device",
        ["my computer is really slow", "laptop has become very sluggish", "pc is crawling"],
        [
            "the fan is loud all the time",
            "opening a folder takes half a minute",
            "the mouse pointer jumps and lags",
            "task manager shows disk at 100 percent",
            "it takes ten minutes to get to the desktop",
            "typing appears a second late",
        ],
    ),
    S(
        "files",
        ["the shared drive is not accessible", "I can't open the team share", "S: drive is gone"],
        [
            "the drive letter has a red cross on it",
            "it asks for a password and then rejects it",
            "folders show but files won't open",
            "it worked until lunch, now nothing",
            "colleagues next to me can get in fine",
            "explorer hangs when I click on it",
        ],
    ),
    S(
        "display",
        ["the projector in room 3 doesn't work", "can't present in the boardroom"],
        [
            "the wall stays blue with no image",
            "my slides show but the colours are wrong",
            "the picture flickers every few seconds",
            "it shows the logo and then switches itself off",
            "the remote does nothing at all",
            "sound comes through but no picture",
        ],
    ),
    S(
        "device",
        ["my docking station stopped working", "the dock isn't doing anything"],
        [
            "the screens wake but the keyboard is dead",
            "the charging light on the laptop stays off",
            "the network light on it never blinks",
            "it works for an hour and then drops everything",
            "unplugging and plugging back gets one screen back",
        ],
    ),
    S(
        "web",
        ["the website is down", "our public site isn't loading", "customers can't reach the site"],
        [
            "it shows a white page with bad gateway",
            "the homepage loads but checkout spins",
            "images are missing and the layout is broken",
            "it takes forty seconds to respond",
            "mobile works, desktop browsers don't",
        ],
    ),
    S(
        "data",
        ["the finance dashboard is broken", "the sales report looks wrong"],
        [
            "the totals are half of what they were yesterday",
            "the charts are empty since this morning",
            "the date filter jumps back to january",
            "one region shows zero for every week",
            "export gives a file with only headers",
        ],
    ),
    S(
        "account",
        ["I can't log in to my laptop", "windows won't let me sign in"],
        [
            "it says the trust relationship failed",
            "the screen goes black after I type my pin",
            "it accepts the password and loops back to the lock screen",
            "the keyboard layout switched and symbols come out wrong",
            "it shows 'other user' instead of my name",
        ],
    ),
    S(
        "peripheral",
        ["my mouse isn't working", "the trackpad is broken"],
        [
            "the pointer drifts to the corner by itself",
            "clicks only register every other time",
            "scrolling goes the wrong way suddenly",
            "it moves in jumps instead of smoothly",
            "the light underneath is off",
        ],
    ),
    S(
        "app",
        ["the app keeps freezing", "salesforce hangs all day", "the crm is unusable"],
        [
            "every save takes about thirty seconds",
            "the page turns grey and nothing responds",
            "search returns nothing even for my own accounts",
            "it logs me out every few minutes",
            "the attachments tab never finishes loading",
        ],
    ),
    S(
        "ci",
        ["the build pipeline is failing", "CI is broken on our repo", "jenkins jobs are red"],
        [
            "it stops at the test stage with exit code 137",
            "the runner never picks the job up",
            "it passes locally but times out there",
            "the docker pull step hangs",
            "the logs end abruptly with no error",
        ],
    ),
    S(
        "device",
        ["my laptop battery is bad", "battery drains really fast"],
        [
            "it goes from full to empty in an hour",
            "it shuts off at 30 percent",
            "the bottom bulges a little and the trackpad clicks hard",
            "it says plugged in, not charging",
            "it gets very hot near the hinge",
        ],
    ),
    S(
        "badge",
        ["my badge doesn't open the door", "access card stopped working"],
        [
            "the reader beeps red twice",
            "it works at the front gate but not on my floor",
            "the light doesn't react at all when I tap it",
            "it opened yesterday evening, not this morning",
        ],
    ),
    S(
        "audio",
        ["the conference phone is broken", "polycom in room 5 doesn't work"],
        [
            "the display is on but there's no dial tone",
            "people say we sound like robots",
            "it drops the call after a minute",
            "the red lights stay on the whole time",
        ],
    ),
)

ZH: tuple[Symptoms, ...] = (
    S(
        "device",
        ["我的电脑开不了机", "笔记本开机没反应", "电脑按电源键没用"],
        [
            "风扇在转但是屏幕一直黑着",
            "充电灯亮着，别的都没反应",
            "按电源只响一声就没了",
            "大写键的灯闪三下",
            "能听到嗡嗡声但是没画面",
            "出来个标志就又关了",
        ],
    ),
    S(
        "display",
        ["显示器没有画面", "外接屏幕不亮", "第二块屏黑屏"],
        [
            "屏幕上的小灯是橙色的",
            "显示无信号然后就休眠了",
            "动一下线会亮一下",
            "笔记本自己的屏幕是好的",
            "系统里能看到两个屏，但一个一直黑",
        ],
    ),
    S(
        "mail",
        ["outlook 老是崩溃", "邮箱客户端自己关掉", "outlook 打不开"],
        [
            "先卡住然后窗口变白",
            "一点发送就闪退",
            "同步条走满就没了",
            "弹出来问要不要用安全模式启动",
            "点日历的时候最容易挂",
        ],
    ),
    S(
        "network",
        ["网络特别慢", "四楼的无线网很差", "wifi 老断"],
        [
            "网页要一分钟才打开，开会卡成幻灯片",
            "手机信号满格但是什么都加载不出来",
            "测速不到一兆",
            "视频会议几分钟就卡住",
            "在茶水间还行，到工位就不行",
        ],
    ),
    S(
        "network",
        ["VPN 连不上", "在家登不上 VPN", "GlobalProtect 用不了"],
        [
            "一直停在正在连接",
            "到验证那一步就放弃了",
            "连上一分钟就掉",
            "要手机验证码然后超时",
            "外网能上，只有内网系统打不开",
        ],
    ),
    S(
        "audio",
        ["耳机没声音", "我的耳麦坏了"],
        [
            "别人能听到我，我听不到他们",
            "左边耳朵一直有杂音",
            "显示已连接但声音从电脑出来",
            "开会的时候麦克风收不到声音",
            "声音几秒钟断一下",
        ],
    ),
    S(
        "print",
        ["打印机用不了", "打印不出来", "二楼打印机坏了"],
        [
            "任务一直在队列里不动",
            "把纸吸进去就停了",
            "打出来有灰色条纹",
            "屏幕上要输入一个我没有的密码",
            "打半页就开始响",
        ],
    ),
    S(
        "device",
        ["电脑特别卡", "笔记本变得很慢"],
        [
            "风扇一直呼呼响",
            "打开一个文件夹要半分钟",
            "鼠标指针一跳一跳的",
            "任务管理器里磁盘百分之百",
            "开机要十分钟才进桌面",
        ],
    ),
    S(
        "files",
        ["共享盘打不开", "团队共享文件夹进不去"],
        [
            "盘符上有个红叉",
            "让我输密码然后又说不对",
            "文件夹能看到但文件打不开",
            "旁边的同事都能进",
            "一点就资源管理器卡死",
        ],
    ),
    S(
        "display",
        ["会议室投影仪不能用", "大会议室没法投屏"],
        [
            "墙上一直是蓝屏没有画面",
            "能投出来但是颜色不对",
            "画面几秒钟闪一次",
            "遥控器按了没反应",
            "有声音没画面",
        ],
    ),
    S(
        "mail",
        ["手机收不到公司邮件", "手机上的邮箱不同步了"],
        [
            "收件箱最新的还是上周二的",
            "下拉刷新一直转圈",
            "一直让我重新登录",
            "日历还在更新，就邮件不动",
            "发出去的都卡在发件箱",
        ],
    ),
    S(
        "badge",
        ["门禁卡刷不开门", "工卡用不了了"],
        [
            "读卡器响两声亮红灯",
            "大门能进，我那层进不去",
            "刷上去灯完全没反应",
            "昨天晚上还能用，今天早上就不行了",
        ],
    ),
)

#: How another topic's line is sometimes marked as new (the rest are unmarked).
MARKERS = {"en": ["also", "oh and", "separately,", "different thing:"],
           "zh": ["另外，", "还有个事，", "顺便说一下，"]}  # fmt: skip


def _thread(
    rng: random.Random, lang: str, index: int, topic: Symptoms, topics: Sequence[Symptoms]
) -> list[dict[str, object]]:
    """One thread: the topic's report, two or three of its symptoms, then one or two reports of
    other areas as new."""
    record = rng.choice(list(topic.reports))
    minutes = rng.choice([1.0, 5.0, 20.0, 90.0, 600.0])

    def row(message: str, label: str, family: str) -> dict[str, object]:
        if lang == "en" and rng.random() < 0.3:
            message = message.capitalize()
        return {
            "split": "train",
            "lang": lang,
            "kind": topic.kind,
            "record": record,
            "question": "",
            "message": message,
            "same_user": rng.random() < 0.9,
            "minutes": round(minutes * rng.uniform(0.3, 3.0), 1),
            "label": label,
            "family": family,
            "domain": f"{lang}-symptom{index}",
            # One group per topic: calibrated on topics it was not fitted on.
            "template": f"{lang}:symptom:{index}",
        }

    rows = [row(s, "update", "symptom") for s in rng.sample(list(topic.seen), k=rng.choice([2, 3]))]
    for _ in range(rng.choice([1, 2])):
        other = rng.choice([t for t in topics if t.area != topic.area])
        text = rng.choice(list(other.reports))
        if rng.random() < 0.25:
            lead = rng.choice(MARKERS[lang])
            text = f"{lead} {text}" if lang == "en" else lead + text
        rows.append(row(text, "new", "new_topic"))
    return rows


def symptom_rows(seed: int, threads_per_topic: int = 5) -> list[dict[str, object]]:
    """Train rows: each topic's threads with its symptoms and other topics' lines as new."""
    rng = random.Random(f"{seed}-symptoms")
    rows: list[dict[str, object]] = []
    for lang, topics in (("en", EN), ("zh", ZH)):
        for index, topic in enumerate(topics):
            for _ in range(threads_per_topic):
                rows.extend(_thread(rng, lang, index, topic, topics))
    return rows
