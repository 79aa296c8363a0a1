"""A problem reported to a controller that diagnoses but files nothing is also filed.

"订单服务的错误率突然升到了15%" or "the nightly batch failed with a timeout", said by a person,
is a live problem someone must own: the alarm controller's diagnosis alone leaves no record, so
the thread's next turn ("重跑了一次还是失败") has nothing to go on and the problem is in no
queue. As the seed's composition example has it (alarm diagnosis -> inject result -> ticket
handling), the plan becomes a pipeline: the diagnosing controller runs first and the controller
that takes outages (`controllers.roles.OUTAGES`) files the record with the diagnosis as its
upstream input. Only for a controller that declares it feeds that one, files nothing itself and
is not the one that answers questions or works on existing records, and only when its dry-run
recognises something to diagnose; a question stays a question (that rule runs first), and a
message that names a ticket is about that ticket. A message read as a request for work whose
form reports a failure is such a report too: "昨晚的对账批处理任务失败了" (last night's
reconciliation batch job failed), which the speech-act model reads as work, was diagnosed and
left in no queue, while the same failure pasted by a scheduler was filed.
"""

from __future__ import annotations

from collections.abc import Callable

from brain.routing.plan import RoutePlan, composition_of
from controllers.roles import ANSWERS, OUTAGES, RECORDS
from core.records import DryRunRecord

__all__ = ["reports_are_filed"]


def reports_are_filed(
    plan: RoutePlan,
    *,
    kind: str,
    filers: frozenset[str],
    feeds: dict[str, tuple[str, ...]],
    holders: dict[str, str],
    dry_run: Callable[[str], DryRunRecord],
    names_record: bool = False,
    reports: bool = False,
) -> RoutePlan:
    """The plan, composed with the outages holder when a reported problem routed to a
    diagnosing controller would otherwise leave no record. `names_record`: the message names
    a ticket (found or not), so it is about that one and nothing new is filed; `reports`: its
    form reports a failure and asks nothing, neither a question nor work
    (`request_type.reports_problem`, `question_form`, `work_form`), so a request-for-work
    reading of it is the model's, not the message's, and it is a report as well."""
    primary = plan.controller
    outages = holders.get(OUTAGES)
    reported = kind == "problem" or (kind == "work" and reports)
    if not reported or plan.outcome != "routed" or names_record:
        return plan
    if primary is None or outages is None:
        return plan
    not_diagnosing = (holders.get(ANSWERS), holders.get(RECORDS), outages)
    if primary in filers or primary in not_diagnosing or outages not in filers:
        return plan
    if outages not in feeds.get(primary, ()):
        return plan
    checked = dry_run(primary)
    if not checked.ok:
        return plan
    names = [primary, outages]
    plan.outcome = "composed"
    plan.supporting = [outages]
    plan.composition = composition_of(names, feeds)[0]
    plan.dry_runs = [*plan.dry_runs, checked]
    plan.candidates = list(dict.fromkeys([*names, *plan.candidates]))
    plan.tier_path.append(
        f"a reported problem is filed: {primary} diagnoses, {outages} files the record"
    )
    return plan
