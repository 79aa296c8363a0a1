"""Short new problems and requests said in a thread about something else, for the continuation
set (`make_continuation_set.py`): "我的打印机坏了" after an access request, "my badge doesn't
open the door" after a VPN report. Bare, with no "also" or "另外" before them, they look like the
short reports that do continue a record ("还是坏了", "still broken"), so the model must learn
them from what they are about, not from a connector.

How they were written: per language, one message per thing that goes wrong or is wanted at
work, across IT (devices, accounts, applications, network), facilities (rooms, air
conditioning, doors, lifts, parking), HR and finance (payslips, leave, expenses, travel) and
office life, each a few words as typed in a chat; then, for the held-out split, another list
with other things and other wordings, written apart and never read while fitting. A message
is added to a thread only when it shares little with the thread's record (`_overlap` at most
0.2), so "三楼打印机卡纸了" is never labelled new in a printer thread, and only to a thread
where the bot is waiting for no answer: there a short reply naming a thing ("the wifi I
guess" for the category) is the answer far more often than a new problem. The rows are appended
after the generated threads with a random stream of their own, so the other rows do not move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

SHORT_NEW: dict[tuple[str, str], Sequence[str]] = {
    ("train", "en"): [
        "my printer is broken",
        "the printer on 3 is jammed",
        "my monitor keeps flickering",
        "my mouse stopped working",
        "keyboard is dead",
        "my headset has no sound",
        "outlook won't open",
        "teams keeps crashing",
        "my laptop won't turn on",
        "laptop battery drains really fast",
        "the wifi is down on floor 2",
        "can't log into the VPN",
        "my password expired",
        "I'm locked out of my account",
        "I need a new charger",
        "can I get a second monitor",
        "the projector in room 5 won't connect",
        "the aircon in our area is freezing",
        "the coffee machine is leaking",
        "my badge doesn't open the door",
        "the lift on the east side is stuck",
        "the toilet on 4 is blocked",
        "my payslip is missing",
        "my expense claim got rejected",
        "the travel booking site is down",
        "I can't see my leave balance",
        "the shared drive is full",
        "excel keeps freezing",
        "zoom has no audio",
        "my phone stopped syncing email",
        "my webcam is just black",
        "the meeting room screen is blank",
        "my desk lamp is broken",
        "the parking gate won't open",
        "I need a parking permit",
        "the jenkins build is failing",
        "the wiki is super slow",
        "slack notifications stopped",
        "I got a weird phishing email",
        "my calendar invites vanished",
        "blue screen on my pc",
        "the power socket at my desk is dead",
        "the water dispenser is empty",
        "I lost my access card",
        "need Photoshop installed",
        "the heating is off in the east wing",
    ],
    ("train", "zh"): [
        "我的打印机坏了",
        "打印机卡纸了",
        "显示器一直闪",
        "鼠标没反应了",
        "键盘有几个键失灵",
        "耳机没声音",
        "Outlook打不开",
        "Teams老是闪退",
        "电脑开不了机",
        "笔记本电池掉电很快",
        "二楼的wifi断了",
        "VPN登不上",
        "密码过期了",
        "账号被锁了",
        "我需要一个新的充电器",
        "能再给我配一个显示器吗",
        "五号会议室的投影连不上",
        "我们这边空调太冷了",
        "咖啡机漏水了",
        "门禁卡刷不开门",
        "东边电梯卡住了",
        "四楼厕所堵了",
        "工资条看不到",
        "报销被退回了",
        "差旅系统打不开",
        "看不到年假余额",
        "共享盘满了",
        "Excel一直卡死",
        "Zoom没有声音",
        "手机收不到邮件",
        "摄像头黑屏",
        "会议室大屏不亮",
        "台灯坏了",
        "停车场闸机抬不起来",
        "想申请一个停车位",
        "Jenkins构建失败了",
        "wiki特别慢",
        "Slack收不到通知",
        "收到一封可疑的钓鱼邮件",
        "日历里的会议邀请都不见了",
        "我的电脑蓝屏了",
        "工位的插座没电",
        "饮水机没水了",
        "我的工牌丢了",
        "需要装一个Photoshop",
        "东区暖气不热",
    ],
    ("holdout", "en"): [
        "the scanner won't send to email",
        "my docking station stopped charging",
        "the kitchen fridge is warm",
        "sharepoint won't let me upload",
        "can't find my tax form in the HR portal",
        "the badge reader at the back entrance is beeping red",
        "my second screen shows nothing",
        "the bike room lock is jammed",
        "my corporate card was declined",
        "onedrive says it's out of space",
        "the speakerphone in the boardroom crackles",
        "my chair is broken",
        "no hot water in the kitchen",
        "need a license for Visio",
        "the guest wifi keeps kicking people off",
        "the intranet search returns nothing",
    ],
    ("holdout", "zh"): [
        "扫描仪发不了邮件",
        "扩展坞不充电了",
        "茶水间冰箱不制冷",
        "SharePoint传不了文件",
        "HR系统里找不到个税表",
        "后门的刷卡器一直响",
        "副屏没显示",
        "自行车棚的锁打不开",
        "公司卡刷不了",
        "OneDrive空间不够了",
        "大会议室的电话有杂音",
        "椅子坏了",
        "茶水间没热水",
        "要一个Visio的授权",
        "访客网络老是掉",
        "内网搜索搜不到东西",
    ],
}


def short_new_rows(
    rows: Sequence[dict[str, object]],
    split: str,
    overlap: Callable[[str, str], float],
    seed: int = 7,
) -> list[dict[str, object]]:
    """One or two short new messages for about half of the split's threads that wait for no
    answer (each thread's first row gives the record), labelled `new`, family `new_short`."""
    rng = random.Random(f"{seed}-{split}-short")
    added: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    for row in rows:
        key = (str(row["record"]), str(row["question"]))
        if row["split"] != split or row["question"] or key in seen:
            continue
        seen.add(key)
        if rng.random() < 0.5:
            continue
        pool = SHORT_NEW[(split, str(row["lang"]))]
        for message in rng.sample(list(pool), k=rng.choice([1, 1, 2])):
            if overlap(message, str(row["record"])) > 0.2:
                continue
            text = message.lower() if row["lang"] == "en" and rng.random() < 0.4 else message
            added.append(
                {
                    **row,
                    "message": text,
                    "same_user": rng.random() < 0.85,
                    "minutes": round(rng.uniform(0.5, 600.0), 1),
                    "label": "new",
                    "family": "new_short",
                    "template": f"{row['lang']}:new_short:{message}",
                }
            )
    return added
