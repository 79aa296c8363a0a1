"""Decisions after they are made: the log, reading them back, explaining them.

Public surface: `log` (`DecisionLog`), `lookups`, `explain` (`brain why`), `rationale`.
"""
