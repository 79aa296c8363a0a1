"""The decision chain of the Digital Employee Brain (Slack-free)."""
