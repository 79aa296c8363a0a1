"""Equipment requests: a request for a thing (a monitor, a mouse, a laptop for a new joiner).

An order needs the item, who it is for when that is not the asker, and where it goes; it
has no target service, no change window and no change-advisory-board policy, so the change
controller files it as its own kind of record (`KIND`) instead of a change. The item is taken
only from a recognised piece of equipment (or the asker's answer when the bot asks for it),
never from the words around it; "for the intern starting next week" and "deliver to the
5th-floor reception" are kept as they were written, in either language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.cues import cues
from core.lazy import LazyPattern

__all__ = ["KIND", "LABEL", "EquipmentRequest", "read_request"]

#: The record kind (`controllers.ids.PREFIXES`) and the label a reply names it by.
KIND = "equipment"
LABEL = "equipment request"

#: The items and the words around an order (`equipment.cues.yaml` beside it; `core.cues`).
_CUES = cues(__name__)
#: Things an employee orders, longest first so "laptop stand" is not read as "laptop".
_ITEMS_EN = _CUES.regex("items_en")
_ITEMS_ZH = _CUES.regex("items_zh")
#: An English item is a word of its own among Latin letters only: mixed text writes it against
#: Chinese characters, where `\b` sees no boundary.
_ITEM = LazyPattern(
    rf"(?<![A-Za-z0-9])(?P<en>{_ITEMS_EN})s?(?![A-Za-z0-9])|(?P<zh>{_ITEMS_ZH})", re.I
)
#: What joins the items of a list, with the words an item may open with ("a laptop, a
#: monitor and two headsets").
_AND_ANOTHER = LazyPattern(_CUES.regex("and_another"), re.I)
#: How a list of Chinese items is written as one.
_LIST_SEPARATOR_ZH = _CUES.text("list_separator_zh")
#: A request for equipment that names no item yet ("I need some new equipment").
_GENERIC = LazyPattern(_CUES.regex("generic"), re.I)
#: Who it is for, when not the asker ("for the intern starting next week", "for Priya").
_FOR_EN = LazyPattern(
    r"\bfor (?P<who>(?:(?:the|our|my|a|an|two|three|\d+) )?(?:new )?(?:intern|joiner|starter|"
    r"hire|employee|colleague|contractor|team ?mate|analyst|engineer|developer|manager|"
    r"designer|team|student|temp|guest|visitor)s?\b(?: [\w-]+){0,5}?"
    r"|[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?=$|[,.;!?]| who| starting| joining| on | from | at | in )",
)
_FOR_ZH = LazyPattern(_CUES.regex("for_zh"))
#: Where it goes ("to desk 4F-12", "at the Shanghai office").
_DELIVERY_EN = LazyPattern(
    r"\b(?:deliver(?:ed)? to|send (?:it )?to|sent to|to my desk|at my desk|to desk|at desk|"
    r"to the (?=[\w ]*(?:office|floor|reception))|at the (?=[\w ]*(?:office|floor|reception)))"
    r"\s*(?P<where>[\w-]+(?: (?!for\b|by\b|before\b|please\b|asap\b)[\w-]+){0,4})",
    re.I,
)
_DELIVERY_ZH = LazyPattern(_CUES.regex("delivery_zh"))
#: How many ("two monitors", "3 headsets"), in either language.
_COUNT = LazyPattern(_CUES.regex("count"), re.I)


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
    """The item, or the items of a list that starts with it ("a laptop and a monitor"),
    written as one: an order for several things is one order."""
    names = [_item_name(first)]
    at = first.end()
    while (joined := _AND_ANOTHER.match(text, at)) and (item := _ITEM.match(text, joined.end())):
        if _item_name(item) not in names:
            names.append(_item_name(item))
        at = item.end()
    return (_LIST_SEPARATOR_ZH if first["zh"] else ", ").join(names)


def _recipient(text: str) -> str | None:
    found = _FOR_EN.search(text) or _FOR_ZH.search(text)
    return found["who"].strip() if found else None


def _delivery(text: str) -> str | None:
    found = _DELIVERY_EN.search(text) or _DELIVERY_ZH.search(text)
    return found["where"].strip() if found else None


def _quantity(text: str, item_at: int) -> str | None:
    """The count written just before the item ("two monitors"), if any."""
    if item_at < 0:
        return None
    for found in _COUNT.finditer(text):
        if 0 <= item_at - found.end() <= 8:
            return (found["n"] or found["zh"]).lower()
    return None
