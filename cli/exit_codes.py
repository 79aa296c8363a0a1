"""Exit codes of every `brain` command: one meaning each, whatever the command.

- 0: done.
- 1: done in part: a path skipped for an error, nothing found, an unknown id or controller,
  a batch line that failed inside the brain.
- 2: usage or configuration error, or an input that is not a message.
- 3: a store is unavailable: held by another process, or unreadable.
- 130: interrupted (Ctrl-C).
- 141: the reader of the output went away (`brain why ID | head`).
"""

from __future__ import annotations

from typing import Final

OK: Final = 0
PARTIAL: Final = 1
USAGE: Final = 2
STORE_UNAVAILABLE: Final = 3
INTERRUPTED: Final = 130
BROKEN_PIPE: Final = 141
