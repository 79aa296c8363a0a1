"""Equipment requests: a request for a thing (a monitor, a mouse, a laptop for a new joiner).

An order needs the item, who it is for when that is not the asker, and where it goes; it
has no target service, no change window and no change-advisory-board policy, so the change
controller files it as its own kind of record (`KIND`) instead of a change. The item is taken
only from a recognised piece of equipment (or the asker's answer when the bot asks for it),
never from the words around it; "for the intern starting next week" and "送到 5 楼前台" are
kept as they were written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.lazy import LazyPattern

__all__ = ["KIND", "LABEL", "EquipmentRequest", "read_request"]

#: The record kind (`controllers.ids.PREFIXES`) and the label a reply names it by.
KIND = "equipment"
LABEL = "equipment request"

#: Things an employee orders, longest first so "laptop stand" is not read as "laptop".
_ITEMS_EN = (
    r"laptop stand|monitor arm|monitor stand|docking station|usb-?c hub|usb hub|usb-?c adapter|"
    r"hdmi (?:cable|adapter)|display ?port cable|power adapter|laptop charger|phone charger|"
    r"wireless mouse|ergonomic (?:mouse|keyboard)|mouse pad|mousepad|desk phone|conference phone|"
    r"noise[- ]cancell?ing headphones|external (?:monitor|screen|keyboard|drive|hard drive)|"
    r"second (?:monitor|screen)|headset|headphones|earphones|webcam|web cam|monitor|screen|"
    r"display|keyboard|mouse|trackpad|trackball|charger|adapter|dongle|dock|cable|laptop|"
    r"notebook|macbook|thinkpad|desktop|workstation|tablet|ipad|iphone|mobile phone|work phone|"
    r"phone|yubikey|security key|smart ?card reader|card reader|hard drive|ssd|usb stick|"
    r"flash drive|speaker|microphone|mic|stylus|pen tablet|printer|scanner|projector|whiteboard"
)
_ITEMS_ZH = (
    r"笔记本支架|显示器支架|电脑支架|支架|扩展坞|拓展坞|转接头|转换头|转接线|充电器|电源适配器|"
    r"适配器|无线鼠标|鼠标垫|鼠标|无线键盘|键盘|耳麦|耳机|摄像头|显示器|屏幕|副屏|笔记本电脑|"
    r"笔记本|台式机|电脑|平板|手机|座机|话机|移动硬盘|硬盘|U盘|u盘|音箱|麦克风|打印机|扫描仪|"
    r"投影仪|数位板|读卡器|网线|数据线|HDMI线"
)
#: An English item is a word of its own among Latin letters only: mixed text writes it against
#: Chinese ("需要准备laptop"), where `\b` sees no boundary.
_ITEM = LazyPattern(
    rf"(?<![A-Za-z0-9])(?P<en>{_ITEMS_EN})s?(?![A-Za-z0-9])|(?P<zh>{_ITEMS_ZH})", re.I
)
#: What joins the items of a list, with the words an item may open with ("a laptop, a
#: monitor and two headsets", "电脑、显示器和键盘").
_AND_ANOTHER = LazyPattern(
    r"\s*(?:,|&|\band\b|\bplus\b|、|和|及|以及|还有|，)\s*(?:and\s+)?"
    r"(?:(?:a|an|one|two|three|\d+|new|second|spare|extra|external)\s+)*"
    r"(?:[一两二三四五\d]\s*[个台副套只块]\s*)?",
    re.I,
)
#: A request for equipment that names no item yet ("I need some new equipment").
_GENERIC = LazyPattern(r"\b(?:equipment|hardware|peripherals?|gear)\b|设备|外设|硬件", re.I)
#: Who it is for, when not the asker ("for the intern starting next week", "for Priya",
#: "给新来的实习生").
_FOR_EN = LazyPattern(
    r"\bfor (?P<who>(?:(?:the|our|my|a|an|two|three|\d+) )?(?:new )?(?:intern|joiner|starter|"
    r"hire|employee|colleague|contractor|team ?mate|analyst|engineer|developer|manager|"
    r"designer|team|student|temp|guest|visitor)s?\b(?: [\w-]+){0,5}?"
    r"|[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?=$|[,.;!?]| who| starting| joining| on | from | at | in )",
)
_FOR_ZH = LazyPattern(
    r"(?:给|为)(?P<who>(?:新来的|新入职的|新|下周来的|明天来的)?(?:实习生|同事|员工|入职的同事|"
    r"新人|外包|顾问|访客)[\u4e00-\u9fff]{0,4}?)(?=[，。,.!！?？\s]|申请|准备|配|要|买|订|领|$)"
)
#: Where it goes ("to desk 4F-12", "at the Shanghai office", "送到 5 楼前台").
_DELIVERY_EN = LazyPattern(
    r"\b(?:deliver(?:ed)? to|send (?:it )?to|sent to|to my desk|at my desk|to desk|at desk|"
    r"to the (?=[\w ]*(?:office|floor|reception))|at the (?=[\w ]*(?:office|floor|reception)))"
    r"\s*(?P<where>[\w-]+(?: (?!for\b|by\b|before\b|please\b|asap\b)[\w-]+){0,4})",
    re.I,
)
_DELIVERY_ZH = LazyPattern(r"(?:送到|寄到|放到|送去|寄给)\s*(?P<where>[\w\u4e00-\u9fff-]{2,16})")
#: How many ("two monitors", "3 headsets", "两个显示器").
_COUNT = LazyPattern(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|ten|a couple of|a pair of)\s+(?:new\s+|more\s+|"
    r"extra\s+|spare\s+)?(?=\w)"
    r"|(?P<zh>[两二三四五六七八九十\d]{1,3})\s*(?:个|台|副|套|只|块)",
    re.I,
)


@dataclass(frozen=True, slots=True)
class EquipmentRequest:
    """What an equipment order says: the item (None when none is recognised yet), who it is
    for when not the asker, where it goes and how many, each only when the message says."""

    item: str | None
    recipient: str | None
    deliver_to: str | None
    quantity: str | None

    def fields(self) -> dict[str, str | None]:
        """The record's fields, in the order a reply shows them."""
        return {
            "item": self.item,
            "quantity": self.quantity,
            "for": self.recipient,
            "deliver_to": self.deliver_to,
        }


def read_request(text: str) -> EquipmentRequest | None:
    """The equipment the message asks for, or None when it names neither an item nor
    equipment in general."""
    item = _ITEM.search(text)
    if item is None and not _GENERIC.search(text):
        return None
    return EquipmentRequest(
        item=_items(text, item) if item else None,
        recipient=_recipient(text),
        deliver_to=_delivery(text),
        quantity=_quantity(text, item.start() if item else -1),
    )


def names_item(text: str) -> bool:
    """Does the message name a piece of equipment?"""
    return _ITEM.search(text) is not None


def _item_name(match: re.Match[str]) -> str:
    return (match["en"] or "").lower() or match["zh"]


def _items(text: str, first: re.Match[str]) -> str:
    """The item, or the items of a list that starts with it ("a laptop and a monitor",
    "电脑、显示器"), written as one: an order for several things is one order."""
    names = [_item_name(first)]
    at = first.end()
    while (joined := _AND_ANOTHER.match(text, at)) and (item := _ITEM.match(text, joined.end())):
        if _item_name(item) not in names:
            names.append(_item_name(item))
        at = item.end()
    return ("、" if first["zh"] else ", ").join(names)


def _recipient(text: str) -> str | None:
    found = _FOR_EN.search(text) or _FOR_ZH.search(text)
    return found["who"].strip() if found else None


def _delivery(text: str) -> str | None:
    found = _DELIVERY_EN.search(text) or _DELIVERY_ZH.search(text)
    return found["where"].strip() if found else None


def _quantity(text: str, item_at: int) -> str | None:
    """The count written just before the item ("two monitors", "两台显示器"), if any."""
    if item_at < 0:
        return None
    for found in _COUNT.finditer(text):
        if 0 <= item_at - found.end() <= 8:
            return (found["n"] or found["zh"]).lower()
    return None
