"""Ticket systems the local tickets are kept in step with (Jira Service Management first):
the HTTP client, the durable outbox of changes for the system and its sender, and the reading
back of the system's own changes. Nothing here imports a surface: the bot posts what comes
back (`bot/helpdesk/jira_sync.py`)."""
