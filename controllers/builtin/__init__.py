"""The built-in IT-operations pack: ticket, consultation, alarm, coding, access, incident, change.

Each is registered through the `brain.controllers` entry point group (see pyproject.toml); their
metadata (label, description, keywords, examples, required entities) lives in catalog.yaml.
"""
