"""Persistent memory: the routing lessons, their index and how a message recalls them.

Public surface: `lessons` (`LessonRecall`, `Lesson`, the lesson weights), `preference`
(corrections as preferences, conflicts); `mirror`, `index` and `scan` serve `lessons`.
"""
