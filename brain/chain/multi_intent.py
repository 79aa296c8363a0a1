"""Multi-intent messages: each independent request decided on its own, run in parallel.

`brain.intent.split` proposes the pieces (and a plain "and" between two clauses that each
surely ask for something, or two objects of one request with its head repeated,
`pieces_of`); here they are accepted only when every piece routes
on its own (outcome routed or composed: a confident or dry-run-verified route) and no two go
to the same controller. Then the message's decision is a parallel composition whose primary is
the surest part and whose supporting controllers are the other parts'; each part keeps its own
logged decision (`DecisionPart.decision_id`), so it gets its own Right / Route elsewhere.
Objects of one verb for one controller are joined back first (`regrouped`: "needs a laptop, a
monitor and a Tableau licence" is an order for two things and a licence). Anything less (a
piece that would be asked about, two pieces for one controller) means the message is one
request, decided whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from brain.chain import speech_act
from brain.continuation.model import Reading, Thread
from brain.intent.split import at_plain_and, shared_head, split_requests, with_shared_head
from brain.routing.plan import RoutePlan
from core.records import DecisionPart, DryRunRecord, Role
from core.text.language import is_chinese
from core.wording import wording_for

#: What the clause before a plain "and" must surely do (the one after it asks for work).
ASKING_ACTS = ("problem", "work")
#: A piece must route, not be asked about or turned away, to count as a request of its own.
ROUTED = ("routed", "composed")


#: The thread continuation model's reading of a message against a record (None without it).
Continues = Callable[[Thread], Reading | None]
#: A piece read as going on with the one before it at least this surely is context for it.
CONTEXT_AT = 0.75


def pieces_of(text: str, continues: Continues | None = None) -> list[str]:
    """Where the message may hold several requests: at a joiner, a list or a sentence end
    (`brain.intent.split`), or at a plain "and" after which the speech-act model surely reads
    a request for work, and before it a problem or another request ("the vpn is down and I
    need access to the HR portal"). Two reports joined by "and" are one problem told twice
    ("pods are getting evicted and customers can't pay"), and a reason or an approval ("and my
    manager approved it") asks for nothing. One verb with two objects ("new joiner needs a
    laptop and accounts", "需要准备电脑和账号") is two requests when the speech-act model
    surely reads a request for work in the head with each object. Either way the pieces count
    only when each routes on its own to its own controller (`independent`)."""
    pieces = split_requests(text)
    if pieces:
        return with_context_joined(pieces, continues) if continues is not None else pieces
    objects = with_shared_head(text)
    if objects and all(_asks_for_work(p) for p in objects):
        return objects
    halves = at_plain_and(text)
    if not halves:
        return []
    first, then = (speech_act.read(h) for h in halves)
    if first.sure and first.act in ASKING_ACTS and then.sure and then.act == "work":
        return halves
    return []


def with_context_joined(pieces: Sequence[str], continues: Continues) -> list[str]:
    """The pieces with each one that goes on with the piece before it joined to that piece: a
    sentence that gives an approval, a reason, what was tried or which record is meant ("I
    need access to Tableau. My manager Priya already approved it.", "Can you check on
    INC-000123? It's the one about my printer.") is context for its neighbour, not a request
    of its own. Whether it goes on is read by the model that decides whether a message in a
    thread continues the thread's record (`continues`, learned from hundreds of labelled
    follow-ups in both languages), with the piece before it as the record (no reading: the
    pieces stay apart); `[]` when fewer than two requests are left."""
    joined = [pieces[0]]
    for piece in pieces[1:]:
        reading = continues(Thread(message=piece, record=joined[-1]))
        if reading is not None and reading.continues >= CONTEXT_AT:
            joined[-1] = _joined(joined[-1], piece)
        else:
            joined.append(piece)
    return joined if len(joined) >= 2 else []


def _joined(first: str, then: str) -> str:
    """Two sentences as one text again ("... Tableau. My manager ...", "...权限。经理...")."""
    return wording_for(is_chinese(first)).say("common.two_sentences", first=first, then=then)


def _asks_for_work(text: str) -> bool:
    reading = speech_act.read(text)
    return reading.sure and reading.act == "work"


def independent(plans: Sequence[RoutePlan]) -> bool:
    """Do the pieces' plans make separate requests (each routed, each to its own controller)?"""
    if len(plans) < 2 or any(p.outcome not in ROUTED or p.controller is None for p in plans):
        return False
    names = [p.controller for p in plans]
    return len(set(names)) == len(names)


def regrouped(text: str, plans: Sequence[RoutePlan]) -> list[str]:
    """One verb with several objects whose pieces (`with_shared_head`) go to fewer controllers
    than there are objects ("needs a laptop, a monitor and a Tableau licence": two orders and
    a licence): the objects of one controller joined back under the head, one request for all
    of them ("needs a laptop and a monitor", "needs a Tableau licence"); `[]` when the objects
    go to one controller or each to its own. A piece too short to route alone ("I need a
    mouse" is asked about) goes with its likeliest controller whose check did not refuse it
    (`_likeliest`): the joined pieces count only when each of them routes (`independent`)."""
    head, objects = shared_head(text)
    if len(objects) != len(plans):
        return []
    groups: dict[str, list[str]] = {}
    for thing, plan in zip(objects, plans, strict=True):
        likeliest = plan.controller or _likeliest(plan)
        if likeliest is None:
            return []
        groups.setdefault(likeliest, []).append(thing)
    if not 1 < len(groups) < len(plans):
        return []
    return [head + _listing(things) for things in groups.values()]


def _likeliest(plan: RoutePlan) -> str | None:
    """The controller a piece asked about most likely belongs to: its likeliest candidate
    whose dry-run did not fail on it ("给新来的设计师准备扩展坞" is asked about because the
    access controller finds no system in it; the next candidate's check was not run)."""
    failed = {r.controller for r in plan.dry_runs if not r.ok}
    return next((name for name in plan.candidates if name not in failed), None)


def _listing(things: Sequence[str]) -> str:
    """Objects written as a list again ("a laptop and a monitor", "电脑、显示器和账号")."""
    if len(things) == 1:
        return things[0]
    chinese = all(is_chinese(thing) for thing in things)
    words = wording_for(chinese)
    comma, joiner = words.say("common.list_separator"), words.say("common.list_last")
    return comma.join(things[:-1]) + joiner + things[-1]


def primary_index(plans: Sequence[RoutePlan]) -> int:
    """The surest part leads (the top-scoring agent is primary); ties: the first."""
    return max(range(len(plans)), key=lambda i: (plans[i].confidence, -i))


def parts_of(
    pieces: Sequence[str], plans: Sequence[RoutePlan], decision_ids: Sequence[str]
) -> list[DecisionPart]:
    """The parts as the message's decision records them, in the order written."""
    lead = primary_index(plans)
    parts = []
    for i, (piece, plan, decision_id) in enumerate(zip(pieces, plans, decision_ids, strict=True)):
        role: Role = "primary" if i == lead else "supporting"
        parts.append(
            DecisionPart(
                decision_id=decision_id,
                text=piece,
                controller=plan.controller,
                confidence=round(plan.confidence, 4),
                tier=plan.tier,
                outcome=plan.outcome,
                role=role,
            )
        )
    return parts


def combined_plan(parts: Sequence[DecisionPart], plans: Sequence[RoutePlan]) -> RoutePlan:
    """The whole message's plan: a parallel composition of the parts' controllers."""
    lead = next(p for p in parts if p.role == "primary")
    path = [f"multi-intent: {len(parts)} independent requests, decided one by one"]
    path.extend(
        f"part {i} ({part.role}): {part.text[:80]!r} -> {part.controller} "
        f"at {part.confidence:.2f} ({part.tier}, decision {part.decision_id})"
        for i, part in enumerate(parts, 1)
    )
    path.append("composed (parallel: each part runs on its own text)")
    dry_runs: list[DryRunRecord] = [r for plan in plans for r in plan.dry_runs]
    return RoutePlan(
        tier="fast" if all(p.tier == "fast" for p in parts) else "verify",
        outcome="composed",
        controller=lead.controller,
        confidence=min(p.confidence for p in parts),
        supporting=[p.controller for p in parts if p is not lead and p.controller],
        composition="parallel",
        dry_runs=dry_runs,
        tier_path=path,
        candidates=[p.controller for p in parts if p.controller],
    )
