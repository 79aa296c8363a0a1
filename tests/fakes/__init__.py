"""Fake external services (Slack, Anthropic) served on 127.0.0.1 for offline tests."""
