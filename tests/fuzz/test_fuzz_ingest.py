"""Bounded fuzzing of `brain ingest` (the CLI's `main`, in process): whatever the files hold
(random bytes, YAML built from anchors, aliases, merge keys, deep brackets, front matter and
`id_patterns` with hostile regexes, long lines), the command answers with one JSON report,
exit code 0 or 1 (some files skipped, each with a reason) and no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from core.text.embedder import DenseEmbedder

#: Pieces of YAML and Markdown that parsers and the bounded loader treat specially.
_PIECES = st.sampled_from(
    [
        *("&a ", "*a", "&b [*a, *a, *a]", "<<: *a", "[", "]", "{", "}", ": ", "- ", "? "),
        *("\n", "\n  ", "\n    ", "---\n", "...\n", "!!python/object:os.system ", "'", '"'),
        *("glossary:\n  - term: ", "definition: ", "aliases: [", "domain: consultation\n"),
        *("id_patterns:\n  - name: p\n    regex: ", "'(a+)+x'", "'[0-9]{4,}'", "(?P<x>", "\\"),
        *("# Title\n\n", "## Part\n\n", "滚仓", "\x00", "\ufeff", "\u202e", "x" * 2_000),
    ]
)
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=30).map("".join)
_CONTENT = st.one_of(
    _TEXT.map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.binary(max_size=200),
)
_FILES = st.lists(
    st.tuples(st.sampled_from(["md", "yaml", "yml", "txt", "markdown", "json"]), _CONTENT),
    min_size=1,
    max_size=4,
)


@pytest.mark.usefixtures("empty_home")
@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(files=_FILES)
def test_ingest_answers_any_files_with_a_report_and_no_traceback(
    files: list[tuple[str, bytes]],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    embedder: DenseEmbedder,
) -> None:
    docs = tmp_path_factory.mktemp("fuzz-kb")
    for index, (suffix, content) in enumerate(files):
        (docs / f"doc{index}.{suffix}").write_bytes(content)

    code = main(["ingest", str(docs), "--json", "--quiet"])

    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code in (0, 1), captured.err
    report = json.loads(captured.out)
    skipped = {Path(item["path"]).name: item["reason"] for item in report["skipped"]}
    assert all(reason.strip() for reason in skipped.values())
    written = {f"doc{index}.{suffix}" for index, (suffix, _) in enumerate(files)}
    assert set(skipped) <= written | {docs.name}  # a folder with nothing to read is named
