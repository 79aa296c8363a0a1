"""The surface-neutral conversation shared by Slack and `brain chat`.

Public surface: `turns` (`Conversation`, `BrainAPI`) and `reply` (`Reply`, what a surface draws).
"""
