"""The foundation every other package builds on: configuration, typed records, errors, the
record stores, the LLM client, redaction and text features.

It imports nothing of the project above it (see ARCHITECTURE.md for the layers).
"""
