"""Every bound on what one input may cost, in one place.

Messages, files, YAML documents, identifier regexes, LLM calls, webhooks and Slack requests
all come from people or systems the brain does not control. Each limit here caps the memory or
time one of them can take; the modules that read the input import the limit from here, so a
reviewer sees every bound at once and a change is made once.
"""

from __future__ import annotations

from typing import Final

# -- messages ---------------------------------------------------------------------------------

#: Characters of a message kept in the decision record; longer text is cut (and says so).
MAX_MESSAGE_CHARS: Final = 20_000
#: Bytes of one HTTP request body the Slack endpoint reads (Slack sends far less).
MAX_REQUEST_BYTES: Final = 1024 * 1024
#: Seconds a client may take to send one request's headers or its body (Slack sends in
#: milliseconds and gives up after 3 s); a slower one is dropped, so a connection held open by
#: a slow or silent client costs a socket for this long, not for ever.
MAX_REQUEST_SECONDS: Final = 10.0

# -- files ------------------------------------------------------------------------------------

#: Largest knowledge-base file `brain ingest` reads.
MAX_KB_FILE_BYTES: Final = 5 * 1024 * 1024
#: Most chunks one knowledge-base file may yield (`[knowledge] max_file_chunks`, up to
#: MAX_FILE_CHUNKS_CEILING); a file over it is skipped, with the reason, before any of it is
#: embedded. Embedding is what an ingest's time goes on (about 15 chunks a CPU-second for
#: 1,200-character sections, 150 for one-line glossary entries), so this bounds one file's
#: time: 20,000 chunks is a 5 MiB manual of ordinary sections several times over, or a
#: glossary of 20,000 terms; a larger glossary is better split by domain.
MAX_FILE_CHUNKS: Final = 20_000
#: The most `max_file_chunks` may be raised to (an ingest holds each file's chunk ids).
MAX_FILE_CHUNKS_CEILING: Final = 1_000_000
#: Largest YAML controller file.
MAX_CONTROLLER_FILE_BYTES: Final = 1_000_000

# -- YAML -------------------------------------------------------------------------------------

#: Aliases (`*name`) one YAML document may use; real glossaries and controllers use a few.
YAML_MAX_ALIASES: Final = 50
#: Values a YAML document's aliases may add once expanded ("billion laughs" stops here).
YAML_MAX_EXPANDED_NODES: Final = 100_000
#: Nesting depth of a YAML document (the composer recurses once per level).
YAML_MAX_DEPTH: Final = 64

# -- identifier regexes (knowledge-base `id_patterns`) -----------------------------------------

#: Characters of one pattern's source.
REGEX_MAX_CHARS: Final = 500
#: Seconds one pattern may spend on one text before it counts as no match.
REGEX_TIMEOUT_S: Final = 0.05
#: Tries of one match whose budget ran out while its thread waited for a core (it used less
#: than half the budget in CPU): a busy machine must not retire a harmless pattern.
REGEX_ATTEMPTS: Final = 3

# -- LLM --------------------------------------------------------------------------------------

#: Seconds an LLM request may take at most (the configured `[llm] timeout_s` is capped by it).
LLM_MAX_TIMEOUT_S: Final = 120.0
#: Retries of a failed LLM request (a 429/5xx/overload recovers once), all inside the call's one
#: deadline (`core.llm`): a hung call costs `timeout_s`, not a multiple of it.
LLM_MAX_RETRIES: Final = 1

# -- webhooks ---------------------------------------------------------------------------------

#: Seconds a webhook controller waits by default, and the most a controller file may set.
WEBHOOK_TIMEOUT_S: Final = 5.0
WEBHOOK_MAX_TIMEOUT_S: Final = 60.0
#: Bytes of a webhook's answer read; the rest is dropped unread.
WEBHOOK_MAX_RESPONSE_BYTES: Final = 64 * 1024
#: Characters of a webhook's answer kept in the result.
WEBHOOK_MAX_SUMMARY_CHARS: Final = 2_000
