"""Escalation to on-call: its own decision, apart from routing.

Public surface: `decide` (`decide_escalation` and the evidence it records).
"""
