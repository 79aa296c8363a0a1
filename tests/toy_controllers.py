"""Two small declarative controllers (printer, payroll) for tests that fit a semantic model of
their own: enough to score and rank, quick to fit."""

from __future__ import annotations

from controllers.declarative import DeclarativeController


def printer_and_payroll() -> list[DeclarativeController]:
    """A fresh pair each call (a fit may keep references to them)."""
    return [
        DeclarativeController(
            name="printer",
            description="printer problems: paper jams, toner, printing fails",
            keywords=["printer", "toner"],
            examples=["the printer on floor 3 jams", "toner is empty", "cannot print"],
        ),
        DeclarativeController(
            name="payroll",
            description="salary, payslips and payroll questions",
            keywords=["salary", "payslip"],
            examples=["where is my payslip", "salary was not paid", "tax on pay"],
        ),
    ]
