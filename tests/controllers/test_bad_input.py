"""Bad input never crashes a controller: empty, whitespace, huge, control characters, binary."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controllers.base import ControllerContext, ControllerResult, DryRunResult
from controllers.registry import ControllerRegistry

ContextFactory = Callable[..., ControllerContext]

BAD_TEXTS = {
    "empty": "",
    "whitespace": " \n\t ",
    "huge-hyphens": "db-01-" * 17000,
    "huge-upper": "ABC-" * 25000,
    "control": "\x00\x01\x1b[31mCPU\x07 97%" * 5000,
    "binary": bytes(range(256)).decode("latin-1") * 300,
    "labels": "[FIRING:1] " + "a=b " * 25000,
    "zh": "工单进度催一下关闭重新打开" * 7000,
}


@pytest.mark.parametrize("kind", sorted(BAD_TEXTS))
def test_every_builtin_answers_bad_input_safely(
    registry: ControllerRegistry, make_context: ContextFactory, kind: str
) -> None:
    context = make_context(BAD_TEXTS[kind])
    for controller in registry.all():
        dry = controller.dry_run(context)
        assert isinstance(dry, DryRunResult)
        result = controller.handle(context)
        assert isinstance(result, ControllerResult)
        assert isinstance(result.summary, str) and result.summary
        assert len(result.summary) < 5000  # the huge text is not echoed back whole
