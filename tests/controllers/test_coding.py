"""`coding` without an LLM is honest about it."""

from __future__ import annotations

from collections.abc import Callable

from controllers.base import ControllerContext
from controllers.builtin.coding import CodingController

ContextFactory = Callable[..., ControllerContext]


def test_without_llm_it_says_so_and_still_takes_the_message(make_context: ContextFactory) -> None:
    coding = CodingController()
    context = make_context("write a SQL query that sums settlement amounts per fund")
    dry = coding.dry_run(context)
    assert dry.ok and "no LLM" in dry.reason
    result = coding.handle(context)
    assert not result.ok
    assert "No language model is configured" in result.summary
    assert result.data == {"mode": "snippets", "llm_status": "disabled"}
    assert "SELECT" not in result.summary  # nothing pretends to be generated code


def test_empty_message_is_declined(make_context: ContextFactory) -> None:
    assert not CodingController().dry_run(make_context("   ")).ok


def test_dry_run_wants_code_or_a_coding_request(make_context: ContextFactory) -> None:
    coding = CodingController()
    for text in (
        "Traceback (most recent call last): KeyError: 'fund_id'",
        "帮我写一个 Python 脚本，批量重命名文件",
        "git rebase went wrong, how do I get back?",
        "select * from trades where fund_id = 7 -- why so slow?",
    ):
        assert coding.dry_run(make_context(text)).ok, text
    for text in ("book a table for four tonight", "VPN error 691", "job exited with code 137"):
        dry = coding.dry_run(make_context(text))
        assert not dry.ok and "no code" in dry.reason, text
